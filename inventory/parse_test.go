package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func lantern(t testing.TB) *System {
	t.Helper()
	s, ps := Parse(readTestdata(t, "lantern.json"))
	if len(ps) > 0 {
		t.Fatalf("lantern.json: %v", ps)
	}
	return s
}

func TestParseLantern(t *testing.T) {
	s := lantern(t)
	if s.ID != "lantern-road" || len(s.Templates) != 6 || len(s.Catalog) != 11 {
		t.Fatalf("got id %q, %d templates, %d items", s.ID, len(s.Templates), len(s.Catalog))
	}
	ring := s.CatalogItem("lr-ring")
	if ring == nil || ring.Cost != 20 || ring.Fields["rarity"] != "rare" || ring.Fields["requiresAttunement"] != true {
		t.Fatalf("ring: %+v", ring)
	}
	id := ring.Layers["identified"]
	if id == nil || id.Name == nil || *id.Name != "Ring of Protection" || *id.Cost != 350000 {
		t.Fatalf("identified layer: %+v", id)
	}
	cursed := ring.Layers["cursed"]
	if cursed == nil || *cursed.Weight != 10 || len(cursed.Locks) != 1 || !cursed.Features["charges"] || cursed.Fields["maxCharges"] != 3.0 {
		t.Fatalf("cursed layer: %+v", cursed)
	}
	if w := s.TemplateByID("lr-weapon"); s.Top(w).ID != "arms" || len(s.Lineage(w)) != 2 {
		t.Fatalf("weapon's lineage: %v", s.Lineage(w))
	}
	if got := s.Term("character"); got != "traveller" {
		t.Errorf("Term(character) = %q", got)
	}
	if got := s.Term("gameMaster"); got != "Game master" {
		t.Errorf("Term(gameMaster) = %q, want Pack Rat's own", got)
	}
	if s.FeatureByKey("holds") == nil || s.FeatureByKey("armor") == nil || s.FeatureByKey("nope") != nil {
		t.Error("FeatureByKey: core and system features should both be found, nothing else")
	}
}

// TestRenamedCategory: a player's item with a category the system renamed takes the new
// one, under the template that renamed it and any below it.
func TestRenamedCategory(t *testing.T) {
	s := lantern(t)
	if got := s.RenameCategory("lr-trinket", "Amulet"); got != "Charm" {
		t.Errorf("RenameCategory(Amulet) = %q, want Charm", got)
	}
	if got := s.RenameCategory("lr-trinket", "Ring"); got != "Ring" {
		t.Errorf("a category not renamed stays: got %q", got)
	}
	if got := s.RenameCategory("lr-weapon", "Amulet"); got != "Amulet" {
		t.Errorf("another template's rename does not apply: got %q", got)
	}
}

// TestLegacyGroups: the seed's conversion. A group of several templates becomes an
// abstract template above them; a group of one becomes that template with the group's
// hue; a template naming a group goes under what it became; each group's id is an alias.
func TestLegacyGroups(t *testing.T) {
	s, ps := Parse(readTestdata(t, "legacy-groups.json"))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	var ids []string
	for _, tp := range s.Templates {
		ids = append(ids, tp.ID+"<"+tp.Parent)
	}
	if got, want := strings.Join(ids, " "), "weapons< blade<weapons bow<weapons provision< ration<provision"; got != want {
		t.Errorf("templates: got %s, want %s", got, want)
	}
	w := s.TemplateByID("weapons")
	if w == nil || !w.Abstract || *w.Hue != 5 || w.Icon != "sword" || w.Name != "Weapons" {
		t.Errorf("weapons: %+v", w)
	}
	if p := s.TemplateByID("provision"); p.Hue == nil || *p.Hue != 268 {
		t.Errorf("provision takes its group's hue: %+v", p)
	}
	for old, now := range map[string]string{"weapons": "weapons", "food": "provision", "loot": "provision", "blade": "blade"} {
		if got := s.TemplateAlias(old); got != now {
			t.Errorf("TemplateAlias(%s) = %s, want %s", old, got, now)
		}
	}
	if len(s.Groups) != 0 {
		t.Error("groups are converted away")
	}
}

// mutate decodes lantern.json into generic JSON, lets change edit it, and encodes it.
func mutate(t *testing.T, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(readTestdata(t, "lantern.json"), &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func at(m map[string]any, keys ...any) any {
	var v any = m
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

func obj(m map[string]any, keys ...any) map[string]any { return at(m, keys...).(map[string]any) }

// TestParseRefuses breaks the good file one way at a time: each is refused with the
// problem at its path, Malformed unless it is over a bound.
func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name   string
		change func(m map[string]any)
		path   string
		msg    string
	}{
		{"not a system", func(m map[string]any) { m["packrat"] = "character" }, "packrat", `must be "system"`},
		{"no id", func(m map[string]any) { delete(m, "id") }, "id", "required"},
		{"unknown key", func(m map[string]any) { m["colour"] = "red" }, "colour", "unknown key"},
		{"no templates", func(m map[string]any) {
			m["templates"] = []any{}
			m["catalog"] = []any{}
			m["starterTemplates"] = []any{}
			m["renamedCategories"] = map[string]any{}
		}, "templates", "at least one template"},
		{"unknown feature", func(m map[string]any) { obj(m, "templates", 1, "features")["attack"] = "main" }, "templates[1] (lr-weapon).features.attack", `unknown feature "attack"`},
		{"feature not main", func(m map[string]any) { obj(m, "templates", 1, "features")["weapon"] = "always" }, "templates[1] (lr-weapon).features.weapon", `true, false or "main"`},
		{"parent unknown", func(m map[string]any) { obj(m, "templates", 1)["parent"] = "armz" }, "templates[1] (lr-weapon).parent", `unknown template "armz"`},
		{"parent ring", func(m map[string]any) {
			obj(m, "templates", 0)["parent"] = "lr-weapon"
			obj(m, "templates", 0)["abstract"] = true
		}, "templates[0] (arms).parent", "ring"},
		{"bad field kind", func(m map[string]any) { obj(m, "templates", 1, "fields", 0)["kind"] = "colour" }, "templates[1] (lr-weapon).fields[0].kind", `"colour" is not one of`},
		{"select without options", func(m map[string]any) { delete(obj(m, "features", 0, "fields", 1), "options") }, "features[0] (weapon).fields[1].options", "needs options"},
		{"hide unknown", func(m map[string]any) { obj(m, "templates", 1)["hide"] = []any{"weight"} }, "templates[1] (lr-weapon).hide[0]", `"weight" is not one of`},
		{"item of abstract", func(m map[string]any) { obj(m, "catalog", 0)["type"] = "arms" }, "catalog[0] (lr-sword).type", "abstract"},
		{"item unknown field", func(m map[string]any) { obj(m, "catalog", 0)["sharpness"] = 3 }, "catalog[0] (lr-sword).sharpness", "unknown field"},
		{"item field of wrong kind", func(m map[string]any) { obj(m, "catalog", 0)["hands"] = "3" }, "catalog[0] (lr-sword).hands", "not one of the field's options"},
		{"item fractional cost", func(m map[string]any) { obj(m, "catalog", 0)["cost"] = 2.5 }, "catalog[0] (lr-sword).cost", "whole number"},
		{"item category", func(m map[string]any) { obj(m, "catalog", 0)["category"] = "Axe\n" }, "catalog[0] (lr-sword).category", "line breaks"},
		{"item duplicate", func(m map[string]any) { obj(m, "catalog", 1)["id"] = "lr-sword" }, "catalog[1] (lr-sword).id", "duplicate item id"},
		{"layer of unknown state", func(m map[string]any) { obj(m, "catalog", 7, "layers")["blessed"] = map[string]any{} }, "catalog[7] (lr-ring).layers.blessed", `unknown state "blessed"`},
		{"layer locks unknown", func(m map[string]any) { obj(m, "catalog", 7, "layers", "cursed")["locks"] = []any{"stuck"} }, "catalog[7] (lr-ring).layers.cursed.locks[0]", "unknown state stuck"},
		{"state requires unknown", func(m map[string]any) { obj(m, "states", 0)["requires"] = "attune" }, "states[0] (attuned).requires", `unknown feature "attune"`},
		{"limit mode", func(m map[string]any) { obj(m, "states", 0, "limit")["mode"] = "stop" }, "states[0] (attuned).limit.mode", `"stop" is not one of: warn, block`},
		{"coins not largest first", func(m map[string]any) { obj(m, "currency", "coins", 1)["value"] = 300 }, "currency.coins[1].value", "largest first"},
		{"no coin worth one", func(m map[string]any) { obj(m, "currency", "coins", 2)["value"] = 2 }, "currency.coins", "one coin must be worth 1"},
		{"change unknown", func(m map[string]any) { obj(m, "currency")["change"] = []any{"sp", "dp"} }, "currency.change[1]", `unknown coin "dp"`},
		{"show unknown", func(m map[string]any) { obj(m, "currency")["show"] = "pp" }, "currency.show", `unknown coin "pp"`},
		{"terminology unknown", func(m map[string]any) { obj(m, "terminology")["hero"] = "hero" }, "terminology.hero", "not one of the words"},
		{"campaign setting", func(m map[string]any) { m["campaignSettings"] = []any{"gravity"} }, "campaignSettings[0]", `"gravity" is not one of`},
		{"panel slot", func(m map[string]any) { obj(m, "panels", 0)["slot"] = "sidebar" }, "panels[0].slot", `"sidebar" is not one of`},
		{"table entry unknown", func(m map[string]any) { obj(m, "tables", 0, "entries", 1)["id"] = "lr-curio-9" }, "tables[0] (lr-curios).entries[1].id", `unknown catalog item "lr-curio-9"`},
		{"slot rule state", func(m map[string]any) { obj(m, "slots", 0, "rules", 1)["state"] = "twoHand" }, "slots[0].rules[1].state", `unknown state "twoHand"`},
		{"slot rule size", func(m map[string]any) { obj(m, "slots", 0, "rules", 0)["size"] = 3 }, "slots[0].rules[0].size", "1 up to the slot's count (2)"},
		{"item slot unknown", func(m map[string]any) { obj(m, "catalog", 0)["slot"] = "belt" }, "catalog[0] (lr-sword).slot", `unknown slot "belt"`},
		{"stat object", func(m map[string]any) { obj(m, "stats")["str"] = map[string]any{"base": 10} }, "stats.str", "must be a number"},
		{"renamed to no category", func(m map[string]any) { obj(m, "renamedCategories", "lr-trinket")["Amulet"] = "Talisman" }, "renamedCategories.lr-trinket.Amulet", "not one of the template's categories"},
		{"default of no field", func(m map[string]any) { obj(m, "templates", 1, "defaults")["grip"] = "left" }, "templates[1] (lr-weapon).defaults.grip", "unknown field"},
		{"default of the wrong kind", func(m map[string]any) { obj(m, "templates", 1, "defaults")["hands"] = 2 }, "templates[1] (lr-weapon).defaults.hands", "expected a string"},
		{"item template unknown", func(m map[string]any) { obj(m, "catalog", 0)["template"] = "lr-blade" }, "catalog[0] (lr-sword).template", `unknown template "lr-blade"`},
		{"starter's group unknown", func(m map[string]any) { obj(m, "starterTemplates", 0)["group"] = "tools" }, "starterTemplates[0].group", `unknown group "tools"`},
		{"value default out of range", func(m map[string]any) { obj(m, "values", 0)["default"] = 2 }, "values[0].default", "outside min..max"},
		{"value default no choice", func(m map[string]any) { obj(m, "values", 1)["default"] = 4 }, "values[1].default", "0 up to 3"},
		{"core feature redefined", func(m map[string]any) { obj(m, "features", 2)["key"] = "holds" }, "features[2] (holds).key", "core feature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, ps := Parse(mutate(t, tc.change))
			if s != nil {
				t.Fatal("an unusable file must be refused")
			}
			if !has(ps, tc.path, tc.msg) {
				t.Fatalf("want %s: …%s…; got:\n%v", tc.path, tc.msg, ps)
			}
			if k, _ := strictjson.KindOf(ps); k != strictjson.Malformed {
				t.Errorf("kind %v, want malformed", k)
			}
		})
	}
}

func has(ps strictjson.Problems, path, msg string) bool {
	for _, p := range ps {
		if p.Path == path && strings.Contains(p.Msg, msg) {
			return true
		}
	}
	return false
}

// TestParseEveryReasonAtOnce: an author sees all of a file's problems in one answer.
func TestParseEveryReasonAtOnce(t *testing.T) {
	_, ps := Parse(mutate(t, func(m map[string]any) {
		m["colour"] = "red"
		obj(m, "catalog", 0)["cost"] = -1
		obj(m, "states", 0, "limit")["mode"] = "stop"
		obj(m, "currency")["show"] = "pp"
	}))
	for _, want := range []string{"colour", "catalog[0] (lr-sword).cost", "states[0] (attuned).limit.mode", "currency.show"} {
		found := false
		for _, p := range ps {
			found = found || p.Path == want
		}
		if !found {
			t.Errorf("no problem at %s in:\n%v", want, ps)
		}
	}
}

// TestParseBounds: hostile files are refused with the Limit kind (size, counts) or as
// malformed (nesting), before they cost more than the bounds.
func TestParseBounds(t *testing.T) {
	big := make([]byte, MaxFileBytes+1)
	if _, ps := Parse(big); !errors.Is(ps, strictjson.Limit) {
		t.Errorf("a file over %d bytes: %v", MaxFileBytes, ps)
	}
	deep := strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200)
	if _, ps := Parse([]byte(`{"packrat":"system","id":"x","stats":` + deep + `}`)); !has(ps, "", "nested deeper") {
		t.Errorf("deep nesting: %v", ps)
	}
	many := mutate(t, func(m map[string]any) {
		var cat []any
		for i := 0; i <= MaxCatalog; i++ {
			cat = append(cat, map[string]any{"id": "x" + string(rune('a'+i%26)), "type": "lr-gear", "name": "X"})
		}
		m["catalog"] = cat
	})
	if _, ps := Parse(many); !errors.Is(ps, strictjson.Limit) || !has(ps, "catalog", "at most 5,000") {
		t.Errorf("too many items: %.300v", ps)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(readTestdata(f, "lantern.json"))
	f.Add(readTestdata(f, "legacy-groups.json"))
	f.Add([]byte(`{"packrat":"system","id":"x","templates":[{"id":"a","name":"A","parent":"a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, ps := Parse(data)
		if (s == nil) == (len(ps) == 0) {
			t.Fatalf("a system or problems, never both or neither: %v", ps)
		}
	})
}

// BenchmarkParseLargeCatalog reads a system with a 4,000-item catalog: what importing
// a big file costs.
func BenchmarkParseLargeCatalog(b *testing.B) {
	var m map[string]any
	if err := json.Unmarshal(readTestdata(b, "lantern.json"), &m); err != nil {
		b.Fatal(err)
	}
	cat := m["catalog"].([]any)
	for i := 0; i < 4000; i++ {
		cat = append(cat, map[string]any{"id": fmt.Sprintf("gen-%d", i), "type": "lr-weapon", "name": "Blade", "category": "Blade",
			"damage": "d6", "hands": "1", "cost": 10, "weight": 1, "rarity": "common"})
	}
	m["catalog"] = cat
	data, _ := json.Marshal(m)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ps := Parse(data); len(ps) > 0 {
			b.Fatal(ps)
		}
	}
}

// TestToggles: an older file's toggles are its states.
func TestToggles(t *testing.T) {
	s, ps := Parse([]byte(`{"packrat":"system","id":"r2","templates":[{"id":"t","name":"T","features":{"attunement":true}}],
		"features":[{"key":"attunement","label":"Attunement"}],
		"toggles":[{"key":"attuned","label":"Attuned","feature":"attunement","limit":3,"limitText":"At most {limit}"}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	st := s.States[0]
	if st.Key != "attuned" || st.Who != "player" || st.Requires != "attunement" || *st.Limit.Default != 3 || st.Limit.Mode != "warn" || len(s.Toggles) != 0 {
		t.Errorf("got %+v", st)
	}
	_, ps = Parse([]byte(`{"packrat":"system","id":"r2","templates":[{"id":"t","name":"T"}],"toggles":[{"key":"attuned","label":"Attuned","feature":"attune"}]}`))
	if !has(ps, "toggles[0].feature", `unknown feature "attune"`) {
		t.Errorf("a toggle's mistake is named at the toggle: %v", ps)
	}
}

// TestParseRefusesDuplicateKeysInsideItems: a key given twice inside a catalog item (in
// a layer, a trigger, its features), where the item is read as generic JSON, is refused
// with its path, as it is on every struct of the file — never resolved to the last one.
func TestParseRefusesDuplicateKeysInsideItems(t *testing.T) {
	data, err := os.ReadFile("testdata/lantern.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, ps := Parse(data); len(ps) > 0 {
		t.Fatalf("lantern.json itself: %v", ps)
	}
	for _, c := range []struct{ name, old, new string }{
		{"layer", `"cost": 350000,`, `"cost": 350000, "cost": 1,`},
		{"trigger", `"message": "The wand crumbles to dust."`, `"message": "The wand crumbles to dust.", "message": "Nothing happens."`},
		{"features", `"features": { "liquid": true }`, `"features": { "liquid": true, "liquid": false }`},
	} {
		if !bytes.Contains(data, []byte(c.old)) {
			t.Fatalf("%s: %q not in lantern.json", c.name, c.old)
		}
		_, ps := Parse(bytes.Replace(data, []byte(c.old), []byte(c.new), 1))
		if !strings.Contains(fmt.Sprint(ps), "duplicate key") {
			t.Errorf("%s: a duplicated key %s: %v, want a duplicate key problem", c.name, c.new, ps)
		}
	}
}
