package check

import (
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/fight"
)

// What a check rolls.
const (
	Skill   = "skill"
	Save    = "save"
	Ability = "ability"
)

// Opt is a number a GM may write on a check, or none.
type Opt struct {
	V   int
	Set bool
}

func opt(v int) Opt { return Opt{V: v, Set: true} }

// Request is one check as asked: who rolls, what (a skill, save or ability, by id or
// label), and what the GM may ask of the roll. Every number here is a request; Resolve
// holds each to what the ruleset declares (a value out of range is pulled back to the
// nearest end, an attribute the ruleset does not offer is ignored), as Marinara does.
type Request struct {
	Who     string
	Subject string // Skill, Save or Ability
	Name    string
	// With rolls a skill or save with another ability, or adds a second ability to an
	// ability check on a pool whose abilityPlusAbility is on.
	With string
	// DC is the difficulty (dice-sum) or the successes needed (dice-pool); Difficulty a
	// ladder step by label. DC wins for the number.
	DC         Opt
	Difficulty string
	// Mode is "advantage", "disadvantage" or "" (dice-sum rulesets with advantage only).
	Mode string
	// Pool asks: the per-die target, situational dice, moved explode and double faces, a
	// standing re-throw by id.
	Threshold, Bonus, Explode, Double Opt
	Reroll                            string
	// Spend is "pool:points[, pool:points]": what the player pays on this check to change
	// it (resolution.spend). Use names a picked entry whose mechanics.check applies.
	Spend, Use string
	// Entry is what the entry Use names does to the check, for the caller to fill in:
	// finding a picked entry by name and paying its cost is the sheet's business (the
	// payment planner of use), so the core looks it up, pays for it in the same
	// transaction as the check, and hands the effect here only when it was paid. An
	// entry nobody paid for does nothing, rather than being applied on trust.
	Entry *Entry
	// Items are what the character's items do to checks outside a fight (worn, carried,
	// a requirement's otherwise), each named for its stack: the inventory finds them,
	// and the check applies them as it applies conditions.
	Items []ItemEffects
}

// ItemEffects is one item's effects on checks, in the conditions' vocabulary.
type ItemEffects struct {
	From    string
	Effects *fight.Effects
}

// Entry is a paid entry's effect on one check: its mechanics.check, bought Times over
// (an entry that scales with what was paid; 1 for one that does not).
type Entry struct {
	Name   string
	Effect *ruleset.CheckEffect
	Times  int
}

// RequestOf reads a [skill_check:] tag into a Request; a tag that was refused before
// the engine (malformed) gives its refusal.
func RequestOf(t parser.Tag) (Request, error) {
	if err := t.Err(); err != nil {
		return Request{}, err
	}
	if t.Kind != parser.SkillCheck {
		return Request{}, refusal.New(refusal.Malformed, "not a check")
	}
	r := Request{Who: t.Who, Subject: t.Op}
	r.Name, _ = t.Get(t.Op)
	num := func(key string) Opt {
		if n, ok := t.Int(key); ok {
			return opt(n)
		}
		return Opt{}
	}
	r.DC, r.Threshold, r.Bonus, r.Explode, r.Double = num("dc"), num("threshold"), num("bonus"), num("explode"), num("double")
	r.With, _ = t.Get("with")
	r.Difficulty, _ = t.Get("difficulty")
	r.Mode, _ = t.Get("mode")
	r.Mode = strings.ToLower(r.Mode)
	r.Reroll, _ = t.Get("reroll")
	r.Spend, _ = t.Get("spend")
	r.Use, _ = t.Get("use")
	return r, nil
}
