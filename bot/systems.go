package bot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// Inventory systems (SPEC 7): the built-ins this sheetkeeper carries (package content)
// and those a server's GMs imported (storage.SystemRecord, the guild's own). A built-in
// has one version, BuiltinSystemVersion: it is content, changed only with the binary. An
// imported id's versions are the store's, 1, 2, … one per import of new content, so a
// campaign pinned to a version keeps exactly the file it started on.

// BuiltinSystemVersion is the version every built-in system answers to.
const BuiltinSystemVersion = 1

// systemKey names one parsed system in the cache: a built-in's id, or an import's
// namespace and id; and the version.
type systemKey struct {
	builtin   bool
	guild, id string
	version   int
}

// lookupSystem returns system id at version as guild sees it: a built-in first (at
// BuiltinSystemVersion), else the guild's import of that version. Version 0 is the
// newest (systemVersion says which that is, for a caller pinning it). An unknown id or
// version is refused not-allowed, saying what /system list shows. It takes no context:
// it runs inside tx, whose View or Update already answers to the caller's, and does
// bounded work (one record read, one parse of a bounded file).
func (c *Core) lookupSystem(tx storage.Tx, guild, id string, version int) (*inventory.System, error) {
	id = strings.TrimSpace(id)
	if version == 0 {
		v, err := systemVersion(tx, guild, id)
		if err != nil {
			return nil, err
		}
		version = v
	}
	// The cache before the file: reading a built-in's file copies it (a megabyte for
	// 5e), and a campaign asks on every message.
	if s, ok := c.systems.get(systemKey{builtin: true, id: id, version: version}); ok {
		return s, nil
	}
	if s, ok := c.systems.get(systemKey{guild: guild, id: id, version: version}); ok {
		return s, nil
	}
	b, builtin, err := content.LookupSystem(id)
	if err != nil {
		return nil, err
	}
	key := systemKey{builtin: builtin, id: id, version: version}
	var file []byte
	switch {
	case builtin && version == BuiltinSystemVersion:
		file = b.File
	case builtin:
		return nil, builtinOneVersion(id)
	default:
		key.guild = guild
		rec, err := tx.System(guild, id, version)
		if storage.KindOf(err) == storage.NotFound {
			return nil, refusal.New(refusal.NotAllowed, "system %s v%d is not imported here (/system list shows what this server has)", id, version)
		}
		if err != nil {
			return nil, fmt.Errorf("loading system %s v%d: %w", id, version, err)
		}
		file = rec.File
	}
	if s, ok := c.systems.get(key); ok {
		return s, nil
	}
	s, ps := inventory.Parse(file)
	if len(ps) > 0 {
		// Stored only after it parsed: a file that no longer does is this binary's
		// regression, not the GM's mistake. Refused not-enabled, as a system that cannot
		// be built is (buildSystem): the campaign's sheets still play.
		return nil, refusal.New(refusal.NotEnabled, "system %s v%d no longer reads: %v", id, version, ps.Head(1))
	}
	return c.systems.keep(key, s), nil
}

// builtinOneVersion refuses a version of built-in system id other than
// BuiltinSystemVersion.
func builtinOneVersion(id string) error {
	return refusal.New(refusal.NotAllowed, "the built-in system %s has one version, v%d", id, BuiltinSystemVersion)
}

// importedSystem is one system id imported in a guild: its versions, oldest first, and
// the newest one's record.
type importedSystem struct {
	id       string
	versions []int
	newest   *storage.SystemRecord
}

// importedSystems lists the systems imported in guild, by id, each with its newest
// version's record: what /system list and the system: completer show.
func importedSystems(tx storage.Tx, guild string) ([]importedSystem, error) {
	ids, err := tx.SystemIDs(guild)
	if err != nil {
		return nil, err
	}
	var out []importedSystem
	for _, id := range ids {
		vs, err := tx.SystemVersions(guild, id)
		if err != nil {
			return nil, err
		}
		if len(vs) == 0 {
			continue
		}
		rec, err := tx.System(guild, id, slices.Max(vs))
		if err != nil {
			return nil, err
		}
		out = append(out, importedSystem{id: id, versions: vs, newest: rec})
	}
	return out, nil
}

// systemVersion is the newest version of system id as guild sees it:
// BuiltinSystemVersion for a built-in, else the guild's newest import; refused
// not-allowed when there is none.
func systemVersion(tx storage.Tx, guild, id string) (int, error) {
	if id == "" {
		return 0, refusal.New(refusal.NotAllowed, "say which system (system:<id>; /system list shows them)")
	}
	if content.IsSystem(id) {
		return BuiltinSystemVersion, nil
	}
	vs, err := tx.SystemVersions(guild, id)
	if err != nil {
		return 0, err
	}
	if len(vs) == 0 {
		return 0, refusal.New(refusal.NotAllowed, "no system %q is imported here (/system list shows them; /system import adds one)", id)
	}
	return slices.Max(vs), nil
}

// SystemImport is what importing a system file did.
type SystemImport struct {
	// Record is the version the file is stored as: new, or the newest already holding
	// this content (Same).
	Record *storage.SystemRecord
	System *inventory.System
	Same   bool
}

// ImportSystem reads data as a GM's Pack Rat system file and stores it in guild's
// namespace as the next version of its id, by the user by. A file with mistakes comes
// back as strictjson.Problems, every one with its JSON path, and so does a built-in's id
// (see inventory.Import); the newest version holding the same bytes already is not
// stored again (Same). Nothing is written unless the whole file reads.
func (c *Core) ImportSystem(ctx context.Context, guild, by string, data []byte) (SystemImport, error) {
	s, ps := inventory.Import(data, content.IsSystem)
	if len(ps) > 0 {
		return SystemImport{}, ps
	}
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	var out SystemImport
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		vs, err := tx.SystemVersions(guild, s.ID)
		if err != nil {
			return err
		}
		next := 1
		if len(vs) > 0 {
			newest, err := tx.System(guild, s.ID, slices.Max(vs))
			if err != nil {
				return err
			}
			if newest.Digest == digest {
				out = SystemImport{Record: newest, System: s, Same: true}
				return nil
			}
			next = newest.Version + 1
		}
		rec := &storage.SystemRecord{Guild: guild, ID: s.ID, Version: next, Name: s.Name, Digest: digest,
			File: data, InstalledBy: by, InstalledAt: c.Now()}
		out = SystemImport{Record: rec, System: s}
		return tx.PutSystem(rec)
	})
	if err != nil {
		return SystemImport{}, err
	}
	c.systems.keep(systemKey{guild: guild, id: s.ID, version: out.Record.Version}, s)
	return out, nil
}

// SystemFile is a system as a file to download: its name (<id>.json for a built-in,
// <id>-v<N>.json for an import) and the bytes it was imported from, so exporting and
// importing again round-trips. Version 0 is the newest.
func (c *Core) SystemFile(ctx context.Context, guild, id string, version int) (File, *storage.SystemRecord, error) {
	id = strings.TrimSpace(id)
	var f File
	var rec *storage.SystemRecord
	err := c.store.View(ctx, func(tx storage.Tx) error {
		v, err := systemVersion(tx, guild, id)
		if err != nil {
			return err
		}
		if version == 0 {
			version = v
		}
		if b, ok, err := content.LookupSystem(id); err != nil {
			return err
		} else if ok {
			if version != BuiltinSystemVersion {
				return builtinOneVersion(id)
			}
			f = File{Name: id + ".json", Data: b.File}
			rec = &storage.SystemRecord{ID: id, Version: version, Name: b.Name}
			return nil
		}
		rec, err = tx.System(guild, id, version)
		if storage.KindOf(err) == storage.NotFound {
			return refusal.New(refusal.NotAllowed, "system %s has no v%d here (/system list shows its versions)", id, version)
		}
		if err != nil {
			return err
		}
		f = File{Name: fmt.Sprintf("%s-v%d.json", id, version), Data: rec.File}
		return nil
	})
	return f, rec, err
}

// systemSummary is one line saying what a system holds.
func systemSummary(s *inventory.System) string {
	parts := []string{plural(len(s.Templates), "template", "templates"), plural(len(s.Catalog), "catalog item", "catalog items")}
	if len(s.Tables) > 0 {
		parts = append(parts, plural(len(s.Tables), "table", "tables"))
	}
	if len(s.Slots) > 0 {
		parts = append(parts, plural(len(s.Slots), "slot", "slots"))
	}
	if len(s.States) > 0 {
		parts = append(parts, plural(len(s.States), "state", "states"))
	}
	return strings.Join(parts, ", ")
}
