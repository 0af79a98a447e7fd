package ruleset

import (
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/ruleset/rules"
	"strconv"
	"strings"

	"sheetkeeper/strictjson"
)

// Mechanics says in numbers what an entry does, in a closed vocabulary: the engine pays
// its cost and adds targets per cost step on `use`; the rest is validated and shown, and
// read by fights. A typo is refused now rather than ignored later.
type Mechanics struct {
	// Kind is "attack", "heal", "buff", "debuff", "utility" or "rider".
	Kind string `json:"kind"`
	// Range is in the catalog's own distance unit; 0 is self or touch.
	Range        *float64       `json:"range,omitempty"`
	Area         *Area          `json:"area,omitempty"`
	Targets      *string        `json:"targets,omitempty"`
	FriendlyFire *bool          `json:"friendlyFire,omitempty"`
	Amount       *Amount        `json:"amount,omitempty"`
	DamageType   *string        `json:"damageType,omitempty"`
	Plus         []DamageClause `json:"plus,omitempty"`
	AttackRoll   *bool          `json:"attackRoll,omitempty"`
	Save         *MechanicsSave `json:"save,omitempty"`
	Cost         []CostTerm     `json:"cost,omitempty"`
	PerCostStep  *Amount        `json:"perCostStep,omitempty"`
	// TargetsPerCostStep adds this many targets for each level a cost is paid above its
	// own (the seed, Capability API 1.171); the total stays at most 20.
	TargetsPerCostStep *int               `json:"targetsPerCostStep,omitempty"`
	Check              *CheckEffect       `json:"check,omitempty"`
	Concentration      *bool              `json:"concentration,omitempty"`
	RawReaction        strictjson.Raw     `json:"reaction,omitempty"`
	TargetCount        *int               `json:"targetCount,omitempty"`
	AutoHit            *bool              `json:"autoHit,omitempty"`
	Applies            []AppliedCondition `json:"applies,omitempty"`
	Temporary          *Amount            `json:"temporary,omitempty"`
	Scales             *Scales            `json:"scales,omitempty"`
	Budget             *string            `json:"budget,omitempty"`
	Free               *bool              `json:"free,omitempty"`
	Gives              []BudgetGift       `json:"gives,omitempty"`
	Standard           *StandardGrant     `json:"standard,omitempty"`
	Rider              *EntryRider        `json:"rider,omitempty"`

	// Reaction is the decoded reaction: Reacts is true for `true` or a moment; Moment
	// names the moment the entry waits for.
	Reacts bool            `json:"-"`
	Moment *ReactionMoment `json:"-"`
}

// Area is the shape an effect lands in, sized in the catalog's distance unit.
type Area struct {
	Shape string  `json:"shape"`
	Size  float64 `json:"size"`
}

// Amount is dice (`2d6`, `1d8+3`), a flat number, or both.
type Amount struct {
	Dice *string `json:"dice,omitempty"`
	Flat *int    `json:"flat,omitempty"`
}

// DamageClause is one more amount on the same blow, rolled and typed on its own, which
// the target may save against.
type DamageClause struct {
	Dice *string     `json:"dice,omitempty"`
	Flat *int        `json:"flat,omitempty"`
	Type *string     `json:"type,omitempty"`
	Save *ClauseSave `json:"save,omitempty"`
}

// ClauseSave is the save one clause asks the target for: "none" or "half" of it on a
// success, against Difficulty or the action's own number.
type ClauseSave struct {
	Save       string `json:"save"`
	Difficulty *int   `json:"difficulty,omitempty"`
	OnSuccess  string `json:"onSuccess"`
}

// MechanicsSave is the save an entry asks its targets for.
type MechanicsSave struct {
	Save      string `json:"save"`
	OnSuccess string `json:"onSuccess"`
}

// CostTerm is what using an entry spends: Amount from a live pool, or from the first pool
// of a pool group that can afford it.
type CostTerm struct {
	Pool   string `json:"pool"`
	Amount int    `json:"amount"`
}

// CheckEffect is what using an entry does to a check (pool rulesets only): a re-throw,
// dice, successes, or a moved target, explode or double face.
type CheckEffect struct {
	Reroll    *Reroll `json:"reroll,omitempty"`
	Dice      *int    `json:"dice,omitempty"`
	Successes *int    `json:"successes,omitempty"`
	Threshold *int    `json:"threshold,omitempty"`
	Explode   *int    `json:"explode,omitempty"`
	Double    *int    `json:"double,omitempty"`
}

// ReactionMoment is the moment a reaction waits for: On "aimed", "hit", "harmed" or
// "used"; At "source" (default) or "chosen"; Cancels only before something resolves;
// Against narrows it to actions from entries of some catalogs.
type ReactionMoment struct {
	On      string           `json:"on"`
	At      string           `json:"at,omitempty"`
	Cancels *bool            `json:"cancels,omitempty"`
	Against *ReactionAgainst `json:"against,omitempty"`
}

// ReactionAgainst names the catalogs whose entries open a reaction's moment.
type ReactionAgainst struct {
	Catalogs []string `json:"catalogs"`
}

// AppliedCondition is a sheet condition a use puts on what it affects, and how long it
// lasts: Duration is "instant", "until-save" or {rounds, at}.
type AppliedCondition struct {
	Condition   string         `json:"condition"`
	RawDuration strictjson.Raw `json:"duration"`
	SaveEnds    *SaveEnds      `json:"saveEnds,omitempty"`
	EndsAfter   *string        `json:"endsAfter,omitempty"`

	// Duration is the decoded word ("instant", "until-save"), or "" with Rounds set.
	Duration string          `json:"-"`
	Rounds   *DurationRounds `json:"-"`
}

// DurationRounds is a condition lasting a number of its holder's turns, counted as each
// ends, or as each begins with At "turn-start".
type DurationRounds struct {
	Rounds int    `json:"rounds"`
	At     string `json:"at,omitempty"`
}

// SaveEnds is the save that takes a condition off, rolled at the end or start of the
// holder's turn.
type SaveEnds struct {
	Save string `json:"save"`
	At   string `json:"at"`
}

// Scales gives the extra dice at each step of a value the sheet works out.
type Scales struct {
	From  ValueRef  `json:"from"`
	Table StepTable `json:"table"`
}

// BudgetGift is a budget a use hands its user for this turn only.
type BudgetGift struct {
	Budget string `json:"budget"`
	Count  int    `json:"count"`
}

// StandardGrant lets its holder take some standard actions for another budget.
type StandardGrant struct {
	Actions []string `json:"actions"`
	Budget  string   `json:"budget"`
}

// EntryRider is a passive extra clause on the first qualifying hit of each turn or round.
type EntryRider struct {
	On       string         `json:"on"`
	When     []string       `json:"when,omitempty"`
	OncePer  string         `json:"oncePer"`
	Amount   Amount         `json:"amount"`
	Type     *string        `json:"type,omitempty"`
	Sources  []string       `json:"sources,omitempty"`
	Requires *RiderRequires `json:"requires,omitempty"`
}

// RiderRequires is the truthy column an attack row needs for the rider to fire.
type RiderRequires struct {
	Column string `json:"column"`
}

// Vocabulary and bounds of mechanics.
var (
	mechanicsKinds = []string{"attack", "heal", "buff", "debuff", "utility", "rider"}
	// riderForbids are the keys a passive rider entry cannot carry: nothing takes it.
	riderForbids = []string{"range", "area", "targets", "friendlyFire", "amount", "damageType", "plus",
		"attackRoll", "save", "cost", "perCostStep", "concentration", "reaction", "targetCount", "autoHit",
		"applies", "temporary", "budget", "free", "gives", "standard"}
)

const (
	maxClauses     = 3
	maxCostTerms   = 4
	maxApplies     = 4
	maxTargetCount = 20
	maxTypeText    = 40
)

// present lists which of the mechanics' optional keys are set, by JSON name.
func (m *Mechanics) present() map[string]bool {
	return map[string]bool{
		"range": m.Range != nil, "area": m.Area != nil, "targets": m.Targets != nil,
		"friendlyFire": m.FriendlyFire != nil, "amount": m.Amount != nil, "damageType": m.DamageType != nil,
		"plus": m.Plus != nil, "attackRoll": m.AttackRoll != nil, "save": m.Save != nil, "cost": m.Cost != nil,
		"perCostStep": m.PerCostStep != nil, "concentration": m.Concentration != nil,
		"reaction": m.RawReaction != nil, "targetCount": m.TargetCount != nil, "autoHit": m.AutoHit != nil,
		"applies": m.Applies != nil, "temporary": m.Temporary != nil, "budget": m.Budget != nil,
		"free": m.Free != nil, "gives": m.Gives != nil, "standard": m.Standard != nil,
	}
}

// checkMechanics checks an entry's mechanics: their own shape, then every name they use
// against the sheet, the resolution and the combat block.
func (c *checker) checkMechanics(e *Entry, path string, ctx *entryContext) {
	m := e.Mechanics
	at := func(k string) string { return strictjson.Join(path, k) }
	c.checkUse(path, useShape{kind: m.Kind, kinds: mechanicsKinds, rng: m.Range, area: m.Area, targets: m.Targets,
		amount: m.Amount, temporary: m.Temporary, damageType: m.DamageType, plus: m.Plus, save: m.Save,
		targetCount: m.TargetCount, applies: m.Applies}, ctx)
	c.amount(at("perCostStep"), m.PerCostStep, false, ctx)
	c.costs(at("cost"), m.Cost)
	if m.TargetsPerCostStep != nil {
		c.UsesOnce("targetsPerCostStep", 171, at("targetsPerCostStep"))
		c.Between(at("targetsPerCostStep"), float64(*m.TargetsPerCostStep), 1, 10)
	}
	c.checkEffect(at("check"), m.Check)
	c.reaction(at("reaction"), m, ctx)
	if m.Scales != nil {
		c.valueRef(&m.Scales.From, at("scales.from"), scaledRefRules)
		c.StepTable(at("scales.table"), m.Scales.Table, maxStepTable)
	}
	c.budgets(path, m, ctx)
	c.rider(path, m, ctx)
	c.poolDice(path, m, ctx)
	c.temporaryHealth(at("temporary"), m.Temporary, ctx)
	c.saveDifficultySource(e, path, ctx)
}

// useShape is what an entry's mechanics and an item's use both say, in the same words
// and under the same rules: what the use is, where it lands, what it deals, the save it
// asks for and what it puts on its targets.
type useShape struct {
	kind        string
	kinds       []string
	rng         *float64
	area        *Area
	targets     *string
	amount      *Amount
	temporary   *Amount
	damageType  *string
	plus        []DamageClause
	save        *MechanicsSave
	targetCount *int
	applies     []AppliedCondition
}

// checkUse checks the words a use shares with every other kind of use, at path.
func (c *checker) checkUse(path string, u useShape, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.OneOf(at("kind"), u.kind, u.kinds...)
	if u.rng != nil && *u.rng < 0 {
		c.Add(at("range"), "must not be negative")
	}
	if u.area != nil {
		c.OneOf(at("area.shape"), u.area.Shape, "burst", "cone", "line")
		if u.area.Size <= 0 {
			c.Add(at("area.size"), "must be above 0")
		}
	}
	if u.targets != nil {
		c.OneOf(at("targets"), *u.targets, "self", "ally", "enemy", "any")
	}
	c.amount(at("amount"), u.amount, false, ctx)
	c.amount(at("temporary"), u.temporary, false, ctx)
	if u.damageType != nil {
		c.damageType(at("damageType"), *u.damageType, ctx)
	}
	c.clauses(at("plus"), u.plus, ctx)
	if u.plus != nil && u.amount == nil {
		c.Add(at("plus"), "a clause needs an amount beside it")
	}
	if u.plus != nil && u.kind == "heal" {
		c.Add(at("plus"), "a heal carries no damage clauses")
	}
	if u.save != nil {
		c.knownSave(at("save.save"), u.save.Save)
		c.OneOf(at("save.onSuccess"), u.save.OnSuccess, "none", "half", "negates")
	}
	if u.targetCount != nil {
		c.Between(at("targetCount"), float64(*u.targetCount), 1, maxTargetCount)
	}
	c.appliedConditions(at("applies"), u.applies)
}

// temporaryHealth refuses temporary points where health is a wound track.
func (c *checker) temporaryHealth(path string, temporary *Amount, ctx *entryContext) {
	if temporary != nil && ctx.woundHealth != "" {
		c.Add(path, "health is the wound track %q, which holds no temporary points", ctx.woundHealth)
	}
}

// amount checks dice and a flat number; need says one of the two must be there.
func (c *checker) amount(path string, a *Amount, need bool, ctx *entryContext) {
	if a == nil {
		return
	}
	if a.Dice != nil {
		c.Dice(strictjson.Join(path, "dice"), *a.Dice)
	}
	if need && a.Dice == nil && a.Flat == nil {
		c.Add(path, "names dice, a flat amount, or both")
	}
}

// damageType checks a kind of harm: prompt-safe text, and one of the combat block's
// damage types where it declares any (matched without case).
func (c *checker) damageType(path, t string, ctx *entryContext) {
	c.PromptText(path, t, maxTypeText)
	c.knownDamageType(path, t, ctx)
}

// knownDamageType checks a damage type against the combat block's, where it declares any.
func (c *checker) knownDamageType(path, t string, ctx *entryContext) {
	if ctx.damageTypes != nil && !ctx.damageTypes[fight.DamageTypeKey(t)] {
		c.Add(path, "unknown damage type %q", rules.Clip(t))
	}
}

// clauses checks an entry's damage clauses: their shape, then the damage types and
// saves they name.
func (c *checker) clauses(path string, cl []DamageClause, ctx *entryContext) {
	c.clauseShapes(path, cl)
	for i, k := range cl {
		p := strictjson.Join(path, i)
		if k.Type != nil {
			c.knownDamageType(strictjson.Join(p, "type"), *k.Type, ctx)
		}
		if k.Save != nil {
			c.knownSave(strictjson.Join(p, "save.save"), k.Save.Save)
		}
	}
}

// clauseShapes checks damage clauses on their own, before any name in them is resolved:
// how many, dice or a flat amount, prompt-safe types and the save's numbers and words.
func (c *checker) clauseShapes(path string, cl []DamageClause) {
	c.Count(path, len(cl), 0, maxClauses)
	for i, k := range cl {
		p := strictjson.Join(path, i)
		if k.Dice != nil {
			c.Dice(strictjson.Join(p, "dice"), *k.Dice)
		}
		if k.Flat != nil {
			c.Between(strictjson.Join(p, "flat"), float64(*k.Flat), -1000, 10000)
		}
		if k.Dice == nil && k.Flat == nil {
			c.Add(p, "a clause names dice, a flat amount, or both")
		}
		if k.Type != nil {
			c.PromptText(strictjson.Join(p, "type"), *k.Type, maxTypeText)
		}
		if s := k.Save; s != nil {
			if s.Difficulty != nil {
				c.Between(strictjson.Join(p, "save.difficulty"), float64(*s.Difficulty), 0, 1000)
			}
			c.OneOf(strictjson.Join(p, "save.onSuccess"), s.OnSuccess, "none", "half")
		}
	}
}

// knownSave checks a save id the sheet declares.
func (c *checker) knownSave(path, id string) {
	c.Known(path, "save", id, c.names.save(id) != nil)
}

// costs checks cost terms: each names a live pool or a pool group, and costs at least 1.
func (c *checker) costs(path string, terms []CostTerm) {
	c.Count(path, len(terms), 0, maxCostTerms)
	for i, t := range terms {
		p := strictjson.Join(path, i)
		if c.SheetID(strictjson.Join(p, "pool"), t.Pool) && c.names.pool(t.Pool) == nil && !c.names.isGroup(t.Pool) {
			c.Add(strictjson.Join(p, "pool"), "unknown pool or pool group %q", t.Pool)
		}
		if t.Amount < 1 {
			c.Add(strictjson.Join(p, "amount"), "must be at least 1")
		}
	}
}

// checkEffect checks what an entry does to a check: something, within the ranges the
// schema allows, and only in a pool ruleset whose dice can honour it.
func (c *checker) checkEffect(path string, ch *CheckEffect) {
	if ch == nil {
		return
	}
	at := func(k string) string { return strictjson.Join(path, k) }
	if ch.Reroll == nil && ch.Dice == nil && ch.Successes == nil && ch.Threshold == nil && ch.Explode == nil && ch.Double == nil {
		c.Add(path, "a check effect does something, or is left out")
	}
	if ch.Reroll != nil {
		c.Between(at("reroll.upTo"), float64(ch.Reroll.UpTo), 1, 999)
		c.OneOf(at("reroll.mode"), ch.Reroll.Mode, "once", "until")
	}
	for _, v := range []struct {
		key    string
		n      *int
		lo, hi float64
	}{{"dice", ch.Dice, 1, spendEffectMax}, {"successes", ch.Successes, 1, spendEffectMax},
		{"threshold", ch.Threshold, 2, 1000}, {"explode", ch.Explode, 2, 1000}, {"double", ch.Double, 2, 1000}} {
		if v.n != nil {
			c.Between(at(v.key), float64(*v.n), v.lo, v.hi)
		}
	}
	res := &c.rs.Resolution
	if res.Kind != "dice-pool" {
		c.Add(path, "a %s ruleset has no pool for a check effect to change", res.Kind)
		return
	}
	sides := poolSides(res)
	if ch.Reroll != nil && (ch.Reroll.UpTo < 1 || ch.Reroll.UpTo >= sides) {
		c.Add(at("reroll.upTo"), "this ruleset throws d%d, so a re-throw is on a face from 1 to %d", sides, sides-1)
	}
	if t := res.Target; ch.Threshold != nil && t != nil && (*ch.Threshold < t.Min || *ch.Threshold > t.Max) {
		c.Add(at("threshold"), "this ruleset counts successes on %d to %d", t.Min, t.Max)
	}
	for _, f := range []struct {
		key  string
		face *int
		rule *FaceRule
	}{{"explode", ch.Explode, res.Explode}, {"double", ch.Double, res.Double}} {
		switch {
		case f.face == nil:
		case f.rule == nil || f.rule.Min == nil:
			c.Add(at(f.key), "resolution.%s has no min, so no check may move it", f.key)
		case *f.face < *f.rule.Min || *f.face > sides:
			c.Add(at(f.key), "a check may move %s from %d to %d", f.key, *f.rule.Min, sides)
		}
	}
}

// poolSides is the pool die's number of sides, d10 when the file leaves it out.
func poolSides(res *Resolution) int {
	if res.Die == nil {
		return 10
	}
	return res.Die.Sides
}

// reaction decodes the reaction union (false, true, or a moment) and checks a moment.
func (c *checker) reaction(path string, m *Mechanics, ctx *entryContext) {
	m.Reacts, m.Moment = false, nil
	switch rawKind(m.RawReaction) {
	case 0:
		return
	case 'b':
		var b bool
		c.decodeRaw(m.RawReaction, &b, path)
		m.Reacts = b
		return
	case 'o':
	default:
		c.Add(path, "expected true, false or a reaction moment")
		return
	}
	mo := &ReactionMoment{}
	if !c.decodeRaw(m.RawReaction, mo, path) {
		return
	}
	m.Reacts, m.Moment = true, mo
	c.reactionMoment(path, mo, ctx)
}

// reactionMoment checks a moment: closed words, cancels only what has not happened yet,
// and catalogs the ruleset has.
func (c *checker) reactionMoment(path string, mo *ReactionMoment, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.OneOf(at("on"), mo.On, "aimed", "hit", "harmed", "used")
	if mo.At != "" {
		c.OneOf(at("at"), mo.At, "source", "chosen")
	}
	if mo.Cancels != nil {
		if !*mo.Cancels {
			c.Add(at("cancels"), "is true or left out")
		} else if mo.On == "hit" || mo.On == "harmed" {
			c.Add(path, "only an \"aimed\" or \"used\" reaction cancels: what has already happened cannot be called off")
		}
	}
	if mo.Against != nil {
		p := at("against.catalogs")
		c.Count(p, len(mo.Against.Catalogs), 1, maxCatalogs)
		for i, id := range mo.Against.Catalogs {
			c.Known(strictjson.Join(p, i), "catalog", id, ctx.catalogs[id])
		}
	}
}

// appliedConditions checks the conditions a use puts on its targets.
func (c *checker) appliedConditions(path string, as []AppliedCondition) {
	c.Count(path, len(as), 0, maxApplies)
	for i := range as {
		a := &as[i]
		p := strictjson.Join(path, i)
		at := func(k string) string { return strictjson.Join(p, k) }
		c.Known(at("condition"), "condition", a.Condition, c.names.condition(a.Condition) != nil)
		c.duration(at("duration"), a)
		if a.SaveEnds != nil {
			c.knownSave(at("saveEnds.save"), a.SaveEnds.Save)
			c.OneOf(at("saveEnds.at"), a.SaveEnds.At, "turn-end", "turn-start")
		}
		if a.EndsAfter != nil {
			c.OneOf(at("endsAfter"), *a.EndsAfter, "own-attack", "attacked", "own-save")
		}
		if a.Duration == "until-save" && a.SaveEnds == nil {
			c.Add(at("saveEnds"), "\"until-save\" needs the save that ends it")
		}
	}
}

// duration decodes and checks a condition's duration union.
func (c *checker) duration(path string, a *AppliedCondition) {
	a.Duration, a.Rounds = "", nil
	switch rawKind(a.RawDuration) {
	case 's':
		if c.decodeRaw(a.RawDuration, &a.Duration, path) {
			c.OneOf(path, a.Duration, "instant", "until-save")
		}
	case 'o':
		r := &DurationRounds{}
		if c.decodeRaw(a.RawDuration, r, path) {
			a.Rounds = r
			c.Between(strictjson.Join(path, "rounds"), float64(r.Rounds), 1, 1000)
			if r.At != "" {
				c.OneOf(strictjson.Join(path, "at"), r.At, "turn-start")
			}
		}
	default:
		c.Add(path, "expected \"instant\", \"until-save\" or {\"rounds\": n}")
	}
}

// budgets checks the action economy words an entry uses against the combat block: its
// budget, what it gives, the standard actions it grants. Without a combat block they
// are read by nothing and only their shape is checked.
func (c *checker) budgets(path string, m *Mechanics, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	if m.Budget != nil {
		c.budget(at("budget"), *m.Budget, ctx)
	}
	if m.Free != nil {
		if !*m.Free {
			c.Add(at("free"), "is true or left out")
		} else if m.Budget != nil {
			c.Add(at("free"), "something free spends no budget, so it names none")
		}
	}
	if m.Gives != nil {
		c.Count(at("gives"), len(m.Gives), 1, 4)
		for i, g := range m.Gives {
			p := strictjson.Join(at("gives"), i)
			c.budget(strictjson.Join(p, "budget"), g.Budget, ctx)
			c.Between(strictjson.Join(p, "count"), float64(g.Count), 1, 10)
		}
	}
	if s := m.Standard; s != nil {
		p := at("standard")
		c.Count(strictjson.Join(p, "actions"), len(s.Actions), 1, 6)
		for i, a := range s.Actions {
			ap := strictjson.Join(strictjson.Join(p, "actions"), i)
			if c.OneOf(ap, a, fight.StandardActions...) && ctx.budgets != nil && !ctx.standard[a] {
				c.Add(ap, "this ruleset does not have the standard action %q", a)
			}
		}
		c.UniqueStrings(strictjson.Join(p, "actions"), "standard action", s.Actions)
		if c.budget(strictjson.Join(p, "budget"), s.Budget, ctx) && s.Budget == ctx.mainBudget {
			c.Add(strictjson.Join(p, "budget"), "every standard action is already taken for %q, so this grants nothing", s.Budget)
		}
	}
}

// budget checks a budget id against the combat block's, when there is one.
func (c *checker) budget(path, id string, ctx *entryContext) bool {
	if !c.SheetID(path, id) {
		return false
	}
	if ctx.budgets != nil && !ctx.budgets[id] {
		c.Add(path, "unknown budget %q", id)
		return false
	}
	return true
}

// rider checks the rider and the kind that goes with it: a rider entry is passive, so
// it carries nothing that would be taken.
func (c *checker) rider(path string, m *Mechanics, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	if m.Rider != nil && m.Kind != "rider" {
		c.Add(at("kind"), "an entry with a rider is of kind \"rider\"")
	}
	if m.Kind == "rider" {
		if m.Rider == nil {
			c.Add(at("rider"), "a \"rider\" entry says what its rider does")
		}
		set := m.present()
		for _, k := range riderForbids {
			if set[k] {
				c.Add(at(k), "a rider is passive: nobody takes it, so it carries no %s", k)
			}
		}
	}
	r := m.Rider
	if r == nil {
		return
	}
	p := at("rider")
	rat := func(k string) string { return strictjson.Join(p, k) }
	c.OneOf(rat("on"), r.On, "hit")
	if r.When != nil {
		c.Count(rat("when"), len(r.When), 1, 2)
		for i, w := range r.When {
			c.OneOf(strictjson.Join(rat("when"), i), w, "advantage", "ally-adjacent")
		}
	}
	c.OneOf(rat("oncePer"), r.OncePer, "turn", "round")
	c.amount(rat("amount"), &r.Amount, true, ctx)
	if r.Type != nil {
		c.damageType(rat("type"), *r.Type, ctx)
	}
	if r.Sources != nil {
		c.Count(rat("sources"), len(r.Sources), 1, 8)
	}
	for i, l := range r.Sources {
		sp := strictjson.Join(rat("sources"), i)
		if c.SheetID(sp, l) && ctx.hasCombat && !ctx.attackLists[l] {
			c.Add(sp, "%q is not one of this ruleset's attack lists", l)
		}
	}
	if r.Requires != nil && c.SheetID(rat("requires.column"), r.Requires.Column) && ctx.hasCombat {
		lists := r.Sources
		if lists == nil {
			lists = ctx.attackListOrder
		}
		found := false
		for _, id := range lists {
			if l := c.names.list(id); l != nil && l.Column(r.Requires.Column) != nil {
				found = true
			}
		}
		if !found {
			c.Add(rat("requires.column"), "no attack list this rider reads has a column %q", r.Requires.Column)
		}
	}
}

// poolDice holds damage dice to the pool die in a dice-pool fight: its damage is thrown
// with the ruleset's own die. A heal is an amount, not a roll, and keeps its dice.
func (c *checker) poolDice(path string, m *Mechanics, ctx *entryContext) {
	if ctx.poolDie == 0 || m.Kind == "heal" {
		return
	}
	check := func(p string, d *string) {
		if d != nil && diceSides(*d) != ctx.poolDie {
			c.Add(p, "a \"dice-pool\" fight throws d%ds, so damage dice are d%ds", ctx.poolDie, ctx.poolDie)
		}
	}
	if m.Amount != nil {
		check(strictjson.Join(path, "amount.dice"), m.Amount.Dice)
	}
	if m.PerCostStep != nil {
		check(strictjson.Join(path, "perCostStep.dice"), m.PerCostStep.Dice)
	}
	for i := range m.Plus {
		check(strictjson.Join(strictjson.Join(path, "plus"), i)+".dice", m.Plus[i].Dice)
	}
	if m.Rider != nil {
		check(strictjson.Join(path, "rider.amount.dice"), m.Rider.Amount.Dice)
	}
}

// diceSides reads the die size of dice text, 0 when there is none.
func diceSides(d string) int {
	_, rest, ok := strings.Cut(d, "d")
	if !ok {
		return 0
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	n, _ := strconv.Atoi(rest[:end])
	return n
}

// saveDifficultySource: a save an entry asks for in a fight is rolled against the
// saveDifficulty of the combat abilities source of the list it lands in, so that source
// must declare one.
func (c *checker) saveDifficultySource(e *Entry, path string, ctx *entryContext) {
	m := e.Mechanics
	key := ""
	switch {
	case m.Save != nil:
		key = "save"
	case anySaveEnds(m.Applies):
		key = "applies"
	case anyOpenClauseSave(m.Plus):
		key = "plus"
	default:
		return
	}
	seen := map[string]bool{}
	for _, r := range e.Rows {
		if seen[r.List] {
			continue
		}
		seen[r.List] = true
		if has, ok := ctx.abilitySources[r.List]; ok && !has {
			c.Add(strictjson.Join(path, key), "the combat abilities source for %q declares no saveDifficulty for this save to be rolled against", r.List)
		}
	}
}

func anySaveEnds(as []AppliedCondition) bool {
	for _, a := range as {
		if a.SaveEnds != nil {
			return true
		}
	}
	return false
}

func anyOpenClauseSave(cl []DamageClause) bool {
	for _, k := range cl {
		if k.Save != nil && k.Save.Difficulty == nil {
			return true
		}
	}
	return false
}
