package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

const (
	arcanaPath = "../sheet/testdata/use/arcana.json"
	emberPath  = "../../shared/reference/marinara/ember-roads.json"
)

// useRuleset parses a ruleset file and fails the test on any problem.
func useRuleset(t testing.TB, path string) *ruleset.Ruleset {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	rs, ps := ruleset.Parse(data)
	if len(ps) > 0 {
		t.Fatalf("%s: %v", path, ps)
	}
	return rs
}

// inline is the index of a ruleset's inline catalogs.
func inline(rs *ruleset.Ruleset) *Index { return New(&ruleset.Loaded{Ruleset: rs}) }

// pickAll picks the named entries of catalog onto card, failing the test on a refusal.
func pickAll(t testing.TB, rs *ruleset.Ruleset, card *sheet.Card, catalog string, ids ...string) {
	t.Helper()
	look := inline(rs)
	for _, id := range ids {
		e, ok := look.Entry(catalog, id)
		if !ok {
			t.Fatalf("no entry %s/%s", catalog, id)
		}
		if out, _ := sheet.Pick(rs, card, catalog, e, look); !out.OK() {
			t.Fatalf("pick %s: %+v", id, out)
		}
	}
}

// emberWith is the Ember Roads ruleset with edit applied to its JSON document first,
// failing the test if it no longer parses.
func emberWith(t testing.TB, edit func(doc map[string]any)) *ruleset.Ruleset {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(emberPath))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	if data, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	rs, ps := ruleset.Parse(data)
	if len(ps) > 0 {
		t.Fatalf("edited %s: %v", emberPath, ps)
	}
	return rs
}

// knack is the knacks entry with id in Ember Roads' JSON document, for a test to edit.
func knack(t testing.TB, doc map[string]any, id string) map[string]any {
	t.Helper()
	for _, c := range doc["catalogs"].([]any) {
		if cat := c.(map[string]any); cat["id"] == "knacks" {
			for _, e := range cat["entries"].([]any) {
				if e := e.(map[string]any); e["id"] == id {
					return e
				}
			}
		}
	}
	t.Fatalf("no knack %s", id)
	return nil
}

// knacksUnder is Ember Roads' knacks catalog, edited, and the hides of the layers turned on.
func knacksUnder(t testing.TB, edit func(doc map[string]any), layers ...string) (*Catalog, Hides) {
	t.Helper()
	rs := emberWith(t, edit)
	knacks, err := inline(rs).Find("knacks")
	if err != nil {
		t.Fatal(err)
	}
	return knacks, knacks.Hides(Layers(rs, layers))
}
