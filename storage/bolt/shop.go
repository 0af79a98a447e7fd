package bolt

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// A channel's shop and pending trade offer (storage.ShopTx): two buckets, added by
// schema 8, each keyed by the channel alone (one shop and one offer per channel).
//
//	shops   channelID  → ShopRecord
//	trades  channelID  → TradeRecord
var (
	bucketShops  = []byte("shops")
	bucketTrades = []byte("trades")
)

// migrateShops (schema 7 → 8) adds the shops and trades buckets.
func migrateShops(btx *bolt.Tx) error {
	for _, b := range [][]byte{bucketShops, bucketTrades} {
		if _, err := btx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) PutShop(s *storage.ShopRecord) error {
	if len(s.Listings) > storage.MaxListings {
		return storage.Errorf(storage.Invalid, "storage: shop of %s has %d listings (at most %d)", s.ChannelID, len(s.Listings), storage.MaxListings)
	}
	k, err := single("channel id", s.ChannelID)
	if err != nil {
		return err
	}
	return t.put(bucketShops, k, s)
}

func (t *tx) Shop(channelID string) (*storage.ShopRecord, error) {
	k, err := single("channel id", channelID)
	if err != nil {
		return nil, err
	}
	s := new(storage.ShopRecord)
	if err := t.get(bucketShops, k, s); err != nil {
		return nil, fmt.Errorf("shop of channel %s: %w", channelID, err)
	}
	return s, nil
}

func (t *tx) DeleteShop(channelID string) error {
	k, err := single("channel id", channelID)
	if err != nil {
		return err
	}
	if err := t.del(bucketShops, k); err != nil {
		return fmt.Errorf("shop of channel %s: %w", channelID, err)
	}
	return nil
}

func (t *tx) PutTrade(o *storage.TradeRecord) error {
	k, err := single("channel id", o.ChannelID)
	if err != nil {
		return err
	}
	return t.put(bucketTrades, k, o)
}

func (t *tx) Trade(channelID string) (*storage.TradeRecord, error) {
	k, err := single("channel id", channelID)
	if err != nil {
		return nil, err
	}
	o := new(storage.TradeRecord)
	if err := t.get(bucketTrades, k, o); err != nil {
		return nil, fmt.Errorf("trade offer in channel %s: %w", channelID, err)
	}
	return o, nil
}

func (t *tx) DeleteTrade(channelID string) error {
	k, err := single("channel id", channelID)
	if err != nil {
		return err
	}
	if err := t.del(bucketTrades, k); err != nil {
		return fmt.Errorf("trade offer in channel %s: %w", channelID, err)
	}
	return nil
}
