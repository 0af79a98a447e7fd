package inventory

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// Resolve finds the item a name in an add means, as Marinara's guide (What reads items)
// has it for a system derived from a ruleset: a catalog item whose name is the name, in
// any case (the first the catalogs list when two share it), or whose id it is; else an
// item the GM invented in this game (Invented); else a plain item with no rules, unless
// the ruleset says no — `native: false` refuses the GM (gm) a name that is none of the
// ruleset's (not-ruleset-item), `freeform: "refuse"` refuses a player. More of something
// a character already holds is the caller's to add whatever native says: it finds the
// entry first (FindEntry).
//
// A system of Pack Rat's own has no such words: a name finds a catalog item as FindItem
// does (the one name starting with it, when none is it), and any other name is a plain
// item, as a player's own typed-in item is.
//
// A plain item has no id and no template: it is its name, weighs nothing and is worth
// nothing.
func (c *Campaign) Resolve(name string, gm bool) (*Item, error) {
	if err := checkItemName(name); err != nil {
		return nil, err
	}
	s := c.System
	if it := c.named(name); it != nil {
		return it, nil
	}
	if s.words == nil {
		it, err := s.FindItem(name)
		switch refusal.Of(err) {
		case "":
			return it, nil
		case refusal.UnknownItem:
			return c.plain(name), nil
		}
		return nil, err
	}
	switch {
	case gm && s.words.Native != nil && !*s.words.Native:
		return nil, refusal.New(refusal.NotRulesetItem, "%q is none of the ruleset's items, and the GM may add only those or invent one in its words", name)
	case !gm && s.words.Freeform != nil && *s.words.Freeform == "refuse":
		return nil, refusal.New(refusal.NotRulesetItem, "%q is none of the ruleset's items, and players may add only those", name)
	}
	return c.plain(name), nil
}

// named is the catalog item whose id the name is or whose name it is (folded), else the
// invented item of that name, else nil.
func (c *Campaign) named(name string) *Item {
	s := c.System
	if it := s.CatalogItem(name); it != nil {
		return it
	}
	want := ruleset.FoldName(name)
	for _, it := range s.Catalog {
		if ruleset.FoldName(it.Name) == want {
			return it
		}
	}
	for _, it := range c.Invented {
		if ruleset.FoldName(it.Name) == want {
			return it
		}
	}
	return nil
}

// plain is an item with no rules called name.
func (c *Campaign) plain(name string) *Item {
	return &Item{Name: trimName(name), sys: c.System}
}

// checkItemName refuses a name nothing can be called: empty, too long, or with control
// characters (a tag's values are sanitised already; a command's are not).
func checkItemName(name string) error {
	n := trimName(name)
	switch {
	case n == "":
		return refusal.New(refusal.Malformed, "an item needs a name")
	case utf8.RuneCountInString(n) > maxLabelLen:
		return refusal.New(refusal.Malformed, "an item's name is at most %d characters", maxLabelLen)
	case hasControl(n):
		return refusal.New(refusal.Malformed, "an item's name is one line of text")
	}
	return nil
}

func trimName(s string) string { return strings.TrimSpace(s) }

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
