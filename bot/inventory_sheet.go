package bot

import (
	"sheetkeeper/check"
	"sheetkeeper/inventory"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// A card's sheet is worked out with what the character holds (SPEC 7): a ruleset's
// itemStat values (Guard with a coat worn), what worn and carried items do to abilities,
// and, on a check, what they do to the roll (check.Request.Items, written into the
// record's effects= and from=). Every place the bot evaluates a game card reads its
// holdings here, so /sheet, /gm brief, /check's numbers and a [skill_check:] agree.
// A library card holds nothing (its starting kit is copied only when it joins), and so
// does a card whose stored holdings no longer fit the campaign's system: /inventory
// says why, and the sheet reads as if nothing were held rather than failing.

// holdingsIn is stored holdings st as the sheet of a card on l reads them, under the
// campaign system p; nil when there is none or st does not fit it.
func holdingsIn(p *played, l *ruleset.Loaded, derived bool, st *inventory.Stored) *inventory.Holdings {
	if p == nil {
		return nil
	}
	h, ps := p.camp.Restore(st)
	if len(ps) > 0 {
		return nil
	}
	return heldHoldings(p, l, derived, h)
}

// heldHoldings is holdings in play h as the sheet reads them. The ruleset's own items
// (for worn and carried effects and requirements) are read only when the system is the
// one derived from them: a Pack Rat system's items are its own.
func heldHoldings(p *played, l *ruleset.Loaded, derived bool, h *inventory.Held) *inventory.Holdings {
	var items inventory.RulesetItems
	if derived {
		// The entries were read when the system was built from them, so this fails
		// only as that did; an error leaves the items without their effects.
		items, _ = inventory.ItemsOf(l.Ruleset, l.Entries)
	}
	return p.camp.Holdings(l.Ruleset, items, h.Inv)
}

// cardHoldings is a game card's holdings as its sheet reads them, in camp (nil: it
// holds nothing the sheet reads).
func (c *Core) cardHoldings(tx storage.Tx, camp *storage.Campaign, l *ruleset.Loaded, rec *storage.CardRecord) *inventory.Holdings {
	if camp == nil || rec == nil {
		return nil
	}
	p, err := c.playedSystem(tx, camp, l)
	if err != nil {
		return nil
	}
	return holdingsIn(p, l, camp.System == "", rec.Inventory)
}

// holdings is rec's holdings at the table as its sheet reads them: those the message's
// inventory tags left when they are still the record's, else restored afresh.
func (t *table) holdings(rec *storage.CardRecord) *inventory.Holdings {
	if t.inv == nil || rec == nil {
		return nil
	}
	if ha, ok := t.held[rec]; ok && ha.st == rec.Inventory {
		return heldHoldings(t.inv, t.rules, t.inv.ruleset, ha.h)
	}
	return holdingsIn(t.inv, t.rules, t.inv.ruleset, rec.Inventory)
}

// recordOf is the record of one of the table's cards (records and cards go index for
// index); nil for a card not at the table.
func (t *table) recordOf(card *sheet.Card) *storage.CardRecord {
	for i, c := range t.cards {
		if c == card {
			return t.records[i]
		}
	}
	return nil
}

// evaluate is sheet.Evaluate with holdings h (nil: nothing held). A nil *Holdings must
// not reach Evaluate as an ItemStats: the interface would not be nil.
func evaluate(rs *ruleset.Ruleset, card *sheet.Card, h *inventory.Holdings) *sheet.Values {
	if h == nil {
		return sheet.Evaluate(rs, card, nil)
	}
	return sheet.Evaluate(rs, card, h)
}

// checkItems is what holdings h do to a check of the sheet v they leave (nil: nothing).
func checkItems(h *inventory.Holdings, v *sheet.Values) []check.ItemEffects {
	if h == nil {
		return nil
	}
	return h.CheckItems(v)
}
