package bot

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
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

func (it *invTag) add(rec *storage.CardRecord, h *inventory.Held) error {
	a, err := it.addedItem(h)
	if err != nil {
		return err
	}
	if it.tag.Who == "" {
		return it.addShared(rec, h, a)
	}
	if err := it.put(h, a, it.count()); err != nil {
		return err
	}
	it.nows[rec] = it.heldWords(h, a.item)
	if len(a.notes) > 0 {
		it.nows[rec] += " (" + strings.Join(a.notes, "; ") + ")"
	}
	return nil
}

// put puts n of an added item into h, its JSON recorded there when it has its own.
func (it *invTag) put(h *inventory.Held, a added, n int64) error {
	if a.data != nil {
		if err := h.Own(a.item, a.data); err != nil {
			return err
		}
	}
	return putRows(it.c, h, it.c.NewEntry("", a.item, n))
}

// putRows puts e, a new entry of any count not yet named, into h in the rows an add
// makes, for an add and a purchase alike: a thing that never shares a row is a row
// each; what stacks goes onto the stacks there are (Campaign.Add) and the rest into
// rows of its own, each at most the item's stack. Campaign.Add leaves that split to
// its caller, and one split for both is why three bags bought are three bags, as three
// added are, not one row of three. Rows past MaxHeld are refused too-many.
func putRows(c *inventory.Campaign, h *inventory.Held, e *inventory.Entry) error {
	n := e.Qty
	if !c.Stacks(e) {
		// A thing that never shares a row (a sword, a bag) is a row of its own each.
		if err := inventory.RowsFit(int64(len(h.Inv)) + n); err != nil {
			return err // before making them: Keep would refuse them too
		}
		for range n {
			h.Inv = append(h.Inv, c.NewEntry(h.NewUID(), e.Item, 1))
		}
	} else if inv, at := c.Add(h.Inv, e); at == e {
		// What the stacks there were could not take starts rows of its own, each at most
		// the item's stack.
		limit, rest := c.StackLimit(e), e.Qty
		if limit > 0 {
			if err := inventory.RowsFit(int64(len(inv)) + (rest-1)/limit); err != nil {
				return err
			}
		}
		e.UID, h.Inv = h.NewUID(), inv
		if limit > 0 && rest > limit {
			e.Qty, rest = limit, rest-limit
			for rest > 0 {
				h.Inv = append(h.Inv, c.NewEntry(h.NewUID(), e.Item, min(rest, limit)))
				rest -= limit
			}
		}
	}
	return nil
}

// added is the item an add adds: data is its JSON when it is no catalog's (nil for a
// catalog item, or one the holdings it was found in record already: held), notes what
// inventing it changed from what the GM wrote.
type added struct {
	item  *inventory.Item
	data  []byte
	held  bool
	notes []string
}

// addedItem is the item the tag's add means, h being the holdings it is added to first.
func (it *invTag) addedItem(h *inventory.Held) (added, error) {
	name := strings.TrimSpace(it.attr("item"))
	want := ruleset.FoldName(name)
	for _, e := range h.Inv {
		if e.Item.FoldedName() == want {
			return added{item: e.Item, held: true}, nil // its JSON, if it has its own, is in h already
		}
	}
	gm := it.t.actor != actorPlayer
	if in, ok := it.invention(name); ok && gm {
		return it.invent(in)
	}
	if !it.t.inv.ruleset {
		// A Pack Rat system's own names find its catalog as FindItem does.
		item, err := it.t.inv.item(name)
		if refusal.Of(err) != refusal.UnknownItem {
			return added{item: item}, err
		}
	} else if item := it.exactItem(name); item != nil {
		return added{item: item}, nil
	}
	c, own := it.withInvented()
	item, err := c.Resolve(name, gm)
	if err != nil {
		return added{}, err
	}
	if data, ok := own[item]; ok || item.ID != "" {
		return added{item: item, data: data}, nil
	}
	// A plain item: its name and nothing else, read as Restore will read it back.
	data, err := plainData(c.System, item.Name)
	if err != nil {
		return added{}, err
	}
	parsed, ps := c.ParseItem(data)
	if len(ps) > 0 {
		return added{}, refusal.New(refusal.Malformed, "%q cannot be an item: %v", name, ps.Head(1))
	}
	return added{item: parsed, data: data}, nil
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

// invent makes the item the GM describes, or finds the one of that name made before (a
// ruleset item of that name is simply that).
func (it *invTag) invent(in inventory.Invention) (added, error) {
	c, own := it.withInvented()
	iv, err := c.Invent(in)
	if err != nil {
		return added{}, err
	}
	if iv.Known {
		return added{item: iv.Item, data: own[iv.Item]}, nil
	}
	return added{item: iv.Item, data: iv.Data, notes: iv.Notes}, nil
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
			if se.Item == nil || !strings.HasPrefix(id, inventory.InventedPrefix) || seen[id] {
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

// addShared is an add that said nobody (who= left out): the party share-out (SPEC 7,
// inventory.Share), rec — the reply's own character, else the party's first — asked
// first and then the party in order, each by what they carry against their sheet's
// carry lines. Without carry lines, or for what weighs nothing or is recorded only in
// rec's holdings, all of it goes to rec. What nobody can carry within their limit is
// refused too-heavy: the tag is all or nothing.
func (it *invTag) addShared(rec *storage.CardRecord, h *inventory.Held, a added) error {
	n := it.count()
	rs := it.t.rules.Ruleset
	w := it.c.EntryWeight(it.c.NewEntry("", a.item, 1))
	if rs.Items == nil || rs.Items.Carry == nil || w <= 0 || a.held && it.c.System.CatalogItem(a.item.ID) != a.item {
		if err := it.put(h, a, n); err != nil {
			return err
		}
		it.nows[rec] = it.heldWords(h, a.item)
		return nil
	}
	cands := []*storage.CardRecord{rec}
	for _, r := range it.t.records {
		if r != rec {
			cands = append(cands, r)
		}
	}
	bearers := make([]inventory.Bearer, len(cands))
	for i, r := range cands {
		b, err := it.bearer(r)
		if err != nil {
			return err
		}
		bearers[i] = b
	}
	shares, left := inventory.Share(w, n, bearers)
	if left > 0 {
		return refusal.New(refusal.TooHeavy, "nobody in the party can carry %d more %s (%s each) within what they can carry", left, a.item.Name, it.c.System.WeightUnit(w))
	}
	var parts []string
	for i, r := range cands {
		if shares[i] == 0 {
			continue
		}
		rh, err := it.open(r)
		if err != nil {
			return err
		}
		if err := it.put(rh, a, shares[i]); err != nil {
			return err
		}
		it.nows[r] = it.heldWords(rh, a.item)
		parts = append(parts, strconv.FormatInt(shares[i], 10)+" to "+r.Card.Name)
	}
	if len(parts) > 1 || shares[0] == 0 {
		it.nows[rec] = a.item.Name + ": " + strings.Join(parts, ", ")
	}
	return nil
}

// bearer is what r carries against their sheet's carry lines, read from the holdings in
// play when this message opened them, else from the stored ones.
func (it *invTag) bearer(r *storage.CardRecord) (inventory.Bearer, error) {
	h, ok := it.held[r]
	if !ok {
		var err error
		if ha, kept := it.t.held[r]; kept && ha.st == r.Inventory {
			h = ha.h
		} else if h, err = restoreHeld(it.c, r); err != nil {
			return inventory.Bearer{}, err
		}
	}
	carry := it.t.rules.Ruleset.Items.Carry
	v := sheet.Evaluate(it.t.rules.Ruleset, r.Card, nil)
	b := inventory.Bearer{Load: it.c.Carried(h.Inv, h.Purse).Carried, Above: v.Ref(&carry.EncumberedAbove), Limit: math.Inf(1)}
	if carry.Limit != nil {
		b.Limit = v.Ref(carry.Limit)
	}
	return b, nil
}
