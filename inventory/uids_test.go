package inventory

import (
	"testing"

	"pgregory.net/rapid"
)

// TestUIDSet: the set answers as a map of the uids would, for uids NewUID writes and
// any others (a leading zero, a sign, past maxUIDBit, not "i" at all).
func TestUIDSet(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, want := newUIDSet(rapid.Int64Range(-5, 1<<20).Draw(t, "next")), map[string]bool{}
		uid := rapid.OneOf(rapid.StringMatching(`i[1-9][0-9]{0,5}`), rapid.StringMatching(`i0[0-9]?|i-?[0-9]{1,3}|x[0-9]{1,2}|i|`),
			rapid.SampledFrom([]string{"i65536", "i65537", "i99999", "i1", "i64", "i63"}))
		for range rapid.IntRange(0, 40).Draw(t, "n") {
			u := uid.Draw(t, "uid")
			if got := s.has(u); got != want[u] {
				t.Fatalf("has(%q) = %v before add", u, got)
			}
			if had := s.add(u); had != want[u] {
				t.Fatalf("add(%q) said %v", u, had)
			}
			want[u] = true
			probe := uid.Draw(t, "probe")
			if got := s.has(probe); got != want[probe] {
				t.Fatalf("has(%q) = %v", probe, got)
			}
		}
	})
}
