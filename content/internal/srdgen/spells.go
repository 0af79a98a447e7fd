package main

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// spellRange reads a spell's range in feet: Self and Touch are 0; Sight, Special and
// Unlimited have no number and are left out.
func spellRange(r string) (int, bool) {
	switch r {
	case "Self", "Touch":
		return 0, true
	}
	f := strings.Fields(r)
	if len(f) != 2 {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, false
	}
	switch f[1] {
	case "foot", "feet":
		return n, true
	case "mile", "miles":
		return n * 5280, true
	}
	return 0, false
}

var abilityNames = map[string]string{"str": "Strength", "dex": "Dexterity", "con": "Constitution",
	"int": "Intelligence", "wis": "Wisdom", "cha": "Charisma"}

// levelKeyed returns the values of a level-keyed map in level order.
func levelKeyed(m map[string]string) (levels []int, values []string) {
	for k := range m {
		n, err := strconv.Atoi(k)
		if err == nil {
			levels = append(levels, n)
		}
	}
	sort.Ints(levels)
	for _, n := range levels {
		values = append(values, m[strconv.Itoa(n)])
	}
	return
}

// perStep is the exact amount each higher slot level adds, when the table grows by the
// same dice (and flat part) at every step; ok is false for anything else.
func perStep(m map[string]string) (dice, bool) {
	levels, values := levelKeyed(m)
	if len(values) < 2 {
		return dice{}, false
	}
	var step dice
	for i := 1; i < len(values); i++ {
		a, okA := parseDice(values[i-1])
		b, okB := parseDice(values[i])
		if !okA || !okB || levels[i] != levels[i-1]+1 {
			return dice{}, false
		}
		if a.Count > 0 && b.Count > 0 && a.Sides != b.Sides {
			return dice{}, false
		}
		d := dice{Count: b.Count - a.Count, Sides: max(a.Sides, b.Sides), Flat: b.Flat - a.Flat}
		if i > 1 && d != step {
			return dice{}, false
		}
		step = d
	}
	if step.Count < 0 || step.Flat < 0 || (step.Count == 0 && step.Flat == 0) {
		return dice{}, false
	}
	if step.Count == 0 {
		step.Sides = 0
	}
	return step, true
}

// cantripScale is a cantrip's damage growth by character level as extra dice per
// step, when every step is the same die with no flat part.
func cantripScale(m map[string]string) ([][2]int, dice, bool) {
	levels, values := levelKeyed(m)
	if len(values) < 2 {
		return nil, dice{}, false
	}
	base, ok := parseDice(values[0])
	if !ok || base.Count == 0 || base.Flat != 0 {
		return nil, dice{}, false
	}
	var table [][2]int
	for i, v := range values {
		d, ok := parseDice(v)
		if !ok || d.Sides != base.Sides || d.Flat != 0 || d.Count < base.Count {
			return nil, dice{}, false
		}
		table = append(table, [2]int{levels[i], d.Count - base.Count})
	}
	return table, base, true
}

// The one shape of "more targets per slot level" the SRD data states exactly: "you can
// target (or affect) one additional creature for each slot level above". A different
// sentence (animated undead, leaping bolts, extra hit points) is not a target count.
var extraTargetRE = regexp.MustCompile(`(?i)\byou can (?:target|affect) (?:one|an) additional (?:creature|humanoid) for each (?:slot level|spell slot|level of location)\b`)

// And the starting count it adds to, from the spell's first sentence: "up to three
// creatures", or "a creature" / "one creature" / "a humanoid".
var upToRE = regexp.MustCompile(`(?i)\bup to (two|three|four|five|six) creatures\b`)
var oneTargetRE = regexp.MustCompile(`(?i)\b(?:a|one) (?:willing )?(?:creature|humanoid)\b`)

var smallNumbers = map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

// targets derives targetCount and targetsPerCostStep, or reports that the data does not
// pin them down (then both are left out).
func targets(sp spell) (count, perStep int, ok bool) {
	hit := false
	for _, h := range sp.HigherLevel {
		if extraTargetRE.MatchString(h) {
			hit = true
		}
	}
	if !hit || len(sp.Desc) == 0 {
		return 0, 0, false
	}
	first := sp.Desc[0]
	if m := upToRE.FindStringSubmatch(first); m != nil {
		return smallNumbers[strings.ToLower(m[1])], 1, true
	}
	if oneTargetRE.MatchString(first) {
		return 1, 1, true
	}
	return 0, 0, false
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// spellEntry writes one spell catalog entry from the spell's structured facts.
func spellEntry(sp spell) obj {
	school := sp.School.Name
	mech, effect := spellMechanics(sp)
	var classNames []string
	for _, c := range sp.Classes {
		classNames = append(classNames, c.Name)
	}
	sort.Strings(classNames)
	summary := spellFacts(sp)
	if len(effect) > 0 {
		summary += " " + titleCase(strings.Join(effect, "; ")) + "."
	}
	if withClasses := summary + " Classes: " + strings.Join(classNames, ", ") + "."; len(withClasses) <= 300 && len(classNames) > 0 {
		summary = withClasses
	}
	summary = clip(summary, 300)

	notes := school + "; " + sp.CastingTime + "; " + sp.Range + "; " + strings.Join(sp.Components, ", ") + "; " + sp.Duration
	values := o(
		"name", sp.Name,
		"level", sp.Level,
		"prepared", sp.Level == 0,
		"ritual", sp.Ritual,
		"concentration", sp.Concentration,
		"notes", clip(notes, 300),
	)
	return o(
		"id", entryID(sp.Index),
		"label", sp.Name,
		"summary", summary,
		"filters", o("level", sp.Level, "school", school, "classes", classNames),
		"rows", []obj{o("list", "spells", "values", values)},
		"mechanics", mech,
	)
}

// spellFacts is the spell's header sentence: level and school, casting time, range,
// components and duration.
func spellFacts(sp spell) string {
	school := sp.School.Name
	var head string
	if sp.Level == 0 {
		head = school + " cantrip"
	} else {
		head = ordinal(sp.Level) + "-level " + strings.ToLower(school)
	}
	if sp.Ritual {
		head += " (ritual)"
	}
	duration := lowerFirst(sp.Duration)
	if sp.Concentration && !strings.Contains(strings.ToLower(duration), "concentration") {
		duration += ", concentration"
	}
	rangeText := lowerFirst(sp.Range)
	if a := sp.AreaOfEffect; a != nil {
		rangeText += " (" + strconv.Itoa(a.Size) + "-foot " + a.Type + ")"
	}
	return head + ". Casting time " + sp.CastingTime + "; range " + rangeText + "; components " +
		strings.Join(sp.Components, ", ") + "; duration " + duration + "."
}

// spellMechanics is what the engine reads of a spell, and the effect phrases the summary
// says of it: range and area, damage or healing (with how it scales), attack roll, save,
// slot cost, concentration and targets.
func spellMechanics(sp spell) (obj, []string) {
	mech := o("kind", "utility")
	var effect []string
	if r, ok := spellRange(sp.Range); ok {
		mech.set("range", r)
	}
	if a := sp.AreaOfEffect; a != nil {
		shape := map[string]string{"sphere": "burst", "cylinder": "burst", "cone": "cone", "line": "line"}[a.Type]
		if shape != "" && a.Size > 0 {
			mech.set("area", o("shape", shape, "size", a.Size))
		}
	}
	kind := "utility"
	if sp.Damage != nil && sp.Damage.DamageType != nil {
		kind = "attack"
		effect = append(effect, spellDamage(sp, &mech)...)
	} else if sp.HealAtSlotLevel != nil {
		kind = "heal"
		effect = append(effect, spellHeal(sp, &mech)...)
	} else if sp.DC != nil {
		kind = "debuff"
	}
	mech.set("kind", kind)
	if sp.AttackType != "" {
		mech.set("attackRoll", true)
		effect = append(effect, sp.AttackType+" spell attack")
	}
	if sp.DC != nil {
		effect = append(effect, spellSave(sp, &mech))
	}
	if sp.Level > 0 {
		// The spell's own slot pool, not the group: a group term pays from the first pool
		// that can afford it, which would cast Fireball from a 1st-level slot. Upcasting
		// names a higher pool of the group (pool=), and pact slots pay through `pays`.
		mech.set("cost", []obj{o("pool", "slots_"+strconv.Itoa(sp.Level), "amount", 1)})
	}
	if sp.Concentration {
		mech.set("concentration", true)
	}
	if count, step, ok := targets(sp); ok {
		mech.set("targetCount", count)
		mech.set("targetsPerCostStep", step)
		effect = append(effect, strconv.Itoa(count)+" target"+plural(count)+", +"+strconv.Itoa(step)+" per slot level above "+ordinal(sp.Level))
	}
	return mech, effect
}

// spellDamage sets a damaging spell's amount, damage type and scaling on mech, and says
// them: a cantrip scales by character level, a leveled spell per slot level above its own.
func spellDamage(sp spell, mech *obj) []string {
	var effect []string
	dtype := strings.ToLower(sp.Damage.DamageType.Name)
	table := sp.Damage.DamageAtSlotLevel
	baseKey := strconv.Itoa(sp.Level)
	if sp.Level == 0 || table == nil {
		table = sp.Damage.DamageAtCharacterLevel
		baseKey = "1"
	}
	if base, ok := parseDice(table[baseKey]); ok && table[baseKey] != "" {
		mech.set("amount", base.amount())
		effect = append(effect, base.String()+" "+dtype+" damage")
	} else {
		effect = append(effect, dtype+" damage")
	}
	mech.set("damageType", dtype)
	if sp.Level == 0 {
		if scale, base, ok := cantripScale(sp.Damage.DamageAtCharacterLevel); ok {
			mech.set("scales", o("from", o("derived", "level"), "table", tableJSON(scale)))
			var steps []string
			for _, r := range scale[1:] {
				steps = append(steps, strconv.Itoa(base.Count+r[1])+"d"+strconv.Itoa(base.Sides)+" at "+ordinal(r[0]))
			}
			effect = append(effect, "rising to "+joinAnd(steps)+" character level")
		}
	} else if step, ok := perStep(sp.Damage.DamageAtSlotLevel); ok {
		mech.set("perCostStep", step.amount())
		effect = append(effect, "+"+step.String()+" per slot level above "+ordinal(sp.Level))
	}
	return effect
}

// spellHeal sets a healing spell's amount and its rise per slot level on mech, and says
// them; healing that adds the spellcasting modifier is said, not set.
func spellHeal(sp spell, mech *obj) []string {
	var effect []string
	raw := sp.HealAtSlotLevel[strconv.Itoa(sp.Level)]
	if base, ok := parseDice(raw); ok {
		mech.set("amount", base.amount())
		effect = append(effect, "heals "+base.String()+" hit points")
	} else if strings.HasSuffix(raw, "+ MOD") {
		effect = append(effect, "heals "+strings.TrimSpace(strings.TrimSuffix(raw, "+ MOD"))+" plus the spellcasting modifier")
	}
	if step, ok := perStep(sp.HealAtSlotLevel); ok {
		mech.set("perCostStep", step.amount())
		effect = append(effect, "+"+step.String()+" per slot level above "+ordinal(sp.Level))
	}
	return effect
}

// spellSave sets a spell's save and what a success does on mech, and says it.
func spellSave(sp spell, mech *obj) string {
	save := sp.DC.DCType.Index + "_save"
	onSuccess := map[string]string{"half": "half", "none": "negates"}[sp.DC.DCSuccess]
	if onSuccess == "" {
		onSuccess = "none"
	}
	mech.set("save", o("save", save, "onSuccess", onSuccess))
	what := abilityNames[sp.DC.DCType.Index] + " save"
	switch sp.DC.DCSuccess {
	case "half":
		what += " for half"
	case "none":
		what += " negates"
	}
	return what
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (s *srd) spellEntries() []obj {
	out := make([]obj, 0, len(s.spells))
	for _, sp := range s.spells {
		out = append(out, spellEntry(sp))
	}
	return out
}
