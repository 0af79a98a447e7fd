package catalog

import (
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
