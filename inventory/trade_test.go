package inventory

import (
	"testing"

	"pgregory.net/rapid"
	"sheetkeeper/refusal"
)

func i64(n int64) *int64 { return &n }

func TestBuy(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	st := &Shop{Prices: Prices{Markup: 10}, Open: true, Funds: i64(0),
		Listings: []Listing{{Item: c.System.CatalogItem("lr-sword"), Stock: i64(1)}}}
	p := purse(t, m, map[string]int64{"gp": 2})
	got, err := c.Buy(st, 0, 1, p, "u1")
	if err != nil || got.Paid != 220 || !samePurse(m, got.Purse, map[string]int64{"sp": 18}) || got.Entry.Item.ID != "lr-sword" || got.Entry.Qty != 1 {
		t.Fatalf("got %+v (%v), %v", got, m.Map(got.Purse), err)
	}
	if *st.Listings[0].Stock != 0 || *st.Funds != 220 {
		t.Errorf("stock %d, funds %d", *st.Listings[0].Stock, *st.Funds)
	}
	if _, err := c.Buy(st, 0, 1, got.Purse, "u2"); refusal.Of(err) != refusal.OutOfStock {
		t.Errorf("the last sword is sold: %v", err)
	}
	st.Listings = append(st.Listings, Listing{Item: c.System.CatalogItem("lr-mail")})
	if _, err := c.Buy(st, 1, 1, got.Purse, "u3"); refusal.Of(err) != refusal.CannotAfford || *st.Funds != 220 {
		t.Errorf("180 cp for mail at 660: %v", err)
	}
	st.Open = false
	if _, err := c.Buy(st, 1, 1, p, "u4"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a closed shop: %v", err)
	}
}

func TestSell(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	ring := c.NewEntry("r", c.System.CatalogItem("lr-ring"), 1)
	ring.GM = map[string]bool{"identified": true}
	st := &Shop{Prices: Prices{SellRate: 50}, Open: true, Buys: true, Funds: i64(100)}
	if _, _, err := c.Sell(st, ring, 1, m.NewPurse()); refusal.Of(err) != refusal.CannotAfford || ring.Qty != 1 {
		t.Errorf("a shop with 100 cannot pay 175,000: %v", err)
	}
	*st.Funds = 1e6
	got, offer, err := c.Sell(st, ring, 1, m.NewPurse())
	if err != nil || offer != 175000 || !samePurse(m, got, map[string]int64{"sp": 17500}) || ring.Qty != 0 || *st.Funds != 1e6-175000 {
		t.Fatalf("selling the identified ring: %v %d %v", m.Map(got), offer, err)
	}
}

// TestTradeConservesMoney: buying and selling move money between buyer and shop and
// never make or lose any.
func TestTradeConservesMoney(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	ids := []string{"lr-sword", "lr-mail", "lr-skin", "lr-ring", "lr-curio-1"}
	rapid.Check(t, func(t *rapid.T) {
		p := m.NewPurse()
		for i := range p {
			p[i] = rapid.Int64Range(0, 30).Draw(t, m.Coins[i].Key)
		}
		st := &Shop{Prices: Prices{Markup: rapid.Int64Range(-90, 500).Draw(t, "markup"), SellRate: rapid.Int64Range(0, 1000).Draw(t, "rate")},
			Open: true, Buys: true, Funds: i64(rapid.Int64Range(0, 1e5).Draw(t, "funds"))}
		for _, id := range ids {
			st.Listings = append(st.Listings, Listing{Item: c.System.CatalogItem(id), Stock: i64(3)})
		}
		total := m.Worth(p) + *st.Funds
		var inv []*Entry
		for step := 0; step < 10; step++ {
			if rapid.Bool().Draw(t, "buy") || len(inv) == 0 {
				got, err := c.Buy(st, rapid.IntRange(0, len(ids)-1).Draw(t, "listing"), rapid.Int64Range(1, 2).Draw(t, "lots"), p, "u")
				if err == nil {
					p = got.Purse
					inv = append(inv, got.Entry)
				}
			} else {
				e := inv[rapid.IntRange(0, len(inv)-1).Draw(t, "entry")]
				if e.Qty == 0 {
					continue
				}
				if got, _, err := c.Sell(st, e, 1, p); err == nil {
					p = got
				}
			}
			if m.Worth(p)+*st.Funds != total {
				t.Fatalf("step %d: money made or lost: %d → %d", step, total, m.Worth(p)+*st.Funds)
			}
		}
	})
}
