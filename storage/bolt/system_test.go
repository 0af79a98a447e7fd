package bolt

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// TestMigrateSystems: a schema 6 database opens as the current schema with an empty
// systems bucket, keeping its rulesets, and takes imported systems.
func TestMigrateSystems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v6.db")
	rawAt(t, path, 6, func(btx *bolt.Tx) error {
		if btx.Bucket(bucketSystems) != nil {
			t.Fatal("schema 6 already has systems")
		}
		k, err := rulesetVersions.key("", "lowvell", 1)
		if err != nil {
			return err
		}
		return btx.Bucket(bucketRulesets).Put(k, []byte(`{"id":"lowvell","version":1,"name":"Low Vell","digest":"d","file":"e30=","installedAt":"2026-03-14T15:09:26Z"}`))
	})
	openMigrated(t, path, func(tx storage.Tx) error {
		if r, err := tx.Ruleset("", "lowvell", 1); err != nil || r.Name != "Low Vell" {
			t.Errorf("ruleset after the migration: %+v %v", r, err)
		}
		if ids, err := tx.SystemIDs("g"); err != nil || len(ids) != 0 {
			t.Errorf("systems after the migration: %q %v", ids, err)
		}
		return tx.PutSystem(&storage.SystemRecord{Guild: "g", ID: "saltmarch", Version: 1, File: []byte(`{}`)})
	})
}

// TestMigrateShops: a schema 7 database opens as the current schema with empty shops and
// trades buckets, keeping its systems, and takes a shop.
func TestMigrateShops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v7.db")
	rawAt(t, path, 7, func(btx *bolt.Tx) error {
		if btx.Bucket(bucketShops) != nil || btx.Bucket(bucketTrades) != nil {
			t.Fatal("schema 7 already has shops")
		}
		k, err := systemVersions.key("g", "saltmarch", 1)
		if err != nil {
			return err
		}
		return btx.Bucket(bucketSystems).Put(k, []byte(`{"guild":"g","id":"saltmarch","version":1,"name":"Saltmarch","digest":"d","file":"e30=","installedAt":"2026-03-14T15:09:26Z"}`))
	})
	openMigrated(t, path, func(tx storage.Tx) error {
		if r, err := tx.System("g", "saltmarch", 1); err != nil || r.Name != "Saltmarch" {
			t.Errorf("system after the migration: %+v %v", r, err)
		}
		if _, err := tx.Shop("ch1"); storage.KindOf(err) != storage.NotFound {
			t.Errorf("a shop after the migration: %v", err)
		}
		if _, err := tx.Trade("ch1"); storage.KindOf(err) != storage.NotFound {
			t.Errorf("a trade after the migration: %v", err)
		}
		return tx.PutShop(&storage.ShopRecord{ChannelID: "ch1", Name: "Eel", Open: true})
	})
}
