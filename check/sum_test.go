package check

import (
	"slices"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/sheet"
)

// mira5e is a 5th-level 5e rogue: Dexterity 16 (+3), proficient in Stealth and
// Dexterity saves (+3 at level 5), Wisdom 12 (+1).
func mira5e(t *testing.T) (*sheet.Card, func(string, uint64) (Result, string)) {
	rs := reference(t, "5e-2014/ruleset.json")
	c := card(rs, map[string]float64{"dex": 16, "wis": 12}, map[string]string{"stealth": "proficient", "dex_save": "proficient"})
	c.Build.Fields["level"] = 5.0
	return c, func(tag string, seed uint64) (Result, string) { return resolve(t, rs, c, tag, seed) }
}

func TestSum5e(t *testing.T) {
	c, roll := mira5e(t)
	for _, tc := range []struct{ tag, want string }{
		// advantage throws the d20 twice and keeps the higher: 3|18 → 18 + 6.
		{`[skill_check: skill="Stealth" dc="15" who="Mira" mode="advantage"]`,
			`[skill_check: who="Mira" skill="Stealth" dc="15" mode="advantage" rolls="3|18" used="18" modifier="6" total="24" result="success"]`},
		// disadvantage keeps the lower; difficulty= reads the ladder's DC, by label.
		{`[skill_check: skill="stealth" difficulty="hard" who="Mira" mode="disadvantage"]`,
			`[skill_check: who="Mira" skill="Stealth" dc="20" mode="disadvantage" rolls="3|18" used="3" modifier="6" total="9" result="failure"]`},
		// dc= wins over difficulty=; the GM's rolls, total and result are dropped.
		{`[skill_check: skill="Stealth" difficulty="Hard" dc="12" rolls="20" total="99" result="critical_success"]`,
			`[skill_check: skill="Stealth" dc="12" rolls="3" used="3" modifier="6" total="9" result="failure"]`},
		// a save named by its ability; naturals are "none" in 2014 rules: a 1 is arithmetic.
		{`[skill_check: save="Dexterity" dc="15"]`,
			`[skill_check: save="Dexterity save" dc="15" rolls="3" used="3" modifier="6" total="9" result="failure"]`},
		// with= rolls Perception (untrained, Wisdom +1) with Dexterity instead: +3.
		{`[skill_check: skill="Perception" dc="5" with="dex"]`,
			`[skill_check: skill="Perception" with="Dexterity" dc="5" rolls="3" used="3" modifier="3" total="6" result="success"]`},
		// an ability check by skill=, Marinara's way of writing one.
		{`[skill_check: skill="Wisdom" dc="10"]`,
			`[skill_check: ability="Wisdom" dc="10" rolls="3" used="3" modifier="1" total="4" result="failure"]`},
	} {
		_, got := roll(tc.tag, 3)
		wantRecord(t, got, tc.want)
	}
	// Paralysed: Dexterity saves fail without a roll; no face is thrown.
	c.Live.Conditions = []string{"paralyzed"}
	res, got := roll(`[skill_check: save="dex_save" dc="10"]`, 3)
	wantRecord(t, got, `[skill_check: save="Dexterity save" dc="10" result="failure" from="Paralyzed" automatic="true"]`)
	if len(res.Faces) != 0 {
		t.Errorf("faces %v thrown for an automatic failure", res.Faces)
	}
}

func TestSumRefusals(t *testing.T) {
	rs := reference(t, "5e-2014/ruleset.json")
	for _, tc := range []struct {
		tag    string
		reason refusal.Reason
	}{
		{`[skill_check: skill="Basketweaving" dc="10"]`, refusal.UnknownSkill},
		{`[skill_check: save="Luck" dc="10"]`, refusal.UnknownSave},
		{`[skill_check: ability="Luck" dc="10"]`, refusal.UnknownAbility},
	} {
		_, err := Resolve(rs, nil, request(t, tc.tag), Seeded(1))
		if refusal.Of(err) != tc.reason {
			t.Errorf("%s: %v, want %s", tc.tag, err, tc.reason)
		}
	}
}

func TestSumEmberRoads(t *testing.T) {
	rs := reference(t, "ember-roads.json")
	c := card(rs, map[string]float64{"brawn": 2, "wits": 1}, map[string]string{"scrap": "trained"})
	// Six bulk packed: Burdened is -2, on Brawn rolls only.
	c.Build.Lists["gear"] = []sheet.Row{{"name": "Anvil", "bulk": 3.0}, {"name": "Chain", "bulk": 3.0}, {"name": "Kite", "bulk": 3.0, "packed": false}}
	for _, tc := range []struct{ tag, want string }{
		// 2d6 + Brawn 2 + Trained 1 − Burdened 2; advantage is false, so mode is ignored.
		{`[skill_check: skill="Scrap" difficulty="Risky" mode="advantage"]`,
			`[skill_check: skill="Scrap" dc="8" dice="2d6" rolls="1|2" adjust="-2" used="3" modifier="1" total="4" result="failure"]`},
		{`[skill_check: skill="Sneak" dc="6"]`,
			`[skill_check: skill="Sneak" dc="6" dice="2d6" rolls="1|2" used="3" modifier="1" total="4" result="failure"]`},
		{`[skill_check: ability="Brawn" dc="3"]`,
			`[skill_check: ability="Brawn" dc="3" dice="2d6" rolls="1|2" adjust="-2" used="3" modifier="0" total="3" result="success"]`},
	} {
		_, got := resolve(t, rs, c, tc.tag, 1)
		wantRecord(t, got, tc.want)
	}
}

func TestSumLowVell(t *testing.T) {
	rs := lowVell(t)
	c := card(rs, map[string]float64{"knack": 2, "glow": 1}, map[string]string{"sneak": "adept", "ward": "trained"})
	// Two Chill marks on Scars: the penalty in force is the second level's, -1.
	c.Live.Wounds = map[string]sheet.Wounds{"scars": {Marks: []string{"chill", "chill"}}}
	replay := func(tag string, faces ...int) string {
		t.Helper()
		res, err := Resolve(rs, sheet.Evaluate(rs, c, nil), request(t, tag), NewReplay(faces, Seeded(1)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Faces, faces) {
			t.Errorf("%s: faces %v, want %v", tag, res.Faces, faces)
		}
		return request2tag(t, tag).WriteRecord(res.Record())
	}
	// d12 + Knack 2 + Adept 2 − Scars 1. Naturals on checks are "both".
	wantRecord(t, replay(`[skill_check: skill="Sneak" difficulty="Dire"]`, 12),
		`[skill_check: skill="Sneak" dc="11" dice="1d12" rolls="12" penalty="-1" used="12" modifier="3" total="15" result="critical_success"]`)
	wantRecord(t, replay(`[skill_check: skill="Sneak" dc="2"]`, 1),
		`[skill_check: skill="Sneak" dc="2" dice="1d12" rolls="1" penalty="-1" used="1" modifier="3" total="4" result="critical_failure"]`)
	// Saves are "max-only": a natural 1 is only arithmetic.
	wantRecord(t, replay(`[skill_check: save="Ward off the Murk" dc="2"]`, 1),
		`[skill_check: save="Ward off the Murk" dc="2" dice="1d12" rolls="1" penalty="-1" used="1" modifier="1" total="2" result="success"]`)
	// Murk-touched gives disadvantage on Ward saves; the GM's advantage cancels it.
	c.Live.Conditions = []string{"murk_touched"}
	wantRecord(t, replay(`[skill_check: save="Ward off the Murk" dc="9" mode="advantage"]`, 8),
		`[skill_check: save="Ward off the Murk" dc="9" dice="1d12" rolls="8" penalty="-1" used="8" modifier="1" total="9" result="success" from="Murk-touched"]`)
	wantRecord(t, replay(`[skill_check: save="Ward off the Murk" dc="9"]`, 8, 3),
		`[skill_check: save="Ward off the Murk" dc="9" mode="disadvantage" dice="1d12" rolls="8|3" penalty="-1" used="3" modifier="1" total="4" result="failure" from="Murk-touched"]`)
}

// A condition's modifiers to checks add their number, and their dice are rolled; one
// narrowed to a skill leaves an ability check alone; the record says what it added.
func TestSumConditionModifiers(t *testing.T) {
	rs := reference(t, "5e-2014/ruleset.json")
	two, minus := -2, true
	for i := range rs.Combat.Conditions {
		if c := &rs.Combat.Conditions[i]; c.Condition == "poisoned" {
			c.Modifiers = []fight.Modifier{{To: "checks", Flat: &two}, {To: "checks", Dice: "1d4", Minus: &minus, Skills: []string{"stealth"}}}
		}
	}
	c := card(rs, map[string]float64{"dex": 16}, map[string]string{"stealth": "proficient"})
	c.Build.Fields["level"] = 5.0
	c.Live.Conditions = []string{"poisoned"}
	// The modifier's 1d4 is thrown first (3), then the d20 (18): 18 + 6 − 2 − 3.
	res, got := resolve(t, rs, c, `[skill_check: skill="Stealth" dc="10"]`, 3)
	wantRecord(t, got, `[skill_check: skill="Stealth" dc="10" rolls="18" used="18" modifier="1" total="19" result="success" effects="-5" from="Poisoned"]`)
	if len(res.Faces) != 2 {
		t.Errorf("faces %v: the modifier's die is stored with the check's", res.Faces)
	}
	_, got = resolve(t, rs, c, `[skill_check: ability="dex" dc="10"]`, 3)
	wantRecord(t, got, `[skill_check: ability="Dexterity" dc="10" rolls="3" used="3" modifier="1" total="4" result="failure" effects="-2" from="Poisoned"]`)
}
