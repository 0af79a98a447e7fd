package ruleset

import (
	"fmt"

	"sheetkeeper/strictjson"
)

// GM is the ruleset's text for the Game Master: how to call for checks, how to use the
// sheet blocks and command, what world to build (API 1.25), and what each character's
// compact sheet block shows.
type GM struct {
	CheckGuidance string        `json:"checkGuidance"`
	SheetGuidance string        `json:"sheetGuidance,omitempty"`
	WorldGuidance *string       `json:"worldGuidance,omitempty"`
	SheetSummary  *SheetSummary `json:"sheetSummary,omitempty"`
}

// SheetSummary names what the compact sheet block shows beyond what the engine always
// renders.
type SheetSummary struct {
	Fields  []string      `json:"fields,omitempty"`
	Derived []string      `json:"derived,omitempty"`
	Lists   []SummaryList `json:"lists,omitempty"`
}

// SummaryList prints a list's rows by name, with up to three more columns, grouped by
// one column and filtered by a boolean one.
type SummaryList struct {
	List       string   `json:"list"`
	NameColumn string   `json:"nameColumn"`
	Columns    []string `json:"columns,omitempty"`
	GroupBy    string   `json:"groupBy,omitempty"`
	OnlyWhen   string   `json:"onlyWhen,omitempty"`
}

// maxGuidance bounds each guidance text of the file.
const maxGuidance = 1500

func (c *checker) checkGM() {
	g := &c.rs.GM
	n := c.names
	c.PromptText("gm.checkGuidance", g.CheckGuidance, maxGuidance)
	if g.SheetGuidance != "" {
		c.PromptText("gm.sheetGuidance", g.SheetGuidance, maxGuidance)
	}
	if g.WorldGuidance != nil {
		c.Uses("gm.worldGuidance", 25, "gm.worldGuidance")
		c.PromptText("gm.worldGuidance", *g.WorldGuidance, maxGuidance)
	}
	s := g.SheetSummary
	if s == nil {
		return
	}
	c.Count("gm.sheetSummary.fields", len(s.Fields), 0, 24)
	for i, id := range s.Fields {
		c.Known(strictjson.Join("gm.sheetSummary.fields", i), "field", id, n.field(id) != nil)
	}
	c.Count("gm.sheetSummary.derived", len(s.Derived), 0, 24)
	for i, id := range s.Derived {
		c.Known(strictjson.Join("gm.sheetSummary.derived", i), "derived value", id, n.derived(id) != nil)
	}
	c.Count("gm.sheetSummary.lists", len(s.Lists), 0, 8)
	for i := range s.Lists {
		e := &s.Lists[i]
		path := fmt.Sprintf("gm.sheetSummary.lists[%d]", i)
		l := n.list(e.List)
		if !c.Known(path+".list", "list", e.List, l != nil) {
			continue
		}
		c.columnMust(path+".nameColumn", l, e.NameColumn, "text", "enum")
		if e.Columns != nil {
			c.Count(path+".columns", len(e.Columns), 1, 3)
			for j, id := range e.Columns {
				c.columnMust(strictjson.Join(path+".columns", j), l, id, "number", "text", "longtext", "boolean", "enum", "dice")
			}
		}
		if e.GroupBy != "" {
			c.columnMust(path+".groupBy", l, e.GroupBy, "number", "text", "longtext", "boolean", "enum", "dice")
		}
		if e.OnlyWhen != "" {
			c.columnMust(path+".onlyWhen", l, e.OnlyWhen, "boolean")
		}
	}
}
