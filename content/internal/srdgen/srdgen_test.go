package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/bundle"
)

// The data and the committed package, relative to this directory.
const (
	srcDir = "../../../../shared/data/srd-5.1"
	pkgDir = "../../rulesets/dnd5e-srd"
)

func generated(t *testing.T) map[string][]byte {
	t.Helper()
	if _, err := os.Stat(srcDir); err != nil {
		t.Fatalf("the SRD data is missing (../shared beside the repo): %v", err)
	}
	files, err := generate(srcDir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The committed package is exactly what the generator makes, so stale output fails.
func TestCommittedPackageIsCurrent(t *testing.T) {
	files := generated(t)
	for p, want := range files {
		got, err := os.ReadFile(filepath.Join(pkgDir, filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./content)", p, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output (run go generate ./content)", p)
		}
	}
	err := filepath.WalkDir(pkgDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(pkgDir, p)
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s is in the package but not generated", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := generated(t), generated(t)
	for p := range a {
		if !bytes.Equal(a[p], b[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

type entry struct {
	ID      string         `json:"id"`
	Label   string         `json:"label"`
	Summary string         `json:"summary"`
	Filters map[string]any `json:"filters"`
	Rows    []struct {
		List   string         `json:"list"`
		Values map[string]any `json:"values"`
		Scaled map[string]any `json:"scaled"`
	} `json:"rows"`
	Mechanics map[string]any `json:"mechanics"`
	Creature  map[string]any `json:"creature"`
}

func entries(t *testing.T, files map[string][]byte, id string) map[string]entry {
	t.Helper()
	var file struct {
		Catalog string  `json:"catalog"`
		Entries []entry `json:"entries"`
	}
	if err := json.Unmarshal(files["catalogs/"+id+".json"], &file); err != nil {
		t.Fatal(err)
	}
	out := map[string]entry{}
	for _, e := range file.Entries {
		out[e.ID] = e
	}
	if len(out) != len(file.Entries) {
		t.Fatalf("%s: duplicate entry ids", id)
	}
	return out
}

func TestCounts(t *testing.T) {
	files := generated(t)
	if n := len(entries(t, files, "spells")); n != 319 {
		t.Errorf("spells: %d entries, want 319", n)
	}
	if n := len(entries(t, files, "creatures")); n != 334 {
		t.Errorf("creatures: %d entries, want 334", n)
	}
	if n := len(entries(t, files, "features")); n < 300 {
		t.Errorf("features: %d entries, want the SRD's 400 or so", n)
	}
}

func TestFireball(t *testing.T) {
	fb := entries(t, generated(t), "spells")["fireball"]
	if fb.Filters["level"] != 3.0 || fb.Filters["school"] != "Evocation" {
		t.Errorf("filters = %v", fb.Filters)
	}
	m := fb.Mechanics
	if amt, _ := m["amount"].(map[string]any); amt["dice"] != "8d6" {
		t.Errorf("amount = %v, want 8d6", m["amount"])
	}
	if m["damageType"] != "fire" {
		t.Errorf("damageType = %v", m["damageType"])
	}
	if save, _ := m["save"].(map[string]any); save["save"] != "dex_save" || save["onSuccess"] != "half" {
		t.Errorf("save = %v", m["save"])
	}
	cost, _ := m["cost"].([]any)
	if len(cost) != 1 || cost[0].(map[string]any)["pool"] != "slots_3" || cost[0].(map[string]any)["amount"] != 1.0 {
		t.Errorf("cost = %v, want one 3rd-level slot", m["cost"])
	}
	if step, _ := m["perCostStep"].(map[string]any); step["dice"] != "1d6" {
		t.Errorf("perCostStep = %v", m["perCostStep"])
	}
	if !strings.Contains(fb.Summary, "8d6 fire damage") || !strings.Contains(fb.Summary, "Dexterity save for half") {
		t.Errorf("summary = %q", fb.Summary)
	}
}

func TestSpellCostsAndTargets(t *testing.T) {
	spells := entries(t, generated(t), "spells")
	if _, ok := spells["fire-bolt"].Mechanics["cost"]; ok {
		t.Error("a cantrip has no cost")
	}
	hp := spells["hold-person"].Mechanics
	if hp["targetCount"] != 1.0 || hp["targetsPerCostStep"] != 1.0 {
		t.Errorf("hold person targets = %v / %v", hp["targetCount"], hp["targetsPerCostStep"])
	}
	if _, ok := spells["animate-dead"].Mechanics["targetsPerCostStep"]; ok {
		t.Error("animate dead adds undead, not targets")
	}
	if _, ok := spells["fireball"].Mechanics["targetsPerCostStep"]; ok {
		t.Error("fireball has no per-level targets")
	}
}

func TestCreatureSpotChecks(t *testing.T) {
	creatures := entries(t, generated(t), "creatures")
	dragon := creatures["adult-black-dragon"].Creature
	if dragon["defense"] != 19.0 || dragon["tier"] != "cr_14" {
		t.Errorf("adult black dragon: defense %v tier %v", dragon["defense"], dragon["tier"])
	}
	if h, _ := dragon["health"].(map[string]any); h["dice"] != "17d12" || h["flat"] != 85.0 {
		t.Errorf("health = %v", dragon["health"])
	}
	goblin := creatures["goblin"].Creature
	if goblin["defense"] != 15.0 || goblin["tier"] != "cr_1_4" {
		t.Errorf("goblin: defense %v tier %v", goblin["defense"], goblin["tier"])
	}
	if creatures["goblin"].Filters["challenge"] != 0.25 {
		t.Errorf("goblin challenge = %v", creatures["goblin"].Filters["challenge"])
	}
}

func TestRageScalesWithBarbarianLevel(t *testing.T) {
	rage := entries(t, generated(t), "features")["rage"]
	if len(rage.Rows) != 2 || rage.Rows[1].List != "counters" {
		t.Fatalf("rage rows = %+v", rage.Rows)
	}
	scaled, _ := rage.Rows[1].Scaled["max"].(map[string]any)
	from, _ := scaled["from"].(map[string]any)
	if from["field"] != "barbarian_level" {
		t.Errorf("rage scales from %v", scaled["from"])
	}
}

type descs struct {
	Index string          `json:"index"`
	Desc  json.RawMessage `json:"desc"`
	// Monsters keep prose in their actions and traits too.
	Actions          []struct{ Desc string } `json:"actions"`
	SpecialAbilities []struct{ Desc string } `json:"special_abilities"`
	LegendaryActions []struct{ Desc string } `json:"legendary_actions"`
	Reactions        []struct{ Desc string } `json:"reactions"`
	HigherLevel      []string                `json:"higher_level"`
}

func sourceProse(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(srcDir, file))
	if err != nil {
		t.Fatal(err)
	}
	var items []descs
	if err := json.Unmarshal(data, &items); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range items {
		var parts []string
		var list []string
		if json.Unmarshal(it.Desc, &list) == nil {
			parts = append(parts, list...)
		} else {
			var one string
			_ = json.Unmarshal(it.Desc, &one)
			parts = append(parts, one)
		}
		parts = append(parts, it.HigherLevel...)
		for _, group := range [][]struct{ Desc string }{it.Actions, it.SpecialAbilities, it.LegendaryActions, it.Reactions} {
			for _, a := range group {
				parts = append(parts, a.Desc)
			}
		}
		out[entryID(it.Index)] = strings.ToLower(strings.Join(parts, "\n"))
	}
	return out
}

// Every summary is one line of at most 300 characters and copies no 40-character run
// of its source's prose.
func TestSummariesAreOwnWords(t *testing.T) {
	files := generated(t)
	for _, c := range []struct{ catalog, source string }{
		{"spells", "5e-SRD-Spells.json"},
		{"features", "5e-SRD-Features.json"},
		{"creatures", "5e-SRD-Monsters.json"},
	} {
		prose := sourceProse(t, c.source)
		for id, e := range entries(t, files, c.catalog) {
			texts := []string{e.Summary}
			for _, r := range e.Rows {
				for _, v := range r.Values {
					if s, ok := v.(string); ok {
						texts = append(texts, s)
					}
				}
			}
			if n := len([]rune(e.Summary)); n == 0 || n > 300 {
				t.Errorf("%s/%s: summary is %d characters", c.catalog, id, n)
			}
			if strings.ContainsAny(e.Summary, "\r\n") {
				t.Errorf("%s/%s: summary has a line break", c.catalog, id)
			}
			src, ok := prose[id]
			if !ok {
				t.Errorf("%s/%s: no source entry", c.catalog, id)
				continue
			}
			for _, text := range texts {
				r := []rune(strings.ToLower(text))
				for i := 0; i+40 <= len(r); i++ {
					if strings.Contains(src, string(r[i:i+40])) {
						t.Errorf("%s/%s: copies %q from the source prose", c.catalog, id, string(r[i:i+40]))
						break
					}
				}
			}
		}
	}
}

// The package parses clean with the project's own validator and loader.
func TestPackageValidates(t *testing.T) {
	files := generated(t)
	rs, problems := ruleset.Parse(files["ruleset.json"])
	for _, p := range problems {
		t.Errorf("ruleset.json: %v", p)
	}
	if len(problems) > 0 {
		return
	}
	for _, id := range catalogIDs {
		_, problems := ruleset.CheckCatalogFile(rs, id, files["catalogs/"+id+".json"])
		for i, p := range problems {
			if i == 20 {
				t.Errorf("catalogs/%s.json: and %d more", id, len(problems)-20)
				break
			}
			t.Errorf("catalogs/%s.json: %v", id, p)
		}
	}
	root, err := os.OpenRoot(pkgDir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	b, err := bundle.FromFS(root.FS())
	if err != nil {
		t.Fatalf("bundle.FromFS: %v", err)
	}
	if got := b.API(); got != (bundle.Version{Major: 1, Minor: capabilityMinor}) {
		t.Errorf("API = %v", got)
	}
}

// The files stay inside the package limits even without the raised ones.
func TestSizes(t *testing.T) {
	for p, data := range generated(t) {
		limit := 1 << 20
		switch p {
		case "ruleset.json":
			limit = 256 << 10
		case "manifest.json":
			limit = 64 << 10
		}
		if len(data) > limit {
			t.Errorf("%s is %d bytes, over %d", p, len(data), limit)
		}
	}
}
