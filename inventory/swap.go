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
// stack is split off (newUID names the new entry). What moves is unequipped and loose,
// and stacks onto the same thing where it stacks.
func (c *Campaign) Trade(a, b *Party, give, ask Offer, newUID func() string) error {
	if err := c.checkOffer(a, give); err != nil {
		return err
	}
	if err := c.checkOffer(b, ask); err != nil {
		return err
	}
	for _, g := range give.Items {
		c.transfer(a, b, g, newUID)
	}
	for _, g := range ask.Items {
		c.transfer(b, a, g, newUID)
	}
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

func (c *Campaign) transfer(src, dst *Party, g Give, newUID func() string) {
	e := find(src.Inv, g.UID)
	if g.Qty < e.Qty {
		e.Qty -= g.Qty
		part := *e
		part.UID, part.Qty, part.Parent, part.Compartment, part.Equipped = newUID(), g.Qty, "", "", false
		part.Own, part.GM = maps.Clone(e.Own), maps.Clone(e.GM)
		dst.Inv, _ = c.Add(dst.Inv, &part)
		return
	}
	moving := map[string]bool{e.UID: true}
	for changed := true; changed; {
		changed = false
		for _, x := range src.Inv {
			if !moving[x.UID] && moving[x.Parent] {
				moving[x.UID], changed = true, true
			}
		}
	}
	kept := src.Inv[:0:0]
	var kids []*Entry
	for _, x := range src.Inv {
		switch {
		case !moving[x.UID]:
			kept = append(kept, x)
		case x != e:
			x.Equipped = false
			kids = append(kids, x)
		}
	}
	src.Inv = kept
	e.Parent, e.Compartment, e.Equipped = "", "", false
	if len(kids) > 0 {
		dst.Inv = append(append(dst.Inv, e), kids...)
	} else {
		dst.Inv, _ = c.Add(dst.Inv, e)
	}
}

func moveCoins(from, to *Party, coins Purse) {
	for i, n := range coins {
		from.Purse[i] -= n
		to.Purse[i] += n
	}
}
