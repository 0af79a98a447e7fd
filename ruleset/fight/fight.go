// Package fight owns the ruleset's validation-only fight blocks: battle, which lends the
// engine's own combat the sheet's numbers, and combat, which says how a fight is
// resolved by the ruleset's own numbers (SPEC 4.1). sheetkeeper checks and keeps them
// like everything else and plays neither.
//
// The checks name things on the sheet, so they ask the ruleset about it through Sheet:
// the arrow runs from ruleset to fight, never back. Creatures are catalog entries whose
// actions speak the entry mechanics vocabulary, so they are checked in ruleset, with
// the exported words of a Combat this package gives them.
package fight

import "sheetkeeper/ruleset/rules"

// Sheet is what the fight checks ask of the sheet around them, in the fight's own terms.
type Sheet interface {
	// Declares reports whether the sheet declares a name of the kind.
	Declares(kind Name, id string) bool
	// Track describes live track id; ok is false when there is none.
	Track(id string) (t Track, ok bool)
	// Pool reports whether id is a declared live pool, and whether it starts full.
	Pool(id string) (startsFull, ok bool)
	// ValueRef checks a value reference at path; a fight may read anything on the sheet.
	ValueRef(ref *rules.ValueRef, path string)
	// Column checks, reporting at path, that the list (known to exist) has column id of
	// type typ, any type when typ is "". ok is false when it was reported.
	Column(path, list, id, typ string) (col Column, ok bool)
	// DicePool is the die a "dice-pool" resolution throws; ok is false for another kind.
	DicePool() (sides int, ok bool)
}

// Name is a kind of name on the sheet a fight may point at.
type Name int

// The kinds of sheet name the fight checks ask about.
const (
	Skill Name = iota
	Save
	Condition
	LiveText
	Derived
	List
	// PoolList is a list whose rows are pools: never a declared pool.
	PoolList
)

// Track is what a fight reads of a live track.
type Track struct {
	// Wound is a track of named levels or numbered boxes.
	Wound bool
	Min   int
	// Max is the track's max when it is a number, nil when the sheet works it out.
	Max *int
	// Hidden says the track has a hideWhen rule.
	Hidden bool
	// Kinds are the ids of a wound track's kinds of harm.
	Kinds []string
}

// Column is what a fight reads of a list column.
type Column struct {
	Type string
	// Refuses says why the column cannot hold the scalar v, "" when it can.
	Refuses func(v any) string
}

// checker carries what the fight checks share: the report they write into, the sheet
// they ask about and the combat block the other blocks point at.
type checker struct {
	*rules.Report
	sheet Sheet
	cb    *Combat
}

// Check checks the battle and combat blocks (either may be nil) into r.
func Check(r *rules.Report, s Sheet, b *Battle, cb *Combat) {
	c := &checker{Report: r, sheet: s, cb: cb}
	c.checkBattle(b)
	c.checkCombat(cb)
}

// CheckItemEffects checks what an item's worn or carried effect does, in the condition
// vocabulary a combat condition speaks. The items block dates an item's effects and
// narrowing itself, so only what a modifier's own keys need is recorded here.
func CheckItemEffects(r *rules.Report, s Sheet, path string, e *Effects) {
	c := &checker{Report: r, sheet: s}
	c.effects(path, e, false, true)
}

// HealthKinds returns the kinds of the wound track health names, nil when health is not
// a wound track with kinds.
func (cb *Combat) HealthKinds(s Sheet) map[string]bool {
	if cb == nil || cb.Health.Track == "" {
		return nil
	}
	t, ok := s.Track(cb.Health.Track)
	if !ok {
		return nil
	}
	m := map[string]bool{}
	for _, k := range t.Kinds {
		m[k] = true
	}
	return m
}

// CheckSoakKind checks that kind, soaked by kind, is one of the health track's kinds.
func CheckSoakKind(r *rules.Report, path, kind string, kinds map[string]bool) {
	switch {
	case kinds == nil:
		r.Add(path, "soak by kind needs health to be a wound track with kinds")
	case !kinds[kind]:
		r.Add(path, "%q is not a kind of the health track", kind)
	}
}

// Check checks a handful of fight dice: 1–10 dice of 2–1000 sides.
func (d CombatDice) Check(r *rules.Report, path string) {
	r.Between(rules.PathOf(path, "count"), float64(d.Count), 1, 10)
	r.Between(rules.PathOf(path, "sides"), float64(d.Sides), 2, 1000)
}
