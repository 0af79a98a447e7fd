package inventory

import (
	"strings"

	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// MaxCampaignStates bounds a campaign's states, the system's and its own together.
const MaxCampaignStates = 64

// Campaign is a system as one campaign plays it: the system's states, then the
// campaign's own (Broken, Lit, Wet…), which cannot replace the system's. The item as it
// is now, states and limits are worked out here, because the order of states (which
// decides how layers stack) is the campaign's.
type Campaign struct {
	System *System
	States []State
	// Invented are the items the GM invented in this game (Invent), which the table keeps
	// (each one's Invented.Data, read back with ParseItem) and gives every campaign it
	// makes: the same name is that item for the rest of the game (Resolve finds it).
	Invented []*Item
	order    map[string]int
	// templates are the players' own (rule packages'), by id; see AddTemplates.
	templates map[string]*Template
	// parsed keeps the embedded items Restore parsed, by their JSON (stored.go).
	parsed *parsedItems
}

// Campaign returns the system as a campaign with its own states plays it. The
// campaign's states are checked like the system's; one reusing a system state's key is
// refused.
func (s *System) Campaign(own []State) (*Campaign, strictjson.Problems) {
	c := &checker{s: &System{States: own, Features: s.Features}}
	c.indexes()
	c.checkStates()
	for i, st := range own {
		if _, taken := s.index.states[st.Key]; taken {
			c.Add(rules.PathOf("states", i, "key"), "the system has a state %q already; a campaign's own cannot replace it", st.Key)
		}
	}
	if n := len(s.States) + len(own); n > MaxCampaignStates {
		c.Problems.AddKind(strictjson.Limit, "states", "a campaign has at most 64 states, its system's and its own")
	}
	if len(c.Problems) > 0 {
		c.Problems.Sort()
		return nil, c.Problems
	}
	all := append(append([]State(nil), s.States...), own...)
	order := make(map[string]int, len(all))
	for i, st := range all {
		order[st.Key] = i
	}
	return &Campaign{System: s, States: all, order: order, parsed: &parsedItems{}}, nil
}

// State returns a state of the campaign by key, or nil.
func (c *Campaign) State(key string) *State {
	if i, ok := c.order[key]; ok {
		return &c.States[i]
	}
	return nil
}

// Entry is an item in a character's inventory: the item, how many, and what it is.
type Entry struct {
	UID      string
	Item     *Item
	Qty      int64
	Equipped bool
	// Own: the states the entry has set itself. GM: the GM's overrides (on or off), which
	// win over Own; a key absent from GM is the player's choice.
	Own map[string]bool
	GM  map[string]bool
	// Parent is the uid of the container it is in ("" loose); Compartment the key of the
	// container's compartment it is in ("" the container's main space).
	Parent      string
	Compartment string
	// Charges left (items with charges); Fill, the pints a liquid container holds.
	Charges int64
	Fill    float64
	// Out: the pieces of a set taken out of it, by their place in its list.
	Out []int
}

// On reports whether a state of the entry is on: the GM's override, else its own.
func (e *Entry) On(key string) bool {
	if v, ok := e.GM[key]; ok {
		return v
	}
	return e.Own[key]
}

// Current is an item as it is now: the item plus the layers of its states that are on,
// in the campaign's order of states, each later one over the earlier. Everything uses it:
// names, weight, value, sale prices, features and panels. It is a value with no map of
// its own, so working it out for a whole inventory allocates nothing (unless an item has
// more than four layers on).
type Current struct {
	Item        *Item
	Template    *Template
	Name        string
	Icon        string
	Description string
	Category    string
	Cost        int64
	Weight      float64
	// Slot and SlotSize: where it goes when equipped (see Item).
	Slot     string
	SlotSize int

	sys *System
	// The on layers, in order: the first few inline (most items have none or one), the
	// rest spilled, so a Current stays small to copy.
	inline [4]*Layer
	spill  []*Layer
	n      int
}

func (c *Current) layer(i int) *Layer {
	if i < len(c.inline) {
		return c.inline[i]
	}
	return c.spill[i-len(c.inline)]
}

// Now returns the entry's item as it is now.
func (c *Campaign) Now(e *Entry) Current {
	it := e.Item
	cur := Current{Item: it, sys: c.System, Name: it.Name, Icon: it.Icon, Description: it.Description,
		Category: it.Category, Cost: it.Cost, Weight: it.Weight, Slot: it.Slot, SlotSize: it.SlotSize}
	cur.Template = c.itemTemplate(it)
	if len(e.Own) == 0 && len(e.GM) == 0 {
		return cur
	}
	for i := range c.States {
		key := c.States[i].Key
		if !e.On(key) {
			continue
		}
		l := c.System.layerFor(it, cur.Template, key)
		if l == nil {
			continue
		}
		if cur.n < len(cur.inline) {
			cur.inline[cur.n] = l
		} else {
			cur.spill = append(cur.spill, l)
		}
		cur.n++
		if l.Name != nil {
			cur.Name = *l.Name
		}
		if l.Icon != nil {
			cur.Icon = *l.Icon
		}
		if l.Description != nil {
			cur.Description = *l.Description
		}
		if l.Category != nil {
			cur.Category = *l.Category
		}
		if l.Cost != nil {
			cur.Cost = *l.Cost
		}
		if l.Weight != nil {
			cur.Weight = *l.Weight
		}
		if l.Slot != nil {
			cur.Slot = *l.Slot
		}
		if l.SlotSize != nil {
			cur.SlotSize = *l.SlotSize
		}
	}
	return cur
}

// itemTemplate is the template an item was made from: a player's own first (its copy's,
// else its type's), else the system's.
func (c *Campaign) itemTemplate(it *Item) *Template {
	if len(c.templates) > 0 {
		if t := c.templates[it.Template]; t != nil {
			return t
		}
		if t := c.templates[it.Type]; t != nil {
			return t
		}
	}
	return c.System.itemTemplate(it)
}

// AddTemplates gives the campaign players' own templates (its rule packages'), each
// checked as the system's are; a player's may go under any of the system's or another
// player's listed before it. They are copied, so the caller's stay as they were.
func (c *Campaign) AddTemplates(ts []Template) strictjson.Problems {
	copies := append([]Template(nil), ts...)
	ch := c.System.checker()
	for i := range copies {
		if _, taken := ch.templates[copies[i].ID]; taken {
			ch.Add(rules.PathOf("templates", i, "id"), "the system has a template %q already", copies[i].ID)
		}
		ch.templates[copies[i].ID] = &copies[i]
	}
	ch.checkTemplates("templates", copies, false)
	if len(ch.Problems) > 0 {
		ch.Problems.Sort()
		return ch.Problems
	}
	if c.templates == nil {
		c.templates = map[string]*Template{}
	}
	for i := range copies {
		c.templates[copies[i].ID] = &copies[i]
	}
	c.parsed.reset() // an item parsed on the old templates may read otherwise now
	for _, t := range c.templates {
		switch {
		case t.Parent != "" && c.templates[t.Parent] != nil && c.templates[t.Parent] != t:
			t.up = c.templates[t.Parent]
		case t.Parent != "":
			t.up = c.System.resolveTemplate(t.Parent)
		case t.Group != "": // a player's template from before nesting named its group
			t.up = c.System.index.templates[c.System.TemplateAlias(t.Group)]
		}
	}
	return nil
}

// itemTemplate is the template an item was made from: its copy's, else its type's.
func (s *System) itemTemplate(it *Item) *Template {
	if it.sys == s {
		return it.tmpl
	}
	return s.lookupTemplate(it)
}

func (s *System) lookupTemplate(it *Item) *Template {
	if t := s.resolveTemplate(it.Template); t != nil {
		return t
	}
	return s.resolveTemplate(it.Type)
}

// layerFor is what an item becomes in a state: its own layer, else the nearest of its
// template's lineage that has one.
func (s *System) layerFor(it *Item, t *Template, state string) *Layer {
	if l := it.Layers[state]; l != nil {
		return l
	}
	for t := range s.lineage(t) {
		if l := t.layers[state]; l != nil {
			return l
		}
	}
	return nil
}

// Field returns a field's value as it is now: the last on layer that sets it, else the
// item's own, else its template's default (the nearest in its lineage).
func (c *Current) Field(key string) (any, bool) {
	for i := c.n - 1; i >= 0; i-- {
		if v, ok := c.layer(i).Fields[key]; ok {
			return v, true
		}
	}
	if v, ok := c.Item.Fields[key]; ok {
		return v, true
	}
	for t := range c.sys.lineage(c.Template) {
		if v, ok := t.Defaults[key]; ok {
			return v, true
		}
	}
	return nil, false
}

// Has reports whether the item has a feature now: a layer that turns it on or off
// decides, else a "main" feature of its template is always on, else the item's own
// choice, else its template's (the nearest in its lineage that names it). Stacks is on
// unless something says false.
func (c *Current) Has(feature string) bool {
	for i := c.n - 1; i >= 0; i-- {
		if v, ok := c.layer(i).Features[feature]; ok {
			return v
		}
	}
	for t := range c.sys.lineage(c.Template) {
		if t.Features[feature] == "main" {
			return true
		}
	}
	if v, ok := c.Item.Features[feature]; ok {
		return v
	}
	for t := range c.sys.lineage(c.Template) {
		if v, ok := t.Features[feature].(bool); ok {
			return v
		}
	}
	return feature == "stacks"
}

// HasProperty reports whether one of the item's properties starts with p, ignoring
// case ("Versatile" for "Versatile (1d10)").
func (c *Current) HasProperty(p string) bool {
	v, _ := c.Field("properties")
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok && len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

// Locks reports whether a layer that is on locks a state (only the GM may change it).
func (c *Current) Locks(state string) bool {
	for i := 0; i < c.n; i++ {
		for _, k := range c.layer(i).Locks {
			if k == state {
				return true
			}
		}
	}
	return false
}
