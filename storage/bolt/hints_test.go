package bolt

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// TestMigrateHints: a schema 5 database opens as the current schema with an empty hints
// bucket, keeping its campaigns, and takes hint marks.
func TestMigrateHints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v5.db")
	rawAt(t, path, 5, func(btx *bolt.Tx) error {
		if btx.Bucket(bucketHints) != nil {
			t.Fatal("schema 5 already has hints")
		}
		// A campaign as schema 5 wrote it: no told list.
		return btx.Bucket(bucketCampaigns).Put([]byte("ch"), []byte(`{"channelId":"ch","ruleset":{"id":"lowvell","version":1},"gms":[{"kind":"user","id":"gm"}],"createdBy":"gm","createdAt":"2026-03-14T15:09:26Z"}`))
	})
	openMigrated(t, path, func(tx storage.Tx) error {
		if c, err := tx.Campaign("ch"); err != nil || len(c.Told) != 0 || c.CreatedBy != "gm" {
			t.Errorf("campaign after the migration: %+v %v", c, err)
		}
		first, err := tx.MarkHinted("elsewhere")
		if !first {
			t.Error("first mark not first")
		}
		return err
	})
}
