package inventory

import (
	"fmt"

	"sheetkeeper/strictjson"
)

// The only difference between a system's templates and items and a player's own is that
// players can change and delete theirs: a player's are held to the same rules, and a
// player's template may go under any of the system's.

// ParseItem reads a player's own item (or an inventory's copy of one) against the
// system, as a catalog item is checked; a category the system has renamed since takes
// its new name first.
func (s *System) ParseItem(data []byte) (*Item, strictjson.Problems) {
	return s.parseItem(data, nil)
}

// ParseItem reads a player's own item as System.ParseItem does, its template one of the
// system's or of the players' own the campaign has.
func (c *Campaign) ParseItem(data []byte) (*Item, strictjson.Problems) {
	return c.System.parseItem(data, c.templates)
}

func (s *System) parseItem(data []byte, own map[string]*Template) (*Item, strictjson.Problems) {
	if len(data) > MaxFileBytes {
		return nil, strictjson.Problems{{Kind: strictjson.Limit, Msg: fmt.Sprintf(
			"an item is at most %d KB; this one is %d KB", MaxFileBytes/1024, (len(data)+1023)/1024)}}
	}
	var raw map[string]any
	ps := strictjson.Decode(data, &raw, "", strictjson.Options{MaxDepth: MaxDepth, MaxItems: MaxItemFields * 5, MaxValues: maxValues / 10})
	if len(ps) > 0 {
		return nil, ps
	}
	if typ, ok := raw["type"].(string); ok {
		if cat, ok := raw["category"].(string); ok {
			raw["category"] = s.RenameCategory(typ, cat)
		}
	}
	c := s.checker()
	for id, t := range own {
		c.templates[id] = t
	}
	it := c.readItem("", raw)
	if len(c.Problems) > 0 {
		c.Problems.Sort()
		return nil, c.Problems
	}
	if own == nil {
		it.sys, it.tmpl = s, s.lookupTemplate(it)
	}
	return it, nil
}

// CheckTemplate checks a player's own template against the system.
func (s *System) CheckTemplate(t Template) strictjson.Problems {
	c := s.checker()
	c.checkTemplates("template", []Template{t}, false)
	c.Problems.Sort()
	return c.Problems
}

// checker returns a checker of things against the checked system s.
func (s *System) checker() *checker {
	c := &checker{s: s}
	c.indexes()
	return c
}
