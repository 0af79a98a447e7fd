package fight

import (
	"fmt"
	"sheetkeeper/ruleset/rules"
	"slices"

	"sheetkeeper/strictjson"
)

func (c *checker) checkConditions(cb *Combat, path string) {
	c.Count(path, len(cb.Conditions), 0, 80)
	seen := map[string]bool{}
	for i := range cb.Conditions {
		e := &cb.Conditions[i]
		p := strictjson.Join(path, i)
		cp := strictjson.Join(p, "condition")
		if c.knownCondition(cp, e.Condition) && seen[e.Condition] {
			c.Add(cp, "condition %q is mapped twice", e.Condition)
		}
		seen[e.Condition] = true
		c.effects(p, e.vocab(), cb.Pooled(), false)
		if e.EndsWhenSourceDown {
			c.UsesOnce("conditions that end when their source goes down", 29, strictjson.Join(p, "endsWhenSourceDown"))
		}
		wp := strictjson.Join(p, "whileSourceInSight")
		switch v := e.WhileSourceInSight.(type) {
		case nil:
		case bool:
			c.UsesOnce("conditions that hold while their source is in sight", 29, wp)
			if !v {
				c.Add(wp, "whileSourceInSight is true or a list of the condition's own effects")
			}
		case []any:
			c.UsesOnce("conditions that hold while their source is in sight", 29, wp)
			c.Count(wp, len(v), 1, 12)
			for j, x := range v {
				ep := strictjson.Join(wp, j)
				s, ok := x.(string)
				if !ok {
					c.Add(ep, "expected a string")
					continue
				}
				if c.OneOf(ep, s, conditionEffects...) && !slices.Contains(e.Effects, s) {
					c.Add(ep, "this condition does not have the effect %q to hold back", s)
				}
			}
		default:
			c.Add(wp, "whileSourceInSight is true or a list of the condition's own effects")
		}
	}
}

func (c *checker) checkLevels(cb *Combat, path string) {
	c.Count(path, len(cb.Levels), 0, 20)
	if len(cb.Levels) > 0 {
		c.UsesOnce("combat levels", 45, path)
	}
	seen := map[string]bool{}
	for i := range cb.Levels {
		e := &cb.Levels[i]
		p := strictjson.Join(path, i)
		c.Between(strictjson.Join(p, "at"), float64(e.At), 1, 1000)
		if (e.Track == "") == (e.Derived == "") {
			c.Add(strictjson.Join(p, "track"), "a level reads a live track or a derived value: exactly one of the two")
		}
		read := e.Track
		if e.Derived != "" {
			read = e.Derived
			c.UsesOnce("a level that reads a derived value", 54, strictjson.Join(p, "derived"))
			c.Known(strictjson.Join(p, "derived"), "derived value", e.Derived, c.sheet.Declares(Derived, e.Derived))
		} else if e.Track != "" {
			tp := strictjson.Join(p, "track")
			if t, ok := c.sheet.Track(e.Track); c.Known(tp, "live track", e.Track, ok) {
				if t.Wound {
					c.Add(tp, "track %q is a wound track; a level reads a plain track's number", e.Track)
				} else if t.Max != nil && e.At > *t.Max {
					c.Add(strictjson.Join(p, "at"), "track %q goes up to %d, so level %d is never reached", e.Track, *t.Max, e.At)
				}
			}
		}
		key := fmt.Sprintf("track:%s@%d", read, e.At)
		if e.Derived != "" {
			key = "derived:" + key
		}
		if read != "" && seen[key] {
			c.Add(strictjson.Join(p, "at"), "level %d of %q is given twice", e.At, read)
		}
		seen[key] = true
		for j, eff := range e.Effects {
			if slices.Contains(levelRefused, eff) {
				c.Add(strictjson.Join(strictjson.Join(p, "effects"), j), "a level cannot have %q: nobody put it on, and it ends only when what it reads goes down", eff)
			}
		}
		if len(e.Effects) == 0 && e.Modifiers == nil && e.FailsSaves == nil {
			c.Add(strictjson.Join(p, "effects"), "a level does something: effects, modifiers or saves it fails")
		}
		c.effects(p, e.vocab(), cb.Pooled(), false)
	}
}

// effects checks the condition vocabulary wherever it is spoken (a combat condition, a
// level, an item's worn or carried effect): known effects, well-formed modifiers, known
// saves and skills, and scoping keys that have something to scope. A dice-pool fight
// takes a flat number of dice, never rolled dice; items pass pooled=false and check that
// themselves where it applies.
func (c *checker) effects(path string, e *Effects, pooled, item bool) {
	ep := strictjson.Join(path, "effects")
	c.Count(ep, len(e.Effects), 0, 12)
	for i, eff := range e.Effects {
		p := strictjson.Join(ep, i)
		if !c.OneOf(p, eff, conditionEffects...) {
			continue
		}
		switch {
		case item:
		case slices.Contains(effectsSince1_45, eff):
			c.UsesOnce("check effects", 45, p)
		case slices.Contains(effectsSince1_29, eff):
			c.UsesOnce("the 1.29 condition effects", 29, p)
		}
	}
	if e.Modifiers != nil {
		mp := strictjson.Join(path, "modifiers")
		c.Count(mp, len(e.Modifiers), 1, 6)
		if !item {
			c.UsesOnce("condition modifiers", 45, mp)
		}
		for i := range e.Modifiers {
			c.modifier(strictjson.Join(mp, i), &e.Modifiers[i], pooled)
		}
	}
	c.IDList(strictjson.Join(path, "failsSaves"), e.FailsSaves, 12, "save", func(id string) bool { return c.sheet.Declares(Save, id) })
	c.IDList(strictjson.Join(path, "saves"), e.Saves, 12, "save", func(id string) bool { return c.sheet.Declares(Save, id) })
	c.IDList(strictjson.Join(path, "skills"), e.Skills, 24, "skill", func(id string) bool { return c.sheet.Declares(Skill, id) })
	if e.Saves != nil {
		if !item {
			c.UsesOnce("conditions narrowed to saves", 29, strictjson.Join(path, "saves"))
		}
		if !e.hasScoped(saveScoped, "saves") {
			c.Add(strictjson.Join(path, "saves"), "saves narrows own-saves-advantage, own-saves-disadvantage and modifiers to saves, and none of them is here")
		}
	}
	if e.Skills != nil {
		if !item {
			c.UsesOnce("conditions narrowed to skills", 53, strictjson.Join(path, "skills"))
		}
		if !e.hasScoped(checkScoped, "checks") {
			c.Add(strictjson.Join(path, "skills"), "skills narrows own-checks-advantage, own-checks-disadvantage and modifiers to checks, and none of them is here")
		}
	}
}

// hasScoped reports whether e has one of the scoped effects or a modifier to target.
func (e *Effects) hasScoped(scoped []string, target string) bool {
	for _, eff := range e.Effects {
		if slices.Contains(scoped, eff) {
			return true
		}
	}
	for _, m := range e.Modifiers {
		if m.To == target {
			return true
		}
	}
	return false
}

// modifier checks one number a condition changes.
func (c *checker) modifier(path string, m *Modifier, pooled bool) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.OneOf(at("to"), m.To, modifierTargets...)
	if m.Flat == nil && m.Dice == "" && m.Times == nil && m.Mode == "" {
		c.Add(at("to"), "a modifier changes its number by flat, by dice, for speed by times, or for checks and saves by mode")
	}
	if m.Flat != nil {
		if *m.Flat == 0 {
			c.Add(at("flat"), "a flat change of 0 changes nothing")
		} else {
			c.Between(at("flat"), float64(*m.Flat), -100, 100)
		}
	}
	if m.Dice != "" {
		c.Dice(at("dice"), m.Dice)
		if !slices.Contains(rolledModTargets, m.To) {
			c.Add(at("dice"), "dice are rolled, so they change only attacks, saves or checks")
		}
		if pooled {
			c.Add(at("dice"), `a "dice-pool" fight adds dice to a pool, so a modifier gives a flat number of dice`)
		}
	}
	if m.Minus != nil && (!*m.Minus || m.Dice == "") {
		c.Add(at("minus"), "minus is true and takes dice away, so it needs dice beside it")
	}
	if m.Times != nil {
		if *m.Times != 0.5 && *m.Times != 2 {
			c.Add(at("times"), "times is 0.5 or 2")
		}
		if m.To != "speed" {
			c.Add(at("times"), "times changes speed only")
		}
	}
	if m.Skills != nil {
		c.UsesOnce("modifiers narrowed to skills", 53, at("skills"))
		c.IDList(at("skills"), m.Skills, 24, "skill", func(id string) bool { return c.sheet.Declares(Skill, id) })
		if m.To != "checks" {
			c.Add(at("skills"), "skills narrows a change to checks")
		}
	}
	if m.Saves != nil {
		c.UsesOnce("modifiers narrowed to saves", 53, at("saves"))
		c.IDList(at("saves"), m.Saves, 12, "save", func(id string) bool { return c.sheet.Declares(Save, id) })
		if m.To != "saves" {
			c.Add(at("saves"), "saves narrows a change to saves")
		}
	}
	if m.Mode != "" {
		c.UsesOnce("modifier modes", 53, at("mode"))
		c.OneOf(at("mode"), m.Mode, "advantage", "disadvantage")
		if m.To != "checks" && m.To != "saves" {
			c.Add(at("mode"), "mode rolls checks or saves twice, so it changes nothing else")
		}
	}
}

// knownCondition checks that id names one of the sheet's live conditions.
func (c *checker) knownCondition(path, id string) bool {
	return c.Known(path, "condition", id, c.sheet.Declares(Condition, id))
}

func (c *checker) checkContests(cb *Combat, at func(...any) string) {
	cp := at("checks")
	c.Count(cp, len(cb.Checks), 0, 12)
	if len(cb.Checks)+len(cb.Contests) > 0 {
		c.UsesOnce("contests", 43, at())
	}
	c.Unique(cp, "contest check", len(cb.Checks), func(i int) string { return cb.Checks[i].ID })
	checks := map[string]bool{}
	for i, ch := range cb.Checks {
		p := strictjson.Join(cp, i)
		c.SheetID(strictjson.Join(p, "id"), ch.ID)
		c.Label(strictjson.Join(p, "label"), ch.Label)
		c.sheet.ValueRef(&cb.Checks[i].Value, strictjson.Join(p, "value"))
		checks[ch.ID] = true
	}
	kp := at("contests")
	c.Count(kp, len(cb.Contests), 0, 12)
	c.Unique(kp, "contest", len(cb.Contests), func(i int) string { return cb.Contests[i].ID })
	for i := range cb.Contests {
		k := &cb.Contests[i]
		p := strictjson.Join(kp, i)
		pk := func(keys ...any) string { return rules.PathOf(p, keys...) }
		c.SheetID(pk("id"), k.ID)
		c.Label(pk("label"), k.Label)
		c.economyBudget(pk("budget"), k.Budget)
		if k.Strike != nil && !*k.Strike {
			c.Add(pk("strike"), "strike is true or left out")
		}
		if k.Reach != nil {
			if *k.Reach <= 0 || *k.Reach > MaxDistance {
				c.Add(pk("reach"), "%s is out of range: above 0 and at most %s", rules.Num(*k.Reach), rules.Num(MaxDistance))
			}
			if cb.Distance == nil {
				c.Add(pk("reach"), "reach is measured in cells, so the combat block needs distance too")
			}
		}
		for _, side := range []struct {
			key string
			s   ContestSide
		}{{"attacker", k.Attacker}, {"defender", k.Defender}} {
			sp := pk(side.key, "checks")
			c.Count(sp, len(side.s.Checks), 1, 4)
			seen := map[string]bool{}
			for j, id := range side.s.Checks {
				cp := strictjson.Join(sp, j)
				if c.Known(cp, "contest check", id, checks[id]) && seen[id] {
					c.Add(cp, "check %q is listed twice", id)
				}
				seen[id] = true
			}
		}
		if k.Ties != "" {
			c.OneOf(pk("ties"), k.Ties, "defender", "attacker")
		}
		if k.From != nil {
			c.knownCondition(pk("from", "holding"), k.From.Holding)
		}
		c.contestWin(cb, k, pk)
	}
}

// contestWin checks what winning contest k does: applies or ends conditions, or pushes
// the loser, each well-formed; pk makes a path inside the contest.
func (c *checker) contestWin(cb *Combat, k *Contest, pk func(...any) string) {
	w := &k.OnWin
	if w.Applies == nil && w.Ends == nil && w.Push == nil {
		c.Add(pk("onWin"), "winning a contest applies, ends or pushes something")
	}
	if w.Applies != nil {
		c.Count(pk("onWin", "applies"), len(w.Applies), 1, 4)
	}
	for j, a := range w.Applies {
		ap := pk("onWin", "applies", j)
		if c.knownCondition(strictjson.Join(ap, "condition"), a.Condition) && k.From != nil && a.Condition == k.From.Holding {
			c.Add(strictjson.Join(ap, "condition"), "a contest that breaks free of %q cannot also apply it", a.Condition)
		}
		if a.Rounds != nil {
			c.Between(strictjson.Join(ap, "rounds"), float64(*a.Rounds), 1, 100)
		}
	}
	if w.Ends != nil {
		c.Count(pk("onWin", "ends"), len(w.Ends), 1, 4)
	}
	for j, e := range w.Ends {
		ep := pk("onWin", "ends", j)
		c.knownCondition(strictjson.Join(ep, "condition"), e.Condition)
		c.OneOf(strictjson.Join(ep, "on"), e.On, "actor", "target")
	}
	if w.Push != nil {
		if *w.Push <= 0 || *w.Push > MaxDistance {
			c.Add(pk("onWin", "push"), "%s is out of range: above 0 and at most %s", rules.Num(*w.Push), rules.Num(MaxDistance))
		}
		if cb.Distance == nil {
			c.Add(pk("onWin", "push"), "push is measured in cells, so the combat block needs distance too")
		}
	}
}

func (c *checker) checkConcentration(k *Concentration, path string) {
	if k == nil {
		return
	}
	tp := strictjson.Join(path, "text")
	c.Known(tp, "live text", k.Text, c.sheet.Declares(LiveText, k.Text))
	c.Known(strictjson.Join(path, "save"), "save", k.Save, c.sheet.Declares(Save, k.Save))
	c.Between(strictjson.Join(path, "floor"), float64(k.Floor), 0, 100)
	if k.FromDamage <= 0 || k.FromDamage > 1 {
		c.Add(strictjson.Join(path, "fromDamage"), "%s is out of range: above 0 and at most 1", rules.Num(k.FromDamage))
	}
}

func (c *checker) checkDying(d *Dying, path string) {
	if d == nil {
		return
	}
	at := func(k string) string { return strictjson.Join(path, k) }
	c.OneOf(at("kind"), d.Kind, "saves")
	for _, k := range []struct{ key, id string }{{"successes", d.Successes}, {"failures", d.Failures}} {
		t, ok := c.sheet.Track(k.id)
		if !c.Known(at(k.key), "live track", k.id, ok) {
			continue
		}
		switch {
		case t.Wound:
			c.Add(at(k.key), "track %q is a wound track, not a counter of death saves", k.id)
		case t.Max == nil:
			c.Add(at(k.key), "track %q counts death saves, so its max is a number, not a value the sheet works out", k.id)
		case *t.Max <= t.Min || *t.Max < 1:
			c.Add(at(k.key), "track %q counts death saves, so its max is at least 1 and above its min", k.id)
		}
		if !t.Wound && t.Hidden {
			c.Add(at(k.key), "track %q counts death saves, so it cannot be hidden", k.id)
		}
	}
	if d.Successes != "" && d.Successes == d.Failures {
		c.Add(at("failures"), "successes and failures are counted on two different tracks")
	}
	d.Dice.Check(c.Report, at("dice"))
	c.Between(at("succeedAt"), float64(d.SucceedAt), 1, 1000)
	if n := d.Naturals; n != nil {
		np := at("naturals")
		if n.Max != "" {
			c.OneOf(strictjson.Join(np, "max"), n.Max, "revive-1", "success", "none")
		}
		if n.Min != "" {
			c.OneOf(strictjson.Join(np, "min"), n.Min, "two-failures", "one-failure", "none")
		}
		if d.Dice.Count != 1 && (n.Max != "" && n.Max != "none" || n.Min != "" && n.Min != "none") {
			c.Add(np, "natural results need a single die; with several dice use none")
		}
	}
	if d.DamageWhileDown != "" {
		c.OneOf(at("damageWhileDown"), d.DamageWhileDown, dyingWhileDown...)
	}
	if d.CriticalWhileDown != "" {
		c.OneOf(at("criticalWhileDown"), d.CriticalWhileDown, dyingWhileDown...)
	}
	if d.Condition != "" {
		c.knownCondition(at("condition"), d.Condition)
	}
}

func (c *checker) checkDamageTypes(cb *Combat, healthTrack string, at func(...any) string) {
	tp := at("damageTypes")
	c.Count(tp, len(cb.DamageTypes), 0, 40)
	declared := map[string]bool{}
	for i, t := range cb.DamageTypes {
		p := strictjson.Join(tp, i)
		c.PromptText(p, t, 40)
		key := DamageTypeKey(t)
		if declared[key] {
			c.Add(p, "damage type %q is listed twice", t)
		}
		declared[key] = true
	}
	dk := cb.DamageKinds
	kp := at("damageKinds")
	if dk != nil {
		c.UsesOnce("combat damage kinds", 30, kp)
		c.OneOf(strictjson.Join(kp, "marks"), dk.Marks, "per-blow", "per-point")
	}
	switch {
	case healthTrack != "":
		if dk == nil {
			c.Add(kp, "health is the wound track %q, so damageKinds must say what kind of harm damage marks", healthTrack)
			return
		}
		kinds := cb.HealthKinds(c.sheet)
		if c.SheetID(strictjson.Join(kp, "default"), dk.Default) && !kinds[dk.Default] {
			c.Add(strictjson.Join(kp, "default"), "%q is not a kind of %q", dk.Default, healthTrack)
		}
		mapped := map[string]bool{}
		for _, t := range rules.SortedKeys(dk.ByType) {
			p := strictjson.Join(strictjson.Join(kp, "byType"), t)
			key := DamageTypeKey(t)
			if mapped[key] {
				c.Add(p, "damage type %q is mapped twice (types match without case)", t)
			}
			mapped[key] = true
			if cb.DamageTypes != nil && !declared[key] {
				c.Add(p, "unknown damage type %q", t)
			}
			if k := dk.ByType[t]; c.SheetID(p, k) && !kinds[k] {
				c.Add(p, "%q is not a kind of %q", k, healthTrack)
			}
		}
	case cb.Health.Pool != "" && dk != nil:
		c.Add(kp, "damageKinds maps damage onto a wound track's kinds, and health is a pool; point health at a wound track if the kind of a wound matters")
	}
}

func (c *checker) checkThreat(t *Threat, path string) {
	if t == nil {
		return
	}
	tp := strictjson.Join(path, "tiers")
	c.Count(tp, len(t.Tiers), 1, 40)
	c.Unique(tp, "threat tier", len(t.Tiers), func(i int) string { return t.Tiers[i].ID })
	for i, tier := range t.Tiers {
		p := strictjson.Join(tp, i)
		at := func(k string) string { return strictjson.Join(p, k) }
		c.SheetID(at("id"), tier.ID)
		c.Label(at("label"), tier.Label)
		for _, band := range []struct {
			key    string
			v      [2]int
			lo, hi float64
		}{{"health", tier.Health, 1, 100000}, {"damagePerRound", tier.DamagePerRound, 0, 10000}} {
			c.Between(fmt.Sprintf("%s[0]", at(band.key)), float64(band.v[0]), band.lo, band.hi)
			c.Between(fmt.Sprintf("%s[1]", at(band.key)), float64(band.v[1]), band.lo, band.hi)
			if band.v[0] > band.v[1] {
				c.Add(fmt.Sprintf("%s[0]", at(band.key)), "the lowest is above the highest")
			}
		}
		c.Between(at("defense"), float64(tier.Defense), 0, 100)
		c.Between(at("toHit"), float64(tier.ToHit), -20, 50)
		c.Between(at("saveDifficulty"), float64(tier.SaveDifficulty), 0, 100)
	}
}

func (c *checker) checkSpendLimits(ls []SpendLimit, path string) {
	if ls == nil {
		return
	}
	c.UsesOnce("spend limits", 47, path)
	c.Count(path, len(ls), 1, 12)
	seen := map[string]bool{}
	for i := range ls {
		l := &ls[i]
		p := strictjson.Join(path, i)
		pp := strictjson.Join(p, "pool")
		if c.declaredPool(pp, l.Pool) && seen[l.Pool] {
			c.Add(pp, "pool %q is limited twice", l.Pool)
		}
		seen[l.Pool] = true
		c.sheet.ValueRef(&l.Max, strictjson.Join(p, "max"))
		c.OneOf(strictjson.Join(p, "per"), l.Per, "turn", "round")
	}
}

// declaredPool checks that id names a declared live pool (not a list whose rows are
// pools): health, energy, slots and spend limits are declared pools only.
func (c *checker) declaredPool(path, id string) bool {
	if !c.SheetID(path, id) {
		return false
	}
	if _, ok := c.sheet.Pool(id); ok {
		return true
	}
	if c.sheet.Declares(PoolList, id) {
		c.Add(path, "%q is a list whose rows are pools, not a live pool", id)
	} else {
		c.Add(path, "unknown live pool %q", id)
	}
	return false
}

// fightHealth checks a health block shared by battle and combat: one declared pool that
// starts full, or one wound track. It returns the wound track's id when it names one.
func (c *checker) fightHealth(path string, h Health) string {
	if (h.Pool == "") == (h.Track == "") {
		c.Add(path, "health names exactly one of: pool, track")
		return ""
	}
	if h.Track != "" {
		tp := strictjson.Join(path, "track")
		t, ok := c.sheet.Track(h.Track)
		if !c.Known(tp, "live track", h.Track, ok) {
			return ""
		}
		if !t.Wound {
			c.Add(tp, "track %q has no levels or boxes, so a fight has nothing to mark on it", h.Track)
			return ""
		}
		return h.Track
	}
	pp := strictjson.Join(path, "pool")
	if c.declaredPool(pp, h.Pool) && !poolStartsFull(c.sheet, h.Pool) {
		c.Add(pp, "pool %q starts empty, so it cannot be the health pool", h.Pool)
	}
	return ""
}

// poolStartsFull reports whether declared pool id starts full.
func poolStartsFull(s Sheet, id string) bool {
	full, _ := s.Pool(id)
	return full
}
