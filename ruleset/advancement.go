package ruleset

import "sheetkeeper/strictjson"

// advancementMinor is the Capability API minor recorded for sheet.advancement. The seed
// that adds it dates no version for it; it is the seed's own revision, whose newest
// dated change is the 1.340 limits, so a package using it declares 1.340.
const advancementMinor = 340

// checkAdvancement checks the seed's sheet.advancement: up to 24 distinct number, text or
// longtext fields, permission booleans, optional prompt-safe guidance, and at least one
// thing permitted.
func (c *checker) checkAdvancement() {
	a := c.rs.Sheet.Advancement
	if a == nil {
		return
	}
	const path = "sheet.advancement"
	c.Uses("sheet advancement", advancementMinor, path)
	c.Count(path+".fields", len(a.Fields), 0, 24)
	c.UniqueStrings(path+".fields", "field", a.Fields)
	for i, id := range a.Fields {
		at := strictjson.Join(path+".fields", i)
		f := c.names.field(id)
		if !c.Known(at, "field", id, f != nil) {
			continue
		}
		if f.Type != "number" && !f.IsText() {
			c.Add(at, "field %q is a %s field; advancement changes number, text and longtext fields", id, f.Type)
		}
	}
	if a.Text != nil {
		c.PromptText(path+".text", *a.Text, 400)
	}
	if len(a.Fields) == 0 && !a.Abilities && !a.Skills && !a.Saves {
		c.Add(path, "advancement permits nothing: name fields or allow abilities, skills or saves")
	}
}
