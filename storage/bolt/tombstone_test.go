package bolt

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// TestMigrateTombstones: a schema 3 database opens as schema 4 with empty tombstone
// buckets, keeping its replies, and takes tombstones (and goes on to the current schema).
func TestMigrateTombstones(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	rawAt(t, path, 3, func(btx *bolt.Tx) error {
		if btx.Bucket(bucketTombstones) != nil {
			t.Fatal("schema 3 already has tombstones")
		}
		return nil
	})
	ts := &storage.Tombstone{ChannelID: "ch", MessageID: "100", At: storagetest.When}
	openMigrated(t, path, func(tx storage.Tx) error { return tx.PutTombstone(ts) })
}

// TestTombstoneSweepForgetsBoth: forgetting an expired tombstone removes its lookup
// record and its age record, so neither bucket keeps what the other lost.
func TestTombstoneSweepForgetsBoth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	put := func(msg string, at time.Time) {
		t.Helper()
		err := s.Update(context.Background(), func(tx storage.Tx) error {
			return tx.PutTombstone(&storage.Tombstone{ChannelID: "ch", MessageID: msg, At: at})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 * sweepTombstones {
		put(fmt.Sprint(i), storagetest.When)
	}
	later := storagetest.When.Add(storage.TombstoneLife + time.Minute)
	put("a", later) // forgets sweepTombstones
	put("b", later) // and as many again
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(btx *bolt.Tx) error {
		n, a := btx.Bucket(bucketTombstones).Stats().KeyN, btx.Bucket(bucketTombAge).Stats().KeyN
		if want := 3*sweepTombstones + 2 - 2*sweepTombstones; n != want || a != want {
			t.Errorf("%d tombstones, %d age records; want %d of each", n, a, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
