package fight

import (
	"fmt"
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

// checkCombat checks the combat block: its own shape and every name it points at.
func (c *checker) checkCombat(cb *Combat) {
	if cb == nil {
		return
	}
	const p = "combat"
	at := func(keys ...any) string { return rules.PathOf(p, keys...) }
	c.UsesOnce("the combat block", 26, p)
	c.OneOf(at("kind"), cb.Kind, "attack-vs-defense", "dice-pool")
	healthTrack := c.fightHealth(at("health"), cb.Health)
	if cb.Health.Track != "" {
		c.UsesOnce("combat health on a wound track", 30, at("health"))
	}
	c.sheet.ValueRef(&cb.Defense, at("defense"))
	c.checkInitiative(cb, at("initiative"))
	c.checkAttackRoll(cb, at("attackRoll"))
	c.checkCombatPool(cb, at("pool"))
	c.checkEconomy(&cb.Economy, at("economy"))
	c.checkBoard(cb, at)
	c.checkAttackSources(cb, at("attacks"))
	c.checkAbilitySources(cb, at("abilities"))
	c.checkStandard(cb, at)
	c.checkConditions(cb, at("conditions"))
	c.checkLevels(cb, at("levels"))
	c.checkContests(cb, at)
	c.checkConcentration(cb.Concentration, at("concentration"))
	c.checkDying(cb.Dying, at("dying"))
	c.checkDamageTypes(cb, healthTrack, at)
	c.checkThreat(cb.Threat, at("threat"))
	c.checkSpendLimits(cb.SpendLimits, at("spendLimits"))
}

func (c *checker) checkInitiative(cb *Combat, path string) {
	in := &cb.Initiative
	at := func(k string) string { return strictjson.Join(path, k) }
	if (in.Dice == nil) == (in.Pool == nil) {
		c.Add(path, "initiative is thrown as dice or as a pool: exactly one of the two")
	}
	if in.Dice != nil {
		in.Dice.Check(c.Report, at("dice"))
	}
	if in.Modifier != nil {
		c.sheet.ValueRef(in.Modifier, at("modifier"))
		if in.Dice == nil {
			c.Add(at("modifier"), "a modifier is added to initiative dice, and there are none")
		}
	}
	if in.Pool != nil {
		c.UsesOnce("initiative thrown as a pool", 48, at("pool"))
		c.sheet.ValueRef(in.Pool, at("pool"))
		if !cb.Pooled() {
			c.Add(at("pool"), `initiative thrown as a pool is for a "dice-pool" fight`)
		}
	}
	if in.Plus != nil {
		c.Between(at("plus"), float64(*in.Plus), 0, 100)
		if in.Pool == nil {
			c.Add(at("plus"), "plus is added to a pool's successes, and initiative is not a pool")
		}
	}
	if in.Each != "" {
		c.UsesOnce("initiative thrown again each round", 47, at("each"))
		c.OneOf(at("each"), in.Each, "fight", "round")
	}
	if in.Resource != nil {
		c.checkInitiativeResource(cb, path)
	}
}

// checkInitiativeResource checks initiative as a number attacks move (API 1.48): a
// dice-pool fight's, opened with a thrown pool, its styles and its crash line.
func (c *checker) checkInitiativeResource(cb *Combat, path string) {
	in := &cb.Initiative
	at := func(k string) string { return strictjson.Join(path, k) }
	r := in.Resource
	rp := at("resource")
	c.UsesOnce("initiative that attacks move", 48, rp)
	if !cb.Pooled() {
		c.Add(rp, `initiative that attacks move is for a "dice-pool" fight`)
	}
	if in.Pool == nil {
		c.Add(rp, "a number attacks move opens with a thrown pool, so initiative needs pool")
	}
	if in.Each != "" {
		c.Add(at("each"), "a number attacks move is kept for the whole fight, so it is never thrown again")
	}
	c.Between(strictjson.Join(rp, "base"), float64(r.Base), 0, 100)
	sp := strictjson.Join(rp, "styles")
	c.Count(sp, len(r.Styles), 1, 4)
	c.Unique(sp, "style", len(r.Styles), func(i int) string { return r.Styles[i].ID })
	takes := false
	for i, s := range r.Styles {
		p := strictjson.Join(sp, i)
		c.SheetID(strictjson.Join(p, "id"), s.ID)
		c.Label(strictjson.Join(p, "label"), s.Label)
		if (s.Takes == nil) == (s.Spends == nil) {
			c.Add(p, "a style either takes or spends: exactly one of the two")
		}
		if s.Takes != nil {
			takes = true
			if s.Takes.Gain != nil {
				c.Between(rules.PathOf(p, "takes", "gain"), float64(*s.Takes.Gain), 0, 20)
			}
		}
		if s.Spends != nil && s.Spends.OnMiss != nil {
			mp := strictjson.Join(strictjson.Join(p, "spends"), "onMiss")
			c.StepTable(mp, s.Spends.OnMiss, 100)
			for j, step := range s.Spends.OnMiss {
				if step[1] < 0 {
					c.Add(fmt.Sprintf("%s[%d][1]", mp, j), "a miss costs nothing or more, never a gain")
				}
			}
		}
	}
	if len(r.Styles) > 0 && !takes {
		c.Add(sp, "at least one style takes: a crashed combatant attacks in it")
	}
	if cr := r.Crash; cr != nil {
		cp := strictjson.Join(rp, "crash")
		if cr.At != nil {
			c.Between(strictjson.Join(cp, "at"), float64(*cr.At), -100, 100)
		}
		if cr.Condition != "" {
			c.knownCondition(strictjson.Join(cp, "condition"), cr.Condition)
		}
		if cr.Bonus != nil {
			c.Between(strictjson.Join(cp, "bonus"), float64(*cr.Bonus), 0, 100)
		}
		if cr.RecoverAfter != nil {
			c.Between(strictjson.Join(cp, "recoverAfter"), float64(*cr.RecoverAfter), 1, 20)
		}
	}
	if r.Crash != nil && r.Base <= r.Crash.CrashAt() {
		c.Add(strictjson.Join(rp, "base"), "the base is what a number goes back to, so it must be above the crash line %d", r.Crash.CrashAt())
	}
}

func (c *checker) checkAttackRoll(cb *Combat, path string) {
	ar := cb.AttackRoll
	if cb.Pooled() {
		if ar != nil {
			c.Add(path, `a "dice-pool" fight throws pools, so it rolls no attack dice`)
		}
	} else if ar == nil && cb.Kind == "attack-vs-defense" {
		c.Add(path, `an "attack-vs-defense" fight needs attackRoll to say what an attack rolls`)
	}
	if ar == nil {
		return
	}
	ar.Dice.Check(c.Report, strictjson.Join(path, "dice"))
	if ar.Critical != "" {
		c.OneOf(strictjson.Join(path, "critical"), ar.Critical, "double-dice", "max-dice", "none")
	}
	if n := ar.Naturals; n != nil {
		np := strictjson.Join(path, "naturals")
		if n.Max != "" {
			c.OneOf(strictjson.Join(np, "max"), n.Max, "critical", "hit", "none")
		}
		if n.Min != "" {
			c.OneOf(strictjson.Join(np, "min"), n.Min, "miss", "none")
		}
		if ar.Dice.Count != 1 && (n.Max != "" && n.Max != "none" || n.Min != "" && n.Min != "none") {
			c.Add(np, "natural results need a single die; with several dice use none")
		}
	}
}

func (c *checker) checkCombatPool(cb *Combat, path string) {
	cp := cb.Pool
	if cb.Pooled() {
		if cp == nil {
			c.Add(path, `a "dice-pool" fight needs pool to say how it rolls damage`)
		}
		if _, pooled := c.sheet.DicePool(); !pooled {
			c.Add("combat.kind", `a "dice-pool" fight throws the ruleset's own pools, so resolution.kind must be "dice-pool" too`)
		}
	} else if cp != nil && cb.Kind == "attack-vs-defense" {
		c.Add(path, `pool is for a "dice-pool" fight`)
	}
	if cp == nil {
		return
	}
	if cp.DamageTarget != nil {
		dp := strictjson.Join(path, "damageTarget")
		if c.Between(dp, float64(*cp.DamageTarget), 2, 100) {
			if sides, _ := c.sheet.DicePool(); sides > 0 && *cp.DamageTarget > sides {
				c.Add(dp, "a %d-sided die never reaches %d", sides, *cp.DamageTarget)
			}
		}
	}
	if s := cp.Soak; s != nil {
		sp := strictjson.Join(path, "soak")
		if s.All == nil && s.ByKind == nil {
			c.Add(sp, "soak takes something off: all, byKind or both")
		}
		if s.All != nil {
			c.sheet.ValueRef(s.All, strictjson.Join(sp, "all"))
		}
		kinds := cb.HealthKinds(c.sheet)
		for _, kind := range rules.SortedKeys(s.ByKind) {
			kp := strictjson.Join(strictjson.Join(sp, "byKind"), kind)
			ref := s.ByKind[kind]
			c.sheet.ValueRef(&ref, kp)
			CheckSoakKind(c.Report, kp, kind, kinds)
		}
	}
	if cp.Hardness != nil {
		hp := strictjson.Join(path, "hardness")
		c.sheet.ValueRef(cp.Hardness, hp)
		if !cb.SpendsInitiative() {
			c.Add(hp, HardnessNeedsSpending)
		}
	}
}

func (c *checker) checkEconomy(e *Economy, path string) {
	bp := strictjson.Join(path, "budgets")
	c.Count(bp, len(e.Budgets), 1, 8)
	c.Unique(bp, "budget", len(e.Budgets), func(i int) string { return e.Budgets[i].ID })
	for i, b := range e.Budgets {
		p := strictjson.Join(bp, i)
		c.SheetID(strictjson.Join(p, "id"), b.ID)
		c.Label(strictjson.Join(p, "label"), b.Label)
		c.OneOf(strictjson.Join(p, "per"), b.Per, "turn", "round")
		if b.Count != nil {
			c.Between(strictjson.Join(p, "count"), float64(*b.Count), 1, 10)
		}
	}
	if e.Movement != nil {
		c.sheet.ValueRef(e.Movement, strictjson.Join(path, "movement"))
	}
}

// budget checks that id names one of the fight's budgets.
func (c *checker) economyBudget(path, id string) {
	c.Known(path, "budget", id, c.cb.BudgetIDs()[id])
}

// checkBoard checks what a fight on a board reads: the cell, shots, cover and strikes
// at somebody walking away, none of which means anything without a cell.
func (c *checker) checkBoard(cb *Combat, at func(...any) string) {
	if d := cb.Distance; d != nil {
		c.UsesOnce("a fight on a board", 28, at("distance"))
		c.PromptText(at("distance", "label"), d.Label, 12)
		if d.PerCell <= 0 {
			c.Add(at("distance", "perCell"), "must be above 0")
		}
	} else {
		for _, k := range []struct {
			key string
			set bool
		}{{"ranged", cb.Ranged != nil}, {"cover", cb.Cover != nil}, {"opportunity", cb.Opportunity != nil}} {
			if k.set {
				c.Add(at(k.key), "%s is measured in cells, so the combat block needs distance too", k.key)
				break
			}
		}
	}
	if r := cb.Ranged; r != nil {
		if r.Long != "" {
			c.OneOf(at("ranged", "long"), r.Long, "disadvantage", "normal")
		}
		if r.AdjacentFoe != "" {
			c.OneOf(at("ranged", "adjacentFoe"), r.AdjacentFoe, "disadvantage", "normal")
		}
	}
	if cb.Cover != nil {
		c.Between(at("cover", "bonus"), float64(cb.Cover.Bonus), 0, 100)
	}
	if cb.Opportunity != nil {
		c.economyBudget(at("opportunity", "budget"), cb.Opportunity.Budget)
	}
	if o := cb.OffHand; o != nil {
		c.economyBudget(at("offHand", "budget"), o.Budget)
		if o.Ability != "" {
			c.OneOf(at("offHand", "ability"), o.Ability, "full", "penalty-only")
		}
	}
}

func (c *checker) checkAttackSources(cb *Combat, path string) {
	c.Count(path, len(cb.Attacks), 0, 8)
	for i := range cb.Attacks {
		c.checkAttackSource(cb, &cb.Attacks[i], strictjson.Join(path, i))
	}
}

func (c *checker) checkAttackSource(cb *Combat, a *AttackSource, path string) {
	at := func(keys ...any) string { return rules.PathOf(path, keys...) }
	c.economyBudget(at("budget"), a.Budget)
	if a.Strikes != nil {
		c.UsesOnce("strikes per spend", 29, at("strikes"))
		c.sheet.ValueRef(a.Strikes, at("strikes"))
		if a.Strikes.Const != nil && *a.Strikes.Const < 1 {
			c.Add(at("strikes", "const"), "one spend buys at least one strike")
		}
	} else if a.StrikesCappedBy != nil {
		c.Add(at("strikesCappedBy"), "strikesCappedBy holds a row to one strike, and without strikes the list buys one strike a spend anyway")
	}
	if a.StrikesCappedBy != nil {
		c.UsesOnce("strikesCappedBy", 32, at("strikesCappedBy"))
	}
	if a.ToHit.Skill != nil {
		c.UsesOnce("an attack's skill column", 47, at("toHit", "skill"))
	}
	if a.Reach != nil || a.Range != nil {
		c.UsesOnce("a fight on a board", 28, path)
	}
	if cb.Distance == nil {
		if a.Reach != nil {
			c.Add(at("reach"), "reach is measured in cells, so the combat block needs distance too")
		}
		if a.Range != nil {
			c.Add(at("range"), "range is measured in cells, so the combat block needs distance too")
		}
	}
	c.distanceSourceShape(a.Reach, at("reach"))
	if a.Range != nil {
		c.distanceSourceShape(&a.Range.Normal, at("range", "normal"))
		c.distanceSourceShape(a.Range.Long, at("range", "long"))
		n, l := a.Range.Normal.Const, a.Range.Long
		if n != nil && l != nil && l.Const != nil && *l.Const < *n {
			c.Add(at("range", "long"), "the long distance is at least the ordinary one")
		}
	}
	l := a.List
	if !c.Known(at("list"), "list", l, c.sheet.Declares(List, l)) {
		return
	}
	c.sheet.Column(at("name"), l, a.Name, "text")
	col := func(ref *ColumnRef, typ string, keys ...any) {
		if ref != nil {
			c.sheet.Column(at(append(keys, "column")...), l, ref.Column, typ)
		}
	}
	col(a.ToHit.Ability, "enum", "toHit", "ability")
	col(a.ToHit.Skill, "enum", "toHit", "skill")
	col(a.ToHit.Proficiency, "boolean", "toHit", "proficiency")
	col(a.ToHit.Bonus, "number", "toHit", "bonus")
	col(a.StrikesCappedBy, "boolean", "strikesCappedBy")
	col(&a.Damage.Dice, "dice", "damage", "dice")
	col(a.Damage.Ability, "enum", "damage", "ability")
	col(a.Damage.Bonus, "number", "damage", "bonus")
	if t := a.Damage.Type; t != nil {
		if f, ok := c.sheet.Column(at("damage", "type", "column"), l, t.Column, ""); ok && f.Type != "text" && f.Type != "enum" {
			c.Add(at("damage", "type", "column"), "column %q of list %q is a %s column, not text or enum", t.Column, l, f.Type)
		}
	}
	for _, d := range []struct {
		src  *DistanceSource
		path string
	}{{a.Reach, at("reach")}, {rangeNormal(a.Range), at("range", "normal")}, {rangeLong(a.Range), at("range", "long")}} {
		if d.src != nil && d.src.Column != "" {
			c.sheet.Column(strictjson.Join(d.path, "column"), l, d.src.Column, "number")
		}
	}
}

func rangeNormal(r *AttackRange) *DistanceSource {
	if r == nil {
		return nil
	}
	return &r.Normal
}

func rangeLong(r *AttackRange) *DistanceSource {
	if r == nil {
		return nil
	}
	return r.Long
}

// distanceSourceShape checks a distance source names exactly one of column and const.
func (c *checker) distanceSourceShape(d *DistanceSource, path string) {
	if d == nil {
		return
	}
	if (d.Column == "") == (d.Const == nil) {
		c.Add(path, "a distance names exactly one of: column, const")
	}
	if d.Const != nil {
		c.Between(strictjson.Join(path, "const"), *d.Const, 0, MaxDistance)
	}
}

func (c *checker) checkAbilitySources(cb *Combat, path string) {
	c.Count(path, len(cb.Abilities), 0, 8)
	for i := range cb.Abilities {
		a := &cb.Abilities[i]
		p := strictjson.Join(path, i)
		c.economyBudget(strictjson.Join(p, "budget"), a.Budget)
		c.rowFilter(p, RowFilter{List: a.List, OnlyWhen: a.OnlyWhen, AlwaysWhen: a.AlwaysWhen})
		if a.ToHit != nil {
			c.sheet.ValueRef(a.ToHit, strictjson.Join(p, "toHit"))
		}
		if a.SaveDifficulty != nil {
			c.sheet.ValueRef(a.SaveDifficulty, strictjson.Join(p, "saveDifficulty"))
		}
	}
}

// rowFilter checks a list whose catalog-marked rows a fight reads, and the two columns
// that filter them.
func (c *checker) rowFilter(path string, f RowFilter) {
	l := f.List
	if !c.Known(strictjson.Join(path, "list"), "list", l, c.sheet.Declares(List, l)) {
		return
	}
	if f.OnlyWhen != "" {
		c.sheet.Column(strictjson.Join(path, "onlyWhen"), l, f.OnlyWhen, "boolean")
	}
	aw := f.AlwaysWhen
	if aw == nil {
		return
	}
	ap := strictjson.Join(path, "alwaysWhen")
	if f.OnlyWhen == "" {
		c.Add(ap, "alwaysWhen is the exception to onlyWhen, so it needs onlyWhen beside it")
	}
	col, found := c.sheet.Column(strictjson.Join(ap, "column"), l, aw.Column, "")
	switch v := aw.Equals.(type) {
	case string:
		c.MaxLen(strictjson.Join(ap, "equals"), v, 4000)
	case float64, bool:
	default:
		c.Add(strictjson.Join(ap, "equals"), "expected a string, number or boolean")
		return
	}
	if found {
		if msg := col.Refuses(aw.Equals); msg != "" {
			c.Add(strictjson.Join(ap, "equals"), "column %q %s", aw.Column, msg)
		}
	}
}

func (c *checker) checkStandard(cb *Combat, at func(...any) string) {
	c.Count(at("standard"), len(cb.Standard), 0, 6)
	seen := map[string]bool{}
	for i, s := range cb.Standard {
		p := at("standard", i)
		c.OneOf(p, s, StandardActions...)
		if seen[s] {
			c.Add(p, "standard action %q is listed twice", s)
		}
		seen[s] = true
	}
	se := cb.StandardEffects
	if se == nil || se.Dodge == nil {
		return
	}
	dp := at("standardEffects", "dodge")
	if !seen["dodge"] {
		c.Add(dp, "this ruleset's standard actions have no dodge for these saves to belong to")
	}
	sp := strictjson.Join(dp, "saves")
	c.Count(sp, len(se.Dodge.Saves), 1, 12)
	for i, s := range se.Dodge.Saves {
		c.Known(strictjson.Join(sp, i), "save", s, c.sheet.Declares(Save, s))
	}
}
