package parser

import (
	"strings"
	"testing"

	"sheetkeeper/refusal"
)

// outcomes are the write-backs the fuzz targets try for every tag.
var outcomes = []Outcome{
	Outcome{Result: ResultOK, Now: "2/3"},
	Outcome{Result: ResultOK, Now: `Mira 1450; Bram "1200"; Ash refused (not-allowed)]`},
	Outcome{Result: ResultRefused, Reason: refusal.Insufficient},
	Outcome{Result: ResultRefused, Reason: refusal.BadAmount, Bounds: "0..355000"},
}

// checkSpans holds for any text: tags in order, not overlapping, each a real tag span.
func checkSpans(t *testing.T, text string, m Message) {
	t.Helper()
	last := 0
	for i, tag := range m.Tags {
		if tag.Start < last || tag.End <= tag.Start || tag.End > len(text) {
			if i > 0 && tag.Start == m.Tags[i-1].Start && tag.End == m.Tags[i-1].End && tag.Kind == Inventory {
				continue // the items of one inventory tag share its span
			}
			t.Fatalf("tag %d span %d..%d out of order (last end %d, len %d)", i, tag.Start, tag.End, last, len(text))
		}
		if text[tag.Start] != '[' || text[tag.End-1] != ']' || strings.IndexByte(text[tag.Start:tag.End-1], ']') >= 0 {
			t.Fatalf("tag %d span %q is not a tag", i, text[tag.Start:tag.End])
		}
		if n := len([]rune(text[tag.Start:tag.End])); n > MaxBody+len("[skill_check:]") {
			t.Fatalf("tag %d has %d characters", i, n)
		}
		if tag.Malformed != (tag.Reason == refusal.Malformed) || tag.Malformed && tag.Op != "" {
			t.Fatalf("tag %d: malformed %v, reason %q, op %q", i, tag.Malformed, tag.Reason, tag.Op)
		}
		last = tag.End
	}
}

// FuzzRead: reading never panics, and what it finds is well formed. Quoting the text as
// Discord does — every line behind "> ", or all of it behind ">>> " — leaves nothing to
// apply, whatever it holds: a GM can always quote an outcome without asking for it again.
func FuzzRead(f *testing.F) {
	for _, g := range goldens {
		f.Add(g.in)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m := Read(text)
		checkSpans(t, text, m)
		for _, quoted := range []string{"> " + strings.ReplaceAll(text, "\n", "\n> "), ">>> " + text} {
			if q := Read(quoted); len(q.Tags) != 0 {
				t.Fatalf("quoted text %q reads as %d tags, first %q", quoted, len(q.Tags), q.Tags[0].Canonical())
			}
		}
	})
}

// FuzzWriteBack: a write-back, read again, is the same request and nothing else — what it
// says of the outcome dropped — and writing that request back gives the same text: a
// model that copies last turn's write-back asks again for exactly what was asked.
func FuzzWriteBack(f *testing.F) {
	for _, g := range goldens {
		f.Add(g.in)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tag := range Read(text).Tags {
			for _, o := range outcomes {
				wb := tag.WriteBack(o)
				back := Read(wb)
				if len(back.Tags) != 1 {
					t.Fatalf("write-back %q of %q reads as %d tags", wb, text[tag.Start:tag.End], len(back.Tags))
				}
				if got, want := back.Tags[0].Canonical(), tag.Canonical(); got != want {
					t.Fatalf("write-back %q reads back as\n%s\nwant\n%s", wb, got, want)
				}
				if again := back.Tags[0].WriteBack(o); again != wb {
					t.Fatalf("write-back %q, read and written again, is %q", wb, again)
				}
				if back.Tags[0].Start != 0 || back.Tags[0].End != len(wb) {
					t.Fatalf("write-back %q is not one whole tag", wb)
				}
			}
		}
	})
}

// FuzzSanitize: the shortcut for a value already clean leaves exactly what sanitizing it
// character by character leaves, in sheet and inventory tags and at both caps.
func FuzzSanitize(f *testing.F) {
	for _, v := range []string{"", "7", "Magic Missile", "1st-level slots 3/4", " x", "x ", "a  b", "a\tb", `a"b`,
		"[x]", "\u00a0x", "é", strings.Repeat("x", MaxValue+1), strings.Repeat("ab; ", 70)} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, limit := range []int{MaxValue, MaxNow} {
			for _, inventory := range []bool{false, true} {
				if got, want := sanitize(v, limit, inventory), resanitize(v, limit, inventory); got != want {
					t.Fatalf("sanitize(%q, %d, %v) = %q, want %q", v, limit, inventory, got, want)
				}
			}
		}
	})
}

// FuzzReplace: text with its tags written back holds exactly the tags the engine wrote —
// the same requests, in the same order — and nothing else changes: a write-back never
// creates, hides or alters a request, so reading it again asks for no more than the GM did.
func FuzzReplace(f *testing.F) {
	for _, g := range goldens {
		f.Add(g.in)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m := Read(text)
		repl := make([]string, len(m.Tags))
		for i, tag := range m.Tags {
			repl[i] = tag.WriteBack(outcomes[i%len(outcomes)])
		}
		out, err := Replace(text, m.Tags, repl)
		if err != nil {
			t.Fatalf("Replace: %v", err)
		}
		back := Read(out)
		if len(back.Tags) != len(m.Tags) {
			t.Fatalf("%d tags read back from %d written:\n%q", len(back.Tags), len(m.Tags), out)
		}
		for i, tag := range back.Tags {
			written := out[tag.Start:tag.End]
			if padded := strings.TrimRight(written[:len(written)-1], " ") + "]"; padded != repl[i] {
				t.Fatalf("tag %d reads back as %q, the engine wrote %q", i, written, repl[i])
			}
			if tag.Canonical() != m.Tags[i].Canonical() {
				t.Fatalf("tag %d: %q came back as %q", i, m.Tags[i].Canonical(), tag.Canonical())
			}
		}
		// Everything outside the tags is kept byte for byte.
		last, lastOut := 0, 0
		for i := 0; i < len(m.Tags); i++ {
			j := i
			for j+1 < len(m.Tags) && m.Tags[j+1].Start == m.Tags[i].Start {
				j++
			}
			if text[last:m.Tags[i].Start] != out[lastOut:back.Tags[i].Start] {
				t.Fatalf("text between tags changed")
			}
			last, lastOut = m.Tags[i].End, back.Tags[j].End
			i = j
		}
		if text[last:] != out[lastOut:] {
			t.Fatalf("text after the last tag changed")
		}
	})
}
