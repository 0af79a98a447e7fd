package sheet

import (
	"math"

	"sheetkeeper/ruleset"
)

// AbilityChange is what a character's items do to one ability score: Add is added
// first, then the score is raised to at least Set (when HasSet: the highest set of
// them), and the ability's own min and max hold.
type AbilityChange struct {
	Add    float64
	Set    float64
	HasSet bool
}

// ItemAbilities is what an ItemStats that also changes abilities gives (an item's worn
// or carried abilities set or add). The changes go on before the sheet is worked out, so
// everything that reads an ability reads the changed one, except what the format works
// out from the sheet alone: a pool's or track's maximum and the proficiency bonus, which
// the first, build-only evaluation gives.
type ItemAbilities interface {
	ItemAbilities() map[string]AbilityChange
}

// abilityChanges is what items do to abilities (nil: nothing).
func abilityChanges(items ItemStats) map[string]AbilityChange {
	if ia, ok := items.(ItemAbilities); ok {
		return ia.ItemAbilities()
	}
	return nil
}

// changed is score as ch leaves it, within a's bounds. An ability whose bounds are
// unset (0, 0) is held to nothing.
func (ch AbilityChange) changed(a *ruleset.Ability, score float64) float64 {
	score += ch.Add
	if ch.HasSet {
		score = math.Max(score, ch.Set)
	}
	if a.Min < a.Max {
		score = math.Min(math.Max(score, float64(a.Min)), float64(a.Max))
	}
	return score
}
