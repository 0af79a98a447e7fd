// Package suggest finds the names someone probably meant when a name they typed matches
// nothing: "no entry "ember dat" — did you mean Ember Dart?". It is the one place every
// unknown-pool, unknown-entry, unknown-character or unknown-command answer asks, so they
// all forgive the same typos the same way.
//
// Names are compared as ruleset.FoldName folds them, by edit distance
// (github.com/agnivade/levenshtein, with two swapped neighbours counted as one edit):
// the typos people make in short names — a dropped letter ("stelth"), two swapped
// ("mria"), a doubled one ("hpp") — are one edit each. Subsequence matchers (sahilm/fuzzy, lithammer/fuzzysearch) rank what was typed
// as an abbreviation of a name and find none of those three.
package suggest

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"

	"sheetkeeper/ruleset"
)

// Most is how many names a suggestion offers: more reads as a list, not a guess.
const Most = 3

// maxTyped is the longest name (in runes) a suggestion is looked for: anything longer is
// not a mistyped name, and the distance costs its length times each name's.
const maxTyped = 64

// Closest returns up to Most of names that are close to typed, nearest first (ties in
// the order of names), each once (names that fold alike count once; the first is
// shown). A name is close when it is one edit from typed, or two for a typed of eight
// letters or more ("ember dat" is one from "Ember Dart"; "soaked", two from "Shaken",
// is not close, nor "Flare charges", three from "Spark charges"), or when typed, three
// letters or more, begins one of its words ("fire" finds "Fire Bolt"). Nothing is close
// to an empty or over-long typed.
func Closest(typed string, names []string) []string {
	return ClosestOf(typed, names, func(s *string) []string { return []string{*s} })
}

// ClosestOf is Closest over things that each answer to several names (an id, a label, a
// short form): one suggestion per thing, the closest of its names (on a tie the first of
// them, so list the one people read first), so "glwo" suggests Glow and not also GLW.
func ClosestOf[T any](typed string, items []T, names func(*T) []string) []string {
	want := ruleset.FoldName(typed)
	n := utf8.RuneCountInString(want)
	if n == 0 || n > maxTyped {
		return nil
	}
	limit := min(2, max(1, n/4))
	type hit struct {
		name   string
		folded string
		dist   int
	}
	var hits []hit
	for i := range items {
		best := hit{dist: -1}
		for _, name := range names(&items[i]) {
			f := ruleset.FoldName(name)
			if f == "" {
				continue
			}
			if f == want {
				best.dist = -1 // the very name: it was not what failed to match
				break
			}
			if d, ok := distance(want, n, f, limit); ok && (best.dist < 0 || d < best.dist) {
				best = hit{name, f, d}
			}
		}
		if best.dist >= 0 && !slices.ContainsFunc(hits, func(h hit) bool { return h.folded == best.folded }) {
			hits = append(hits, best)
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.dist - b.dist })
	out := make([]string, 0, min(len(hits), Most))
	for _, h := range hits[:min(len(hits), Most)] {
		out = append(out, h.name)
	}
	return out
}

// distance is how far the folded name f is from want (n runes long), and whether it is
// close: within limit edits, or (for a want of three runes or more) the start of one of
// f's words, ranked after every edit-close name.
func distance(want string, n int, f string, limit int) (int, bool) {
	if m := utf8.RuneCountInString(f); m-n <= limit && n-m <= limit {
		if swapped(want, f) {
			return 1, true
		}
		if d := levenshtein.ComputeDistance(want, f); d <= limit {
			return d, true
		}
	}
	if n >= 3 && (strings.HasPrefix(f, want) || strings.Contains(f, " "+want)) {
		return limit + 1, true
	}
	return 0, false
}

// swapped reports whether b is a with one pair of neighbouring letters swapped ("mria"
// and "mira"): one slip of the fingers, which Levenshtein counts as two.
func swapped(a, b string) bool {
	x, y := []rune(a), []rune(b)
	if len(x) != len(y) {
		return false
	}
	i := 0
	for i < len(x) && x[i] == y[i] {
		i++
	}
	return i+1 < len(x) && x[i] == y[i+1] && x[i+1] == y[i] && string(x[i+2:]) == string(y[i+2:])
}

// DidYouMean is the words that follow a refusal of typed: " — did you mean A, B or C?",
// naming Closest's names, or "" when none is close.
func DidYouMean(typed string, names []string) string {
	return phrase(Closest(typed, names))
}

// DidYouMeanOf is DidYouMean over things with several names each (ClosestOf).
func DidYouMeanOf[T any](typed string, items []T, names func(*T) []string) string {
	return phrase(ClosestOf(typed, items, names))
}

// phrase is " — did you mean A, B or C?", or "" for no names.
func phrase(near []string) string {
	switch len(near) {
	case 0:
		return ""
	case 1:
		return " — did you mean " + near[0] + "?"
	}
	return " — did you mean " + strings.Join(near[:len(near)-1], ", ") + " or " + near[len(near)-1] + "?"
}
