package check

import (
	"slices"

	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/sheet"
)

// effects is what the character's active conditions (and the levels a track or derived
// value has reached) do to one check outside a fight, in the ruleset's combat vocabulary:
// own-checks-/own-saves- advantage and disadvantage, modifiers to checks or saves (a
// flat number, or a mode), and saves failed without a roll. A skills or saves list on
// the condition or the modifier narrows it to those.
type effects struct {
	adv, dis int
	flat     int
	// dice are the modifiers' dice ("1d4"), minus taken away: rolled on a summed check.
	dice  []diceMod
	fails bool
	from  []string
}

type diceMod struct {
	notation string
	minus    bool
}

// conditionEffects gathers the effects on a check of sub by the card v: its items', then
// its active conditions' and the levels it has reached.
func conditionEffects(rs *ruleset.Ruleset, v *sheet.Values, sub subject, items []ItemEffects) effects {
	var e effects
	for _, it := range items {
		if it.Effects != nil {
			e.add(it.Effects, sub, it.From)
		}
	}
	cb := rs.Combat
	if v == nil || v.Live == nil || cb == nil {
		return e
	}
	for i := range cb.Conditions {
		c := &cb.Conditions[i]
		if cv := activeCondition(v.Live, c.Condition); cv != nil {
			e.add(&fight.Effects{Effects: c.Effects, Modifiers: c.Modifiers, FailsSaves: c.FailsSaves, Saves: c.Saves, Skills: c.Skills}, sub, cv.Label)
		}
	}
	for i := range cb.Levels {
		l := &cb.Levels[i]
		x, label := 0.0, ""
		if l.Track != "" {
			t := v.Live.Track(l.Track)
			if t == nil {
				continue
			}
			x, label = float64(t.Value), t.Label
		} else {
			x, label = v.Derived[l.Derived], l.Derived
		}
		if x >= float64(l.At) {
			e.add(&fight.Effects{Effects: l.Effects, Modifiers: l.Modifiers, FailsSaves: l.FailsSaves, Saves: l.Saves, Skills: l.Skills}, sub, label)
		}
	}
	return e
}

func activeCondition(l *sheet.Resolved, id string) *sheet.ConditionValue {
	for i := range l.Conditions {
		if l.Conditions[i].ID == id && l.Conditions[i].Active {
			return &l.Conditions[i]
		}
	}
	return nil
}

// narrowed reports whether a list of ids (nil: everything) lets the check through.
func narrowed(ids []string, id string) bool { return ids == nil || slices.Contains(ids, id) }

// add applies one condition's or level's effects.
func (e *effects) add(x *fight.Effects, sub subject, from string) {
	save := sub.kind == Save
	id := ""
	if sub.skill != nil {
		id = sub.skill.ID
	}
	changed := false
	note := func() { changed = true }
	if save && slices.Contains(x.FailsSaves, id) {
		e.fails = true
		note()
	}
	scoped := func() bool {
		if save {
			return narrowed(x.Saves, id)
		}
		return x.Skills == nil || sub.kind == Skill && slices.Contains(x.Skills, id)
	}
	for _, eff := range x.Effects {
		switch {
		case eff == "own-checks-advantage" && !save && scoped(), eff == "own-saves-advantage" && save && scoped():
			e.adv++
			note()
		case eff == "own-checks-disadvantage" && !save && scoped(), eff == "own-saves-disadvantage" && save && scoped():
			e.dis++
			note()
		}
	}
	for _, m := range x.Modifiers {
		if save && (m.To != "saves" || !narrowed(m.Saves, id)) || !save && (m.To != "checks" || m.Skills != nil && (sub.kind != Skill || !slices.Contains(m.Skills, id))) {
			continue
		}
		if m.Flat != nil {
			e.flat += *m.Flat
			note()
		}
		if m.Dice != "" {
			e.dice = append(e.dice, diceMod{m.Dice, m.Minus != nil && *m.Minus})
			note()
		}
		switch m.Mode {
		case "advantage":
			e.adv++
			note()
		case "disadvantage":
			e.dis++
			note()
		}
	}
	if changed && !slices.Contains(e.from, from) {
		e.from = append(e.from, from)
	}
}
