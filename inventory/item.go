package inventory

// Item is a catalog item or a player's own: the fields every item has, typed, and the
// rest (its template's fields, its features' fields, the system's common fields) in
// Fields. Layers are what it becomes in each state.
type Item struct {
	ID          string
	Type        string // the id of the template it was made from
	Template    string // a copy's template, when made from a copy
	Name        string
	Icon        string
	Image       string
	Description string
	Source      string
	Category    string
	Cost        int64 // in the smallest coin
	Weight      float64
	// Features: where the item differs from its template (true on, false off).
	Features map[string]bool
	Fields   map[string]any
	Layers   map[string]*Layer
	Rules    []Rule
	// Slot is the item's own slot key ("none": never in a slot), SlotSize its size there.
	Slot     string
	SlotSize int
	// NoStack: Pack Rat's mark on an item that never shares a row.
	NoStack bool
	// sys and tmpl cache a catalog item's template, resolved once by Parse.
	sys  *System
	tmpl *Template
	// self is the item itself when it is one of sys's catalog items (bind): a copy of
	// one is not (its self is the original), so System.inCatalog needs no lookup.
	self *Item
	// folded is Name folded (ruleset.FoldName) as Parse found it, foldedFrom: finding an
	// entry by name reads it for every entry held (see FoldedName).
	folded, foldedFrom string
}

// Layer is what an item becomes while one state is on: only what changes. A field set
// to "" or null in a layer changes nothing.
type Layer struct {
	Name        *string
	Icon        *string
	Description *string
	Category    *string
	Cost        *int64
	Weight      *float64
	// Slot and SlotSize: where the item goes when equipped while the state is on (Pack
	// Rat's slotFor reads the item as it is now).
	Slot     *string
	SlotSize *int
	Features map[string]bool
	Fields   map[string]any
	// Locks: states only the GM can change while this layer is on.
	Locks []string
}

// coreFeatures are the features every system has, with their fields. A feature's fields
// show with it; an item can carry any of them.
var coreFeatures = []Feature{
	{Key: "holds", Label: "Container", Fields: []Field{
		{Key: "capacity", Kind: "text"}, {Key: "capacityLb", Kind: "number"},
		{Key: "weightless", Kind: "checkbox"}, {Key: "straps", Kind: "checkbox"},
		{Key: "holds", Kind: "select", Options: []string{"", "scrolls", "arrows", "bolts"}},
		{Key: "allows", Kind: "allows"}, {Key: "holdLimit", Kind: "number"}, {Key: "holdUnit", Kind: "text"},
		{Key: "coinsApart", Kind: "checkbox"},
		{Key: "contentsView", Kind: "select", Options: []string{"inherit", "list", "details", "sealed"}},
		{Key: "compartments", Kind: "compartments"}, {Key: "actions", Kind: "actions"}}},
	{Key: "liquid", Label: "Liquid", Fields: []Field{{Key: "liquidPints", Kind: "number"}}},
	{Key: "deck", Label: "Set", Fields: []Field{{Key: "pieceName", Kind: "text"}, {Key: "deckCards", Kind: "pieces"}, {Key: "actions", Kind: "actions"}}},
	{Key: "pack", Label: "Pack", Fields: []Field{{Key: "contents", Kind: "packContents"}}},
	{Key: "writable", Label: "Writing", Excludes: "picture", Fields: []Field{{Key: "author", Kind: "text"}, {Key: "body", Kind: "markdown"}}},
	{Key: "picture", Label: "Picture", Flag: "imageOnly", Excludes: "writable", Fields: []Field{{Key: "body", Kind: "picture"}}},
	{Key: "equippable", Label: "Equippable"},
	{Key: "stacks", Label: "Stacks", Fields: []Field{{Key: "countInPlay", Kind: "checkbox"}}},
	{Key: "charges", Label: "Charges", Fields: []Field{{Key: "maxCharges", Kind: "number"}, {Key: "recharge", Kind: "text"}}},
	{Key: "bundle", Label: "Bundle", Fields: []Field{{Key: "bundle", Kind: "number"}}},
}

func isCoreFeature(key string) bool {
	for _, f := range coreFeatures {
		if f.Key == key {
			return true
		}
	}
	return false
}

// itemKeys are the keys every item has, whatever its template.
var itemKeys = map[string]bool{
	"id": true, "type": true, "template": true, "name": true, "icon": true, "image": true,
	"cost": true, "weight": true, "description": true, "source": true, "category": true,
	"features": true, "layers": true, "triggers": true, "slot": true, "slotSize": true, "noStack": true,
}

// fieldKinds are the kinds a system's field can be; the special kinds (pieces,
// packContents, allows, compartments, actions, markdown, picture) belong to core
// features only. (The core features are Pack Rat's newest: a container's straps and
// holds from before, its allows, compartments and actions now.)
var fieldKinds = []string{"text", "textarea", "number", "checkbox", "select", "tags", "dice"}

// hideable are the core fields a template can hide.
var hideable = []string{"description", "source"}

// terms are the words a system's terminology can change, with Pack Rat's own.
var terms = map[string]string{
	"character": "character", "characters": "characters", "gm": "GM",
	"gameMaster": "Game master", "rollTable": "Roll on a table", "rollTitle": "Roll on a table",
}

// Term returns the system's word for one of Pack Rat's (terms' keys), else Pack Rat's.
func (s *System) Term(key string) string {
	if w, ok := s.Terminology[key]; ok && w != "" {
		return w
	}
	if w, ok := terms[key]; ok {
		return w
	}
	return key
}

// campaignSettingKeys are the rules settings a system may use.
var campaignSettingKeys = []string{"encumbrance", "carryMultiplier"}
