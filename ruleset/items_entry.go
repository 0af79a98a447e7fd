package ruleset

import (
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
	"slices"
)

// Item is what an entry of an item catalog is: a thing to carry, written in the items
// block's words. It goes into the inventory, never onto a sheet or into a fight's side.
type Item struct {
	Category string         `json:"category"`
	Rarity   *string        `json:"rarity,omitempty"`
	Tags     []string       `json:"tags,omitempty"`
	Stats    map[string]any `json:"stats,omitempty"`
	// Slots is how many of each slot the item takes while worn or held.
	Slots map[string]int `json:"slots,omitempty"`
	// Stack is the most one stack holds; without it, as many as any stack.
	Stack *int      `json:"stack,omitempty"`
	Cost  *ItemCost `json:"cost,omitempty"`
	Sold  *ItemSold `json:"sold,omitempty"`
	// Service is bought like an item and never carried (lodging, passage).
	Service  *bool             `json:"service,omitempty"`
	Binds    *ItemBinds        `json:"binds,omitempty"`
	Worn     *ItemEffect       `json:"worn,omitempty"`
	Carried  *ItemEffect       `json:"carried,omitempty"`
	Requires []ItemRequirement `json:"requires,omitempty"`
	Attack   *ItemAttack       `json:"attack,omitempty"`
	Use      *ItemUse          `json:"use,omitempty"`
	Charges  *ItemCharges      `json:"charges,omitempty"`
}

// ItemCost is a price in one currency unit.
type ItemCost struct {
	Amount int    `json:"amount"`
	Unit   string `json:"unit"`
}

// ItemSold names the smallest market place that sells the item.
type ItemSold struct {
	Place string `json:"place"`
}

// ItemBinds says the item must be bound before it works while worn.
type ItemBinds struct {
	Restriction *string `json:"restriction,omitempty"`
	Cursed      *bool   `json:"cursed,omitempty"`
}

// ItemEffect is what an item does while worn or carried, in the condition vocabulary,
// plus abilities it sets or raises and harm or conditions it keeps off.
type ItemEffect struct {
	Effects             []string                  `json:"effects,omitempty"`
	Modifiers           []fight.Modifier          `json:"modifiers,omitempty"`
	FailsSaves          []string                  `json:"failsSaves,omitempty"`
	Saves               []string                  `json:"saves,omitempty"`
	Skills              []string                  `json:"skills,omitempty"`
	Abilities           map[string]strictjson.Raw `json:"abilities,omitempty"`
	Resist              []string                  `json:"resist,omitempty"`
	Vulnerable          []string                  `json:"vulnerable,omitempty"`
	Immune              []string                  `json:"immune,omitempty"`
	ConditionImmunities []string                  `json:"conditionImmunities,omitempty"`
	AbilityChanges      map[string]AbilityChange  `json:"-"`
}

// AbilityChange sets an ability to at least Set, or adds Add to it.
type AbilityChange struct {
	Set *int `json:"set,omitempty"`
	Add *int `json:"add,omitempty"`
}

// ItemRequirement is a value the wearer's sheet must reach, and what applies while it
// falls short.
type ItemRequirement struct {
	Value     ValueRef   `json:"value"`
	AtLeast   float64    `json:"atLeast"`
	Otherwise ItemEffect `json:"otherwise"`
}

// ItemAttack is what a weapon does while worn. Values marked "or stat" may be written
// down or read off one of the item's own stats ({"stat": id}); they stay raw here.
type ItemAttack struct {
	Budget    string         `json:"budget"`
	ToHit     *ItemToHit     `json:"toHit,omitempty"`
	Damage    ItemDamage     `json:"damage"`
	Reach     strictjson.Raw `json:"reach,omitempty"`
	Range     *ItemRange     `json:"range,omitempty"`
	Versatile *ItemVersatile `json:"versatile,omitempty"`
	Strikes   *ValueRef      `json:"strikes,omitempty"`
	Ammo      *ItemAmmo      `json:"ammo,omitempty"`
	Clip      *ItemClip      `json:"clip,omitempty"`
	Modes     []ItemMode     `json:"modes,omitempty"`
	OffHand   *bool          `json:"offHand,omitempty"`
	Floor     strictjson.Raw `json:"floor,omitempty"`
	OnHit     []ItemOnHit    `json:"onHit,omitempty"`
}

// ItemToHit is what an item adds to hit.
type ItemToHit struct {
	Abilities   strictjson.Raw `json:"abilities,omitempty"`
	Skill       strictjson.Raw `json:"skill,omitempty"`
	Proficiency *ValueRef      `json:"proficiency,omitempty"`
	Bonus       strictjson.Raw `json:"bonus,omitempty"`
	Target      strictjson.Raw `json:"target,omitempty"`
}

// ItemDamage is what a weapon deals.
type ItemDamage struct {
	Dice      strictjson.Raw `json:"dice,omitempty"`
	Abilities strictjson.Raw `json:"abilities,omitempty"`
	Bonus     strictjson.Raw `json:"bonus,omitempty"`
	Type      strictjson.Raw `json:"type,omitempty"`
}

// ItemRange is how far a weapon is thrown or shot.
type ItemRange struct {
	Normal strictjson.Raw `json:"normal"`
	Long   strictjson.Raw `json:"long,omitempty"`
}

// ItemVersatile is the dice dealt with a hand free beside the weapon.
type ItemVersatile struct {
	Dice strictjson.Raw `json:"dice"`
}

// ItemAmmo is what a weapon shoots.
type ItemAmmo struct {
	Tag       string   `json:"tag"`
	PerAttack *int     `json:"perAttack,omitempty"`
	Recover   *float64 `json:"recover,omitempty"`
}

// ItemClip is a loaded count kept on the weapon.
type ItemClip struct {
	Max    strictjson.Raw `json:"max"`
	Reload string         `json:"reload"`
}

// ItemMode is another way to make an attack.
type ItemMode struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Ammo    *int   `json:"ammo,omitempty"`
	ToHit   *int   `json:"toHit,omitempty"`
	Target  *int   `json:"target,omitempty"`
	Targets *int   `json:"targets,omitempty"`
}

// ItemOnHit is a condition a blow puts on when its harm reaches AtLeast.
type ItemOnHit struct {
	Condition string `json:"condition"`
	AtLeast   int    `json:"atLeast"`
	Rounds    *int   `json:"rounds,omitempty"`
}

// ItemUse is what an item does when used: the entry mechanics' words less what only a
// sheet row can mean (cost, check, concentration, reaction, scaling, the turn's
// economy), plus what an item has of its own.
type ItemUse struct {
	Kind           string             `json:"kind"`
	Range          *float64           `json:"range,omitempty"`
	Area           *Area              `json:"area,omitempty"`
	Targets        *string            `json:"targets,omitempty"`
	FriendlyFire   *bool              `json:"friendlyFire,omitempty"`
	Amount         *Amount            `json:"amount,omitempty"`
	DamageType     *string            `json:"damageType,omitempty"`
	Plus           []DamageClause     `json:"plus,omitempty"`
	AttackRoll     *bool              `json:"attackRoll,omitempty"`
	Save           *MechanicsSave     `json:"save,omitempty"`
	TargetCount    *int               `json:"targetCount,omitempty"`
	AutoHit        *bool              `json:"autoHit,omitempty"`
	Applies        []AppliedCondition `json:"applies,omitempty"`
	Temporary      *Amount            `json:"temporary,omitempty"`
	Budget         *string            `json:"budget,omitempty"`
	Free           *bool              `json:"free,omitempty"`
	ToHit          *ItemToHit         `json:"toHit,omitempty"`
	SaveDifficulty strictjson.Raw     `json:"saveDifficulty,omitempty"`
	Consumes       *bool              `json:"consumes,omitempty"`
	Charges        *int               `json:"charges,omitempty"`
	Restore        *ItemRestore       `json:"restore,omitempty"`
	Gate           *ItemGate          `json:"gate,omitempty"`
}

// ItemRestore gives back some of a pool of whoever the use lands on.
type ItemRestore struct {
	Pool   string `json:"pool"`
	Amount Amount `json:"amount"`
}

// ItemGate is a check the user passes before the use works, unless a value is high
// enough. Check names exactly one of a skill, an ability or a value.
type ItemGate struct {
	Check      ItemGateCheck  `json:"check"`
	Difficulty strictjson.Raw `json:"difficulty"`
	Unless     *ItemUnless    `json:"unless,omitempty"`
}

// ItemGateCheck is what a gate rolls.
type ItemGateCheck struct {
	Skill   *string   `json:"skill,omitempty"`
	Ability *string   `json:"ability,omitempty"`
	Value   *ValueRef `json:"value,omitempty"`
}

// ItemUnless skips a gate when a value is at least AtLeast.
type ItemUnless struct {
	Value   ValueRef `json:"value"`
	AtLeast float64  `json:"atLeast"`
}

// ItemCharges is how many charges an item holds and how they come back.
type ItemCharges struct {
	Max      strictjson.Raw `json:"max"`
	Recharge *ItemRecharge  `json:"recharge,omitempty"`
	BreaksOn *ItemBreaksOn  `json:"breaksOn,omitempty"`
}

// ItemRecharge names the rests that bring charges back, and how many: "max" or an
// amount.
type ItemRecharge struct {
	Rests     []string       `json:"rests"`
	RawAmount strictjson.Raw `json:"amount"`
}

// ItemBreaksOn is a die rolled on the last charge: at or under AtMost the item breaks.
type ItemBreaksOn struct {
	Die    int `json:"die"`
	AtMost int `json:"atMost"`
}

const (
	itemChargesMax   = 100
	maxInventoryQty  = 999_999
	maxItemCost      = 1_000_000_000
	maxItemTags      = 16
	maxItemSlotCount = 20
)

// itemRefusedEffects are the condition effects an item may not have: only something
// someone put on its holder can have them.
var itemRefusedEffects = []string{"half-move-to-stand", "ends-on-damage", "cannot-target-source", "cannot-approach-source"}

// itemUseKinds are the kinds of use an item has: the entry mechanics' less what only a
// sheet row does.
var itemUseKinds = []string{"attack", "heal", "buff", "debuff"}

// checkItem checks an item against the items block: every word it uses is declared,
// every stat value one its stat could hold, and what it does names the sheet's things.
func (c *checker) checkItem(item *Item, path string, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	it := c.rs.Items
	if it == nil {
		c.Add(path, "this ruleset has no items block, so there is nothing for an item to be written in")
		return
	}
	c.Known(at("category"), "item category", item.Category, hasWordID(it.Categories, item.Category))
	if item.Rarity != nil && c.SheetID(at("rarity"), *item.Rarity) {
		switch {
		case len(it.Rarities) == 0:
			c.Add(at("rarity"), "this ruleset declares no rarities")
		case !hasWordID(it.Rarities, *item.Rarity):
			c.Add(at("rarity"), "unknown rarity %q", *item.Rarity)
		}
	}
	c.Count(at("tags"), len(item.Tags), 0, maxItemTags)
	for i, t := range item.Tags {
		c.Known(strictjson.Join(at("tags"), i), "item tag", t, hasWordID(it.Tags, t))
	}
	c.UniqueStrings(at("tags"), "item tag", item.Tags)
	c.itemStatsAndSlots(item, it, at)
	if item.Stack != nil {
		c.Between(at("stack"), float64(*item.Stack), 1, maxInventoryQty)
	}
	c.itemTrade(item, it, at)
	c.service(item, path)
	for _, w := range []struct {
		key string
		e   *ItemEffect
	}{{"worn", item.Worn}, {"carried", item.Carried}} {
		if w.e != nil {
			c.itemEffect(at(w.key), w.e, ctx)
		}
	}
	if item.Requires != nil {
		c.Count(at("requires"), len(item.Requires), 1, 4)
	}
	for i := range item.Requires {
		r := &item.Requires[i]
		p := strictjson.Join(at("requires"), i)
		c.valueRef(&r.Value, strictjson.Join(p, "value"), refRules{allDerived: true})
		if r.Otherwise.Abilities != nil {
			c.Add(strictjson.Join(p, "otherwise.abilities"), "an unmet requirement cannot change an ability, since what it asks may read one")
		}
		c.itemEffect(strictjson.Join(p, "otherwise"), &r.Otherwise, ctx)
	}
	if item.Attack != nil {
		c.itemAttack(at("attack"), item, ctx)
	}
	if item.Use != nil {
		c.itemUse(at("use"), item, ctx)
	}
	c.itemCharges(path, item)
}

// itemStatsAndSlots checks an item's stats and slots against the ones the items block
// declares; at makes a path inside the item.
func (c *checker) itemStatsAndSlots(item *Item, it *Items, at func(string) string) {
	for _, id := range rules.SortedKeys(item.Stats) {
		p := strictjson.Join(at("stats"), id)
		s := it.stat(id)
		if s == nil {
			c.Add(p, "unknown item stat %q", id)
			continue
		}
		if msg := cellRefuses(s.Column(), item.Stats[id]); msg != "" {
			c.Add(p, "item stat %q %s", id, msg)
		}
	}
	for _, id := range rules.SortedKeys(item.Slots) {
		p := strictjson.Join(at("slots"), id)
		n := item.Slots[id]
		c.Between(p, float64(n), 1, maxItemSlotCount)
		var slot *ItemSlot
		for i := range it.Slots {
			if it.Slots[i].ID == id {
				slot = &it.Slots[i]
			}
		}
		switch {
		case slot == nil:
			c.Add(p, "unknown slot %q", id)
		case n > slot.Count:
			c.Add(p, "a character has %d of slot %q", slot.Count, id)
		}
	}
}

// itemTrade checks what an item costs, where it is sold and how it binds, against the
// currencies, market and binding the items block declares.
func (c *checker) itemTrade(item *Item, it *Items, at func(string) string) {
	if item.Cost != nil {
		c.Between(at("cost.amount"), float64(item.Cost.Amount), 0, maxItemCost)
		up := at("cost.unit")
		if c.SheetID(up, item.Cost.Unit) && !it.hasUnit(item.Cost.Unit) {
			if len(it.Currencies) == 0 {
				c.Add(up, "this ruleset declares no currencies")
			} else {
				c.Add(up, "unknown currency unit %q", item.Cost.Unit)
			}
		}
	}
	if item.Sold != nil {
		if it.Market == nil {
			c.Add(at("sold"), "this ruleset declares no market, so nothing is sold anywhere")
		} else {
			c.Known(at("sold.place"), "place", item.Sold.Place, hasWordID(it.Market.Places, item.Sold.Place))
		}
	}
	if item.Binds != nil {
		if item.Binds.Restriction != nil {
			c.CatalogText(at("binds.restriction"), *item.Binds.Restriction, 200)
		}
		if it.Binding == nil {
			c.Add(at("binds"), "this ruleset declares no binding, so nothing is bound")
		}
	}
}

// service: a service is bought, never carried, so it has a cost and nothing of carrying.
func (c *checker) service(item *Item, path string) {
	if item.Service == nil {
		return
	}
	if !*item.Service {
		c.Add(strictjson.Join(path, "service"), "is true or left out")
		return
	}
	if item.Cost == nil {
		c.Add(strictjson.Join(path, "service"), "a service is bought, so it has a cost")
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"slots", item.Slots != nil}, {"stack", item.Stack != nil}, {"binds", item.Binds != nil},
		{"worn", item.Worn != nil}, {"carried", item.Carried != nil}, {"requires", item.Requires != nil},
		{"attack", item.Attack != nil}, {"use", item.Use != nil}, {"charges", item.Charges != nil}} {
		if k.set {
			c.Add(strictjson.Join(path, k.key), "a service is never carried, so it has no %s", k.key)
		}
	}
}

// itemEffect checks what an item does while worn or carried, or while a requirement
// falls short: the condition vocabulary (less what only a condition put on someone can
// do), abilities it changes, and the harm and conditions it keeps off.
func (c *checker) itemEffect(path string, e *ItemEffect, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	if e.Effects != nil {
		c.Count(at("effects"), len(e.Effects), 1, 6)
	}
	for i, eff := range e.Effects {
		if slices.Contains(itemRefusedEffects, eff) {
			c.Add(strictjson.Join(at("effects"), i), "an item cannot have %q: nobody put it on, and it never ends by itself", eff)
		}
	}
	fight.CheckItemEffects(&c.Report, fightSheet{c}, path, &fight.Effects{Effects: e.Effects, Modifiers: e.Modifiers, FailsSaves: e.FailsSaves, Saves: e.Saves, Skills: e.Skills})
	if ctxPooled(c) {
		for i, m := range e.Modifiers {
			if m.To == "attacks" && m.Dice != "" {
				c.Add(strictjson.Join(strictjson.Join(at("modifiers"), i), "dice"), "a \"dice-pool\" fight adds dice to a pool, so a modifier gives a flat number of dice")
			}
		}
	}
	e.AbilityChanges = nil
	if e.Abilities != nil {
		c.Count(at("abilities"), len(e.Abilities), 0, 12)
		e.AbilityChanges = map[string]AbilityChange{}
	}
	for _, id := range rules.SortedKeys(e.Abilities) {
		p := strictjson.Join(at("abilities"), id)
		var ch AbilityChange
		if !c.decodeRaw(e.Abilities[id], &ch, p) {
			continue
		}
		e.AbilityChanges[id] = ch
		if (ch.Set == nil) == (ch.Add == nil) {
			c.Add(p, "an ability change either sets or adds")
		}
		a := c.names.ability(id)
		if !c.Known(p, "ability", id, a != nil) {
			continue
		}
		if ch.Add != nil {
			c.Between(strictjson.Join(p, "add"), float64(*ch.Add), -100, 100)
			if *ch.Add == 0 {
				c.Add(strictjson.Join(p, "add"), "adding 0 changes nothing")
			}
		}
		if ch.Set != nil && (*ch.Set < a.Min || *ch.Set > a.Max) {
			c.Add(strictjson.Join(p, "set"), "ability %q runs from %d to %d", id, a.Min, a.Max)
		}
	}
	for _, h := range []struct {
		key   string
		types []string
	}{{"resist", e.Resist}, {"vulnerable", e.Vulnerable}, {"immune", e.Immune}} {
		if h.types == nil {
			continue
		}
		c.Count(at(h.key), len(h.types), 1, 30)
		for i, t := range h.types {
			c.damageType(strictjson.Join(at(h.key), i), t, ctx)
		}
	}
	c.IDList(at("conditionImmunities"), e.ConditionImmunities, 40, "condition", func(id string) bool { return c.names.condition(id) != nil })
	if e.Effects == nil && e.Modifiers == nil && e.FailsSaves == nil && len(e.Abilities) == 0 &&
		e.Resist == nil && e.Vulnerable == nil && e.Immune == nil && e.ConditionImmunities == nil {
		c.Add(at("effects"), "an item's effect does something: effects, modifiers, saves it fails, abilities, or harm or conditions it keeps off")
	}
}

func ctxPooled(c *checker) bool { return c.rs.Combat != nil && c.rs.Combat.Kind == "dice-pool" }

// statKind is what a value read off an item stat must be.
type statKind int

const (
	statNumber statKind = iota
	statDice
	statAbilities
	statSkill
	statType
)

// orStat checks a value an item writes down or reads off one of its stats: a written
// value is decoded into v and checked by check; {"stat": id} must name a stat of the
// value's kind.
func (c *checker) orStat(path string, raw strictjson.Raw, kind statKind, v any, check func()) {
	switch rawKind(raw) {
	case 0:
		return
	case 'o':
		var ref struct {
			Stat string `json:"stat"`
		}
		if !c.decodeRaw(raw, &ref, path) {
			return
		}
		c.itemStatRead(strictjson.Join(path, "stat"), ref.Stat, kind)
		return
	}
	if c.decodeRaw(raw, v, path) && check != nil {
		check()
	}
}

// itemStatRead checks that a stat a value reads is declared and of the value's kind.
func (c *checker) itemStatRead(path, id string, kind statKind) {
	if !c.SheetID(path, id) {
		return
	}
	s := c.rs.Items.stat(id)
	if s == nil {
		c.Add(path, "unknown item stat %q", id)
		return
	}
	want := map[statKind]string{statNumber: "number", statDice: "dice", statAbilities: "enum", statSkill: "enum", statType: "text"}[kind]
	ok := s.Type == want || kind == statType && s.Type == "enum"
	if !ok {
		c.Add(path, "item stat %q is a %s stat, not %s", id, s.Type, want)
		return
	}
	if s.Type != "enum" {
		return
	}
	for _, w := range s.Values {
		switch {
		case kind == statAbilities && c.names.ability(w) == nil:
			c.Add(path, "item stat %q holds %q, which is not an ability", id, w)
			return
		case kind == statSkill && c.names.skill(w) == nil:
			c.Add(path, "item stat %q holds %q, which is not a skill", id, w)
			return
		}
	}
}

// intOrStat checks a whole number lo..hi, written or read off a stat.
func (c *checker) intOrStat(path string, raw strictjson.Raw, lo, hi float64) {
	var n int
	c.orStat(path, raw, statNumber, &n, func() { c.Between(path, float64(n), lo, hi) })
}

func (c *checker) numOrStat(path string, raw strictjson.Raw, lo, hi float64) {
	var n float64
	c.orStat(path, raw, statNumber, &n, func() { c.Between(path, n, lo, hi) })
}

func (c *checker) diceOrStat(path string, raw strictjson.Raw) {
	var s string
	c.orStat(path, raw, statDice, &s, func() { c.Dice(path, s) })
}

func (c *checker) abilitiesOrStat(path string, raw strictjson.Raw) {
	var ids []string
	c.orStat(path, raw, statAbilities, &ids, func() {
		c.Count(path, len(ids), 1, 6)
		for i, id := range ids {
			c.Known(strictjson.Join(path, i), "ability", id, c.names.ability(id) != nil)
		}
	})
}

// itemToHit checks what an item adds to hit.
func (c *checker) itemToHit(path string, t *ItemToHit, whose string) {
	if t == nil {
		return
	}
	at := func(k string) string { return strictjson.Join(path, k) }
	c.abilitiesOrStat(at("abilities"), t.Abilities)
	var skill string
	c.orStat(at("skill"), t.Skill, statSkill, &skill, func() {
		c.Known(at("skill"), "skill", skill, c.names.skill(skill) != nil)
	})
	if t.Proficiency != nil {
		c.valueRef(t.Proficiency, at("proficiency"), refRules{allDerived: true})
	}
	c.intOrStat(at("bonus"), t.Bonus, -100, 100)
	c.intOrStat(at("target"), t.Target, 1, 100)
	if t.Target != nil {
		res := &c.rs.Resolution
		switch {
		case res.Kind != "dice-pool":
			c.Add(at("target"), "%s own target is a pool fight's; in this ruleset its bonus says the same", whose)
		case res.Target != nil && res.Target.Min >= res.Target.Max:
			c.Add(at("target"), "%s own target moves the pool's, so target.min is below target.max", whose)
		}
	}
}

// itemAttack checks a weapon's attack. Without a combat block it is read by nothing, so
// only its shape is checked.
func (c *checker) itemAttack(path string, item *Item, ctx *entryContext) {
	a := item.Attack
	at := func(k string) string { return strictjson.Join(path, k) }
	c.budget(at("budget"), a.Budget, ctx)
	c.itemToHit(at("toHit"), a.ToHit, "a weapon's")
	c.diceOrStat(at("damage.dice"), a.Damage.Dice)
	c.abilitiesOrStat(at("damage.abilities"), a.Damage.Abilities)
	c.intOrStat(at("damage.bonus"), a.Damage.Bonus, -100, 100)
	var typ string
	c.orStat(at("damage.type"), a.Damage.Type, statType, &typ, func() { c.damageType(at("damage.type"), typ, ctx) })
	c.numOrStat(at("reach"), a.Reach, 0, 10000)
	if a.Range != nil {
		c.numOrStat(at("range.normal"), a.Range.Normal, 0, 10000)
		c.numOrStat(at("range.long"), a.Range.Long, 0, 10000)
	}
	if a.Versatile != nil {
		c.diceOrStat(at("versatile.dice"), a.Versatile.Dice)
	}
	if a.Strikes != nil {
		c.valueRef(a.Strikes, at("strikes"), refRules{allDerived: true})
	}
	if a.Ammo != nil {
		c.Known(at("ammo.tag"), "item tag", a.Ammo.Tag, hasWordID(c.rs.Items.Tags, a.Ammo.Tag))
		if a.Ammo.PerAttack != nil {
			c.Between(at("ammo.perAttack"), float64(*a.Ammo.PerAttack), 1, 100)
		}
		if a.Ammo.Recover != nil {
			c.Between(at("ammo.recover"), *a.Ammo.Recover, 0, 1)
		}
	}
	if a.Clip != nil {
		c.intOrStat(at("clip.max"), a.Clip.Max, 1, 1000)
		c.budget(at("clip.reload"), a.Clip.Reload, ctx)
	}
	if a.Modes != nil {
		c.Count(at("modes"), len(a.Modes), 1, 6)
	}
	c.Unique(at("modes"), "mode", len(a.Modes), func(i int) string { return a.Modes[i].ID })
	for i, m := range a.Modes {
		p := strictjson.Join(at("modes"), i)
		c.SheetID(strictjson.Join(p, "id"), m.ID)
		c.PromptText(strictjson.Join(p, "label"), m.Label, 40)
		for _, b := range []struct {
			key    string
			v      *int
			lo, hi float64
		}{{"ammo", m.Ammo, 1, 100}, {"toHit", m.ToHit, -20, 20}, {"target", m.Target, -10, 10}, {"targets", m.Targets, 1, 20}} {
			if b.v != nil {
				c.Between(strictjson.Join(p, b.key), float64(*b.v), b.lo, b.hi)
			}
		}
	}
	if a.OffHand != nil && !*a.OffHand {
		c.Add(at("offHand"), "is true or left out")
	}
	c.intOrStat(at("floor"), a.Floor, 1, 100)
	if a.OnHit != nil {
		c.Count(at("onHit"), len(a.OnHit), 1, 4)
	}
	for i, h := range a.OnHit {
		p := strictjson.Join(at("onHit"), i)
		c.Known(strictjson.Join(p, "condition"), "condition", h.Condition, c.names.condition(h.Condition) != nil)
		c.Between(strictjson.Join(p, "atLeast"), float64(h.AtLeast), 1, 100)
		if h.Rounds != nil {
			c.Between(strictjson.Join(p, "rounds"), float64(*h.Rounds), 1, 100)
		}
	}
	if !ctx.hasCombat {
		return
	}
	if len(item.Slots) == 0 && item.Binds == nil {
		c.Add(path, "a weapon is used while it is worn, so it takes a slot or binds")
	}
	if c.rs.Resolution.Kind != "dice-pool" && a.Damage.Dice == nil {
		c.Add(at("damage.dice"), "a weapon deals dice")
	}
	if a.OffHand != nil && c.rs.Combat.OffHand == nil {
		c.Add(at("offHand"), "an off-hand attack spends combat.offHand's budget, so the combat block declares one")
	}
}

// itemUse checks what an item does when used.
func (c *checker) itemUse(path string, item *Item, ctx *entryContext) {
	u := item.Use
	at := func(k string) string { return strictjson.Join(path, k) }
	c.checkUse(path, useShape{kind: u.Kind, kinds: itemUseKinds, rng: u.Range, area: u.Area, targets: u.Targets,
		amount: u.Amount, temporary: u.Temporary, damageType: u.DamageType, plus: u.Plus, save: u.Save,
		targetCount: u.TargetCount, applies: u.Applies}, ctx)
	if u.Free != nil && u.Budget != nil {
		c.Add(at("free"), "something free spends no budget, so it names none")
	}
	if u.Budget != nil {
		c.budget(at("budget"), *u.Budget, ctx)
	}
	c.itemToHit(at("toHit"), u.ToHit, "an item's")
	if u.ToHit != nil && (u.AttackRoll == nil || !*u.AttackRoll) {
		c.Add(at("toHit"), "a to-hit is for a use that rolls to hit")
	}
	c.intOrStat(at("saveDifficulty"), u.SaveDifficulty, 0, 100)
	if (u.Save != nil || anySaveEnds(u.Applies) || anyOpenClauseSave(u.Plus)) && u.SaveDifficulty == nil {
		c.Add(at("saveDifficulty"), "a use that asks for a save says the number it is saved against")
	}
	if u.Consumes != nil && u.Charges != nil {
		c.Add(at("charges"), "a use that uses the item up spends no charges of it")
	}
	if u.Charges != nil {
		c.Between(at("charges"), float64(*u.Charges), 1, itemChargesMax)
		if item.Charges == nil {
			c.Add(at("charges"), "a use that spends charges is on an item that holds some")
		}
	}
	if r := u.Restore; r != nil {
		c.Known(at("restore.pool"), "live pool", r.Pool, c.names.pool(r.Pool) != nil)
		c.amount(at("restore.amount"), &r.Amount, true, ctx)
		if u.Kind != "heal" && u.Kind != "buff" {
			c.Add(at("restore"), "a restore is on a use that helps, a heal or a buff")
		}
		if cb := c.rs.Combat; cb != nil && cb.Health.Pool == r.Pool {
			c.Add(at("restore.pool"), "health comes back with a heal, not a restore")
		}
	}
	if g := u.Gate; g != nil {
		c.itemGate(at("gate"), g)
	}
	c.temporaryHealth(at("temporary"), u.Temporary, ctx)
	if ctx.hasCombat && (u.Free == nil || !*u.Free) && u.Budget == nil {
		c.Add(at("budget"), "a use spends a budget, or is free")
	}
}

func (c *checker) itemGate(path string, g *ItemGate) {
	at := func(k string) string { return strictjson.Join(path, k) }
	n := 0
	if g.Check.Skill != nil {
		n++
		c.Known(at("check.skill"), "skill", *g.Check.Skill, c.names.skill(*g.Check.Skill) != nil)
	}
	if g.Check.Ability != nil {
		n++
		c.Known(at("check.ability"), "ability", *g.Check.Ability, c.names.ability(*g.Check.Ability) != nil)
	}
	if g.Check.Value != nil {
		n++
		c.valueRef(g.Check.Value, at("check.value"), refRules{allDerived: true})
	}
	if n != 1 {
		c.Add(at("check"), "a gate rolls exactly one of: skill, ability, value")
	}
	c.intOrStat(at("difficulty"), g.Difficulty, 1, 100)
	if g.Unless != nil {
		c.valueRef(&g.Unless.Value, at("unless.value"), refRules{allDerived: true})
	}
}

// itemCharges checks an item's charges: spent by its use, one item to a stack, brought
// back by rests the ruleset has.
func (c *checker) itemCharges(path string, item *Item) {
	ch := item.Charges
	if ch == nil {
		return
	}
	at := func(k string) string { return strictjson.Join(path, k) }
	c.intOrStat(at("charges.max"), ch.Max, 1, itemChargesMax)
	if item.Use == nil || item.Use.Charges == nil {
		c.Add(at("charges"), "an item's charges are spent by its use, so its use spends some")
	}
	if item.Stack == nil || *item.Stack != 1 {
		c.Add(at("stack"), "an item that holds charges is one to a stack, so its stack is 1")
	}
	if r := ch.Recharge; r != nil {
		rp := at("charges.recharge.rests")
		c.Count(rp, len(r.Rests), 1, 12)
		for i, id := range r.Rests {
			c.Known(strictjson.Join(rp, i), "rest", id, c.rs.Rest(id) != nil)
		}
		ap := at("charges.recharge.amount")
		switch rawKind(r.RawAmount) {
		case 's':
			var s string
			if c.decodeRaw(r.RawAmount, &s, ap) && s != "max" {
				c.Add(ap, "is \"max\" or an amount")
			}
		case 'o':
			var a Amount
			if c.decodeRaw(r.RawAmount, &a, ap) {
				c.amount(ap, &a, true, nil)
			}
		default:
			c.Add(ap, "is \"max\" or an amount")
		}
	}
	if b := ch.BreaksOn; b != nil {
		c.Between(at("charges.breaksOn.die"), float64(b.Die), 2, 100)
		c.Between(at("charges.breaksOn.atMost"), float64(b.AtMost), 1, 100)
		if b.AtMost > b.Die {
			c.Add(at("charges.breaksOn.atMost"), "a break is at most the die's own faces")
		}
	}
}
