package ruleset

import (
	"sheetkeeper/ruleset/fight"
)

// entryContext indexes, once per check, the names outside the sheet an entry may use:
// the ruleset's catalogs and the combat block's words. The sheet's own names are in
// c.names.
type entryContext struct {
	catalogs map[string]bool
	// hasCombat says the ruleset has a combat block; without one, budgets, attack lists
	// and standard actions are read by nothing and only their shape is checked.
	hasCombat bool
	// damageTypes holds the declared damage types keyed by fight.DamageTypeKey; nil when
	// the combat block declares none (a type is then free text).
	damageTypes map[string]bool
	// budgets holds the action economy's budgets; nil without a combat block.
	budgets    map[string]bool
	mainBudget string
	standard   map[string]bool
	// attackLists are the lists of combat.attacks, in order.
	attackLists     map[string]bool
	attackListOrder []string
	// abilitySources maps each combat.abilities list to whether it declares a
	// saveDifficulty.
	abilitySources map[string]bool
	// poolDie is the die a dice-pool fight throws damage with, 0 otherwise.
	poolDie int
	// woundHealth is the wound track health is measured on, "" when health is a pool.
	woundHealth string
}

func newEntryContext(c *checker) *entryContext {
	ctx := &entryContext{catalogs: map[string]bool{}}
	for _, cat := range c.rs.Catalogs {
		ctx.catalogs[cat.ID] = true
	}
	ctx.fromCombat(c)
	if ctx.woundHealth == "" && c.rs.Battle != nil {
		ctx.woundHealth = woundTrack(c, c.rs.Battle.Health)
	}
	return ctx
}

// woundTrack is the wound track health is measured on, "" for a pool or a plain track.
func woundTrack(c *checker, h fight.Health) string {
	if t := c.names.track(h.Track); t != nil && t.IsWound() {
		return t.ID
	}
	return ""
}

// fromCombat reads the combat block's words, and the health a fight measures.
func (ctx *entryContext) fromCombat(c *checker) {
	cb := c.rs.Combat
	if cb == nil {
		return
	}
	ctx.hasCombat = true
	ctx.damageTypes = cb.DamageTypeSet()
	ctx.budgets, ctx.mainBudget = cb.BudgetIDs(), cb.MainBudget()
	ctx.standard = map[string]bool{}
	for _, s := range cb.Standard {
		ctx.standard[s] = true
	}
	ctx.attackLists = map[string]bool{}
	for _, a := range cb.Attacks {
		if !ctx.attackLists[a.List] {
			ctx.attackListOrder = append(ctx.attackListOrder, a.List)
		}
		ctx.attackLists[a.List] = true
	}
	ctx.abilitySources = map[string]bool{}
	for _, a := range cb.Abilities {
		ctx.abilitySources[a.List] = a.SaveDifficulty != nil
	}
	if cb.Kind == "dice-pool" {
		ctx.poolDie = c.poolDieSides()
	}
	ctx.woundHealth = woundTrack(c, cb.Health)
}
