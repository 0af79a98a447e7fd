package bolt

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// Tombstones (storage.Tombstone): two buckets, added by schema 4.
//
//	tombstones  messageID 0x00 channelID           → Tombstone (the messageKey of the
//	                                                 message index, so a lookup is one Get)
//	tombage     BE(At ns ^ 1<<63) messageKey       → messageKey: the tombstones oldest first,
//	                                                 for forgetting the expired ones
//
// Every PutTombstone forgets up to sweepTombstones expired tombstones, oldest first, so
// the store keeps only those of the last storage.TombstoneLife plus fewer expired ones
// than it has written since: the sweep never falls behind.
var (
	bucketTombstones = []byte("tombstones")
	bucketTombAge    = []byte("tombage")
)

// sweepTombstones is how many expired tombstones one PutTombstone forgets at most: more
// than the one it adds, and few enough to keep the delete that writes it cheap.
const sweepTombstones = 8

// migrateTombstones (schema 3 → 4) adds the tombstone buckets.
func migrateTombstones(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketTombstones, bucketTombAge} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// ageKey orders tombstones by At, oldest first (times before 1970 too), then by message.
func ageKey(at time.Time, key []byte) []byte {
	return append(be64(uint64(at.UnixNano())^1<<63), key...)
}

func (t *tx) PutTombstone(ts *storage.Tombstone) error {
	key, err := messageKey(ts.ChannelID, ts.MessageID)
	if err != nil {
		return err
	}
	if ts.At.IsZero() {
		return storage.Errorf(storage.Invalid, "storage: tombstone of message %s in channel %s has no time", ts.MessageID, ts.ChannelID)
	}
	if v, err := t.getRaw(bucketMessages, key); err != nil {
		return err
	} else if v != nil {
		return storage.Errorf(storage.Conflict, "storage: message %s in channel %s is applied: it cannot have a tombstone", ts.MessageID, ts.ChannelID)
	}
	old, err := t.getRaw(bucketTombstones, key)
	if err != nil {
		return err
	}
	if old == nil {
		if err := t.put(bucketTombstones, key, ts); err != nil {
			return err
		}
		if err := t.putRaw(bucketTombAge, ageKey(ts.At, key), key); err != nil {
			return err
		}
	}
	return t.sweepTombstones(ts.At.Add(-storage.TombstoneLife))
}

// sweepTombstones forgets up to sweepTombstones tombstones older than before.
func (t *tx) sweepTombstones(before time.Time) error {
	kv, err := t.use()
	if err != nil {
		return err
	}
	limit := ageKey(before, nil)
	var ages, keys [][]byte
	err = kv.ascend(bucketTombAge, nil, nil, func(k, v []byte) (bool, error) {
		if bytes.Compare(k, limit) >= 0 || len(ages) == sweepTombstones {
			return false, nil
		}
		ages, keys = append(ages, k), append(keys, v)
		return true, nil
	})
	if err != nil {
		return err
	}
	for i := range ages {
		// The bytes ascend returned are the kv's: copy them before writing.
		age, key := append([]byte(nil), ages[i]...), append([]byte(nil), keys[i]...)
		if err := kv.del(bucketTombAge, age); err != nil {
			return fmt.Errorf("storage: %s: %w", bucketTombAge, err)
		}
		if err := kv.del(bucketTombstones, key); err != nil {
			return fmt.Errorf("storage: %s: %w", bucketTombstones, err)
		}
	}
	return nil
}

func (t *tx) Tombstone(channelID, messageID string) (*storage.Tombstone, error) {
	key, err := messageKey(channelID, messageID)
	if err != nil {
		return nil, err
	}
	ts := new(storage.Tombstone)
	if err := t.get(bucketTombstones, key, ts); err != nil {
		if storage.KindOf(err) == storage.NotFound {
			return nil, storage.NotFoundf("tombstone of message %s in channel %s", messageID, channelID)
		}
		return nil, err
	}
	return ts, nil
}
