package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"sheetkeeper/storage"
)

// versioned is a bucket of JSON records kept per guild, id and version: rulesets and
// imported systems. Both are keyed alike, so one guild's records and one id's versions
// are contiguous ranges, newest version last:
//
//	bucket  guild 0x00 id 0x00 BE(version ^ 1<<63)  → the record
//
// They are put, read and listed alike; only the bucket and the word differ.
type versioned struct {
	bucket []byte
	what   string // the record, as keys and errors name it
}

var (
	rulesetVersions = versioned{bucketRulesets, "ruleset"}
	systemVersions  = versioned{bucketSystems, "system"}
)

// prefix is the start of the keys of every version of id in guild.
func (f versioned) prefix(guild, id string) ([]byte, error) {
	g, err := guildPrefix(guild)
	if err != nil {
		return nil, err
	}
	p, err := prefix(f.what+" id", id)
	if err != nil {
		return nil, err
	}
	return append(g, p...), nil
}

func (f versioned) key(guild, id string, version int) ([]byte, error) {
	p, err := f.prefix(guild, id)
	if err != nil {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(p, versionBits(version)), nil
}

func putVersion(t *tx, f versioned, guild, id string, version int, v any) error {
	k, err := f.key(guild, id, version)
	if err != nil {
		return err
	}
	return t.put(f.bucket, k, v)
}

func getVersion[T any](t *tx, f versioned, guild, id string, version int) (*T, error) {
	k, err := f.key(guild, id, version)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := t.get(f.bucket, k, v); err != nil {
		return nil, fmt.Errorf("%s %s version %d%s: %w", f.what, id, version, storage.InGuild(guild), err)
	}
	return v, nil
}

// versionsOf lists id's versions in guild, oldest first. A key of another length is
// damage (its version would be garbage), not a version.
func (t *tx) versionsOf(f versioned, guild, id string) ([]int, error) {
	p, err := f.prefix(guild, id)
	if err != nil {
		return nil, err
	}
	var out []int
	err = t.scan(f.bucket, p, func(k, _ []byte) error {
		if len(k) != len(p)+8 {
			return storage.Errorf(storage.Damaged, "storage: database damaged: %s key %q", f.bucket, k)
		}
		out = append(out, int(int64(binary.BigEndian.Uint64(k[len(p):])^1<<63)))
		return nil
	})
	return out, err
}

// idsOf lists the ids with a version in guild, in key order, each once.
func (t *tx) idsOf(f versioned, guild string) ([]string, error) {
	p, err := guildPrefix(guild)
	if err != nil {
		return nil, err
	}
	var out []string
	err = t.scan(f.bucket, p, func(k, _ []byte) error {
		rest := k[len(p):]
		id := string(rest[:max(bytes.IndexByte(rest, sep), 0)])
		if len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
		return nil
	})
	return out, err
}

func (t *tx) PutRuleset(r *storage.RulesetRecord) error {
	return putVersion(t, rulesetVersions, r.Guild, r.ID, r.Version, r)
}
func (t *tx) Ruleset(guild, id string, version int) (*storage.RulesetRecord, error) {
	return getVersion[storage.RulesetRecord](t, rulesetVersions, guild, id, version)
}
func (t *tx) RulesetVersions(guild, id string) ([]int, error) {
	return t.versionsOf(rulesetVersions, guild, id)
}
func (t *tx) RulesetIDs(guild string) ([]string, error) { return t.idsOf(rulesetVersions, guild) }

// PutSystem refuses a record that is not Valid.
func (t *tx) PutSystem(s *storage.SystemRecord) error {
	if err := s.Valid(); err != nil {
		return err
	}
	return putVersion(t, systemVersions, s.Guild, s.ID, s.Version, s)
}
func (t *tx) System(guild, id string, version int) (*storage.SystemRecord, error) {
	return getVersion[storage.SystemRecord](t, systemVersions, guild, id, version)
}
func (t *tx) SystemVersions(guild, id string) ([]int, error) {
	return t.versionsOf(systemVersions, guild, id)
}
func (t *tx) SystemIDs(guild string) ([]string, error) { return t.idsOf(systemVersions, guild) }
