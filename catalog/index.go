// Package catalog is what a ruleset's catalogs are at run time (SPEC 5.1, 5.4): one index
// of every catalog's entries, built once per loaded ruleset, and everything read through
// it — finding an entry by id for the engine, the picker's search and ranking, the filter
// language, startFrom, the layers' hides, the "already on this card" marks and the
// refresh comparison. It is pure: it reads catalogs through ruleset.Loaded (which reads a
// package's standalone files) and cards as sheet gives them, and keeps nothing else.
//
// Package sheet reads entries through sheet.Entries, which an *Index satisfies; catalog
// imports sheet, never the other way round.
package catalog

import (
	"strings"
	"sync"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// Index is every catalog of one loaded ruleset made ready for lookups and searches. Each
// catalog is indexed the first time it is asked for (a standalone catalog file is read and
// checked then) and kept: the engine looks up a row's entry on every use, and the picker
// searches on every keystroke, so both are map reads and string compares. Safe for
// concurrent use.
type Index struct {
	rules *ruleset.Loaded

	mu   sync.Mutex
	cats map[string]*Catalog
}

// New returns the index of l's catalogs. Build it once per loaded ruleset and keep it
// beside it; building costs nothing until a catalog is asked for. A Loaded made from
// inline catalogs only (&ruleset.Loaded{Ruleset: rs}) works too.
func New(l *ruleset.Loaded) *Index {
	return &Index{rules: l, cats: map[string]*Catalog{}}
}

var _ sheet.Entries = (*Index)(nil)

// Entry returns a catalog's entry by id (the first, if a catalog repeats one); false for
// an unknown entry or a catalog that cannot be read (Catalog's Problems say why).
func (ix *Index) Entry(catalogID, entryID string) (*ruleset.Entry, bool) {
	c := ix.byID(catalogID)
	if c == nil {
		return nil, false
	}
	e := c.byID[entryID]
	if e == nil {
		return nil, false
	}
	return e.Entry, true
}

// Marked returns the entry a row's marker "<catalog>/<entry>" points at.
func (ix *Index) Marked(marker string) (*ruleset.Entry, bool) {
	catID, id, ok := strings.Cut(marker, "/")
	if !ok {
		return nil, false
	}
	return ix.Entry(catID, id)
}

// Catalog returns cat (a catalog of the index's ruleset) made ready for searching.
func (ix *Index) Catalog(cat *ruleset.Catalog) *Catalog {
	ix.mu.Lock()
	c, ok := ix.cats[cat.ID]
	ix.mu.Unlock()
	if ok {
		return c
	}
	// Built outside the lock: reading a standalone file may take a while, and two
	// builders of one catalog build the same thing. The first one stored wins.
	c = build(ix.rules, cat)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if had, ok := ix.cats[cat.ID]; ok {
		return had
	}
	ix.cats[cat.ID] = c
	return c
}

// byID is the catalog with id, or nil when the ruleset has none.
func (ix *Index) byID(id string) *Catalog {
	cat := ix.rules.Catalog(id)
	if cat == nil {
		return nil
	}
	return ix.Catalog(cat)
}

// Find finds a catalog of the index's ruleset by id or label, case ignored, ready for
// searching. Refused unknown-entry, naming the catalogs there are.
func (ix *Index) Find(name string) (*Catalog, error) {
	rs := ix.rules.Ruleset
	want := ruleset.FoldName(name)
	if cat := rs.Catalog(strings.TrimSpace(name)); cat != nil {
		return ix.Catalog(cat), nil
	}
	for i := range rs.Catalogs {
		if ruleset.FoldName(rs.Catalogs[i].ID) == want || ruleset.FoldName(rs.Catalogs[i].Label) == want {
			return ix.Catalog(&rs.Catalogs[i]), nil
		}
	}
	ids := make([]string, 0, len(rs.Catalogs))
	for _, cat := range rs.Catalogs {
		ids = append(ids, cat.ID)
	}
	if len(ids) == 0 {
		return nil, refusal.New(refusal.UnknownEntry, "%s has no catalogs", rs.Name)
	}
	return nil, refusal.New(refusal.UnknownEntry, "%s has no catalog %q; its catalogs are %s", rs.Name, name, strings.Join(ids, ", "))
}

// Catalog is one catalog made ready for searching: every entry's id, label, summary and
// filter values folded for matching, so a search only compares strings.
type Catalog struct {
	// Def is the catalog as the ruleset declares it.
	Def *ruleset.Catalog
	// Problems are a standalone catalog file's mistakes (strictjson.Problems), shown in
	// place of entries; nil when the catalog could be read.
	Problems error

	entries []Entry
	byID    map[string]*Entry
}

// Entry is one catalog entry with what a search compares already worked out.
type Entry struct {
	*ruleset.Entry
	id      string // as written
	label   string // folded
	summary string // folded
	// values holds the entry's value for each of the catalog's filters, in the header's
	// order.
	values []filterValue
}

// filterValue is an entry's value for one filter: a number, or words (one for a text
// filter, several for tags), kept as written and folded.
type filterValue struct {
	set    bool
	num    float64
	isNum  bool
	words  []string
	folded []string
}

// build indexes cat's entries, read through l.
func build(l *ruleset.Loaded, cat *ruleset.Catalog) *Catalog {
	c := &Catalog{Def: cat}
	entries, err := l.Entries(cat.ID)
	if err != nil {
		c.Problems = err
		return c
	}
	c.entries = make([]Entry, len(entries))
	c.byID = make(map[string]*Entry, len(entries))
	for i := range entries {
		e := &entries[i]
		ie := Entry{Entry: e, id: e.ID, label: ruleset.FoldName(e.Label), values: make([]filterValue, len(cat.Filters))}
		if e.Summary != nil {
			ie.summary = ruleset.FoldName(*e.Summary)
		}
		for j := range cat.Filters {
			ie.values[j] = readFilterValue(e.Filters[cat.Filters[j].ID])
		}
		c.entries[i] = ie
	}
	for i := range c.entries {
		if _, dup := c.byID[c.entries[i].id]; !dup {
			c.byID[c.entries[i].id] = &c.entries[i]
		}
	}
	return c
}

func readFilterValue(v any) filterValue {
	switch x := v.(type) {
	case float64:
		return filterValue{set: true, isNum: true, num: x}
	case string:
		return filterValue{set: true, words: []string{x}, folded: []string{ruleset.FoldName(x)}}
	case []any:
		fv := filterValue{set: true}
		for _, w := range x {
			if s, ok := w.(string); ok {
				fv.words = append(fv.words, s)
				fv.folded = append(fv.folded, ruleset.FoldName(s))
			}
		}
		return fv
	}
	return filterValue{}
}

// Values is an entry's filter values in words, filter by filter ("Charge tier 1; Guild
// Wickwright, Smokejack"): what a listing shows beside the entry.
func (c *Catalog) Values(e *Entry) string {
	var parts []string
	for i, v := range e.values {
		if !v.set {
			continue
		}
		if v.isNum {
			parts = append(parts, c.Def.Filters[i].Label+" "+numText(v.num))
		} else if len(v.words) > 0 {
			parts = append(parts, c.Def.Filters[i].Label+" "+strings.Join(v.words, ", "))
		}
	}
	return strings.Join(parts, "; ")
}
