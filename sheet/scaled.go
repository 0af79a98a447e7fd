package sheet

import (
	"math"
	"slices"
	"strings"

	"sheetkeeper/ruleset"
)

// Entries finds a catalog entry by catalog id and entry id: the one way sheet reads
// catalogs (package catalog's Index is the implementation; it reads standalone catalog
// files lazily). An entry it cannot find (a catalog that failed to load, an entry the
// newer version dropped) reads as absent, and the rows that point at it are left exactly
// as they are. A nil Entries finds nothing.
type Entries interface {
	Entry(catalogID, entryID string) (*ruleset.Entry, bool)
}

// entryOf returns the entry a row marker "<catalog>/<entry>" points at.
func entryOf(entries Entries, marker string) (*ruleset.Entry, bool) {
	cat, id, ok := strings.Cut(marker, "/")
	if !ok || cat == "" || id == "" || entries == nil {
		return nil, false
	}
	e, found := entries.Entry(cat, id)
	return e, found && e != nil
}

// Marker is the marker a row picked from entryID of catalogID carries.
func Marker(catalogID, entryID string) string { return catalogID + "/" + entryID }

// Rescale brings every scaled column of every catalog-marked row on card up to date and
// returns the changes it made (none when every row already says the right number).
//
// Scaled values are worked out when a card is edited — a player's edit, an advance, a
// pick, a refresh — and never when it is read, so a stored row always is the number it
// says. Each value is its reference read from the build alone (a scaled column never
// reads the live state), looked up in its step table when it has one, held to the
// column's min and max and floored for an integer column. A row at 0 stays (a counter
// whose max is 0 is simply not a pool). Rows without a marker, rows whose entry cannot be
// found, and rows that match no spec (see scaledSpec) are left as they are.
func Rescale(rs *ruleset.Ruleset, card *Card, entries Entries) []Change {
	if len(rs.Catalogs) == 0 || len(card.Build.Lists) == 0 {
		return nil
	}
	var vals *Values
	var out []Change
	for li := range rs.Sheet.Lists {
		list := &rs.Sheet.Lists[li]
		rows := card.Build.Lists[list.ID]
		for i, row := range rows {
			m := row.Marker()
			if m == "" {
				continue
			}
			e, ok := entryOf(entries, m)
			if !ok {
				continue
			}
			spec := scaledSpec(list, e, row)
			if spec == nil {
				continue
			}
			for _, colID := range scaledIDs(spec.Scaled) {
				col := list.Column(colID)
				if col == nil || col.Type != "number" {
					continue
				}
				sc := spec.Scaled[colID]
				if vals == nil {
					vals = EvaluateBuild(rs, &card.Build)
				}
				x := vals.Ref(&sc.From)
				if sc.Table != nil {
					x = sc.Table.Lookup(x)
				}
				if !finite(x) {
					continue
				}
				x = fitColumn(x, col)
				before, had := row[colID]
				if had && before == x {
					continue
				}
				row[colID] = x
				ch := Change{Card: card.Name, Path: RowPath(list.ID, i, colID), After: x}
				if had {
					ch.Before = before
				}
				out = append(out, ch)
			}
		}
	}
	return out
}

// scaledSpec is the entry row a card row with the entry's marker follows for its scaled
// columns, or nil. When the entry writes one row to the list, that row is the spec (the
// single-row rule). When it writes several (Capability API 1.92), every one of them
// carries its own name in the list's name column, and a card row follows the one whose
// name it still has: a row the player renamed follows nothing and is left alone.
func scaledSpec(list *ruleset.List, e *ruleset.Entry, row Row) *ruleset.Row {
	var only *ruleset.Row
	n := 0
	for i := range e.Rows {
		if e.Rows[i].List == list.ID {
			n++
			only = &e.Rows[i]
		}
	}
	switch {
	case n == 0:
		return nil
	case n == 1:
		if only.Scaled == nil {
			return nil
		}
		return only
	}
	nameCol := list.NameColumn()
	if nameCol == "" {
		return nil
	}
	have, _ := row.Text(nameCol)
	key := ruleset.FoldName(have)
	if key == "" {
		return nil
	}
	for i := range e.Rows {
		r := &e.Rows[i]
		if r.List != list.ID || r.Scaled == nil {
			continue
		}
		if Row(r.Values).Named(nameCol, key) {
			return r
		}
	}
	return nil
}

// fitColumn holds a worked-out value to what the column accepts: its min and max, and a
// whole number for an integer column (floored, never below its min).
func fitColumn(x float64, col *ruleset.Column) float64 {
	if col.Min != nil {
		x = math.Max(x, *col.Min)
	}
	if col.Max != nil {
		x = math.Min(x, *col.Max)
	}
	if col.IsInteger() {
		x = math.Floor(x)
		if col.Min != nil && x < *col.Min {
			x = math.Ceil(*col.Min)
		}
	}
	return x
}

// scaledIDs returns a scaled map's column ids in order, so changes come out the same
// every run.
func scaledIDs(m map[string]ruleset.ScaledColumn) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// entriesFor is the entry lookup a request reads: the bot's catalogs, or none.
func entriesFor(opts *Options) Entries {
	if opts == nil {
		return nil
	}
	return opts.Catalogs
}
