package storagetest

import (
	"context"
	"errors"
	"testing"
	"time"

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
