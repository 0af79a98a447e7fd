package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /trade offer (SPEC 8.1): one player offers another an item and coins for an item and
// coins; the other player's Accept or Decline answers it. The offer is stored per
// channel (storage.TradeRecord, one at a time: a new one replaces it) as what it names,
// not the entries found then, and Accept checks both sides' holdings again and swaps
// them in one Update (inventory.Campaign.Trade), so a trade happens whole or not at all:
// an offer expired, replaced, or whose items or coins are gone is refused with the
// reason, and nothing moves. An offer's id, which its buttons name, is never used twice
// in a campaign (nextOfferID), so the buttons left on an answered offer's message answer
// no later one. An accepted trade is recorded with Undo.

var (
	tradeAcceptID  = componentKind{name: "trade:accept", arity: 1}
	tradeDeclineID = componentKind{name: "trade:decline", arity: 1}
)

// tradeTTL is how long an offer waits for its answer.
const tradeTTL = 15 * time.Minute

// tradeCommands adds /trade offer and its buttons.
func tradeCommands(r *router) {
	r.command(CommandSpec{Name: "trade offer", Description: "Offer another player an item or coins for theirs", Options: []OptionSpec{
		{Name: "to", Description: "Whose character you trade with", Type: "string", Required: true},
		{Name: "give", Description: "The item you give, by name", Type: "string"},
		{Name: "give_count", Description: "How many of it (default 1)", Type: "integer"},
		{Name: "give_coins", Description: `Coins you give, e.g. "4 gp 2 sp"`, Type: "string"},
		{Name: "want", Description: "The item you want, by name", Type: "string"},
		{Name: "want_count", Description: "How many of it (default 1)", Type: "integer"},
		{Name: "want_coins", Description: `Coins you want, e.g. "3 gp"`, Type: "string"},
		{Name: "name", Description: "Your character (default: yours in this game)", Type: "string"},
	}}, (*Core).cmdTradeOffer).
		complete("to", (*Core).gameCardChoices).
		complete("give", (*Core).heldItemChoices).
		complete("want", (*Core).wantedItemChoices).
		complete("name", (*Core).gameCardChoices)
	r.command(CommandSpec{Name: "trade accept", Description: "Accept the trade offered to you in this channel"}, (*Core).cmdTradeAccept)
	r.component(tradeAcceptID, (*Core).tradeAccept)
	r.component(tradeDeclineID, (*Core).tradeDecline)
}

func (c *Core) cmdTradeOffer(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.inventoryTable(tx, cmd.ChannelID, "nothing to trade")
		if err != nil {
			return err
		}
		camp := t.camp
		from, err := inventoryCard(t.records, camp, cmd, "trades")
		if err != nil {
			return err
		}
		to, err := findCard(t.records, strings.TrimSpace(cmd.Get("to")))
		if err != nil {
			return err
		}
		if to == from {
			return refusal.New(refusal.NotAllowed, "%s cannot trade with themselves", from.Card.Name)
		}
		o, err := offerOf(t.inv.camp.System.Money(), cmd, from, to)
		if err != nil {
			return err
		}
		o.ChannelID, o.CreatedAt, o.Expires = camp.ChannelID, c.Now(), c.Now().Add(tradeTTL)
		if _, err := c.tradeParties(t, o, true); err != nil {
			return err
		}
		if o.ID, err = nextOfferID(tx, camp); err != nil {
			return err
		}
		if err := tx.PutTrade(o); err != nil {
			return err
		}
		resp = Response{
			Content: fmt.Sprintf("<@%s>: %s offers %s %s for %s. Accept within %d minutes.", o.ToUser, o.From, o.To,
				tradeWords(o.Give, o.GiveCoins), tradeWords(o.Want, o.WantCoins), int(tradeTTL/time.Minute)),
			Components: []Row{{Buttons: []Button{
				{CustomID: tradeAcceptID.encode(o.ID), Label: "Accept", Style: "success"},
				{CustomID: tradeDeclineID.encode(o.ID), Label: "Decline", Style: "danger"},
			}}},
		}
		return nil
	})
	return resp, err
}

// nextOfferID names a new offer in camp's channel: its number, counted in the campaign
// (storage.Campaign.TradeOffers), and the campaign's creation time. An answered offer is
// deleted, so a number counted from the stored offer alone came round again ("1" after
// every answer), and the Accept of an old message answered the offer made since; the
// time keeps a later campaign here, whose count starts again, from reusing a name. A
// campaign from before the count counts on from its pending offer.
func nextOfferID(tx storage.Tx, camp *storage.Campaign) (string, error) {
	n := camp.TradeOffers
	if prev, err := tx.Trade(camp.ChannelID); err == nil {
		if id, err := strconv.ParseInt(prev.ID, 10, 64); err == nil {
			n = max(n, id)
		}
	}
	camp.TradeOffers = n + 1
	if err := tx.PutCampaign(camp); err != nil {
		return "", err
	}
	return strconv.FormatInt(camp.TradeOffers, 10) + "-" + strconv.FormatInt(camp.CreatedAt.UnixNano(), 36), nil
}

// offerOf reads the offer's options into a record.
func offerOf(m *inventory.Money, cmd Command, from, to *storage.CardRecord) (*storage.TradeRecord, error) {
	o := &storage.TradeRecord{From: from.Card.Name, To: to.Card.Name, FromUser: from.OwnerID, ToUser: to.OwnerID}
	for _, side := range []struct {
		item, count, coins string
		items              *[]storage.TradeItem
		purse              *map[string]int64
	}{{"give", "give_count", "give_coins", &o.Give, &o.GiveCoins}, {"want", "want_count", "want_coins", &o.Want, &o.WantCoins}} {
		if it := strings.TrimSpace(cmd.Get(side.item)); it != "" {
			n, err := intOption(cmd, side.count, 1, 1, 10000)
			if err != nil {
				return nil, err
			}
			*side.items = []storage.TradeItem{{Item: it, Qty: n}}
		}
		if s := strings.TrimSpace(cmd.Get(side.coins)); s != "" {
			p, err := namedCoins(m, s)
			if err != nil {
				return nil, err
			}
			*side.purse = m.Map(p)
		}
	}
	if len(o.Give) == 0 && len(o.GiveCoins) == 0 {
		return nil, refusal.New(refusal.Malformed, "say what you give: give: an item, or give_coins:")
	}
	return o, nil
}

// tradeWords is one side of an offer in words: "2 Rope and 3 gp", "nothing".
func tradeWords(items []storage.TradeItem, coins map[string]int64) string {
	var parts []string
	for _, it := range items {
		parts = append(parts, strconv.FormatInt(it.Qty, 10)+" "+it.Item)
	}
	keys := make([]string, 0, len(coins))
	for k, n := range coins {
		keys = append(keys, strconv.FormatInt(n, 10)+" "+k)
	}
	if len(keys) > 0 {
		slices.Sort(keys)
		parts = append(parts, strings.Join(keys, " "))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " and ")
}

// parties are both sides of a trade as it stands now.
type parties struct {
	from, to   *storage.CardRecord
	hFrom, hTo *inventory.Held
	give, ask  inventory.Offer
	ic         *inventory.Campaign
}

// tradeParties finds both cards of offer o and what each gives, as their holdings are
// now; check alone (an offer being made) refuses what the giver does not have.
func (c *Core) tradeParties(t *table, o *storage.TradeRecord, check bool) (*parties, error) {
	ic := t.inv.camp
	p := &parties{ic: ic}
	var err error
	if p.from, err = findCard(t.records, o.From); err != nil {
		return nil, err
	}
	if p.to, err = findCard(t.records, o.To); err != nil {
		return nil, err
	}
	m := ic.System.Money()
	for _, side := range []struct {
		rec   *storage.CardRecord
		h     **inventory.Held
		items []storage.TradeItem
		coins map[string]int64
		offer *inventory.Offer
	}{{p.from, &p.hFrom, o.Give, o.GiveCoins, &p.give}, {p.to, &p.hTo, o.Want, o.WantCoins, &p.ask}} {
		h, err := restoreHeld(ic, side.rec)
		if err != nil {
			return nil, err
		}
		*side.h = h
		for _, it := range side.items {
			e, err := ic.FindEntry(h.Inv, it.Item)
			if err != nil {
				return nil, refusal.New(refusal.NotHeld, "%s has no %s to trade now", side.rec.Card.Name, it.Item)
			}
			if e.Qty < it.Qty {
				return nil, refusal.New(refusal.NotHeld, "%s has only %d %s now, not %d", side.rec.Card.Name, e.Qty, ic.Now(e).Name, it.Qty)
			}
			side.offer.Items = append(side.offer.Items, inventory.Give{UID: e.UID, Qty: it.Qty})
		}
		if len(side.coins) > 0 {
			coins, err := m.PurseOf(side.coins)
			if err != nil {
				return nil, err
			}
			for i, n := range coins {
				if i < len(h.Purse) && h.Purse[i] < n {
					return nil, refusal.New(refusal.CannotAfford, "%s has only %s, not the %s of the offer", side.rec.Card.Name, purseWords(m, h.Purse), purseWords(m, coins))
				}
			}
			side.offer.Coins = coins
		}
		if check {
			break // the other side's holdings are checked when they accept
		}
	}
	return p, nil
}

func (c *Core) tradeDecline(ctx context.Context, comp Component, args []string) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		o, err := pendingTrade(tx, comp, args[0])
		if err != nil {
			return err
		}
		if comp.User.ID != o.ToUser && comp.User.ID != o.FromUser {
			return refusal.New(refusal.NotAllowed, "this offer is between %s and %s: only their players answer it", o.From, o.To)
		}
		resp = Response{Content: fmt.Sprintf("%s's offer to %s is declined by %s: nothing changes hands.", o.From, o.To, comp.User.Name), Update: true}
		return tx.DeleteTrade(o.ChannelID)
	})
	return resp, err
}

// pendingTrade is the channel's offer the button names, or why it is no longer there.
func pendingTrade(tx storage.Tx, comp Component, id string) (*storage.TradeRecord, error) {
	o, err := tx.Trade(comp.ChannelID)
	if storage.KindOf(err) == storage.NotFound || err == nil && o.ID != id {
		return nil, refusal.New(refusal.NotAllowed, "this offer is no longer open: it was answered, it expired, or another offer replaced it")
	}
	return o, err
}

// cmdTradeAccept is /trade accept: the Accept button of the channel's pending offer.
func (c *Core) cmdTradeAccept(ctx context.Context, cmd Command) (Response, error) {
	id := ""
	err := c.store.View(ctx, func(tx storage.Tx) error {
		o, err := tx.Trade(cmd.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			return refusal.New(refusal.NotAllowed, "no trade is waiting for an answer in this channel")
		}
		if err == nil {
			id = o.ID
		}
		return err
	})
	if err != nil {
		return Response{}, err
	}
	// The Update below reads the offer again: one replaced meanwhile is refused there.
	resp, err := c.tradeAccept(ctx, Component{User: cmd.User, ChannelID: cmd.ChannelID, GuildID: cmd.GuildID}, []string{id})
	resp.Update = false
	return resp, err
}

func (c *Core) tradeAccept(ctx context.Context, comp Component, args []string) (Response, error) {
	var resp Response
	expired := false
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		expired = false
		o, err := pendingTrade(tx, comp, args[0])
		if err != nil {
			return err
		}
		if comp.User.ID != o.ToUser {
			return refusal.New(refusal.NotAllowed, "only %s's player accepts this offer", o.To)
		}
		if c.Now().After(o.Expires) {
			expired = true
			return tx.DeleteTrade(o.ChannelID)
		}
		t, err := c.inventoryTable(tx, comp.ChannelID, "nothing to trade")
		if err != nil {
			return err
		}
		said, changes, err := c.swap(t, o)
		if err != nil {
			return err
		}
		if err := tx.DeleteTrade(o.ChannelID); err != nil {
			return err
		}
		cmd := Command{Name: "trade offer", User: comp.User, ChannelID: comp.ChannelID}
		seq, err := c.recordCommand(tx, t, cmd, marketSource+"trade offer", changes)
		if err != nil {
			return err
		}
		resp = Response{Content: said, Components: undoRow(seq), Update: true}
		return nil
	})
	if err == nil && expired {
		return Response{}, refusal.New(refusal.NotAllowed, "this offer expired: nothing changes hands (offer again with /trade offer)")
	}
	return c.withRules(ctx, comp.ChannelID, resp, err)
}

// swap checks the offer against both holdings now and swaps it, all or nothing.
func (c *Core) swap(t *table, o *storage.TradeRecord) (string, []sheet.Change, error) {
	p, err := c.tradeParties(t, o, false)
	if err != nil {
		return "", nil, err
	}
	if err := p.heldFast(t); err != nil {
		return "", nil, refusal.New(refusal.Of(err), "the trade cannot happen: %s", plain(err))
	}
	a := &inventory.Party{Inv: p.hFrom.Inv, Purse: p.hFrom.Purse}
	b := &inventory.Party{Inv: p.hTo.Inv, Purse: p.hTo.Purse}
	startA, startB := entrySet(a.Inv), entrySet(b.Inv)
	tmp := 0
	if err := p.ic.Trade(a, b, p.give, p.ask, func() string { tmp++; return "trade-" + strconv.Itoa(tmp) }); err != nil {
		return "", nil, refusal.New(refusal.Of(err), "the trade cannot happen: %s", plain(err))
	}
	p.hFrom.Inv, p.hFrom.Purse = a.Inv, a.Purse
	p.hTo.Inv, p.hTo.Purse = b.Inv, b.Purse
	adopt(p.hFrom, p.hTo, startA)
	adopt(p.hTo, p.hFrom, startB)
	var changes []sheet.Change
	for _, side := range []struct {
		rec *storage.CardRecord
		h   *inventory.Held
	}{{p.from, p.hFrom}, {p.to, p.hTo}} {
		kept, err := p.ic.Keep(side.h)
		if err != nil {
			return "", nil, err
		}
		if b, a := inventory.DiffStored(side.rec.Inventory, kept); b != nil {
			changes = append(changes, sheet.Change{Card: side.rec.Card.Name, Path: PathHoldings, Before: b, After: a})
		}
		side.rec.Inventory = kept
		t.dirty[side.rec] = true
	}
	return fmt.Sprintf("%s and %s trade: %s gives %s, %s gives %s.", o.From, o.To, o.From, tradeWords(o.Give, o.GiveCoins),
		o.To, tradeWords(o.Want, o.WantCoins)), changes, nil
}

// heldFast refuses a trade that takes away what a player cannot let go of (a cursed
// binding, a state the GM set) or that takes a side past a state's limit, as a give does.
func (p *parties) heldFast(t *table) error {
	gives, asks := offered(p.hFrom.Inv, p.give), offered(p.hTo.Inv, p.ask)
	for _, err := range []error{heldFast(p.ic, gives), heldFast(p.ic, asks)} {
		if err != nil {
			return err
		}
	}
	for _, side := range []struct {
		rec          *storage.CardRecord
		inv          []*inventory.Entry
		gone, coming []*inventory.Entry
	}{{p.to, p.hTo.Inv, asks, gives}, {p.from, p.hFrom.Inv, gives, asks}} {
		gone := entrySet(side.gone)
		kept := slices.DeleteFunc(slices.Clone(side.inv), func(e *inventory.Entry) bool { return gone[e] })
		if err := fitsLimits(p.ic, kept, side.coming, t.locals(side.rec), side.rec.Card.Name); err != nil {
			return err
		}
	}
	return nil
}

// offered is what offer o takes out of inv: each entry it lists, with what is inside.
func offered(inv []*inventory.Entry, o inventory.Offer) []*inventory.Entry {
	var out []*inventory.Entry
	for _, g := range o.Items {
		if i := slices.IndexFunc(inv, func(e *inventory.Entry) bool { return e.UID == g.UID }); i >= 0 {
			out = append(out, inv[i])
			out = append(out, inside(inv, g.UID)...)
		}
	}
	return out
}

func entrySet(inv []*inventory.Entry) map[*inventory.Entry]bool {
	s := make(map[*inventory.Entry]bool, len(inv))
	for _, e := range inv {
		s[e] = true
	}
	return s
}

// adopt gives the entries that came into h from holdings from by a trade uids of h's
// own counter (Trade named them "trade-1", "trade-2"…, for the swap alone), keeping what
// is inside what, and the JSON of the giver's own items (Held.Adopt).
func adopt(h, from *inventory.Held, before map[*inventory.Entry]bool) {
	renamed := map[string]string{}
	for _, e := range h.Inv {
		if !before[e] {
			h.Adopt(from, e)
			n := h.NewUID()
			renamed[e.UID], e.UID = n, n
		}
	}
	for _, e := range h.Inv {
		if !before[e] {
			if p, ok := renamed[e.Parent]; ok {
				e.Parent = p
			}
		}
	}
}

// wantedItemChoices offers what the character to: names holds, for want:, to anyone at
// the table: on purpose, unlike /item's completer, since an offer names what the
// partner holds and the partner sees and answers it.
func (c *Core) wantedItemChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	to := q.get("to")
	if to == "" {
		return nil, nil
	}
	of := *q
	of.a.Options = []Option{{Name: "name", Value: to}}
	return c.holdingChoices(tx, &of, false)
}
