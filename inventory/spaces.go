package inventory

import (
	"strings"

	"sheetkeeper/refusal"
)

// A container's spaces, as Pack Rat has them (store.js): its main space and its
// compartments — a side pocket, a lid, its outside — each with its own allows rules, its
// own count (holdLimit) and weight (capacityLb). A shared compartment's contents count in
// the container's capacity too; a separate one's (its outside, where gear is strapped)
// only in its own. A container with straps and no compartment of that id has an outside
// of its own. An entry in a compartment the container no longer has is in its main space.

// outside is the id of a container's outside, where gear strapped to it goes.
const outside = "out"

// space is one space of a container: its compartment id ("" the main space), what it is
// called, its allows rules, capacityLb and holdLimit (0: no bound), and whether it is
// separate from the container's capacity and weightless.
type space struct {
	id, name   string
	allows     []any
	capacity   float64
	max        float64
	separate   bool
	weightless bool
}

// legacyHolds are the "Only holds" choices of a container from before allows rules
// (its holds field), read as rules and a count as Pack Rat's HOLDER_RULES (store.js) has
// them: a scroll case ten sheets (parchment two places), a quiver or a bolt case twenty.
// Pack Rat's arrows are its D&D 5e's Ammunition feature; in a system without that
// feature, the name alone says what an arrow is.
func legacyHolds(kind string, ammunition bool) ([]any, float64) {
	rule := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	switch kind {
	case "scrolls":
		return []any{rule("name", "parchment", "size", 2.0), rule("name", "paper map chart scroll letter deed sheet"),
			rule("template", "document", "category", []any{"Letter", "Note", "Scroll", "Map"}),
			rule("template", "consumable", "category", []any{"Scroll"})}, 10
	case "arrows", "bolts":
		r := rule("name", strings.TrimSuffix(kind, "s"))
		if ammunition {
			r["feature"] = "ammunition"
		}
		return []any{r}, 20
	}
	return nil, 0
}

// mainSpace is a container's main space, read off it as it is now.
func mainSpace(cur *Current) space {
	sp := space{name: cur.Name}
	if v, ok := cur.Field("allows"); ok {
		sp.allows, _ = v.([]any)
	}
	if v, ok := cur.Field("capacityLb"); ok {
		sp.capacity, _ = v.(float64)
	}
	if v, ok := cur.Field("holdLimit"); ok {
		sp.max, _ = v.(float64)
	}
	if len(sp.allows) == 0 {
		if v, _ := cur.Field("holds"); v != nil {
			kind, _ := v.(string)
			var most float64
			if sp.allows, most = legacyHolds(kind, cur.sys.FeatureByKey("ammunition") != nil); sp.max <= 0 {
				sp.max = most
			}
		}
	}
	if v, ok := cur.Field("weightless"); ok {
		sp.weightless = v == true
	}
	return sp
}

// compartment is a container's compartment of that id (its outside, for a container with
// straps, unless a compartment of its own is called so).
func compartment(cur *Current, id string) (space, bool) {
	v, _ := cur.Field("compartments")
	list, _ := v.([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		if cid, _ := m["id"].(string); cid == id && id != "" {
			name, _ := m["name"].(string)
			sp := space{id: id, name: name + " of " + cur.Name, separate: m["capacity"] == "separate", weightless: m["weightless"] == true}
			sp.allows, _ = m["allows"].([]any)
			sp.capacity, _ = m["capacityLb"].(float64)
			sp.max, _ = m["holdLimit"].(float64)
			return sp, true
		}
	}
	if v, _ := cur.Field("straps"); id == outside && v == true {
		return space{id: outside, name: "the outside of " + cur.Name, separate: true}, true
	}
	return space{}, false
}

// spaceIn is the space of a container an entry inside it is in.
func spaceIn(cur *Current, x *Entry) space {
	if x.Compartment != "" {
		if sp, ok := compartment(cur, x.Compartment); ok {
			return sp
		}
	}
	return mainSpace(cur)
}

// PutIn is Put into one of the box's compartments, by id ("" its main space). The space
// must allow it (its own allows rules: a compartment's, else the container's) and have
// room: its holdLimit counts the places what is in it takes (the size of the rule each
// matches, times how many), its capacityLb weighs it; the container's capacityLb weighs
// its main space and its shared compartments together. What goes into a pouch inside a
// sack is inside the sack too, so every container enclosing the box must have room for
// it as well (see roomAround).
func (c *Campaign) PutIn(inv []*Entry, e, box *Entry, id string) error {
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
	sp := mainSpace(&cur)
	if id != "" {
		var ok bool
		if sp, ok = compartment(&cur, id); !ok {
			return refusal.New(refusal.NotAllowed, "%s has no compartment %q", cur.Name, id)
		}
	}
	if err := c.fits(inv, e, box, &cur, sp); err != nil {
		return err
	}
	if err := c.roomAround(inv, e, box, &cur, sp); err != nil {
		return err
	}
	e.Parent, e.Compartment, e.Equipped = box.UID, id, false
	return nil
}

// roomAround refuses e going into space sp of box when that would overflow the box or any
// container enclosing it: each is weighed as it would be with e in place (a copy of e
// put there, so a refusal changes nothing and a move within one container does not count
// twice), from the box out to MaxNesting deep, by the space the chain is in (and, for a
// shared compartment, the container's capacity as a whole). The climb stops at a
// weightless space, since nothing in it weighs on what is further out.
func (c *Campaign) roomAround(inv []*Entry, e, box *Entry, cur *Current, sp space) error {
	placed := *e
	placed.Parent, placed.Compartment = box.UID, sp.id
	view := make([]*Entry, 0, len(inv)+1)
	for _, x := range inv {
		if x != e {
			view = append(view, x)
		}
	}
	view = append(view, &placed)
	at, holder := box, *cur
	for depth := 0; ; depth++ {
		if err := c.withinCapacity(view, at, &holder, sp); err != nil {
			return err
		}
		if sp.weightless || at.Parent == "" || depth >= MaxNesting {
			return nil
		}
		out := find(view, at.Parent)
		if out == nil {
			return nil
		}
		holder = c.Now(out)
		sp, at = spaceIn(&holder, at), out
	}
}

// withinCapacity refuses a container (cur, box) whose space sp weighs more than its capacityLb,
// or, for a shared compartment, whose main space and shared compartments together weigh
// more than the container's; a separate compartment's weight is its own.
func (c *Campaign) withinCapacity(inv []*Entry, box *Entry, cur *Current, sp space) error {
	if sp.capacity > 0 {
		in := func(x space) bool { return x.id == sp.id }
		if sp.id == "" { // the container's capacity: its main space and shared compartments
			in = func(x space) bool { return !x.separate }
		}
		if w := c.load(inv, box, cur, in); w > sp.capacity {
			return refusal.New(refusal.TooHeavy, "too heavy: %s holds %g %s", sp.name, sp.capacity, c.System.WeightUnit(sp.capacity))
		}
	}
	if whole := mainSpace(cur); !sp.separate && sp.id != "" && whole.capacity > 0 {
		if w := c.load(inv, box, cur, func(x space) bool { return !x.separate }); w > whole.capacity {
			return refusal.New(refusal.TooHeavy, "too heavy: %s holds %g %s", whole.name, whole.capacity, c.System.WeightUnit(whole.capacity))
		}
	}
	return nil
}

// fits refuses e going into space sp of box when the space does not allow it or has no
// places left (its weight is roomAround's).
func (c *Campaign) fits(inv []*Entry, e, box *Entry, cur *Current, sp space) error {
	if size := c.ruleSize(sp.allows, e); size == 0 {
		return refusal.New(refusal.NotAllowed, "%s does not hold %s", sp.name, c.Now(e).Name)
	}
	if sp.max > 0 {
		used := c.ruleSize(sp.allows, e) * e.Qty
		for _, x := range inv {
			if x.Parent == box.UID && x != e && spaceIn(cur, x).id == sp.id {
				used += max(c.ruleSize(sp.allows, x), 1) * x.Qty
			}
		}
		if float64(used) > sp.max {
			return refusal.New(refusal.NoSlot, "%s holds at most %g", sp.name, sp.max)
		}
	}
	return nil
}

// load is what the spaces of box that in picks weigh: each thing in them with what it
// carries (burden).
func (c *Campaign) load(inv []*Entry, box *Entry, cur *Current, in func(space) bool) float64 {
	var w float64
	for _, x := range inv {
		if x.Parent == box.UID && x != box && in(spaceIn(cur, x)) {
			w += c.burden(inv, x, 1)
		}
	}
	return w
}

// ruleSize is how many places e takes in a space with these allows rules, 0 when it may
// not go in (Pack Rat's ruleSize): anything takes 1 of a space without rules; with rules,
// the size of the first it matches (at least 1), and a container goes in only where a
// rule asks for containers (feature holds).
func (c *Campaign) ruleSize(rules []any, e *Entry) int64 {
	if len(rules) == 0 {
		return 1
	}
	cur := c.Now(e)
	holder := cur.Has("holds")
	asksHolds := false
	for _, x := range rules {
		if m, ok := x.(map[string]any); ok && m["feature"] == "holds" {
			asksHolds = true
		}
	}
	if holder && !asksHolds {
		return 0
	}
	for _, x := range rules {
		if m, ok := x.(map[string]any); ok {
			r := allowRule(m)
			if c.ruleMatches(&r, e, &cur) {
				return int64(max(r.Size, 1))
			}
		}
	}
	return 0
}
