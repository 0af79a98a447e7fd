// Package rules holds what every part of a ruleset file shares, so the parts can be
// checked in their own packages and still say one thing the same way: the report the
// checks write problems and dated features into, the small checks of ids, labels,
// prompt text, words, numbers and counts, and the number vocabulary (ValueRef,
// StepTable) the sheet, the fight and the catalogs all read.
package rules

import (
	"sort"

	"sheetkeeper/strictjson"
)

// Feature is something a ruleset uses that needs at least Capability API 1.Minor,
// and where it is first used.
type Feature struct {
	Name  string
	Minor int
	Path  string
}

// Report collects what a check finds: every problem, and every dated feature the file
// uses. Each part of a ruleset is checked into the same Report, so the problems come out
// together and a feature is recorded once whichever part meets it first.
type Report struct {
	Problems strictjson.Problems
	Features []Feature
	// dice is the dice texts read so far, each with whether it is ruleset dice: a
	// bestiary writes the same few thousands of times, and reading one through the dice
	// grammar was a sixth of checking the 5e package.
	dice map[string]bool
}

// Add reports a problem at path.
func (r *Report) Add(path, format string, args ...any) { r.Problems.Add(path, format, args...) }

// Uses records that the ruleset needs Capability API 1.minor for feature at path.
func (r *Report) Uses(feature string, minor int, path string) {
	r.Features = append(r.Features, Feature{Name: feature, Minor: minor, Path: path})
}

// UsesOnce records a dated feature the first time it is met, so a catalog of 2,000
// scaled rows lists it once.
func (r *Report) UsesOnce(feature string, minor int, path string) {
	for _, f := range r.Features {
		if f.Name == feature {
			return
		}
	}
	r.Uses(feature, minor, path)
}

// Known checks a sheet id and that it names something; ok says whether it does.
func (r *Report) Known(path, what, id string, ok bool) bool {
	if !r.SheetID(path, id) {
		return false
	}
	if !ok {
		r.Add(path, "unknown %s %q", what, id)
	}
	return ok
}

// IDList checks an optional list of 1..max sheet ids that must each name something.
func (r *Report) IDList(path string, ids []string, max int, what string, ok func(string) bool) {
	if ids == nil {
		return
	}
	r.Count(path, len(ids), 1, max)
	for i, id := range ids {
		r.Known(strictjson.Join(path, i), what, id, ok(id))
	}
}

// PathOf joins keys and indexes onto a path.
func PathOf(base string, keys ...any) string {
	if len(keys) == 1 {
		return strictjson.Join(base, keys[0])
	}
	b := make([]byte, 0, len(base)+12*len(keys))
	b = append(b, base...)
	for _, k := range keys {
		b = strictjson.AppendSeg(b, k)
	}
	return string(b)
}

// SortedKeys returns a map's keys in order, so problems come out the same every run.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
