package ruleset

import (
	"regexp"
	"sheetkeeper/ruleset/rules"
	"strings"

	"sheetkeeper/strictjson"
)

// Items is the vocabulary every item of the ruleset is written in: categories, rarities
// and tags, the stats an item may carry (declared like list columns), where items are
// worn, how many may be bound at once, what weight means, money, loot tables and the
// market. Item catalogs (`holds: "items"`) write their items in these words.
type Items struct {
	Categories []ItemWord     `json:"categories"`
	Rarities   []ItemWord     `json:"rarities,omitempty"`
	Tags       []ItemWord     `json:"tags,omitempty"`
	Stats      []ItemStatDecl `json:"stats,omitempty"`
	Slots      []ItemSlot     `json:"slots,omitempty"`
	// Binding is attunement and the like: how many items one character may have bound.
	Binding *Binding `json:"binding,omitempty"`
	// Carry names the weight stat and what a character carries before being encumbered.
	Carry      *Carry           `json:"carry,omitempty"`
	Currencies []CurrencyFamily `json:"currencies,omitempty"`
	// RarityCaps bound what an item the GM invents may give at each rarity.
	RarityCaps []RarityCap `json:"rarityCaps,omitempty"`
	// Propose false forbids the GM to invent items; Native false turns Game Mode's own
	// untyped items off. Both default to true.
	Propose    *bool       `json:"propose,omitempty"`
	Native     *bool       `json:"native,omitempty"`
	LootTables []LootTable `json:"lootTables,omitempty"`
	// Freeform is what an item a player types in becomes: "plain" (default) or "refuse".
	Freeform *string `json:"freeform,omitempty"`
	Market   *Market `json:"market,omitempty"`
}

// ItemWord is a category, rarity, tag or place: an id and what it is shown as.
type ItemWord struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// ItemStatDecl is a number or word every item may carry, declared exactly like a list
// column (number, text, boolean, enum or dice). PromptVisible (default true) says
// whether the GM is shown it beside the item.
type ItemStatDecl struct {
	ID            string            `json:"id"`
	Label         string            `json:"label"`
	Type          string            `json:"type"`
	PromptVisible *bool             `json:"promptVisible,omitempty"`
	Min           *float64          `json:"min,omitempty"`
	Max           *float64          `json:"max,omitempty"`
	Integer       *bool             `json:"integer,omitempty"`
	MaxLength     *int              `json:"maxLength,omitempty"`
	Values        []string          `json:"values,omitempty"`
	ValueLabels   map[string]string `json:"valueLabels,omitempty"`
	Default       any               `json:"default,omitempty"`
	Example       *string           `json:"example,omitempty"`
}

// Column returns the stat as the column shape it is declared in, so one set of checks
// reads a column's values and a stat's.
func (s *ItemStatDecl) Column() *Column {
	return &Column{ID: s.ID, Label: s.Label, Type: s.Type, Min: s.Min, Max: s.Max, Integer: s.Integer,
		MaxLength: s.MaxLength, Values: s.Values, ValueLabels: s.ValueLabels, Default: s.Default, Example: s.Example}
}

// ItemSlot is where items are worn or held, and how many of it a character has.
type ItemSlot struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Binding names what binding is called and how many items may be bound, read off the
// sheet without live state.
type Binding struct {
	Label string   `json:"label"`
	Max   ValueRef `json:"max"`
}

// Carry names the weight stat and the sheet values encumbrance reads.
type Carry struct {
	Stat            string    `json:"stat"`
	EncumberedAbove ValueRef  `json:"encumberedAbove"`
	Limit           *ValueRef `json:"limit,omitempty"`
}

// CurrencyFamily is coins that change into each other by value; PerWeight is how many
// weigh one unit of the carry stat.
type CurrencyFamily struct {
	ID        string         `json:"id"`
	Label     string         `json:"label"`
	PerWeight *float64       `json:"perWeight,omitempty"`
	Units     []CurrencyUnit `json:"units"`
}

// CurrencyUnit is one coin, worth Value of its family's smallest.
type CurrencyUnit struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Value int    `json:"value"`
}

// RarityCap is the most an invented item of a rarity may give.
type RarityCap struct {
	Rarity string             `json:"rarity"`
	Stats  map[string]float64 `json:"stats,omitempty"`
	Bonus  *int               `json:"bonus,omitempty"`
}

// LootTable is what a hoard or a creature's pockets hold: Rolls picks (a number or
// dice), each a line drawn by weight.
type LootTable struct {
	ID       string         `json:"id"`
	Label    string         `json:"label"`
	RawRolls strictjson.Raw `json:"rolls,omitempty"`
	Entries  []LootLine     `json:"entries"`
}

// LootLine is one of the ruleset's items (`<catalog>/<entry>`), the items a filter
// picks, or coins; with its weight and how many drop (a number or dice).
type LootLine struct {
	Item     *string        `json:"item,omitempty"`
	Filter   *ItemFilter    `json:"filter,omitempty"`
	Coins    *string        `json:"coins,omitempty"`
	Weight   *int           `json:"weight,omitempty"`
	RawCount strictjson.Raw `json:"count,omitempty"`
}

// ItemFilter picks items by the items block's words; every word named must match.
type ItemFilter struct {
	Rarity   *string `json:"rarity,omitempty"`
	Category *string `json:"category,omitempty"`
	Tag      *string `json:"tag,omitempty"`
}

// Market is what places sell and at what price (Capability API 1.65).
type Market struct {
	Prices  []PriceLevel `json:"prices"`
	Places  []ItemWord   `json:"places"`
	Sold    []SoldRule   `json:"sold,omitempty"`
	Sellers []Seller     `json:"sellers,omitempty"`
}

// PriceLevel multiplies an item's cost; exactly one level is the default.
type PriceLevel struct {
	ID      string  `json:"id"`
	Label   string  `json:"label"`
	Times   float64 `json:"times"`
	Default *bool   `json:"default,omitempty"`
}

// SoldRule is the smallest place that sells what a filter picks.
type SoldRule struct {
	Filter ItemFilter `json:"filter"`
	Place  string     `json:"place"`
}

// Seller is a kind of seller: what it sells, where, and to whom.
type Seller struct {
	ID    string       `json:"id"`
	Label string       `json:"label"`
	Sells []ItemFilter `json:"sells"`
	Place *string      `json:"place,omitempty"`
	Only  *SellerOnly  `json:"only,omitempty"`
}

// SellerOnly is a value on the buyer's sheet the seller asks for.
type SellerOnly struct {
	Value   ValueRef `json:"value"`
	AtLeast float64  `json:"atLeast"`
	Label   string   `json:"label"`
}

// itemRefPattern is how a loot line names an item: `<catalog id>/<entry id>`.
var itemRefPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}/[a-z0-9]+(?:-[a-z0-9]+)*$`)

// fixedRefRules is what a number worked out without live state may read: what a
// character may bind or carry is their sheet's, not something each blow moves.
var fixedRefRules = refRules{allDerived: true, noLive: true}

// checkItems checks the items block. Item catalog entries are checked with their
// catalogs; loot lines naming an inline catalog's items are resolved here.
func (c *checker) checkItems() {
	it := c.rs.Items
	if it == nil {
		return
	}
	at := func(k string) string { return strictjson.Join("items", k) }
	c.itemWords(at("categories"), "item category", it.Categories, 1, 24)
	c.itemWords(at("rarities"), "rarity", it.Rarities, 0, 12)
	c.itemWords(at("tags"), "item tag", it.Tags, 0, 48)
	c.Count(at("stats"), len(it.Stats), 0, 24)
	c.Unique(at("stats"), "item stat", len(it.Stats), func(i int) string { return it.Stats[i].ID })
	for i := range it.Stats {
		c.itemStatDecl(strictjson.Join(at("stats"), i), &it.Stats[i])
	}
	c.Count(at("slots"), len(it.Slots), 0, 12)
	c.Unique(at("slots"), "slot", len(it.Slots), func(i int) string { return it.Slots[i].ID })
	for i, s := range it.Slots {
		p := strictjson.Join(at("slots"), i)
		c.SheetID(strictjson.Join(p, "id"), s.ID)
		c.Label(strictjson.Join(p, "label"), s.Label)
		c.Between(strictjson.Join(p, "count"), float64(s.Count), 1, 20)
	}
	if b := it.Binding; b != nil {
		c.PromptText(at("binding.label"), b.Label, 40)
		c.valueRef(&b.Max, at("binding.max"), fixedRefRules)
	}
	c.carry(at("carry"), it)
	c.currencies(at("currencies"), it)
	c.rarityCaps(at("rarityCaps"), it)
	if it.Freeform != nil {
		c.OneOf(at("freeform"), *it.Freeform, "plain", "refuse")
	}
	c.lootTables(at("lootTables"), it)
	if it.Market != nil {
		c.UsesOnce("items market", 65, at("market"))
		c.market(at("market"), it)
	}
}

func (c *checker) itemWords(path, what string, ws []ItemWord, lo, hi int) {
	if ws == nil && lo == 0 {
		return
	}
	c.Count(path, len(ws), lo, hi)
	c.Unique(path, what, len(ws), func(i int) string { return ws[i].ID })
	for i, w := range ws {
		p := strictjson.Join(path, i)
		c.SheetID(strictjson.Join(p, "id"), w.ID)
		c.Label(strictjson.Join(p, "label"), w.Label)
	}
}

// itemStatDecl checks one declared stat: a column's shape, without longtext.
func (c *checker) itemStatDecl(path string, s *ItemStatDecl) {
	if s.Type == "longtext" {
		c.Add(strictjson.Join(path, "type"), "an item stat is number, text, boolean, enum or dice")
		return
	}
	c.checkValue(s.Column(), path, true)
}

func (c *checker) carry(path string, it *Items) {
	cr := it.Carry
	if cr == nil {
		return
	}
	sp := strictjson.Join(path, "stat")
	if c.SheetID(sp, cr.Stat) {
		switch s := it.stat(cr.Stat); {
		case s == nil:
			c.Add(sp, "unknown item stat %q", cr.Stat)
		case s.Type != "number":
			c.Add(sp, "item stat %q is not a number", cr.Stat)
		case s.Min != nil && *s.Min < 0:
			c.Add(sp, "item stat %q is a weight, so its min is 0 or more", cr.Stat)
		}
	}
	c.valueRef(&cr.EncumberedAbove, strictjson.Join(path, "encumberedAbove"), fixedRefRules)
	if cr.Limit != nil {
		c.valueRef(cr.Limit, strictjson.Join(path, "limit"), fixedRefRules)
	}
}

func (c *checker) currencies(path string, it *Items) {
	c.Count(path, len(it.Currencies), 0, 6)
	c.Unique(path, "currency", len(it.Currencies), func(i int) string { return it.Currencies[i].ID })
	units := map[string]bool{}
	for i := range it.Currencies {
		f := &it.Currencies[i]
		p := strictjson.Join(path, i)
		c.SheetID(strictjson.Join(p, "id"), f.ID)
		c.Label(strictjson.Join(p, "label"), f.Label)
		if f.PerWeight != nil {
			if *f.PerWeight <= 0 {
				c.Add(strictjson.Join(p, "perWeight"), "must be above 0")
			}
			if it.Carry == nil {
				c.Add(strictjson.Join(p, "perWeight"), "coins weigh something only when the items block has a carry block")
			}
		}
		up := strictjson.Join(p, "units")
		c.Count(up, len(f.Units), 1, 10)
		values := map[int]bool{}
		for j, u := range f.Units {
			q := strictjson.Join(up, j)
			c.SheetID(strictjson.Join(q, "id"), u.ID)
			c.PromptText(strictjson.Join(q, "label"), u.Label, 40)
			c.Between(strictjson.Join(q, "value"), float64(u.Value), 1, 1_000_000)
			if units[u.ID] {
				c.Add(strictjson.Join(q, "id"), "duplicate currency unit id %q", u.ID)
			}
			units[u.ID] = true
			if values[u.Value] {
				c.Add(strictjson.Join(q, "value"), "another unit of %q is already worth %d", f.ID, u.Value)
			}
			values[u.Value] = true
		}
		if len(f.Units) > 0 && !values[1] {
			c.Add(up, "the smallest unit of %q is worth 1", f.ID)
		}
	}
}

func (c *checker) rarityCaps(path string, it *Items) {
	c.Count(path, len(it.RarityCaps), 0, 12)
	capped := map[string]bool{}
	for i, rc := range it.RarityCaps {
		p := strictjson.Join(path, i)
		rp := strictjson.Join(p, "rarity")
		switch {
		case !c.SheetID(rp, rc.Rarity):
		case len(it.Rarities) == 0:
			c.Add(rp, "this ruleset declares no rarities")
		case !hasWordID(it.Rarities, rc.Rarity):
			c.Add(rp, "unknown rarity %q", rc.Rarity)
		case capped[rc.Rarity]:
			c.Add(rp, "rarity %q is capped twice", rc.Rarity)
		}
		capped[rc.Rarity] = true
		for _, id := range rules.SortedKeys(rc.Stats) {
			sp := strictjson.Join(strictjson.Join(p, "stats"), id)
			s := it.stat(id)
			switch {
			case s == nil:
				c.Add(sp, "unknown item stat %q", id)
			case s.Type != "number":
				c.Add(sp, "item stat %q is not a number", id)
			default:
				if msg := cellRefuses(s.Column(), rc.Stats[id]); msg != "" {
					c.Add(sp, "item stat %q %s", id, msg)
				}
			}
		}
		if rc.Bonus != nil {
			c.Between(strictjson.Join(p, "bonus"), float64(*rc.Bonus), 0, 100)
		}
	}
}

func (c *checker) lootTables(path string, it *Items) {
	c.Count(path, len(it.LootTables), 0, 24)
	c.Unique(path, "loot table", len(it.LootTables), func(i int) string { return it.LootTables[i].ID })
	for i := range it.LootTables {
		t := &it.LootTables[i]
		p := strictjson.Join(path, i)
		c.SheetID(strictjson.Join(p, "id"), t.ID)
		c.Label(strictjson.Join(p, "label"), t.Label)
		c.countOrDice(strictjson.Join(p, "rolls"), t.RawRolls, 0, 20)
		ep := strictjson.Join(p, "entries")
		c.Count(ep, len(t.Entries), 1, 48)
		for j := range t.Entries {
			c.lootLine(strictjson.Join(ep, j), &t.Entries[j], it)
		}
	}
}

// countOrDice checks a number lo..hi or dice text, held undecoded in raw.
func (c *checker) countOrDice(path string, raw strictjson.Raw, lo, hi float64) {
	switch rawKind(raw) {
	case 0:
	case 'n':
		var n int
		if c.decodeRaw(raw, &n, path) {
			c.Between(path, float64(n), lo, hi)
		}
	case 's':
		var s string
		if c.decodeRaw(raw, &s, path) {
			c.Dice(path, s)
		}
	default:
		c.Add(path, "expected a whole number or dice")
	}
}

func (c *checker) lootLine(path string, l *LootLine, it *Items) {
	at := func(k string) string { return strictjson.Join(path, k) }
	n := 0
	for _, set := range []bool{l.Item != nil, l.Filter != nil, l.Coins != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		c.Add(path, "a loot line names an item, a filter or coins, one of them")
	}
	if l.Item != nil {
		c.lootItem(at("item"), *l.Item)
	}
	if l.Filter != nil {
		c.itemFilter(at("filter"), l.Filter, it)
	}
	if l.Coins != nil && c.SheetID(at("coins"), *l.Coins) && !it.hasUnit(*l.Coins) {
		c.Add(at("coins"), "unknown currency unit %q", *l.Coins)
	}
	if l.Weight != nil {
		c.Between(at("weight"), float64(*l.Weight), 1, 1000)
	}
	c.countOrDice(at("count"), l.RawCount, 1, 999)
}

// lootItem resolves `<catalog>/<entry>` against an item catalog; the entry itself only
// when the catalog is inline (a standalone file is checked when it is read).
func (c *checker) lootItem(path, ref string) {
	if rules.TextLen(ref) > 81 || !itemRefPattern.MatchString(ref) {
		c.Add(path, "an item is named as <catalog>/<entry>")
		return
	}
	catID, entryID, _ := strings.Cut(ref, "/")
	cat := c.rs.Catalog(catID)
	if cat == nil || cat.Kind() != holdsItems {
		c.Add(path, "no item catalog %q", catID)
		return
	}
	if cat.Entries == nil {
		return
	}
	for i := range cat.Entries {
		if cat.Entries[i].ID == entryID && cat.Entries[i].Item != nil {
			return
		}
	}
	c.Add(path, "no item %q in catalog %q", entryID, catID)
}

// itemFilter checks a filter names at least one word, each one the block declares.
func (c *checker) itemFilter(path string, f *ItemFilter, it *Items) {
	if f.Rarity == nil && f.Category == nil && f.Tag == nil {
		c.Add(path, "a filter names a rarity, a category or a tag")
	}
	for _, w := range []struct {
		key, what string
		id        *string
		words     []ItemWord
	}{{"rarity", "rarity", f.Rarity, it.Rarities}, {"category", "item category", f.Category, it.Categories}, {"tag", "item tag", f.Tag, it.Tags}} {
		if w.id != nil {
			c.Known(strictjson.Join(path, w.key), w.what, *w.id, hasWordID(w.words, *w.id))
		}
	}
}

func (c *checker) market(path string, it *Items) {
	m := it.Market
	at := func(k string) string { return strictjson.Join(path, k) }
	c.Count(at("prices"), len(m.Prices), 1, 8)
	c.Unique(at("prices"), "price level", len(m.Prices), func(i int) string { return m.Prices[i].ID })
	defaults := 0
	for i, p := range m.Prices {
		q := strictjson.Join(at("prices"), i)
		c.SheetID(strictjson.Join(q, "id"), p.ID)
		c.Label(strictjson.Join(q, "label"), p.Label)
		if p.Times <= 0 || p.Times > 100 {
			c.Add(strictjson.Join(q, "times"), "must be above 0 and at most 100")
		}
		if p.Default != nil {
			if !*p.Default {
				c.Add(strictjson.Join(q, "default"), "is true or left out")
			} else {
				defaults++
			}
		}
	}
	if defaults != 1 {
		c.Add(at("prices"), "one price level is the default")
	}
	c.itemWords(at("places"), "place", m.Places, 1, 12)
	c.Count(at("sold"), len(m.Sold), 0, 48)
	for i := range m.Sold {
		q := strictjson.Join(at("sold"), i)
		c.itemFilter(strictjson.Join(q, "filter"), &m.Sold[i].Filter, it)
		c.Known(strictjson.Join(q, "place"), "place", m.Sold[i].Place, hasWordID(m.Places, m.Sold[i].Place))
	}
	c.Count(at("sellers"), len(m.Sellers), 0, 24)
	c.Unique(at("sellers"), "seller", len(m.Sellers), func(i int) string { return m.Sellers[i].ID })
	for i := range m.Sellers {
		s := &m.Sellers[i]
		q := strictjson.Join(at("sellers"), i)
		c.SheetID(strictjson.Join(q, "id"), s.ID)
		c.Label(strictjson.Join(q, "label"), s.Label)
		c.Count(strictjson.Join(q, "sells"), len(s.Sells), 1, 12)
		for j := range s.Sells {
			c.itemFilter(strictjson.Join(strictjson.Join(q, "sells"), j), &s.Sells[j], it)
		}
		if s.Place != nil {
			c.Known(strictjson.Join(q, "place"), "place", *s.Place, hasWordID(m.Places, *s.Place))
		}
		if s.Only != nil {
			c.valueRef(&s.Only.Value, strictjson.Join(q, "only.value"), refRules{allDerived: true})
			c.PromptText(strictjson.Join(q, "only.label"), s.Only.Label, 80)
		}
	}
}

// stat returns the declared item stat id, or nil.
func (it *Items) stat(id string) *ItemStatDecl {
	for i := range it.Stats {
		if it.Stats[i].ID == id {
			return &it.Stats[i]
		}
	}
	return nil
}

// hasUnit reports whether any currency family has a unit id.
func (it *Items) hasUnit(id string) bool {
	for _, f := range it.Currencies {
		for _, u := range f.Units {
			if u.ID == id {
				return true
			}
		}
	}
	return false
}

func hasWordID(ws []ItemWord, id string) bool {
	for _, w := range ws {
		if w.ID == id {
			return true
		}
	}
	return false
}
