package main

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var nonID = regexp.MustCompile(`[^a-z0-9]+`)

// actionID makes a creature action id from its name ("Acid Breath (Recharge 5-6)" →
// acid_breath_recharge_5_6).
func actionID(name string) string {
	id := strings.Trim(nonID.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		id = "a_" + id
	}
	if len(id) > 40 {
		id = strings.TrimRight(id[:40], "_")
	}
	return id
}

func abilityMod(score int) int { return int(math.Floor(float64(score-10) / 2)) }

// feet reads "40 ft." as 40.
func feet(v any) (int, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	f := strings.Fields(s)
	if len(f) < 2 || !strings.HasPrefix(f[1], "ft") {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	return n, err == nil
}

// describeMap writes a map of values as "key value, key value" in key order, walk
// first (speeds) or passive perception last (senses).
func describeMap(m map[string]any, first string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i] == first || keys[j] == first {
			return keys[i] == first
		}
		return keys[i] < keys[j]
	})
	var parts []string
	for _, k := range keys {
		word := strings.ReplaceAll(k, "_", " ")
		switch v := m[k].(type) {
		case string:
			if k == first && first == "walk" {
				parts = append(parts, v)
			} else {
				parts = append(parts, word+" "+v)
			}
		case float64:
			parts = append(parts, word+" "+strconv.Itoa(int(v)))
		case bool:
			if v {
				parts = append(parts, word)
			}
		}
	}
	return strings.Join(parts, ", ")
}

// creatureAction is one action of the block, with the numbers a threat measure reads.
type creatureAction struct {
	o      obj
	id     string
	avg    float64 // average damage of one use
	toHit  int
	hasHit bool
	dc     int
	seq    []struct {
		name  string
		times int
	}
}

func damageOf(a monsterAction, types map[string]bool) (obj, float64) {
	var dmg obj
	var plus []obj
	total := 0.0
	for _, d := range a.Damage {
		if d.DamageType == nil || d.DamageDice == "" {
			continue
		}
		dd, ok := parseDice(d.DamageDice)
		if !ok {
			continue
		}
		t := strings.ToLower(d.DamageType.Name)
		if !types[t] {
			continue
		}
		total += dd.average()
		if dmg == nil {
			dmg = o("dice", nilIfEmpty(dd.die()), "flat", flatOrNil(dd), "type", t)
			continue
		}
		if len(plus) < 3 {
			plus = append(plus, o("dice", nilIfEmpty(dd.die()), "flat", flatOrNil(dd), "type", t))
		}
	}
	if dmg != nil && len(plus) > 0 {
		dmg.set("plus", plus)
	}
	return dmg, total
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func flatOrNil(d dice) any {
	if d.Flat == 0 && d.Count > 0 {
		return nil
	}
	return d.Flat
}

func (s *srd) creatureActions(m monster, types map[string]bool) []creatureAction {
	var out []creatureAction
	seen := map[string]bool{}
	byName := map[string]string{}
	for _, a := range m.Actions {
		if a.MultiattackType != "" || strings.EqualFold(a.Name, "Multiattack") {
			continue
		}
		dmg, avg := damageOf(a, types)
		if a.AttackBonus == nil && dmg == nil && a.DC == nil {
			continue
		}
		id := actionID(a.Name)
		if seen[id] {
			continue
		}
		seen[id] = true
		act := creatureAction{id: id, avg: avg}
		x := o("id", id, "name", clip(a.Name, 80), "budget", "action")
		if a.AttackBonus != nil {
			x.set("toHit", *a.AttackBonus)
			act.toHit, act.hasHit = *a.AttackBonus, true
		}
		if dmg != nil {
			x.set("damage", dmg)
		}
		if a.DC != nil && abilityNames[a.DC.DCType.Index] != "" {
			onSuccess := "negates"
			if a.DC.SuccessType == "half" {
				onSuccess = "half"
			}
			x.set("save", o("save", a.DC.DCType.Index+"_save", "difficulty", a.DC.DCValue, "onSuccess", onSuccess))
			act.dc = a.DC.DCValue
		}
		setUsage(&x, a)
		act.o = x
		byName[strings.ToLower(a.Name)] = id
		out = append(out, act)
	}
	// The multiattack: the actions it names, when every one is an action written above.
	for _, a := range m.Actions {
		if a.MultiattackType == "" && !strings.EqualFold(a.Name, "Multiattack") {
			continue
		}
		if act, ok := multiattack(a, byName); ok && !seen["multiattack"] {
			out = append([]creatureAction{act}, out...)
		}
		break
	}
	if len(out) > 12 {
		out = out[:12]
	}
	return out
}

// setUsage sets how often an action may be used on x: a recharge roll, uses per day, or
// once between rests (read as once a day).
func setUsage(x *obj, a monsterAction) {
	if u := a.Usage; u != nil {
		switch u.Type {
		case "recharge on roll":
			if d, ok := parseDice(u.Dice); ok && d.Count == 1 && u.MinValue >= 1 && u.MinValue <= d.Sides {
				x.set("recharge", o("dice", o("count", 1, "sides", d.Sides), "from", u.MinValue))
			}
		case "per day":
			if u.Times >= 1 && u.Times <= 20 {
				x.set("uses", o("per", "day", "count", u.Times))
			}
		case "recharge after rest":
			x.set("uses", o("per", "day", "count", 1))
		}
	}
}

// multiattack is the multiattack a names, a sequence of 1 to 6 steps each naming an
// action byName holds, used 1 to 10 times; not ok when any step is not that.
func multiattack(a monsterAction, byName map[string]string) (creatureAction, bool) {
	var steps []obj
	act := creatureAction{id: "multiattack"}
	for _, step := range a.Actions {
		id, ok := byName[strings.ToLower(step.ActionName)]
		if !ok {
			return act, false
		}
		times, ok := stepTimes(step.Count)
		if !ok || times < 1 || times > 10 {
			return act, false
		}
		steps = append(steps, o("action", id, "times", times))
		act.seq = append(act.seq, struct {
			name  string
			times int
		}{id, times})
	}
	if len(steps) == 0 || len(steps) > 6 {
		return act, false
	}
	act.o = o("id", "multiattack", "name", "Multiattack", "budget", "action", "sequence", steps)
	return act, true
}

// stepTimes reads a multiattack step's count, a number or a number written as a string.
func stepTimes(count json.RawMessage) (int, bool) {
	var times int
	if json.Unmarshal(count, &times) == nil {
		return times, true
	}
	var str string
	if json.Unmarshal(count, &str) != nil {
		return 0, false
	}
	n, err := strconv.Atoi(str)
	return n, err == nil
}

// roundDamage is the most one turn's action deals on average: the multiattack's
// strikes added up, or the best single action.
func roundDamage(acts []creatureAction) float64 {
	avg := map[string]float64{}
	best := 0.0
	for _, a := range acts {
		avg[a.id] = a.avg
		best = math.Max(best, a.avg)
	}
	for _, a := range acts {
		if len(a.seq) == 0 {
			continue
		}
		sum := 0.0
		for _, st := range a.seq {
			sum += avg[st.name] * float64(st.times)
		}
		best = math.Max(best, sum)
	}
	return best
}

type measured struct {
	cr      float64
	hp      int
	ac      int
	toHit   []int
	dc      []int
	perTurn int
}

func median(xs []int, fallback int) int {
	if len(xs) == 0 {
		return fallback
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[(len(s)-1)/2]
}

func (s *srd) damageTypeSet() map[string]bool {
	types := map[string]bool{}
	for _, d := range s.damage {
		types[strings.ToLower(d.Name)] = true
	}
	return types
}

func (s *srd) creatureEntries() ([]obj, []measured) {
	types := s.damageTypeSet()
	conditions := map[string]bool{}
	for _, c := range s.conditions {
		if c.Index != "exhaustion" {
			conditions[c.Index] = true
		}
	}
	var out []obj
	var all []measured
	for _, m := range s.monsters {
		e, meas := s.creatureEntry(m, types, conditions)
		out = append(out, e)
		all = append(all, meas)
	}
	return out, all
}

// creatureEntry is one monster's entry, and what it measures for the threat tiers.
// types are the ruleset's damage types and conditions its conditions: a resistance,
// immunity or vulnerability outside them is a trait, said in words.
func (s *srd) creatureEntry(m monster, types, conditions map[string]bool) (obj, measured) {
	abil, saves, skills := creatureChecks(m)
	resist, resistRest := splitDamageTypes(types, m.DamageResistances)
	immune, immuneRest := splitDamageTypes(types, m.DamageImmunities)
	vuln, vulnRest := splitDamageTypes(types, m.DamageVulnerabilities)
	var condImm []string
	for _, c := range m.ConditionImmunities {
		if conditions[c.Index] {
			condImm = append(condImm, c.Index)
		}
	}

	ac, acNote := armorClass(m)
	speedText := describeMap(m.Speed, "walk")
	traits := creatureTraits(m, speedText, skills, resistRest, immuneRest, vulnRest)

	acts := s.creatureActions(m, types)
	meas := measured{cr: m.ChallengeRating, hp: m.HitPoints, ac: ac, perTurn: int(math.Round(roundDamage(acts)))}
	var actionObjs []obj
	for _, a := range acts {
		actionObjs = append(actionObjs, a.o)
		if a.hasHit {
			meas.toHit = append(meas.toHit, a.toHit)
		}
		if a.dc > 0 {
			meas.dc = append(meas.dc, a.dc)
		}
	}

	speed, _ := feet(m.Speed["walk"])
	kind := m.Type
	if m.Subtype != "" {
		kind += " (" + m.Subtype + ")"
	}
	summary := fmt.Sprintf("%s %s, %s. Challenge %s (%s XP). Armor Class %d%s, %d hit point%s (%s). Speed %s.",
		m.Size, kind, m.Alignment, fmtCR(m.ChallengeRating), thousands(m.XP), ac, acNote, m.HitPoints,
		plural(m.HitPoints), m.HitPointsRoll, strings.TrimSuffix(speedText, "."))

	// What the creature is written with whether it fights from actions or a sheet.
	shared := o(
		"resist", nilIfEmptyStrings(resist),
		"vulnerable", nilIfEmptyStrings(vuln),
		"immune", nilIfEmptyStrings(immune),
		"conditionImmunities", nilIfEmptyStrings(condImm),
		"tier", crTierID(m.ChallengeRating),
		"traits", traits,
	)
	c := append(o(
		"defense", ac,
		"speed", speed,
		"initiativeModifier", abilityMod(m.Dexterity),
		"abilities", abil,
		"saves", nilIfEmptyObj(saves),
	), shared...)
	hp, ok := parseDice(m.HitPointsRoll)
	if ok && hp.Count > 0 {
		c = append(obj{{"health", o("dice", hp.die(), "flat", flatOrNil(hp))}}, c...)
	} else {
		c = append(obj{{"health", max(1, m.HitPoints)}}, c...)
	}
	if len(actionObjs) > 0 {
		c.set("actions", actionObjs)
	} else {
		// Nothing in the block to fight with: written as a sheet in the ruleset's own
		// terms instead, which needs no action of its own.
		c = append(o("sheet", o("abilities", abil, "fields", o("hp_max", max(1, m.HitPoints), "ac", ac, "speed", speed))), shared...)
	}
	return o(
		"id", entryID(m.Index),
		"label", m.Name,
		"summary", clip(summary, 300),
		"filters", o("challenge", m.ChallengeRating, "type", titleCase(m.Type), "size", m.Size),
		"creature", c,
	), meas
}

// armorClass is a monster's first armor class (10 when it has none), and what it comes
// from in words (" (natural armor)"), unless that is just its Dexterity.
func armorClass(m monster) (ac int, note string) {
	if len(m.ArmorClass) == 0 {
		return 10, ""
	}
	ac = m.ArmorClass[0].Value
	if t := m.ArmorClass[0].Type; t != "" && t != "dex" {
		note = " (" + t + ")"
	}
	return ac, note
}

// creatureChecks are a monster's ability scores, its save bonuses, and its skills in
// words ("Perception +4").
func creatureChecks(m monster) (abil, saves obj, skills []string) {
	scores := []int{m.Strength, m.Dexterity, m.Constitution, m.Intelligence, m.Wisdom, m.Charisma}
	abil = o()
	for i, id := range []string{"str", "dex", "con", "int", "wis", "cha"} {
		abil = append(abil, kv{id, scores[i]})
	}
	saves = o()
	for _, p := range m.Proficiencies {
		idx := p.Proficiency.Index
		if strings.HasPrefix(idx, "saving-throw-") {
			saves = append(saves, kv{strings.TrimPrefix(idx, "saving-throw-") + "_save", p.Value})
		} else if strings.HasPrefix(idx, "skill-") {
			name := strings.TrimPrefix(p.Proficiency.Name, "Skill: ")
			skills = append(skills, fmt.Sprintf("%s %+d", name, p.Value))
		}
	}
	return abil, saves, skills
}

// splitDamageTypes parts list into the damage types the ruleset has (lowercased) and the
// rest, as written ("bludgeoning from nonmagical attacks").
func splitDamageTypes(types map[string]bool, list []string) (exact, rest []string) {
	for _, d := range list {
		if types[strings.ToLower(d)] {
			exact = append(exact, strings.ToLower(d))
		} else {
			rest = append(rest, d)
		}
	}
	return exact, rest
}

// creatureTraits are the at most 8 traits a creature block says in words: speed, senses,
// languages, skills, the defenses outside the damage types, and the names of its special
// traits, legendary actions and reactions.
func creatureTraits(m monster, speedText string, skills, resistRest, immuneRest, vulnRest []string) []obj {
	var traits []obj
	trait := func(name, text string) {
		if text != "" && len(traits) < 8 {
			traits = append(traits, o("name", name, "text", clip(text, 400)))
		}
	}
	trait("Speed", speedText)
	trait("Senses", describeMap(m.Senses, "passive_perception"))
	trait("Languages", m.Languages)
	trait("Skills", strings.Join(skills, ", "))
	trait("Also resists", strings.Join(resistRest, "; "))
	trait("Also immune to", strings.Join(immuneRest, "; "))
	trait("Also vulnerable to", strings.Join(vulnRest, "; "))
	names := func(list []monsterAction) string {
		var n []string
		for _, a := range list {
			n = append(n, a.Name)
		}
		return strings.Join(n, ", ")
	}
	trait("Special traits", names(m.SpecialAbilities))
	trait("Legendary actions", names(m.LegendaryActions))
	trait("Reactions", names(m.Reactions))
	return traits
}

func nilIfEmptyObj(x obj) any {
	if len(x) == 0 {
		return nil
	}
	return x
}

func nilIfEmptyStrings(x []string) any {
	if len(x) == 0 {
		return nil
	}
	return x
}

// threatTiers measures each challenge rating from the SRD creatures of that rating:
// the lowest to highest hit points, the median Armor Class, the median attack bonus,
// the lowest to highest average damage of one turn's action, the median save DC.
func threatTiers(all []measured) []obj {
	byCR := map[float64][]measured{}
	var crs []float64
	for _, m := range all {
		if _, ok := byCR[m.cr]; !ok {
			crs = append(crs, m.cr)
		}
		byCR[m.cr] = append(byCR[m.cr], m)
	}
	sort.Float64s(crs)
	var out []obj
	for _, cr := range crs {
		ms := byCR[cr]
		lowHP, highHP := math.MaxInt, 0
		lowD, highD := math.MaxInt, 0
		var acs, hits, dcs []int
		for _, m := range ms {
			lowHP, highHP = min(lowHP, m.hp), max(highHP, m.hp)
			lowD, highD = min(lowD, m.perTurn), max(highD, m.perTurn)
			acs = append(acs, m.ac)
			if len(m.toHit) > 0 {
				hits = append(hits, slicesMax(m.toHit))
			}
			if len(m.dc) > 0 {
				dcs = append(dcs, slicesMax(m.dc))
			}
		}
		out = append(out, o(
			"id", crTierID(cr),
			"label", "CR "+fmtCR(cr),
			"health", []int{max(1, lowHP), max(1, highHP)},
			"defense", median(acs, 10),
			"toHit", median(hits, 0),
			"damagePerRound", []int{lowD, highD},
			"saveDifficulty", median(dcs, 10),
		))
	}
	return out
}

func slicesMax(xs []int) int {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
