// Package content holds sheetkeeper's built-in rulesets, compiled into the binary so
// the console and a fresh bot have something to play with no file, no network and no
// import step.
//
// A built-in is stored under rulesets/ in one of the two shapes a user could import:
//
//   - a single file, rulesets/<id>.json, with its catalogs inline (the original Low Vell
//     ruleset is one);
//   - a package folder, rulesets/<id>/, holding Marinara's manifest.json, ruleset.json
//     and catalogs/<catalog>.json (the generated D&D 5e SRD package is one).
//
// Keeping the two shapes, rather than flattening packages into one file, means a
// built-in goes through exactly the loaders and checks an imported ruleset does: the
// package's manifest, hashes, sizes and Capability API, and its lazily read catalog
// files. This package only finds the bytes; reading them is the ruleset packages' job.
//
// The built-in game systems (SPEC 7) sit beside the rulesets, one Pack Rat system file
// each under systems/ (see Systems), read by the inventory package like an imported one.
package content

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// files is every built-in ruleset, as the repository stores them. The whole directory
// is embedded so a generated package appears here without touching this file.
//
//go:embed rulesets
var files embed.FS

// root is the directory inside files that holds the built-ins.
const root = "rulesets"

// Builtin is one built-in ruleset: exactly one of File and Package is set.
type Builtin struct {
	// ID is the ruleset's id, the name of its file (without .json) or folder, and the
	// id its ruleset.json declares.
	ID string
	// Name is the ruleset's display name, from its "name" key.
	Name string
	// File holds a single-file ruleset's bytes, catalogs inline. Nil for a package.
	File []byte
	// Package is a package's folder, rooted so that manifest.json and ruleset.json sit at
	// its top. Nil for a single file.
	Package fs.FS
}

// IsPackage reports whether the built-in is a package folder rather than a single file.
func (b Builtin) IsPackage() bool { return b.Package != nil }

// RulesetJSON returns the ruleset document itself: the single file, or a package's
// ruleset.json (unverified: the package loader checks it against the manifest).
func (b Builtin) RulesetJSON() ([]byte, error) {
	if b.Package == nil {
		return b.File, nil
	}
	return fs.ReadFile(b.Package, "ruleset.json")
}

// Builtins returns every built-in ruleset, ordered by id. An error means the embedded
// tree is malformed — a file whose id does not match its name, a package folder without
// ruleset.json — which the package's tests rule out before a binary is built. A folder
// without manifest.json is not a package (yet) and is skipped.
func Builtins() ([]Builtin, error) { return list(files) }

// list reads every built-in under root in fsys. It takes the file system as an argument
// so tests can hand it trees the repository does not (yet) hold.
func list(fsys fs.FS) ([]Builtin, error) {
	dir, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("built-in rulesets: %w", err)
	}
	var out []Builtin
	for _, e := range dir {
		b, ok, err := load(fsys, e)
		if err != nil {
			return nil, fmt.Errorf("built-in ruleset %s: %w", e.Name(), err)
		}
		if ok {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Lookup returns the built-in ruleset with this id, reading only that one. The id is
// the bare ruleset id ("low-vell"), never a namespaced one: built-ins are the project's
// own.
func Lookup(id string) (Builtin, bool, error) { return lookup(files, id) }

func lookup(fsys fs.FS, id string) (Builtin, bool, error) {
	if id == "" || strings.ContainsAny(id, "/\\.") {
		return Builtin{}, false, nil
	}
	for _, name := range []string{id + ".json", id} {
		info, err := fs.Stat(fsys, path.Join(root, name))
		if err != nil {
			continue
		}
		b, ok, err := load(fsys, fs.FileInfoToDirEntry(info))
		if err != nil {
			return Builtin{}, false, fmt.Errorf("built-in ruleset %s: %w", name, err)
		}
		if ok {
			return b, true, nil
		}
	}
	return Builtin{}, false, nil
}

// load reads one entry of the rulesets directory. Anything that is neither a .json file
// nor a folder with a manifest (a README, say) is skipped, so notes can live beside the
// data.
func load(fsys fs.FS, e fs.DirEntry) (Builtin, bool, error) {
	name := e.Name()
	p := path.Join(root, name)
	if !e.IsDir() {
		id, isJSON := strings.CutSuffix(name, ".json")
		if !isJSON {
			return Builtin{}, false, nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return Builtin{}, false, err
		}
		b := Builtin{ID: id, File: data}
		if err := b.nameFrom(data); err != nil {
			return Builtin{}, false, err
		}
		return b, true, nil
	}
	if _, err := fs.Stat(fsys, path.Join(p, "manifest.json")); err != nil {
		return Builtin{}, false, nil
	}
	sub, err := fs.Sub(fsys, p)
	if err != nil {
		return Builtin{}, false, err
	}
	data, err := fs.ReadFile(sub, "ruleset.json")
	if err != nil {
		return Builtin{}, false, err
	}
	b := Builtin{ID: name, Package: sub}
	if err := b.nameFrom(data); err != nil {
		return Builtin{}, false, err
	}
	return b, true, nil
}

// nameFrom fills Name from the ruleset document and checks that the document's id is the
// one its file or folder is named after, so a built-in is always found by the id it
// declares. Only the two keys are read; validating the rest is the ruleset package's job.
func (b *Builtin) nameFrom(data []byte) error {
	var head struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("reading id and name: %w", err)
	}
	if head.ID != b.ID {
		return fmt.Errorf("declares id %q, but is stored as %q", head.ID, b.ID)
	}
	b.Name = head.Name
	return nil
}
