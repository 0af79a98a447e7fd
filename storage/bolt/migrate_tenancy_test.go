package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// TestMigrateRulesetTenancy: a schema 3 database, migrated through 4, (one ruleset namespace for every
// server) opens with each record in a guild's namespace: a built-in's kept version in
// the shared one; an imported ruleset, every version of it, in each guild whose
// campaigns play it (the console's campaigns claim it for ""), and in "" when no
// campaign plays it; nothing else anywhere.
func TestMigrateRulesetTenancy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	old := []*storage.RulesetRecord{
		{ID: "low-vell", Version: 1, Name: "Low Vell", Digest: "lv", File: []byte(`{"lv":1}`), InstalledAt: storagetest.When},
		{ID: "local/ember", Version: 1, Name: "Ember", Digest: "e1", File: []byte{0, 1, 255}, InstalledBy: "u1", InstalledAt: storagetest.When},
		{ID: "local/ember", Version: 2, Name: "Ember", Digest: "e2", Files: map[string][]byte{"manifest.json": []byte("{}")}, InstalledAt: storagetest.When},
		{ID: "local/solo", Version: 1, Name: "Solo", Digest: "s1", File: []byte(`{}`), InstalledAt: storagetest.When},
		{ID: "local/lonely", Version: 3, Name: "Lonely", Digest: "l3", File: []byte(`{}`), InstalledAt: storagetest.When},
	}
	camps := []*storage.Campaign{
		{ChannelID: "c1", GuildID: "g1", Ruleset: sheet.RulesetRef{ID: "local/ember", Version: 1}},
		{ChannelID: "c2", GuildID: "g2", Ruleset: sheet.RulesetRef{ID: "local/ember", Version: 2}},
		{ChannelID: "c3", GuildID: "g1", Ruleset: sheet.RulesetRef{ID: "local/ember", Version: 2}},
		{ChannelID: "table", Ruleset: sheet.RulesetRef{ID: "local/ember", Version: 1}},
		{ChannelID: "c4", GuildID: "g3", Ruleset: sheet.RulesetRef{ID: "local/solo", Version: 1}},
		{ChannelID: "c5", GuildID: "g4", Ruleset: sheet.RulesetRef{ID: "low-vell", Version: 1}},
	}
	rawAt(t, path, 3, func(btx *bolt.Tx) error {
		for _, r := range old {
			data, _ := json.Marshal(r)
			k := binary.BigEndian.AppendUint64(append([]byte(r.ID), sep), versionBits(r.Version))
			if err := btx.Bucket(bucketRulesets).Put(k, data); err != nil {
				return err
			}
		}
		for _, c := range camps {
			data, _ := json.Marshal(c)
			if err := btx.Bucket(bucketCampaigns).Put([]byte(c.ChannelID), data); err != nil {
				return err
			}
		}
		return nil
	})
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := map[string]map[string][]int{ // guild → id → versions
		"":   {"local/ember": {1, 2}, "local/lonely": {3}, "low-vell": {1}},
		"g1": {"local/ember": {1, 2}},
		"g2": {"local/ember": {1, 2}},
		"g3": {"local/solo": {1}},
		"g4": nil,
	}
	err = s.View(context.Background(), func(tx storage.Tx) error {
		for guild, ids := range want {
			got, err := tx.RulesetIDs(guild)
			if err != nil {
				return err
			}
			if wantIDs := slices.Sorted(maps.Keys(ids)); !slices.Equal(got, wantIDs) {
				t.Errorf("ids in %q: %q, want %q", guild, got, wantIDs)
			}
			for id, vs := range ids {
				got, err := tx.RulesetVersions(guild, id)
				if err != nil {
					return err
				}
				if !slices.Equal(got, vs) {
					t.Errorf("versions of %s in %q: %v, want %v", id, guild, got, vs)
				}
				for _, o := range old {
					if o.ID != id {
						continue
					}
					rec, err := tx.Ruleset(guild, id, o.Version)
					if err != nil {
						return err
					}
					w := *o
					w.Guild = guild
					g, _ := json.Marshal(rec)
					wj, _ := json.Marshal(&w)
					if string(g) != string(wj) {
						t.Errorf("%s v%d in %q:\ngot  %s\nwant %s", id, o.Version, guild, g, wj)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMigrateRulesetTenancyDamaged: a ruleset key schema 3 could not have written stops
// the migration as Damaged, and the file stays at schema 3.
func TestMigrateRulesetTenancyDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	rawAt(t, path, 3, func(btx *bolt.Tx) error {
		return btx.Bucket(bucketRulesets).Put([]byte("short"), []byte("{}"))
	})
	_, err := Open(path, Options{})
	if storage.KindOf(err) != storage.Damaged {
		t.Fatalf("open: %v, want a Damaged error", err)
	}
	if v := rawSchema(t, path); v != 3 {
		t.Fatalf("schema %d after a failed migration, want 3", v)
	}
}
