package main

import (
	"fmt"
	"sort"
)

// classOrder is the SRD's twelve classes in its own order.
func (s *srd) classOrder() []class {
	out := append([]class(nil), s.classes...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

// classLevelField is the number field holding a character's levels in one class.
func classLevelField(class string) string { return class + "_level" }

const hideNoCasting = "spellcasting_ability"

func noCasting() obj { return o("field", hideNoCasting, "equals", "none") }

// fullCasterSlots reads the spell slots per level of a full caster from the wizard's
// table: slots[n-1][lvl-1] is the count of level-n slots at caster level lvl.
func (s *srd) fullCasterSlots() ([9][]int, error) {
	var slots [9][]int
	rows := s.classLevels("wizard")
	if len(rows) != 20 {
		return slots, fmt.Errorf("wizard has %d base levels, want 20", len(rows))
	}
	for n := 1; n <= 9; n++ {
		for _, r := range rows {
			slots[n-1] = append(slots[n-1], r.Spellcasting[fmt.Sprintf("spell_slots_level_%d", n)])
		}
	}
	return slots, nil
}

// pactMagic reads the warlock table: the most pact slots and the highest slot level.
func (s *srd) pactMagic() (maxSlots, maxLevel int) {
	for _, r := range s.classLevels("warlock") {
		for n := 1; n <= 9; n++ {
			if c := r.Spellcasting[fmt.Sprintf("spell_slots_level_%d", n)]; c > 0 {
				maxSlots = max(maxSlots, c)
				maxLevel = max(maxLevel, n)
			}
		}
	}
	return
}

// proficiencyTable reads the proficiency bonus by character level.
func (s *srd) proficiencyTable() [][2]int {
	var bonus []int
	for _, r := range s.classLevels("fighter") {
		bonus = append(bonus, r.ProfBonus)
	}
	return stepTable(1, bonus)
}

var slotLabels = [10]string{"", "1st-level slots", "2nd-level slots", "3rd-level slots", "4th-level slots",
	"5th-level slots", "6th-level slots", "7th-level slots", "8th-level slots", "9th-level slots"}

// sheet is the ruleset's sheet: checks, fields, derived values, lists and live state, each
// built by its own function below.
func (s *srd) sheet() (obj, error) {
	slots, err := s.fullCasterSlots()
	if err != nil {
		return nil, err
	}
	abilities, saves, skills := s.checks()
	return o(
		"version", 1,
		"sections", []obj{
			o("id", "identity", "label", "Identity"),
			o("id", "classes", "label", "Class levels"),
			o("id", "combat", "label", "Combat"),
			o("id", "spellcasting", "label", "Spellcasting"),
		},
		"abilities", abilities,
		"saves", saves,
		"saveTiers", []string{"none", "proficient"},
		"skills", skills,
		"fields", s.sheetFields(),
		"derived", s.sheetDerived(slots),
		"lists", s.sheetLists(),
		"live", o(
			"pools", sheetPools(),
			"tracks", []obj{
				o("id", "death_save_successes", "label", "Death save successes", "min", 0, "max", 3),
				o("id", "death_save_failures", "label", "Death save failures", "min", 0, "max", 3),
				o("id", "exhaustion", "label", "Exhaustion", "min", 0, "max", 6),
			},
			"text", []obj{o("id", "concentration", "label", "Concentrating on", "maxLength", 80)},
			"conditions", s.sheetConditions(),
		),
		"advancement", o(
			"fields", s.advanceFields(),
			"abilities", true,
			"skills", true,
			"saves", true,
			"text", "Award XP when a session or a fight ends. Raise a class level when the character has the XP for it, then its hit point maximum; an ability score only with an Ability Score Improvement; a skill or save tier only when a feature grants it.",
		),
	), nil
}

// checks are the SRD's abilities, a save for each, and its skills.
func (s *srd) checks() (abilities, saves, skills []obj) {
	for _, a := range s.abilities {
		abilities = append(abilities, o("id", a.Index, "label", a.FullName, "short", a.Name,
			"min", 1, "max", 30, "default", 10))
		saves = append(saves, o("id", a.Index+"_save", "label", a.FullName+" save", "ability", a.Index))
	}
	for _, sk := range s.skills {
		skills = append(skills, o("id", sheetID(sk.Index), "label", sk.Name, "ability", sk.AbilityScore.Index))
	}
	return abilities, saves, skills
}

// sheetFields are the sheet's fields: identity, a level per class, combat, spellcasting.
func (s *srd) sheetFields() []obj {
	pactSlots, pactLevel := s.pactMagic()
	text := func(id, label string, n int, section string) obj {
		return o("id", id, "label", label, "type", "text", "maxLength", n, "section", section)
	}
	number := func(id, label string, lo, hi, def int, section string) obj {
		return o("id", id, "label", label, "type", "number", "min", lo, "max", hi, "default", def, "section", section)
	}
	fields := []obj{
		text("class", "Class (main class, opens the pickers on it)", 80, "identity"),
		text("subclass", "Subclass", 80, "identity"),
		text("race", "Race", 80, "identity"),
		text("background", "Background", 80, "identity"),
		text("alignment", "Alignment", 40, "identity"),
		number("xp", "Experience points", 0, 355000, 0, "identity"),
	}
	for _, c := range s.classOrder() {
		fields = append(fields, number(classLevelField(c.Index), c.Name+" level", 0, 20, 0, "classes"))
	}
	castingValues := []string{"none", "int", "wis", "cha"}
	return append(fields,
		number("hp_max", "Hit point maximum", 1, 999, 8, "combat"),
		o("id", "hit_die", "label", "Hit die", "type", "enum", "values", s.hitDice(), "default", "d8", "section", "combat"),
		number("ac", "Armor Class", 0, 40, 10, "combat"),
		number("speed", "Speed (ft)", 0, 300, 30, "combat"),
		number("initiative_misc", "Initiative bonus (other)", -10, 20, 0, "combat"),
		o("id", "spellcasting_ability", "label", "Spellcasting ability", "type", "enum", "values", castingValues,
			"valueLabels", o("none", "None", "int", "Intelligence", "wis", "Wisdom", "cha", "Charisma"),
			"default", "none", "section", "spellcasting"),
		o("id", "caster_level", "label", "Spellcaster level (sets spell slots)", "type", "number", "min", 0, "max", 20,
			"default", 0, "section", "spellcasting", "hideWhen", noCasting()),
		o("id", "pact_slots_max", "label", "Pact Magic slots", "type", "number", "min", 0, "max", pactSlots,
			"default", 0, "section", "spellcasting", "hideWhen", noCasting()),
		o("id", "pact_slot_level", "label", "Pact slot level", "type", "number", "min", 1, "max", pactLevel,
			"default", 1, "section", "spellcasting", "hideWhen", noCasting()),
	)
}

// hitDice are the classes' hit dice, smallest first, each once: "d6", "d8", ...
func (s *srd) hitDice() []string {
	hitDice := []string{}
	seenDie := map[int]bool{}
	var dieSizes []int
	for _, c := range s.classes {
		if !seenDie[c.HitDie] {
			seenDie[c.HitDie] = true
			dieSizes = append(dieSizes, c.HitDie)
		}
	}
	sort.Ints(dieSizes)
	for _, d := range dieSizes {
		hitDice = append(hitDice, fmt.Sprintf("d%d", d))
	}
	return hitDice
}

// sheetDerived are the derived values: level and proficiency, combat and spellcasting
// numbers, the slot maximums per level (slots is fullCasterSlots), class resources.
func (s *srd) sheetDerived(slots [9][]int) []obj {
	var classLevelRefs []any
	for _, c := range s.classOrder() {
		classLevelRefs = append(classLevelRefs, o("field", classLevelField(c.Index)))
	}
	derived := []obj{
		o("$comment", "Character level is the sum of the class levels, so a multiclass character's class resources follow each class's own level.",
			"id", "level", "label", "Character level", "op", "sum", "of", classLevelRefs, "section", "identity"),
		o("id", "proficiency_bonus", "label", "Proficiency bonus", "op", "stepTable", "from", o("derived", "level"),
			"table", tableJSON(s.proficiencyTable()), "section", "identity"),
		o("id", "initiative", "label", "Initiative", "op", "sum",
			"of", []obj{o("abilityMod", "dex"), o("field", "initiative_misc")}, "section", "combat"),
		o("id", "passive_perception", "label", "Passive Perception", "op", "sum",
			"of", []obj{o("const", 10), o("skillMod", "perception")}, "section", "combat"),
		o("id", "spell_save_dc", "label", "Spell save DC", "op", "sum",
			"of", []obj{o("const", 8), o("derived", "proficiency_bonus"), o("abilityModFromField", "spellcasting_ability")},
			"section", "spellcasting", "hideWhen", noCasting()),
		o("id", "spell_attack", "label", "Spell attack bonus", "op", "sum",
			"of", []obj{o("derived", "proficiency_bonus"), o("abilityModFromField", "spellcasting_ability")},
			"section", "spellcasting", "hideWhen", noCasting()),
	}
	for n := 1; n <= 9; n++ {
		d := o("id", fmt.Sprintf("slots_max_%d", n), "label", slotLabels[n]+" (maximum)", "op", "stepTable",
			"from", o("field", "caster_level"), "table", tableJSON(stepTable(0, append([]int{0}, slots[n-1]...))),
			"section", "spellcasting", "hideWhen", noCasting())
		if n == 1 {
			d = append(obj{{"$comment", "The SRD full-caster slot table, read from the wizard's levels. A paladin or ranger alone enters half their level rounded up (from 2nd level); a multiclass caster enters the SRD multiclass spellcaster level."}}, d...)
		}
		derived = append(derived, d)
	}
	return append(derived,
		o("$comment", "Class resource maximums the SRD ties to an ability score or a multiple of a level; catalog counters read them.",
			"id", "bardic_inspiration_uses", "label", "Bardic Inspiration uses", "op", "max",
			"of", []obj{o("const", 1), o("abilityMod", "cha")}),
		o("id", "divine_sense_uses", "label", "Divine Sense uses", "op", "sum",
			"of", []obj{o("const", 1), o("abilityMod", "cha")}),
		o("id", "lay_on_hands_pool", "label", "Lay on Hands pool", "op", "scale",
			"of", o("field", classLevelField("paladin")), "multiplier", 5),
	)
}

// sheetLists are the sheet's lists: attacks, spells, features, class resources (a live
// pool per row) and other proficiencies.
func (s *srd) sheetLists() []obj {
	var abilityIDs []string
	for _, a := range s.abilities {
		abilityIDs = append(abilityIDs, a.Index)
	}
	nameCol := func(n int) obj {
		return o("id", "name", "label", "Name", "type", "text", "maxLength", n, "required", true)
	}
	return []obj{
		o("id", "attacks", "label", "Attacks", "section", "combat", "maxItems", 20, "columns", []obj{
			nameCol(80),
			o("id", "ability", "label", "Ability", "type", "enum", "values", abilityIDs),
			o("id", "proficient", "label", "Proficient", "type", "boolean", "default", true),
			o("id", "bonus", "label", "Other bonus", "type", "number", "min", -5, "max", 10, "default", 0),
			o("id", "damage", "label", "Damage dice", "type", "dice", "example", "1d8"),
			o("id", "damage_type", "label", "Damage type", "type", "text", "maxLength", 30),
		}),
		o("id", "spells", "label", "Spells", "section", "spellcasting", "hideWhen", noCasting(), "maxItems", 200,
			"columns", []obj{
				nameCol(80),
				o("id", "level", "label", "Level", "type", "number", "min", 0, "max", 9, "default", 0),
				o("id", "prepared", "label", "Prepared", "type", "boolean", "default", true),
				o("id", "ritual", "label", "Ritual", "type", "boolean", "default", false),
				o("id", "concentration", "label", "Concentration", "type", "boolean", "default", false),
				o("id", "notes", "label", "Notes", "type", "text", "maxLength", 300),
			}),
		o("id", "features", "label", "Features and traits", "maxItems", 80, "columns", []obj{
			nameCol(80),
			o("id", "text", "label", "Description", "type", "longtext", "maxLength", 800),
		}),
		o("$comment", "Class resources. Every row is a live pool keyed by its name; a catalog pick adds the row and keeps its maximum in step with the class level.",
			"id", "counters", "label", "Class resources", "maxItems", 16,
			"pools", o("nameColumn", "name", "maxColumn", "max", "rechargeColumn", "recharge"),
			"columns", []obj{
				nameCol(40),
				o("id", "max", "label", "Maximum", "type", "number", "min", 0, "max", 999, "default", 1),
				o("id", "recharge", "label", "Recharges on", "type", "enum", "values", []string{"short", "long", "none"},
					"valueLabels", o("short", "Short rest", "long", "Long rest", "none", "Never"), "default", "long"),
			}),
		o("id", "proficiencies", "label", "Other proficiencies and languages", "maxItems", 40,
			"columns", []obj{nameCol(80)}),
	}
}

// sheetPools are the live pools: hit points, hit dice, the slots of each level, and Pact
// Magic slots.
func sheetPools() []obj {
	pools := []obj{
		o("id", "hp", "label", "Hit points", "max", o("field", "hp_max"), "allowTemp", true),
		o("id", "hit_dice", "label", "Hit dice", "max", o("derived", "level")),
	}
	for n := 1; n <= 9; n++ {
		pools = append(pools, o("id", fmt.Sprintf("slots_%d", n), "label", slotLabels[n],
			"max", o("derived", fmt.Sprintf("slots_max_%d", n)), "group", "slots", "hideWhen", noCasting()))
	}
	return append(pools, o("$comment", "A warlock's Pact Magic slots pay for any spell whose cost is a spell slot, at the pact slot level: never above it, and a higher one raises the spell.",
		"id", "pact_slots", "label", "Pact Magic slots", "max", o("field", "pact_slots_max"), "group", "pact",
		"level", o("field", "pact_slot_level"), "pays", []string{"slots"}, "hideWhen", noCasting()))
}

// sheetConditions are the SRD's conditions but exhaustion, which is a track.
func (s *srd) sheetConditions() []obj {
	var conditions []obj
	for _, c := range s.conditions {
		if c.Index == "exhaustion" {
			continue // a track: it has levels
		}
		conditions = append(conditions, o("id", c.Index, "label", c.Name))
	}
	return conditions
}

// advanceFields are the fields advance may raise.
func (s *srd) advanceFields() []string {
	advanceFields := []string{"xp"}
	for _, c := range s.classOrder() {
		advanceFields = append(advanceFields, classLevelField(c.Index))
	}
	return append(advanceFields, "hp_max", "caster_level", "pact_slots_max", "pact_slot_level", "ac", "speed")
}
