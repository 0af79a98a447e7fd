package sheet

import (
	"strconv"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// Pick writes the rows of entry (of catalog catalogID) onto card, each a copy of the
// entry's values carrying its marker, then recomputes scaled values. A counter the pick
// adds starts full: nothing is stored for it (a value left over from an earlier row of
// the same name is cleared). The copy is the character's from then on.
//
// Refused unknown-entry when the entry writes no rows (a creature, an item), and
// not-allowed when a list would hold more rows than its maxItems (nothing is written).
// now lists the rows added by name.
func Pick(rs *ruleset.Ruleset, card *Card, catalogID string, entry *ruleset.Entry, entries Entries) (Outcome, []Change) {
	if entry == nil || len(entry.Rows) == 0 {
		return Refused(refuse(refusal.UnknownEntry, "that entry writes no rows onto a sheet")), nil
	}
	marker := Marker(catalogID, entry.ID)
	work := card.Clone()
	adding := map[string]int{}
	for _, r := range entry.Rows {
		adding[r.List]++
	}
	for list, n := range adding {
		l := rs.Sheet.List(list)
		if l == nil {
			return Refused(refuse(refusal.UnknownField, "the sheet has no list %q", list)), nil
		}
		if have := len(work.Build.Lists[list]); l.MaxItems > 0 && have+n > l.MaxItems {
			return Refused(refuse(refusal.NotAllowed, "%s holds at most %d rows; it has %d", l.Label, l.MaxItems, have)), nil
		}
	}
	if work.Build.Lists == nil {
		work.Build.Lists = map[string][]Row{}
	}
	names := make([]string, 0, len(entry.Rows))
	for _, r := range entry.Rows {
		row := make(Row, len(r.Values)+1)
		for k, v := range r.Values {
			if s, err := scalar(v); err == nil {
				row[k] = s
			}
		}
		row[CatalogKey] = marker
		work.Build.Lists[r.List] = append(work.Build.Lists[r.List], row)
		l := rs.Sheet.List(r.List)
		if name, _ := row.Text(l.NameColumn()); strings.TrimSpace(name) != "" && !contains(names, name) {
			names = append(names, name)
		}
	}
	Rescale(rs, work, entries)
	// New counters start full: drop anything stored under their keys.
	for _, r := range entry.Rows {
		l := rs.Sheet.List(r.List)
		if l.Pools == nil {
			continue
		}
		name, _ := r.Values[l.Pools.NameColumn].(string)
		if strings.TrimSpace(name) == "" || HasRowKeyed(card.Build.Lists[l.ID], l.Pools.NameColumn, name) {
			continue // a counter the card already had keeps what it has left
		}
		delete(work.Live.Pools, RowPoolKey(l.ID, name))
	}
	changes := Diff(card.Name, card, work)
	*card = *work
	now := entry.Label
	if len(names) > 0 {
		now = strings.Join(names, ", ")
	}
	return Applied(now + " added (" + strconv.Itoa(len(entry.Rows)) + " rows)"), changes
}
