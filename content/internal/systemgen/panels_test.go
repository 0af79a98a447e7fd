package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"sheetkeeper/inventory"
	"sheetkeeper/panel"
)

const saltmarchFileName = "../../systems/saltmarch.json"

// Saltmarch's committed file carries the panels panels/ holds now, and writing them
// again changes nothing (the hand-written part is kept byte for byte).
func TestSaltmarchPanelsAreCurrent(t *testing.T) {
	committed, err := os.ReadFile(saltmarchFileName)
	if err != nil {
		t.Fatal(err)
	}
	got, err := saltmarchFile(saltmarchFileName)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Error("systems/saltmarch.json's panels differ from panels/ (run go generate ./content)")
	}
	head, _, _ := strings.Cut(string(committed), "\n  \"panels\": ")
	lib, panels, err := saltmarchPanels()
	if err != nil {
		t.Fatal(err)
	}
	again, err := withPanels([]byte(head+"\n}\n"), lib, panels)
	if err != nil || !bytes.Equal(again, committed) {
		t.Errorf("writing the panels into the file without them gives another file (%v)", err)
	}
}

// Every built-in panel compiles in the sandbox, with its system's panelLib.
func TestPanelsCompile(t *testing.T) {
	for name, build := range map[string]func() (string, []inventory.Panel, error){"dnd5e": dnd5ePanels, "saltmarch": saltmarchPanels} {
		lib, panels, err := build()
		if err != nil {
			t.Fatal(err)
		}
		if len(panels) != 3 {
			t.Errorf("%s: %d panels", name, len(panels))
		}
		for _, p := range panels {
			if _, err := panel.Compile(lib, panel.Panel{ID: p.ID, Slot: p.Slot, Title: p.Title, HTML: p.HTML}); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}
