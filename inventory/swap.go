package inventory

import (
	"maps"

	"sheetkeeper/refusal"
)

// Party is one side of a trade between players: their inventory and purse.
type Party struct {
	Inv   []*Entry
	Purse Purse
}

// Offer is what one side of a trade gives: counts of entries, and coins as they are
// (coins change hands as coins, never as change).
type Offer struct {
	Items []Give
	Coins Purse
}

// Give is qty of the entry with uid.
type Give struct {
	UID string
	Qty int64
}

// Trade swaps an offer between two players at once, as Pack Rat's party server does: a
// gives give, b gives ask, both checked before anything moves, so a trade either happens
// whole or not at all. An entry given whole goes with everything inside it; part of a
// stack is split off. What moves is unequipped and loose, and stacks onto the same thing
// where it stacks.
//
// Uids are counted per character, so what a gives and what b gives are often both "i1":
// each side's entries are taken out of its own inventory before anything arrives in
// either, and whatever arrives is named by newUID (which must make uids neither party
// has), so an arrival never shares a uid with what the receiver holds.
func (c *Campaign) Trade(a, b *Party, give, ask Offer, newUID func() string) error {
	if err := c.checkOffer(a, give); err != nil {
		return err
	}
	if err := c.checkOffer(b, ask); err != nil {
		return err
	}
	fromA, fromB := takeOut(a, give), takeOut(b, ask)
	c.bringIn(b, fromA, newUID)
	c.bringIn(a, fromB, newUID)
	moveCoins(a, b, give.Coins)
	moveCoins(b, a, ask.Coins)
	return nil
}

func (c *Campaign) checkOffer(p *Party, o Offer) error {
	listed := map[string]bool{}
	for _, g := range o.Items {
		e := find(p.Inv, g.UID)
		if e == nil || g.Qty < 1 || g.Qty > e.Qty {
			return refusal.New(refusal.NotHeld, "an item in the offer is no longer there")
		}
		if listed[g.UID] {
			return refusal.New(refusal.NotAllowed, "list each item of the offer once, with its whole count")
		}
		listed[g.UID] = true
	}
	for _, g := range o.Items {
		x := find(p.Inv, g.UID)
		for steps := 0; x != nil && x.Parent != "" && steps <= MaxNesting; steps++ {
			if listed[x.Parent] {
				return refusal.New(refusal.NotAllowed, "do not list what is inside a container that is given: it goes with it")
			}
			x = find(p.Inv, x.Parent)
		}
	}
	for i, n := range o.Coins {
		if n < 0 || i >= len(p.Purse) || p.Purse[i] < n {
			return refusal.New(refusal.CannotAfford, "not enough coins for the offer")
		}
	}
	return nil
}

// parcel is one given thing on its way: the entry (the part split off, for part of a
// stack) and what was inside it, in inventory order, still under their giver's uids.
type parcel struct {
	e    *Entry
	kids []*Entry
}

// takeOut takes what offer o lists out of p's inventory (checkOffer found it all there):
// part of a stack is split off and the rest stays; an entry given whole leaves with
// everything inside it.
func takeOut(p *Party, o Offer) []parcel {
	var out []parcel
	for _, g := range o.Items {
		e := find(p.Inv, g.UID)
		if g.Qty < e.Qty {
			e.Qty -= g.Qty
			part := *e
			part.Qty = g.Qty
			part.Own, part.GM = maps.Clone(e.Own), maps.Clone(e.GM)
			out = append(out, parcel{e: &part})
			continue
		}
		kept, kids := takeWhole(p.Inv, e)
		p.Inv = kept
		out = append(out, parcel{e: e, kids: kids})
	}
	return out
}

// takeWhole splits inv into what stays and what goes with e: everything inside it,
// however deep (found by the giver's uids, which are unique in inv).
func takeWhole(inv []*Entry, e *Entry) (kept, kids []*Entry) {
	moving := map[string]bool{e.UID: true}
	for changed := true; changed; {
		changed = false
		for _, x := range inv {
			if !moving[x.UID] && moving[x.Parent] {
				moving[x.UID], changed = true, true
			}
		}
	}
	kept = inv[:0:0]
	for _, x := range inv {
		switch {
		case !moving[x.UID]:
			kept = append(kept, x)
		case x != e:
			kids = append(kids, x)
		}
	}
	return kept, kids
}

// bringIn puts parcels into dst, each entry renamed by newUID (what is inside a
// container keeps to it under its new uid), unequipped, and the given entry loose.
func (c *Campaign) bringIn(dst *Party, parcels []parcel, newUID func() string) {
	for _, pc := range parcels {
		renamed := map[string]string{}
		for _, x := range append([]*Entry{pc.e}, pc.kids...) {
			n := newUID()
			renamed[x.UID], x.UID, x.Equipped = n, n, false
		}
		for _, x := range pc.kids {
			x.Parent = renamed[x.Parent]
		}
		pc.e.Parent, pc.e.Compartment = "", ""
		if len(pc.kids) > 0 {
			dst.Inv = append(append(dst.Inv, pc.e), pc.kids...)
		} else {
			dst.Inv, _ = c.Add(dst.Inv, pc.e)
		}
	}
}

func moveCoins(from, to *Party, coins Purse) {
	for i, n := range coins {
		from.Purse[i] -= n
		to.Purse[i] += n
	}
}
