package check

import (
	"strconv"

	"sheetkeeper/parser"
)

// sum resolves a dice-sum check: throw the dice (twice under advantage or disadvantage,
// where the ruleset allows it, keeping the better or worse throw), add the sheet's
// number, the wound penalty, the adjustments and what conditions add, and meet the
// difficulty. A natural top or bottom face of a single die decides the check where
// naturals say so.
func (r *run) sum() {
	res, out := r.res, &r.out
	count, sides := 1, 20
	if res.Dice != nil {
		count, sides = res.Dice.Count, res.Dice.Sides
	}
	out.Dice = strconv.Itoa(count) + "d" + strconv.Itoa(sides)
	out.Effects = r.eff.flat
	if step := r.difficulty(); step != nil && step.DC != nil {
		out.DC, out.HasDC = *step.DC, true
	}
	if r.req.DC.Set {
		out.DC, out.HasDC = r.req.DC.V, true
	}
	if r.eff.fails {
		out.Automatic, out.Outcome = true, Failure
		return
	}
	out.Effects += r.effectDice()
	out.Modifier = out.Number + out.Penalty + out.Adjust + out.Effects
	adv, dis := r.eff.adv, r.eff.dis
	switch r.req.Mode {
	case "advantage":
		adv++
	case "disadvantage":
		dis++
	}
	if res.Advantage == nil || !*res.Advantage {
		adv, dis = 0, 0 // only a ruleset with advantage rolls twice
	}
	switch {
	case adv > 0 && dis == 0:
		out.Mode = "advantage"
	case dis > 0 && adv == 0:
		out.Mode = "disadvantage"
	}
	throws := 1
	if out.Mode != "" {
		throws = 2
	}
	out.Rolls = make([]int, 0, throws*count)
	var sums [2]int
	for t := range throws {
		for range count {
			f := r.rec.roll(sides)
			out.Rolls = append(out.Rolls, f)
			sums[t] += f
		}
	}
	out.Used = sums[0]
	if out.Mode == "advantage" {
		out.Used = max(sums[0], sums[1])
	} else if out.Mode == "disadvantage" {
		out.Used = min(sums[0], sums[1])
	}
	out.Total = out.Used + out.Modifier
	if out.HasDC {
		out.Outcome = Failure
		if out.Total >= out.DC {
			out.Outcome = Success
		}
	}
	if count == 1 {
		r.naturals(sides)
	}
}

// naturals lets the top or bottom face of a single die decide the check, as the
// ruleset's naturals say for checks or for saves ("none" when it says nothing).
func (r *run) naturals(sides int) {
	out, nat := &r.out, r.res.Naturals
	if nat == nil {
		return
	}
	rule := nat.Check
	if out.Subject == Save {
		rule = nat.Save
	}
	switch {
	case out.Used == sides && (rule == "both" || rule == "max-only"):
		out.Outcome = CriticalSuccess
	case out.Used == 1 && (rule == "both" || rule == "min-only"):
		out.Outcome = CriticalFailure
	}
}

// effectDice rolls the dice conditions' modifiers add to a summed check (thrown first,
// and stored with the check's faces) and returns what they came to.
func (r *run) effectDice() int {
	total := 0
	for _, m := range r.eff.dice {
		d, err := parser.ParseDice(m.notation)
		if err != nil {
			continue // the ruleset check holds a modifier's dice to notation
		}
		n := RollDice(d, srcOf(&r.rec)).Total
		if m.minus {
			n = -n
		}
		total += n
	}
	return total
}
