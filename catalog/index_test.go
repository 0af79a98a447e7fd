package catalog

import (
	"os"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// The index finds each entry of a standalone catalog by id, twice alike (the same entry,
// not a copy); a catalog whose file has problems, an unknown catalog and an unknown id
// answer nothing, and the problems are the catalog's.
func TestIndexStandaloneCatalogs(t *testing.T) {
	l, err := ruleset.LoadFS(os.DirFS("../../shared/reference/marinara/5e-2014"))
	if err != nil {
		t.Fatal(err)
	}
	ix := New(l)
	spells, err := l.Entries("spells")
	if err != nil || len(spells) == 0 {
		t.Fatalf("spells: %d, %v", len(spells), err)
	}
	for _, want := range []*ruleset.Entry{&spells[0], &spells[len(spells)-1]} {
		for range 2 {
			if e, ok := ix.Entry("spells", want.ID); !ok || e != want {
				t.Fatalf("Entry(spells, %s) = %v, %v", want.ID, e, ok)
			}
		}
	}
	for _, q := range [][2]string{{"features", "rogue-sneak-attack"}, {"spells", "no-such-spell"}, {"nope", spells[0].ID}} {
		if e, ok := ix.Entry(q[0], q[1]); ok {
			t.Errorf("Entry(%s, %s) = %s", q[0], q[1], e.ID)
		}
	}
	features, err := ix.Find("features")
	if err != nil || features.Problems == nil {
		t.Fatalf("features: %v, problems %v", err, features.Problems)
	}
	if _, again := l.Entries("features"); again == nil || again.Error() != features.Problems.Error() {
		t.Fatalf("the index's problems %v are not the catalog's %v", features.Problems, again)
	}
	if got := features.Search(&Query{}, 0); len(got) != 0 {
		t.Fatalf("a catalog with problems searched %d entries", len(got))
	}
}

// Lookups and searches from many goroutines at once share one index of each catalog.
func TestIndexConcurrent(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	ix := inline(rs)
	done := make(chan *Catalog)
	for range 8 {
		go func() {
			if _, ok := ix.Entry("spells", "fireball"); !ok {
				t.Error("no fireball")
			}
			c, _ := ix.Find("spells")
			c.Search(&Query{Text: "fire"}, 5)
			done <- c
		}()
	}
	first := <-done
	for range 7 {
		if c := <-done; c != first {
			t.Fatal("two indexes of one catalog")
		}
	}
}

// Named never considers an entry a layer hides, as Search never lists one: Coldfire Toss
// (Grit 1, hidden by Hard winter) renamed Road Sense leaves "Road Sense" to road-sense
// alone, not ambiguous; without the layer the name is ambiguous. A hidden entry's id is
// refused saying the layer, unless a shown entry answers to the name by its label.
func TestNamedIgnoresHiddenEntryWithSameLabel(t *testing.T) {
	rename := func(id, label string) func(map[string]any) {
		return func(doc map[string]any) { knack(t, doc, id)["label"] = label }
	}
	knacks, hides := knacksUnder(t, rename("coldfire-toss", "Road Sense"), "hard_winter")
	e, err := knacks.Named("Road Sense", nil, hides)
	if err != nil {
		t.Fatalf("Named: %v", err)
	}
	if e.ID != "road-sense" {
		t.Fatalf("Named found %s, want road-sense", e.ID)
	}
	if _, err := knacks.Named("Road Sense", nil, nil); refusal.Of(err) != refusal.AmbiguousEntry || !strings.Contains(err.Error(), "coldfire-toss") {
		t.Errorf("without the layer: %v, want ambiguous-entry naming coldfire-toss", err)
	}
	if _, err := knacks.Named("coldfire-toss", nil, hides); refusal.Of(err) != refusal.UnknownEntry || !strings.Contains(err.Error(), "Hard winter") {
		t.Errorf("hidden by id: %v, want unknown-entry naming the layer", err)
	}

	knacks, hides = knacksUnder(t, rename("road-sense", "coldfire-toss"), "hard_winter")
	if e, err := knacks.Named("coldfire-toss", nil, hides); err != nil || e.ID != "road-sense" {
		t.Errorf("a shown label beside a hidden id: %v %v, want road-sense", e, err)
	}
}

// An entry whose filter list is empty is never hidden by a layer reading that filter, as
// Marinara's hides() has it: Iron Stomach with no callings stays shown under a Hard winter
// that hides every knack whose callings are not Scout; Scrap Whisper (Tinker) is hidden.
func TestNamedKeepsEntryWithEmptyFilterShown(t *testing.T) {
	knacks, hides := knacksUnder(t, func(doc map[string]any) {
		layer := doc["layers"].([]any)[0].(map[string]any)
		layer["catalogs"] = []any{map[string]any{"id": "knacks", "hide": map[string]any{"filter": "callings", "notIn": []any{"Scout"}}}}
		knack(t, doc, "iron-stomach")["filters"].(map[string]any)["callings"] = []any{}
	}, "hard_winter")
	if e, err := knacks.Named("iron-stomach", nil, hides); err != nil || e.ID != "iron-stomach" {
		t.Errorf("iron-stomach: %v %v, want it shown", e, err)
	}
	if _, err := knacks.Named("scrap-whisper", nil, hides); refusal.Of(err) != refusal.UnknownEntry {
		t.Errorf("scrap-whisper: %v, want it hidden", err)
	}
}
