package panel

import (
	"maps"
	"slices"

	"sheetkeeper/inventory"
)

// Who is a character as the caller holds them beyond their inventory: the card's name
// and stats, the purse, and the values and settings of the campaign.
type Who struct {
	ID, Name string
	// Stats are the character's own, over the system's starting values.
	Stats map[string]any
	Purse inventory.Purse
	// Local are the character's Local values; Global the campaign's; Settings its rules
	// settings (the bot stores none yet, so it sends none: the panel reads {}).
	Local    map[string]float64
	Global   map[string]any
	Settings map[string]any
}

// StateOf is the state a panel is sent for one character: every entry of the inventory
// as it is now (its on states' layers applied), the limited states' use, and the
// totals in the system's money and weight, worked out by the inventory engine.
func StateOf(c *inventory.Campaign, who Who, inv []*inventory.Entry) State {
	sys := c.System
	money := sys.Money()
	local := func(name string) (float64, bool) { v, ok := who.Local[name]; return v, ok }
	st := State{
		System:   sys.ID,
		Settings: orEmpty(who.Settings),
		Limits:   map[string]Limit{},
		Values:   Values{Global: orEmpty(who.Global), Local: map[string]any{}},
		Character: Character{ID: who.ID, Name: who.Name,
			Stats: maps.Clone(orEmpty(sys.Stats)), Coins: money.Map(who.Purse)},
		Items: make([]Item, 0, len(inv)),
	}
	maps.Copy(st.Character.Stats, who.Stats)
	for k, v := range who.Local {
		st.Values.Local[k] = v
	}
	for _, l := range c.Limits(inv, local) {
		st.Limits[l.Key] = Limit{Count: l.Count, Limit: l.Limit}
	}
	byUID := make(map[string]*inventory.Entry, len(inv))
	for _, e := range inv {
		byUID[e.UID] = e
	}
	for _, e := range inv {
		st.Items = append(st.Items, itemOf(c, e, byUID[e.Parent]))
	}
	t := c.Totals(inv, who.Purse)
	st.Totals = Totals{Carried: t.Load.Carried, CoinsWorth: money.Format(t.CoinsWorth), GearWorth: money.Format(t.GearWorth)}
	for i, coin := range money.Coins {
		var n int64
		if i < len(who.Purse) {
			n = who.Purse[i]
		}
		st.Totals.Coins = append(st.Totals.Coins, CoinCount{Key: coin.Key, Count: n})
	}
	return st
}

// itemOf is one entry as a panel reads it; holder is the container it is in, or nil.
func itemOf(c *inventory.Campaign, e, holder *inventory.Entry) Item {
	cur := c.Now(e)
	sys := c.System
	lineage := sys.Lineage(cur.Template)
	x := Item{UID: e.UID, SrcID: e.Item.ID, Name: cur.Name, Qty: e.Qty, Equipped: e.Equipped,
		States: map[string]bool{}, Values: map[string]any{}, Parent: e.Parent,
		Main: []string{}, Features: []string{}, Item: map[string]any{}}
	if len(lineage) > 0 {
		x.Template, x.Root = lineage[0].ID, lineage[len(lineage)-1].ID
	}
	for _, s := range c.States {
		if e.On(s.Key) {
			x.States[s.Key] = true
		}
	}
	if holder != nil {
		h := c.Now(holder)
		x.Location, x.InHolder = h.Name, h.Has("holds")
	}
	// The features and fields an item can have: its system's, its templates', its own.
	features := map[string]bool{}
	fields := map[string]bool{}
	for _, f := range sys.Features {
		features[f.Key] = true
	}
	for _, f := range sys.CommonFields {
		fields[f.Key] = true
	}
	for _, t := range lineage {
		for k, v := range t.Features {
			features[k] = true
			if v == "main" && !slices.Contains(x.Main, k) {
				x.Main = append(x.Main, k)
			}
		}
		for _, f := range t.Fields {
			fields[f.Key] = true
		}
		for k := range t.Defaults {
			fields[k] = true
		}
	}
	slices.Sort(x.Main)
	for k := range e.Item.Features {
		features[k] = true
	}
	for k := range e.Item.Fields {
		fields[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(features)) {
		if !cur.Has(k) {
			continue
		}
		x.Features = append(x.Features, k)
		if f := sys.FeatureByKey(k); f != nil {
			for _, fl := range f.Fields {
				fields[fl.Key] = true
			}
		}
	}
	for k := range fields {
		if v, ok := cur.Field(k); ok {
			x.Item[k] = v
		}
	}
	x.Item["id"], x.Item["type"], x.Item["name"] = e.Item.ID, e.Item.Type, cur.Name
	x.Item["category"], x.Item["cost"], x.Item["weight"] = cur.Category, cur.Cost, cur.Weight
	if cur.Description != "" {
		x.Item["description"] = cur.Description
	}
	return x
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
