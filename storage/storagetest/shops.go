package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// testShops: a channel's shop and pending trade offer are kept per channel, replaced by
// a later put, gone after a delete (a second delete, and a lookup, are NotFound), and a
// shop past MaxListings is refused Invalid with nothing written.
func testShops(t *testing.T, s storage.Store) {
	price, stock, funds := int64(50), int64(1), int64(1000)
	shop := &storage.ShopRecord{ChannelID: "ch1", Name: "The Gilded Eel", Open: true, Markup: 10, SellRate: 50, Funds: &funds,
		Listings: []storage.ShopListing{{Item: "potion-of-healing", Price: &price, Stock: &stock}, {Item: "Rope"}}, UpdatedAt: When}
	offer := &storage.TradeRecord{ChannelID: "ch1", ID: "t1", From: "Mira", To: "Tam", FromUser: "u1", ToUser: "u2",
		Give: []storage.TradeItem{{Item: "Rope", Qty: 2}}, WantCoins: map[string]int64{"gp": 3}, Expires: When.Add(time.Hour), CreatedAt: When}
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutShop(shop))
		must(tx.PutTrade(offer))
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.Shop("ch1")
		must(err)
		sameJSON(t, "shop", got, shop)
		o, err := tx.Trade("ch1")
		must(err)
		sameJSON(t, "trade", o, offer)
		_, err = tx.Shop("ch2")
		wantKind(t, "another channel's shop", err, storage.NotFound)
		_, err = tx.Trade("ch2")
		wantKind(t, "another channel's offer", err, storage.NotFound)
		return nil
	})
	closed := *shop
	closed.Open = false
	closed.Listings = nil
	update(t, s, func(tx storage.Tx) error { return tx.PutShop(&closed) })
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.Shop("ch1")
		must(err)
		sameJSON(t, "replaced shop", got, &closed)
		return nil
	})
	big := closed
	big.Listings = make([]storage.ShopListing, storage.MaxListings+1)
	errStop := errors.New("stop")
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		wantKind(t, "a shop past MaxListings", tx.PutShop(&big), storage.Invalid)
		return errStop
	})
	if err != errStop {
		t.Fatalf("update: %v", err)
	}
	update(t, s, func(tx storage.Tx) error {
		must(tx.DeleteShop("ch1"))
		must(tx.DeleteTrade("ch1"))
		wantKind(t, "a second delete of the shop", tx.DeleteShop("ch1"), storage.NotFound)
		wantKind(t, "a second delete of the offer", tx.DeleteTrade("ch1"), storage.NotFound)
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		_, err := tx.Shop("ch1")
		wantKind(t, "a deleted shop", err, storage.NotFound)
		_, err = tx.Trade("ch1")
		wantKind(t, "a deleted offer", err, storage.NotFound)
		return nil
	})
}

// testConcurrentLastLot: 16 buyers of a shop's last three lots, each in their own
// Update that reads the shop and the buyer's card, refuses at no stock, and writes
// both: three buy, thirteen are refused, and the stock ends at 0 with three cards
// holding one each. Bolt runs the functions one at a time; etcd refuses the commit of
// one whose shop read changed and runs it again.
func testConcurrentLastLot(t *testing.T, s storage.Store) {
	stock := int64(3)
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutShop(&storage.ShopRecord{ChannelID: "ch", Name: "Eel", Open: true, Listings: []storage.ShopListing{{Item: "potion", Stock: &stock}}}))
		for i := range 16 {
			must(tx.PutGameCard("ch", Card(fmt.Sprintf("u%d", i), fmt.Sprintf("Buyer %d", i), 0)))
		}
		return nil
	})
	errOut := refusal.New(refusal.OutOfStock, "out of stock")
	ok, refused := race(t, s, 16, refusal.OutOfStock, func(i int, tx storage.Tx) error {
		sh, err := tx.Shop("ch")
		if err != nil {
			return err
		}
		if *sh.Listings[0].Stock < 1 {
			return errOut
		}
		*sh.Listings[0].Stock--
		c, err := tx.GameCard("ch", fmt.Sprintf("Buyer %d", i))
		if err != nil {
			return err
		}
		c.Card.Build.Fields["gold"] = Gold(c) + 1
		if err := tx.PutGameCard("ch", c); err != nil {
			return err
		}
		return tx.PutShop(sh)
	})
	if ok != 3 || refused != 13 {
		t.Fatalf("%d bought, %d refused; want 3 and 13", ok, refused)
	}
	view(t, s, func(tx storage.Tx) error {
		sh, err := tx.Shop("ch")
		must(err)
		if *sh.Listings[0].Stock != 0 {
			t.Errorf("stock %d, want 0", *sh.Listings[0].Stock)
		}
		held := 0
		for i := range 16 {
			c, err := tx.GameCard("ch", fmt.Sprintf("Buyer %d", i))
			must(err)
			held += int(Gold(c))
		}
		if held != 3 {
			t.Errorf("%d lots held, want 3", held)
		}
		return nil
	})
}
