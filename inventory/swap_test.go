package inventory

import (
	"fmt"
	"testing"

	"sheetkeeper/refusal"
)

func TestTrade(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	sack, mail, skins := c.NewEntry("sack", c.System.CatalogItem("lr-sack"), 1), c.NewEntry("mail", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("skins", c.System.CatalogItem("lr-skin"), 5)
	mail.Parent = "sack"
	a := &Party{Inv: []*Entry{sack, mail, skins}, Purse: purse(t, m, map[string]int64{"sp": 10})}
	theirSkins := c.NewEntry("their", c.System.CatalogItem("lr-skin"), 1)
	b := &Party{Inv: []*Entry{theirSkins}, Purse: purse(t, m, map[string]int64{"gp": 1})}
	n := 0
	uid := func() string { n++; return fmt.Sprint("new", n) }

	give := Offer{Items: []Give{{UID: "sack", Qty: 1}, {UID: "skins", Qty: 2}}, Coins: purse(t, m, map[string]int64{"sp": 4})}
	ask := Offer{Coins: purse(t, m, map[string]int64{"gp": 1})}
	if err := c.Trade(a, b, give, ask, uid); err != nil {
		t.Fatal(err)
	}
	if len(a.Inv) != 1 || a.Inv[0] != skins || skins.Qty != 3 {
		t.Errorf("a keeps 3 skins only: %+v", a.Inv)
	}
	if len(b.Inv) != 3 || theirSkins.Qty != 3 || find(b.Inv, "mail").Parent != "sack" {
		t.Errorf("b has the sack with the mail in it, and 3 skins on one stack: %v", b.Inv)
	}
	if !samePurse(m, a.Purse, map[string]int64{"gp": 1, "sp": 6}) || !samePurse(m, b.Purse, map[string]int64{"sp": 4}) {
		t.Errorf("purses: %v %v", m.Map(a.Purse), m.Map(b.Purse))
	}

	before := len(a.Inv)
	err := c.Trade(a, b, Offer{Items: []Give{{UID: "skins", Qty: 1}}}, Offer{Coins: purse(t, m, map[string]int64{"gp": 1})}, uid)
	if refusal.Of(err) != refusal.CannotAfford || len(a.Inv) != before || skins.Qty != 3 {
		t.Errorf("b has no gold left: nothing moves: %v", err)
	}
	err = c.Trade(b, a, Offer{Items: []Give{{UID: "sack", Qty: 1}, {UID: "mail", Qty: 1}}}, Offer{}, uid)
	if refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("the mail goes with the sack: %v", err)
	}
}
