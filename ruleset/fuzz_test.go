package ruleset

import (
	"os"
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

// FuzzParse feeds arbitrary bytes to the loader: it must never panic, and whatever it
// refuses it refuses with at least one problem that says what is wrong.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"ember-roads.json", "gravewatch.json"} {
		data, err := os.ReadFile(corpus + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schemaVersion":1,"id":"x","version":1}`))
	f.Add([]byte(`{"sheet":{"derived":[{"id":"a","op":"sum","of":[{"derived":"a"}]}]}}`))
	f.Add([]byte(strings.Repeat(`{"a":`, 100)))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := LoadFile(data)
		if err == nil {
			if l.Ruleset == nil || l.ID == "" {
				t.Fatal("accepted without an id")
			}
			return
		}
		if err.Error() == "" {
			t.Fatal("refused without a reason")
		}
		if _, ok := strictjson.KindOf(err); !ok {
			t.Fatalf("refused with %T, not problems of a kind: %v", err, err)
		}
	})
}

// FuzzCatalogFile checks arbitrary standalone catalog files against a real ruleset.
func FuzzCatalogFile(f *testing.F) {
	base, err := os.ReadFile(corpus + "ember-roads.json")
	if err != nil {
		f.Fatal(err)
	}
	rs, ps := Parse(base)
	if len(ps) > 0 {
		f.Fatal(ps)
	}
	f.Add([]byte(`{"schemaVersion":1,"catalog":"knacks","entries":[{"id":"a","label":"A","rows":[{"list":"knacks","values":{"name":"A"}}]}]}`))
	f.Add([]byte(`{"schemaVersion":1,"catalog":"knacks","entries":[{"id":"b","label":"B","rows":[{"list":"tricks","values":{"name":"B","uses":1},"scaled":{"uses":{"from":{"abilityScore":"heart"}}}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, ps := CheckCatalogFile(rs, "knacks", data)
		if len(ps) > 0 && entries != nil {
			t.Fatal("entries returned with problems")
		}
	})
}
