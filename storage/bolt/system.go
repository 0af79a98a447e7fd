package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// Imported inventory systems (storage.SystemTx): one bucket, added by schema 7, keyed as
// the rulesets are, so one guild's systems and one id's versions are contiguous ranges.
//
//	systems  guild 0x00 id 0x00 BE(version ^ 1<<63)  → SystemRecord
var bucketSystems = []byte("systems")

// migrateSystems (schema 6 → 7) adds the systems bucket.
func migrateSystems(btx *bolt.Tx) error {
	_, err := btx.CreateBucketIfNotExists(bucketSystems)
	return err
}

// systemPrefix is the start of the keys of every version of system id in guild.
func systemPrefix(guild, id string) ([]byte, error) {
	g, err := guildPrefix(guild)
	if err != nil {
		return nil, err
	}
	p, err := prefix("system id", id)
	if err != nil {
		return nil, err
	}
	return append(g, p...), nil
}

func systemKey(guild, id string, version int) ([]byte, error) {
	p, err := systemPrefix(guild, id)
	if err != nil {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(p, versionBits(version)), nil
}

func (t *tx) PutSystem(s *storage.SystemRecord) error {
	if s.Version < 1 {
		return storage.Errorf(storage.Invalid, "storage: system %s version %d (versions start at 1)", s.ID, s.Version)
	}
	k, err := systemKey(s.Guild, s.ID, s.Version)
	if err != nil {
		return err
	}
	return t.put(bucketSystems, k, s)
}

func (t *tx) System(guild, id string, version int) (*storage.SystemRecord, error) {
	k, err := systemKey(guild, id, version)
	if err != nil {
		return nil, err
	}
	s := new(storage.SystemRecord)
	if err := t.get(bucketSystems, k, s); err != nil {
		return nil, fmt.Errorf("system %s version %d%s: %w", id, version, storage.InGuild(guild), err)
	}
	return s, nil
}

func (t *tx) SystemVersions(guild, id string) ([]int, error) {
	p, err := systemPrefix(guild, id)
	if err != nil {
		return nil, err
	}
	var out []int
	err = t.scan(bucketSystems, p, func(k, _ []byte) error {
		if len(k) != len(p)+8 {
			return storage.Errorf(storage.Damaged, "storage: database damaged: %s key %q", bucketSystems, k)
		}
		out = append(out, int(int64(binary.BigEndian.Uint64(k[len(p):])^1<<63)))
		return nil
	})
	return out, err
}

func (t *tx) SystemIDs(guild string) ([]string, error) {
	p, err := guildPrefix(guild)
	if err != nil {
		return nil, err
	}
	var out []string
	err = t.scan(bucketSystems, p, func(k, _ []byte) error {
		rest := k[len(p):]
		id := string(rest[:max(bytes.IndexByte(rest, sep), 0)])
		if len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
		return nil
	})
	return out, err
}
