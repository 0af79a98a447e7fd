package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"sheetkeeper/inventory"
)

// panelFiles are the built-in systems' panels, written by the project as JavaScript
// functions (one a file) so they read and check like any other code; the system file
// carries each function's source wrapped as "(" + source + ")();", as the seed does.
//
//go:embed panels/*.js
var panelFiles embed.FS

// panelSpec is one panel of a system and the file of its function.
type panelSpec struct {
	id, slot, title, file string
}

// dnd5ePanels are the 5e system's: Character and Combat above the inventory, and the
// GM's player card.
func dnd5ePanels() (string, []inventory.Panel, error) {
	return buildPanels("dnd5e-lib.js", []panelSpec{
		{"character", "inventory", "Character", "dnd5e-character.js"},
		{"combat", "inventory", "Combat", "dnd5e-combat.js"},
		{"player", "gm-player", "Player", "dnd5e-gm.js"},
	})
}

// saltmarchPanels are Saltmarch's: Wayfarer and Tools of harm above the inventory, and
// the Tidewarden's card.
func saltmarchPanels() (string, []inventory.Panel, error) {
	return buildPanels("saltmarch-lib.js", []panelSpec{
		{"wayfarer", "inventory", "Wayfarer", "saltmarch-wayfarer.js"},
		{"tools", "inventory", "Tools of harm", "saltmarch-tools.js"},
		{"tidewarden", "gm-player", "Tidewarden", "saltmarch-tidewarden.js"},
	})
}

// buildPanels reads a system's panelLib and panels from their function files.
func buildPanels(libFile string, specs []panelSpec) (string, []inventory.Panel, error) {
	lib, err := called(libFile)
	if err != nil {
		return "", nil, err
	}
	var out []inventory.Panel
	for _, s := range specs {
		code, err := called(s.file)
		if err != nil {
			return "", nil, err
		}
		html := "<script>" + code + "</script>"
		if s.slot == "inventory" {
			html = `<div id="root"></div>` + html
		}
		out = append(out, inventory.Panel{ID: s.id, Slot: s.slot, Title: s.title, HTML: html})
	}
	return lib, out, nil
}

// called is a function file's source as a script that calls it. The file holds one
// function declaration (after its comment); a "</script" in it would end the panel's
// element early, so it is refused.
func called(file string) (string, error) {
	data, err := panelFiles.ReadFile(path.Join("panels", file))
	if err != nil {
		return "", err
	}
	src := strings.TrimSpace(string(data))
	if strings.Contains(strings.ToLower(src), "</script") {
		return "", fmt.Errorf("panels/%s: contains </script", file)
	}
	at := strings.Index(src, "\nfunction ")
	if at < 0 || !strings.HasSuffix(src, "}") {
		return "", fmt.Errorf("panels/%s: is not one function declaration after its comment", file)
	}
	return "(" + src[at+1:] + ")();", nil
}

// withPanels rewrites a hand-written system file's panels and panelLib, which the file
// keeps as its last two keys: everything before them is kept byte for byte. The result
// must still parse.
func withPanels(file []byte, lib string, panels []inventory.Panel) ([]byte, error) {
	s := string(file)
	if at := strings.Index(s, "\n  \"panels\": "); at >= 0 {
		s = s[:at]
	} else {
		s = strings.TrimSuffix(strings.TrimRight(s, " \n"), "}")
	}
	var b bytes.Buffer
	b.WriteString(strings.TrimRight(s, " \n,"))
	b.WriteString(",\n  \"panels\": [")
	for i, p := range panels {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		if err := encode(&b, p); err != nil {
			return nil, err
		}
	}
	b.WriteString("\n  ],\n  \"panelLib\": ")
	if err := encode(&b, lib); err != nil {
		return nil, err
	}
	b.WriteString("\n}\n")
	if _, ps := inventory.Parse(b.Bytes()); len(ps) > 0 {
		return nil, fmt.Errorf("the system with its panels does not parse: %v", ps)
	}
	return b.Bytes(), nil
}

// encode writes v as one line of JSON, HTML left readable.
func encode(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}
