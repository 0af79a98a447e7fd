package catalog

import (
	"os"
	"testing"

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
