// Command systemgen generates the built-in D&D 5e (SRD 5.1) game system, a Pack Rat
// system file (SPEC 7), from the 5e-bits/5e-database equipment, magic item and weapon
// property JSON: the five coins, weight in pounds, hands and an armor slot, attunement
// limited to three items, every SRD item in the catalog (containers, vessels and
// equipment packs among them), and the SRD's roll tables that pick a magic item's
// variant.
//
// Item descriptions are written here from the data's structured facts (category,
// damage, range, armor class, rarity, who may attune); no description prose is copied,
// and the glossary's words for the weapon properties are the project's own.
//
// The file written is the inventory package's own Export of the system it parsed, so
// the committed file is already in the form an export → import → export round trip
// keeps byte for byte.
//
// It also writes both built-in systems' panels (panels/*.js, see panels.go): into the
// generated 5e file, and into Saltmarch's hand-written one, whose last two keys it owns.
//
// Usage (from content/, through go generate):
//
//	go run ./internal/systemgen -src ../../shared/data/srd-5.1 -out systems/dnd5e-srd.json
//	go run ./internal/systemgen -saltmarch systems/saltmarch.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"sheetkeeper/inventory"
)

func main() {
	src := flag.String("src", "", "directory holding the 5e-SRD-*.json data")
	out := flag.String("out", "", "system file to write")
	saltmarch := flag.String("saltmarch", "", "Saltmarch's hand-written system file, whose panels to write")
	flag.Parse()
	var data []byte
	var err error
	switch {
	case *saltmarch != "" && *src == "" && *out == "":
		*out = *saltmarch
		data, err = saltmarchFile(*saltmarch)
	case *src != "" && *out != "" && *saltmarch == "":
		data, err = generate(*src)
	default:
		fmt.Fprintln(os.Stderr, "usage: systemgen -src DATA_DIR -out FILE, or systemgen -saltmarch FILE")
		os.Exit(2)
	}
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "systemgen:", err)
		os.Exit(1)
	}
}

// saltmarchFile is Saltmarch's file with its panels written anew from panels/.
func saltmarchFile(name string) ([]byte, error) {
	file, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lib, panels, err := saltmarchPanels()
	if err != nil {
		return nil, err
	}
	return withPanels(file, lib, panels)
}

// generate reads the SRD data and returns the system file's bytes.
func generate(src string) ([]byte, error) {
	var d srd
	for _, f := range []struct {
		name string
		into any
	}{
		{"5e-SRD-Equipment.json", &d.equipment},
		{"5e-SRD-Magic-Items.json", &d.magic},
		{"5e-SRD-Weapon-Properties.json", &d.properties},
	} {
		raw, err := os.ReadFile(filepath.Join(src, f.name))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, f.into); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	sys, err := d.system()
	if err != nil {
		return nil, err
	}
	return canonical(sys)
}

// canonical exports the system, parses the export strictly and exports what was
// parsed: the bytes a user's export of the built-in would give.
func canonical(sys *inventory.System) ([]byte, error) {
	first, err := sys.Export()
	if err != nil {
		return nil, err
	}
	parsed, ps := inventory.Parse(first)
	if len(ps) > 0 {
		return nil, fmt.Errorf("the generated system does not parse: %v", ps)
	}
	out, err := parsed.Export()
	if err != nil {
		return nil, err
	}
	again, ps := inventory.Parse(out)
	if len(ps) > 0 {
		return nil, fmt.Errorf("the exported system does not parse: %v", ps)
	}
	if b, _ := again.Export(); !bytes.Equal(b, out) {
		return nil, fmt.Errorf("the exported system does not survive export → import → export")
	}
	return out, nil
}
