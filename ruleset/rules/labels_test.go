package rules

import (
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

type tEntry struct {
	ID   string   `json:"id"`
	Rows []tRow   `json:"rows"`
	Acts []tThing `json:"actions"`
}

func (tEntry) ScopedID() {}

type tRow struct {
	List string `json:"list"`
}

type tThing struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

type tCatalog struct {
	ID      string   `json:"id"`
	Entries []tEntry `json:"entries"`
}

type tRoot struct {
	Catalogs []tCatalog                  `json:"catalogs"`
	Sheet    struct{ Derived []*tThing } `json:"sheet"`
	ByName   map[string][]tThing         `json:"byName"`
	Hidden   []tThing                    `json:"-"`
	Words    []string                    `json:"words"`
}

func TestLabelIDs(t *testing.T) {
	root := &tRoot{
		Catalogs: []tCatalog{{ID: "knacks", Entries: []tEntry{{ID: "road-sense"}, {ID: "last-ember", Acts: []tThing{{ID: "burn"}}}}}, {}},
		ByName:   map[string][]tThing{"knacks": {{ID: "k1"}}},
		Hidden:   []tThing{{ID: "nope"}},
	}
	root.Sheet.Derived = []*tThing{{ID: "grit_max"}, nil, {ID: "x(1)]\n" + strings.Repeat("y", 60)}}
	paths := map[string]string{
		"catalogs[0]":                             "catalogs[0] (knacks)",
		"catalogs[0].label":                       "catalogs[0] (knacks).label",
		"catalogs[0].entries[1].rows[1].list":     "catalogs[0].entries[1] (knacks/last-ember).rows[1].list",
		"catalogs[0].entries[1].actions[0].label": "catalogs[0].entries[1] (knacks/last-ember).actions[0] (burn).label",
		"catalogs[0].entries[7]":                  "catalogs[0] (knacks).entries[7]",
		"catalogs[1].entries[0]":                  "catalogs[1].entries[0]",
		"sheet.Derived[0].of[3]":                  "sheet.Derived[0] (grit_max).of[3]",
		"sheet.Derived[1]":                        "sheet.Derived[1]",
		"sheet.Derived[2]":                        "sheet.Derived[2] (x 1   " + strings.Repeat("y", 34) + "…)",
		"byName.knacks[0].id":                     "byName.knacks[0] (k1).id",
		"Hidden[0]":                               "Hidden[0]",
		"words[0]":                                "words[0]",
		"":                                        "",
	}
	var ps strictjson.Problems
	for p := range paths {
		ps.Add(p, "wrong")
	}
	LabelIDs(ps, root, "")
	for _, p := range ps {
		found := false
		for in, want := range paths {
			if p.Path == want {
				found = true
				delete(paths, in)
				break
			}
		}
		if !found {
			t.Errorf("unexpected path %q", p.Path)
		}
	}
	for in, want := range paths {
		t.Errorf("%q: want %q", in, want)
	}

	// A standalone catalog file: the scope names the catalog its entries are in.
	file := &struct {
		Entries []tEntry `json:"entries"`
	}{Entries: []tEntry{{ID: "fireball"}}}
	ps = strictjson.Problems{{Path: "entries[0].rows[0]"}}
	LabelIDs(ps, file, "spells")
	if ps[0].Path != "entries[0] (spells/fireball).rows[0]" {
		t.Errorf("standalone: %q", ps[0].Path)
	}
}
