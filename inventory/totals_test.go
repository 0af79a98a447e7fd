package inventory

import "testing"

func TestTotalsAndLimits(t *testing.T) {
	c := campaign(t)
	ring, sword := entry(t, c, "lr-ring"), entry(t, c, "lr-sword")
	ring.Own = map[string]bool{"attuned": true}
	ring.GM = map[string]bool{"identified": true}
	arrows := &Entry{Qty: 30, Item: &Item{ID: "arrows", Type: "lr-gear", Name: "Arrows", Cost: 10, Weight: 1,
		Features: map[string]bool{"bundle": true}, Fields: map[string]any{"bundle": 20.0}}}
	p := purse(t, c.System.Money(), map[string]int64{"gp": 1, "cp": 5})
	tot := c.Totals([]*Entry{ring, sword, arrows}, p)
	if tot.GearWorth != 350000+200+15 || tot.CoinsWorth != 205 || tot.Load.Items != 0+1+1.5 {
		t.Errorf("got %+v", tot)
	}
	lim := c.Limits([]*Entry{ring, sword}, func(string) (float64, bool) { return 0, false })
	if len(lim) != 1 || lim[0] != (StateCount{Key: "attuned", Count: 1, Limit: 3}) {
		t.Errorf("limits: %+v", lim)
	}
}
