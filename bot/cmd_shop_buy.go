package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /buy, the Buy button and /sell. A purchase reads the shop, the buyer's holdings and
// purse in one Update and writes all three there (inventory.Campaign.Buy checks open,
// stock and coins, and pays with change), so of two buyers of the last lot the store
// lets one through and the other is refused out-of-stock. Each is recorded as a reply
// with an Undo button: its changes are the buyer's holdings (PathHoldings, reverted as
// a tag's are) and the shop's stock and funds (pathShop, reverted by revertShop), each
// only where it is still what the purchase left.

// pathShop starts the change path of a shop listing's stock and the shop's funds.
const pathShop = "shop:"

func (c *Core) cmdBuy(ctx context.Context, cmd Command) (Response, error) {
	lots, err := intOption(cmd, "count", 1, 1, 10000)
	if err != nil {
		return Response{}, err
	}
	return c.trade(ctx, cmd, func(m *market, rec *storage.CardRecord, h *inventory.Held) (string, error) {
		return m.buy(rec, h, cmd.Get("item"), lots)
	})
}

// buyClick is a listing's Buy button: one lot, for the clicker's own character.
func (c *Core) buyClick(ctx context.Context, comp Component, args []string) (Response, error) {
	cmd := Command{Name: "buy", User: comp.User, ChannelID: comp.ChannelID, GuildID: comp.GuildID}
	resp, err := c.trade(ctx, cmd, func(m *market, rec *storage.CardRecord, h *inventory.Held) (string, error) {
		return m.buy(rec, h, args[0], 1)
	})
	if err != nil {
		return Response{}, refusal.WithOp("Buy", err)
	}
	return resp, nil
}

func (c *Core) cmdSell(ctx context.Context, cmd Command) (Response, error) {
	qty, err := intOption(cmd, "count", 1, 1, 10000)
	if err != nil {
		return Response{}, err
	}
	return c.trade(ctx, cmd, func(m *market, rec *storage.CardRecord, h *inventory.Held) (string, error) {
		return m.sell(rec, h, cmd.Get("item"), qty, isGM(m.t.camp, cmd.User))
	})
}

// trade runs one purchase or sale (do) for cmd's character in one Update and records it
// as a reply with an Undo button.
func (c *Core) trade(ctx context.Context, cmd Command, do func(*market, *storage.CardRecord, *inventory.Held) (string, error)) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		m, err := c.openMarket(tx, camp)
		if err != nil {
			return err
		}
		rec, err := inventoryCard(m.t.records, camp, cmd, "trades with")
		if err != nil {
			return err
		}
		h, err := restoreHeld(m.ic, rec)
		if err != nil {
			return err
		}
		shopBefore := m.state()
		said, err := do(m, rec, h)
		if err != nil {
			return err
		}
		kept, err := m.ic.Keep(h)
		if err != nil {
			return err
		}
		var changes []sheet.Change
		if b, a := inventory.DiffStored(rec.Inventory, kept); b != nil {
			changes = append(changes, sheet.Change{Card: rec.Card.Name, Path: PathHoldings, Before: b, After: a})
		}
		changes = append(changes, sheet.Change{Card: m.rec.Name, Path: pathShop, Before: shopBefore, After: m.state()})
		rec.Inventory = kept
		m.t.dirty[rec] = true
		m.rec.UpdatedAt = c.Now()
		if err := m.save(tx); err != nil {
			return err
		}
		seq, err := c.recordCommand(tx, m.t, cmd, marketSource+normalCommand(cmd.Name), changes)
		if err != nil {
			return err
		}
		resp = Response{Content: said, Components: undoRow(seq)}
		return nil
	})
	return c.withRules(ctx, cmd.ChannelID, resp, err)
}

// marketSource starts the Source of a reply recorded by recordCommand: a purchase, a
// sale, a trade or a purse changed by /coins.
const marketSource = "market:"

// marketRedo refuses Redo of a market reply: its text is no tag to apply again, and
// the shop's stock or the other side's holdings may be gone since, so it is done again
// only by its command.
func marketRedo(r *storage.Reply) error {
	if strings.HasPrefix(r.Source, marketSource) {
		return refusal.New(refusal.NotAllowed, "a purchase, sale, trade or change of coins is not redone: do it again with /%s", strings.TrimPrefix(r.Source, marketSource))
	}
	return nil
}

// recordCommand saves the table's changed cards and records changes as a reply of
// cmd's, so Undo reverts them; it returns the reply's seq. Its text is the command, no
// tag: marketRedo refuses its Redo.
func (c *Core) recordCommand(tx storage.Tx, t *table, cmd Command, source string, changes []sheet.Change) (int64, error) {
	now := c.Now()
	if err := t.save(tx, now); err != nil {
		return 0, err
	}
	seq, err := tx.NextReplySeq(cmd.ChannelID)
	if err != nil {
		return 0, err
	}
	return seq, tx.PutReply(&storage.Reply{
		ChannelID: cmd.ChannelID, Seq: seq, MessageID: "command:" + strconv.FormatInt(seq, 10), AuthorID: cmd.User.ID,
		Text: "/" + normalCommand(cmd.Name), Status: storage.ReplyLive, Changes: changes,
		Source: source, CreatedAt: now, UpdatedAt: now,
	})
}

// state is the shop's stock by listing and its funds, as a change records them.
func (m *market) state() map[string]any {
	out := map[string]any{}
	if m.shop.Funds != nil {
		out["funds"] = float64(*m.shop.Funds)
	}
	for i, l := range m.shop.Listings {
		if l.Stock != nil {
			out["stock:"+m.rec.Listings[i].Item] = float64(*l.Stock)
		}
	}
	return out
}

// buy buys lots of the listing item names for rec's character.
func (m *market) buy(rec *storage.CardRecord, h *inventory.Held, item string, lots int64) (string, error) {
	i, err := m.listing(item)
	if err != nil {
		return "", refusal.New(refusal.Of(err), "%s cannot buy: %s", rec.Card.Name, plain(err))
	}
	name := m.itemName(i)
	// The entry is named as its rows are made (putRows), as an add's are.
	p, err := m.ic.Buy(m.shop, i, lots, h.Purse, "")
	if err == nil {
		err = putRows(m.ic, h, p.Entry)
	}
	if err != nil {
		return "", refusal.New(refusal.Of(err), "%s cannot buy %d %s: %s", rec.Card.Name, lots, name, plain(err))
	}
	h.Purse = p.Purse
	money := m.ic.System.Money()
	return fmt.Sprintf("%s buys %d %s from %s for %s; the purse holds %s.", rec.Card.Name, lots, name, m.rec.Name,
		money.Format(p.Paid), purseWords(money, h.Purse)), nil
}

// sell sells qty of the item names (the character's, by FindEntry) to the shop. A sale
// lets the item go as a give does, so unless a GM sells it (gm: the GM's override, as a
// GM's /item is) what the character cannot let go of (heldFast: a cursed binding, a
// state the GM set) is refused locked, in the entry or anything inside it — before
// "take them out first", since that could not be done either.
func (m *market) sell(rec *storage.CardRecord, h *inventory.Held, item string, qty int64, gm bool) (string, error) {
	e, err := m.ic.FindEntry(h.Inv, strings.TrimSpace(item))
	if err != nil {
		return "", refusal.New(refusal.Of(err), "%s cannot sell %s: %s", rec.Card.Name, strings.TrimSpace(item), plain(err))
	}
	if !gm {
		if err := heldFast(m.ic, append([]*inventory.Entry{e}, inside(h.Inv, e.UID)...)); err != nil {
			return "", refusal.New(refusal.Of(err), "%s cannot sell %s: %s", rec.Card.Name, m.ic.Now(e).Name, plain(err))
		}
	}
	for _, o := range h.Inv {
		if o.Parent == e.UID {
			return "", refusal.New(refusal.NotAllowed, "%s cannot sell %s with things inside it: take them out first", rec.Card.Name, m.ic.Now(e).Name)
		}
	}
	name := m.ic.Now(e).Name
	purse, paid, err := m.ic.Sell(m.shop, e, qty, h.Purse)
	if err != nil {
		return "", refusal.New(refusal.Of(err), "%s cannot sell %d %s: %s", rec.Card.Name, qty, name, plain(err))
	}
	h.Purse = purse
	if e.Qty == 0 {
		for j, o := range h.Inv {
			if o == e {
				h.Inv = append(h.Inv[:j:j], h.Inv[j+1:]...)
				break
			}
		}
	}
	money := m.ic.System.Money()
	return fmt.Sprintf("%s sells %d %s to %s for %s; the purse holds %s.", rec.Card.Name, qty, name, m.rec.Name,
		money.Format(paid), purseWords(money, h.Purse)), nil
}

// revertShop undoes the shop changes among changes, newest first, on the channel's shop
// where its stock and funds are still what each change left, and returns what it put
// back. A shop gone since, or changed since, keeps what it has.
func revertShop(tx storage.Tx, channelID string, changes []sheet.Change) ([]sheet.Change, error) {
	var done []sheet.Change
	for i := len(changes) - 1; i >= 0; i-- {
		ch := changes[i]
		if ch.Path != pathShop {
			continue
		}
		rec, err := tx.Shop(channelID)
		if storage.KindOf(err) == storage.NotFound {
			return done, nil
		}
		if err != nil {
			return nil, err
		}
		before, after := shopState(ch.Before), shopState(ch.After)
		if !sameShopState(rec, after) {
			continue
		}
		if f, ok := before["funds"]; ok {
			rec.Funds = &f
		}
		for j, l := range rec.Listings {
			if s, ok := before["stock:"+l.Item]; ok {
				rec.Listings[j].Stock = &s
			}
		}
		if err := tx.PutShop(rec); err != nil {
			return nil, err
		}
		done = append(done, sheet.Change{Card: rec.Name, Path: "the shop's stock and funds", Before: ch.After, After: ch.Before})
	}
	return done, nil
}

// shopState reads a recorded shop state (a map of numbers, decoded from JSON or not).
func shopState(v any) map[string]int64 {
	out := map[string]int64{}
	m, _ := v.(map[string]any)
	for k, x := range m {
		if f, ok := x.(float64); ok {
			out[k] = int64(f)
		}
	}
	return out
}

// sameShopState reports whether the shop's funds and stock are those of st.
func sameShopState(rec *storage.ShopRecord, st map[string]int64) bool {
	if f, ok := st["funds"]; ok && (rec.Funds == nil || *rec.Funds != f) {
		return false
	}
	for _, l := range rec.Listings {
		if s, ok := st["stock:"+l.Item]; ok && (l.Stock == nil || *l.Stock != s) {
			return false
		}
	}
	return true
}
