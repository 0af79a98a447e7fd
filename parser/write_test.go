package parser

import (
	"strings"
	"testing"
)

// A use paid above its cost's level says how far it rose and how many targets it now
// has, after now; a forged level or targets in the input is not a request and is gone.
func TestWriteBackLevelTargets(t *testing.T) {
	tag := Read(`[sheet: who="Mira" op="cast" spell="Hold Person" pool="4th-level slots" level="9" targets="20"]`).Tags[0]
	cases := []struct {
		name string
		o    Outcome
		want string
	}{
		{"raised", Outcome{Result: ResultOK, Now: "4th-level slots 2/3", Level: 4, Targets: 3},
			`[sheet: who="Mira" op="use" name="Hold Person" pool="4th-level slots" result="ok" now="4th-level slots 2/3" level="4" targets="3"]`},
		{"level only", Outcome{Result: ResultOK, Now: "Pact slots 0/2", Level: 3},
			`[sheet: who="Mira" op="use" name="Hold Person" pool="4th-level slots" result="ok" now="Pact slots 0/2" level="3"]`},
		{"not raised", Outcome{Result: ResultOK, Now: "2nd-level slots 2/3"},
			`[sheet: who="Mira" op="use" name="Hold Person" pool="4th-level slots" result="ok" now="2nd-level slots 2/3"]`},
		{"refused writes neither", Outcome{Result: ResultRefused, Reason: "insufficient", Level: 4, Targets: 3},
			`[sheet: who="Mira" op="use" name="Hold Person" pool="4th-level slots" result="refused" reason="insufficient"]`},
	}
	for _, c := range cases {
		got := tag.WriteBack(c.o)
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		back := Read(got)
		if len(back.Tags) != 1 || back.Tags[0].Canonical() != tag.Canonical() {
			t.Errorf("%s: reading the write-back gives %+v, want the same request", c.name, back)
		}
	}
}

// The write-back caps a value in UTF-16 code units, as Marinara's slice does: 70 emoji are
// 140 units, so a name of 70 keeps 60 under MaxValue.
func TestWriteBackCapCountsUTF16(t *testing.T) {
	name := strings.Repeat("\U0001F525", 70)
	tag := Read(`[sheet: op="use" name="` + name + `"]`).Tags[0]
	got := tag.WriteBack(Outcome{Result: ResultOK, Now: "no cost"})
	want := `[sheet: op="use" name="` + strings.Repeat("\U0001F525", 60) + `" result="ok" now="no cost"]`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// who= is capped at maxWho UTF-16 code units when it is read: 60 emoji keep 50.
func TestWhoCapCountsUTF16(t *testing.T) {
	who := strings.Repeat("\U0001F525", 60)
	tag := Read(`[sheet: who="` + who + `" op="rest" rest="long"]`).Tags[0]
	got := tag.WriteBack(Outcome{Result: ResultRefused, Reason: "unknown-character"})
	want := `[sheet: who="` + strings.Repeat("\U0001F525", 50) + `" op="rest" rest="long" result="refused" reason="unknown-character"]`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// A character the cap would cut in two is dropped whole: "a" and 60 emoji are 121 units,
// and the last emoji's second unit would be the 121st, so 59 emoji stay (119 units, where
// JavaScript's slice keeps half a surrogate pair as the 120th).
func TestCapUTF16DropsACharacterItWouldCut(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want string
	}{
		{"a" + strings.Repeat("\U0001F525", 60), 120, "a" + strings.Repeat("\U0001F525", 59)},
		{strings.Repeat("\U0001F525", 60), 120, strings.Repeat("\U0001F525", 60)},
		{"é" + strings.Repeat("\U0001F525", 3), 4, "é\U0001F525"},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"\U0001F525", 1, ""},
	}
	for _, c := range cases {
		if got := CapUTF16(c.s, c.n); got != c.want {
			t.Errorf("CapUTF16(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	name := "a" + strings.Repeat("\U0001F525", 60)
	tag := Read(`[sheet: op="use" name="` + name + `"]`).Tags[0]
	if got, want := tag.Attrs[0].Value, name; got != want {
		t.Fatalf("read name %q, want %q", got, want)
	}
	want := `[sheet: op="use" name="a` + strings.Repeat("\U0001F525", 59) + `"]`
	if got := tag.Canonical(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
