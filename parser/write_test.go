package parser

import "testing"

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
