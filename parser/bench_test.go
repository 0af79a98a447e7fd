package parser

import (
	"slices"
	"strings"
	"testing"
)

// narration is a 4 KB GM reply: prose with ten tags of the usual kinds.
func narration(withTags bool) string {
	tags := []string{
		`[sheet: who="Mira" op="damage" pool="hp" amount="7"]`,
		`[sheet: who="Mira" op="cast" spell="Fireball" pool="3rd-level slots"]`,
		`[sheet: who="Bram" op="spend" pool="Ki points" amount="2"]`,
		`[sheet: who="Bram" op="condition" condition="poisoned" state="on"]`,
		`[inventory: action="remove" item="Potion of Healing" count="1" who="Bram"]`,
		`[sheet: who="Ash" op="track" track="death_saves" by="1"]`,
		`[sheet: who="Ash" op="note" field="notes" value="Owes the ferryman a favour"]`,
		`[inventory: action="add" item="Rope, Lantern" who="Mira"]`,
		`[sheet: who="party" op="rest" rest="short"]`,
		`[sheet: who="Mira" op="advance" field="xp" by="300"]`,
	}
	prose := "The acid hisses against the flagstones and the smell of scorched stone fills the vault. " +
		"Mira steadies her breath, counts the heartbeats between the drips, and lets the ember in her palm grow. " +
		"Somewhere beyond the arch a chain rattles, slow and patient, as if whatever holds it has all the time in the world. "
	var b strings.Builder
	for i := 0; b.Len() < 4096-len(prose); i++ {
		b.WriteString(prose)
		if withTags && i < len(tags) {
			b.WriteString(tags[i])
			b.WriteByte(' ')
		}
	}
	for b.Len() < 4096 {
		b.WriteByte(' ')
	}
	return b.String()
}

func BenchmarkReadNarration10Tags(b *testing.B) {
	text := narration(true)
	if n := len(Read(text).Tags); n != 11 { // the two-item inventory tag is two requests
		b.Fatalf("setup: %d tags in %d bytes", n, len(text))
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Read(text)
	}
}

// scanSpans is the yardstick's tag finder: a plain byte loop that appends the [start,
// end) of every `[sheet:` or `[inventory:` head and the first ']' after it to out. It
// knows nothing of code spans, rolls, bounds or bodies, so it is the floor under finding
// the tags, not a reader of them.
func scanSpans(text string, out [][2]int) [][2]int {
	for i := 0; i < len(text); i++ {
		if text[i] != '[' {
			continue
		}
		rest := text[i+1:]
		body := 0
		switch {
		case len(rest) >= 6 && rest[:6] == "sheet:":
			body = 7
		case len(rest) >= 10 && rest[:10] == "inventory:":
			body = 11
		default:
			continue
		}
		for j := i + body; j < len(text); j++ {
			if text[j] == ']' {
				out = append(out, [2]int{i, j + 1})
				i = j
				break
			}
		}
	}
	return out
}

// BenchmarkScanNarration10Tags is the yardstick for BenchmarkReadNarration10Tags: the same
// 4 KB narration, its ten tag spans found by scanSpans into a reused slice. The target is
// Read at most 5 times this. Before timing it checks that the scan finds exactly the spans
// Read finds, so the two measure the same finding.
func BenchmarkScanNarration10Tags(b *testing.B) {
	text := narration(true)
	var read [][2]int
	for _, t := range Read(text).Tags {
		sp := [2]int{t.Start, t.End}
		if len(read) == 0 || read[len(read)-1] != sp { // a two-item inventory tag is one span
			read = append(read, sp)
		}
	}
	spans := scanSpans(text, nil)
	if len(read) != 10 || !slices.Equal(spans, read) {
		b.Fatalf("setup: the scan found %v, Read %v", spans, read)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		spans = scanSpans(text, spans[:0])
	}
	if len(spans) != 10 {
		b.Fatalf("%d spans", len(spans))
	}
}

func BenchmarkReadNoTag(b *testing.B) {
	text := narration(false)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if len(Read(text).Tags) != 0 {
			b.Fatal("found a tag")
		}
	}
}

// BenchmarkContainsNoTag is the yardstick for BenchmarkReadNoTag: the cheapest test for a
// tag there is. Read on a text with no tag should cost no more than 1.2 times this.
func BenchmarkContainsNoTag(b *testing.B) {
	text := narration(false)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if strings.Contains(text, "[sheet:") {
			b.Fatal("found a tag")
		}
	}
}

// BenchmarkReadUnclosedHeads is a 4 KB reply made of unclosed heads with a ']' just out
// of reach of the first: it must cost about what any 4 KB does, not a rescan per head.
func BenchmarkReadUnclosedHeads(b *testing.B) {
	text := strings.Repeat("[sheet: ", 512) + strings.Repeat("x", MaxBody) + "]"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Read(text)
	}
}

func BenchmarkWriteBack(b *testing.B) {
	tag := Read(`[sheet: who="Mira" op="cast" spell="Fireball" pool="3rd-level slots"]`).Tags[0]
	b.ReportAllocs()
	for b.Loop() {
		tag.WriteBack(Outcome{Result: ResultOK, Now: "3rd-level slots 1/3"})
	}
}

// TestReadNarrationAllocs holds the 10-tag reply to its allocation budget (issue 19: at
// most 60). Allocations, unlike time, do not move with the machine's load, so this is the
// part of BenchmarkReadNarration10Tags's budget a test can keep.
func TestReadNarrationAllocs(t *testing.T) {
	text := narration(true)
	if n := testing.AllocsPerRun(100, func() { Read(text) }); n > 60 {
		t.Fatalf("Read of the 10-tag narration makes %v allocations, the budget is 60", n)
	}
}
