package etcd

import (
	"fmt"

	"sheetkeeper/storage"
)

// A channel's shop and pending trade offer (storage.ShopTx), one key each in the
// channel's range, beside its hint mark:
//
//	ch/ channelID 0x00 's'  → ShopRecord
//	ch/ channelID 0x00 'x'  → TradeRecord
//
// Neither is listed, so a delete needs no guard: it reads the key (the commit then
// fails if another transaction wrote it meanwhile) and removes it.

// slot is one kind of a channel's one-key records: its shop, its trade offer.
type slot struct {
	kind byte
	what string // the record, as an error names it before the channel id
}

var (
	shopSlot  = slot{kindShop, "shop of channel"}
	tradeSlot = slot{kindTrade, "trade offer in channel"}
)

func (t *tx) putSlot(s slot, channelID string, v any) error {
	k, err := t.s.keys.inChannel(channelID, s.kind)
	if err != nil {
		return err
	}
	return t.putJSON(k, v)
}

func getSlot[T any](t *tx, s slot, channelID string) (*T, error) {
	k, err := t.s.keys.inChannel(channelID, s.kind)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := t.getJSON(k, v); err != nil {
		return nil, fmt.Errorf("%s %s: %w", s.what, channelID, err)
	}
	return v, nil
}

// deleteSlot deletes a channel's record of slot s; a NotFound error when there is none.
// The records are not listed, so the delete bumps no guard (see del).
func (t *tx) deleteSlot(s slot, channelID string) error {
	k, err := t.s.keys.inChannel(channelID, s.kind)
	if err != nil {
		return err
	}
	if err := t.del(k, ""); err != nil {
		return fmt.Errorf("%s %s: %w", s.what, channelID, err)
	}
	return nil
}

func (t *tx) PutShop(s *storage.ShopRecord) error {
	if len(s.Listings) > storage.MaxListings {
		return storage.Errorf(storage.Invalid, "storage: shop of %s has %d listings (at most %d)", s.ChannelID, len(s.Listings), storage.MaxListings)
	}
	return t.putSlot(shopSlot, s.ChannelID, s)
}
func (t *tx) Shop(channelID string) (*storage.ShopRecord, error) {
	return getSlot[storage.ShopRecord](t, shopSlot, channelID)
}
func (t *tx) DeleteShop(channelID string) error { return t.deleteSlot(shopSlot, channelID) }

func (t *tx) PutTrade(o *storage.TradeRecord) error { return t.putSlot(tradeSlot, o.ChannelID, o) }
func (t *tx) Trade(channelID string) (*storage.TradeRecord, error) {
	return getSlot[storage.TradeRecord](t, tradeSlot, channelID)
}
func (t *tx) DeleteTrade(channelID string) error { return t.deleteSlot(tradeSlot, channelID) }
