package bot

import (
	"strings"
	"testing"
)

// FuzzOneSpaced: oneSpaced is strings.Fields joined by single spaces, for any text.
func FuzzOneSpaced(f *testing.F) {
	for _, s := range []string{"", "damage 7 hp", " damage", "damage ", "a  b", "a\tb", "a\u00a0b", "a\u0085b", "\x1f", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := oneSpaced(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("oneSpaced(%q) = %q, want %q", s, got, want)
		}
	})
}
