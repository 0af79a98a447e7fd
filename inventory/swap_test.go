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
	if len(b.Inv) != 3 || theirSkins.Qty != 3 || find(b.Inv, sack.UID) != sack || mail.Parent != sack.UID {
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
	err = c.Trade(b, a, Offer{Items: []Give{{UID: sack.UID, Qty: 1}, {UID: mail.UID, Qty: 1}}}, Offer{}, uid)
	if refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("the mail goes with the sack: %v", err)
	}
	// One entry listed twice (each part within its count) is refused, not taken twice.
	err = c.Trade(a, b, Offer{Items: []Give{{UID: "skins", Qty: 3}, {UID: "skins", Qty: 1}}}, Offer{}, uid)
	if refusal.Of(err) != refusal.NotAllowed || len(a.Inv) != before || skins.Qty != 3 {
		t.Errorf("skins listed twice: %v, a holds %v", err, a.Inv)
	}
}

// TestTradeSwapsEntriesWithTheSameUID: uids are counted per character, so the two sides
// of a trade often give entries with the same uid; each side gives its own, and what
// arrives takes a uid the receiver does not have.
func TestTradeSwapsEntriesWithTheSameUID(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	sword := c.NewEntry("i1", c.System.CatalogItem("lr-sword"), 1)
	shield := c.NewEntry("i1", c.System.CatalogItem("lr-shield"), 1)
	a := &Party{Inv: []*Entry{sword}, Purse: m.NewPurse()}
	b := &Party{Inv: []*Entry{shield}, Purse: m.NewPurse()}
	one := Offer{Items: []Give{{UID: "i1", Qty: 1}}}
	if err := c.Trade(a, b, one, one, tradeUIDs()); err != nil {
		t.Fatal(err)
	}
	wantHolds(t, "a", a.Inv, "1 lr-shield")
	wantHolds(t, "b", b.Inv, "1 lr-sword")
}

// TestTradeMovesAContainerWithItsContentsPastTheSameUIDs: a sack given for an entry with
// its uid goes with what is inside it, and only that, though the receiver holds an entry
// with the uid of the sack's contents.
func TestTradeMovesAContainerWithItsContentsPastTheSameUIDs(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	sack, mail, skins := c.NewEntry("i1", c.System.CatalogItem("lr-sack"), 1), c.NewEntry("i2", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("i3", c.System.CatalogItem("lr-skin"), 5)
	mail.Parent = "i1"
	shield, sword := c.NewEntry("i1", c.System.CatalogItem("lr-shield"), 1), c.NewEntry("i2", c.System.CatalogItem("lr-sword"), 1)
	a := &Party{Inv: []*Entry{sack, mail, skins}, Purse: m.NewPurse()}
	b := &Party{Inv: []*Entry{shield, sword}, Purse: m.NewPurse()}
	one := Offer{Items: []Give{{UID: "i1", Qty: 1}}}
	if err := c.Trade(a, b, one, one, tradeUIDs()); err != nil {
		t.Fatal(err)
	}
	wantHolds(t, "a", a.Inv, "5 lr-skin", "1 lr-shield")
	wantHolds(t, "b", b.Inv, "1 lr-sword", "1 lr-sack", "1 lr-mail in lr-sack")
}

// tradeUIDs makes uids no test party holds.
func tradeUIDs() func() string {
	n := 0
	return func() string { n++; return fmt.Sprint("t", n) }
}

// wantHolds checks that inv holds want, in order ("2 lr-skin", "1 lr-mail in lr-sack"),
// each entry under a uid of its own.
func wantHolds(t *testing.T, who string, inv []*Entry, want ...string) {
	t.Helper()
	var got []string
	uids := map[string]bool{}
	for _, e := range inv {
		s := fmt.Sprint(e.Qty, " ", e.Item.ID)
		if e.Parent != "" {
			p := find(inv, e.Parent)
			if p == nil {
				t.Errorf("%s: %s is in %q, which %s does not hold", who, s, e.Parent, who)
				continue
			}
			s += " in " + p.Item.ID
		}
		if uids[e.UID] {
			t.Errorf("%s: uid %q is used twice", who, e.UID)
		}
		uids[e.UID] = true
		got = append(got, s)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s holds %q, want %q", who, got, want)
	}
}
