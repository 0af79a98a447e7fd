package inventory

// Totals is what a character's inventory adds up to, as panels read it
// (state.totals): the load, the purse's worth, and the gear's worth.
type Totals struct {
	Load       Load
	CoinsWorth int64
	GearWorth  int64
}

// EntryWorth is what an entry is worth as it is now: its item's cost times how many,
// per bundle for an item sold in bundles (rounded down).
func (c *Campaign) EntryWorth(e *Entry) int64 {
	return c.Now(e).Cost * e.Qty / bundleOf(c, e.Item)
}

// Totals adds up an inventory and a purse.
func (c *Campaign) Totals(inv []*Entry, p Purse) Totals {
	t := Totals{Load: c.Carried(inv, p), CoinsWorth: c.System.Money().Worth(p)}
	for _, e := range inv {
		t.GearWorth += c.EntryWorth(e)
	}
	return t
}

// StateCount is one limited state's use: how many items have it on, and the limit.
type StateCount struct {
	Key          string
	Count, Limit int64
}

// Limits is every limited state's use in an inventory (state.limits), in state order;
// local reads the character's Local values.
func (c *Campaign) Limits(inv []*Entry, local func(string) (float64, bool)) []StateCount {
	var out []StateCount
	for i := range c.States {
		if sc, ok := c.LimitUse(inv, &c.States[i], local); ok {
			out = append(out, sc)
		}
	}
	return out
}

// LimitUse is state st's use in an inventory, when st has a limit: one state's line of
// Limits, which reads only that state's limit (a limit read from the sheet works the
// whole sheet out).
func (c *Campaign) LimitUse(inv []*Entry, st *State, local func(string) (float64, bool)) (StateCount, bool) {
	limit, ok := c.Limit(st, local)
	if !ok {
		return StateCount{}, false
	}
	sc := StateCount{Key: st.Key, Limit: limit}
	for _, e := range inv {
		if e.On(st.Key) {
			sc.Count++
		}
	}
	return sc, true
}
