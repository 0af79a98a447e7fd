package catalog

import (
	"testing"

	"sheetkeeper/sheet"
)

func TestMarks(t *testing.T) {
	rs := useRuleset(t, emberPath)
	c := sheet.NewCard("Ash", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(t, rs, c, "knacks", "last-ember")
	if !Has(c, "knacks", "last-ember") || Has(c, "knacks", "road-sense") {
		t.Error("Has")
	}
	if got := Picked(c); len(got) != 1 || got["knacks/last-ember"] != 2 {
		t.Errorf("Picked %v", got)
	}
}
