package ruleset

import (
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/strictjson"
)

// Combat says how a fight is RESOLVED by the ruleset's own numbers: what is rolled and
// against what, what a turn may hold, which sheet lists are attacks and abilities, what
// conditions do, what happens at zero, the damage types and the threat scale. It
// parameterises a fight kind the engine owns, exactly as Resolution parameterises a
// check kind, and every name in it is the ruleset's. sheetkeeper validates and keeps it
// (SPEC 4.1); it does not play it.
type Combat struct {
	// Kind is "attack-vs-defense" (dice added up against a number) or "dice-pool" (the
	// ruleset's own pools thrown, successes counted).
	Kind   string `json:"kind"`
	Health Health `json:"health"`
	// Defense is what an attack is rolled against: a total to reach, or under
	// "dice-pool" the successes an attack needs.
	Defense    ValueRef    `json:"defense"`
	Initiative Initiative  `json:"initiative"`
	AttackRoll *AttackRoll `json:"attackRoll,omitempty"`
	Pool       *CombatPool `json:"pool,omitempty"`
	Economy    Economy     `json:"economy"`
	// Distance makes a fight positionable; everything measured in cells needs it.
	Distance        *Distance         `json:"distance,omitempty"`
	Ranged          *Ranged           `json:"ranged,omitempty"`
	Cover           *Cover            `json:"cover,omitempty"`
	Opportunity     *BudgetRef        `json:"opportunity,omitempty"`
	OffHand         *OffHand          `json:"offHand,omitempty"`
	Attacks         []AttackSource    `json:"attacks,omitempty"`
	Abilities       []AbilitySource   `json:"abilities,omitempty"`
	Standard        []string          `json:"standard,omitempty"`
	StandardEffects *StandardEffects  `json:"standardEffects,omitempty"`
	Conditions      []CombatCondition `json:"conditions,omitempty"`
	Levels          []CombatLevel     `json:"levels,omitempty"`
	Checks          []ContestCheck    `json:"checks,omitempty"`
	Contests        []Contest         `json:"contests,omitempty"`
	Concentration   *Concentration    `json:"concentration,omitempty"`
	Dying           *Dying            `json:"dying,omitempty"`
	// DamageTypes are matched without case and trimmed; without any, a damage type
	// anywhere in the file is free text.
	DamageTypes []string     `json:"damageTypes,omitempty"`
	DamageKinds *DamageKinds `json:"damageKinds,omitempty"`
	Threat      *Threat      `json:"threat,omitempty"`
	SpendLimits []SpendLimit `json:"spendLimits,omitempty"`
}

// Health is what a fight takes away: one live pool counted down, or one wound track
// marked. Exactly one of the two.
type Health struct {
	Pool  string `json:"pool,omitempty"`
	Track string `json:"track,omitempty"`
}

// CombatDice is a handful of dice a fight throws: an attack, initiative, a roll against
// death, a creature's recharge.
type CombatDice struct {
	Count int `json:"count"`
	Sides int `json:"sides"`
}

// Max is the highest total the dice can show.
func (d CombatDice) Max() int { return d.Count * d.Sides }

// Initiative is summed dice plus a modifier, or (dice-pool only) a pool whose successes
// plus Plus are the number; Resource keeps that number and lets attacks move it.
type Initiative struct {
	Dice     *CombatDice         `json:"dice,omitempty"`
	Modifier *ValueRef           `json:"modifier,omitempty"`
	Pool     *ValueRef           `json:"pool,omitempty"`
	Plus     *int                `json:"plus,omitempty"`
	Each     string              `json:"each,omitempty"`
	Resource *InitiativeResource `json:"resource,omitempty"`
}

// InitiativeResource is initiative as a number attacks move: what a spending attack
// resets it to, the styles an attack may be made in, and what crashing does.
type InitiativeResource struct {
	Base   int               `json:"base"`
	Styles []InitiativeStyle `json:"styles"`
	Crash  *Crash            `json:"crash,omitempty"`
}

// InitiativeStyle is one way any attack may be made: it takes from the target's number,
// or spends the attacker's own. Exactly one of the two.
type InitiativeStyle struct {
	ID     string       `json:"id"`
	Label  string       `json:"label"`
	Takes  *StyleTakes  `json:"takes,omitempty"`
	Spends *StyleSpends `json:"spends,omitempty"`
}

// StyleTakes gains the attacker what the blow took, plus Gain.
type StyleTakes struct {
	Gain *int `json:"gain,omitempty"`
}

// StyleSpends costs the attacker OnMiss (read at their number) when the blow misses.
type StyleSpends struct {
	OnMiss StepTable `json:"onMiss,omitempty"`
}

// Crash is what happens at or below At: the condition put on, the bonus the one who did
// it gains, and how many turns it takes to recover.
type Crash struct {
	At           *int   `json:"at,omitempty"`
	Condition    string `json:"condition,omitempty"`
	Bonus        *int   `json:"bonus,omitempty"`
	RecoverAfter *int   `json:"recoverAfter,omitempty"`
}

// CrashAt is the crash line, 0 when none is given.
func (c *Crash) CrashAt() int {
	if c == nil || c.At == nil {
		return 0
	}
	return *c.At
}

// AttackRoll is how an attack-vs-defense attack is rolled.
type AttackRoll struct {
	Dice      CombatDice      `json:"dice"`
	Advantage bool            `json:"advantage,omitempty"`
	Naturals  *AttackNaturals `json:"naturals,omitempty"`
	// Critical is "double-dice", "max-dice" or "none" (the default).
	Critical string `json:"critical,omitempty"`
}

// AttackNaturals says what the extreme faces of a single attack die do: Max "critical",
// "hit" or "none"; Min "miss" or "none". Empty means "none".
type AttackNaturals struct {
	Max string `json:"max,omitempty"`
	Min string `json:"min,omitempty"`
}

// CombatPool is what a dice-pool fight rolls beyond the ruleset's check rules.
type CombatPool struct {
	Advantage    bool      `json:"advantage,omitempty"`
	DamageTarget *int      `json:"damageTarget,omitempty"`
	Soak         *PoolSoak `json:"soak,omitempty"`
	Hardness     *ValueRef `json:"hardness,omitempty"`
}

// PoolSoak is what a target takes off a hit's harm: All for any kind, ByKind per kind of
// the health track (winning over All); Roll throws it as dice instead of taking it off.
type PoolSoak struct {
	Roll   bool                `json:"roll"`
	All    *ValueRef           `json:"all,omitempty"`
	ByKind map[string]ValueRef `json:"byKind,omitempty"`
}

// Economy is what a turn may hold. The first budget is the main one, which a standard
// action spends.
type Economy struct {
	Budgets  []Budget  `json:"budgets"`
	Movement *ValueRef `json:"movement,omitempty"`
}

// Budget is one kind of thing a turn may spend, Count times (1 by default), refilled per
// "turn" or per "round".
type Budget struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Per   string `json:"per"`
	Count *int   `json:"count,omitempty"`
}

// Times is how many of the budget a turn holds.
func (b Budget) Times() int {
	if b.Count == nil {
		return 1
	}
	return *b.Count
}

// Distance is what one cell of a board is worth in the ruleset's own unit.
type Distance struct {
	Label   string  `json:"label"`
	PerCell float64 `json:"perCell"`
}

// Ranged says what a shot past its ordinary distance, or beside a foe, costs:
// "disadvantage" or "normal" (the default).
type Ranged struct {
	Long        string `json:"long,omitempty"`
	AdjacentFoe string `json:"adjacentFoe,omitempty"`
}

// Cover is what standing behind something adds to defense.
type Cover struct {
	Bonus int `json:"bonus"`
}

// BudgetRef names the budget something is paid out of.
type BudgetRef struct {
	Budget string `json:"budget"`
}

// OffHand is the budget a second attack with the other hand spends, and whether its
// damage keeps a positive ability ("full", the default, or "penalty-only").
type OffHand struct {
	Budget  string `json:"budget"`
	Ability string `json:"ability,omitempty"`
}

// ColumnRef reads a number from one column of the row it belongs to.
type ColumnRef struct {
	Column string `json:"column"`
}

// DistanceSource is a distance an attack row carries: a number column of its list, or
// the same number for every row. Exactly one of the two.
type DistanceSource struct {
	Column string   `json:"column,omitempty"`
	Const  *float64 `json:"const,omitempty"`
}

// AttackSource is a sheet list whose rows are attacks, and the columns each number
// comes from.
type AttackSource struct {
	List   string          `json:"list"`
	Budget string          `json:"budget"`
	Name   string          `json:"name"`
	Reach  *DistanceSource `json:"reach,omitempty"`
	Range  *AttackRange    `json:"range,omitempty"`
	// Strikes is how many strikes one spend of Budget buys.
	Strikes *ValueRef `json:"strikes,omitempty"`
	// StrikesCappedBy is a boolean column holding its own row to one strike.
	StrikesCappedBy *ColumnRef   `json:"strikesCappedBy,omitempty"`
	ToHit           AttackToHit  `json:"toHit,omitempty"`
	Damage          AttackDamage `json:"damage"`
}

// AttackRange is how far a row is thrown or shot, and how much further it still carries.
type AttackRange struct {
	Normal DistanceSource  `json:"normal"`
	Long   *DistanceSource `json:"long,omitempty"`
}

// AttackToHit names the columns an attack row adds to hit.
type AttackToHit struct {
	Ability     *ColumnRef `json:"ability,omitempty"`
	Skill       *ColumnRef `json:"skill,omitempty"`
	Proficiency *ColumnRef `json:"proficiency,omitempty"`
	Bonus       *ColumnRef `json:"bonus,omitempty"`
}

// AttackDamage names the columns an attack row deals damage with.
type AttackDamage struct {
	Dice    ColumnRef  `json:"dice"`
	Ability *ColumnRef `json:"ability,omitempty"`
	Bonus   *ColumnRef `json:"bonus,omitempty"`
	Type    *ColumnRef `json:"type,omitempty"`
}

// RowFilter picks which catalog-marked rows of a list a fight reads: OnlyWhen a boolean
// column is set, AlwaysWhen lets a row through anyway. Shared by battle skills and combat
// abilities.
type RowFilter struct {
	List       string      `json:"list"`
	OnlyWhen   string      `json:"onlyWhen,omitempty"`
	AlwaysWhen *AlwaysWhen `json:"alwaysWhen,omitempty"`
}

// AlwaysWhen lets a row through whatever OnlyWhen says, while Column equals Equals.
type AlwaysWhen struct {
	Column string `json:"column"`
	Equals any    `json:"equals"`
}

// AbilitySource is a sheet list whose catalog-marked rows are abilities: the budget they
// spend unless their mechanics say otherwise, what an entry that rolls to hit adds, and
// what an entry's save is rolled against.
type AbilitySource struct {
	List           string      `json:"list"`
	OnlyWhen       string      `json:"onlyWhen,omitempty"`
	AlwaysWhen     *AlwaysWhen `json:"alwaysWhen,omitempty"`
	Budget         string      `json:"budget"`
	ToHit          *ValueRef   `json:"toHit,omitempty"`
	SaveDifficulty *ValueRef   `json:"saveDifficulty,omitempty"`
}

// StandardEffects is what a standard action does beyond its flag; only dodge has one.
type StandardEffects struct {
	Dodge *DodgeEffect `json:"dodge,omitempty"`
}

// DodgeEffect names the saves a dodger rolls twice, keeping the better.
type DodgeEffect struct {
	Saves []string `json:"saves"`
}

// Effects says what a condition, a level or an item does, in the closed vocabulary:
// effects, modifiers, saves failed without a roll, and the saves and skills the scoped
// effects are about. A condition, a level and an item's effect each speak it.
type Effects struct {
	Effects    []string   `json:"effects,omitempty"`
	Modifiers  []Modifier `json:"modifiers,omitempty"`
	FailsSaves []string   `json:"failsSaves,omitempty"`
	Saves      []string   `json:"saves,omitempty"`
	Skills     []string   `json:"skills,omitempty"`
}

// CombatCondition maps one of the sheet's conditions onto what it does in a fight.
type CombatCondition struct {
	Condition  string     `json:"condition"`
	Effects    []string   `json:"effects,omitempty"`
	Modifiers  []Modifier `json:"modifiers,omitempty"`
	FailsSaves []string   `json:"failsSaves,omitempty"`
	Saves      []string   `json:"saves,omitempty"`
	Skills     []string   `json:"skills,omitempty"`
	// WhileSourceInSight is true (the whole condition) or a list of its own effects that
	// count only while whoever applied it is in sight.
	WhileSourceInSight any  `json:"whileSourceInSight,omitempty"`
	EndsWhenSourceDown bool `json:"endsWhenSourceDown,omitempty"`
}

// CombatLevel counts as a condition while a plain live track (or a derived value) is at
// At or more, so levels add up as it climbs: how exhaustion is said.
type CombatLevel struct {
	Track      string     `json:"track,omitempty"`
	Derived    string     `json:"derived,omitempty"`
	At         int        `json:"at"`
	Effects    []string   `json:"effects,omitempty"`
	Modifiers  []Modifier `json:"modifiers,omitempty"`
	FailsSaves []string   `json:"failsSaves,omitempty"`
	Saves      []string   `json:"saves,omitempty"`
	Skills     []string   `json:"skills,omitempty"`
}

// vocab returns what the condition does, in the shared vocabulary.
func (e *CombatCondition) vocab() *Effects {
	return &Effects{Effects: e.Effects, Modifiers: e.Modifiers, FailsSaves: e.FailsSaves, Saves: e.Saves, Skills: e.Skills}
}

// vocab returns what the level does, in the shared vocabulary.
func (e *CombatLevel) vocab() *Effects {
	return &Effects{Effects: e.Effects, Modifiers: e.Modifiers, FailsSaves: e.FailsSaves, Saves: e.Saves, Skills: e.Skills}
}

// Modifier is one number a condition changes: To "defense", "attacks", "saves",
// "checks" or "speed", by Flat, by Dice (Minus takes them away), for speed by Times 0.5
// or 2, or for checks and saves by Mode; narrowed by Skills or Saves.
type Modifier struct {
	To     string   `json:"to"`
	Flat   *int     `json:"flat,omitempty"`
	Dice   string   `json:"dice,omitempty"`
	Minus  *bool    `json:"minus,omitempty"`
	Times  *float64 `json:"times,omitempty"`
	Skills []string `json:"skills,omitempty"`
	Saves  []string `json:"saves,omitempty"`
	Mode   string   `json:"mode,omitempty"`
}

// ContestCheck is a number a contest reads off the sheet.
type ContestCheck struct {
	ID    string   `json:"id"`
	Label string   `json:"label"`
	Value ValueRef `json:"value"`
}

// Contest is a move both sides roll for: grabbing, shoving, breaking free.
type Contest struct {
	ID       string       `json:"id"`
	Label    string       `json:"label"`
	Budget   string       `json:"budget"`
	Strike   *bool        `json:"strike,omitempty"`
	Reach    *float64     `json:"reach,omitempty"`
	Attacker ContestSide  `json:"attacker"`
	Defender ContestSide  `json:"defender"`
	Ties     string       `json:"ties,omitempty"`
	From     *ContestFrom `json:"from,omitempty"`
	OnWin    ContestWin   `json:"onWin"`
}

// ContestSide lists the checks a side may roll, the best of them counting.
type ContestSide struct {
	Checks []string `json:"checks"`
}

// ContestFrom aims a contest only at whoever put Holding on the actor.
type ContestFrom struct {
	Holding string `json:"holding"`
}

// ContestWin is what winning does: conditions applied to the loser, conditions ended,
// a push away.
type ContestWin struct {
	Applies []ContestApplies `json:"applies,omitempty"`
	Ends    []ContestEnds    `json:"ends,omitempty"`
	Push    *float64         `json:"push,omitempty"`
}

// ContestApplies puts a condition on the loser, for Rounds or until ended.
type ContestApplies struct {
	Condition string `json:"condition"`
	Rounds    *int   `json:"rounds,omitempty"`
}

// ContestEnds takes a condition off the "actor" or the "target".
type ContestEnds struct {
	Condition string `json:"condition"`
	On        string `json:"on"`
}

// Concentration is holding an effect together: the live text it is written in, the save
// damage forces, the lowest difficulty and the share of damage that sets it.
type Concentration struct {
	Text       string  `json:"text"`
	Save       string  `json:"save"`
	Floor      int     `json:"floor"`
	FromDamage float64 `json:"fromDamage"`
}

// Dying is what happens to a character at zero. Only kind "saves" exists: two plain
// tracks count successes and failures of a roll against death.
type Dying struct {
	Kind              string        `json:"kind"`
	Successes         string        `json:"successes"`
	Failures          string        `json:"failures"`
	Dice              CombatDice    `json:"dice"`
	SucceedAt         int           `json:"succeedAt"`
	Naturals          *DyingNatural `json:"naturals,omitempty"`
	DamageWhileDown   string        `json:"damageWhileDown,omitempty"`
	CriticalWhileDown string        `json:"criticalWhileDown,omitempty"`
	Condition         string        `json:"condition,omitempty"`
}

// DyingNatural is what the extreme faces of a death roll do: Max "revive-1", "success"
// or "none"; Min "two-failures", "one-failure" or "none".
type DyingNatural struct {
	Max string `json:"max,omitempty"`
	Min string `json:"min,omitempty"`
}

// DamageKinds says how damage reaches a wound track: the kind anything unmapped marks,
// kinds per damage type, and whether a blow marks "per-blow" or "per-point".
type DamageKinds struct {
	Default string            `json:"default"`
	ByType  map[string]string `json:"byType,omitempty"`
	Marks   string            `json:"marks"`
}

// Threat is the scale an opponent is picked from.
type Threat struct {
	Tiers []ThreatTier `json:"tiers"`
}

// ThreatTier is one rung of the threat scale: health and damage bands ([lowest,
// highest]), defense, to-hit and save difficulty.
type ThreatTier struct {
	ID             string `json:"id"`
	Label          string `json:"label"`
	Health         [2]int `json:"health"`
	Defense        int    `json:"defense"`
	ToHit          int    `json:"toHit"`
	DamagePerRound [2]int `json:"damagePerRound"`
	SaveDifficulty int    `json:"saveDifficulty"`
}

// SpendLimit caps how much of a live pool one combatant may spend per turn or round.
type SpendLimit struct {
	Pool string   `json:"pool"`
	Max  ValueRef `json:"max"`
	Per  string   `json:"per"`
}

// The closed vocabularies of a fight.
var (
	conditionEffects = []string{"own-attacks-advantage", "own-attacks-disadvantage", "attacks-against-advantage", "attacks-against-disadvantage", "attacks-against-adjacent-advantage", "attacks-against-far-disadvantage", "attacks-from-adjacent-critical", "cannot-act", "cannot-react", "speed-zero", "half-move-to-stand", "ends-on-damage", "own-saves-advantage", "own-saves-disadvantage", "own-checks-advantage", "own-checks-disadvantage", "resist-all", "cannot-target-source", "cannot-approach-source"}
	levelRefused     = []string{"half-move-to-stand", "ends-on-damage", "cannot-target-source", "cannot-approach-source"}
	saveScoped       = []string{"own-saves-advantage", "own-saves-disadvantage"}
	checkScoped      = []string{"own-checks-advantage", "own-checks-disadvantage"}
	modifierTargets  = []string{"defense", "attacks", "saves", "checks", "speed"}
	rolledModTargets = []string{"attacks", "saves", "checks"}
	dyingWhileDown   = []string{"one-failure", "two-failures", "none"}
	effectsSince1_29 = []string{"own-saves-advantage", "own-saves-disadvantage", "resist-all", "cannot-target-source", "cannot-approach-source"}
	effectsSince1_45 = checkScoped
)

// combatMaxDistance bounds every distance a fight reads, in the ruleset's own unit.
const combatMaxDistance = 10000.0

// pathOf joins keys and indexes onto a path.
func pathOf(base string, keys ...any) string {
	for _, k := range keys {
		base = strictjson.Join(base, k)
	}
	return base
}

// hasWord reports whether words holds w.
func hasWord(words []string, w string) bool { return slices.Contains(words, w) }

// damageTypeKey is how a damage type is matched: trimmed, without case.
func damageTypeKey(t string) string { return strings.ToLower(strings.TrimSpace(t)) }

// damageTypes returns the declared damage types keyed for matching, or nil when the
// ruleset declares none (then any type is free text).
func (cb *Combat) damageTypes() map[string]bool {
	if cb == nil || cb.DamageTypes == nil {
		return nil
	}
	m := make(map[string]bool, len(cb.DamageTypes))
	for _, t := range cb.DamageTypes {
		m[damageTypeKey(t)] = true
	}
	return m
}

// damageType reports whether t is a damage type the fight knows: always true when the
// ruleset declares none.
func (cb *Combat) damageType(t string) bool {
	types := cb.damageTypes()
	return types == nil || types[damageTypeKey(t)]
}

// budgetIDs returns the ids of the action economy's budgets, nil without a combat block.
func (cb *Combat) budgetIDs() map[string]bool {
	if cb == nil {
		return nil
	}
	m := make(map[string]bool, len(cb.Economy.Budgets))
	for _, b := range cb.Economy.Budgets {
		m[b.ID] = true
	}
	return m
}

// MainBudget is the first declared budget, which a standard action spends.
func (cb *Combat) MainBudget() string {
	if cb == nil || len(cb.Economy.Budgets) == 0 {
		return ""
	}
	return cb.Economy.Budgets[0].ID
}

// spendsInitiative reports whether initiative is a number attacks move with a style
// that spends it: the only blow hardness stops.
func (cb *Combat) spendsInitiative() bool {
	if cb == nil || cb.Initiative.Resource == nil {
		return false
	}
	for _, s := range cb.Initiative.Resource.Styles {
		if s.Spends != nil {
			return true
		}
	}
	return false
}

// hardnessNeedsSpending is said wherever hardness is given without a blow it could stop.
const hardnessNeedsSpending = "hardness only stops a spending blow, so initiative must be a resource with a style that spends"

// pooled reports a dice-pool fight.
func (cb *Combat) pooled() bool { return cb != nil && cb.Kind == "dice-pool" }

// checkCombat checks the combat block: its own shape and every name it points at.
func (c *checker) checkCombat(cb *Combat) {
	if cb == nil {
		return
	}
	const p = "combat"
	at := func(keys ...any) string { return pathOf(p, keys...) }
	c.usesOnce("the combat block", 26, p)
	c.oneOf(at("kind"), cb.Kind, "attack-vs-defense", "dice-pool")
	healthTrack := c.fightHealth(at("health"), cb.Health)
	if cb.Health.Track != "" {
		c.usesOnce("combat health on a wound track", 30, at("health"))
	}
	c.valueRef(&cb.Defense, at("defense"), readAll())
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
		c.add(path, "initiative is thrown as dice or as a pool: exactly one of the two")
	}
	if in.Dice != nil {
		c.combatDice(at("dice"), *in.Dice)
	}
	if in.Modifier != nil {
		c.valueRef(in.Modifier, at("modifier"), readAll())
		if in.Dice == nil {
			c.add(at("modifier"), "a modifier is added to initiative dice, and there are none")
		}
	}
	if in.Pool != nil {
		c.usesOnce("initiative thrown as a pool", 48, at("pool"))
		c.valueRef(in.Pool, at("pool"), readAll())
		if !cb.pooled() {
			c.add(at("pool"), `initiative thrown as a pool is for a "dice-pool" fight`)
		}
	}
	if in.Plus != nil {
		c.between(at("plus"), float64(*in.Plus), 0, 100)
		if in.Pool == nil {
			c.add(at("plus"), "plus is added to a pool's successes, and initiative is not a pool")
		}
	}
	if in.Each != "" {
		c.usesOnce("initiative thrown again each round", 47, at("each"))
		c.oneOf(at("each"), in.Each, "fight", "round")
	}
	r := in.Resource
	if r == nil {
		return
	}
	rp := at("resource")
	c.usesOnce("initiative that attacks move", 48, rp)
	if !cb.pooled() {
		c.add(rp, `initiative that attacks move is for a "dice-pool" fight`)
	}
	if in.Pool == nil {
		c.add(rp, "a number attacks move opens with a thrown pool, so initiative needs pool")
	}
	if in.Each != "" {
		c.add(at("each"), "a number attacks move is kept for the whole fight, so it is never thrown again")
	}
	c.between(strictjson.Join(rp, "base"), float64(r.Base), 0, 100)
	sp := strictjson.Join(rp, "styles")
	c.count(sp, len(r.Styles), 1, 4)
	c.unique(sp, "style", len(r.Styles), func(i int) string { return r.Styles[i].ID })
	takes := false
	for i, s := range r.Styles {
		p := strictjson.Join(sp, i)
		c.sheetID(strictjson.Join(p, "id"), s.ID)
		c.label(strictjson.Join(p, "label"), s.Label)
		if (s.Takes == nil) == (s.Spends == nil) {
			c.add(p, "a style either takes or spends: exactly one of the two")
		}
		if s.Takes != nil {
			takes = true
			if s.Takes.Gain != nil {
				c.between(pathOf(p, "takes", "gain"), float64(*s.Takes.Gain), 0, 20)
			}
		}
		if s.Spends != nil && s.Spends.OnMiss != nil {
			mp := strictjson.Join(strictjson.Join(p, "spends"), "onMiss")
			c.stepTable(mp, s.Spends.OnMiss, 100)
			for j, step := range s.Spends.OnMiss {
				if step[1] < 0 {
					c.add(fmt.Sprintf("%s[%d][1]", mp, j), "a miss costs nothing or more, never a gain")
				}
			}
		}
	}
	if len(r.Styles) > 0 && !takes {
		c.add(sp, "at least one style takes: a crashed combatant attacks in it")
	}
	if cr := r.Crash; cr != nil {
		cp := strictjson.Join(rp, "crash")
		if cr.At != nil {
			c.between(strictjson.Join(cp, "at"), float64(*cr.At), -100, 100)
		}
		if cr.Condition != "" {
			c.knownCondition(strictjson.Join(cp, "condition"), cr.Condition)
		}
		if cr.Bonus != nil {
			c.between(strictjson.Join(cp, "bonus"), float64(*cr.Bonus), 0, 100)
		}
		if cr.RecoverAfter != nil {
			c.between(strictjson.Join(cp, "recoverAfter"), float64(*cr.RecoverAfter), 1, 20)
		}
	}
	if r.Crash != nil && r.Base <= r.Crash.CrashAt() {
		c.add(strictjson.Join(rp, "base"), "the base is what a number goes back to, so it must be above the crash line %d", r.Crash.CrashAt())
	}
}

// combatDice checks a handful of fight dice: 1–10 dice of 2–1000 sides.
func (c *checker) combatDice(path string, d CombatDice) {
	c.between(strictjson.Join(path, "count"), float64(d.Count), 1, 10)
	c.between(strictjson.Join(path, "sides"), float64(d.Sides), 2, 1000)
}

func (c *checker) checkAttackRoll(cb *Combat, path string) {
	ar := cb.AttackRoll
	if cb.pooled() {
		if ar != nil {
			c.add(path, `a "dice-pool" fight throws pools, so it rolls no attack dice`)
		}
	} else if ar == nil && cb.Kind == "attack-vs-defense" {
		c.add(path, `an "attack-vs-defense" fight needs attackRoll to say what an attack rolls`)
	}
	if ar == nil {
		return
	}
	c.combatDice(strictjson.Join(path, "dice"), ar.Dice)
	if ar.Critical != "" {
		c.oneOf(strictjson.Join(path, "critical"), ar.Critical, "double-dice", "max-dice", "none")
	}
	if n := ar.Naturals; n != nil {
		np := strictjson.Join(path, "naturals")
		if n.Max != "" {
			c.oneOf(strictjson.Join(np, "max"), n.Max, "critical", "hit", "none")
		}
		if n.Min != "" {
			c.oneOf(strictjson.Join(np, "min"), n.Min, "miss", "none")
		}
		if ar.Dice.Count != 1 && (n.Max != "" && n.Max != "none" || n.Min != "" && n.Min != "none") {
			c.add(np, "natural results need a single die; with several dice use none")
		}
	}
}

func (c *checker) checkCombatPool(cb *Combat, path string) {
	cp := cb.Pool
	if cb.pooled() {
		if cp == nil {
			c.add(path, `a "dice-pool" fight needs pool to say how it rolls damage`)
		}
		if c.rs.Resolution.Kind != "dice-pool" {
			c.add("combat.kind", `a "dice-pool" fight throws the ruleset's own pools, so resolution.kind must be "dice-pool" too`)
		}
	} else if cp != nil && cb.Kind == "attack-vs-defense" {
		c.add(path, `pool is for a "dice-pool" fight`)
	}
	if cp == nil {
		return
	}
	if cp.DamageTarget != nil {
		dp := strictjson.Join(path, "damageTarget")
		if c.between(dp, float64(*cp.DamageTarget), 2, 100) {
			if sides := c.poolDieSides(); sides > 0 && *cp.DamageTarget > sides {
				c.add(dp, "a %d-sided die never reaches %d", sides, *cp.DamageTarget)
			}
		}
	}
	if s := cp.Soak; s != nil {
		sp := strictjson.Join(path, "soak")
		if s.All == nil && s.ByKind == nil {
			c.add(sp, "soak takes something off: all, byKind or both")
		}
		if s.All != nil {
			c.valueRef(s.All, strictjson.Join(sp, "all"), readAll())
		}
		kinds := c.healthKinds(cb)
		for _, kind := range sortedKeys(s.ByKind) {
			kp := strictjson.Join(strictjson.Join(sp, "byKind"), kind)
			ref := s.ByKind[kind]
			c.valueRef(&ref, kp, readAll())
			c.healthKind(kp, kind, kinds)
		}
	}
	if cp.Hardness != nil {
		hp := strictjson.Join(path, "hardness")
		c.valueRef(cp.Hardness, hp, readAll())
		if !cb.spendsInitiative() {
			c.add(hp, hardnessNeedsSpending)
		}
	}
}

// healthKinds returns the kinds of the wound track health names, nil when health is not
// a wound track with kinds.
func (c *checker) healthKinds(cb *Combat) map[string]bool {
	if cb == nil || cb.Health.Track == "" {
		return nil
	}
	t := c.names.track(cb.Health.Track)
	if t == nil {
		return nil
	}
	m := map[string]bool{}
	for _, k := range t.Kinds {
		m[k.ID] = true
	}
	return m
}

// healthKind checks that kind is one of the health track's kinds.
func (c *checker) healthKind(path, kind string, kinds map[string]bool) {
	switch {
	case kinds == nil:
		c.add(path, "soak by kind needs health to be a wound track with kinds")
	case !kinds[kind]:
		c.add(path, "%q is not a kind of the health track", kind)
	}
}

// poolDieSides is the die a dice-pool ruleset throws, 0 for another kind.
func (c *checker) poolDieSides() int {
	r := &c.rs.Resolution
	if r.Kind != "dice-pool" {
		return 0
	}
	return poolSides(r)
}

func (c *checker) checkEconomy(e *Economy, path string) {
	bp := strictjson.Join(path, "budgets")
	c.count(bp, len(e.Budgets), 1, 8)
	c.unique(bp, "budget", len(e.Budgets), func(i int) string { return e.Budgets[i].ID })
	for i, b := range e.Budgets {
		p := strictjson.Join(bp, i)
		c.sheetID(strictjson.Join(p, "id"), b.ID)
		c.label(strictjson.Join(p, "label"), b.Label)
		c.oneOf(strictjson.Join(p, "per"), b.Per, "turn", "round")
		if b.Count != nil {
			c.between(strictjson.Join(p, "count"), float64(*b.Count), 1, 10)
		}
	}
	if e.Movement != nil {
		c.valueRef(e.Movement, strictjson.Join(path, "movement"), readAll())
	}
}

// budget checks that id names one of the fight's budgets.
func (c *checker) economyBudget(path, id string) {
	c.known(path, "budget", id, c.rs.Combat.budgetIDs()[id])
}

// checkBoard checks what a fight on a board reads: the cell, shots, cover and strikes
// at somebody walking away, none of which means anything without a cell.
func (c *checker) checkBoard(cb *Combat, at func(...any) string) {
	if d := cb.Distance; d != nil {
		c.usesOnce("a fight on a board", 28, at("distance"))
		c.promptText(at("distance", "label"), d.Label, 12)
		if d.PerCell <= 0 {
			c.add(at("distance", "perCell"), "must be above 0")
		}
	} else {
		for _, k := range []struct {
			key string
			set bool
		}{{"ranged", cb.Ranged != nil}, {"cover", cb.Cover != nil}, {"opportunity", cb.Opportunity != nil}} {
			if k.set {
				c.add(at(k.key), "%s is measured in cells, so the combat block needs distance too", k.key)
				break
			}
		}
	}
	if r := cb.Ranged; r != nil {
		if r.Long != "" {
			c.oneOf(at("ranged", "long"), r.Long, "disadvantage", "normal")
		}
		if r.AdjacentFoe != "" {
			c.oneOf(at("ranged", "adjacentFoe"), r.AdjacentFoe, "disadvantage", "normal")
		}
	}
	if cb.Cover != nil {
		c.between(at("cover", "bonus"), float64(cb.Cover.Bonus), 0, 100)
	}
	if cb.Opportunity != nil {
		c.economyBudget(at("opportunity", "budget"), cb.Opportunity.Budget)
	}
	if o := cb.OffHand; o != nil {
		c.economyBudget(at("offHand", "budget"), o.Budget)
		if o.Ability != "" {
			c.oneOf(at("offHand", "ability"), o.Ability, "full", "penalty-only")
		}
	}
}

func (c *checker) checkAttackSources(cb *Combat, path string) {
	c.count(path, len(cb.Attacks), 0, 8)
	for i := range cb.Attacks {
		c.checkAttackSource(cb, &cb.Attacks[i], strictjson.Join(path, i))
	}
}

func (c *checker) checkAttackSource(cb *Combat, a *AttackSource, path string) {
	at := func(keys ...any) string { return pathOf(path, keys...) }
	c.economyBudget(at("budget"), a.Budget)
	if a.Strikes != nil {
		c.usesOnce("strikes per spend", 29, at("strikes"))
		c.valueRef(a.Strikes, at("strikes"), readAll())
		if a.Strikes.Const != nil && *a.Strikes.Const < 1 {
			c.add(at("strikes", "const"), "one spend buys at least one strike")
		}
	} else if a.StrikesCappedBy != nil {
		c.add(at("strikesCappedBy"), "strikesCappedBy holds a row to one strike, and without strikes the list buys one strike a spend anyway")
	}
	if a.StrikesCappedBy != nil {
		c.usesOnce("strikesCappedBy", 32, at("strikesCappedBy"))
	}
	if a.ToHit.Skill != nil {
		c.usesOnce("an attack's skill column", 47, at("toHit", "skill"))
	}
	if a.Reach != nil || a.Range != nil {
		c.usesOnce("a fight on a board", 28, path)
	}
	if cb.Distance == nil {
		if a.Reach != nil {
			c.add(at("reach"), "reach is measured in cells, so the combat block needs distance too")
		}
		if a.Range != nil {
			c.add(at("range"), "range is measured in cells, so the combat block needs distance too")
		}
	}
	c.distanceSourceShape(a.Reach, at("reach"))
	if a.Range != nil {
		c.distanceSourceShape(&a.Range.Normal, at("range", "normal"))
		c.distanceSourceShape(a.Range.Long, at("range", "long"))
		n, l := a.Range.Normal.Const, a.Range.Long
		if n != nil && l != nil && l.Const != nil && *l.Const < *n {
			c.add(at("range", "long"), "the long distance is at least the ordinary one")
		}
	}
	l := c.names.list(a.List)
	if !c.known(at("list"), "list", a.List, l != nil) {
		return
	}
	c.columnOfType(at("name"), l, a.Name, "text")
	col := func(ref *ColumnRef, typ string, keys ...any) {
		if ref != nil {
			c.columnOfType(at(append(keys, "column")...), l, ref.Column, typ)
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
		if f := c.columnOfType(at("damage", "type", "column"), l, t.Column, ""); f != nil && f.Type != "text" && f.Type != "enum" {
			c.add(at("damage", "type", "column"), "column %q of list %q is a %s column, not text or enum", f.ID, l.ID, f.Type)
		}
	}
	for _, d := range []struct {
		src  *DistanceSource
		path string
	}{{a.Reach, at("reach")}, {rangeNormal(a.Range), at("range", "normal")}, {rangeLong(a.Range), at("range", "long")}} {
		if d.src != nil && d.src.Column != "" {
			c.columnOfType(strictjson.Join(d.path, "column"), l, d.src.Column, "number")
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
		c.add(path, "a distance names exactly one of: column, const")
	}
	if d.Const != nil {
		c.between(strictjson.Join(path, "const"), *d.Const, 0, combatMaxDistance)
	}
}

func (c *checker) checkAbilitySources(cb *Combat, path string) {
	c.count(path, len(cb.Abilities), 0, 8)
	for i := range cb.Abilities {
		a := &cb.Abilities[i]
		p := strictjson.Join(path, i)
		c.economyBudget(strictjson.Join(p, "budget"), a.Budget)
		c.rowFilter(p, RowFilter{List: a.List, OnlyWhen: a.OnlyWhen, AlwaysWhen: a.AlwaysWhen})
		if a.ToHit != nil {
			c.valueRef(a.ToHit, strictjson.Join(p, "toHit"), readAll())
		}
		if a.SaveDifficulty != nil {
			c.valueRef(a.SaveDifficulty, strictjson.Join(p, "saveDifficulty"), readAll())
		}
	}
}

// rowFilter checks a list whose catalog-marked rows a fight reads, and the two columns
// that filter them.
func (c *checker) rowFilter(path string, f RowFilter) {
	l := c.names.list(f.List)
	if !c.known(strictjson.Join(path, "list"), "list", f.List, l != nil) {
		return
	}
	if f.OnlyWhen != "" {
		c.columnOfType(strictjson.Join(path, "onlyWhen"), l, f.OnlyWhen, "boolean")
	}
	aw := f.AlwaysWhen
	if aw == nil {
		return
	}
	ap := strictjson.Join(path, "alwaysWhen")
	if f.OnlyWhen == "" {
		c.add(ap, "alwaysWhen is the exception to onlyWhen, so it needs onlyWhen beside it")
	}
	col := c.columnOfType(strictjson.Join(ap, "column"), l, aw.Column, "")
	switch v := aw.Equals.(type) {
	case string:
		c.maxLen(strictjson.Join(ap, "equals"), v, 4000)
	case float64, bool:
	default:
		c.add(strictjson.Join(ap, "equals"), "expected a string, number or boolean")
		return
	}
	if col != nil {
		if msg := col.refusesScalar(aw.Equals); msg != "" {
			c.add(strictjson.Join(ap, "equals"), "column %q %s", col.ID, msg)
		}
	}
}

func (c *checker) checkStandard(cb *Combat, at func(...any) string) {
	c.count(at("standard"), len(cb.Standard), 0, 6)
	seen := map[string]bool{}
	for i, s := range cb.Standard {
		p := at("standard", i)
		c.oneOf(p, s, standardActions...)
		if seen[s] {
			c.add(p, "standard action %q is listed twice", s)
		}
		seen[s] = true
	}
	se := cb.StandardEffects
	if se == nil || se.Dodge == nil {
		return
	}
	dp := at("standardEffects", "dodge")
	if !seen["dodge"] {
		c.add(dp, "this ruleset's standard actions have no dodge for these saves to belong to")
	}
	sp := strictjson.Join(dp, "saves")
	c.count(sp, len(se.Dodge.Saves), 1, 12)
	for i, s := range se.Dodge.Saves {
		c.known(strictjson.Join(sp, i), "save", s, c.names.save(s) != nil)
	}
}

func (c *checker) checkConditions(cb *Combat, path string) {
	c.count(path, len(cb.Conditions), 0, 80)
	seen := map[string]bool{}
	for i := range cb.Conditions {
		e := &cb.Conditions[i]
		p := strictjson.Join(path, i)
		cp := strictjson.Join(p, "condition")
		if c.knownCondition(cp, e.Condition) && seen[e.Condition] {
			c.add(cp, "condition %q is mapped twice", e.Condition)
		}
		seen[e.Condition] = true
		c.effects(p, e.vocab(), cb.pooled(), false)
		if e.EndsWhenSourceDown {
			c.usesOnce("conditions that end when their source goes down", 29, strictjson.Join(p, "endsWhenSourceDown"))
		}
		wp := strictjson.Join(p, "whileSourceInSight")
		switch v := e.WhileSourceInSight.(type) {
		case nil:
		case bool:
			c.usesOnce("conditions that hold while their source is in sight", 29, wp)
			if !v {
				c.add(wp, "whileSourceInSight is true or a list of the condition's own effects")
			}
		case []any:
			c.usesOnce("conditions that hold while their source is in sight", 29, wp)
			c.count(wp, len(v), 1, 12)
			for j, x := range v {
				ep := strictjson.Join(wp, j)
				s, ok := x.(string)
				if !ok {
					c.add(ep, "expected a string")
					continue
				}
				if c.oneOf(ep, s, conditionEffects...) && !slices.Contains(e.Effects, s) {
					c.add(ep, "this condition does not have the effect %q to hold back", s)
				}
			}
		default:
			c.add(wp, "whileSourceInSight is true or a list of the condition's own effects")
		}
	}
}

func (c *checker) checkLevels(cb *Combat, path string) {
	c.count(path, len(cb.Levels), 0, 20)
	if len(cb.Levels) > 0 {
		c.usesOnce("combat levels", 45, path)
	}
	seen := map[string]bool{}
	for i := range cb.Levels {
		e := &cb.Levels[i]
		p := strictjson.Join(path, i)
		c.between(strictjson.Join(p, "at"), float64(e.At), 1, 1000)
		if (e.Track == "") == (e.Derived == "") {
			c.add(strictjson.Join(p, "track"), "a level reads a live track or a derived value: exactly one of the two")
		}
		read := e.Track
		if e.Derived != "" {
			read = e.Derived
			c.usesOnce("a level that reads a derived value", 54, strictjson.Join(p, "derived"))
			_, ok := c.names.derivedIndex[e.Derived]
			c.known(strictjson.Join(p, "derived"), "derived value", e.Derived, ok)
		} else if e.Track != "" {
			tp := strictjson.Join(p, "track")
			if t := c.names.track(e.Track); c.known(tp, "live track", e.Track, t != nil) {
				if t.IsWound() {
					c.add(tp, "track %q is a wound track; a level reads a plain track's number", e.Track)
				} else if t.MaxNumber != nil && e.At > *t.MaxNumber {
					c.add(strictjson.Join(p, "at"), "track %q goes up to %d, so level %d is never reached", e.Track, *t.MaxNumber, e.At)
				}
			}
		}
		key := fmt.Sprintf("track:%s@%d", read, e.At)
		if e.Derived != "" {
			key = "derived:" + key
		}
		if read != "" && seen[key] {
			c.add(strictjson.Join(p, "at"), "level %d of %q is given twice", e.At, read)
		}
		seen[key] = true
		for j, eff := range e.Effects {
			if slices.Contains(levelRefused, eff) {
				c.add(strictjson.Join(strictjson.Join(p, "effects"), j), "a level cannot have %q: nobody put it on, and it ends only when what it reads goes down", eff)
			}
		}
		if len(e.Effects) == 0 && e.Modifiers == nil && e.FailsSaves == nil {
			c.add(strictjson.Join(p, "effects"), "a level does something: effects, modifiers or saves it fails")
		}
		c.effects(p, e.vocab(), cb.pooled(), false)
	}
}

// effects checks the condition vocabulary wherever it is spoken (a combat condition, a
// level, an item's worn or carried effect): known effects, well-formed modifiers, known
// saves and skills, and scoping keys that have something to scope. A dice-pool fight
// takes a flat number of dice, never rolled dice; items pass pooled=false and check that
// themselves where it applies.
func (c *checker) effects(path string, e *Effects, pooled, item bool) {
	ep := strictjson.Join(path, "effects")
	c.count(ep, len(e.Effects), 0, 12)
	for i, eff := range e.Effects {
		p := strictjson.Join(ep, i)
		if !c.oneOf(p, eff, conditionEffects...) {
			continue
		}
		switch {
		case item:
		case slices.Contains(effectsSince1_45, eff):
			c.usesOnce("check effects", 45, p)
		case slices.Contains(effectsSince1_29, eff):
			c.usesOnce("the 1.29 condition effects", 29, p)
		}
	}
	if e.Modifiers != nil {
		mp := strictjson.Join(path, "modifiers")
		c.count(mp, len(e.Modifiers), 1, 6)
		if !item {
			c.usesOnce("condition modifiers", 45, mp)
		}
		for i := range e.Modifiers {
			c.modifier(strictjson.Join(mp, i), &e.Modifiers[i], pooled)
		}
	}
	c.idList(strictjson.Join(path, "failsSaves"), e.FailsSaves, 12, "save", func(id string) bool { return c.names.save(id) != nil })
	c.idList(strictjson.Join(path, "saves"), e.Saves, 12, "save", func(id string) bool { return c.names.save(id) != nil })
	c.idList(strictjson.Join(path, "skills"), e.Skills, 24, "skill", func(id string) bool { return c.names.skill(id) != nil })
	if e.Saves != nil {
		if !item {
			c.usesOnce("conditions narrowed to saves", 29, strictjson.Join(path, "saves"))
		}
		if !e.hasScoped(saveScoped, "saves") {
			c.add(strictjson.Join(path, "saves"), "saves narrows own-saves-advantage, own-saves-disadvantage and modifiers to saves, and none of them is here")
		}
	}
	if e.Skills != nil {
		if !item {
			c.usesOnce("conditions narrowed to skills", 53, strictjson.Join(path, "skills"))
		}
		if !e.hasScoped(checkScoped, "checks") {
			c.add(strictjson.Join(path, "skills"), "skills narrows own-checks-advantage, own-checks-disadvantage and modifiers to checks, and none of them is here")
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

// idList checks an optional list of 1..max sheet ids that must each name something.
func (c *checker) idList(path string, ids []string, max int, what string, ok func(string) bool) {
	if ids == nil {
		return
	}
	c.count(path, len(ids), 1, max)
	for i, id := range ids {
		c.known(strictjson.Join(path, i), what, id, ok(id))
	}
}

// modifier checks one number a condition changes.
func (c *checker) modifier(path string, m *Modifier, pooled bool) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.oneOf(at("to"), m.To, modifierTargets...)
	if m.Flat == nil && m.Dice == "" && m.Times == nil && m.Mode == "" {
		c.add(at("to"), "a modifier changes its number by flat, by dice, for speed by times, or for checks and saves by mode")
	}
	if m.Flat != nil {
		if *m.Flat == 0 {
			c.add(at("flat"), "a flat change of 0 changes nothing")
		} else {
			c.between(at("flat"), float64(*m.Flat), -100, 100)
		}
	}
	if m.Dice != "" {
		c.dice(at("dice"), m.Dice)
		if !slices.Contains(rolledModTargets, m.To) {
			c.add(at("dice"), "dice are rolled, so they change only attacks, saves or checks")
		}
		if pooled {
			c.add(at("dice"), `a "dice-pool" fight adds dice to a pool, so a modifier gives a flat number of dice`)
		}
	}
	if m.Minus != nil && (!*m.Minus || m.Dice == "") {
		c.add(at("minus"), "minus is true and takes dice away, so it needs dice beside it")
	}
	if m.Times != nil {
		if *m.Times != 0.5 && *m.Times != 2 {
			c.add(at("times"), "times is 0.5 or 2")
		}
		if m.To != "speed" {
			c.add(at("times"), "times changes speed only")
		}
	}
	if m.Skills != nil {
		c.usesOnce("modifiers narrowed to skills", 53, at("skills"))
		c.idList(at("skills"), m.Skills, 24, "skill", func(id string) bool { return c.names.skill(id) != nil })
		if m.To != "checks" {
			c.add(at("skills"), "skills narrows a change to checks")
		}
	}
	if m.Saves != nil {
		c.usesOnce("modifiers narrowed to saves", 53, at("saves"))
		c.idList(at("saves"), m.Saves, 12, "save", func(id string) bool { return c.names.save(id) != nil })
		if m.To != "saves" {
			c.add(at("saves"), "saves narrows a change to saves")
		}
	}
	if m.Mode != "" {
		c.usesOnce("modifier modes", 53, at("mode"))
		c.oneOf(at("mode"), m.Mode, "advantage", "disadvantage")
		if m.To != "checks" && m.To != "saves" {
			c.add(at("mode"), "mode rolls checks or saves twice, so it changes nothing else")
		}
	}
}

// knownCondition checks that id names one of the sheet's live conditions.
func (c *checker) knownCondition(path, id string) bool {
	return c.known(path, "condition", id, c.names.condition(id) != nil)
}

func (c *checker) checkContests(cb *Combat, at func(...any) string) {
	cp := at("checks")
	c.count(cp, len(cb.Checks), 0, 12)
	if len(cb.Checks)+len(cb.Contests) > 0 {
		c.usesOnce("contests", 43, at())
	}
	c.unique(cp, "contest check", len(cb.Checks), func(i int) string { return cb.Checks[i].ID })
	checks := map[string]bool{}
	for i, ch := range cb.Checks {
		p := strictjson.Join(cp, i)
		c.sheetID(strictjson.Join(p, "id"), ch.ID)
		c.label(strictjson.Join(p, "label"), ch.Label)
		c.valueRef(&cb.Checks[i].Value, strictjson.Join(p, "value"), readAll())
		checks[ch.ID] = true
	}
	kp := at("contests")
	c.count(kp, len(cb.Contests), 0, 12)
	c.unique(kp, "contest", len(cb.Contests), func(i int) string { return cb.Contests[i].ID })
	for i := range cb.Contests {
		k := &cb.Contests[i]
		p := strictjson.Join(kp, i)
		pk := func(keys ...any) string { return pathOf(p, keys...) }
		c.sheetID(pk("id"), k.ID)
		c.label(pk("label"), k.Label)
		c.economyBudget(pk("budget"), k.Budget)
		if k.Strike != nil && !*k.Strike {
			c.add(pk("strike"), "strike is true or left out")
		}
		if k.Reach != nil {
			if *k.Reach <= 0 || *k.Reach > combatMaxDistance {
				c.add(pk("reach"), "%s is out of range: above 0 and at most %s", num(*k.Reach), num(combatMaxDistance))
			}
			if cb.Distance == nil {
				c.add(pk("reach"), "reach is measured in cells, so the combat block needs distance too")
			}
		}
		for _, side := range []struct {
			key string
			s   ContestSide
		}{{"attacker", k.Attacker}, {"defender", k.Defender}} {
			sp := pk(side.key, "checks")
			c.count(sp, len(side.s.Checks), 1, 4)
			seen := map[string]bool{}
			for j, id := range side.s.Checks {
				cp := strictjson.Join(sp, j)
				if c.known(cp, "contest check", id, checks[id]) && seen[id] {
					c.add(cp, "check %q is listed twice", id)
				}
				seen[id] = true
			}
		}
		if k.Ties != "" {
			c.oneOf(pk("ties"), k.Ties, "defender", "attacker")
		}
		if k.From != nil {
			c.knownCondition(pk("from", "holding"), k.From.Holding)
		}
		w := &k.OnWin
		if w.Applies == nil && w.Ends == nil && w.Push == nil {
			c.add(pk("onWin"), "winning a contest applies, ends or pushes something")
		}
		if w.Applies != nil {
			c.count(pk("onWin", "applies"), len(w.Applies), 1, 4)
		}
		for j, a := range w.Applies {
			ap := pk("onWin", "applies", j)
			if c.knownCondition(strictjson.Join(ap, "condition"), a.Condition) && k.From != nil && a.Condition == k.From.Holding {
				c.add(strictjson.Join(ap, "condition"), "a contest that breaks free of %q cannot also apply it", a.Condition)
			}
			if a.Rounds != nil {
				c.between(strictjson.Join(ap, "rounds"), float64(*a.Rounds), 1, 100)
			}
		}
		if w.Ends != nil {
			c.count(pk("onWin", "ends"), len(w.Ends), 1, 4)
		}
		for j, e := range w.Ends {
			ep := pk("onWin", "ends", j)
			c.knownCondition(strictjson.Join(ep, "condition"), e.Condition)
			c.oneOf(strictjson.Join(ep, "on"), e.On, "actor", "target")
		}
		if w.Push != nil {
			if *w.Push <= 0 || *w.Push > combatMaxDistance {
				c.add(pk("onWin", "push"), "%s is out of range: above 0 and at most %s", num(*w.Push), num(combatMaxDistance))
			}
			if cb.Distance == nil {
				c.add(pk("onWin", "push"), "push is measured in cells, so the combat block needs distance too")
			}
		}
	}
}

func (c *checker) checkConcentration(k *Concentration, path string) {
	if k == nil {
		return
	}
	tp := strictjson.Join(path, "text")
	c.known(tp, "live text", k.Text, c.names.liveText(k.Text) != nil)
	c.known(strictjson.Join(path, "save"), "save", k.Save, c.names.save(k.Save) != nil)
	c.between(strictjson.Join(path, "floor"), float64(k.Floor), 0, 100)
	if k.FromDamage <= 0 || k.FromDamage > 1 {
		c.add(strictjson.Join(path, "fromDamage"), "%s is out of range: above 0 and at most 1", num(k.FromDamage))
	}
}

func (c *checker) checkDying(d *Dying, path string) {
	if d == nil {
		return
	}
	at := func(k string) string { return strictjson.Join(path, k) }
	c.oneOf(at("kind"), d.Kind, "saves")
	for _, k := range []struct{ key, id string }{{"successes", d.Successes}, {"failures", d.Failures}} {
		t := c.names.track(k.id)
		if !c.known(at(k.key), "live track", k.id, t != nil) {
			continue
		}
		switch {
		case t.IsWound():
			c.add(at(k.key), "track %q is a wound track, not a counter of death saves", k.id)
		case t.MaxNumber == nil:
			c.add(at(k.key), "track %q counts death saves, so its max is a number, not a value the sheet works out", k.id)
		case *t.MaxNumber <= t.Min || *t.MaxNumber < 1:
			c.add(at(k.key), "track %q counts death saves, so its max is at least 1 and above its min", k.id)
		}
		if !t.IsWound() && t.HideWhen != nil {
			c.add(at(k.key), "track %q counts death saves, so it cannot be hidden", k.id)
		}
	}
	if d.Successes != "" && d.Successes == d.Failures {
		c.add(at("failures"), "successes and failures are counted on two different tracks")
	}
	c.combatDice(at("dice"), d.Dice)
	c.between(at("succeedAt"), float64(d.SucceedAt), 1, 1000)
	if n := d.Naturals; n != nil {
		np := at("naturals")
		if n.Max != "" {
			c.oneOf(strictjson.Join(np, "max"), n.Max, "revive-1", "success", "none")
		}
		if n.Min != "" {
			c.oneOf(strictjson.Join(np, "min"), n.Min, "two-failures", "one-failure", "none")
		}
		if d.Dice.Count != 1 && (n.Max != "" && n.Max != "none" || n.Min != "" && n.Min != "none") {
			c.add(np, "natural results need a single die; with several dice use none")
		}
	}
	if d.DamageWhileDown != "" {
		c.oneOf(at("damageWhileDown"), d.DamageWhileDown, dyingWhileDown...)
	}
	if d.CriticalWhileDown != "" {
		c.oneOf(at("criticalWhileDown"), d.CriticalWhileDown, dyingWhileDown...)
	}
	if d.Condition != "" {
		c.knownCondition(at("condition"), d.Condition)
	}
}

func (c *checker) checkDamageTypes(cb *Combat, healthTrack string, at func(...any) string) {
	tp := at("damageTypes")
	c.count(tp, len(cb.DamageTypes), 0, 40)
	declared := map[string]bool{}
	for i, t := range cb.DamageTypes {
		p := strictjson.Join(tp, i)
		c.promptText(p, t, 40)
		key := damageTypeKey(t)
		if declared[key] {
			c.add(p, "damage type %q is listed twice", t)
		}
		declared[key] = true
	}
	dk := cb.DamageKinds
	kp := at("damageKinds")
	if dk != nil {
		c.usesOnce("combat damage kinds", 30, kp)
		c.oneOf(strictjson.Join(kp, "marks"), dk.Marks, "per-blow", "per-point")
	}
	switch {
	case healthTrack != "":
		if dk == nil {
			c.add(kp, "health is the wound track %q, so damageKinds must say what kind of harm damage marks", healthTrack)
			return
		}
		kinds := c.healthKinds(cb)
		if c.sheetID(strictjson.Join(kp, "default"), dk.Default) && !kinds[dk.Default] {
			c.add(strictjson.Join(kp, "default"), "%q is not a kind of %q", dk.Default, healthTrack)
		}
		mapped := map[string]bool{}
		for _, t := range sortedKeys(dk.ByType) {
			p := strictjson.Join(strictjson.Join(kp, "byType"), t)
			key := damageTypeKey(t)
			if mapped[key] {
				c.add(p, "damage type %q is mapped twice (types match without case)", t)
			}
			mapped[key] = true
			if cb.DamageTypes != nil && !declared[key] {
				c.add(p, "unknown damage type %q", t)
			}
			if k := dk.ByType[t]; c.sheetID(p, k) && !kinds[k] {
				c.add(p, "%q is not a kind of %q", k, healthTrack)
			}
		}
	case cb.Health.Pool != "" && dk != nil:
		c.add(kp, "damageKinds maps damage onto a wound track's kinds, and health is a pool; point health at a wound track if the kind of a wound matters")
	}
}

func (c *checker) checkThreat(t *Threat, path string) {
	if t == nil {
		return
	}
	tp := strictjson.Join(path, "tiers")
	c.count(tp, len(t.Tiers), 1, 40)
	c.unique(tp, "threat tier", len(t.Tiers), func(i int) string { return t.Tiers[i].ID })
	for i, tier := range t.Tiers {
		p := strictjson.Join(tp, i)
		at := func(k string) string { return strictjson.Join(p, k) }
		c.sheetID(at("id"), tier.ID)
		c.label(at("label"), tier.Label)
		for _, band := range []struct {
			key    string
			v      [2]int
			lo, hi float64
		}{{"health", tier.Health, 1, 100000}, {"damagePerRound", tier.DamagePerRound, 0, 10000}} {
			c.between(fmt.Sprintf("%s[0]", at(band.key)), float64(band.v[0]), band.lo, band.hi)
			c.between(fmt.Sprintf("%s[1]", at(band.key)), float64(band.v[1]), band.lo, band.hi)
			if band.v[0] > band.v[1] {
				c.add(fmt.Sprintf("%s[0]", at(band.key)), "the lowest is above the highest")
			}
		}
		c.between(at("defense"), float64(tier.Defense), 0, 100)
		c.between(at("toHit"), float64(tier.ToHit), -20, 50)
		c.between(at("saveDifficulty"), float64(tier.SaveDifficulty), 0, 100)
	}
}

func (c *checker) checkSpendLimits(ls []SpendLimit, path string) {
	if ls == nil {
		return
	}
	c.usesOnce("spend limits", 47, path)
	c.count(path, len(ls), 1, 12)
	seen := map[string]bool{}
	for i := range ls {
		l := &ls[i]
		p := strictjson.Join(path, i)
		pp := strictjson.Join(p, "pool")
		if c.declaredPool(pp, l.Pool) && seen[l.Pool] {
			c.add(pp, "pool %q is limited twice", l.Pool)
		}
		seen[l.Pool] = true
		c.valueRef(&l.Max, strictjson.Join(p, "max"), readAll())
		c.oneOf(strictjson.Join(p, "per"), l.Per, "turn", "round")
	}
}

// declaredPool checks that id names a declared live pool (not a list whose rows are
// pools): health, energy, slots and spend limits are declared pools only.
func (c *checker) declaredPool(path, id string) bool {
	if !c.sheetID(path, id) {
		return false
	}
	if c.names.pool(id) != nil {
		return true
	}
	if l := c.names.list(id); l != nil && l.Pools != nil {
		c.add(path, "%q is a list whose rows are pools, not a live pool", id)
	} else {
		c.add(path, "unknown live pool %q", id)
	}
	return false
}

// fightHealth checks a health block shared by battle and combat: one declared pool that
// starts full, or one wound track. It returns the wound track's id when it names one.
func (c *checker) fightHealth(path string, h Health) string {
	if (h.Pool == "") == (h.Track == "") {
		c.add(path, "health names exactly one of: pool, track")
		return ""
	}
	if h.Track != "" {
		tp := strictjson.Join(path, "track")
		t := c.names.track(h.Track)
		if !c.known(tp, "live track", h.Track, t != nil) {
			return ""
		}
		if !t.IsWound() {
			c.add(tp, "track %q has no levels or boxes, so a fight has nothing to mark on it", h.Track)
			return ""
		}
		return h.Track
	}
	pp := strictjson.Join(path, "pool")
	if c.declaredPool(pp, h.Pool) && !c.names.pool(h.Pool).StartsFull() {
		c.add(pp, "pool %q starts empty, so it cannot be the health pool", h.Pool)
	}
	return ""
}
