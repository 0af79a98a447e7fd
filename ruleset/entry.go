package ruleset

import (
	"regexp"
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

// Entry is one ready-made thing of a catalog: rows the picker copies onto a sheet, an
// opponent a fight puts across the table, or an item the party carries. Exactly one of
// Rows, Creature and Item is set, and it must be the kind its catalog holds.
type Entry struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// Summary is the one line the picker shows under the label; the model never reads it.
	Summary *string `json:"summary,omitempty"`
	// Filters holds a value for some of the catalog's declared filters: a number, one
	// word, or a list of words, by the filter's type. The JSON union is kept as decoded
	// (float64, string or []any) and checked against the header.
	Filters   map[string]any `json:"filters,omitempty"`
	Rows      []Row          `json:"rows,omitempty"`
	Mechanics *Mechanics     `json:"mechanics,omitempty"`
	Creature  *Creature      `json:"creature,omitempty"`
	Item      *Item          `json:"item,omitempty"`
}

// ScopedID marks an entry's id as unique only within its catalog: a problem inside it is
// labelled `catalog/entry` (rules.LabelIDs).
func (Entry) ScopedID() {}

// Row is one row an entry writes into a sheet list when it is picked. Values are keyed by
// the list's column ids and hold what the row starts as; Scaled names up to four number
// columns the sheet editor keeps following the character (a use count that grows with a
// level), each still given a plain starting number in Values.
type Row struct {
	List   string                  `json:"list"`
	Values map[string]any          `json:"values"`
	Scaled map[string]ScaledColumn `json:"scaled,omitempty"`
}

// ScaledColumn is a number column whose value follows the sheet: the reference's own
// number, or that number looked up in Table.
type ScaledColumn struct {
	From  ValueRef  `json:"from"`
	Table StepTable `json:"table,omitempty"`
}

// Entry limits from the schema and the seed.
const (
	maxEntryID       = 80
	maxEntryLabel    = 120
	maxSummary       = 300
	maxRowsPerEntry  = 6
	maxScaledColumns = 4
	maxFilterWord    = 80
	maxFilterTags    = 24
)

// entryIDPattern is a catalog entry id: lowercase letters and digits in runs joined by
// single hyphens, the same shape as a ruleset id, so `<catalog>/<entry>` never needs
// quoting.
var entryIDPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// entryKind says which of the three things an entry is, "" when it is none or several.
func (e *Entry) entryKind() string {
	n, kind := 0, ""
	if e.Rows != nil {
		n, kind = n+1, holdsRows
	}
	if e.Creature != nil {
		n, kind = n+1, holdsCreatures
	}
	if e.Item != nil {
		n, kind = n+1, holdsItems
	}
	if n != 1 {
		return ""
	}
	return kind
}

// checkEntry checks one entry of catalog cat at path. It covers the entry's own shape
// and every name it uses; what the catalog as a whole forbids (duplicate ids) is checked
// by the caller.
func (c *checker) checkEntry(cat *Catalog, e *Entry, path string, ctx *entryContext) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.entryID(at("id"), e.ID)
	c.PromptText(at("label"), e.Label, maxEntryLabel)
	if e.Summary != nil {
		c.CatalogText(at("summary"), *e.Summary, maxSummary)
	}
	c.entryFilters(cat, e, at("filters"))

	kind := e.entryKind()
	switch {
	case kind == "":
		c.Add(path, `an entry has exactly one of "rows", "creature" or "item"`)
	case kind != cat.Kind() && cat.Kind() == holdsRows:
		c.Add(at(kindKey(kind)), "catalog %q holds rows, so an entry cannot carry %s", cat.ID, kindNoun(kind))
	case kind != cat.Kind():
		c.Add(at(kindKey(cat.Kind())), "catalog %q holds %s, so every entry carries %s", cat.ID, cat.Kind(), kindNoun(cat.Kind()))
	}
	if e.Mechanics != nil {
		switch {
		case e.Creature != nil:
			c.Add(at("mechanics"), "a creature says what it does in its own actions, so it carries no mechanics")
		case e.Item != nil:
			c.Add(at("mechanics"), "an item says what it does in its item block, so it carries no mechanics")
		}
		c.checkMechanics(e, at("mechanics"), ctx)
	}
	if e.Rows != nil {
		c.checkRows(cat, e, at("rows"), ctx)
	}
	if e.Creature != nil {
		c.checkCreature(e.Creature, at("creature"))
	}
	if e.Item != nil {
		c.checkItem(e.Item, at("item"), ctx)
	}
}

func kindKey(kind string) string {
	switch kind {
	case holdsCreatures:
		return "creature"
	case holdsItems:
		return "item"
	}
	return "rows"
}

func kindNoun(kind string) string {
	switch kind {
	case holdsCreatures:
		return "a creature"
	case holdsItems:
		return "an item"
	}
	return "rows"
}

// entryID checks a catalog entry id.
func (c *checker) entryID(path, id string) {
	switch {
	case rules.TextLen(id) > maxEntryID:
		c.Add(path, "entry id %q is longer than %d characters", rules.Clip(id), maxEntryID)
	case !entryIDPattern.MatchString(id):
		c.Add(path, "entry id %q must be lowercase letters and digits joined by single hyphens", rules.Clip(id))
	}
}

// entryFilters checks an entry's filter values against the filters its catalog declares:
// a number filter takes a number, a text filter one word, a tags filter a list of words.
func (c *checker) entryFilters(cat *Catalog, e *Entry, path string) {
	for _, id := range rules.SortedKeys(e.Filters) {
		v := e.Filters[id]
		p := strictjson.Join(path, id)
		f := cat.Filter(id)
		if f == nil {
			c.Add(p, "catalog %q has no filter %q", cat.ID, id)
			continue
		}
		switch x := v.(type) {
		case float64:
			if f.Type != "number" && f.Type != "" {
				c.Add(p, "filter %q takes %s", id, filterWants(f.Type))
			}
		case string:
			c.MaxLen(p, x, maxFilterWord)
			if f.Type != "text" && f.Type != "" {
				c.Add(p, "filter %q takes %s", id, filterWants(f.Type))
			}
		case []any:
			c.Count(p, len(x), 0, maxFilterTags)
			for i, w := range x {
				s, ok := w.(string)
				if !ok {
					c.Add(strictjson.Join(p, i), "expected a string")
					continue
				}
				c.MaxLen(strictjson.Join(p, i), s, maxFilterWord)
			}
			if f.Type != "tags" && f.Type != "" {
				c.Add(p, "filter %q takes %s", id, filterWants(f.Type))
			}
		default:
			c.Add(p, "expected a number, a string or a list of strings")
		}
	}
}

func filterWants(typ string) string {
	switch typ {
	case "number":
		return "a number"
	case "text":
		return "one word"
	}
	return "a list of words"
}
