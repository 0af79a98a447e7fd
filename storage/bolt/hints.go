package bolt

import (
	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// Hint marks (storage.Tx.MarkHinted): one bucket, added by schema 6.
//
//	hints  channelID  → nothing (the key is the mark)
//
// PutCampaign deletes its channel's mark, so the bucket holds only channels without a
// campaign that were hinted: a channel whose campaign is deleted may be hinted again.
var bucketHints = []byte("hints")

// migrateHints (schema 5 → 6) adds the hints bucket.
func migrateHints(btx *bolt.Tx) error {
	_, err := btx.CreateBucketIfNotExists(bucketHints)
	return err
}

func (t *tx) MarkHinted(channelID string) (bool, error) {
	k, err := single("hint channel id", channelID)
	if err != nil {
		return false, err
	}
	old, err := t.getRaw(bucketHints, k)
	if err != nil || old != nil {
		return false, err
	}
	return true, t.putRaw(bucketHints, k, []byte{})
}

// forgetHint deletes channelID's hint mark, if it has one.
func (t *tx) forgetHint(channelID string) error {
	k, err := single("hint channel id", channelID)
	if err != nil {
		return err
	}
	if err := t.del(bucketHints, k); storage.KindOf(err) != storage.NotFound {
		return err
	}
	return nil
}
