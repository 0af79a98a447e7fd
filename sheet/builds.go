package sheet

import (
	"maps"
	"math"
	"slices"
	"sync"

	"sheetkeeper/ruleset"
)

// maxKeptBuilds bounds what a Builds keeps: a card's evaluation is a few kilobytes, and a
// process serves every channel's cards on a ruleset. Past it a Builds starts afresh, which
// costs one evaluation per card, never an answer.
const maxKeptBuilds = 512

// Builds keeps what cards' builds yield on one ruleset from one message to the next: an
// Applier works a card's build out once per message, but a card is read afresh from the
// store for every message, and its build — unlike its live state — seldom changes
// between two. A kept evaluation is used only for a build equal to the one it was worked
// out for (sameBuild), so a build changed by any means is simply worked out again. Cards
// are kept by name: two channels' cards of one name take turns, which costs time, never
// an answer. A Builds is safe for concurrent use; what it hands out is only read.
type Builds struct {
	ix *index
	mu sync.Mutex
	// byName is each card's build as it was worked out (a copy of its own) and what it
	// yields.
	byName map[string]keptBuild
}

type keptBuild struct {
	build *Build
	eval  *cardEval
}

// NewBuilds returns an empty Builds for cards on rs.
func NewBuilds(rs *ruleset.Ruleset) *Builds {
	return &Builds{ix: newIndex(rs), byName: map[string]keptBuild{}}
}

// Applier returns an Applier on b's ruleset (as NewApplier) that takes what it works out
// for a card from b when b has it for the card's build, and leaves in b what it works out.
func (b *Builds) Applier() *Applier {
	return &Applier{ix: b.ix, known: map[*Card]*cardEval{}, builds: b}
}

// lookup is what b keeps for card's build, or nil.
func (b *Builds) lookup(card *Card) *cardEval {
	b.mu.Lock()
	defer b.mu.Unlock()
	k, ok := b.byName[card.Name]
	if !ok || !sameBuild(k.build, &card.Build) {
		return nil
	}
	return k.eval
}

// keep remembers e as what card's build yields. The build is copied: the card's own may
// change in place once the Applier is done with it.
func (b *Builds) keep(card *Card, e *cardEval) {
	build := card.Build.clone()
	build.Extra = nil // evaluation never reads it
	e.base.build = &build
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.byName) >= maxKeptBuilds {
		clear(b.byName)
	}
	b.byName[card.Name] = keptBuild{build: &build, eval: e}
}

// sameBuild reports whether two builds hold the same values in everything evaluation
// reads (Extra it never reads). Numbers compare bit for bit, so a build that reads
// differently in any way (a -0, a NaN) is never taken for another; a value of a kind a
// build does not hold compares unequal.
func sameBuild(a, b *Build) bool {
	return maps.EqualFunc(a.Abilities, b.Abilities, sameNumber) &&
		maps.Equal(a.Skills, b.Skills) && maps.Equal(a.Saves, b.Saves) &&
		maps.EqualFunc(a.Bonuses, b.Bonuses, sameNumber) &&
		maps.EqualFunc(a.Fields, b.Fields, sameScalar) &&
		maps.EqualFunc(a.Lists, b.Lists, func(x, y []Row) bool {
			return (x == nil) == (y == nil) && slices.EqualFunc(x, y, func(r, s Row) bool {
				return maps.EqualFunc(r, s, sameScalar)
			})
		})
}

func sameNumber(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// sameScalar compares two field or cell values: float64, string or bool.
func sameScalar(x, y any) bool {
	switch x := x.(type) {
	case float64:
		y, ok := y.(float64)
		return ok && sameNumber(x, y)
	case string:
		y, ok := y.(string)
		return ok && x == y
	case bool:
		y, ok := y.(bool)
		return ok && x == y
	}
	return false
}
