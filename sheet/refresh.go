package sheet

import (
	"strconv"

	"sheetkeeper/ruleset"
)

// RowUpdate is one card row's columns to overwrite, the row named by its list and its
// index on the card. Package catalog works out which rows have newer text (a refresh,
// SPEC 5.4); sheet only writes them.
type RowUpdate struct {
	List   string
	Index  int
	Values map[string]any
}

// UpdateRows writes each update's columns onto its row — every other column and the
// marker stay as they are — then recomputes scaled values (a refresh is an edit). An
// update naming no row is skipped. now says how many rows were updated.
func UpdateRows(rs *ruleset.Ruleset, card *Card, entries Entries, updates []RowUpdate) (Outcome, []Change) {
	work := card.Clone()
	updated := 0
	for _, u := range updates {
		rows := work.Build.Lists[u.List]
		if u.Index < 0 || u.Index >= len(rows) {
			continue
		}
		for col, v := range u.Values {
			rows[u.Index][col] = v
		}
		updated++
	}
	if updated == 0 {
		return Applied("0 rows updated"), nil
	}
	Rescale(rs, work, entries)
	changes := Diff(card.Name, card, work)
	*card = *work
	word := " rows updated"
	if updated == 1 {
		word = " row updated"
	}
	return Applied(strconv.Itoa(updated) + word), changes
}
