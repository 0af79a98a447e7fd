package inventory

import (
	"math"

	"sheetkeeper/ruleset/rules"
)

// The checks of what items hold: a container's allows rules, a set's pieces, a pack's
// contents.

// allows checks a container's allowed contents: rules as a slot's (item, template,
// category, feature, property, name), any one of which an item must match to go in.
func (c *checker) allows(path string, v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) > MaxSlotRules {
		c.Add(path, "expected a list of at most %d rules", MaxSlotRules)
		return false
	}
	good := true
	for i, x := range list {
		p := rules.PathOf(path, i)
		m, ok := x.(map[string]any)
		if !ok {
			c.Add(p, "expected an object")
			good = false
			continue
		}
		c.onlyKeys(p, m, "label", "item", "group", "template", "category", "feature", "property", "name", "size")
		r := allowRule(m)
		if r.Template != "" {
			if _, ok := c.templates[r.Template]; !ok && !c.groups[r.Template] {
				c.Add(rules.PathOf(p, "template"), "unknown template %q", rules.Clip(r.Template))
				good = false
			}
		}
		if r.Feature != "" && !c.knownFeature(rules.PathOf(p, "feature"), r.Feature) {
			good = false
		}
		if _, ok := oneOrList(r.Category); !ok {
			c.Add(rules.PathOf(p, "category"), "expected a category or a list of categories")
			good = false
		}
		if _, ok := oneOrList(r.Item); !ok {
			c.Add(rules.PathOf(p, "item"), "expected an item's id or a list of them")
			good = false
		}
		if r.Group != "" && !c.groups[r.Group] && c.templates[c.s.TemplateAlias(r.Group)] == nil {
			c.Add(rules.PathOf(p, "group"), "unknown group %q", rules.Clip(r.Group))
			good = false
		}
	}
	return good
}

// compartments checks a container's compartments, Pack Rat's shape (store.js,
// compartmentsOf): each a space of its own besides the main one — a side pocket, a lid,
// its outside — with an id (unique) and a name; capacity "shared" (the default: what is
// in it counts in the container's capacity, and a capacityLb bounds its part) or
// "separate" (its own capacityLb only); and a container's own options: allows, holdLimit,
// holdUnit, weightless, coinsApart, contentsView. "portion", from before, reads as shared.
func (c *checker) compartments(path string, v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) > MaxSlots {
		c.Add(path, "expected a list of at most %d compartments", MaxSlots)
		return false
	}
	before, seen := len(c.Problems), map[string]bool{}
	for i, x := range list {
		p := rules.PathOf(path, i)
		m, ok := x.(map[string]any)
		if !ok {
			c.Add(p, "expected an object")
			continue
		}
		c.onlyKeys(p, m, "id", "name", "capacity", "capacityLb", "allows", "holdLimit", "holdUnit", "weightless", "coinsApart", "contentsView")
		id, _ := m["id"].(string)
		if c.id(rules.PathOf(p, "id"), id) && seen[id] {
			c.Add(rules.PathOf(p, "id"), "duplicate compartment %q", rules.Clip(id))
		}
		seen[id] = true
		name, _ := m["name"].(string)
		c.label(rules.PathOf(p, "name"), name)
		c.compartmentOptions(p, m)
	}
	return len(c.Problems) == before
}

// compartmentOptions checks a compartment's options, each of the kind a container's is.
func (c *checker) compartmentOptions(p string, m map[string]any) {
	if v, set := m["capacity"]; set && v != "shared" && v != "separate" && v != "portion" {
		c.Add(rules.PathOf(p, "capacity"), `expected "shared" or "separate"`)
	}
	for _, k := range []string{"capacityLb", "holdLimit"} {
		if n, set := m[k]; set {
			if f, isNum := n.(float64); !isNum || f < 0 || f > maxWeight {
				c.Add(rules.PathOf(p, k), "expected a number from 0 up to %s", rules.Num(maxWeight))
			}
		}
	}
	for _, k := range []string{"weightless", "coinsApart"} {
		if v, set := m[k]; set {
			if _, isBool := v.(bool); !isBool {
				c.Add(rules.PathOf(p, k), "expected true or false")
			}
		}
	}
	if v, set := m["holdUnit"]; set {
		if s, isStr := v.(string); !isStr || len(s) > maxTermLen {
			c.Add(rules.PathOf(p, "holdUnit"), "expected a word of at most %d bytes", maxTermLen)
		}
	}
	if v, set := m["contentsView"]; set && v != "inherit" && v != "list" && v != "details" && v != "sealed" {
		c.Add(rules.PathOf(p, "contentsView"), `expected "inherit", "list", "details" or "sealed"`)
	}
	if a, set := m["allows"]; set {
		c.allows(rules.PathOf(p, "allows"), a)
	}
}

// allowRule reads one of a container's allows rules.
func allowRule(m map[string]any) SlotRule {
	str := func(k string) string { s, _ := m[k].(string); return s }
	size, _ := m["size"].(float64)
	return SlotRule{Item: m["item"], Group: str("group"), Template: str("template"), Category: m["category"],
		Feature: str("feature"), Property: str("property"), Name: str("name"), Size: int(max(size, 0))}
}

// pieces checks a set's pieces: a list of names, or of objects with a name.
func (c *checker) pieces(path string, v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) > MaxOptions*10 {
		c.Add(path, "expected a list of at most %d pieces", MaxOptions*10)
		return false
	}
	for i, x := range list {
		if pieceName(x) == "" {
			c.Add(rules.PathOf(path, i), "a piece is a name, or an object with a name")
			return false
		}
	}
	return true
}

func pieceName(x any) string {
	switch x := x.(type) {
	case string:
		return x
	case map[string]any:
		n, _ := x["name"].(string)
		return n
	}
	return ""
}

// packContents checks a pack's contents: lines naming a catalog item by id or by name
// (D&D 5e's packs list names: { "name": "Torch", "qty": 10 }), with how many. Ids are
// resolved once the whole catalog is read (checkPacks); a name that is no catalog item's
// is a plain item of that name when unpacked.
func (c *checker) packContents(path string, v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) > MaxOptions {
		c.Add(path, "expected a list of at most %d lines", MaxOptions)
		return false
	}
	for i, x := range list {
		p := rules.PathOf(path, i)
		m, ok := x.(map[string]any)
		if !ok {
			c.Add(p, "expected an object")
			return false
		}
		c.onlyKeys(p, m, "id", "name", "qty")
		id, _ := m["id"].(string)
		name, _ := m["name"].(string)
		if (id == "") == (name == "") {
			c.Add(p, "a line names a catalog item by id or by name")
		}
		c.CatalogText(rules.PathOf(p, "name"), name, maxLabelLen)
		if q, ok := m["qty"]; ok {
			if n, isNum := q.(float64); !isNum || n < 1 || n > 10000 || n != math.Trunc(n) {
				c.Add(rules.PathOf(p, "qty"), "expected a whole number, 1 up to 10000")
			}
		}
	}
	return true
}

// checkPacks: every pack line's id names a catalog item, and no pack holds itself.
func (c *checker) checkPacks() {
	ids := map[string]bool{}
	for _, it := range c.s.Catalog {
		ids[it.ID] = true
	}
	for i, it := range c.s.Catalog {
		list, _ := it.Fields["contents"].([]any)
		for j, x := range list {
			m, _ := x.(map[string]any)
			id, _ := m["id"].(string)
			p := rules.PathOf("catalog", i, "contents", j, "id")
			switch {
			case id == "":
			case !ids[id]:
				c.Add(p, "unknown catalog item %q", rules.Clip(id))
			case id == it.ID:
				c.Add(p, "a pack cannot hold itself")
			}
		}
	}
}
