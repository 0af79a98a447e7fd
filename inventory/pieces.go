package inventory

import (
	"slices"
	"strings"

	"sheetkeeper/refusal"
)

// Pieces returns a set's pieces (a deck's cards, a chess set's pieces) by name, in
// order; nil for an item that is no set.
func (c *Campaign) Pieces(e *Entry) []string {
	cur := c.Now(e)
	if !cur.Has("deck") {
		return nil
	}
	v, _ := cur.Field("deckCards")
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, pieceName(x))
	}
	return out
}

// Draw takes a piece still in the set at random (roll gives 1..n, an injected source).
func (c *Campaign) Draw(e *Entry, roll func(n int) int) (string, error) {
	pieces := c.Pieces(e)
	var in []int
	for i := range pieces {
		if !slices.Contains(e.Out, i) {
			in = append(in, i)
		}
	}
	if len(in) == 0 {
		return "", refusal.New(refusal.Insufficient, "%s has no pieces left in it", c.Now(e).Name)
	}
	i := in[min(max(roll(len(in)), 1), len(in))-1]
	e.Out = append(e.Out, i)
	return pieces[i], nil
}

// TakeOut takes a named piece out of the set.
func (c *Campaign) TakeOut(e *Entry, name string) error {
	for i, p := range c.Pieces(e) {
		if p == name && !slices.Contains(e.Out, i) {
			e.Out = append(e.Out, i)
			return nil
		}
	}
	return refusal.New(refusal.UnknownEntry, "%s has no %q in it", c.Now(e).Name, name)
}

// PutBack returns a named piece to the set.
func (c *Campaign) PutBack(e *Entry, name string) error {
	pieces := c.Pieces(e)
	for k, i := range e.Out {
		if i < len(pieces) && pieces[i] == name {
			e.Out = slices.Delete(e.Out, k, k+1)
			return nil
		}
	}
	return refusal.New(refusal.UnknownEntry, "no %q of %s is out", name, c.Now(e).Name)
}

// PackLine is one thing a pack unpacks into: a catalog item (nil when the line names
// none: then a plain item called Name), and how many.
type PackLine struct {
	Item *Item
	Name string
	Qty  int64
}

// Unpack lists what a pack unpacks into, each line found by id, else by name.
func (c *Campaign) Unpack(e *Entry) ([]PackLine, error) {
	cur := c.Now(e)
	if !cur.Has("pack") {
		return nil, refusal.New(refusal.NotAllowed, "%s is no pack", cur.Name)
	}
	v, _ := cur.Field("contents")
	list, _ := v.([]any)
	var out []PackLine
	for _, x := range list {
		m, _ := x.(map[string]any)
		id, _ := m["id"].(string)
		name, _ := m["name"].(string)
		line := PackLine{Name: name, Qty: 1}
		if n, ok := m["qty"].(float64); ok {
			line.Qty = int64(n)
		}
		line.Qty *= e.Qty
		if id != "" {
			if line.Item = c.System.CatalogItem(id); line.Item == nil {
				return nil, refusal.New(refusal.UnknownItem, "%s holds %q, which the catalog has not", cur.Name, id)
			}
		} else {
			for _, it := range c.System.Catalog {
				if strings.EqualFold(it.Name, name) {
					line.Item = it
					break
				}
			}
		}
		if line.Item != nil {
			line.Name = line.Item.Name
		}
		out = append(out, line)
	}
	return out, nil
}
