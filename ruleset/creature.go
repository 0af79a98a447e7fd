package ruleset

import (
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/strictjson"
)

// Creature is an opponent a bestiary catalog ships (`holds: "creatures"`), written in
// exactly the numbers a fight reads and in the ruleset's own names: the budgets its
// actions spend, the saves it rolls, the conditions it shrugs off, the damage types its
// hide answers to and the threat tier it sits on. It is either a plain block (health,
// defense, initiative and at least one action) or a Sheet in the ruleset's own terms,
// which then gives those numbers instead.
type Creature struct {
	// Health is a whole number or {dice, flat} thrown once when the fight is created;
	// decoded into HealthValue while checking.
	Health             strictjson.Raw `json:"health,omitempty"`
	Defense            *int           `json:"defense,omitempty"`
	Speed              *float64       `json:"speed,omitempty"`
	InitiativeModifier *int           `json:"initiativeModifier,omitempty"`
	// Abilities, Saves and Checks are keyed by the sheet's ability and save ids and the
	// combat block's contest checks; one it does not name is zero.
	Abilities map[string]int `json:"abilities,omitempty"`
	Saves     map[string]int `json:"saves,omitempty"`
	Checks    map[string]int `json:"checks,omitempty"`
	Soak      *CreatureSoak  `json:"soak,omitempty"`
	Hardness  *int           `json:"hardness,omitempty"`
	// Resist and Immune hold damage types, each a word or {type, except}; decoded into
	// ResistTo and ImmuneTo while checking.
	Resist              []strictjson.Raw `json:"resist,omitempty"`
	Vulnerable          []string         `json:"vulnerable,omitempty"`
	Immune              []strictjson.Raw `json:"immune,omitempty"`
	ConditionImmunities []string         `json:"conditionImmunities,omitempty"`
	// Tier is the rung of combat.threat the creature is filed under.
	Tier string `json:"tier"`
	// Traits are lines the GM is shown and nothing resolves.
	Traits          []CreatureTrait  `json:"traits,omitempty"`
	SignaturePoints *int             `json:"signaturePoints,omitempty"`
	Actions         []CreatureAction `json:"actions,omitempty"`
	Riders          []CreatureRider  `json:"riders,omitempty"`
	Sheet           *CreatureSheet   `json:"sheet,omitempty"`
	// Loot names one of items.lootTables a won fight rolls for it.
	Loot string `json:"loot,omitempty"`

	HealthValue *CreatureHealth `json:"-"`
	ResistTo    []HideEntry     `json:"-"`
	ImmuneTo    []HideEntry     `json:"-"`
}

// CreatureHealth is what a creature can take: Fixed, or Dice (+ Flat) thrown once.
type CreatureHealth struct {
	Fixed int    `json:"-"`
	Dice  string `json:"dice"`
	Flat  *int   `json:"flat,omitempty"`
}

// HideEntry is one damage type a creature resists or ignores, and the item tags a blow
// gets through it with.
type HideEntry struct {
	Type   string   `json:"type"`
	Except []string `json:"except"`
}

// CreatureSoak is what a creature soaks in a dice-pool fight: All for any harm, ByKind
// per kind of the health track (winning over All).
type CreatureSoak struct {
	All    *int           `json:"all,omitempty"`
	ByKind map[string]int `json:"byKind,omitempty"`
}

// CreatureTrait is a short line the GM is shown; anything with numbers belongs in an
// action.
type CreatureTrait struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// CreatureAction is one thing a creature does, in plain numbers even on a creature with
// a sheet.
type CreatureAction struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Budget string `json:"budget"`
	ToHit  *int   `json:"toHit,omitempty"`
	// AutoHit lands the amount with no roll.
	AutoHit *bool           `json:"autoHit,omitempty"`
	Damage  *CreatureDamage `json:"damage,omitempty"`
	Save    *CreatureSave   `json:"save,omitempty"`
	// SaveDifficulty is what a save that ends one of Applies is rolled against when the
	// action has no save of its own.
	SaveDifficulty *int               `json:"saveDifficulty,omitempty"`
	Applies        []AppliedCondition `json:"applies,omitempty"`
	TargetCount    *int               `json:"targetCount,omitempty"`
	Reach          *float64           `json:"reach,omitempty"`
	// RawRange is a plain distance or {normal, long}; decoded into Range.
	RawRange  strictjson.Raw    `json:"range,omitempty"`
	Area      *CreatureArea     `json:"area,omitempty"`
	Uses      *ActionUses       `json:"uses,omitempty"`
	Recharge  *Recharge         `json:"recharge,omitempty"`
	Sequence  []SequenceStep    `json:"sequence,omitempty"`
	Signature *SignatureCost    `json:"signature,omitempty"`
	Reaction  *ReactionMoment   `json:"reaction,omitempty"`
	Self      *bool             `json:"self,omitempty"`
	Range     *CreatureDistance `json:"-"`
}

// CreatureDamage is what an action does to what it reaches, and more clauses on the same
// blow, each rolled and typed on its own.
type CreatureDamage struct {
	Dice string         `json:"dice,omitempty"`
	Flat *int           `json:"flat,omitempty"`
	Type string         `json:"type,omitempty"`
	Plus []DamageClause `json:"plus,omitempty"`
}

// CreatureSave is a save the action forces, against its own difficulty: a stat block has
// no sheet to read one off.
type CreatureSave struct {
	Save       string `json:"save"`
	Difficulty int    `json:"difficulty"`
	OnSuccess  string `json:"onSuccess"`
}

// CreatureDistance is how far an action is thrown or shot, and how far it still carries.
type CreatureDistance struct {
	Normal float64  `json:"normal"`
	Long   *float64 `json:"long,omitempty"`
}

// CreatureArea is the shape an action lands in; FriendlyFire false spares its own side.
type CreatureArea struct {
	Shape        string  `json:"shape"`
	Size         float64 `json:"size"`
	FriendlyFire *bool   `json:"friendlyFire,omitempty"`
}

// ActionUses limits an action to Count uses per "encounter" or "day".
type ActionUses struct {
	Per   string `json:"per"`
	Count int    `json:"count"`
}

// Recharge brings a spent action back when Dice roll From or higher at the start of the
// creature's turn.
type Recharge struct {
	Dice fight.CombatDice `json:"dice"`
	From int              `json:"from"`
}

// SequenceStep is another action of the same block, made Times times (1 by default).
type SequenceStep struct {
	Action string `json:"action"`
	Times  *int   `json:"times,omitempty"`
}

// SignatureCost buys an action out of the creature's signature points.
type SignatureCost struct {
	Cost int `json:"cost"`
}

// CreatureRider adds one damage clause to the first qualifying hit of a turn or round,
// by itself; Actions narrows it to some of the block's actions.
type CreatureRider struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	On      string   `json:"on"`
	When    []string `json:"when,omitempty"`
	OncePer string   `json:"oncePer"`
	Amount  Amount   `json:"amount"`
	Type    string   `json:"type,omitempty"`
	Actions []string `json:"actions,omitempty"`
}

// CreatureSheet is a creature written as a character sheet in the ruleset's own terms,
// as partial as it likes; a fight builds it the way it builds a party member.
type CreatureSheet struct {
	Abilities map[string]float64          `json:"abilities,omitempty"`
	Skills    map[string]string           `json:"skills,omitempty"`
	Saves     map[string]string           `json:"saves,omitempty"`
	Bonuses   map[string]float64          `json:"bonuses,omitempty"`
	Fields    map[string]any              `json:"fields,omitempty"`
	Lists     map[string][]map[string]any `json:"lists,omitempty"`
}

// Creature limits from the schema.
const (
	maxCreatureActions = 12
	maxCreatureRiders  = 4
	maxCreatureRows    = 500
	catalogRowKey      = "_catalog"
)

// sequenceRefuses are the keys a sequence may not carry: it resolves the actions it
// names, so anything of its own would be a second thing one budget did.
var sequenceRefuses = []string{"toHit", "autoHit", "damage", "save", "saveDifficulty", "applies", "targetCount", "area", "reaction", "self"}

// present says which optional keys of the action are set, by JSON name.
func (a *CreatureAction) present() map[string]bool {
	return map[string]bool{
		"toHit": a.ToHit != nil, "autoHit": a.AutoHit != nil, "damage": a.Damage != nil, "save": a.Save != nil,
		"saveDifficulty": a.SaveDifficulty != nil, "applies": a.Applies != nil, "targetCount": a.TargetCount != nil,
		"area": a.Area != nil, "reaction": a.Reaction != nil, "self": a.Self != nil,
	}
}

// sheetGives are the keys a creature's sheet says for it; given beside a sheet they
// would be a second place one number comes from.
func (cr *Creature) sheetGives() []struct {
	key string
	set bool
} {
	return []struct {
		key string
		set bool
	}{{"health", cr.Health != nil}, {"defense", cr.Defense != nil}, {"initiativeModifier", cr.InitiativeModifier != nil},
		{"speed", cr.Speed != nil}, {"abilities", cr.Abilities != nil}, {"saves", cr.Saves != nil},
		{"checks", cr.Checks != nil}, {"soak", cr.Soak != nil}, {"hardness", cr.Hardness != nil}}
}

// hasLootTable reports whether the items block declares loot table id.
func (rs *Ruleset) hasLootTable(id string) bool {
	if rs.Items == nil {
		return false
	}
	for _, t := range rs.Items.LootTables {
		if t.ID == id {
			return true
		}
	}
	return false
}

// itemTags returns the items block's tag ids, empty without one.
func (rs *Ruleset) itemTags() map[string]bool {
	m := map[string]bool{}
	if rs.Items != nil {
		for _, t := range rs.Items.Tags {
			m[t.ID] = true
		}
	}
	return m
}
