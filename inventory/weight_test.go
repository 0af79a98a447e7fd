package inventory

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

func bagOfHolding() *Item {
	return &Item{ID: "bag-of-holding", Type: "lr-bag", Name: "Bag of holding", Weight: 1, Fields: map[string]any{"weightless": true}}
}

func TestCarried(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	sword, mail, ring := entry(t, c, "lr-sword"), entry(t, c, "lr-mail"), entry(t, c, "lr-ring")
	skins := entry(t, c, "lr-skin")
	skins.Qty = 3
	ring.GM = map[string]bool{"cursed": true}
	bag := &Entry{UID: "bag", Item: bagOfHolding(), Qty: 1}
	inBag := entry(t, c, "lr-mail")
	inBag.Parent = "bag"
	arrows := &Entry{UID: "arrows", Qty: 30, Item: &Item{ID: "arrows", Type: "lr-gear", Name: "Arrows", Weight: 1,
		Features: map[string]bool{"bundle": true}, Fields: map[string]any{"bundle": 20.0}}}
	purse := purse(t, m, map[string]int64{"gp": 50, "sp": 200})
	l := c.Carried([]*Entry{sword, mail, ring, skins, bag, inBag, arrows}, purse)
	// 1 + 2 + 10 (cursed) + 1.5 + 1 (the bag, not its mail) + 1.5 (30 arrows at 1 a 20).
	if l.Items != 17 || l.Coins != 2.5 || l.Carried != 19.5 {
		t.Fatalf("got %+v", l)
	}
	if got := c.System.WeightUnit(1) + "/" + c.System.WeightUnit(2); got != "slot/slots" {
		t.Errorf("units: %s", got)
	}
}

// TestCarriedRingEnds: a corrupt inventory whose containers hold each other still sums.
func TestCarriedRingEnds(t *testing.T) {
	c := campaign(t)
	a, b := entry(t, c, "lr-sack"), entry(t, c, "lr-sack")
	a.UID, b.UID, a.Parent, b.Parent = "a", "b", "b", "a"
	a.Item = &Item{ID: "s", Type: "lr-bag", Name: "S", Weight: 1}
	b.Item = a.Item
	if l := c.Carried([]*Entry{a, b}, nil); l.Items != 2 {
		t.Fatalf("got %+v", l)
	}
}

// TestWeightSumsMatch: the load of any inventory is the sum, item by item, of the
// entries not inside a weightless container; and the load of two loose inventories is
// the sum of theirs.
func TestWeightSumsMatch(t *testing.T) {
	c := campaign(t)
	ids := []string{"lr-sword", "lr-maul", "lr-mail", "lr-ring", "lr-skin", "lr-sack", "lr-curio-1"}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		var inv []*Entry
		for i := 0; i < n; i++ {
			var it *Item
			if rapid.IntRange(0, 9).Draw(t, "bag") == 0 {
				it = bagOfHolding()
			} else {
				it = c.System.CatalogItem(ids[rapid.IntRange(0, len(ids)-1).Draw(t, "item")])
			}
			e := &Entry{UID: fmt.Sprint(i), Item: it, Qty: rapid.Int64Range(1, 20).Draw(t, "qty")}
			if rapid.Bool().Draw(t, "cursed") {
				e.GM = map[string]bool{"cursed": true}
			}
			if i > 0 && rapid.Bool().Draw(t, "inside") {
				e.Parent = fmt.Sprint(rapid.IntRange(0, i-1).Draw(t, "parent"))
			}
			inv = append(inv, e)
		}
		var want float64
		for i, e := range inv {
			if !weightlessAbove(c, inv, i) {
				want += c.EntryWeight(e)
			}
		}
		if got := c.Carried(inv, nil).Items; got != want {
			t.Fatalf("carried %v, item by item %v", got, want)
		}
		var burdens float64
		for _, e := range inv {
			if e.Parent == "" {
				burdens += c.burden(inv, e, 0)
			}
		}
		if math.Abs(burdens-want) > 1e-9*math.Max(1, want) {
			t.Fatalf("carried %v, what the loose entries bear on a container %v", want, burdens)
		}
		var loose []*Entry
		for _, e := range inv {
			loose = append(loose, &Entry{Item: e.Item, Qty: e.Qty, GM: e.GM})
		}
		k := rapid.IntRange(0, len(loose)).Draw(t, "split")
		whole := c.Carried(loose, nil).Items
		parts := c.Carried(loose[:k], nil).Items + c.Carried(loose[k:], nil).Items
		if math.Abs(whole-parts) > 1e-9*math.Max(1, whole) {
			t.Fatalf("whole %v, parts %v", whole, parts)
		}
	})
}

// weightlessAbove is the slow, obvious reading: is any container above inventory entry i
// a weightless one?
func weightlessAbove(c *Campaign, inv []*Entry, i int) bool {
	for p := inv[i].Parent; p != ""; {
		var holder *Entry
		for _, x := range inv {
			if x.UID == p {
				holder = x
			}
		}
		if holder == nil {
			return false
		}
		if holder.Item.Fields["weightless"] == true {
			return true
		}
		p = holder.Parent
	}
	return false
}

func TestEncumbrance(t *testing.T) {
	limit := 30.0
	if e := Encumber(20, 20, &limit); e.Encumbered || e.Over {
		t.Errorf("at the threshold is not over it: %+v", e)
	}
	if e := Encumber(25, 20, &limit); !e.Encumbered || e.Over {
		t.Errorf("25 of 20/30: %+v", e)
	}
	if e := Encumber(31, 20, &limit); !e.Over {
		t.Errorf("31 of 30: %+v", e)
	}
	c := campaign(t)
	inv := []*Entry{entry(t, c, "lr-mail")}
	two := 3.0
	if !c.CanCarry(inv, nil, entry(t, c, "lr-sword"), &two) || c.CanCarry(inv, nil, entry(t, c, "lr-mail"), &two) {
		t.Error("a 2-slot mail and a 1-slot sword fit 3; two mail shirts do not")
	}
}

// TestCapacityWeighsWhatCarriedCounts: a Bag of holding weighs 1 however much is in it
// (Carried), so a sack of capacity 4 takes it with two mail shirts inside and is filled
// by 1; the bag's own capacity is filled by the shirts.
func TestCapacityWeighsWhatCarriedCounts(t *testing.T) {
	c := campaign(t)
	sack := c.NewEntry("sack", c.System.CatalogItem("lr-sack"), 1) // holds 4
	bag := &Entry{UID: "bag", Item: bagOfHolding(), Qty: 1}
	m1, m2 := c.NewEntry("m1", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("m2", c.System.CatalogItem("lr-mail"), 1)
	m1.Parent, m2.Parent = "bag", "bag"
	inv := []*Entry{sack, bag, m1, m2}
	if l := c.Carried([]*Entry{bag, m1, m2}, nil); l.Items != 1 {
		t.Fatalf("the bag and what is in it weigh %g", l.Items)
	}
	if err := c.Put(inv, bag, sack); err != nil {
		t.Errorf("a bag of holding weighing 1 into a sack holding 4: %v", err)
	}
	if got, own := c.contentWeight(inv, sack, 0), c.contentWeight(inv, bag, 0); got != 1 || own != 4 {
		t.Errorf("the sack holds %g (want the bag's 1), the bag %g (want its shirts' 4)", got, own)
	}
}
