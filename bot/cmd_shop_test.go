package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// shopTable is a D&D 5e campaign on its SRD system with n players (p0, p1…), each with
// a character C0, C1… holding 60 gp, and an open shop with one Potion of Healing at
// 50 gp.
func shopTable(t *testing.T, n int) (*cmdTable, []User) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "dnd5e-srd", "system", "dnd5e-srd")
	var users []User
	for i := range n {
		u := User{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("p%d", i)}
		name := fmt.Sprintf("C%d", i)
		m.ok(u, "character create", "name", name)
		m.ok(u, "character join", "name", name)
		m.ok(gmUser, "coins add", "amount", "60 gp", "name", name)
		users = append(users, u)
	}
	m.ok(gmUser, "shop open", "name", "Hesk's")
	if got := m.ok(gmUser, "shop stock", "item", "Potion of Healing", "price", "50 gp"); !strings.Contains(got, "1 on the shelf") {
		t.Fatalf("/shop stock: %q", got)
	}
	return m, users
}

func (m *cmdTable) shop() *storage.ShopRecord {
	m.t.Helper()
	var s *storage.ShopRecord
	m.view(func(tx storage.Tx) error {
		var err error
		s, err = tx.Shop(m.ch)
		return err
	})
	return s
}

// TestLastPotionRace: eight players press Buy on the last potion at once, against a
// real bbolt file: exactly one gets it and pays, every other is refused out-of-stock and
// keeps their coins. The GM's Undo of the purchase puts the potion back on the shelf
// and the coins back in the purse.
func TestLastPotionRace(t *testing.T) {
	m, users := shopTable(t, 8)
	// What each held before (the game's first character starts with the showcase).
	before := make([]int, len(users))
	for i := range users {
		before[i] = len(m.gameRecord(fmt.Sprintf("C%d", i)).Inventory.Items)
	}
	var wg sync.WaitGroup
	resps := make([]Response, len(users))
	errs := make([]error, len(users))
	for i, u := range users {
		wg.Go(func() {
			comp := Component{CustomID: shopBuyID.encode("potion-of-healing-common"), User: u, ChannelID: m.ch}
			resps[i], errs[i] = m.core.buyClick(context.Background(), comp, []string{"potion-of-healing-common"})
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if winner >= 0 {
				t.Fatalf("both C%d and C%d bought the last potion", winner, i)
			}
			winner = i
		case refusal.Of(err) != refusal.OutOfStock:
			t.Errorf("C%d: %v (%s), want out-of-stock", i, err, refusal.Of(err))
		}
	}
	if winner < 0 {
		t.Fatal("nobody bought the potion")
	}
	if s := m.shop().Listings[0].Stock; s == nil || *s != 0 {
		t.Fatalf("stock after the race: %v", s)
	}
	for i := range users {
		rec := m.gameRecord(fmt.Sprintf("C%d", i))
		want := map[string]int64{"gp": 60}
		if i == winner {
			want = map[string]int64{"gp": 10}
			if items := rec.Inventory.Items; len(items) != before[i]+1 || items[len(items)-1].ID != "potion-of-healing-common" {
				t.Errorf("the buyer holds %+v", items)
			}
		}
		if fmt.Sprint(rec.Inventory.Purse) != fmt.Sprint(want) {
			t.Errorf("C%d's purse %v, want %v", i, rec.Inventory.Purse, want)
		}
	}

	undo := resps[winner].Components[0].Buttons[0]
	got := m.core.OnComponent(context.Background(), Component{CustomID: undo.CustomID, User: gmUser, ChannelID: m.ch})
	if !strings.Contains(got.Content, "Undone") {
		t.Fatalf("undo: %+v", got)
	}
	if s := m.shop().Listings[0].Stock; s == nil || *s != 1 {
		t.Errorf("stock after Undo: %v", s)
	}
	if rec := m.gameRecord(fmt.Sprintf("C%d", winner)); fmt.Sprint(rec.Inventory.Purse) != fmt.Sprint(map[string]int64{"gp": 60}) || len(rec.Inventory.Items) != before[winner] {
		t.Errorf("the buyer after Undo: %+v", rec.Inventory)
	}
}

// TestShopRefusals: each refusal names its kind and changes nothing.
func TestShopRefusals(t *testing.T) {
	m, users := shopTable(t, 1)
	cmd := func(name string, opts ...string) Command {
		c := Command{Name: name, User: users[0], ChannelID: m.ch}
		for i := 0; i+1 < len(opts); i += 2 {
			c.Options = append(c.Options, Option{Name: opts[i], Value: opts[i+1]})
		}
		return c
	}
	ctx := context.Background()
	for _, c := range []struct {
		what string
		run  func() error
		want refusal.Reason
	}{
		{"more than the stock", func() error { _, err := m.core.cmdBuy(ctx, cmd("buy", "item", "Potion", "count", "2")); return err }, refusal.OutOfStock},
		{"a count of 0", func() error { _, err := m.core.cmdBuy(ctx, cmd("buy", "item", "Potion", "count", "0")); return err }, refusal.BadAmount},
		{"what it does not sell", func() error { _, err := m.core.cmdBuy(ctx, cmd("buy", "item", "Airship")); return err }, refusal.UnknownEntry},
		{"selling what is not held", func() error { _, err := m.core.cmdSell(ctx, cmd("sell", "item", "Lamp")); return err }, refusal.NotHeld},
		{"a name too long", func() error {
			_, err := m.core.cmdShopOpen(ctx, Command{Name: "shop open", User: gmUser, ChannelID: m.ch, Options: []Option{{Name: "name", Value: strings.Repeat("x", 81)}}})
			return err
		}, refusal.TooMany},
		{"past the most a listing holds", func() error {
			_, err := m.core.cmdShopStock(ctx, Command{Name: "shop stock", User: gmUser, ChannelID: m.ch, Options: []Option{{Name: "item", Value: "Potion of Healing"}, {Name: "count", Value: "1000000"}}})
			return err
		}, refusal.TooMany},
		{"a player stocking", func() error { _, err := m.core.cmdShopStock(ctx, cmd("shop stock", "item", "Lamp")); return err }, refusal.NotGM},
		{"a player minting coins", func() error {
			_, err := coinsHandler("add")(m.core, ctx, cmd("coins add", "amount", "9 gp"))
			return err
		}, refusal.NotGM},
		{"a bad amount", func() error {
			_, err := coinsHandler("remove")(m.core, ctx, cmd("coins remove", "amount", "9 doubloons"))
			return err
		}, refusal.BadAmount},
		{"more than the purse", func() error {
			_, err := coinsHandler("remove")(m.core, ctx, cmd("coins remove", "amount", "61 gp"))
			return err
		}, refusal.CannotAfford},
	} {
		if err := c.run(); refusal.Of(err) != c.want {
			t.Errorf("%s: %v (%s), want %s", c.what, err, refusal.Of(err), c.want)
		}
	}
	m.ok(gmUser, "shop close")
	if _, err := m.core.cmdBuy(ctx, cmd("buy", "item", "Potion")); refusal.Of(err) != refusal.NotAllowed || !strings.Contains(err.Error(), "closed") {
		t.Errorf("a closed shop: %v", err)
	}
	if s := m.shop().Listings[0].Stock; *s != 1 {
		t.Errorf("the refusals changed the stock: %d", *s)
	}
	if rec := m.gameRecord("C0"); fmt.Sprint(rec.Inventory.Purse) != fmt.Sprint(map[string]int64{"gp": 60}) {
		t.Errorf("the refusals changed the purse: %v", rec.Inventory.Purse)
	}
}

// TestCoinsAddRefusesAPursePastItsLimit: /coins add that would take a purse past what
// it is read back with is refused bad-amount, saying the limit, and the purse stays as
// it was and usable; an add up to the limit itself is accepted, and the purse still
// reads back.
func TestCoinsAddRefusesAPursePastItsLimit(t *testing.T) {
	m, _ := shopTable(t, 1)
	ctx := context.Background()
	add := func(amount string) error {
		_, err := coinsHandler("add")(m.core, ctx, Command{Name: "coins add", User: gmUser, ChannelID: m.ch,
			Options: []Option{{Name: "amount", Value: amount}, {Name: "name", Value: "C0"}}})
		return err
	}
	err := add("10000000000 gp")
	if refusal.Of(err) != refusal.BadAmount || !strings.Contains(err.Error(), "up to 10,000,000,000 gp") {
		t.Errorf("10,000,000,000 gp onto 60 gp: %v, want bad-amount saying the purse's limit", err)
	}
	if got := m.gameRecord("C0").Inventory.Purse; fmt.Sprint(got) != fmt.Sprint(map[string]int64{"gp": 60}) {
		t.Errorf("the refused add changed the purse: %v", got)
	}
	if r := m.run(gmUser, "coins remove", "amount", "1 gp", "name", "C0"); r.Ephemeral {
		t.Errorf("the purse after the refused add: %q", r.Content)
	}
	if err := add("9999999941 gp"); err != nil {
		t.Fatalf("an add up to the limit: %v", err)
	}
	if got := m.gameRecord("C0").Inventory.Purse; fmt.Sprint(got) != fmt.Sprint(map[string]int64{"gp": 10000000000}) {
		t.Errorf("the purse at its limit: %v", got)
	}
	if r := m.run(gmUser, "inventory", "name", "C0"); strings.Contains(r.Content, "does not fit") || len(r.Embeds) == 0 {
		t.Errorf("/inventory of a purse at its limit: %+v", r)
	}
	if err := add("1 gp"); refusal.Of(err) != refusal.BadAmount {
		t.Errorf("1 gp onto a purse at its limit: %v, want bad-amount", err)
	}
}

// TestTradeRefusesCoinsPastThePurseLimit: a trade whose coins would take the
// receiver's purse past its limit is refused bad-amount when accepted, and neither
// purse changes.
func TestTradeRefusesCoinsPastThePurseLimit(t *testing.T) {
	m, users := shopTable(t, 2)
	m.ok(gmUser, "coins add", "amount", "9999999940 gp", "name", "C1")
	r := m.core.OnCommand(context.Background(), Command{Name: "trade offer", User: users[0], ChannelID: m.ch,
		Options: []Option{{Name: "to", Value: "C1"}, {Name: "give_coins", Value: "1 gp"}}})
	if len(r.Components) == 0 {
		t.Fatalf("/trade offer: %+v", r)
	}
	accept := r.Components[0].Buttons[0]
	args, err := tradeAcceptID.parse(accept.CustomID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.core.tradeAccept(context.Background(), Component{CustomID: accept.CustomID, User: users[1], ChannelID: m.ch}, args)
	if refusal.Of(err) != refusal.BadAmount {
		t.Errorf("1 gp into a purse at its limit: %v, want bad-amount", err)
	}
	for name, gp := range map[string]int64{"C0": 60, "C1": 10000000000} {
		if rec := m.gameRecord(name); fmt.Sprint(rec.Inventory.Purse) != fmt.Sprint(map[string]int64{"gp": gp}) {
			t.Errorf("%s after the refused trade: %v", name, rec.Inventory.Purse)
		}
	}
}

// TestSellRefusesALockedItem: a player cannot sell away what they cannot let go of —
// a bound cursed ring is refused locked, as a remove of it is, and stays held — while
// the GM, who alone ends it, can sell it for them.
func TestSellRefusesALockedItem(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	if _, err := itemAs(m, gmUser, "add", "name", "Wren", "item", "Hollow Ring"); err != nil {
		t.Fatal(err)
	}
	if _, err := itemAs(m, ana, "state", "item", "Hollow Ring", "key", "bound", "state", "on"); err != nil {
		t.Fatal(err)
	}
	if _, err := itemAs(m, ana, "remove", "item", "Hollow Ring"); refusal.Of(err) != refusal.Locked {
		t.Fatalf("remove: %v, want locked", err)
	}
	ctx := context.Background()
	if _, err := m.core.cmdShopOpen(ctx, Command{Name: "shop open", User: gmUser, ChannelID: m.ch}); err != nil {
		t.Fatal(err)
	}
	sell := func(u User, opts ...Option) error {
		_, err := m.core.cmdSell(ctx, Command{Name: "sell", User: u, ChannelID: m.ch, Options: append([]Option{{Name: "item", Value: "Hollow Ring"}}, opts...)})
		return err
	}
	if err := sell(ana); refusal.Of(err) != refusal.Locked {
		t.Errorf("selling the bound cursed ring: %v, want locked", err)
	}
	if got := m.holdings("Wren"); !strings.Contains(got, "hollow-ring") {
		t.Fatalf("Wren sold her cursed ring away: holds %s", got)
	}
	if err := sell(gmUser, Option{Name: "name", Value: "Wren"}); err != nil {
		t.Errorf("the GM selling it for her: %v", err)
	}
	if got := m.holdings("Wren"); strings.Contains(got, "hollow-ring") {
		t.Errorf("the GM's sale left the ring: holds %s", got)
	}
}

// TestSellRefusesAContainerHoldingALockedItem: a container with something inside that
// the player cannot let go of (a state the GM set) is refused locked when sold, as when
// given — not "take them out first", which could not be done either.
func TestSellRefusesAContainerHoldingALockedItem(t *testing.T) {
	m, users := shopTable(t, 2)
	m.ok(gmUser, "item state", "item", "Rations (1 day)", "key", "identified", "state", "on", "name", "C0")
	held := func() string { inv := m.gameRecord("C0").Inventory; return fmt.Sprint(inv.Items, inv.Purse) }
	before := held()
	ctx := context.Background()
	_, err := itemHandler("give")(m.core, ctx, Command{Name: "item give", User: users[0], ChannelID: m.ch,
		Options: []Option{{Name: "item", Value: "Backpack"}, {Name: "to", Value: "C1"}}})
	if refusal.Of(err) != refusal.Locked {
		t.Fatalf("giving the Backpack holding the GM's Rations: %v, want locked", err)
	}
	_, err = m.core.cmdSell(ctx, Command{Name: "sell", User: users[0], ChannelID: m.ch, Options: []Option{{Name: "item", Value: "Backpack"}}})
	if refusal.Of(err) != refusal.Locked {
		t.Errorf("selling the Backpack holding the GM's Rations: %v, want locked", err)
	}
	if got := held(); got != before {
		t.Errorf("the refused sale changed C0's holdings: %s, were %s", got, before)
	}
}

// storedJSON is a game card's stored holdings as JSON.
func (m *cmdTable) storedJSON(name string) string {
	m.t.Helper()
	data, err := json.Marshal(m.gameRecord(name).Inventory)
	if err != nil {
		m.t.Fatal(err)
	}
	return string(data)
}

// undo presses the Undo button of a command's reply as the GM.
func (m *cmdTable) undo(r Response) {
	m.t.Helper()
	if len(r.Components) == 0 {
		m.t.Fatalf("no Undo button on %+v", r)
	}
	undo := r.Components[0].Buttons[0]
	if got := m.core.OnComponent(context.Background(), Component{CustomID: undo.CustomID, User: gmUser, ChannelID: m.ch}); !strings.Contains(got.Content, "Undone") {
		m.t.Fatalf("undo: %+v", got)
	}
}

// TestBuyMakesTheRowsAnAddMakes: three backpacks bought are three rows of one, the
// very rows three added make (a bag never shares a row; each with a uid of its own, as
// the undone purchase's are never given again), and Undo of the purchase puts back the
// holdings, the purse and the stock exactly, but for the uid counter.
func TestBuyMakesTheRowsAnAddMakes(t *testing.T) {
	m, users := shopTable(t, 2)
	m.ok(gmUser, "coins add", "amount", "100 gp", "name", "C1")
	m.ok(gmUser, "shop stock", "item", "Backpack", "count", "3", "price", "2 gp")
	before, items := m.storedJSON("C1"), len(m.gameRecord("C1").Inventory.Items)
	shop := func() string { data, _ := json.Marshal(m.shop()); return string(data) }
	stocked := shop()
	r := m.run(users[1], "buy", "item", "Backpack", "count", "3")
	if r.Ephemeral {
		t.Fatalf("/buy: %q", r.Content)
	}
	bought := m.gameRecord("C1").Inventory.Items[items:]
	if len(bought) != 3 {
		t.Fatalf("3 backpacks bought make %d rows, want 3: %+v", len(bought), bought)
	}
	m.undo(r)
	if got, want := m.storedJSON("C1"), strings.TrimSuffix(before, "}")+`,"next":3}`; got != want {
		t.Errorf("C1 after Undo of the purchase:\n%s\nwant\n%s", got, want)
	}
	if got := shop(); got != stocked {
		t.Errorf("the shop after Undo of the purchase:\n%s\nwant\n%s", got, stocked)
	}
	m.ok(gmUser, "item add", "item", "Backpack", "count", "3", "name", "C1")
	added := slices.Clone(m.gameRecord("C1").Inventory.Items[items:])
	for i := range added {
		added[i].UID = bought[i].UID
	}
	if b, a := fmt.Sprint(bought), fmt.Sprint(added); b != a {
		t.Errorf("3 backpacks bought make rows %s, added %s", b, a)
	}
}

// TestBuyKeepsToTheStackLimit: 25 Eel Jerky (a stack of at most 10) bought are rows of
// 10, 10 and 5, the very rows 25 added make; Undo of the purchase puts back the
// holdings, the purse and the stock exactly.
func TestBuyKeepsToTheStackLimit(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	ctx := context.Background()
	gm := func(run CommandFunc, name string, opts ...string) {
		t.Helper()
		cmd := Command{Name: name, User: gmUser, ChannelID: m.ch}
		for i := 0; i+1 < len(opts); i += 2 {
			cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
		}
		if _, err := run(m.core, ctx, cmd); err != nil {
			t.Fatalf("/%s %q: %v", name, opts, err)
		}
	}
	gm((*Core).cmdShopOpen, "shop open")
	gm((*Core).cmdShopStock, "shop stock", "item", "Eel Jerky", "count", "25")
	gm(coinsHandler("add"), "coins add", "amount", "60 reeds", "name", "Wren")
	before := m.holdings("Wren")
	stock := func() int64 {
		var n int64
		if err := m.store.View(ctx, func(tx storage.Tx) error {
			s, err := tx.Shop(m.ch)
			if err == nil {
				n = *s.Listings[0].Stock
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	r, err := m.core.cmdBuy(ctx, Command{Name: "buy", User: ana, ChannelID: m.ch, Options: []Option{{Name: "item", Value: "Eel Jerky"}, {Name: "count", Value: "25"}}})
	if err != nil {
		t.Fatal(err)
	}
	bought, _, _ := strings.Cut(m.holdings("Wren"), `],`)
	if want := `{"items":[{"uid":"i1","id":"pack/eel-jerky","qty":10},{"uid":"i2","id":"pack/eel-jerky","qty":10},{"uid":"i3","id":"pack/eel-jerky","qty":5}`; bought != want {
		t.Errorf("25 Eel Jerky bought, a stack of at most 10, make %s, want %s", bought, want)
	}
	undo := r.Components[0].Buttons[0]
	if got := m.core.OnComponent(ctx, Component{CustomID: undo.CustomID, User: gmUser, ChannelID: m.ch}); !strings.Contains(got.Content, "Undone") {
		t.Fatalf("undo: %+v", got)
	}
	if got, want := m.holdings("Wren"), strings.TrimSuffix(before, "}")+`,"next":3}`; got != want {
		t.Errorf("Wren after Undo of the purchase: %s, want %s", got, want)
	}
	if n := stock(); n != 25 {
		t.Errorf("the stock after Undo of the purchase: %d, want 25", n)
	}
	if _, err := itemAs(m, gmUser, "add", "name", "Wren", "item", "Eel Jerky", "count", "25"); err != nil {
		t.Fatal(err)
	}
	// The undone purchase's uids are not given again: the rows added are i4 to i6.
	added, _, _ := strings.Cut(m.holdings("Wren"), `],`)
	if added = strings.NewReplacer(`"i4"`, `"i1"`, `"i5"`, `"i2"`, `"i6"`, `"i3"`).Replace(added); added != bought {
		t.Errorf("25 Eel Jerky added make %s, bought %s", added, bought)
	}
}

// TestBuyRefusesMoreRowsThanAnInventoryHolds: a purchase that would make more rows
// than an inventory holds is refused too-many, and neither the stock nor the purse
// changes — by /buy, and by a buy tag, where the next tag of the message still finds
// the stock as it was.
func TestBuyRefusesMoreRowsThanAnInventoryHolds(t *testing.T) {
	m, users := shopTable(t, 2)
	m.ok(gmUser, "shop stock", "item", "Backpack", "count", "2001", "price", "1 cp")
	before, stocked := m.storedJSON("C1"), *m.shop().Listings[1].Stock
	_, err := m.core.cmdBuy(context.Background(), Command{Name: "buy", User: users[1], ChannelID: m.ch,
		Options: []Option{{Name: "item", Value: "Backpack"}, {Name: "count", Value: "2001"}}})
	if refusal.Of(err) != refusal.TooMany {
		t.Errorf("2001 backpacks bought: %v, want too-many", err)
	}
	if got := m.storedJSON("C1"); got != before {
		t.Errorf("the refused purchase changed C1's holdings: %s, were %s", got, before)
	}
	if got := *m.shop().Listings[1].Stock; got != stocked {
		t.Errorf("the refused purchase changed the stock: %d, was %d", got, stocked)
	}
	acts := m.core.OnMessage(context.Background(), Message{ID: "m1", ChannelID: m.ch, Author: gmUser,
		Content: `[inventory: action="buy" item="Backpack" count="2001" who="C1"] [inventory: action="buy" item="Backpack" who="C1"]`})
	wantOutcomes(t, "the buy tags", acts, refusal.TooMany, "")
	if got := *m.shop().Listings[1].Stock; got != stocked-1 {
		t.Errorf("the stock after a refused and a bought backpack: %d, want %d", got, stocked-1)
	}
}

// TestTradeExpires: an offer answered after it expired is refused, nothing moves, and
// the offer is gone.
func TestTradeExpires(t *testing.T) {
	m, users := shopTable(t, 2)
	r := m.core.OnCommand(context.Background(), Command{Name: "trade offer", User: users[0], ChannelID: m.ch,
		Options: []Option{{Name: "to", Value: "C1"}, {Name: "give_coins", Value: "5 gp"}}})
	if len(r.Components) == 0 {
		t.Fatalf("/trade offer: %+v", r)
	}
	m.core.clock.(*schedule.ManualClock).Set(cmdTime.Add(tradeTTL + 1))
	accept := r.Components[0].Buttons[0]
	args, err := tradeAcceptID.parse(accept.CustomID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.core.tradeAccept(context.Background(), Component{CustomID: accept.CustomID, User: users[1], ChannelID: m.ch}, args)
	if refusal.Of(err) != refusal.NotAllowed || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("a late accept: %v", err)
	}
	for _, name := range []string{"C0", "C1"} {
		if rec := m.gameRecord(name); fmt.Sprint(rec.Inventory.Purse) != fmt.Sprint(map[string]int64{"gp": 60}) {
			t.Errorf("%s after a late accept: %v", name, rec.Inventory.Purse)
		}
	}
	m.view(func(tx storage.Tx) error {
		if _, err := tx.Trade(m.ch); storage.KindOf(err) != storage.NotFound {
			t.Errorf("the expired offer is still stored: %v", err)
		}
		return nil
	})
}

// TestOldAcceptAnswersNoLaterOffer: an offer accepted, declined or expired is deleted,
// and the next offer in the channel takes another id, so the Accept button left on the
// old offer's message is refused, the offer is no longer open, and the later offer is
// untouched, still open to its own Accept (the old button accepted it: both offers were
// "1").
func TestOldAcceptAnswersNoLaterOffer(t *testing.T) {
	for _, end := range []string{"accepted", "declined", "expired"} {
		t.Run(end, func(t *testing.T) {
			m, users := shopTable(t, 2)
			m.ok(gmUser, "item add", "item", "Dagger", "name", "C1")
			first := m.offer(users[0], "to", "C1", "give_coins", "5 gp")
			switch end {
			case "accepted":
				m.ok(users[1], "trade accept")
			case "declined":
				if err := m.answerTrade(tradeDeclineID, users[1], first.Buttons[1]); err != nil {
					t.Fatal(err)
				}
			case "expired":
				m.core.clock.(*schedule.ManualClock).Set(cmdTime.Add(tradeTTL + 1))
				if err := m.answerTrade(tradeAcceptID, users[1], first.Buttons[0]); refusal.Of(err) != refusal.NotAllowed || !strings.Contains(err.Error(), "expired") {
					t.Fatalf("a late accept: %v", err)
				}
			}
			before := map[string]string{"C0": m.heldRows("C0"), "C1": m.heldRows("C1")}
			second := m.offer(users[0], "to", "C1", "give_coins", "1 gp", "want", "Dagger")
			if second.Buttons[0].CustomID == first.Buttons[0].CustomID {
				t.Errorf("both offers' Accept is %q", first.Buttons[0].CustomID)
			}
			err := m.answerTrade(tradeAcceptID, users[1], first.Buttons[0])
			if refusal.Of(err) != refusal.NotAllowed || !strings.Contains(err.Error(), "no longer open") {
				t.Fatalf("the first offer's Accept: %v", err)
			}
			for name, rows := range before {
				wantText(t, name+" after the old Accept", m.heldRows(name), rows)
			}
			if err := m.answerTrade(tradeAcceptID, users[1], second.Buttons[0]); err != nil {
				t.Fatalf("the second offer's Accept: %v", err)
			}
			if got := m.heldRows("C0"); !strings.HasSuffix(got, "1 dagger") {
				t.Errorf("C0 after the second offer: %s", got)
			}
		})
	}
}

// TestOfferCountsOnFromAnOldPendingOffer: a campaign stored before offers were counted
// in it (no tradeOffers) counts on from the offer pending in its channel, so the offer
// that replaces it has an id of its own.
func TestOfferCountsOnFromAnOldPendingOffer(t *testing.T) {
	m, users := shopTable(t, 2)
	m.offer(users[0], "to", "C1", "give_coins", "5 gp")
	m.update(func(tx storage.Tx) error {
		camp, err := tx.Campaign(m.ch)
		if err != nil {
			return err
		}
		o, err := tx.Trade(m.ch)
		if err != nil {
			return err
		}
		camp.TradeOffers, o.ID = 0, "3"
		if err := tx.PutCampaign(camp); err != nil {
			return err
		}
		return tx.PutTrade(o)
	})
	next := m.offer(users[0], "to", "C1", "give_coins", "1 gp")
	if id := next.Buttons[0].CustomID; !strings.HasPrefix(id, tradeAcceptID.encode("4-")) {
		t.Errorf("the next offer's Accept is %q, want offer 4", id)
	}
}

// offer makes a trade offer as u, with options as name, value pairs, and returns its
// row of buttons (Accept, Decline).
func (m *cmdTable) offer(u User, opts ...string) Row {
	m.t.Helper()
	r := m.run(u, "trade offer", opts...)
	if len(r.Components) == 0 || len(r.Components[0].Buttons) != 2 {
		m.t.Fatalf("/trade offer %q: %+v", opts, r)
	}
	return r.Components[0]
}

// answerTrade presses an offer's button b of kind k (Accept or Decline) as u, and
// returns its refusal, if any.
func (m *cmdTable) answerTrade(k componentKind, u User, b Button) error {
	m.t.Helper()
	args, err := k.parse(b.CustomID)
	if err != nil {
		m.t.Fatal(err)
	}
	comp := Component{CustomID: b.CustomID, User: u, ChannelID: m.ch}
	if k == tradeDeclineID {
		_, err = m.core.tradeDecline(context.Background(), comp, args)
	} else {
		_, err = m.core.tradeAccept(context.Background(), comp, args)
	}
	return err
}

// TestTradeSwapsItemsWithTheSameUID: C0's Backpack and C1's Dagger are both the first
// entry of their holdings ("i1"); a trade of one for the other hands each to the other
// side, the Backpack with what is inside it and nothing else (C0 got both, and C1 was
// left with nothing).
func TestTradeSwapsItemsWithTheSameUID(t *testing.T) {
	m, users := shopTable(t, 2)
	m.ok(gmUser, "item add", "item", "Dagger", "name", "C1")
	first := m.gameRecord("C0").Inventory.Items[0]
	if first.UID != m.gameRecord("C1").Inventory.Items[0].UID || first.Item["name"] != "Backpack" {
		t.Fatalf("C0 starts with %v %q, C1 with %+v", first.Item["name"], first.UID, m.gameRecord("C1").Inventory.Items)
	}
	m.ok(users[0], "trade offer", "to", "C1", "give", "Backpack", "want", "Dagger")
	m.ok(users[1], "trade accept")
	wantText(t, "C0 holds", m.heldRows("C0"), "1 Compass; 1 Totem; 1 Pocket watch; 1 Playing cards; 1 dagger")
	wantText(t, "C1 holds", m.heldRows("C1"), "1 Backpack; 4 Rations (1 day) in Backpack; 7 Arrows in Backpack")
}

// heldRows is a game card's stored holdings in order, as "qty item" rows, an item
// inside another "in" it (a catalog item by its id, a character's own by its name).
func (m *cmdTable) heldRows(name string) string {
	m.t.Helper()
	items := m.gameRecord(name).Inventory.Items
	what := func(uid string) string {
		for _, e := range items {
			if e.UID == uid {
				if e.ID != "" {
					return e.ID
				}
				return fmt.Sprint(e.Item["name"])
			}
		}
		return fmt.Sprintf("nothing (%q)", uid)
	}
	var rows []string
	for _, e := range items {
		row := fmt.Sprintf("%d %s", e.Qty, what(e.UID))
		if e.In != "" {
			row += " in " + what(e.In)
		}
		rows = append(rows, row)
	}
	return strings.Join(rows, "; ")
}

// TestShopReopensWithItsPrices: a shop closed and opened again keeps the markup and
// rate it had, a rate of 0 (it buys nothing) too, unless the GM names others.
func TestShopReopensWithItsPrices(t *testing.T) {
	m, _ := shopTable(t, 1)
	m.ok(gmUser, "shop open", "markup", "20", "rate", "0")
	m.ok(gmUser, "shop close")
	m.ok(gmUser, "shop open")
	if s := m.shop(); s.Markup != 20 || s.SellRate != 0 {
		t.Errorf("reopened at markup %d, rate %d; want 20 and 0", s.Markup, s.SellRate)
	}
	m.ok(gmUser, "shop open", "rate", "30")
	if s := m.shop(); s.Markup != 20 || s.SellRate != 30 {
		t.Errorf("reopened with rate 30 at markup %d, rate %d", s.Markup, s.SellRate)
	}
}
