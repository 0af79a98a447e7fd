package bot

import (
	"encoding/json"
	"strings"
	"unicode"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// What an add adds (Marinara's guide, What reads items): more of something the
// character holds by that very name; else the item the name is, found by the campaign
// (Campaign.Resolve: the ruleset's items by label, what the GM invented in this game,
// else a plain item, unless native: false or freeform: "refuse" says no); else, when a
// GM's tag describes it (like=, category=, rarity=…), the item the GM invents in the
// ruleset's words (Campaign.Invent). An invented or plain item is no catalog's, so its
// JSON goes with the holdings (Held.Own), and what the GM invented is found again by
// name from there: a later tag, on any character, adds the same item.

// inventionAttrs are the tag attributes that describe an item the GM invents.
var inventionAttrs = [...]string{"like", "category", "rarity", "tags", "stats", "slots", "binds", "worn", "carried", "summary"}

// addedItem is the item the tag's add means, with what inventing it changed from what
// the GM wrote (notes for the GM).
func (it *invTag) addedItem(h *inventory.Held) (*inventory.Item, []string, error) {
	name := strings.TrimSpace(it.attr("item"))
	for _, e := range h.Inv {
		if ruleset.FoldName(e.Item.Name) == ruleset.FoldName(name) {
			return e.Item, nil, nil // its JSON, if it has its own, is in h already
		}
	}
	gm := it.t.actor != actorPlayer
	if in, ok := it.invention(name); ok && gm {
		return it.invent(h, in)
	}
	if it.t.camp.System != "" {
		// A Pack Rat system's own names find its catalog as FindItem does.
		item, err := it.t.inv.item(name)
		if refusal.Of(err) != refusal.UnknownItem {
			return item, nil, err
		}
	} else if item := it.exactItem(name); item != nil {
		return item, nil, nil
	}
	c, own := it.withInvented()
	item, err := c.Resolve(name, gm)
	if err != nil {
		return nil, nil, err
	}
	data, ok := own[item]
	if !ok && item.ID == "" {
		// A plain item: its name and nothing else, read as Restore will read it back.
		if data, err = plainData(c.System, item.Name); err != nil {
			return nil, nil, err
		}
		parsed, ps := c.ParseItem(data)
		if len(ps) > 0 {
			return nil, nil, refusal.New(refusal.Malformed, "%q cannot be an item: %v", name, ps.Head(1))
		}
		item, ok = parsed, true
	}
	if ok {
		if err := h.Own(item, data); err != nil {
			return nil, nil, err
		}
	}
	return item, nil, nil
}

// exactItem is the catalog item whose id or (folded) name the name is, by the index
// built with the system.
func (it *invTag) exactItem(name string) *inventory.Item {
	if item := it.c.System.CatalogItem(name); item != nil {
		return item
	}
	return it.t.inv.named[ruleset.FoldName(name)]
}

// invention is what the tag says of an item to invent, and whether it says anything.
func (it *invTag) invention(name string) (inventory.Invention, bool) {
	in := inventory.Invention{Name: name}
	fields := [...]*string{&in.Like, &in.Category, &in.Rarity, &in.Tags, &in.Stats, &in.Slots, &in.Binds, &in.Worn, &in.Carried, &in.Summary}
	said := false
	for i, k := range inventionAttrs {
		if v, ok := it.tag.Get(k); ok {
			*fields[i], said = v, true
		}
	}
	return in, said
}

// invent makes the item the GM describes (or finds the one of that name made before)
// and records its JSON with the holdings.
func (it *invTag) invent(h *inventory.Held, in inventory.Invention) (*inventory.Item, []string, error) {
	c, own := it.withInvented()
	iv, err := c.Invent(in)
	if err != nil {
		return nil, nil, err
	}
	data := iv.Data
	if iv.Known {
		if data = own[iv.Item]; data == nil {
			return iv.Item, nil, nil // one of the ruleset's own: the catalog has it
		}
	}
	if err := h.Own(iv.Item, data); err != nil {
		return nil, nil, err
	}
	return iv.Item, iv.Notes, nil
}

// withInvented is the campaign with what the GM invented in this game (the invented
// items the table's holdings carry, read back as Restore reads them), and each one's
// JSON. The campaign the process shares is not changed: the copy is this tag's.
func (it *invTag) withInvented() (*inventory.Campaign, map[*inventory.Item][]byte) {
	c := *it.c
	c.Invented = nil
	own := map[*inventory.Item][]byte{}
	seen := map[string]bool{}
	for _, r := range it.t.records {
		if r.Inventory == nil {
			continue
		}
		for _, se := range r.Inventory.Items {
			id, _ := se.Item["id"].(string)
			if se.Item == nil || !strings.HasPrefix(id, inventedPrefix) || seen[id] {
				continue
			}
			data, err := json.Marshal(se.Item)
			if err != nil {
				continue
			}
			if item, ps := c.ParseItem(data); len(ps) == 0 {
				seen[id] = true
				c.Invented = append(c.Invented, item)
				own[item] = data
			}
		}
	}
	return &c, own
}

// plainData is the file form a plain item is kept in: an id of its name under plain/
// (no catalog id has it, and the same name is the same item), and the template that
// gives it least: the first that has no features, else the system's first, so it weighs
// and does nothing.
func plainData(s *inventory.System, name string) ([]byte, error) {
	if len(s.Templates) == 0 {
		return nil, refusal.New(refusal.NotAllowed, "this game's system has no kind of item %q could be", name)
	}
	typ := s.Templates[0].ID
	for _, t := range s.Templates {
		if len(t.Features) == 0 && !t.Abstract {
			typ = t.ID
			break
		}
	}
	return json.Marshal(map[string]any{"id": "plain/" + slug(name), "type": typ, "name": name})
}

// slug is a name in lower-case letters and digits joined by dashes ("item" for none).
func slug(name string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
		if b.Len() >= 60 {
			break
		}
	}
	if b.Len() == 0 {
		return "item"
	}
	return b.String()
}

// inventedPrefix starts the id of every item the GM invents (inventory.Invent).
const inventedPrefix = "gm/"
