package bot

import (
	"strconv"

	"sheetkeeper/check"
	"sheetkeeper/inventory"
	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// An [inventory:] tag (SPEC 3.5) is applied like a sheet tag: to the card who= names
// (else the reply's default), all or nothing, its outcome written back with result, now
// and reason. The holdings it read are restored from the card record, changed in
// memory, and written back only when the whole tag succeeded; the reply records the
// change as one sheet.Change at PathHoldings whose before and after are the parts of the
// stored holdings that differ (inventory.DiffStored), so a regenerate, a delete and Undo
// put back exactly what was there, through the same revert as sheet tags (only where the
// holdings still hold what the tag left).

// PathHoldings is the change path of a card's holdings (storage.CardRecord.Inventory).
const PathHoldings = "inventory"

// invTag is one inventory tag being applied: the holdings it opened, by card record,
// in the order it opened them.
type invTag struct {
	t      *table
	c      *inventory.Campaign
	tag    parser.Tag
	opened []*storage.CardRecord
	held   map[*storage.CardRecord]*inventory.Held
	// nows is each card's now, by record.
	nows map[*storage.CardRecord]string
	// sheet are the changes a use made to each card's sheet (inventory_use.go); replay
	// and faces the dice it threw.
	sheet  map[*storage.CardRecord][]sheet.Change
	replay *check.Replay
	faces  []int
	// bought is the change a buy made to the channel's shop (buyFromShop), written
	// with the tag.
	bought *sheet.Change
	// What the tag changed of the holdings it opened, when it knows, so they are kept
	// comparing that alone (inventory.Campaign.KeepEntry): purses alone (money), or the
	// one entry a state's switch changed (switchState), and purses.
	purseOnly bool
	switched  *inventory.Entry
}

// inventoryTag applies one inventory tag, def being the card a tag without who= is for,
// with the faces of any dice its use threw.
func (t *table) inventoryTag(tag parser.Tag, def string) applied {
	it := &invTag{t: t, tag: tag, held: map[*storage.CardRecord]*inventory.Held{}, nows: map[*storage.CardRecord]string{},
		sheet: map[*storage.CardRecord][]sheet.Change{}}
	res := it.apply(def)
	return applied{tag: tag, res: res, faces: it.faces}
}

// apply applies the tag.
func (it *invTag) apply(def string) sheet.Result {
	t, tag := it.t, it.tag
	if tag.Reason != "" {
		return sheet.Result{Outcome: sheet.Refused(refusal.New(tag.Reason, "%s", tag.Detail))}
	}
	if t.inv == nil {
		return notEnabledInventory(t.invWhy)
	}
	who := tag.Who
	if who == "" {
		who = def
	}
	if who == "" && tag.Op == "add" && len(t.records) > 0 {
		who = t.records[0].Card.Name // shared out among the party, asked in order (addShared)
	}
	if who == "" {
		return sheet.Result{Outcome: sheet.Refused(refusal.New(refusal.WhoRequired, "say whose inventory: who=\"Name\""))}
	}
	rec, err := findCard(t.records, who)
	if err != nil {
		return sheet.Result{Outcome: sheet.Refused(err)}
	}
	it.c = t.inv.camp
	h, err := it.open(rec)
	if err == nil {
		err = it.do(rec, h)
	}
	if err != nil {
		for _, r := range it.opened {
			delete(t.held, r) // the refused action may have changed them in memory
		}
		if it.bought != nil {
			t.market = nil // so may a buy have changed the shop: read it afresh
		}
		out := sheet.Refused(err)
		return sheet.Result{Outcome: out, Cards: []sheet.CardResult{{Card: rec.Card.Name, Outcome: out}}}
	}
	return it.commit(rec)
}

// heldAs is holdings in play as restored from (or kept into) stored holdings st: valid
// while the card record still holds st, so the tags of one message restore a card's
// holdings once, not once a tag.
//
// owned: st's entries were made by a tag's commit during the apply of sheets (the
// table's Applier then, one per apply), and nothing but the card record and this has
// seen them, so the next tag of that apply may write the card's holdings over them
// (inventory.Campaign.KeepChange) rather than copy every entry again. Saving the card,
// a scratch copy of the table or a revert all happen outside an apply, so a later one
// never writes over holdings they hold.
type heldAs struct {
	st     *inventory.Stored
	h      *inventory.Held
	owned  bool
	sheets *sheet.Applier
}

// open restores rec's holdings for this tag (once per record).
func (it *invTag) open(rec *storage.CardRecord) (*inventory.Held, error) {
	if h, ok := it.held[rec]; ok {
		return h, nil
	}
	if ha, ok := it.t.held[rec]; ok && ha.st == rec.Inventory {
		it.held[rec] = ha.h
		it.opened = append(it.opened, rec)
		return ha.h, nil
	}
	h, err := restoreHeld(it.c, rec)
	if err != nil {
		return nil, err
	}
	it.held[rec] = h
	it.opened = append(it.opened, rec)
	return h, nil
}

// commit writes every opened record's holdings back and records each change; the
// tag's outcome is the first card's (rec's) now.
func (it *invTag) commit(rec *storage.CardRecord) sheet.Result {
	res := sheet.Result{Outcome: sheet.Applied(it.nows[rec])}
	kept := make([]keptAs, len(it.opened))
	// Only a tag of one card and no shop writes over what it kept before: one that
	// refuses on its second card, or fails saving the shop, must leave the first as it
	// was.
	alone := len(it.opened) == 1 && it.bought == nil
	// open gave holdings as the record holds them: a tag that changed only purses, or
	// one entry, says so and spares comparing every other entry.
	keep := it.c.KeepChange
	if it.purseOnly || it.switched != nil && len(it.opened) == 1 {
		keep = func(prev *inventory.Stored, h *inventory.Held, reuse bool) (*inventory.Stored, map[string]any, map[string]any, error) {
			return it.c.KeepEntry(prev, h, reuse, it.switched)
		}
	}
	for i, r := range it.opened {
		ha, ok := it.t.held[r]
		reuse := alone && ok && ha.owned && ha.st == r.Inventory && ha.sheets == it.t.sheets && ha.sheets != nil
		st, b, a, err := keep(r.Inventory, it.held[r], reuse)
		if err != nil {
			for _, r := range it.opened {
				delete(it.t.held, r)
			}
			if it.bought != nil {
				it.t.market = nil
			}
			return sheet.Result{Outcome: sheet.Refused(err)}
		}
		kept[i] = keptAs{st: st, before: b, after: a, owned: reuse || !sameEntries(st, r.Inventory)}
	}
	if it.bought != nil && !it.t.dry {
		if err := it.t.market.save(it.t.tx); err != nil {
			it.t.market, it.t.failed = nil, err // a store error fails the whole message
			return sheet.Result{Outcome: sheet.Refused(err)}
		}
	}
	for i, r := range it.opened {
		cr := sheet.CardResult{Card: r.Card.Name, Outcome: sheet.Applied(it.nows[r]), Changes: it.sheet[r]}
		k := kept[i]
		if k.before != nil {
			cr.Changes = append(cr.Changes, sheet.Change{Card: r.Card.Name, Path: PathHoldings, Before: k.before, After: k.after})
		}
		if it.bought != nil && r == it.opened[0] {
			cr.Changes = append(cr.Changes, *it.bought)
		}
		r.Inventory = k.st
		if it.t.held == nil {
			it.t.held = map[*storage.CardRecord]heldAs{}
		}
		it.t.held[r] = heldAs{st: k.st, h: it.held[r], owned: k.owned, sheets: it.t.sheets}
		res.Cards = append(res.Cards, cr)
	}
	return res
}

// keptAs is one card's holdings as a tag kept them, the change from what they were,
// and whether their entries are the table's own (heldAs.owned).
type keptAs struct {
	st            *inventory.Stored
	before, after map[string]any
	owned         bool
}

// sameEntries reports whether two stored holdings share their entries.
func sameEntries(x, y *inventory.Stored) bool {
	return x != nil && y != nil && len(x.Items) > 0 && len(y.Items) > 0 && &x.Items[0] == &y.Items[0]
}

// revertHoldings undoes holdings changes, newest first, on the cards that still hold
// what each change left (inventory.UndoStored), and returns what it put back: one
// change per card, from the first undone change's after to the last one's before.
func (t *table) revertHoldings(changes []sheet.Change) []sheet.Change {
	back, done, _ := t.undoneHoldings(changes)
	for r, st := range back {
		r.Inventory = st
		t.dirty[r] = true
	}
	return done
}

// holdingsRevert reports whether revertHoldings would put back every holdings change of
// changes. A regenerate asks it first and is refused as a whole when not (SPEC 6: a
// regenerated reply starts from before the reply it replaces and can never spend
// twice): a holdings change it cannot undo — an item the reply gave that its own
// acquired rule, or a player, changed since — stays, and the new text applied on top
// would give the item twice. A card gone is skipped, as revertHoldings skips it: the new
// text can change nothing on it either.
func (t *table) holdingsRevert(changes []sheet.Change) bool {
	_, _, all := t.undoneHoldings(changes)
	return all
}

// undoneHoldings works out, changing nothing, what revertHoldings puts back: each
// card's holdings once its changes that it still holds are undone newest first, the one
// change per card that says so, and whether every change could be undone.
func (t *table) undoneHoldings(changes []sheet.Change) (back map[*storage.CardRecord]*inventory.Stored, done []sheet.Change, all bool) {
	all = true
	at := map[*storage.CardRecord]int{}
	for i := len(changes) - 1; i >= 0; i-- {
		ch := changes[i]
		if ch.Path != PathHoldings {
			continue
		}
		r, err := findCard(t.records, ch.Card)
		if err != nil {
			continue
		}
		st, ok := back[r]
		if !ok {
			st = r.Inventory
		}
		undone, ok := inventory.UndoStored(st, ch.Before, ch.After)
		if !ok {
			all = false
			continue
		}
		if back == nil {
			back = map[*storage.CardRecord]*inventory.Stored{}
		}
		back[r] = undone
		if j, ok := at[r]; ok {
			done[j].After = ch.Before
			continue
		}
		at[r] = len(done)
		done = append(done, sheet.Change{Card: r.Card.Name, Path: PathHoldings, Before: ch.After, After: ch.Before})
	}
	return back, done, all
}

// inventoryPhrase is an inventory tag in words for its embed line: "add 3 Smoked eel",
// "give 2 Rope to Oskar", "Drowned bell: wet on", "pay 5 bit to Oskar".
func inventoryPhrase(t parser.Tag) string {
	get := func(k string) string { v, _ := t.Get(k); return v }
	s := t.Op
	switch t.Op {
	case "pay", "receive", "earn":
		if a, ok := t.Get("amount"); ok {
			s += " " + a
		} else {
			s += " " + get("count") + " " + get("item")
		}
	case "state":
		s = get("item") + ": " + get("key") + " " + get("state")
	case "add", "remove", "give", "use":
		if n := get("count"); n != "" && n != "1" {
			s += " " + n
		}
		s += " " + get("item")
	default:
		s += " " + get("item")
	}
	if to := get("to"); to != "" {
		s += " to " + to
	}
	return parser.CollapseSpace(s)
}

// notEnabledInventory refuses an inventory tag in a campaign without an inventory:
// why says what is missing ("" for the usual: no system and no items block).
func notEnabledInventory(why string) sheet.Result {
	if why == "" {
		why = "this campaign has no inventory (its ruleset has no items and it names no game system): nothing was added or removed"
	}
	return sheet.Result{Outcome: sheet.Refused(refusal.New(refusal.NotEnabled, "%s", why))}
}

// attr is a tag attribute the parser always gives the action (item, count, key…).
func (it *invTag) attr(key string) string {
	v, _ := it.tag.Get(key)
	return v
}

// count is the tag's count (the parser gives 1 up to parser.MaxCount).
func (it *invTag) count() int64 {
	n, err := strconv.ParseInt(it.attr("count"), 10, 64)
	if err != nil || n < 1 {
		return 1
	}
	return n
}
