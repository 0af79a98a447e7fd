package inventory

import (
	"strconv"
	"strings"

	"sheetkeeper/refusal"
)

// TableRoll is a roll on a table: what the dice showed, their total, and the catalog
// item the total names (nil when no entry has that roll).
type TableRoll struct {
	Table *Table
	Faces []int
	Total int
	Item  *Item
}

// RollOn rolls a table's die with roll (one die of the given sides, from 1: an injected
// source, so the engine rolls nothing of its own and a test replays faces) and finds the
// entry. A table without a die rolls one as large as its largest entry.
func (s *System) RollOn(tableID string, roll func(sides int) int) (TableRoll, error) {
	var t *Table
	for i := range s.Tables {
		if s.Tables[i].ID == tableID {
			t = &s.Tables[i]
		}
	}
	if t == nil {
		return TableRoll{}, refusal.New(refusal.UnknownEntry, "the system has no table %q", tableID)
	}
	count, sides := dieOf(t)
	out := TableRoll{Table: t}
	for range count {
		f := roll(sides)
		out.Faces = append(out.Faces, f)
		out.Total += f
	}
	for _, e := range t.Entries {
		if e.Roll == out.Total {
			out.Item = s.CatalogItem(e.ID)
		}
	}
	return out, nil
}

// dieOf reads a checked die ("d4", "2d6"); none: one die of the largest entry's roll.
func dieOf(t *Table) (count, sides int) {
	if t.Die == "" {
		for _, e := range t.Entries {
			sides = max(sides, e.Roll)
		}
		return 1, max(sides, 1)
	}
	c, sd, _ := strings.Cut(t.Die, "d")
	count, sides = 1, 1
	if c != "" {
		count, _ = strconv.Atoi(c)
	}
	sides, _ = strconv.Atoi(sd)
	return count, sides
}
