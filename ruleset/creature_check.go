package ruleset

import (
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/ruleset/rules"
	"slices"
	"strings"

	"sheetkeeper/strictjson"
)

// checkCreature checks one creature at path: its own shape, then every name it carries
// against the sheet and the combat block (Marinara's creatureIssues and
// creatureSheetIssues). Creature catalogs record API 1.27 in the catalog check.
func (c *checker) checkCreature(cr *Creature, path string) {
	at := func(keys ...any) string { return rules.PathOf(path, keys...) }
	cb := c.rs.Combat
	c.creatureNumbers(cr, at)
	c.creatureHide(cr, at)
	c.SheetID(at("tier"), cr.Tier)
	c.Count(at("traits"), len(cr.Traits), 0, 8)
	for i, t := range cr.Traits {
		c.PromptText(at("traits", i, "name"), t.Name, 60)
		c.PromptText(at("traits", i, "text"), t.Text, 400)
	}
	if cr.SignaturePoints != nil {
		c.Between(at("signaturePoints"), float64(*cr.SignaturePoints), 1, 20)
	}
	c.Count(at("actions"), len(cr.Actions), 0, maxCreatureActions)
	for i := range cr.Actions {
		c.creatureAction(&cr.Actions[i], at("actions", i))
	}
	c.creatureSignature(cr, at)
	if cr.Riders != nil {
		c.UsesOnce("creature riders", 29, at("riders"))
		c.Count(at("riders"), len(cr.Riders), 1, maxCreatureRiders)
	}
	if cr.Sheet != nil {
		c.UsesOnce("creatures written as a sheet", 34, at("sheet"))
		for _, g := range cr.sheetGives() {
			if g.set {
				c.Add(at(g.key), "a creature with a sheet takes its %s from the sheet, so it does not give it here too", g.key)
			}
		}
	} else {
		for _, g := range cr.sheetGives()[:3] {
			if !g.set {
				c.Add(at(g.key), "a creature without a sheet needs its %s", g.key)
			}
		}
		if len(cr.Actions) == 0 {
			c.Add(at("actions"), "a creature without a sheet needs at least one action, or it has nothing to do")
		}
	}
	if cr.Loot != "" && c.SheetID(at("loot"), cr.Loot) && !c.rs.hasLootTable(cr.Loot) {
		c.Add(at("loot"), "unknown loot table %q", cr.Loot)
	}
	if cb == nil {
		c.Add(path, "this ruleset has no combat block, so there is nothing for a creature to be written in")
		return
	}
	c.creatureNames(cr, cb, at)
	if cr.Sheet != nil {
		c.creatureSheet(cr.Sheet, at("sheet"))
	}
	c.creatureActionNames(cr, cb, at)
	c.creatureRiders(cr, cb, at)
}

// creatureNumbers checks the plain numbers of a block: health, defense, speed,
// initiative, scores, save and contest bonuses, soak and hardness, within their bounds.
func (c *checker) creatureNumbers(cr *Creature, at func(...any) string) {
	cr.HealthValue = nil
	switch rawKind(cr.Health) {
	case 0:
	case 'n':
		var n int
		if c.decodeRaw(cr.Health, &n, at("health")) && c.Between(at("health"), float64(n), 1, 100000) {
			cr.HealthValue = &CreatureHealth{Fixed: n}
		}
	case 'o':
		h := &CreatureHealth{}
		if c.decodeRaw(cr.Health, h, at("health")) {
			c.Dice(at("health", "dice"), h.Dice)
			if h.Flat != nil {
				c.Between(at("health", "flat"), float64(*h.Flat), -1000, 100000)
			}
			cr.HealthValue = h
		}
	default:
		c.Add(at("health"), "expected a whole number or {\"dice\": ..., \"flat\": ...}")
	}
	if cr.Defense != nil {
		c.Between(at("defense"), float64(*cr.Defense), 0, 1000)
	}
	if cr.Speed != nil {
		c.Between(at("speed"), *cr.Speed, 0, fight.MaxDistance)
	}
	if cr.InitiativeModifier != nil {
		c.Between(at("initiativeModifier"), float64(*cr.InitiativeModifier), -50, 100)
	}
	for _, m := range []struct {
		key    string
		vals   map[string]int
		lo, hi float64
	}{{"abilities", cr.Abilities, -1000, 1000}, {"saves", cr.Saves, -50, 50}, {"checks", cr.Checks, -100, 100}} {
		for _, id := range rules.SortedKeys(m.vals) {
			c.Between(at(m.key, id), float64(m.vals[id]), m.lo, m.hi)
		}
	}
	if cr.Checks != nil {
		c.UsesOnce("contests", 43, at("checks"))
	}
	if s := cr.Soak; s != nil {
		c.UsesOnce("creature soak", 47, at("soak"))
		if s.All != nil {
			c.Between(at("soak", "all"), float64(*s.All), 0, 100)
		}
		for _, k := range rules.SortedKeys(s.ByKind) {
			c.Between(at("soak", "byKind", k), float64(s.ByKind[k]), 0, 100)
		}
	}
	if cr.Hardness != nil {
		c.Between(at("hardness"), float64(*cr.Hardness), 0, 100)
	}
}

// creatureHide decodes and checks resistances, vulnerabilities and immunities: a damage
// type, or one with the item tags a blow gets through with. With a combat block, each
// type is one it declares and each tag one the items block declares.
func (c *checker) creatureHide(cr *Creature, at func(...any) string) {
	cb, tags := c.rs.Combat, c.rs.itemTags()
	names := func(p string, h HideEntry, typePath string) {
		if cb == nil {
			return
		}
		c.creatureDamageType(typePath, h.Type, cb)
		for k, tag := range h.Except {
			tp := rules.PathOf(p, "except", k)
			switch {
			case len(tags) == 0:
				c.Add(tp, "this ruleset declares no item tags for a blow to carry")
			case !tags[tag]:
				c.Add(tp, "unknown item tag %q", tag)
			}
		}
	}
	decode := func(key string, raws []strictjson.Raw) []HideEntry {
		c.Count(at(key), len(raws), 0, 30)
		var out []HideEntry
		for i, raw := range raws {
			p := at(key, i)
			switch rawKind(raw) {
			case 's':
				var s string
				if c.decodeRaw(raw, &s, p) {
					c.PromptText(p, s, maxTypeText)
					names(p, HideEntry{Type: s}, p)
					out = append(out, HideEntry{Type: s})
				}
			case 'o':
				var h HideEntry
				if c.decodeRaw(raw, &h, p) {
					c.PromptText(strictjson.Join(p, "type"), h.Type, maxTypeText)
					c.Count(strictjson.Join(p, "except"), len(h.Except), 1, 8)
					c.SheetIDs(strictjson.Join(p, "except"), h.Except)
					names(p, h, strictjson.Join(p, "type"))
					out = append(out, h)
				}
			default:
				c.Add(p, "expected a damage type or {\"type\": ..., \"except\": [...]}")
			}
		}
		return out
	}
	cr.ResistTo = decode("resist", cr.Resist)
	cr.ImmuneTo = decode("immune", cr.Immune)
	c.Count(at("vulnerable"), len(cr.Vulnerable), 0, 30)
	for i, t := range cr.Vulnerable {
		c.PromptText(at("vulnerable", i), t, maxTypeText)
	}
	c.Count(at("conditionImmunities"), len(cr.ConditionImmunities), 0, 40)
}

// creatureAction checks one action's own shape and what its keys say together.
func (c *checker) creatureAction(a *CreatureAction, path string) {
	at := func(keys ...any) string { return rules.PathOf(path, keys...) }
	c.SheetID(at("id"), a.ID)
	c.PromptText(at("name"), a.Name, 80)
	c.SheetID(at("budget"), a.Budget)
	if a.ToHit != nil {
		c.Between(at("toHit"), float64(*a.ToHit), -50, 100)
	}
	if a.Damage != nil {
		c.creatureDamage(a.Damage, at)
	}
	if s := a.Save; s != nil {
		c.Between(at("save", "difficulty"), float64(s.Difficulty), 0, 1000)
		c.OneOf(at("save", "onSuccess"), s.OnSuccess, "none", "half", "negates")
	}
	if a.SaveDifficulty != nil {
		c.Between(at("saveDifficulty"), float64(*a.SaveDifficulty), 0, 1000)
	}
	if a.TargetCount != nil {
		c.Between(at("targetCount"), float64(*a.TargetCount), 1, maxTargetCount)
	}
	if a.Reach != nil {
		c.Between(at("reach"), *a.Reach, 0, fight.MaxDistance)
	}
	c.creatureRange(a, at("range"))
	if ar := a.Area; ar != nil {
		c.OneOf(at("area", "shape"), ar.Shape, "burst", "cone", "line")
		if ar.Size <= 0 || ar.Size > fight.MaxDistance {
			c.Add(at("area", "size"), "%s is out of range: above 0 and at most %s", rules.Num(ar.Size), rules.Num(fight.MaxDistance))
		}
	}
	if u := a.Uses; u != nil {
		c.OneOf(at("uses", "per"), u.Per, "encounter", "day")
		c.Between(at("uses", "count"), float64(u.Count), 1, 20)
	}
	if r := a.Recharge; r != nil {
		r.Dice.Check(&c.Report, at("recharge", "dice"))
		if c.Between(at("recharge", "from"), float64(r.From), 1, 1000) && r.From > r.Dice.Max() {
			c.Add(at("recharge", "from"), "these dice roll %d at most, so the action would never come back", r.Dice.Max())
		}
	}
	if a.Sequence != nil {
		c.creatureSequence(a, at)
	}
	if a.Signature != nil {
		c.Between(at("signature", "cost"), float64(a.Signature.Cost), 1, 20)
	}
	if a.Self != nil {
		c.UsesOnce("actions that land on the creature itself", 46, at("self"))
		if !*a.Self {
			c.Add(at("self"), "self is true or left out")
		}
		if *a.Self {
			if a.TargetCount != nil {
				c.Add(at("targetCount"), "an action that lands on the creature itself takes no other target")
			}
			if a.Area != nil {
				c.Add(at("area"), "an action that lands on the creature itself takes no other target")
			}
		}
	}
	if a.Reaction != nil && a.Signature != nil {
		c.Add(at("signature"), "a reaction is taken at its moment, so it is not also bought between turns")
	}
	if a.Save != nil && a.SaveDifficulty != nil {
		c.Add(at("saveDifficulty"), "this action has a save of its own, and a save that ends a condition uses that save's difficulty")
	}
	if a.Save == nil && a.SaveDifficulty == nil && anySaveEnds(a.Applies) {
		c.Add(at("saveDifficulty"), "a condition that ends on a save needs a difficulty for that save to be rolled against")
	}
}

// creatureDamage checks an action's damage: dice, a flat amount or both, and the clauses
// it adds; at makes a path inside the action.
func (c *checker) creatureDamage(d *CreatureDamage, at func(...any) string) {
	if d.Dice != "" {
		c.Dice(at("damage", "dice"), d.Dice)
	}
	if d.Flat != nil {
		c.Between(at("damage", "flat"), float64(*d.Flat), -1000, 10000)
	}
	if d.Dice == "" && d.Flat == nil {
		c.Add(at("damage"), "damage names dice, a flat amount, or both")
	}
	if d.Type != "" {
		c.PromptText(at("damage", "type"), d.Type, maxTypeText)
	}
	if d.Plus != nil {
		c.UsesOnce("damage clauses", 29, at("damage", "plus"))
	}
	c.clauseShapes(at("damage", "plus"), d.Plus)
}

// creatureSequence checks a sequence action: the actions it resolves, and nothing of its
// own beside them; at makes a path inside the action.
func (c *checker) creatureSequence(a *CreatureAction, at func(...any) string) {
	c.Count(at("sequence"), len(a.Sequence), 1, 6)
	for i, s := range a.Sequence {
		c.SheetID(at("sequence", i, "action"), s.Action)
		if s.Times != nil {
			c.Between(at("sequence", i, "times"), float64(*s.Times), 1, 10)
		}
	}
	set := a.present()
	for _, k := range sequenceRefuses {
		if set[k] {
			c.Add(at(k), "a sequence resolves the actions it names, so it carries nothing of its own")
		}
	}
}

// creatureRange decodes and checks an action's range: a distance, or {normal, long}
// with long at least normal.
func (c *checker) creatureRange(a *CreatureAction, path string) {
	a.Range = nil
	switch rawKind(a.RawRange) {
	case 0:
	case 'n':
		var n float64
		if c.decodeRaw(a.RawRange, &n, path) && c.Between(path, n, 0, fight.MaxDistance) {
			a.Range = &CreatureDistance{Normal: n}
		}
	case 'o':
		c.UsesOnce("a fight on a board", 28, path)
		d := &CreatureDistance{}
		if c.decodeRaw(a.RawRange, d, path) {
			c.Between(strictjson.Join(path, "normal"), d.Normal, 0, fight.MaxDistance)
			if d.Long != nil && c.Between(strictjson.Join(path, "long"), *d.Long, 0, fight.MaxDistance) && *d.Long < d.Normal {
				c.Add(strictjson.Join(path, "long"), "the long distance is at least the ordinary one")
			}
			a.Range = d
		}
	default:
		c.Add(path, "expected a distance or {\"normal\": ..., \"long\": ...}")
	}
}

// creatureSignature checks that signature actions have points to be bought from, and a
// price the points can ever reach.
func (c *checker) creatureSignature(cr *Creature, at func(...any) string) {
	for i, a := range cr.Actions {
		if a.Signature == nil {
			continue
		}
		if cr.SignaturePoints == nil {
			c.Add(at("signaturePoints"), "an action bought with points needs signaturePoints to buy it from")
			return
		}
		if a.Signature.Cost > *cr.SignaturePoints {
			c.Add(at("actions", i, "signature", "cost"), "this costs %d and the creature only ever has %d points", a.Signature.Cost, *cr.SignaturePoints)
		}
	}
}

// creatureNames checks every name of the block against the ruleset: the threat tier,
// abilities, saves, contest checks, damage types, conditions, and what only a dice-pool
// fight reads. Resistances and immunities are checked as they are decoded.
func (c *checker) creatureNames(cr *Creature, cb *fight.Combat, at func(...any) string) {
	switch {
	case cb.Threat == nil || len(cb.Threat.Tiers) == 0:
		c.Add(at("tier"), "this ruleset declares no threat tiers for a creature to sit on")
	case !cb.HasTier(cr.Tier):
		c.Add(at("tier"), "unknown threat tier %q", cr.Tier)
	}
	for _, id := range rules.SortedKeys(cr.Abilities) {
		c.Known(at("abilities", id), "ability", id, c.names.ability(id) != nil)
	}
	for _, id := range rules.SortedKeys(cr.Saves) {
		c.Known(at("saves", id), "save", id, c.names.save(id) != nil)
	}
	for _, id := range rules.SortedKeys(cr.Checks) {
		c.Known(at("checks", id), "contest check", id, cb.HasCheck(id))
	}
	for i, t := range cr.Vulnerable {
		c.creatureDamageType(at("vulnerable", i), t, cb)
	}
	for i, id := range cr.ConditionImmunities {
		c.Known(at("conditionImmunities", i), "condition", id, c.names.condition(id) != nil)
	}
	if cr.Hardness != nil && !cb.SpendsInitiative() {
		c.Add(at("hardness"), fight.HardnessNeedsSpending)
	}
	if s := cr.Soak; s != nil {
		switch {
		case !cb.Pooled():
			c.Add(at("soak"), `soak is for a "dice-pool" fight`)
		case cb.Pool == nil || cb.Pool.Soak == nil:
			c.Add(at("soak"), "this fight's pool block says nothing about soak, so there is no way to take it")
		}
		kinds := cb.HealthKinds(fightSheet{c})
		for _, k := range rules.SortedKeys(s.ByKind) {
			fight.CheckSoakKind(&c.Report, at("soak", "byKind", k), k, kinds)
		}
	}
}

// creatureDamageType checks a damage type against the ones the combat block declares.
func (c *checker) creatureDamageType(path, t string, cb *fight.Combat) {
	if !cb.DamageType(t) {
		c.Add(path, "unknown damage type %q", rules.Clip(t))
	}
}

// creatureActionNames checks what every action names: budgets, saves, conditions,
// damage types, pool dice, the catalogs a reaction answers, and the block's own actions
// a sequence makes.
func (c *checker) creatureActionNames(cr *Creature, cb *fight.Combat, at func(...any) string) {
	byID := map[string]*CreatureAction{}
	for i := range cr.Actions {
		a := &cr.Actions[i]
		if _, dup := byID[a.ID]; dup {
			c.Add(at("actions", i, "id"), "duplicate action id %q", a.ID)
			continue
		}
		byID[a.ID] = a
	}
	budgets := cb.BudgetIDs()
	poolDie := 0
	if cb.Pooled() {
		poolDie = c.poolDieSides()
	}
	wrongDie := func(path, dice string) {
		if poolDie > 0 && dice != "" && diceSides(dice) != poolDie {
			c.Add(path, `a "dice-pool" fight throws d%ds, so damage dice are d%ds`, poolDie, poolDie)
		}
	}
	catalogs := map[string]bool{}
	for _, cat := range c.rs.Catalogs {
		catalogs[cat.ID] = true
	}
	for i := range cr.Actions {
		a := &cr.Actions[i]
		p := func(keys ...any) string { return at(append([]any{"actions", i}, keys...)...) }
		if rules.IsSheetID(a.Budget) && !budgets[a.Budget] {
			c.Add(p("budget"), "unknown budget %q", a.Budget)
		}
		if d := a.Damage; d != nil {
			if d.Type != "" {
				c.creatureDamageType(p("damage", "type"), d.Type, cb)
			}
			wrongDie(p("damage", "dice"), d.Dice)
			for j, k := range d.Plus {
				if k.Dice != nil {
					wrongDie(p("damage", "plus", j, "dice"), *k.Dice)
				}
				if k.Type != nil {
					c.creatureDamageType(p("damage", "plus", j, "type"), *k.Type, cb)
				}
				if s := k.Save; s != nil {
					c.knownSave(p("damage", "plus", j, "save", "save"), s.Save)
					if s.Difficulty == nil && a.Save == nil && a.SaveDifficulty == nil {
						c.Add(p("damage", "plus", j, "save", "difficulty"), "this clause's save has no difficulty to be rolled against")
					}
				}
			}
		}
		if a.Save != nil {
			c.knownSave(p("save", "save"), a.Save.Save)
		}
		c.appliedConditions(p("applies"), a.Applies)
		for _, ap := range a.Applies {
			if ap.EndsAfter != nil || ap.Rounds != nil && ap.Rounds.At != "" {
				c.UsesOnce("conditions timed by turn starts, attacks or saves", 45, p("applies"))
			}
		}
		if mo := a.Reaction; mo != nil {
			c.creatureReaction(mo, p("reaction"), catalogs)
		}
		c.sequenceNames(a, byID, p)
	}
}

// sequenceNames checks the actions sequence action a names: each one of the creature's
// own (byID), neither itself, a reaction, another sequence nor one bought with points.
func (c *checker) sequenceNames(a *CreatureAction, byID map[string]*CreatureAction, p func(...any) string) {
	for j, s := range a.Sequence {
		sp := p("sequence", j, "action")
		named := byID[s.Action]
		switch {
		case !rules.IsSheetID(s.Action):
		case named == nil:
			c.Add(sp, "unknown action %q", s.Action)
		case named == a:
			c.Add(sp, "a sequence cannot name itself")
		case named.Reaction != nil:
			c.Add(sp, "%q is a reaction, so no sequence can make it", s.Action)
		default:
			if named.Sequence != nil {
				c.Add(sp, "%q is a sequence, and a sequence cannot name another", s.Action)
			}
			if named.Signature != nil {
				c.Add(sp, "%q is bought with points, so a sequence cannot name it", s.Action)
			}
		}
	}
}

// creatureReaction checks the moment an action waits for, recording the API it needs:
// a moment 1.33, "used" or "against" 1.44, "hit" 1.46.
func (c *checker) creatureReaction(mo *ReactionMoment, path string, catalogs map[string]bool) {
	c.UsesOnce("reaction moments", 33, path)
	if mo.On == "used" || mo.Against != nil {
		c.UsesOnce("reactions to a use or to some catalogs", 44, path)
	}
	if mo.On == "hit" {
		c.UsesOnce("reactions to a hit", 46, path)
	}
	c.reactionMoment(path, mo, &entryContext{catalogs: catalogs})
}

// creatureRiders checks the block's riders: their own shape, ids, damage types, pool
// dice, and the block's actions they fire on.
func (c *checker) creatureRiders(cr *Creature, cb *fight.Combat, at func(...any) string) {
	actions := map[string]bool{}
	for _, a := range cr.Actions {
		actions[a.ID] = true
	}
	seen := map[string]bool{}
	for i, r := range cr.Riders {
		p := func(keys ...any) string { return at(append([]any{"riders", i}, keys...)...) }
		if c.SheetID(p("id"), r.ID) && seen[r.ID] {
			c.Add(p("id"), "duplicate rider id %q", r.ID)
		}
		seen[r.ID] = true
		c.PromptText(p("name"), r.Name, 80)
		c.OneOf(p("on"), r.On, "hit")
		if r.When != nil {
			c.Count(p("when"), len(r.When), 1, 2)
			for j, w := range r.When {
				c.OneOf(p("when", j), w, "advantage", "ally-adjacent")
			}
		}
		c.OneOf(p("oncePer"), r.OncePer, "turn", "round")
		if r.Amount.Dice != nil {
			c.Dice(p("amount", "dice"), *r.Amount.Dice)
			if cb.Pooled() {
				if die := c.poolDieSides(); die > 0 && diceSides(*r.Amount.Dice) != die {
					c.Add(p("amount", "dice"), `a "dice-pool" fight throws d%ds, so damage dice are d%ds`, die, die)
				}
			}
		}
		if r.Amount.Dice == nil && r.Amount.Flat == nil {
			c.Add(p("amount"), "a rider names dice, a flat amount, or both")
		}
		if r.Type != "" {
			c.PromptText(p("type"), r.Type, maxTypeText)
			c.creatureDamageType(p("type"), r.Type, cb)
		}
		if r.Actions != nil {
			c.Count(p("actions"), len(r.Actions), 1, maxCreatureActions)
			for j, id := range r.Actions {
				c.Known(p("actions", j), "action", id, actions[id])
			}
		}
	}
}

// creatureSheet checks a creature written as a sheet against the ruleset's own names:
// every id one the sheet declares, every value one its field, score, bonus or column
// can hold, and a row from a catalog naming one that feeds its list.
func (c *checker) creatureSheet(s *CreatureSheet, path string) {
	at := func(keys ...any) string { return rules.PathOf(path, keys...) }
	for _, id := range rules.SortedKeys(s.Abilities) {
		a := c.names.ability(id)
		if !c.Known(at("abilities", id), "ability", id, a != nil) {
			continue
		}
		if v := s.Abilities[id]; v != float64(int(v)) || v < float64(a.Min) || v > float64(a.Max) {
			c.Add(at("abilities", id), "ability %q takes a whole number from %d to %d", id, a.Min, a.Max)
		}
	}
	sheet := &c.rs.Sheet
	for _, k := range []struct {
		key, what string
		vals      map[string]string
		offered   []string
		known     func(string) bool
	}{
		{"skills", "skill", s.Skills, sheet.SkillTiers, func(id string) bool { return c.names.skill(id) != nil }},
		{"saves", "save", s.Saves, sheet.SaveTiers, func(id string) bool { return c.names.save(id) != nil }},
	} {
		for _, id := range rules.SortedKeys(k.vals) {
			p := at(k.key, id)
			if !c.Known(p, k.what, id, k.known(id)) {
				continue
			}
			tier := k.vals[id]
			switch {
			case c.names.tier(tier) == nil:
				c.Add(p, "unknown proficiency tier %q", rules.Clip(tier))
			case k.offered != nil && !slices.Contains(k.offered, tier):
				c.Add(p, "this ruleset does not offer the tier %q for %s", tier, k.key)
			}
		}
	}
	for _, id := range rules.SortedKeys(s.Fields) {
		p := at("fields", id)
		f := c.names.field(id)
		if !c.Known(p, "field", id, f != nil) {
			continue
		}
		if msg := cellRefuses(f, s.Fields[id]); msg != "" {
			c.Add(p, "field %q %s", id, msg)
		}
	}
	bonus := sheet.Bonus()
	for _, id := range rules.SortedKeys(s.Bonuses) {
		p := at("bonuses", id)
		if !c.Known(p, "skill or save", id, c.names.skill(id) != nil || c.names.save(id) != nil) {
			continue
		}
		if v := s.Bonuses[id]; v != float64(int(v)) || v < float64(bonus.Min) || v > float64(bonus.Max) {
			c.Add(p, "bonus %q takes a whole number from %d to %d", id, bonus.Min, bonus.Max)
		}
	}
	for _, id := range rules.SortedKeys(s.Lists) {
		p := at("lists", id)
		l := c.names.list(id)
		if !c.Known(p, "list", id, l != nil) {
			continue
		}
		rows := s.Lists[id]
		if len(rows) > maxCreatureRows || len(rows) > l.MaxItems {
			c.Add(p, "list %q holds at most %d rows", id, min(l.MaxItems, maxCreatureRows))
		}
		for i, row := range rows {
			c.creatureRow(l, row, strictjson.Join(p, i))
		}
	}
}

// creatureRow checks one row of a creature's list: its values as any row of that list,
// and its `_catalog` mark naming a catalog that feeds the list (and, inline, an entry).
func (c *checker) creatureRow(l *List, row map[string]any, path string) {
	values := row
	mark, marked := row[catalogRowKey]
	if marked {
		values = make(map[string]any, len(row))
		for k, v := range row {
			if k != catalogRowKey {
				values[k] = v
			}
		}
	}
	c.rowValues(l, values, path)
	if !marked {
		return
	}
	mp := strictjson.Join(path, catalogRowKey)
	ref, _ := mark.(string)
	catID, entryID, ok := strings.Cut(ref, "/")
	if !ok || catID == "" || entryID == "" {
		c.Add(mp, "%q is not a <catalog>/<entry> mark", rules.Clip(ref))
		return
	}
	cat := c.rs.Catalog(catID)
	if cat == nil || !cat.feeds(l.ID) {
		c.Add(mp, "no catalog %q feeds the list %q", catID, l.ID)
		return
	}
	if cat.Entries == nil {
		return // a standalone file: an entry it lacks simply gives the creature nothing
	}
	for i := range cat.Entries {
		if cat.Entries[i].ID == entryID {
			return
		}
	}
	c.Add(mp, "catalog %q has no entry %q", catID, entryID)
}
