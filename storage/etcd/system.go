package etcd

import (
	"encoding/binary"
	"fmt"
	"strings"

	"sheetkeeper/storage"
)

// Imported inventory systems (storage.SystemTx), keyed as the rulesets are under their
// own family:
//
//	y/ guild 0x00 id 0x00 BE(v ^ 1<<63)  → SystemRecord (guild "" is the console's)
//
// Systems are never deleted, so their ranges have no guard, as rulesets have none.

func (k keys) systems(g string) (string, error) {
	gp, err := guild(g)
	return k.prefix + "y/" + gp, err
}

func (k keys) systemVersions(g, id string) (string, error) {
	gp, err := k.systems(g)
	if err != nil {
		return "", err
	}
	ip, err := part("system id", id)
	return gp + ip, err
}

func (k keys) system(g, id string, version int) (string, error) {
	p, err := k.systemVersions(g, id)
	return p + be64(uint64(int64(version))^1<<63), err
}

func (t *tx) PutSystem(s *storage.SystemRecord) error {
	if s.Version < 1 {
		return storage.Errorf(storage.Invalid, "storage: system %s version %d (versions start at 1)", s.ID, s.Version)
	}
	k, err := t.s.keys.system(s.Guild, s.ID, s.Version)
	if err != nil {
		return err
	}
	return t.putJSON(k, s)
}

func (t *tx) System(guild, id string, version int) (*storage.SystemRecord, error) {
	k, err := t.s.keys.system(guild, id, version)
	if err != nil {
		return nil, err
	}
	s := new(storage.SystemRecord)
	if err := t.getJSON(k, s); err != nil {
		return nil, fmt.Errorf("system %s version %d%s: %w", id, version, storage.InGuild(guild), err)
	}
	return s, nil
}

func (t *tx) SystemVersions(guild, id string) ([]int, error) {
	p, err := t.s.keys.systemVersions(guild, id)
	if err != nil {
		return nil, err
	}
	got, err := t.scan(p, rangeEnd(p), rulesetScan)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range got {
		if len(e.key) != len(p)+8 {
			return nil, storage.Errorf(storage.Damaged, "storage: database damaged: system key %q", e.key)
		}
		out = append(out, int(int64(binary.BigEndian.Uint64([]byte(e.key[len(p):]))^1<<63)))
	}
	return out, nil
}

func (t *tx) SystemIDs(guild string) ([]string, error) {
	p, err := t.s.keys.systems(guild)
	if err != nil {
		return nil, err
	}
	got, err := t.scan(p, rangeEnd(p), rulesetScan)
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
