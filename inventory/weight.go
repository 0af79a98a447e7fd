package inventory

// Load is what a character carries, in the system's weight unit.
type Load struct {
	Items float64 // the inventory's items, as they are now
	Coins float64 // the purse (perWeight coins to a unit)
	// Carried is Items plus Coins.
	Carried float64
}

// EntryWeight is what an entry weighs as it is now: its item's weight times how many,
// divided by its bundle size for an item sold in bundles (weight is per bundle).
func (c *Campaign) EntryWeight(e *Entry) float64 {
	cur := c.Now(e)
	w := cur.Weight * float64(e.Qty)
	if cur.Has("bundle") {
		if b, ok := cur.Field("bundle"); ok {
			if n, ok := b.(float64); ok && n > 1 {
				w /= n
			}
		}
	}
	return w
}

// Carried sums an inventory's load, entry by entry in inventory order: everything
// counts, containers included, except what is inside a weightless container (a Bag of
// Holding) or a weightless compartment, however deep (weighsOut, the rule a container's
// capacity weighs its contents by too). A container's chain is followed at most
// MaxNesting deep, so a ring of containers (a corrupt inventory) ends.
func (c *Campaign) Carried(inv []*Entry, p Purse) Load {
	byUID := make(map[string]*Entry, len(inv))
	for _, e := range inv {
		if e.UID != "" {
			byUID[e.UID] = e
		}
	}
	var l Load
	for _, e := range inv {
		if c.insideWeightless(e, byUID) {
			continue
		}
		l.Items += c.EntryWeight(e)
	}
	if p != nil {
		l.Coins = c.System.Money().CoinWeight(p)
	}
	l.Carried = l.Items + l.Coins
	return l
}

// MaxNesting bounds how deep containers nest inside each other.
const MaxNesting = 16

func (c *Campaign) insideWeightless(e *Entry, byUID map[string]*Entry) bool {
	for depth := 0; e.Parent != "" && depth < MaxNesting; depth++ {
		holder := byUID[e.Parent]
		if holder == nil {
			return false
		}
		if cur := c.Now(holder); !weighsOut(&cur, e) {
			return true
		}
		e = holder
	}
	return false
}

// weighsOut reports whether x, inside the container cur, weighs on what carries the
// container. The space it is in decides, as Pack Rat's entryTotalWeight has it: the main
// space is weightless when the container is (a Bag of holding), a compartment when it
// says so itself. Carried and a container's capacity (burden) both ask it.
func weighsOut(cur *Current, x *Entry) bool {
	return !cur.Has("holds") || !spaceIn(cur, x).weightless
}

// WeightUnit returns the unit an amount is in: "1 slot", "2 slots" (the system's one
// for exactly 1), "lb" for a system that names none.
func (s *System) WeightUnit(n float64) string {
	if s.Weight == nil || s.Weight.Unit == "" {
		return "lb"
	}
	if n == 1 && s.Weight.One != "" {
		return s.Weight.One
	}
	return s.Weight.Unit
}

// Encumbrance is what a load means for a character: past Above they are encumbered;
// past Limit (when there is one) they cannot carry more.
type Encumbrance struct {
	Carried, Above float64
	Limit          *float64
	Encumbered     bool
	Over           bool
}

// Encumber reads a load against a character's thresholds (a ruleset's carry
// encumberedAbove and limit, or a system's capacity, as numbers read off the sheet).
func Encumber(carried, above float64, limit *float64) Encumbrance {
	return Encumbrance{Carried: carried, Above: above, Limit: limit,
		Encumbered: carried > above, Over: limit != nil && carried > *limit}
}

// CanCarry reports whether adding an entry keeps a load within its limit (the
// too-heavy check of an add).
func (c *Campaign) CanCarry(inv []*Entry, p Purse, e *Entry, limit *float64) bool {
	if limit == nil {
		return true
	}
	return c.Carried(inv, p).Carried+c.EntryWeight(e) <= *limit
}
