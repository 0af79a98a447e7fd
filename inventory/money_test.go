package inventory

import (
	"testing"

	"pgregory.net/rapid"
	"sheetkeeper/refusal"
)

// dnd5eMoney is D&D 5e's coins, change in gold, silver and copper.
func dnd5eMoney() *Money {
	return newMoney(&Currency{Coins: []Coin{{Key: "pp", Value: 1000}, {Key: "gp", Value: 100}, {Key: "ep", Value: 50}, {Key: "sp", Value: 10}, {Key: "cp", Value: 1}},
		Change: []string{"gp", "sp", "cp"}, Show: "gp"})
}

func purse(t testing.TB, m *Money, coins map[string]int64) Purse {
	t.Helper()
	p, err := m.PurseOf(coins)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func samePurse(m *Money, got Purse, want map[string]int64) bool {
	g := m.Map(got)
	if len(g) != len(want) {
		return false
	}
	for k, v := range want {
		if g[k] != v {
			return false
		}
	}
	return true
}

// TestPayBreaksAndGivesChange: the seed's (and the issue's) example — 3 gp paying
// 9 sp 3 cp: nothing smaller to spend, so a gold piece is broken and the 7 cp change
// comes in the change coins below gold.
func TestPayBreaksAndGivesChange(t *testing.T) {
	m := dnd5eMoney()
	got, ok := m.Pay(purse(t, m, map[string]int64{"gp": 3}), 93)
	if !ok || !samePurse(m, got, map[string]int64{"gp": 2, "cp": 7}) {
		t.Fatalf("got %v %v, want 2 gp 7 cp", m.Map(got), ok)
	}
}

func TestPay(t *testing.T) {
	s := lantern(t)
	m := s.Money()
	cases := []struct {
		have map[string]int64
		cost int64
		want map[string]int64
		ok   bool
	}{
		// The largest coins first, without overpaying.
		{map[string]int64{"gp": 1, "sp": 5, "cp": 3}, 52, map[string]int64{"gp": 1, "cp": 1}, true},
		// Nothing left to pay with but gold: one is broken, change in silver and copper.
		{map[string]int64{"gp": 2}, 15, map[string]int64{"gp": 1, "sp": 18, "cp": 5}, true},
		// The smallest coin that covers the rest is the one broken (silver, not gold).
		{map[string]int64{"gp": 1, "sp": 1}, 3, map[string]int64{"gp": 1, "cp": 7}, true},
		{map[string]int64{"sp": 2}, 20, map[string]int64{}, true},
		{map[string]int64{"sp": 1, "cp": 9}, 20, nil, false},
		{map[string]int64{}, 0, map[string]int64{}, true},
	}
	for _, tc := range cases {
		p := purse(t, m, tc.have)
		got, ok := m.Pay(p, tc.cost)
		if ok != tc.ok || ok && !samePurse(m, got, tc.want) {
			t.Errorf("%v paying %d: got %v %v, want %v %v", tc.have, tc.cost, m.Map(got), ok, tc.want, tc.ok)
		}
		if !samePurse(m, p, tc.have) {
			t.Errorf("Pay changed the purse it was given: %v", m.Map(p))
		}
	}
}

// TestSalePaidInChangeCoins: the seed's 9 gp sale, in a system whose shops pay out in
// silver and copper only: 180 sp, no gold.
func TestSalePaidInChangeCoins(t *testing.T) {
	m := lantern(t).Money()
	sold := Prices{SellRate: 100}.Offer(1800, 1, 1)
	got := m.Receive(m.NewPurse(), sold)
	if !samePurse(m, got, map[string]int64{"sp": 180}) {
		t.Fatalf("a 9 gp sale paid %v, want 180 sp", m.Map(got))
	}
	if m.Format(sold) != "180 sp" {
		t.Errorf("Format(1800) = %q", m.Format(sold))
	}
}

func TestShopPrices(t *testing.T) {
	if got := (Prices{Markup: 10}).Price(5); got != 6 {
		t.Errorf("5 at +10%% = %d, want 6 (5.5 rounded half up)", got)
	}
	if got := (Prices{Markup: 10}).Price(150); got != 165 {
		t.Errorf("150 at +10%% = %d", got)
	}
	if got := (Prices{Markup: -50}).Price(3); got != 2 {
		t.Errorf("3 at -50%% = %d, want 2 (1.5 rounded half up)", got)
	}
	if got := (Prices{SellRate: 50}).Offer(25, 3, 1); got != 37 {
		t.Errorf("half of 3×25 = %d, want 37 (rounded down)", got)
	}
	if got := (Prices{SellRate: -5}).Offer(100, 1, 1); got != 0 {
		t.Errorf("a negative rate pays nothing: %d", got)
	}
	if got := (Prices{Markup: -300}).Price(100); got != 0 {
		t.Errorf("a price never goes below 0: %d", got)
	}
	if got := (Prices{SellRate: 1000}).Offer(1e12, 10000, 1); got != 1e17 {
		t.Errorf("the largest offer does not overflow: %d", got)
	}
	if _, ok := dnd5eMoney().Pay(Purse{0, 5, 0, -3, 0}, 10); ok {
		t.Error("a purse with a negative count pays nothing")
	}
	if got := (Prices{SellRate: 50}).Offer(100, 30, 20); got != 75 {
		t.Errorf("30 arrows sold in bundles of 20 at 100 = %d, want 75", got)
	}
}

func TestFormat(t *testing.T) {
	lr := lantern(t).Money() // show sp: decimal below it
	shillings := newMoney(&Currency{Coins: []Coin{{Key: "li", Value: 240}, {Key: "sh", Value: 12}, {Key: "d", Value: 1}}, Show: "sh"})
	basic := newMoney(nil)
	cases := []struct {
		m    *Money
		n    int64
		want string
	}{
		{lr, 15, "1.5 sp"}, {lr, 200, "20 sp"}, {lr, 0, "0 sp"}, {lr, 350000, "35,000 sp"}, {lr, 3, "0.3 sp"},
		{shillings, 50, "4 sh 2 d"}, {shillings, 48, "4 sh"}, {shillings, 5, "5 d"}, {shillings, -50, "-4 sh 2 d"},
		{basic, 1234, "12.34 gp"}, {basic, 1230, "12.3 gp"}, {basic, 5, "0.05 gp"},
	}
	for _, tc := range cases {
		if got := tc.m.Format(tc.n); got != tc.want {
			t.Errorf("Format(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestParseAmount(t *testing.T) {
	m := lantern(t).Money()
	good := map[string]int64{
		"4 gp 2 sp": 820, "4gp, 2 silver": 820, "1.5 sp": 15, "12": 120, "3 cp": 3,
		"1 gold and 1 copper": 201, "2 GP": 400, "0.5 gp": 100, "2 coppers": 2,
	}
	for in, want := range good {
		got, err := m.ParseAmount(in)
		if err != nil || got != want {
			t.Errorf("ParseAmount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "gp", "4 zz", "1.25 sp", "4 gp 2", "1..2 gp", "99999999999999 gp", "-3 gp"} {
		if _, err := m.ParseAmount(in); refusal.Of(err) != refusal.BadAmount {
			t.Errorf("ParseAmount(%q): %v, want bad-amount", in, err)
		}
	}
}

// TestMoneyIsConserved: a purchase moves exactly the price from the buyer to the shop
// and a sale exactly the offer from the shop to the seller; nothing is made or lost,
// and no purse goes below zero.
func TestMoneyIsConserved(t *testing.T) {
	systems := []*Money{dnd5eMoney(), lantern(t).Money(), newMoney(nil),
		newMoney(&Currency{Coins: []Coin{{Key: "li", Value: 240}, {Key: "sh", Value: 12}, {Key: "d", Value: 1}}, Change: []string{"sh"}})}
	rapid.Check(t, func(t *rapid.T) {
		m := systems[rapid.IntRange(0, len(systems)-1).Draw(t, "system")]
		p := m.NewPurse()
		for i := range p {
			p[i] = rapid.Int64Range(0, 50).Draw(t, m.Coins[i].Key)
		}
		shop := Prices{Markup: rapid.Int64Range(-90, 500).Draw(t, "markup"), SellRate: rapid.Int64Range(0, 1000).Draw(t, "rate")}
		cost := rapid.Int64Range(0, 20000).Draw(t, "cost")
		till := rapid.Int64Range(0, 1e6).Draw(t, "till")
		before := m.Worth(p) + till

		price := shop.Price(cost)
		after, ok := m.Pay(p, price)
		if !ok {
			if m.Worth(p) >= price {
				t.Fatalf("refused a purse worth %d a price of %d", m.Worth(p), price)
			}
			return
		}
		for i, n := range after {
			if n < 0 {
				t.Fatalf("%s went below zero: %v", m.Coins[i].Key, after)
			}
		}
		till += price
		if m.Worth(after)+till != before {
			t.Fatalf("a purchase of %d made or lost money: %d → %d", price, before, m.Worth(after)+till)
		}
		offer := shop.Offer(cost, 1, 1)
		sold := m.Receive(after, offer)
		till -= offer
		if m.Worth(sold)+till != before {
			t.Fatalf("a sale of %d made or lost money", offer)
		}
	})
}

func BenchmarkPayWithChange(b *testing.B) {
	m := dnd5eMoney()
	p := Purse{0, 3, 0, 0, 0}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := m.Pay(p, 93); !ok {
			b.Fatal("unpaid")
		}
	}
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"4 gp 2 sp", "1.5 sp", "12", "1 gold and 1 copper", "0.000000001 gp", "9999999999 gp"} {
		f.Add(s)
	}
	m := dnd5eMoney()
	f.Fuzz(func(t *testing.T, s string) {
		n, err := m.ParseAmount(s)
		if err == nil && (n < 0 || n > maxMoney) {
			t.Fatalf("ParseAmount(%q) = %d, out of bounds", s, n)
		}
		if err != nil && refusal.Of(err) != refusal.BadAmount {
			t.Fatalf("ParseAmount(%q): %v is not a bad-amount refusal", s, err)
		}
	})
}
