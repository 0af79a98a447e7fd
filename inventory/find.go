package inventory

import (
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// FindItem finds a catalog item by name (or id), names folded as every name a user
// types is (ruleset.FoldName): an exact name first, else the one name that starts with
// it. None is unknown-item; several, ambiguous.
func (s *System) FindItem(name string) (*Item, error) {
	if it := s.CatalogItem(name); it != nil {
		return it, nil
	}
	return findNamed(s.Catalog, name, refusal.UnknownItem, func(it *Item) (string, string, bool) { return it.Name, it.FoldedName(), false })
}

// FindEntry finds an entry of an inventory by its item's name as it is now (or its
// item's id), the same way. An entry with no state switched on is named as its item
// is, so its name is the item's without working out the item as it is now.
func (c *Campaign) FindEntry(inv []*Entry, name string) (*Entry, error) {
	return findNamed(inv, name, refusal.NotHeld, func(e *Entry) (string, string, bool) {
		byID := e.Item.ID == name
		if len(e.Own) == 0 && len(e.GM) == 0 {
			return e.Item.Name, e.Item.FoldedName(), byID
		}
		n := c.Now(e).Name
		return n, ruleset.FoldName(n), byID
	})
}

// FoldedName is the item's name folded (ruleset.FoldName): as Parse folded it for a
// catalog item whose name is still the one folded, else folded now. A lookup by name
// among hundreds of held entries reads it for every one.
func (it *Item) FoldedName() string {
	if it.foldedFrom == it.Name && it.foldedFrom != "" {
		return it.folded
	}
	return ruleset.FoldName(it.Name)
}

// findNamed is the one of list whose name (of: as shown, and folded) is name, or that
// is it by id (of's third answer); else the one whose name starts with it; none refused
// for none.
func findNamed[T any](list []T, name string, none refusal.Reason, of func(T) (string, string, bool)) (T, error) {
	want := ruleset.FoldName(name)
	var starts []T
	for _, x := range list {
		_, folded, byID := of(x)
		if byID || folded == want {
			return x, nil
		}
		if want != "" && strings.HasPrefix(folded, want) {
			starts = append(starts, x)
		}
	}
	return pick1(starts, name, none, func(x T) string { n, _, _ := of(x); return n })
}

// pick1 is the one thing found, none refused with the reason given, several ambiguous.
func pick1[T any](found []T, name string, none refusal.Reason, label func(T) string) (T, error) {
	var zero T
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return zero, refusal.New(none, "nothing is called %q", name)
	}
	names := make([]string, 0, 3)
	for _, f := range found[:min(3, len(found))] {
		names = append(names, label(f))
	}
	return zero, refusal.New(refusal.AmbiguousEntry, "%q could be %s", name, strings.Join(names, ", "))
}
