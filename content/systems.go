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

// systemFiles is every built-in game system (SPEC 7), one Pack Rat system file each,
// systems/<id>.json: the generated D&D 5e SRD system and the original Saltmarch.
//
//go:embed systems
var systemFiles embed.FS

// systemsRoot is the directory inside systemFiles that holds the built-in systems.
const systemsRoot = "systems"

// System is one built-in game system: its file's bytes, for the inventory package to
// read the way it reads an imported one.
type System struct {
	// ID is the system's id: its file's name without .json, and the id the file declares.
	ID string
	// Name is the system's display name, from its "name" key.
	Name string
	// File holds the system file's bytes.
	File []byte
}

// Systems returns every built-in game system, ordered by id. An error means the
// embedded tree is malformed (a file whose id does not match its name), which the
// package's tests rule out before a binary is built.
func Systems() ([]System, error) { return listSystems(systemFiles) }

func listSystems(fsys fs.FS) ([]System, error) {
	dir, err := fs.ReadDir(fsys, systemsRoot)
	if err != nil {
		return nil, fmt.Errorf("built-in systems: %w", err)
	}
	var out []System
	for _, e := range dir {
		id, isJSON := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !isJSON {
			continue
		}
		s, err := loadSystem(fsys, id)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// LookupSystem returns the built-in game system with this id, reading only that one.
func LookupSystem(id string) (System, bool, error) { return lookupSystem(systemFiles, id) }

func lookupSystem(fsys fs.FS, id string) (System, bool, error) {
	if !hasSystem(fsys, id) {
		return System{}, false, nil
	}
	s, err := loadSystem(fsys, id)
	return s, err == nil, err
}

// IsSystem reports whether id is a built-in system's: the test inventory.Import takes,
// so a user's import cannot take a built-in's id. It only looks for the file, not
// reading it: it is asked on every message of a campaign playing a system, and reading
// the 5e file (a megabyte) to check the id it declares cost most of such a reply; that
// every file declares its own id the package's tests check (TestSystemsList).
func IsSystem(id string) bool { return hasSystem(systemFiles, id) }

// hasSystem reports whether fsys holds systems/<id>.json for a plain id.
func hasSystem(fsys fs.FS, id string) bool {
	if id == "" || strings.ContainsAny(id, "/\\.") {
		return false
	}
	_, err := fs.Stat(fsys, path.Join(systemsRoot, id+".json"))
	return err == nil
}

// loadSystem reads systems/<id>.json and checks the id it declares. Only the id and
// name are read; validating the rest is the inventory package's job.
func loadSystem(fsys fs.FS, id string) (System, error) {
	data, err := fs.ReadFile(fsys, path.Join(systemsRoot, id+".json"))
	if err != nil {
		return System{}, fmt.Errorf("built-in system %s: %w", id, err)
	}
	var head struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return System{}, fmt.Errorf("built-in system %s: reading id and name: %w", id, err)
	}
	if head.ID != id {
		return System{}, fmt.Errorf("built-in system %s.json declares id %q", id, head.ID)
	}
	return System{ID: id, Name: head.Name, File: data}, nil
}
