package ruleset

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sheetkeeper/ruleset/rules"
	"sort"
	"strings"
	"sync"

	"sheetkeeper/ruleset/bundle"
	"sheetkeeper/strictjson"
)

// Loaded is a ruleset ready to play: its definition and its catalogs, inline or read
// from its package the first time they are asked for.
type Loaded struct {
	*Ruleset
	// Digest identifies the content: the same id and version must always have the same
	// digest, or importing it is refused ("raise version").
	Digest string
	// Package is the package's manifest; nil for a single file.
	Package *bundle.Manifest

	bundle   *bundle.Bundle
	mu       sync.Mutex
	external map[string]*externalCatalog
}

// externalCatalog is a standalone catalog file's outcome, computed once: its entries, or
// the problems an author must fix, shown in the picker in place of entries.
type externalCatalog struct {
	entries  []Entry
	problems strictjson.Problems
}

// LoadFile reads a single-file ruleset: catalogs inline, at most 512 KB, no Capability
// API declaration needed (the engine that reads it validates it).
func LoadFile(data []byte) (*Loaded, error) {
	if err := CheckFileSize(int64(len(data))); err != nil {
		return nil, err
	}
	rs, ps := Parse(data)
	for i, c := range rs.Catalogs {
		if len(ps) == 0 && c.Asset != nil {
			ps.Add(fmt.Sprintf("catalogs[%d].asset", i), "a single-file ruleset carries its catalogs inline; an asset needs a package")
		}
	}
	if len(ps) > 0 {
		return nil, ps
	}
	sum := sha256.Sum256(data)
	return &Loaded{Ruleset: rs, Digest: hex.EncodeToString(sum[:])}, nil
}

// CheckFileSize refuses a single-file ruleset of size bytes when it is over the limit,
// saying its size: a front end that reads a file only up to the limit (as it should)
// asks with the size its file system tells, so the answer is not "513 KB" for every
// file over 512 KB.
func CheckFileSize(size int64) error {
	if size <= MaxSingleFileBytes {
		return nil
	}
	return strictjson.Problems{{Kind: strictjson.Limit, Msg: fmt.Sprintf("a single-file ruleset is at most %d KB; this one is %d KB (ship a package with standalone catalog files)", MaxSingleFileBytes/1024, (size+1023)/1024)}}
}

// LoadPackage reads a package's ruleset.json, checks its Capability API declaration
// against what the ruleset uses, and keeps the bundle to read standalone catalogs
// lazily. The caller keeps b open as long as the Loaded is used.
func LoadPackage(b *bundle.Bundle) (*Loaded, error) {
	rs, ps := Parse(b.Ruleset())
	if len(ps) > 0 {
		return nil, ps
	}
	l := &Loaded{Ruleset: rs, Digest: packageDigest(b.Manifest()), Package: b.Manifest(), bundle: b, external: map[string]*externalCatalog{}}
	ps = l.undeclared(rs.Features())
	have := map[string]bool{}
	for _, id := range b.CatalogIDs() {
		have[id] = true
	}
	for i, c := range rs.Catalogs {
		if c.Asset != nil && !have[c.ID] {
			ps.Add(fmt.Sprintf("catalogs[%d].asset", i), "the package has no %s (list it in contributions.assets.paths and files)", *c.Asset)
		}
		delete(have, c.ID)
	}
	for id := range have {
		ps.Add(bundle.CatalogPath(id), "no catalog of the ruleset is %q; an unused catalog file is a mistake", id)
	}
	if len(ps) > 0 {
		ps.Sort()
		return nil, ps
	}
	return l, nil
}

// undeclared reports each feature the package's declared Capability API does not
// cover, naming the feature and the version it needs.
func (l *Loaded) undeclared(features []rules.Feature) strictjson.Problems {
	var ps strictjson.Problems
	declared := l.Package.CapabilityAPI
	for _, f := range features {
		if !declared.AtLeast(bundle.Version{Major: 1, Minor: f.Minor}) {
			ps.Add(f.Path, "%s needs Capability API 1.%d; the package declares %s", f.Name, f.Minor, declared)
		}
	}
	return ps
}

// packageDigest is derived from the manifest's sha256 of every file, which the bundle
// has verified: equal digests mean equal content.
func packageDigest(m *bundle.Manifest) string {
	lines := make([]string, 0, len(m.Files))
	for _, f := range m.Files {
		lines = append(lines, f.Path+" "+f.SHA256)
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// LoadFS reads a package rooted at fsys: an embedded built-in, or a folder opened by a
// front end (see bundle.FromFS), kept open as long as the Loaded is used.
func LoadFS(fsys fs.FS) (*Loaded, error) {
	b, err := bundle.FromFS(fsys)
	if err != nil {
		return nil, err
	}
	return LoadPackage(b)
}

// LoadFiles reads a package from its files in memory, keyed by their path below the
// package root: a package as the bot stores it.
func LoadFiles(files map[string][]byte) (*Loaded, error) {
	b, err := bundle.FromFiles(files)
	if err != nil {
		return nil, err
	}
	return LoadPackage(b)
}

// Entries returns a catalog's entries. An inline catalog's were checked with the
// ruleset; a standalone file is read and checked on the first request, and a file with
// mistakes yields its problems (as the error) every time, in place of entries.
func (l *Loaded) Entries(catalogID string) ([]Entry, error) {
	c := l.Catalog(catalogID)
	if c == nil {
		return nil, fmt.Errorf("no catalog %q", catalogID)
	}
	if c.Asset == nil {
		return c.Entries, nil
	}
	if l.bundle == nil {
		return nil, fmt.Errorf("catalog %q is a standalone file and this ruleset has no package", catalogID)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.external[catalogID]; ok {
		return e.entries, e.problems.Err()
	}
	e := &externalCatalog{}
	if data, err := l.bundle.Catalog(catalogID); err != nil {
		if !errors.As(err, &e.problems) {
			e.problems = strictjson.Problems{{Msg: err.Error()}}
		}
	} else {
		var features []rules.Feature
		e.entries, e.problems, features = checkCatalogFile(l.Ruleset, catalogID, data)
		if len(e.problems) == 0 {
			e.problems = l.undeclared(features)
		}
		if len(e.problems) > 0 {
			e.entries = nil
		}
	}
	l.external[catalogID] = e
	return e.entries, e.problems.Err()
}
