package inventory

import (
	"reflect"

	"sheetkeeper/refusal"
)

// NewEntry makes an inventory entry of qty of an item, its charges full.
func (c *Campaign) NewEntry(uid string, it *Item, qty int64) *Entry {
	e := &Entry{UID: uid, Item: it, Qty: qty}
	e.Charges = c.MaxCharges(e)
	return e
}

// Stacks reports whether an entry shares one row with identical copies: its item
// stacks (on unless false) and is no container, pack or set of pieces, and it is loose.
func (c *Campaign) Stacks(e *Entry) bool {
	cur := c.Now(e)
	return cur.Has("stacks") && !e.Item.NoStack && !cur.Has("holds") && !cur.Has("pack") && !cur.Has("deck") && e.Parent == "" && !e.Equipped
}

// Add puts e into a character's inventory: onto a loose stack of the identical item in
// the same states when it stacks, else as a row of its own. An item with a stack limit (a
// ruleset item's `stack`) fills the stacks there are up to it and starts a row of its own
// with the rest, as Marinara's inventory does; a row of more than the limit (an add of
// many at once) is the caller's to split, since new rows need uids of their own. It
// returns the inventory and the entry now holding what was added (the last filled).
func (c *Campaign) Add(inv []*Entry, e *Entry) ([]*Entry, *Entry) {
	if !c.Stacks(e) {
		return append(inv, e), e
	}
	limit := c.StackLimit(e)
	var last *Entry
	for _, x := range inv {
		if x == e || !c.Stacks(x) || !sameItem(x.Item, e.Item) || !reflect.DeepEqual(x.Own, e.Own) || !reflect.DeepEqual(x.GM, e.GM) {
			continue
		}
		n := e.Qty
		if limit > 0 {
			n = min(n, max(limit-x.Qty, 0))
		}
		if n > 0 {
			x.Qty += n
			e.Qty -= n
			last = x
		}
		if e.Qty == 0 {
			return inv, last
		}
	}
	return append(inv, e), e
}

// StackLimit is the most one row of an entry's item holds (its stack field), 0 for no
// limit.
func (c *Campaign) StackLimit(e *Entry) int64 {
	cur := c.Now(e)
	v, _ := cur.Field(stackField)
	n, _ := v.(float64)
	if n < 1 {
		return 0
	}
	return int64(n)
}

func sameItem(a, b *Item) bool { return a == b || a.ID == b.ID && reflect.DeepEqual(*a, *b) }

// Put moves all of entry e into container box (nil: out, loose), unequipping it. The box
// must hold things, not be e or inside it, keep nesting within MaxNesting, and have room:
// its capacityLb bounds the weight of everything inside it, its holdLimit how many
// things. A refusal changes nothing.
func (c *Campaign) Put(inv []*Entry, e, box *Entry) error {
	return c.PutIn(inv, e, box, "")
}

// PutIn is Put into one of the box's compartments (by key; "" its main space). A
// compartment is held to its own capacityLb, holdLimit and allows, counting what is in
// it, and the box to its own, counting everything inside it.
func (c *Campaign) PutIn(inv []*Entry, e, box *Entry, compartment string) error {
	if box == nil {
		e.Parent, e.Compartment = "", ""
		return nil
	}
	cur := c.Now(box)
	if !cur.Has("holds") {
		return refusal.New(refusal.NotAllowed, "%s holds nothing", cur.Name)
	}
	if box == e || c.inside(inv, box, e) {
		return refusal.New(refusal.NotAllowed, "%s cannot go inside itself", c.Now(e).Name)
	}
	if c.depth(inv, box)+1+c.height(inv, e) > MaxNesting {
		return refusal.New(refusal.NotAllowed, "containers nest at most %d deep", MaxNesting)
	}
	space := holdsIn{name: cur.Name}
	space.read(cur.Field)
	if err := c.fits(inv, e, box, space, func(*Entry) bool { return true }); err != nil {
		return err
	}
	if compartment != "" {
		part, ok := compartmentOf(&cur, compartment)
		if !ok {
			return refusal.New(refusal.NotAllowed, "%s has no compartment %q", cur.Name, compartment)
		}
		in := func(x *Entry) bool { return x.Compartment == compartment }
		if err := c.fits(inv, e, box, part, in); err != nil {
			return err
		}
	}
	e.Parent, e.Compartment, e.Equipped = box.UID, compartment, false
	return nil
}

// holdsIn is a space things go in, a container's or one of its compartments': what it is
// called, and its allows, capacityLb and holdLimit (0: no bound).
type holdsIn struct {
	name          string
	allows        []any
	capacity, max float64
}

// read takes a space's bounds from a field reader (a container as it is now, or a
// compartment's object).
func (h *holdsIn) read(field func(string) (any, bool)) {
	if v, ok := field("allows"); ok {
		h.allows, _ = v.([]any)
	}
	if v, ok := field("capacityLb"); ok {
		h.capacity, _ = v.(float64)
	}
	if v, ok := field("holdLimit"); ok {
		h.max, _ = v.(float64)
	}
}

// compartmentOf is the compartment of a container with that key.
func compartmentOf(cur *Current, key string) (holdsIn, bool) {
	v, _ := cur.Field("compartments")
	list, _ := v.([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if k, _ := m["key"].(string); k == key {
			label, _ := m["label"].(string)
			h := holdsIn{name: label + " of " + cur.Name}
			h.read(func(k string) (any, bool) { v, ok := m[k]; return v, ok })
			return h, true
		}
	}
	return holdsIn{}, false
}

// fits refuses e going into a space of box when the space does not allow it or has no
// room; counts says which of what is in box are in the space.
func (c *Campaign) fits(inv []*Entry, e, box *Entry, h holdsIn, counts func(*Entry) bool) error {
	if len(h.allows) > 0 && !c.allowed(h.allows, e) {
		return refusal.New(refusal.NotAllowed, "%s does not hold %s", h.name, c.Now(e).Name)
	}
	var weight float64
	var count int64
	for _, x := range inv {
		if x.Parent == box.UID && x != e && counts(x) {
			weight += c.EntryWeight(x) + c.contentWeight(inv, x, 1)
			count += x.Qty
		}
	}
	if h.capacity > 0 && weight+c.EntryWeight(e)+c.contentWeight(inv, e, 0) > h.capacity {
		return refusal.New(refusal.TooHeavy, "too heavy: %s holds %g %s", h.name, h.capacity, c.System.WeightUnit(h.capacity))
	}
	if h.max > 0 && float64(count+e.Qty) > h.max {
		return refusal.New(refusal.NoSlot, "%s holds at most %g", h.name, h.max)
	}
	return nil
}

// inside reports whether x is somewhere inside container e.
func (c *Campaign) inside(inv []*Entry, x, e *Entry) bool {
	for depth := 0; x.Parent != "" && depth <= MaxNesting; depth++ {
		if x.Parent == e.UID {
			return true
		}
		if x = find(inv, x.Parent); x == nil {
			return false
		}
	}
	return false
}

// depth is how many containers e is inside.
func (c *Campaign) depth(inv []*Entry, e *Entry) int {
	n := 0
	for ; e != nil && e.Parent != "" && n <= MaxNesting; n++ {
		e = find(inv, e.Parent)
	}
	return n
}

// height is how deep the containers inside e go (0: nothing inside).
func (c *Campaign) height(inv []*Entry, e *Entry) int {
	return c.heightAt(inv, e, 0)
}

func (c *Campaign) heightAt(inv []*Entry, e *Entry, level int) int {
	if level > MaxNesting {
		return level
	}
	h := 0
	for _, x := range inv {
		if x.Parent == e.UID && x != e {
			h = max(h, 1+c.heightAt(inv, x, level+1))
		}
	}
	return h
}

// contentWeight is the weight of everything inside e, however deep.
func (c *Campaign) contentWeight(inv []*Entry, e *Entry, level int) float64 {
	if level > MaxNesting || e.UID == "" {
		return 0
	}
	var w float64
	for _, x := range inv {
		if x.Parent == e.UID && x != e {
			w += c.EntryWeight(x) + c.contentWeight(inv, x, level+1)
		}
	}
	return w
}

func find(inv []*Entry, uid string) *Entry {
	for _, x := range inv {
		if x.UID == uid {
			return x
		}
	}
	return nil
}

// MaxCharges is how many charges an entry's item has now (0: none).
func (c *Campaign) MaxCharges(e *Entry) int64 {
	cur := c.Now(e)
	if !cur.Has("charges") {
		return 0
	}
	v, _ := cur.Field("maxCharges")
	n, _ := v.(float64)
	return int64(max(n, 0))
}

// UseCharges spends n of an entry's charges; more than it has is refused.
func (c *Campaign) UseCharges(e *Entry, n int64) error {
	if c.MaxCharges(e) == 0 {
		return refusal.New(refusal.NotAllowed, "%s has no charges", c.Now(e).Name)
	}
	if n < 1 || n > e.Charges {
		return refusal.New(refusal.Insufficient, "%s has %d charges left", c.Now(e).Name, e.Charges)
	}
	e.Charges -= n
	return nil
}

// Recharge gives an entry n charges back, up to its maximum (n < 0: all of them).
func (c *Campaign) Recharge(e *Entry, n int64) {
	most := c.MaxCharges(e)
	if n < 0 {
		e.Charges = most
		return
	}
	e.Charges = min(most, e.Charges+n)
}

// Fill pours pints into (negative: out of) a liquid container, within 0 and its
// liquidPints.
func (c *Campaign) Fill(e *Entry, pints float64) error {
	cur := c.Now(e)
	if !cur.Has("liquid") {
		return refusal.New(refusal.NotAllowed, "%s holds no liquid", cur.Name)
	}
	v, _ := cur.Field("liquidPints")
	most, _ := v.(float64)
	next := e.Fill + pints
	if next < 0 || next > most {
		return refusal.New(refusal.BadAmount, "%s holds 0 up to %g pints; it has %g", cur.Name, most, e.Fill)
	}
	e.Fill = next
	return nil
}

// allowed reports whether e matches one of a container's allows rules.
func (c *Campaign) allowed(list []any, e *Entry) bool {
	cur := c.Now(e)
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			r := allowRule(m)
			if c.ruleMatches(&r, e, &cur) {
				return true
			}
		}
	}
	return false
}
