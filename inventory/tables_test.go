package inventory

import (
	"testing"

	"sheetkeeper/refusal"
)

func TestRollOn(t *testing.T) {
	s := lantern(t)
	r, err := s.RollOn("lr-curios", func(sides int) int {
		if sides != 2 {
			t.Fatalf("rolled a d%d, want the table's d2", sides)
		}
		return 2
	})
	if err != nil || r.Total != 2 || r.Item == nil || r.Item.ID != "lr-curio-2" {
		t.Fatalf("got %+v, %v", r, err)
	}
	if _, err := s.RollOn("lr-loot", func(int) int { return 1 }); refusal.Of(err) != refusal.UnknownEntry {
		t.Errorf("an unknown table: %v", err)
	}
	s2, ps := Parse(mutate(t, func(m map[string]any) { obj(m, "tables", 0)["die"] = "2d6" }))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	faces := []int{1, 1}
	r, _ = s2.RollOn("lr-curios", func(int) int { f := faces[0]; faces = faces[1:]; return f })
	if r.Total != 2 || len(r.Faces) != 2 || r.Item.ID != "lr-curio-2" {
		t.Errorf("2d6 showing 1 and 1: %+v", r)
	}
	if _, ps := Parse(mutate(t, func(m map[string]any) { obj(m, "tables", 0)["die"] = "d0" })); !has(ps, "tables[0] (lr-curios).die", "not a die") {
		t.Errorf("d0: %v", ps)
	}
}

func TestImportRefusesBuiltinID(t *testing.T) {
	data := readTestdata(t, "lantern.json")
	if _, ps := Import(data, func(id string) bool { return id == "lantern-road" }); !has(ps, "id", "built-in") {
		t.Errorf("got %v", ps)
	}
	if s, ps := Import(data, func(id string) bool { return id == "dnd5e" }); s == nil || len(ps) > 0 {
		t.Errorf("another id imports: %v", ps)
	}
}
