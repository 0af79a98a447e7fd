package fight

import (
	"sheetkeeper/ruleset/rules"
	"strings"
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
	Defense    rules.ValueRef `json:"defense"`
	Initiative Initiative     `json:"initiative"`
	AttackRoll *AttackRoll    `json:"attackRoll,omitempty"`
	Pool       *CombatPool    `json:"pool,omitempty"`
	Economy    Economy        `json:"economy"`
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
	Modifier *rules.ValueRef     `json:"modifier,omitempty"`
	Pool     *rules.ValueRef     `json:"pool,omitempty"`
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
	OnMiss rules.StepTable `json:"onMiss,omitempty"`
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
	Advantage    bool            `json:"advantage,omitempty"`
	DamageTarget *int            `json:"damageTarget,omitempty"`
	Soak         *PoolSoak       `json:"soak,omitempty"`
	Hardness     *rules.ValueRef `json:"hardness,omitempty"`
}

// PoolSoak is what a target takes off a hit's harm: All for any kind, ByKind per kind of
// the health track (winning over All); Roll throws it as dice instead of taking it off.
type PoolSoak struct {
	Roll   bool                      `json:"roll"`
	All    *rules.ValueRef           `json:"all,omitempty"`
	ByKind map[string]rules.ValueRef `json:"byKind,omitempty"`
}

// Economy is what a turn may hold. The first budget is the main one, which a standard
// action spends.
type Economy struct {
	Budgets  []Budget        `json:"budgets"`
	Movement *rules.ValueRef `json:"movement,omitempty"`
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
	Strikes *rules.ValueRef `json:"strikes,omitempty"`
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
	List           string          `json:"list"`
	OnlyWhen       string          `json:"onlyWhen,omitempty"`
	AlwaysWhen     *AlwaysWhen     `json:"alwaysWhen,omitempty"`
	Budget         string          `json:"budget"`
	ToHit          *rules.ValueRef `json:"toHit,omitempty"`
	SaveDifficulty *rules.ValueRef `json:"saveDifficulty,omitempty"`
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
	ID    string         `json:"id"`
	Label string         `json:"label"`
	Value rules.ValueRef `json:"value"`
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
	Pool string         `json:"pool"`
	Max  rules.ValueRef `json:"max"`
	Per  string         `json:"per"`
}

// The closed vocabularies of a fight.
var (
	// StandardActions are the standard actions a combat block may offer and an entry give.
	StandardActions  = []string{"dash", "disengage", "dodge", "help", "hide", "ready"}
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

// MaxDistance bounds every distance a fight reads, in the ruleset's own unit.
const MaxDistance = 10000.0

// DamageTypeKey is how a damage type is matched: trimmed, without case.
func DamageTypeKey(t string) string { return strings.ToLower(strings.TrimSpace(t)) }

// DamageTypeSet returns the declared damage types keyed for matching, or nil when the
// ruleset declares none (then any type is free text).
func (cb *Combat) DamageTypeSet() map[string]bool {
	if cb == nil || cb.DamageTypes == nil {
		return nil
	}
	m := make(map[string]bool, len(cb.DamageTypes))
	for _, t := range cb.DamageTypes {
		m[DamageTypeKey(t)] = true
	}
	return m
}

// DamageType reports whether t is a damage type the fight knows: always true when the
// ruleset declares none.
func (cb *Combat) DamageType(t string) bool {
	types := cb.DamageTypeSet()
	return types == nil || types[DamageTypeKey(t)]
}

// BudgetIDs returns the ids of the action economy's budgets, nil without a combat block.
func (cb *Combat) BudgetIDs() map[string]bool {
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

// SpendsInitiative reports whether initiative is a number attacks move with a style
// that spends it: the only blow hardness stops.
func (cb *Combat) SpendsInitiative() bool {
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

// HardnessNeedsSpending is said wherever hardness is given without a blow it could stop.
const HardnessNeedsSpending = "hardness only stops a spending blow, so initiative must be a resource with a style that spends"

// Pooled reports a dice-pool fight.
func (cb *Combat) Pooled() bool { return cb != nil && cb.Kind == "dice-pool" }

// HasTier reports whether the threat scale has tier id.
func (cb *Combat) HasTier(id string) bool {
	if cb.Threat == nil {
		return false
	}
	for _, t := range cb.Threat.Tiers {
		if t.ID == id {
			return true
		}
	}
	return false
}

// HasCheck reports whether the combat block declares contest check id.
func (cb *Combat) HasCheck(id string) bool {
	for _, ch := range cb.Checks {
		if ch.ID == id {
			return true
		}
	}
	return false
}
