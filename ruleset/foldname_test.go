package ruleset

import (
	"strings"
	"testing"
)

func TestFoldName(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"mira":                "mira",
		"  Magic \t Missile ": "magic missile",
		"\uFEFFMira\uFEFF":    "mira",
		"A\u00a0B":            "a b",
		"ÉLAN  Vital":         "élan vital",
		"a b":                 "a b",
		"a  b":                "a b",
		" a":                  "a",
		"a\n":                 "a",
		"bad\xffbyte":         "bad\uFFFDbyte",
	} {
		if got := FoldName(in); got != want {
			t.Errorf("FoldName(%q) = %q, want %q", in, got, want)
		}
		// Outside the byte-order mark, the rule is strings.Fields joined and lowered.
		if !strings.ContainsRune(in, '\uFEFF') {
			if old := strings.ToLower(strings.Join(strings.Fields(in), " ")); FoldName(in) != old {
				t.Errorf("FoldName(%q) = %q, the fields rule gives %q", in, FoldName(in), old)
			}
		}
	}
}

func BenchmarkFoldNameFolded(b *testing.B) {
	for b.Loop() {
		_ = FoldName("magic missile")
	}
}
