package inventory

import (
	"strings"

	"sheetkeeper/refusal"
)

// FindItem finds a catalog item by name (or id), ignoring case: an exact name first,
// else the one name that starts with it. None is unknown-item; several, ambiguous.
func (s *System) FindItem(name string) (*Item, error) {
	if it := s.CatalogItem(name); it != nil {
		return it, nil
	}
	var starts []*Item
	for _, it := range s.Catalog {
		if strings.EqualFold(it.Name, name) {
			return it, nil
		}
		if len(name) > 0 && len(it.Name) >= len(name) && strings.EqualFold(it.Name[:len(name)], name) {
			starts = append(starts, it)
		}
	}
	return pick1(starts, name, refusal.UnknownItem, func(it *Item) string { return it.Name })
}

// FindEntry finds an entry of an inventory by its item's name as it is now, the same
// way.
func (c *Campaign) FindEntry(inv []*Entry, name string) (*Entry, error) {
	var starts []*Entry
	for _, e := range inv {
		n := c.Now(e).Name
		if strings.EqualFold(n, name) || e.Item.ID == name {
			return e, nil
		}
		if len(name) > 0 && len(n) >= len(name) && strings.EqualFold(n[:len(name)], name) {
			starts = append(starts, e)
		}
	}
	return pick1(starts, name, refusal.NotHeld, func(e *Entry) string { return c.Now(e).Name })
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
