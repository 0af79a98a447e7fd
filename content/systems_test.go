package content

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"sheetkeeper/inventory"
)

// importSystem reads a built-in the way a user's file is read, with no id reserved:
// the built-in's own id is the one under test.
func importSystem(t testing.TB, s System) *inventory.System {
	t.Helper()
	sys, ps := inventory.Import(s.File, nil)
	if len(ps) > 0 {
		t.Fatalf("%s: %v", s.ID, ps)
	}
	return sys
}

// Both built-in systems are listed, named after the id they declare, and found by it.
func TestSystemsList(t *testing.T) {
	all, err := Systems()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.ID)
		if s.Name == "" {
			t.Errorf("%s: no name", s.ID)
		}
		got, ok, err := LookupSystem(s.ID)
		if err != nil || !ok || !bytes.Equal(got.File, s.File) {
			t.Errorf("LookupSystem(%q) = %v, %v", s.ID, ok, err)
		}
		if !IsSystem(s.ID) {
			t.Errorf("IsSystem(%q) = false", s.ID)
		}
	}
	if want := []string{"dnd5e-srd", "saltmarch"}; !slices.Equal(ids, want) {
		t.Errorf("systems %v, want %v", ids, want)
	}
	for _, id := range []string{"", "nope", "../systems/saltmarch", "saltmarch.json", "low-vell"} {
		if _, ok, err := LookupSystem(id); ok || err != nil {
			t.Errorf("LookupSystem(%q) = %v, %v; want not found", id, ok, err)
		}
	}
}

// A file stored under a name other than the id it declares is refused, not listed
// under the wrong id.
func TestSystemsIDMismatch(t *testing.T) {
	fsys := fstest.MapFS{"systems/a.json": {Data: []byte(`{"packrat":"system","id":"b"}`)}}
	if _, err := listSystems(fsys); err == nil {
		t.Error("a.json declaring id b was listed")
	}
}

// Each built-in loads with no problem, and an export → import → export round trip is
// byte-identical. The generated 5e file is already the export's form.
func TestSystemsRoundTrip(t *testing.T) {
	all, err := Systems()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		first, err := importSystem(t, s).Export()
		if err != nil {
			t.Fatal(err)
		}
		second, err := importSystem(t, System{ID: s.ID, File: first}).Export()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, second) {
			t.Errorf("%s: export → import → export differs", s.ID)
		}
		if s.ID == "dnd5e-srd" && !bytes.Equal(first, s.File) {
			t.Errorf("%s: the committed file is not its own export (run go generate ./content)", s.ID)
		}
		// A user's import under a built-in's id is refused.
		if _, ps := inventory.Import(first, IsSystem); len(ps) == 0 {
			t.Errorf("%s: importing a copy under the built-in's id was accepted", s.ID)
		}
	}
}

func lookupSys(t testing.TB, id string) *inventory.System {
	t.Helper()
	s, ok, err := LookupSystem(id)
	if err != nil || !ok {
		t.Fatalf("LookupSystem(%q) = %v, %v", id, ok, err)
	}
	return importSystem(t, s)
}

// The 5e system has the SRD's five coins, attunement to at most three items with the
// SRD's attunement items, hands and an armor slot, and the weapon properties glossed.
func TestDnD5eSystem(t *testing.T) {
	sys := lookupSys(t, "dnd5e-srd")
	coins := map[string]int64{}
	for _, c := range sys.Currency.Coins {
		coins[c.Key] = c.Value
	}
	if want := map[string]int64{"pp": 1000, "gp": 100, "ep": 50, "sp": 10, "cp": 1}; !maps.Equal(coins, want) {
		t.Errorf("coins %v, want %v", coins, want)
	}
	if sys.Weight == nil || sys.Weight.Unit != "lb" {
		t.Errorf("weight unit %+v, want lb", sys.Weight)
	}
	var attuned *inventory.State
	for i := range sys.States {
		if sys.States[i].Key == "attuned" {
			attuned = &sys.States[i]
		}
	}
	if attuned == nil || attuned.Limit == nil || attuned.Limit.Default == nil || *attuned.Limit.Default != 3 || attuned.Requires != "attunement" {
		t.Fatalf("attuned state %+v: want a limit of 3 on items with the attunement feature", attuned)
	}
	byID := map[string]*inventory.Item{}
	needs := 0
	for _, it := range sys.Catalog {
		byID[it.ID] = it
		if it.Features["attunement"] && it.Fields["requiresAttunement"] == true {
			needs++
		}
	}
	if needs < 150 {
		t.Errorf("%d items require attunement, want the SRD's 150 or more", needs)
	}
	for id, want := range map[string]bool{"amulet-of-health": true, "bag-of-holding": false, "holy-avenger": true} {
		it := byID[id]
		if it == nil {
			t.Errorf("%s: not in the catalog", id)
		} else if it.Features["attunement"] != want {
			t.Errorf("%s: requires attunement = %v, want %v", id, it.Features["attunement"], want)
		}
	}
	if ls := byID["longsword"]; ls == nil || ls.Cost != 1500 || ls.Weight != 3 || ls.Fields["damage"] != "1d8" {
		t.Errorf("longsword %+v: want 15 gp (1500 cp), 3 lb, 1d8", ls)
	}
	if bp := byID["backpack"]; bp == nil || !bp.Features["holds"] || bp.Fields["capacityLb"] != 30.0 {
		t.Errorf("backpack %+v: want a container of 30 lb", bp)
	}
	if pk := byID["explorers-pack"]; pk == nil || !pk.Features["pack"] || len(asList(pk.Fields["contents"])) != 8 {
		t.Errorf("explorer's pack %+v: want a pack of eight lines", pk)
	}
	if ws := byID["waterskin"]; ws == nil || !ws.Features["liquid"] || ws.Fields["liquidPints"] != 4.0 {
		t.Errorf("waterskin %+v: want a vessel of 4 pints", ws)
	}
	if r, err := sys.RollOn("horn-of-valhalla", func(int) int { return 95 }); err != nil || r.Item == nil || r.Item.ID != "horn-of-valhalla-iron" {
		t.Errorf("horn of Valhalla rolled 95: %+v, %v; want the iron horn", r.Item, err)
	}
	if len(sys.Tables) < 6 {
		t.Errorf("%d roll tables, want the SRD's six or so that pick a variant", len(sys.Tables))
	}
	slots := map[string]int{}
	for _, sl := range sys.Slots {
		slots[sl.Key] = sl.Count
	}
	if slots["hands"] != 2 || slots["body"] != 1 {
		t.Errorf("slots %v, want two hands and one body", slots)
	}
	for _, p := range []string{"Ammunition", "Finesse", "Heavy", "Light", "Loading", "Reach", "Special", "Thrown", "Two-Handed", "Versatile"} {
		if sys.Glossary[p] == "" {
			t.Errorf("weapon property %s: not in the glossary", p)
		}
	}
	if n := len(sys.Catalog); n < 550 {
		t.Errorf("%d catalog items, want the SRD's 237 pieces of equipment and 340 or so magic items", n)
	}
}

// The original system is deliberately unlike 5e: slots as weight, a silver standard,
// armor points and its own words.
func TestSaltmarchSystem(t *testing.T) {
	sys := lookupSys(t, "saltmarch")
	if sys.Weight == nil || sys.Weight.Unit != "slots" {
		t.Errorf("weight unit %+v, want slots", sys.Weight)
	}
	if sys.Currency.Show != "mark" {
		t.Errorf("prices shown in %q, want the silver mark", sys.Currency.Show)
	}
	if sys.Term("character") != "wayfarer" || sys.Term("gm") != "Tidewarden" {
		t.Errorf("terms %q, %q", sys.Term("character"), sys.Term("gm"))
	}
	found := false
	for _, f := range sys.Features {
		for _, fl := range f.Fields {
			found = found || fl.Key == "armorPoints"
		}
	}
	if !found {
		t.Error("no armor points field")
	}
	if len(sys.Tables) == 0 {
		t.Error("no roll table")
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// Loading the built-in 5e system, checks and all, against json.Unmarshal of the same
// bytes into a bare map: the bound is 3×.
func BenchmarkLoadDnD5eSystem(b *testing.B) {
	s, ok, err := LookupSystem("dnd5e-srd")
	if err != nil || !ok {
		b.Fatal(ok, err)
	}
	var base float64
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			var v map[string]any
			if err := json.Unmarshal(s.File, &v); err != nil {
				b.Fatal(err)
			}
		}
		base = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("import", func(b *testing.B) {
		for b.Loop() {
			if _, ps := inventory.Import(s.File, nil); len(ps) > 0 {
				b.Fatal(ps)
			}
		}
		if base > 0 {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/base, "x-unmarshal")
		}
	})
}
