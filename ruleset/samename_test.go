package ruleset

import "testing"

// FuzzSameName: SameName is FoldName on both sides compared, for any two strings.
func FuzzSameName(f *testing.F) {
	for _, p := range [][2]string{{"Mira", "mira"}, {" Magic  missile ", "magic missile"}, {"Mira", "Mir"},
		{"a\tb", "a b"}, {"", "  "}, {"party", "Party"}, {"Ǆ", "ǆ"}, {"\ufeffMira", "mira"}, {"a\x00", "a"},
		{"Mira\u00a0", "mira"}, {"mira ", "mira"}, {"A B", "a  b"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := SameName(a, b), FoldName(a) == FoldName(b); got != want {
			t.Fatalf("SameName(%q, %q) = %v, FoldName says %v", a, b, got, want)
		}
		if !SameName(a, FoldName(a)) {
			t.Fatalf("%q is not the same name as its fold %q", a, FoldName(a))
		}
	})
}
