package ruleset

import (
	"fmt"

	"sheetkeeper/strictjson"
)

// Resolution is how checks are rolled: one of the engine's closed set of kinds,
// "dice-sum" (roll, add the sheet's number, meet a difficulty) or "dice-pool" (throw as
// many dice as the sheet's number, count successes). Both share the sheet math: how a
// score becomes a modifier, proficiency tiers, wound penalty, spends and adjustments.
// The keys of both kinds live in one struct; the checks refuse a key of the other kind.
// Rolls are validated and kept, not played.
type Resolution struct {
	Kind             string            `json:"kind"`
	AbilityModifier  AbilityModifier   `json:"abilityModifier"`
	Proficiency      *Proficiency      `json:"proficiency,omitempty"`
	ProficiencyTiers []ProficiencyTier `json:"proficiencyTiers"`
	PenaltyFrom      string            `json:"penaltyFrom,omitempty"`
	Spend            []Spend           `json:"spend,omitempty"`
	Adjust           []Adjust          `json:"adjust,omitempty"`
	DifficultyLadder []LadderStep      `json:"difficultyLadder"`

	// dice-sum
	Dice      *Dice     `json:"dice,omitempty"`
	Advantage *bool     `json:"advantage,omitempty"`
	Naturals  *Naturals `json:"naturals,omitempty"`

	// dice-pool
	Die             *Die             `json:"die,omitempty"`
	Pool            *PoolBounds      `json:"pool,omitempty"`
	Target          *PoolTarget      `json:"target,omitempty"`
	Double          *FaceRule        `json:"double,omitempty"`
	Explode         *FaceRule        `json:"explode,omitempty"`
	Cancel          *UpTo            `json:"cancel,omitempty"`
	Botch           *Botch           `json:"botch,omitempty"`
	Exceptional     *Exceptional     `json:"exceptional,omitempty"`
	Reroll          []NamedReroll    `json:"reroll,omitempty"`
	SituationalDice *SituationalDice `json:"situationalDice,omitempty"`
}

// AbilityModifier turns an ability score into a modifier: "floorHalfMinusTen",
// "identity" (the score is the modifier) or "stepTable" with Table.
type AbilityModifier struct {
	Op    string    `json:"op"`
	Table StepTable `json:"table,omitempty"`
}

// Proficiency names where the proficiency bonus comes from.
type Proficiency struct {
	Bonus ValueRef `json:"bonus"`
}

// ProficiencyTier is a level of training: the bonus times Multiplier (rounded), plus
// Flat. The first tier is the untrained default.
type ProficiencyTier struct {
	ID         string   `json:"id"`
	Label      string   `json:"label"`
	Multiplier *float64 `json:"multiplier,omitempty"`
	Round      Rounding `json:"round,omitempty"`
	Flat       *int     `json:"flat,omitempty"`
}

// Spend is something a check may buy by spending a pool: Amount per purchase, buying
// successes, dice and/or a reroll, at most PerCheck purchases (a number, a value
// reference, or "pool").
type Spend struct {
	Pool        string         `json:"pool"`
	Amount      int            `json:"amount"`
	Successes   *int           `json:"successes,omitempty"`
	Dice        *int           `json:"dice,omitempty"`
	Reroll      *Reroll        `json:"reroll,omitempty"`
	RawPerCheck strictjson.Raw `json:"perCheck"`

	// PerCheck is the decoded limit: PerCheckNumber, PerCheckRef, or PerCheckPool.
	PerCheckNumber int       `json:"-"`
	PerCheckRef    *ValueRef `json:"-"`
	PerCheckPool   bool      `json:"-"`
}

// Reroll throws the dice at or below UpTo again, "once" or "until".
type Reroll struct {
	UpTo int    `json:"upTo"`
	Mode string `json:"mode"`
}

// NamedReroll is a standing reroll the GM asks for by id.
type NamedReroll struct {
	ID   string `json:"id"`
	UpTo int    `json:"upTo"`
	Mode string `json:"mode"`
}

// Adjust is something the sheet adds to or takes off every check, or only checks
// rolled with one of Abilities.
type Adjust struct {
	Value     ValueRef `json:"value"`
	Abilities []string `json:"abilities,omitempty"`
}

// LadderStep is one rung of the difficulty ladder: a DC for dice-sum; a number of
// successes and optionally a per-die target for dice-pool.
type LadderStep struct {
	Label     string `json:"label"`
	DC        *int   `json:"dc,omitempty"`
	Successes *int   `json:"successes,omitempty"`
	Target    *int   `json:"target,omitempty"`
}

// Dice is a handful of dice (dice-sum; 1d20 by default).
type Dice struct {
	Count int `json:"count"`
	Sides int `json:"sides"`
}

// Naturals says what the extreme faces do on checks and saves: "none", "both",
// "max-only", "min-only".
type Naturals struct {
	Check string `json:"check,omitempty"`
	Save  string `json:"save,omitempty"`
}

// Die is a pool's die (d10 by default).
type Die struct {
	Sides int `json:"sides"`
}

// PoolBounds clamps the sheet's number of dice.
type PoolBounds struct {
	Min                int  `json:"min"`
	Max                int  `json:"max"`
	AbilityPlusAbility bool `json:"abilityPlusAbility,omitempty"`
}

// PoolTarget is the per-die success threshold and how far a check may move it.
type PoolTarget struct {
	Default int `json:"default"`
	Min     int `json:"min"`
	Max     int `json:"max"`
}

// FaceRule fires on faces at or above From; a check may move it down to Min.
type FaceRule struct {
	From *int `json:"from,omitempty"`
	Min  *int `json:"min,omitempty"`
}

// UpTo names the low faces a rule applies to.
type UpTo struct {
	UpTo int `json:"upTo"`
}

// Botch reads a critical failure from low faces: Rule "noSuccesses" (default) or
// "halfOrMore".
type Botch struct {
	UpTo int    `json:"upTo"`
	Rule string `json:"rule,omitempty"`
}

// Exceptional is the net successes that make a critical success.
type Exceptional struct {
	Successes int `json:"successes"`
}

// SituationalDice bounds the dice a GM may add or take for one check.
type SituationalDice struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// decodeResolutionUnions decodes each spend's perCheck: a number, a value reference or
// "pool".
func (c *checker) decodeResolutionUnions() {
	for i := range c.rs.Resolution.Spend {
		s := &c.rs.Resolution.Spend[i]
		path := fmt.Sprintf("resolution.spend[%d].perCheck", i)
		switch rawKind(s.RawPerCheck) {
		case 'o':
			s.PerCheckRef = &ValueRef{}
			if !c.decodeRaw(s.RawPerCheck, s.PerCheckRef, path) {
				s.PerCheckRef = nil
			}
		case 's':
			var word string
			if c.decodeRaw(s.RawPerCheck, &word, path) {
				s.PerCheckPool = word == "pool"
				if !s.PerCheckPool {
					c.Add(path, "perCheck is a number, a value reference or \"pool\"")
				}
			}
		default:
			if c.decodeRaw(s.RawPerCheck, &s.PerCheckNumber, path) {
				c.Between(path, float64(s.PerCheckNumber), 1, spendEffectMax)
			}
		}
	}
}

// spendEffectMax bounds the successes or dice one purchase buys and the purchases one
// check makes: past it the roll stops being a roll.
const spendEffectMax = 10

// poolMaxDice is the largest dice pool.
const poolMaxDice = 100

func (r *Resolution) present() map[string]bool {
	return map[string]bool{"dice": r.Dice != nil, "advantage": r.Advantage != nil, "naturals": r.Naturals != nil,
		"die": r.Die != nil, "pool": r.Pool != nil, "target": r.Target != nil, "double": r.Double != nil,
		"explode": r.Explode != nil, "cancel": r.Cancel != nil, "botch": r.Botch != nil,
		"exceptional": r.Exceptional != nil, "reroll": r.Reroll != nil, "situationalDice": r.SituationalDice != nil}
}

// DieSides is the pool die's sides (10 when not given).
func (r *Resolution) DieSides() int {
	if r.Die == nil {
		return 10
	}
	return r.Die.Sides
}

// PoolRange is the clamp on a pool's dice (1..40 when not given).
func (r *Resolution) PoolRange() PoolBounds {
	if r.Pool == nil {
		return PoolBounds{Min: 1, Max: 40}
	}
	return *r.Pool
}

// MaxSuccesses is the most successes one roll of a dice pool can count: the largest
// pool, as many again exploded, each doubled.
func (r *Resolution) MaxSuccesses() int {
	m := r.PoolRange().Max
	if r.Explode != nil {
		m *= 2
	}
	if r.Double != nil {
		m *= 2
	}
	return m
}

func (c *checker) checkResolution() {
	r := &c.rs.Resolution
	n := c.names
	if !c.OneOf("resolution.kind", r.Kind, "dice-sum", "dice-pool") {
		return
	}
	present := r.present()
	diceSumOnly := []string{"dice", "advantage", "naturals"}
	dicePoolOnly := []string{"die", "pool", "target", "double", "explode", "cancel", "botch", "exceptional", "reroll", "situationalDice"}
	mine := diceSumOnly
	if r.Kind == "dice-pool" {
		mine = dicePoolOnly
	}
	var required []string
	if r.Kind == "dice-pool" {
		required = []string{"target"}
	}
	c.keysFor("resolution", "a "+r.Kind+" resolution", present, mine, required)

	c.checkAbilityModifier()
	labelledList(c, "resolution.proficiencyTiers", "proficiency tier", r.ProficiencyTiers, 1, 12, func(_ int, t *ProficiencyTier, path string) {
		if t.Multiplier != nil {
			c.Between(path+".multiplier", *t.Multiplier, 0, 10)
			if r.Proficiency == nil && *t.Multiplier != 0 {
				c.Add(path+".multiplier", "a multiplier needs resolution.proficiency.bonus to multiply; use flat for a fixed bonus")
			}
		}
		c.rounding(path+".round", t.Round)
		if t.Flat != nil {
			c.Between(path+".flat", float64(*t.Flat), -50, 50)
		}
	})
	if p := r.Proficiency; p != nil {
		c.valueRef(&p.Bonus, "resolution.proficiency.bonus", refRules{allDerived: true, noLive: true})
		c.feedsSkillNumber(&p.Bonus, "resolution.proficiency.bonus", "the proficiency bonus", "the proficiency bonus")
	}
	if id := r.PenaltyFrom; id != "" && c.Known("resolution.penaltyFrom", "track", id, n.track(id) != nil) && !n.track(id).IsWound() {
		c.Add("resolution.penaltyFrom", "%q has no levels or boxes, so it carries no penalty to apply", id)
	}
	c.checkSpends()
	c.Count("resolution.adjust", len(r.Adjust), 0, 8)
	for i := range r.Adjust {
		a := &r.Adjust[i]
		path := fmt.Sprintf("resolution.adjust[%d]", i)
		c.valueRef(&a.Value, path+".value", readAll())
		if a.Abilities != nil {
			c.Count(path+".abilities", len(a.Abilities), 1, 12)
			for j, id := range a.Abilities {
				c.Known(strictjson.Join(path+".abilities", j), "ability", id, n.ability(id) != nil)
			}
		}
	}
	if r.Kind == "dice-sum" {
		c.checkDiceSum()
	} else {
		c.checkDicePool()
	}
	c.ladder("resolution.difficultyLadder", r.DifficultyLadder)
}

func (c *checker) checkAbilityModifier() {
	m := &c.rs.Resolution.AbilityModifier
	if !c.OneOf("resolution.abilityModifier.op", m.Op, "floorHalfMinusTen", "identity", "stepTable") {
		return
	}
	if m.Op == "stepTable" {
		if m.Table == nil {
			c.Add("resolution.abilityModifier.table", "required")
			return
		}
		c.StepTable("resolution.abilityModifier.table", m.Table, 100)
	} else if m.Table != nil {
		c.Add("resolution.abilityModifier.table", "unknown key for op %q", m.Op)
	}
}

func (c *checker) checkSpends() {
	r := &c.rs.Resolution
	n := c.names
	c.Count("resolution.spend", len(r.Spend), 0, 4)
	seen := map[string]bool{}
	twice := false
	for i := range r.Spend {
		s := &r.Spend[i]
		path := fmt.Sprintf("resolution.spend[%d]", i)
		if s.Successes == nil && s.Dice == nil && s.Reroll == nil {
			c.Add(path, "a spend buys successes, dice, a re-throw, or several")
		}
		if (s.Successes != nil || s.Dice != nil) && r.Kind != "dice-pool" {
			c.Add(path, "a %s ruleset has no successes or pool dice to buy", r.Kind)
		}
		if p := n.pool(s.Pool); c.Known(path+".pool", "live pool", s.Pool, p != nil) && !p.StartsFull() {
			c.Add(path+".pool", "%q starts empty, so there is nothing in it to spend", s.Pool)
		}
		twice = twice || seen[s.Pool]
		seen[s.Pool] = true
		c.Between(path+".amount", float64(s.Amount), 1, 100)
		if s.Successes != nil {
			c.Between(path+".successes", float64(*s.Successes), 1, spendEffectMax)
		}
		if s.Dice != nil {
			c.Between(path+".dice", float64(*s.Dice), 1, spendEffectMax)
		}
		if s.Reroll != nil {
			c.reroll(path+".reroll", s.Reroll.UpTo, s.Reroll.Mode)
		}
		if s.PerCheckRef != nil {
			c.valueRef(s.PerCheckRef, path+".perCheck", readAll())
		}
	}
	if twice {
		c.Add("resolution.spend", "two spends on one pool: a check could not say which it meant")
	}
}

// reroll checks a re-throw: its mode, and on a dice pool a face the die has below its top.
func (c *checker) reroll(path string, upTo int, mode string) {
	c.OneOf(path+".mode", mode, "once", "until")
	c.Between(path+".upTo", float64(upTo), 1, 999)
	r := &c.rs.Resolution
	if sides := r.DieSides(); r.Kind == "dice-pool" && (upTo < 1 || upTo >= sides) {
		c.Add(path+".upTo", "this ruleset throws d%d, so a re-throw is on a face from 1 to %d", sides, sides-1)
	}
}

func (c *checker) checkDiceSum() {
	r := &c.rs.Resolution
	count := 1
	if d := r.Dice; d != nil {
		c.Between("resolution.dice.count", float64(d.Count), 1, 10)
		c.Between("resolution.dice.sides", float64(d.Sides), 2, 1000)
		count = d.Count
	}
	if nat := r.Naturals; nat != nil {
		for _, k := range []struct{ key, v string }{{"check", nat.Check}, {"save", nat.Save}} {
			if k.v != "" {
				c.OneOf("resolution.naturals."+k.key, k.v, "none", "both", "max-only", "min-only")
			}
		}
		if count != 1 && (nat.Check != "" && nat.Check != "none" || nat.Save != "" && nat.Save != "none") {
			c.Add("resolution.naturals", "natural results need a single die; with several dice use none")
		}
	}
}

func (c *checker) checkDicePool() {
	r := &c.rs.Resolution
	sides := r.DieSides()
	if r.Die != nil {
		c.Between("resolution.die.sides", float64(sides), 2, 100)
	}
	face := func(path string, v int) {
		if v < 2 || v > sides {
			c.Add(path, "a face of this die is from 2 to %d", sides)
		}
	}
	if p := r.Pool; p != nil {
		c.Between("resolution.pool.min", float64(p.Min), 0, poolMaxDice)
		c.Between("resolution.pool.max", float64(p.Max), 1, poolMaxDice)
		if p.Min > p.Max {
			c.Add("resolution.pool.min", "min is above max")
		}
	}
	if t := r.Target; t != nil {
		face("resolution.target.min", t.Min)
		face("resolution.target.max", t.Max)
		face("resolution.target.default", t.Default)
		if t.Min > t.Max {
			c.Add("resolution.target.min", "min is above max")
		}
		if t.Default < t.Min || t.Default > t.Max {
			c.Add("resolution.target.default", "default %d is outside %d..%d", t.Default, t.Min, t.Max)
		}
	}
	c.diceFaceRules(r, face)
	if b := r.Botch; b != nil && b.Rule != "" {
		c.OneOf("resolution.botch.rule", b.Rule, "noSuccesses", "halfOrMore")
	}
	if e := r.Exceptional; e != nil {
		c.Between("resolution.exceptional.successes", float64(e.Successes), 1, poolMaxDice)
		if most := r.MaxSuccesses(); e.Successes > most {
			c.Add("resolution.exceptional.successes", "the largest pool can count %d at most", most)
		}
	}
	if r.Reroll != nil {
		c.Count("resolution.reroll", len(r.Reroll), 1, 6)
		c.Unique("resolution.reroll", "re-throw", len(r.Reroll), func(i int) string { return r.Reroll[i].ID })
		for i, rr := range r.Reroll {
			path := fmt.Sprintf("resolution.reroll[%d]", i)
			c.SheetID(path+".id", rr.ID)
			c.reroll(path, rr.UpTo, rr.Mode)
		}
	}
	if s := r.SituationalDice; s != nil {
		c.Between("resolution.situationalDice.min", float64(s.Min), -20, 0)
		c.Between("resolution.situationalDice.max", float64(s.Max), 0, 20)
	}
}

// diceFaceRules checks the faces that double, explode, cancel or botch, each a face the
// die has (face reports one it has not) and cancel and botch below the lowest target.
func (c *checker) diceFaceRules(r *Resolution, face func(path string, v int)) {
	for _, k := range []struct {
		key  string
		rule *FaceRule
	}{{"double", r.Double}, {"explode", r.Explode}} {
		if k.rule == nil {
			continue
		}
		path := "resolution." + k.key
		if k.rule.From == nil && k.rule.Min == nil {
			c.Add(path, "give from, min or both")
		}
		if k.rule.From != nil {
			face(path+".from", *k.rule.From)
		}
		if k.rule.Min != nil {
			face(path+".min", *k.rule.Min)
		}
		if k.rule.From != nil && k.rule.Min != nil && *k.rule.From < *k.rule.Min {
			c.Add(path+".from", "from is below min")
		}
	}
	for _, k := range []struct {
		key  string
		upTo *int
	}{{"cancel", upToOf(r.Cancel)}, {"botch", botchUpTo(r.Botch)}} {
		if k.upTo == nil {
			continue
		}
		path := "resolution." + k.key + ".upTo"
		c.Between(path, float64(*k.upTo), 1, 99)
		if r.Target != nil && *k.upTo >= r.Target.Min {
			c.Add(path, "a %s face must be below the lowest target (%d)", k.key, r.Target.Min)
		}
	}
}

func upToOf(u *UpTo) *int {
	if u == nil {
		return nil
	}
	return &u.UpTo
}

func botchUpTo(b *Botch) *int {
	if b == nil {
		return nil
	}
	return &b.UpTo
}

// ladder checks a difficulty ladder against the kind that reads it: the ruleset's own
// and every ladder a layer swaps in, so no file holds a rung the resolver cannot answer.
func (c *checker) ladder(path string, steps []LadderStep) {
	r := &c.rs.Resolution
	c.Count(path, len(steps), 1, 12)
	for i, s := range steps {
		sp := strictjson.Join(path, i)
		c.Label(sp+".label", s.Label)
		if r.Kind == "dice-sum" {
			if s.Successes != nil {
				c.Add(sp+".successes", "unknown key for a dice-sum ladder step")
			}
			if s.Target != nil {
				c.Add(sp+".target", "unknown key for a dice-sum ladder step")
			}
			if s.DC == nil {
				c.Add(sp, "this ruleset sums dice, so a ladder step names \"dc\"")
				continue
			}
			c.Between(sp+".dc", float64(*s.DC), -100, 1000)
			continue
		}
		if s.DC != nil {
			c.Add(sp+".dc", "unknown key for a dice-pool ladder step")
		}
		if s.Successes == nil {
			c.Add(sp, "this ruleset throws a pool, so a ladder step names \"successes\"")
			continue
		}
		c.Between(sp+".successes", float64(*s.Successes), 1, poolMaxDice)
		if most := r.MaxSuccesses(); *s.Successes > most {
			c.Add(sp+".successes", "the largest pool can count %d at most", most)
		}
		if s.Target == nil || r.Target == nil {
			continue
		}
		c.Between(sp+".target", float64(*s.Target), 2, 100)
		if r.Target.Min >= r.Target.Max {
			c.Add(sp+".target", "a step names a target only where target.min is below target.max")
		} else if *s.Target < r.Target.Min || *s.Target > r.Target.Max {
			c.Add(sp+".target", "a step's target is inside %d to %d", r.Target.Min, r.Target.Max)
		}
	}
}
