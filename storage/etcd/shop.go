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

func (t *tx) PutShop(s *storage.ShopRecord) error {
	if len(s.Listings) > storage.MaxListings {
		return storage.Errorf(storage.Invalid, "storage: shop of %s has %d listings (at most %d)", s.ChannelID, len(s.Listings), storage.MaxListings)
	}
	k, err := t.s.keys.inChannel(s.ChannelID, kindShop)
	if err != nil {
		return err
	}
	return t.putJSON(k, s)
}

func (t *tx) Shop(channelID string) (*storage.ShopRecord, error) {
	k, err := t.s.keys.inChannel(channelID, kindShop)
	if err != nil {
		return nil, err
	}
	s := new(storage.ShopRecord)
	if err := t.getJSON(k, s); err != nil {
		return nil, fmt.Errorf("shop of channel %s: %w", channelID, err)
	}
	return s, nil
}

func (t *tx) DeleteShop(channelID string) error {
	return t.deleteOne(channelID, kindShop, "shop of channel")
}

func (t *tx) PutTrade(o *storage.TradeRecord) error {
	k, err := t.s.keys.inChannel(o.ChannelID, kindTrade)
	if err != nil {
		return err
	}
	return t.putJSON(k, o)
}

func (t *tx) Trade(channelID string) (*storage.TradeRecord, error) {
	k, err := t.s.keys.inChannel(channelID, kindTrade)
	if err != nil {
		return nil, err
	}
	o := new(storage.TradeRecord)
	if err := t.getJSON(k, o); err != nil {
		return nil, fmt.Errorf("trade offer in channel %s: %w", channelID, err)
	}
	return o, nil
}

func (t *tx) DeleteTrade(channelID string) error {
	return t.deleteOne(channelID, kindTrade, "trade offer in channel")
}

// deleteOne deletes a channel's one key of kind; a NotFound error when there is none.
func (t *tx) deleteOne(channelID string, kind byte, what string) error {
	k, err := t.s.keys.inChannel(channelID, kind)
	if err != nil {
		return err
	}
	if !t.write {
		return errReadOnly
	}
	_, found, err := t.get(k)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%s %s: %w", what, channelID, errNotFound)
	}
	t.unset(k)
	return nil
}
