package bot

import (
	"context"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/panel"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// The inventory in /gm brief, as Marinara's GM prompt has it (gm-prompts.ts): the
// inventory tag taught with this campaign's actions, and each character's items on one
// line, every item with what it is in [brackets] — "Oilskin Coat (worn) [Coats, Common;
// Weight 3, Guard 1]" — and what they carry and wear against what they can. A GM that
// reads the line knows which names a tag will find and what the sheet's numbers come from.

// briefInventory is what the brief knows of the campaign's inventories: the system they
// are played on and each card's holdings in play (nil for one that cannot be restored).
type briefInventory struct {
	l       *ruleset.Loaded
	p       *played
	derived bool
	held    map[*sheet.Card]*inventory.Held
	t       *table
	// calls are each card's gm-player panels to run; cards what they drew
	// (gmPlayerCards).
	calls map[*sheet.Card]panelCall
	cards map[*sheet.Card][]string
	// items are the ruleset's items by their bridged ids, for a derived system.
	items inventory.RulesetItems
}

// briefInventoryOf is the table's inventories for the brief, its gm-player panels ready
// to run for every character (drawBriefPanels, after the transaction); nil when the
// campaign has none.
func (c *Core) briefInventoryOf(t *table) *briefInventory {
	if t.inv == nil {
		return nil
	}
	bi := &briefInventory{l: t.rules, p: t.inv, derived: t.inv.ruleset, held: map[*sheet.Card]*inventory.Held{}, t: t,
		calls: map[*sheet.Card]panelCall{}, cards: map[*sheet.Card][]string{}}
	if bi.derived {
		// Read once already, to build the system: an error here leaves the facts short.
		bi.items, _ = inventory.ItemsOf(t.rules.Ruleset, t.rules.Entries)
	}
	for i, rec := range t.records {
		if h, ps := t.inv.camp.Restore(rec.Inventory); len(ps) == 0 {
			bi.held[t.cards[i]] = h
			bi.calls[t.cards[i]] = c.panelJobs(t, rec, h, panel.SlotGMPlayer)
		}
	}
	return bi
}

// drawBriefPanels runs bi's gm-player panels into its cards, all within maxPanelTime.
func (c *Core) drawBriefPanels(ctx context.Context, bi *briefInventory) {
	if bi == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, maxPanelTime)
	defer cancel()
	for _, card := range bi.t.cards {
		if call, ok := bi.calls[card]; ok {
			bi.cards[card] = c.gmPlayerCards(ctx, call)
		}
	}
}

// characterLines are what the brief adds to card's sheet block: the items line, then
// the gm-player panels' cards.
func (bi *briefInventory) characterLines(card *sheet.Card) string {
	return strings.Join(append([]string{bi.itemsLine(card)}, bi.cards[card]...), "\n")
}

// holdings is card's holdings as its sheet reads them (nil: none).
func (bi *briefInventory) holdings(card *sheet.Card) *inventory.Holdings {
	if bi == nil || bi.held[card] == nil {
		return nil
	}
	return heldHoldings(bi.p, bi.l, bi.derived, bi.held[card])
}

// itemsLine is one character's items for their sheet block: "Items (load 4 of 8; Bound
// charms 1 of 2; purse 3 shell): …"; "Items: none" when they hold nothing.
func (bi *briefInventory) itemsLine(card *sheet.Card) string {
	h := bi.held[card]
	if h == nil {
		return "Items: unreadable (the stored inventory does not fit the campaign's system)"
	}
	c := bi.p.camp
	var notes []string
	rs := bi.l.Ruleset
	hs := bi.holdings(card)
	vals := evaluate(rs, card, hs)
	if enc := hs.Encumbrance(vals, h.Purse); rs.Items != nil && rs.Items.Carry != nil {
		load := "load " + numText(enc.Carried) + " of " + numText(enc.Above)
		if enc.Limit != nil {
			load += ", most " + numText(*enc.Limit)
		}
		if enc.Encumbered {
			load += ", encumbered"
		}
		notes = append(notes, load)
	} else if enc.Carried > 0 {
		notes = append(notes, "load "+numText(enc.Carried)+" "+blockValue(c.System.WeightUnit(enc.Carried)))
	}
	for _, sc := range c.Limits(h.Inv, bi.t.locals(bi.t.recordOf(card))) {
		notes = append(notes, blockValue(c.State(sc.Key).Label)+" "+strconv.FormatInt(sc.Count, 10)+" of "+strconv.FormatInt(sc.Limit, 10))
	}
	if m := c.System.Money(); len(m.Coins) > 0 {
		notes = append(notes, "purse "+purseWords(m, h.Purse))
	}
	head := "Items"
	if len(notes) > 0 {
		head += " (" + strings.Join(notes, "; ") + ")"
	}
	var items []string
	for _, e := range h.Inv {
		if e == nil || e.Item == nil || e.Qty <= 0 {
			continue
		}
		if len(items) == maxBlockNames {
			items = append(items, "and more")
			break
		}
		items = append(items, bi.itemText(e))
	}
	if len(items) == 0 {
		return head + ": none"
	}
	return head + ": " + strings.Join(items, "; ")
}

// itemText is one entry as the brief lists it: its name as it is now, how many, whether
// it is worn, its states and charges, and what it is.
func (bi *briefInventory) itemText(e *inventory.Entry) string {
	c := bi.p.camp
	now := c.Now(e)
	s := blockValue(now.Name)
	if e.Qty > 1 {
		s += " ×" + strconv.FormatInt(e.Qty, 10)
	}
	var worn []string
	if e.Equipped {
		worn = append(worn, "worn")
	}
	for _, st := range c.States {
		if e.On(st.Key) {
			worn = append(worn, strings.ToLower(blockValue(st.Label)))
		}
	}
	if max := c.MaxCharges(e); max > 0 {
		worn = append(worn, strconv.FormatInt(e.Charges, 10)+" of "+strconv.FormatInt(max, 10)+" charges left")
	}
	if len(worn) > 0 {
		s += " (" + strings.Join(worn, ", ") + ")"
	}
	if f := bi.facts(e.Item, &now); f != "" {
		s += " [" + f + "]"
	}
	return s
}

// facts is what an item is, as Marinara's rulesetItemPromptFacts says it: category,
// rarity and tags, then the stats the GM is shown ("Coats, Common; Weight 3, Guard 1").
// An item of a Pack Rat system says its template and category.
func (bi *briefInventory) facts(it *inventory.Item, now *inventory.Current) string {
	rs := bi.l.Ruleset
	if !bi.derived || rs.Items == nil {
		var kind []string
		if now.Template != nil {
			kind = append(kind, blockValue(now.Template.Name))
		}
		if now.Category != "" {
			kind = append(kind, blockValue(now.Category))
		}
		return strings.Join(kind, ", ")
	}
	words := rs.Items
	kind := []string{wordLabel(words.Categories, now.Item.Type)}
	var stats []string
	if ri := bi.items[it.ID]; ri != nil {
		kind = []string{wordLabel(words.Categories, ri.Category)}
		if ri.Rarity != nil {
			kind = append(kind, wordLabel(words.Rarities, *ri.Rarity))
		}
		for _, tg := range ri.Tags {
			kind = append(kind, wordLabel(words.Tags, tg))
		}
		for _, sd := range words.Stats {
			if v, ok := ri.Stats[sd.ID]; ok && (sd.PromptVisible == nil || *sd.PromptVisible) {
				if t := cellText(v); t != "" {
					stats = append(stats, blockValue(sd.Label)+" "+t)
				}
			}
		}
	}
	s := strings.Join(kind, ", ")
	if len(stats) > 0 {
		s += "; " + strings.Join(stats, ", ")
	}
	return strings.Trim(s, ", ")
}

// wordLabel is an items-block word by its id, as it is shown ("" for none).
func wordLabel(words []ruleset.ItemWord, id string) string {
	for _, w := range words {
		if w.ID == id {
			return blockValue(w.Label)
		}
	}
	return blockValue(id)
}

// inventoryInstructions teaches the inventory tag with the actions this campaign's system
// plays, each with a name it really has; "" without an inventory.
func (bi *briefInventory) inventoryInstructions() string {
	if bi == nil {
		return ""
	}
	c := bi.p.camp
	item := "Rope"
	if len(c.System.Catalog) > 0 {
		item = tagValue(c.System.Catalog[0].Name)
	}
	lines := []string{
		"INVENTORY TAGS",
		"sheetkeeper keeps every character's inventory too. Write one tag for each real gain, loss or change of an item; the answer is the tag rewritten with its outcome, all or nothing:",
		`- [inventory: action="add" item="` + item + `" count="1" who="Name"] and action="remove": items come and go: name an item as the inventories below or the catalog name it, with count for a stack.`,
		`- [inventory: action="give" item="` + item + `" count="1" who="Name" to="Other"] hands items from who to to.`,
		`- [inventory: action="use" item="Name" who="Name"] spends one charge of an item that has charges, else one of a stack that is used up.`,
	}
	if bi.equips() {
		lines = append(lines, `- [inventory: action="equip" item="Name" who="Name"] and action="unequip": wearing and wielding; a full slot is refused, and the refusal says what to take out first.`)
	}
	if key := bi.bindKey(); key != "" {
		lines = append(lines, `- [inventory: action="bind" item="Name" who="Name"] and action="unbind": `+strings.ToLower(blockValue(c.State(key).Label))+`, as many as the character may; a cursed one, once bound, only the GM ends.`)
	}
	if !bi.derived {
		bind := bi.bindKey()
		for _, st := range c.States {
			if st.Key != inventory.BoundState && st.Key != bind {
				lines = append(lines, `- [inventory: action="state" item="Name" key="`+tagValue(st.Key)+`" state="on" who="Name"] switches a state of an item (`+blockValue(st.Label)+`), state="off" ends it.`)
				break
			}
		}
	}
	if m := c.System.Money(); len(m.Coins) > 0 {
		coin := m.Coins[len(m.Coins)-1].Key
		lines = append(lines, `- [inventory: action="pay" amount="5 `+tagValue(coin)+`" who="Name"] pays out of the purse with change (to="Other" pays another character); action="receive" (or "earn") puts coins in. A payment they cannot afford is refused.`,
			`- [inventory: action="buy" item="Name" count="1" who="Name"] buys from this channel's shop while one is open (/shop shows it), at its price with change; with no shop, or none left, it is refused.`)
	}
	lines = append(lines, "Leave out who= for the character of the player you answer. Never write result, reason or now yourself; a refused tag did not happen.")
	return strings.Join(lines, "\n")
}

// equips reports whether anything in the system can be equipped: it has slots, or an
// item of its catalog is equippable.
func (bi *briefInventory) equips() bool {
	c := bi.p.camp
	if len(c.System.Slots) > 0 {
		return true
	}
	for _, it := range c.System.Catalog {
		if c.Equippable(c.NewEntry("", it, 1)) {
			return true
		}
	}
	return false
}

// bindKey is the state bind and unbind switch, as the tag finds it (invTag.bindState);
// "" when the system binds nothing.
func (bi *briefInventory) bindKey() string {
	it := &invTag{c: bi.p.camp}
	key, err := it.bindState()
	if err != nil {
		return ""
	}
	return key
}
