package sheet

import (
	"testing"

	"sheetkeeper/ruleset"
)

// gear is items that change abilities and give no stats.
type gear map[string]AbilityChange

func (gear) ItemStat(*ruleset.ItemStat) (float64, bool) { return 0, false }
func (g gear) ItemAbilities() map[string]AbilityChange  { return g }

// Items' ability changes go on before the sheet is worked out — additions, then the
// highest set, within the ability's bounds — and everything reads the changed score but
// a pool's maximum and the proficiency bonus, which the sheet alone gives.
func TestItemAbilities(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build = Build{Abilities: map[string]float64{"might": 15, "wits": 7}, Fields: map[string]any{"level": 5.0, "toughness": 2.0}}
	before := Evaluate(rs, c, nil)
	for _, tc := range []struct {
		name string
		g    gear
		want float64
	}{
		{"add", gear{"might": {Add: 2}}, 17},
		{"add lowers", gear{"might": {Add: -3}}, 12},
		{"set raises", gear{"might": {Set: 18, HasSet: true}}, 18},
		{"set is at least", gear{"might": {Set: 12, HasSet: true}}, 15},
		{"add then set", gear{"might": {Add: 4, Set: 18, HasSet: true}}, 19},
		{"max holds", gear{"might": {Add: 10}}, 20},
		{"min holds", gear{"might": {Add: -30}}, 1},
	} {
		v := Evaluate(rs, c, tc.g)
		if got := v.AbilityScores["might"]; got != tc.want {
			t.Errorf("%s: might %v, want %v", tc.name, got, tc.want)
		}
		if v.AbilityMods["might"] != AbilityModifier(rs, tc.want) || v.Derived["best"] != max(AbilityModifier(rs, tc.want), -2) {
			t.Errorf("%s: the modifier and what reads it: %v, best %v", tc.name, v.AbilityMods["might"], v.Derived["best"])
		}
		if v.Live.Pool("stamina").Max != before.Live.Pool("stamina").Max {
			t.Errorf("%s: stamina's maximum moved with an item: %d", tc.name, v.Live.Pool("stamina").Max)
		}
	}
	// A proficiency bonus that reads an ability keeps the sheet's own score.
	rs.Resolution.Proficiency.Bonus = ruleset.ValueRef{AbilityMod: "might"}
	if v := Evaluate(rs, c, gear{"might": {Add: 4}}); v.ProficiencyBonus != 2 || v.AbilityMods["might"] != 4 {
		t.Errorf("proficiency %v, might %v", v.ProficiencyBonus, v.AbilityMods["might"])
	}
}
