package sheet

import (
	"testing"

	"sheetkeeper/ruleset"
)

func TestEvaluate(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build = Build{
		Abilities: map[string]float64{"might": 15, "wits": 7},
		Skills:    map[string]string{"lore": "expert", "haggle": "gone"},
		Saves:     map[string]string{"grit": "half"},
		Bonuses:   map[string]float64{"climb": 1},
		Fields:    map[string]any{"level": 5.0, "toughness": 2.0, "watch": "night", "lore_cap": 4.0},
		Lists: map[string][]Row{"gear": {
			{"name": "rope", "weight": 3.0},
			{"name": "tent", "weight": 5.0, "packed": false},
			{"name": "pot"},
		}},
	}
	run(t, rs, c, `[sheet: op="state" state="stance" value="reckless"]`)
	run(t, rs, c, `[sheet: op="track" track="heat" to="2"]`)
	run(t, rs, c, `[sheet: op="restore" pool="focus" amount="2"]`)
	v := Evaluate(rs, c, nil)
	want := map[string]float64{
		"prof":         3, // stepTable at level 5
		"stamina_max":  5 + 2 + 2,
		"half_level":   3, // 2.5 rounded nearest
		"best":         2, // max(might +2, wits -2)
		"worst":        7, // min of scores
		"boxes":        5,
		"carried":      3 + 1, // tent unpacked; pot's weight is the column default
		"watch_bonus":  2,
		"stance_bonus": 2,                       // live state
		"climb_plus":   (2 + 0 + 1 - 2) + 3 + 2, // climb: might, untrained, bonus, body's by -2; heat remaining; focus
		"hurt":         0 + (2 + 2),             // no harm; grit: might +2, half of 3 rounded up
	}
	for k, w := range want {
		if got := v.Derived[k]; got != w {
			t.Errorf("derived %s = %v, want %v", k, got, w)
		}
	}
	// Lore: wits -2 + expert (2×3+1) = 5, capped at the field's 4.
	if v.SkillMods["lore"] != 4 || v.Caps["skill:lore"] != (Cap{Cap: 4, Uncapped: 5}) {
		t.Errorf("lore %v %v", v.SkillMods["lore"], v.Caps)
	}
	// Haggle: a tier the ruleset does not have reads as the first; its own untrained by +1.
	if v.SkillMods["haggle"] != -2+1 || v.SkillTiers["haggle"] != "none" {
		t.Errorf("haggle %v %v", v.SkillMods["haggle"], v.SkillTiers["haggle"])
	}
	if v.SaveMods["grit"] != 4 || v.ProficiencyBonus != 3 {
		t.Errorf("grit %v prof %v", v.SaveMods["grit"], v.ProficiencyBonus)
	}
	// The lantern oil shows on the night watch only.
	if v.Live.Pool("oil") == nil {
		t.Error("oil hidden on the night watch")
	}
	// A build-only evaluation reads live values as 0 and states as none: climb alone.
	b := EvaluateBuild(rs, &c.Build)
	if b.Derived["stance_bonus"] != 0 || b.Derived["climb_plus"] != 1 {
		t.Errorf("build-only: %v", b.Derived)
	}
}

func TestValueRefs(t *testing.T) {
	rs := reference(t, "ruleset-5e-2014.example.json")
	c := newCard(rs, "Mira")
	c.Build.Abilities = map[string]float64{"int": 17, "wis": 8}
	c.Build.Fields = map[string]any{"spellcasting_ability": "int", "level": 5.0}
	v := Evaluate(rs, c, nil)
	three := 3.0
	for _, tc := range []struct {
		ref  ruleset.ValueRef
		want float64
	}{
		{ruleset.ValueRef{Const: &three}, 3},
		{ruleset.ValueRef{AbilityScore: "int"}, 17},
		{ruleset.ValueRef{AbilityMod: "wis"}, -1},
		{ruleset.ValueRef{AbilityModFromField: "spellcasting_ability"}, 3},
		{ruleset.ValueRef{Derived: "spell_save_dc"}, 8 + 3 + 3},
		{ruleset.ValueRef{Field: "level"}, 5},
		{ruleset.ValueRef{SkillMod: "arcana"}, 3},
		{ruleset.ValueRef{SaveMod: "wis_save"}, -1},
		{ruleset.ValueRef{LivePool: "hp"}, float64(v.Live.Pool("hp").Value)},
		{ruleset.ValueRef{LiveTrack: "exhaustion", Read: "remaining"}, 6},
		{ruleset.ValueRef{Derived: "nothing"}, 0},
		{ruleset.ValueRef{ItemStat: &ruleset.ItemStat{Stat: "ac", From: "worn", Pick: "max", Default: &three}}, 3},
		{ruleset.ValueRef{ItemStat: &ruleset.ItemStat{Stat: "ac", From: "worn", Pick: "max"}}, 0},
	} {
		if got := v.Ref(&tc.ref); got != tc.want {
			t.Errorf("%+v = %v, want %v", tc.ref, got, tc.want)
		}
	}
	// An enum value the ruleset no longer offers reads as the field's default.
	c.Build.Fields["spellcasting_ability"] = "psionics"
	v = Evaluate(rs, c, fakeItems{"ac": 15})
	if got := v.Ref(&ruleset.ValueRef{AbilityModFromField: "spellcasting_ability"}); got != 0 {
		t.Errorf("stale enum: %v", got)
	}
	if got := v.Ref(&ruleset.ValueRef{ItemStat: &ruleset.ItemStat{Stat: "ac", From: "worn", Pick: "max"}}); got != 15 {
		t.Errorf("itemStat: %v", got)
	}
	// Spellcasting "none" hides every slot pool and the spell DC's pools.
	c.Build.Fields["spellcasting_ability"] = "none"
	v = Evaluate(rs, c, nil)
	for _, p := range v.Live.Pools {
		if p.Group == "slots" {
			t.Errorf("slot pool %s shows for a non-caster", p.Key)
		}
	}
}

type fakeItems map[string]float64

func (f fakeItems) ItemStat(s *ruleset.ItemStat) (float64, bool) {
	x, ok := f[s.Stat]
	return x, ok
}

func TestAbilityModifierKinds(t *testing.T) {
	for _, tc := range []struct {
		mod   ruleset.AbilityModifier
		score float64
		want  float64
	}{
		{ruleset.AbilityModifier{Op: "floorHalfMinusTen"}, 9, -1},
		{ruleset.AbilityModifier{Op: "floorHalfMinusTen"}, 10, 0},
		{ruleset.AbilityModifier{Op: "floorHalfMinusTen"}, 13, 1},
		{ruleset.AbilityModifier{Op: "identity"}, 3, 3},
		{ruleset.AbilityModifier{Op: "stepTable", Table: ruleset.StepTable{{0, -2}, {3, 0}, {6, 1}}}, 2, -2},
		{ruleset.AbilityModifier{Op: "stepTable", Table: ruleset.StepTable{{0, -2}, {3, 0}, {6, 1}}}, 7, 1},
		{ruleset.AbilityModifier{Op: "stepTable", Table: ruleset.StepTable{{0, -2}, {3, 0}, {6, 1}}}, -4, -2},
	} {
		rs := &ruleset.Ruleset{Resolution: ruleset.Resolution{AbilityModifier: tc.mod}}
		if got := AbilityModifier(rs, tc.score); got != tc.want {
			t.Errorf("%s(%v) = %v, want %v", tc.mod.Op, tc.score, got, tc.want)
		}
	}
}

func TestHideWhen(t *testing.T) {
	rs := fixture(t, "trials.json")
	v := EvaluateBuild(rs, &Build{Fields: map[string]any{"level": 3.0}})
	for _, tc := range []struct {
		h    ruleset.HideWhen
		want bool
	}{
		{ruleset.HideWhen{Field: "watch", Equals: "day"}, true}, // unset: the default
		{ruleset.HideWhen{Field: "watch", NotEquals: "day"}, false},
		{ruleset.HideWhen{Field: "watch", In: []any{"night", "day"}}, true},
		{ruleset.HideWhen{Field: "level", In: []any{1.0, 2.0}}, false},
		{ruleset.HideWhen{Field: "level", Equals: 3.0}, true},
		{ruleset.HideWhen{Field: "caster", Equals: false}, true},
		{ruleset.HideWhen{Field: "motto", Equals: ""}, true},
	} {
		if got := v.Hidden(&tc.h); got != tc.want {
			t.Errorf("%+v: %v", tc.h, got)
		}
	}
}
