package inventory

import (
	"reflect"
	"slices"

	"sheetkeeper/refusal"
)

// NewEntry makes an inventory entry of qty of an item, its charges full.
func (c *Campaign) NewEntry(uid string, it *Item, qty int64) *Entry {
	e := &Entry{UID: uid, Item: it, Qty: qty}
	e.Charges = c.MaxCharges(e)
	return e
}

// Stacks reports whether an entry shares one row with identical copies where it is: its
// item stacks (on unless false), is no container, pack or set of pieces, and is not
// equipped. Copies stack in a container's space as they do loose (Pack Rat's
// addToInventory: the same item, the same parent and compartment).
func (c *Campaign) Stacks(e *Entry) bool {
	cur := c.Now(e)
	return cur.Has("stacks") && !e.Item.NoStack && !cur.Has("holds") && !cur.Has("pack") && !cur.Has("deck") && !e.Equipped
}

// Add puts e into a character's inventory: onto a stack of the identical item in the same
// condition (sameCopy: states, charges, fill) in the same place (loose, or the same space
// of the same container) when it stacks, else as a row of its own. An item with a stack
// limit (a ruleset item's `stack`) fills the stacks there are up to it and starts a row
// of its own with the rest, as Marinara's inventory does; a row of more than the limit
// (an add of many at once) is the caller's to split, since new rows need uids of their
// own. It returns the inventory and the entry now holding what was added (the last
// filled).
func (c *Campaign) Add(inv []*Entry, e *Entry) ([]*Entry, *Entry) {
	if !c.Stacks(e) {
		return append(inv, e), e
	}
	limit := c.StackLimit(e)
	var last *Entry
	for _, x := range inv {
		// The item and its condition first: working out whether a row stacks (Stacks
		// reads it as it is now) costs far more, and a tag adding to 200 rows matches one.
		if x == e || x.Parent != e.Parent || x.Compartment != e.Compartment || !sameItem(x.Item, e.Item) ||
			!sameCopy(x, e) || !c.Stacks(x) {
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

// sameCopy reports whether two entries of the same item are in the same condition, so
// one row can stand for both: the same states (their own and the GM's overrides), charges
// left, fill and pieces taken out. A row's charges and fill are each of its copies' (a
// stack split in a trade gives both parts the row's), so a spent wand joining a full one
// would be refilled by it, or the full one spent.
func sameCopy(x, e *Entry) bool {
	return x.Charges == e.Charges && x.Fill == e.Fill && slices.Equal(x.Out, e.Out) &&
		sameSwitches(x.Own, e.Own) && sameSwitches(x.GM, e.GM)
}

// Put moves all of entry e into container box (nil: out, loose), unequipping it. The box
// must hold things, not be e or inside it, keep nesting within MaxNesting, and have room:
// its capacityLb bounds the weight of everything inside it (however deep: each container
// enclosing the box is weighed too), its holdLimit how many things. A refusal changes
// nothing.
func (c *Campaign) Put(inv []*Entry, e, box *Entry) error {
	return c.PutIn(inv, e, box, "")
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

// contentWeight is the weight of everything inside e, however deep, as e's own spaces
// bear it: each thing in it with what it carries (burden). A Bag of holding's contents
// fill its own capacity, but not that of the sack it is in.
func (c *Campaign) contentWeight(inv []*Entry, e *Entry, level int) float64 {
	if level > MaxNesting || e.UID == "" {
		return 0
	}
	var w float64
	for _, x := range inv {
		if x.Parent == e.UID && x != e {
			w += c.burden(inv, x, level+1)
		}
	}
	return w
}

// burden is what x weighs on the container it is in: its own weight and what is inside
// it, however deep, but for what is in a weightless space (weighsOut) — what Carried
// counts of it, by the same rule, so a capacity and the load never disagree.
func (c *Campaign) burden(inv []*Entry, x *Entry, level int) float64 {
	w := c.EntryWeight(x)
	if level > MaxNesting || x.UID == "" {
		return w
	}
	cur := c.Now(x)
	for _, y := range inv {
		if y.Parent == x.UID && y != x && weighsOut(&cur, y) {
			w += c.burden(inv, y, level+1)
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
