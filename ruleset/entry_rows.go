package ruleset

import (
	"fmt"
	"math"
	"sheetkeeper/ruleset/rules"
	"slices"
	"strings"

	"sheetkeeper/strictjson"
)

// checkRows checks what an entry writes onto a sheet: each row's list is one the catalog
// feeds, each value one its column can hold, every required column set, and every scaled
// column a number column that reads only what a sheet without live state can give.
func (c *checker) checkRows(cat *Catalog, e *Entry, path string, ctx *entryContext) {
	c.Count(path, len(e.Rows), 1, maxRowsPerEntry)
	for i := range e.Rows {
		r := &e.Rows[i]
		rp := strictjson.Join(path, i)
		list := c.rowList(cat, r.List, strictjson.Join(rp, "list"))
		if list == nil {
			continue
		}
		c.rowValues(list, r.Values, strictjson.Join(rp, "values"))
		if r.Scaled != nil {
			c.scaledColumns(list, r, rp)
		}
	}
	c.scaledRowsApart(e, path)
}

// rowList resolves the list a row writes into: one the sheet declares and the catalog
// feeds.
func (c *checker) rowList(cat *Catalog, id, path string) *List {
	if !c.SheetID(path, id) {
		return nil
	}
	if !cat.feeds(id) {
		c.Add(path, "%q is not one of the lists catalog %q feeds", id, cat.ID)
		return nil
	}
	l := c.names.list(id)
	if l == nil {
		c.Add(path, "unknown list %q", id)
	}
	return l
}

// rowValues checks one row's values against its list's columns, the way the sheet
// editor would: an unknown column, a value the column refuses, a required column left
// out are each reported at the value.
func (c *checker) rowValues(l *List, values map[string]any, path string) {
	for _, id := range rules.SortedKeys(values) {
		p := strictjson.Join(path, id)
		col := l.Column(id)
		if col == nil {
			c.Add(p, "list %q has no column %q", l.ID, id)
			continue
		}
		if msg := cellRefuses(col, values[id]); msg != "" {
			c.Add(p, "column %q %s", id, msg)
		}
	}
	for i := range l.Columns {
		col := &l.Columns[i]
		if _, ok := values[col.ID]; !ok && col.IsRequired() {
			c.Add(path, "column %q of list %q is required", col.ID, l.ID)
		}
	}
}

// cellRefuses says why a column (or a field, or an item stat: they share the shapes)
// cannot hold v, "" when it can: the type, a number's bounds and wholeness, an enum's
// values, a text's length.
func cellRefuses(col *Column, v any) string {
	switch x := v.(type) {
	case float64:
		if col.Type != "number" {
			return "takes " + typeWants(col)
		}
		switch {
		case col.IsInteger() && x != math.Trunc(x):
			return "takes a whole number"
		case col.Min != nil && x < *col.Min, col.Max != nil && x > *col.Max:
			return fmt.Sprintf("must be between %s and %s", rules.Num(deref(col.Min)), rules.Num(deref(col.Max)))
		}
	case bool:
		if col.Type != "boolean" {
			return "takes " + typeWants(col)
		}
	case string:
		switch col.Type {
		case "text", "longtext":
			if col.MaxLength != nil && rules.TextLen(x) > *col.MaxLength {
				return fmt.Sprintf("holds at most %d characters", *col.MaxLength)
			}
		case "dice":
			if rules.TextLen(x) > rules.MaxDiceText {
				return fmt.Sprintf("holds at most %d characters", rules.MaxDiceText)
			}
		case "enum":
			if !slices.Contains(col.Values, x) {
				return "takes " + typeWants(col)
			}
		default:
			return "takes " + typeWants(col)
		}
	default:
		return "takes " + typeWants(col)
	}
	return ""
}

// typeWants says what a column of this type holds, for messages.
func typeWants(col *Column) string {
	switch col.Type {
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "enum":
		return "one of: " + rules.Clip(strings.Join(col.Values, ", "))
	case "dice":
		return "dice text"
	}
	return "text"
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// scaledRefRules is what a scaled column may read: any declared derived value, but
// nothing that changes in play or adds up a list (the same recompute rewrites the lists'
// scaled cells), directly or through a derived value.
var scaledRefRules = refRules{allDerived: true, noLive: true, noListSum: true}

// scaledColumns checks a row's scaled map: one to four number columns of the list, each
// with a starting number in values and a reference a sheet without live state can read.
func (c *checker) scaledColumns(l *List, r *Row, rp string) {
	sp := strictjson.Join(rp, "scaled")
	c.UsesOnce("scaled", 23, sp)
	c.Count(sp, len(r.Scaled), 1, maxScaledColumns)
	for _, id := range rules.SortedKeys(r.Scaled) {
		sc := r.Scaled[id]
		kp := strictjson.Join(sp, id)
		if c.columnOfType(kp, l, id, "number") != nil {
			if _, ok := r.Values[id]; !ok {
				c.Add(strictjson.Join(rp, "values"), "scaled column %q needs a starting number in values", id)
			}
		}
		c.valueRef(&sc.From, strictjson.Join(kp, "from"), scaledRefRules)
		if sc.Table != nil {
			c.StepTable(strictjson.Join(kp, "table"), sc.Table, maxStepTable)
		}
	}
}

// maxStepTable is the longest step table the schema allows.
const maxStepTable = 100

// scaledRowsApart holds an entry to the rule that keeps a card's scaled rows matched to
// their specs: a row with scaled columns is the entry's only row for its list, or
// (Capability API 1.92) every row the entry writes to that list carries its own name in
// the list's name column, so the card's rows are matched by name.
func (c *checker) scaledRowsApart(e *Entry, path string) {
	byList := map[string][]int{}
	var order []string
	for i, r := range e.Rows {
		if byList[r.List] == nil {
			order = append(order, r.List)
		}
		byList[r.List] = append(byList[r.List], i)
	}
	for _, id := range order {
		rows := byList[id]
		l := c.names.list(id)
		if len(rows) < 2 || l == nil || !anyScaled(e.Rows, rows) {
			continue
		}
		name := l.NameColumn()
		if name == "" {
			for _, i := range rows {
				if e.Rows[i].Scaled != nil {
					c.Add(strictjson.Join(strictjson.Join(path, i), "scaled"),
						"a scaled row must be this entry's only row for list %q, which has no name column to tell rows apart", id)
				}
			}
			continue
		}
		if c.rowsNamed(e.Rows, rows, name, path) {
			c.UsesOnce("several scaled rows per list told apart by name", 92, strictjson.Join(path, rows[1]))
		}
	}
}

func anyScaled(rows []Row, idx []int) bool {
	for _, i := range idx {
		if rows[i].Scaled != nil {
			return true
		}
	}
	return false
}

// rowsNamed reports whether every row idx of one list carries its own name in column
// name, reporting each row that does not.
func (c *checker) rowsNamed(rows []Row, idx []int, name, path string) bool {
	ok := true
	seen := map[string]bool{}
	for _, i := range idx {
		r := &rows[i]
		vp := strictjson.Join(strictjson.Join(path, i), "values")
		v, _ := r.Values[name].(string)
		key := strings.ToLower(strings.TrimSpace(v))
		switch {
		case key == "":
			c.Add(vp, "a scaled row shares list %q with other rows of this entry, so every one of them needs its own name in column %q", r.List, name)
			ok = false
		case seen[key]:
			c.Add(strictjson.Join(vp, name), "another row of this entry for list %q is already named %q", r.List, v)
			ok = false
		}
		seen[key] = true
	}
	return ok
}
