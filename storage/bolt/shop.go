package bolt

import (
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

// The shop and trade tables (tx.go): one record per channel, put, read and deleted as
// campaigns are.
var (
	shopTable  = table{bucketShops, "channel id", func(id string) string { return "shop of channel " + id }}
	tradeTable = table{bucketTrades, "channel id", func(id string) string { return "trade offer in channel " + id }}
)

func (t *tx) PutShop(s *storage.ShopRecord) error {
	if len(s.Listings) > storage.MaxListings {
		return storage.Errorf(storage.Invalid, "storage: shop of %s has %d listings (at most %d)", s.ChannelID, len(s.Listings), storage.MaxListings)
	}
	return putIn(t, shopTable, s.ChannelID, s)
}
func (t *tx) Shop(channelID string) (*storage.ShopRecord, error) {
	return getFrom[storage.ShopRecord](t, shopTable, channelID)
}
func (t *tx) DeleteShop(channelID string) error { return deleteIn(t, shopTable, channelID) }

func (t *tx) PutTrade(o *storage.TradeRecord) error { return putIn(t, tradeTable, o.ChannelID, o) }
func (t *tx) Trade(channelID string) (*storage.TradeRecord, error) {
	return getFrom[storage.TradeRecord](t, tradeTable, channelID)
}
func (t *tx) DeleteTrade(channelID string) error { return deleteIn(t, tradeTable, channelID) }
