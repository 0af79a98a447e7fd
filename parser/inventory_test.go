package parser

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCollapseSpace: CollapseSpace is strings.Join(strings.Fields(s), " ") on every
// string, the clean ones it returns as they are and the others it collapses.
func TestCollapseSpace(t *testing.T) {
	cases := []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "a\u0085b", "\xe2 b", "Potion of Healing", "Rope\n"}
	alphabet := []string{"a", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\ufeff", "é", "\xe2", ","}
	r := rand.New(rand.NewPCG(19, 3))
	for range 5000 {
		var b strings.Builder
		for n := r.IntN(8); n > 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := CollapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("CollapseSpace(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzCollapseSpace: CollapseSpace is strings.Fields joined by single spaces, for any
// text.
func FuzzCollapseSpace(f *testing.F) {
	for _, s := range []string{"", "damage 7 hp", " damage", "damage ", "a  b", "a\tb", "a\u00a0b", "a\u0085b", "\x1f", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := CollapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("CollapseSpace(%q) = %q, want %q", s, got, want)
		}
	})
}
