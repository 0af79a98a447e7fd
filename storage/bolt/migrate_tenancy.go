package bolt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"maps"
	"slices"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// migrateRulesetTenancy gives every ruleset record a guild (schema 4 → 5). Before it,
// the rulesets bucket was one namespace (id 0x00 BE(version)), so local/x installed in
// one Discord server was what local/x meant in every other; now each record lives in one
// guild's namespace (guild 0x00 id 0x00 BE(version), see keys.go and
// storage.RulesetHome). What an old record becomes:
//
//   - a built-in's kept version (a bare id) goes to the shared namespace "", where
//     every guild finds it, as before;
//   - an imported one (local/<id>) goes to every guild whose campaigns play that id, at
//     any version, every version of it: each such guild keeps what its campaigns are
//     pinned to and can still upgrade them, and no guild sees a ruleset that was never
//     in its use. A campaign without a guild (the console's) claims it for "", the
//     console's namespace;
//   - an imported one no campaign plays goes to "" too: it was installed by someone
//     we can no longer place. The console lists and exports it; a server that wants it
//     imports it again (its namespace is empty, so the same version installs).
//
// Library cards name a ruleset by id alone and resolve in the guild of the command
// that reads them, so they follow the rulesets' copies without a change here.
func migrateRulesetTenancy(btx *bolt.Tx) error {
	rs, camps := btx.Bucket(bucketRulesets), btx.Bucket(bucketCampaigns)
	if rs == nil || camps == nil {
		return storage.Errorf(storage.Damaged, "a schema 4 bucket is missing")
	}
	users, err := localRulesetGuilds(camps)
	if err != nil {
		return err
	}
	type old struct {
		key, id []byte
		rec     storage.RulesetRecord
	}
	var olds []old
	err = rs.ForEach(func(k, v []byte) error {
		n := len(k) - 9
		if n < 1 || k[n] != sep || bytes.IndexByte(k[:n], sep) >= 0 {
			return storage.Errorf(storage.Damaged, "ruleset key %q damaged", k)
		}
		o := old{key: bytes.Clone(k), id: bytes.Clone(k[:n])}
		if err := json.Unmarshal(v, &o.rec); err != nil {
			return storage.Errorf(storage.Damaged, "storage: %s record %q: %w", bucketRulesets, k, err)
		}
		olds = append(olds, o)
		return nil
	})
	if err != nil {
		return err
	}
	for _, o := range olds {
		if err := rs.Delete(o.key); err != nil {
			return err
		}
	}
	for _, o := range olds {
		guilds := []string{""}
		if g := users[string(o.id)]; len(g) > 0 && storage.Imported(string(o.id)) {
			guilds = slices.Sorted(maps.Keys(g))
		}
		version := int(int64(binary.BigEndian.Uint64(o.key[len(o.id)+1:]) ^ 1<<63))
		for _, g := range guilds {
			rec := o.rec
			rec.Guild = g
			k, err := rulesetVersions.key(g, string(o.id), version)
			if err != nil {
				return err
			}
			data, err := json.Marshal(&rec)
			if err != nil {
				return err
			}
			if err := rs.Put(k, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// localRulesetGuilds reads which guilds' campaigns play each imported ruleset id.
func localRulesetGuilds(camps *bolt.Bucket) (map[string]map[string]bool, error) {
	users := map[string]map[string]bool{}
	err := camps.ForEach(func(k, v []byte) error {
		var c struct {
			GuildID string `json:"guildId"`
			Ruleset struct {
				ID string `json:"id"`
			} `json:"ruleset"`
		}
		if err := json.Unmarshal(v, &c); err != nil {
			return storage.Errorf(storage.Damaged, "storage: %s record %q: %w", bucketCampaigns, k, err)
		}
		if !storage.Imported(c.Ruleset.ID) {
			return nil
		}
		if users[c.Ruleset.ID] == nil {
			users[c.Ruleset.ID] = map[string]bool{}
		}
		users[c.Ruleset.ID][c.GuildID] = true
		return nil
	})
	return users, err
}
