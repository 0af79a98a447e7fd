package catalog

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// RefreshList is one list's part of a refresh review: the card's marked rows whose entry
// in the newer ruleset has newer text. Its length is the "N rows have updates" line.
type RefreshList struct {
	List  string       `json:"list"`
	Label string       `json:"label"`
	Rows  []RefreshRow `json:"rows"`
}

// RefreshRow is one card row with newer text: where it is, the entry row it matched, and
// each column that differs. Card and ruleset side by side are Columns' Card and Ruleset.
type RefreshRow struct {
	List   string `json:"list"`
	Index  int    `json:"index"`
	Marker string `json:"marker"`
	// Name is the row's name as the card shows it (its list's name column), for people.
	Name    string          `json:"name,omitempty"`
	Columns []RefreshColumn `json:"columns"`
}

// RefreshColumn is one differing column: the card's value (nil when the row has none) and
// the one the newer entry sets.
type RefreshColumn struct {
	Column  string `json:"column"`
	Label   string `json:"label"`
	Card    any    `json:"card"`
	Ruleset any    `json:"ruleset"`
}

// RefreshSelection names a row to update by its list and its index on the card.
type RefreshSelection struct {
	List  string
	Index int
}

// Refresh compares the card's catalog-marked rows with the entries of rs — the newer
// ruleset version, whose catalogs entries indexes — and returns, per list in the sheet's order, the rows with newer
// text and what differs. Nothing on the card changes.
//
// The comparison is narrow on purpose. Only columns the entry sets are looked at, and
// never a scaled one (it follows the card already). An existing text, longtext, dice or
// enum value is compared; an existing number or boolean value is the player's, 0 and
// false included; a column the row lacks is offered with the entry's typed value. A value
// the column would refuse (an enum value no longer offered, text beyond maxLength) is
// skipped. Rows of one marker in one list match the entry's rows for that list by
// position while there are as many of them as the entry writes; otherwise only an entry
// that writes a single row to the list matches (a player who deleted one row of a
// two-row entry is not guessed at). A row whose entry is gone is left alone, silently.
func Refresh(rs *ruleset.Ruleset, card *sheet.Card, entries sheet.Entries) []RefreshList {
	var out []RefreshList
	for li := range rs.Sheet.Lists {
		list := &rs.Sheet.Lists[li]
		rows := refreshRows(list, card.Build.Lists[list.ID], entries)
		if len(rows) > 0 {
			out = append(out, RefreshList{List: list.ID, Label: list.Label, Rows: rows})
		}
	}
	return out
}

// refreshRows works out one list's rows with newer text.
func refreshRows(list *ruleset.List, rows []sheet.Row, entries sheet.Entries) []RefreshRow {
	if len(rows) == 0 {
		return nil
	}
	// The card's rows of each marker, in order, so they can be matched by position.
	byMarker := map[string][]int{}
	var markers []string
	for i, row := range rows {
		m := row.Marker()
		if m == "" {
			continue
		}
		if byMarker[m] == nil {
			markers = append(markers, m)
		}
		byMarker[m] = append(byMarker[m], i)
	}
	var out []RefreshRow
	for _, m := range markers {
		e, ok := entryOf(entries, m)
		if !ok {
			continue
		}
		var specs []*ruleset.Row
		for i := range e.Rows {
			if e.Rows[i].List == list.ID {
				specs = append(specs, &e.Rows[i])
			}
		}
		on := byMarker[m]
		for k, idx := range on {
			var spec *ruleset.Row
			switch {
			case len(on) == len(specs):
				spec = specs[k]
			case len(specs) == 1:
				spec = specs[0]
			default:
				continue
			}
			cols := refreshColumns(list, rows[idx], spec)
			if len(cols) == 0 {
				continue
			}
			name, _ := rows[idx].Text(list.NameColumn())
			out = append(out, RefreshRow{List: list.ID, Index: idx, Marker: m, Name: name, Columns: cols})
		}
	}
	slices.SortFunc(out, func(a, b RefreshRow) int { return a.Index - b.Index })
	return out
}

// refreshColumns lists the columns of one card row that differ from its entry row by the
// rules of Refresh, in the list's column order.
func refreshColumns(list *ruleset.List, row sheet.Row, spec *ruleset.Row) []RefreshColumn {
	var out []RefreshColumn
	for ci := range list.Columns {
		col := &list.Columns[ci]
		want, sets := spec.Values[col.ID]
		if !sets {
			continue
		}
		if _, scaled := spec.Scaled[col.ID]; scaled {
			continue
		}
		if !columnAccepts(col, want) {
			continue
		}
		have, has := row[col.ID]
		if has {
			switch col.Type {
			case "text", "longtext", "dice", "enum":
				if have == want {
					continue
				}
			default:
				continue // a number or a switch the row holds is the player's
			}
		}
		rc := RefreshColumn{Column: col.ID, Label: col.Label, Ruleset: want}
		if has {
			rc.Card = have
		}
		out = append(out, rc)
	}
	return out
}

// columnAccepts reports whether a list column can hold v, the way the sheet editor
// decides: the type, a number's bounds and wholeness, an enum's values, a text's length.
func columnAccepts(col *ruleset.Column, v any) bool {
	switch x := v.(type) {
	case float64:
		if col.Type != "number" || math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
		if col.IsInteger() && x != math.Trunc(x) {
			return false
		}
		return (col.Min == nil || x >= *col.Min) && (col.Max == nil || x <= *col.Max)
	case bool:
		return col.Type == "boolean"
	case string:
		switch col.Type {
		case "text", "longtext":
			return col.MaxLength == nil || utf8.RuneCountInString(x) <= *col.MaxLength
		case "dice":
			return utf8.RuneCountInString(x) <= 40
		case "enum":
			return slices.Contains(col.Values, x)
		}
	}
	return false
}

// RefreshApply writes the selected rows' differing columns — worked out afresh against
// rs, so a stale selection never writes what no longer differs — and nothing else (see
// sheet.UpdateRows). A selection naming a row with nothing to update is skipped.
func RefreshApply(rs *ruleset.Ruleset, card *sheet.Card, entries sheet.Entries, sel []RefreshSelection) (sheet.Outcome, []sheet.Change) {
	want := map[RefreshSelection]bool{}
	for _, s := range sel {
		want[s] = true
	}
	var updates []sheet.RowUpdate
	for _, l := range Refresh(rs, card, entries) {
		for _, r := range l.Rows {
			if !want[RefreshSelection{List: r.List, Index: r.Index}] {
				continue
			}
			u := sheet.RowUpdate{List: r.List, Index: r.Index, Values: make(map[string]any, len(r.Columns))}
			for _, c := range r.Columns {
				u.Values[c.Column] = c.Ruleset
			}
			updates = append(updates, u)
		}
	}
	return sheet.UpdateRows(rs, card, entries, updates)
}

// entryOf returns the entry a row marker "<catalog>/<entry>" points at.
func entryOf(entries sheet.Entries, marker string) (*ruleset.Entry, bool) {
	cat, id, ok := strings.Cut(marker, "/")
	if !ok || cat == "" || id == "" || entries == nil {
		return nil, false
	}
	e, found := entries.Entry(cat, id)
	return e, found && e != nil
}
