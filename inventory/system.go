// Package inventory is the engine of Pack Rat game systems (SPEC 7): the system file
// and its checks (templates, features, states, rules, money, slots, catalog, tables…),
// the item as it is now, states and their limits, equipment slots, entries (stacks,
// containers, charges, liquids, sets, packs), weight, money and trade, roll tables, and
// the system derived from a ruleset's items block. It is pure: it takes bytes and values
// and returns values, with no files, clocks, dice or globals of its own.
//
// A system file is read the way a ruleset is: strictly, every problem at once with its
// JSON path, an unusable file refused and a hostile one bounded (see Parse).
package inventory

import "sheetkeeper/ruleset"

// System is one game's inventory rules, as its file gives them and after Parse has
// checked it and turned legacy groups into templates. The fields are the file's keys;
// only Catalog is read into a richer shape (Item), because a catalog item may carry any
// field of its template and features.
type System struct {
	Packrat     string  `json:"packrat"`
	ID          string  `json:"id"`
	Name        string  `json:"name,omitempty"`
	Version     float64 `json:"version,omitempty"`
	Description string  `json:"description,omitempty"`

	Templates []Template `json:"templates,omitempty" maxItems:"300"`
	// RenamedCategories: template id → old category → new one. Players' own items with an
	// old category take the new one (see RenameCategory).
	RenamedCategories map[string]map[string]string `json:"renamedCategories,omitempty"`
	// Groups and LegacyGroups are the shape of files from before templates nested; Parse
	// turns groups into templates and leaves Groups empty.
	Groups       []Group           `json:"groups,omitempty" maxItems:"300"`
	LegacyGroups map[string]string `json:"legacyGroups,omitempty"`

	Features     []Feature `json:"features,omitempty" maxItems:"60"`
	CommonFields []Field   `json:"commonFields,omitempty" maxItems:"60"`
	States       []State   `json:"states,omitempty" maxItems:"30"`
	// Toggles are an older file's states (player states whose limits warn); Parse turns
	// them into States when the file has none.
	Toggles          []Toggle          `json:"toggles,omitempty" maxItems:"30"`
	Values           []Value           `json:"values,omitempty" maxItems:"200"`
	Stats            map[string]any    `json:"stats,omitempty"`
	CampaignSettings []string          `json:"campaignSettings,omitempty" maxItems:"100"`
	Terminology      map[string]string `json:"terminology,omitempty"`
	Currency         *Currency         `json:"currency,omitempty"`
	Weight           *WeightUnit       `json:"weight,omitempty"`
	StarterTemplates []Template        `json:"starterTemplates,omitempty" maxItems:"300"`
	Panels           []Panel           `json:"panels,omitempty" maxItems:"20"`
	PanelLib         string            `json:"panelLib,omitempty"`
	// RawCatalog is the catalog as decoded; Catalog is it read into Items.
	RawCatalog []map[string]any  `json:"catalog,omitempty" maxItems:"5000"`
	Tables     []Table           `json:"tables,omitempty" maxItems:"200"`
	Glossary   map[string]string `json:"glossary,omitempty"`
	Slots      []Slot            `json:"slots,omitempty" maxItems:"20"`
	Showcase   *bool             `json:"showcase,omitempty"`
	Catalog    []*Item           `json:"-"`
	index      *index            `json:"-"`
	// words is the ruleset's items block a system derived from one keeps (FromRuleset):
	// what names, inventions and freeform items are held to (see Resolve and Invent).
	words *ruleset.Items
	// sheet is that ruleset's sheet (what worn= and carried= name), ruleItems its catalogs'
	// items by catalog item id.
	sheet     *ruleset.Sheet
	ruleItems map[string]*ruleset.Item
}

// Template decides an item's fields and what it can do. Templates nest by Parent.
type Template struct {
	ID                string   `json:"id"`
	Name              string   `json:"name"`
	Plural            string   `json:"plural,omitempty"`
	Parent            string   `json:"parent,omitempty"`
	Hue               *float64 `json:"hue,omitempty"`
	Icon              string   `json:"icon,omitempty"`
	Abstract          bool     `json:"abstract,omitempty"`
	Categories        []string `json:"categories,omitempty" maxItems:"100"`
	CategoryLabel     string   `json:"categoryLabel,omitempty"`
	CategorySegmented bool     `json:"categorySegmented,omitempty"`
	Fields            []Field  `json:"fields,omitempty" maxItems:"60"`
	// Features: key → true (items start with it), "main" (always on, its fields among the
	// template's own) or false.
	Features map[string]any            `json:"features,omitempty"`
	Defaults map[string]any            `json:"defaults,omitempty"`
	Hide     []string                  `json:"hide,omitempty" maxItems:"100"`
	Layers   map[string]map[string]any `json:"layers,omitempty"`
	Triggers []any                     `json:"triggers,omitempty" maxItems:"50"`
	// Rules are the triggers read (by Parse).
	Rules []Rule `json:"-"`
	// Group is a legacy template's group; From the template a player's copy started as.
	Group string `json:"group,omitempty"`
	From  string `json:"from,omitempty"`
	// Hidden templates show in no list; a Ghost is a player's deleted template that
	// items still use. Pack Rat writes both.
	Hidden bool `json:"hidden,omitempty"`
	Ghost  bool `json:"ghost,omitempty"`
	// up is the template it is under, resolved once (by Parse, or a campaign for a
	// player's); layers, its Layers read.
	up     *Template
	layers map[string]*Layer
}

// Group is a legacy file's group of templates.
type Group struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Hue       *float64 `json:"hue,omitempty"`
	Templates []string `json:"templates,omitempty" maxItems:"300"`
	// Split is dropped: a template's categories do its work now.
	Split map[string]any `json:"split,omitempty"`
}

// Field is one field of an item's form.
type Field struct {
	Key         string            `json:"key"`
	Label       string            `json:"label"`
	Kind        string            `json:"kind"`
	Options     []string          `json:"options,omitempty" maxItems:"100"`
	Labels      map[string]string `json:"labels,omitempty"`
	Segmented   bool              `json:"segmented,omitempty"`
	Suggestions []string          `json:"suggestions,omitempty" maxItems:"100"`
	Placeholder string            `json:"placeholder,omitempty"`
	Min         *float64          `json:"min,omitempty"`
	Max         *float64          `json:"max,omitempty"`
	// Step is a number or "any".
	Step     any  `json:"step,omitempty"`
	Required bool `json:"required,omitempty"`
}

// Feature is something an item can do: a core one (holds, liquid…) or a system's own.
type Feature struct {
	Key      string  `json:"key"`
	Label    string  `json:"label"`
	Equip    string  `json:"equip,omitempty"`
	Hint     string  `json:"hint,omitempty"`
	Flag     string  `json:"flag,omitempty"`
	Excludes string  `json:"excludes,omitempty"`
	Icon     string  `json:"icon,omitempty"`
	Fields   []Field `json:"fields,omitempty" maxItems:"60"`
}

// State is what an item in an inventory can be (attuned, identified, cursed).
type State struct {
	Key              string `json:"key"`
	Label            string `json:"label"`
	Who              string `json:"who,omitempty"`
	Requires         string `json:"requires,omitempty"`
	RequiresProperty string `json:"requiresProperty,omitempty"`
	Limit            *Limit `json:"limit,omitempty"`
}

// Limit bounds how many of a character's items can have a state on.
type Limit struct {
	// Value names the character's Local value holding the limit; GMValue is the older
	// spelling ("gm_attuneSlots").
	Value   string   `json:"value,omitempty"`
	GMValue string   `json:"gmValue,omitempty"`
	Default *float64 `json:"default,omitempty"`
	Mode    string   `json:"mode,omitempty"`
	Text    string   `json:"text,omitempty"`
	Label   string   `json:"label,omitempty"`
}

// Value declares a Global or Local value the system uses.
type Value struct {
	Name    string   `json:"name"`
	Scope   string   `json:"scope"`
	Label   string   `json:"label,omitempty"`
	Default *float64 `json:"default,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Step    *float64 `json:"step,omitempty"`
	Choices []string `json:"choices,omitempty" maxItems:"100"`
}

// Currency is a system's money: coins largest first, each worth Value of the smallest.
type Currency struct {
	Coins []Coin `json:"coins" maxItems:"12"`
	// Change: the coins shops pay out and give change in (all coins when empty).
	Change []string `json:"change,omitempty" maxItems:"12"`
	// Show: the coin prices are shown in (the first change coin when empty).
	Show string `json:"show,omitempty"`
	// PerWeight: how many coins weigh one unit (0: coins weigh nothing).
	PerWeight float64 `json:"perWeight,omitempty"`
}

// Coin is one denomination.
type Coin struct {
	Key   string `json:"key"`
	Name  string `json:"name,omitempty"`
	Value int64  `json:"value"`
	Color string `json:"color,omitempty"`
}

// WeightUnit names the unit weights and capacities are in.
type WeightUnit struct {
	Unit string `json:"unit"`
	One  string `json:"one,omitempty"`
}

// Panel is one of the system's own screens (run in a sandbox by a later part).
type Panel struct {
	ID    string `json:"id"`
	Slot  string `json:"slot"`
	Title string `json:"title,omitempty"`
	HTML  string `json:"html"`
}

// Table is a roll table; each entry names a catalog item.
type Table struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Die     string       `json:"die,omitempty"`
	Book    string       `json:"book,omitempty"`
	Entries []TableEntry `json:"entries" maxItems:"1000"`
}

// TableEntry is one roll of a table.
type TableEntry struct {
	Roll int    `json:"roll"`
	ID   string `json:"id"`
}

// Slot is where equipped things go: Count places, filled by the first rule an item
// matches.
type Slot struct {
	Key   string     `json:"key"`
	Label string     `json:"label"`
	Count int        `json:"count"`
	Rules []SlotRule `json:"rules,omitempty" maxItems:"30"`
}

// SlotRule matches items the way a container's rules do (Pack Rat's ruleMatches, in
// store.js): every criterion it gives must hold. Item is one catalog item's id or a list
// of them; Group is a legacy file's group (the template it is now); Category is one
// category or a list; Name is words, any of which the name has as a whole word (an "s"
// after it allowed). State makes a slot's rule apply only while that state is on; Size is
// how many places the item takes.
type SlotRule struct {
	Item     any    `json:"item,omitempty"`
	Group    string `json:"group,omitempty"`
	Template string `json:"template,omitempty"`
	Category any    `json:"category,omitempty"`
	Feature  string `json:"feature,omitempty"`
	Property string `json:"property,omitempty"`
	Name     string `json:"name,omitempty"`
	State    string `json:"state,omitempty"`
	Size     int    `json:"size,omitempty"`
}

// Toggle is an older file's state: a player's checkbox on items with a feature, its
// limit only ever warning.
type Toggle struct {
	Key       string   `json:"key"`
	Label     string   `json:"label"`
	Feature   string   `json:"feature,omitempty"`
	Limit     *float64 `json:"limit,omitempty"`
	LimitText string   `json:"limitText,omitempty"`
}
