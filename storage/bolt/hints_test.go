package bolt

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// TestMigrateHints: a schema 5 database opens as the current schema with an empty hints
// bucket, keeping its campaigns, and takes hint marks.
func TestMigrateHints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v5.db")
	rawWrite(t, path, func(btx *bolt.Tx) error {
		for v := range 5 {
			if err := migrations[v](btx); err != nil {
				return err
			}
		}
		if btx.Bucket(bucketHints) != nil {
			t.Fatal("schema 5 already has hints")
		}
		// A campaign as schema 5 wrote it: no told list.
		err := btx.Bucket(bucketCampaigns).Put([]byte("ch"), []byte(`{"channelId":"ch","ruleset":{"id":"lowvell","version":1},"gms":[{"kind":"user","id":"gm"}],"createdBy":"gm","createdAt":"2026-03-14T15:09:26Z"}`))
		if err != nil {
			return err
		}
		return btx.Bucket(bucketMeta).Put(keySchema, be64(5))
	})
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(context.Background(), func(tx storage.Tx) error {
		if c, err := tx.Campaign("ch"); err != nil || len(c.Told) != 0 || c.CreatedBy != "gm" {
			t.Errorf("campaign after the migration: %+v %v", c, err)
		}
		first, err := tx.MarkHinted("elsewhere")
		if !first {
			t.Error("first mark not first")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if v := rawSchema(t, path); v != SchemaVersion {
		t.Fatalf("schema %d", v)
	}
}
