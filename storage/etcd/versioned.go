package etcd

import (
	"encoding/binary"
	"fmt"
	"strings"

	"sheetkeeper/storage"
)

// versioned is a family of JSON records kept per guild, id and version: rulesets and
// imported systems. Both are keyed alike, so one guild's records and one id's versions
// are contiguous ranges, newest version last:
//
//	family guild 0x00 id 0x00 BE(v ^ 1<<63)  → the record (guild "" is the shared namespace)
//
// They are put, read and listed alike; only the family and the word differ. They are
// never deleted, so their ranges have no guard (see scanOpts).
type versioned struct {
	family string // the key family after the store's prefix: "r/", "y/"
	what   string // the record, as keys and errors name it
}

var (
	rulesetVersions = versioned{"r/", "ruleset"}
	systemVersions  = versioned{"y/", "system"}

	versionedScan = scanOpts{keysOnly: true}
)

// inGuild is the start of the keys of guild's records of family f.
func (k keys) inGuild(f versioned, g string) (string, error) {
	gp, err := guild(g)
	return k.prefix + f.family + gp, err
}

// versionsOf is the start of the keys of every version of id in guild.
func (k keys) versionsOf(f versioned, g, id string) (string, error) {
	gp, err := k.inGuild(f, g)
	if err != nil {
		return "", err
	}
	ip, err := part(f.what+" id", id)
	return gp + ip, err
}

func (k keys) version(f versioned, g, id string, version int) (string, error) {
	p, err := k.versionsOf(f, g, id)
	return p + be64(uint64(int64(version))^1<<63), err
}

func putVersion(t *tx, f versioned, guild, id string, version int, v any) error {
	k, err := t.s.keys.version(f, guild, id, version)
	if err != nil {
		return err
	}
	return t.putJSON(k, v)
}

func getVersion[T any](t *tx, f versioned, guild, id string, version int) (*T, error) {
	k, err := t.s.keys.version(f, guild, id, version)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := t.getJSON(k, v); err != nil {
		return nil, fmt.Errorf("%s %s version %d%s: %w", f.what, id, version, storage.InGuild(guild), err)
	}
	return v, nil
}

// versionsOf lists id's versions in guild, oldest first; a key of another length is
// damage, not a version.
func (t *tx) versionsOf(f versioned, guild, id string) ([]int, error) {
	p, err := t.s.keys.versionsOf(f, guild, id)
	if err != nil {
		return nil, err
	}
	got, err := t.scan(p, rangeEnd(p), versionedScan)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range got {
		if len(e.key) != len(p)+8 {
			return nil, storage.Errorf(storage.Damaged, "storage: database damaged: %s key %q", f.what, e.key)
		}
		out = append(out, int(int64(binary.BigEndian.Uint64([]byte(e.key[len(p):]))^1<<63)))
	}
	return out, nil
}

// idsOf lists the ids with a version in guild, in key order, each once.
func (t *tx) idsOf(f versioned, guild string) ([]string, error) {
	p, err := t.s.keys.inGuild(f, guild)
	if err != nil {
		return nil, err
	}
	got, err := t.scan(p, rangeEnd(p), versionedScan)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range got {
		rest := e.key[len(p):]
		id := rest[:max(strings.IndexByte(rest, sep[0]), 0)]
		if len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
	}
	return out, nil
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
