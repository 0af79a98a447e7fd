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

// /coins add|remove|convert amount:"4 gp 2 sp" [name:] (SPEC 8.1): a purse changed by
// hand, recorded with Undo like /item. Who may do what:
//   - add: a GM only, to anyone's purse. Coins come into the game from the GM (or a sale,
//     a trade), so a player cannot mint their own.
//   - remove: a GM from anyone's purse; a player from their own (spending it at the
//     table), paid Pack Rat's way with change (Money.Pay).
//   - convert: a GM on anyone's purse, a player on their own. The coins the amount
//     names are taken out exactly as named (no change is made) and come back as coins
//     of into: (default the smallest coin); their worth must be a whole number of it,
//     so nothing is lost or made.

// coinsCommands adds /coins add|remove|convert.
func coinsCommands(r *router) {
	amount := OptionSpec{Name: "amount", Description: `Coins, e.g. "4 gp 2 sp"`, Type: "string", Required: true}
	name := OptionSpec{Name: "name", Description: "The character (default: yours in this game)", Type: "string"}
	for _, sc := range []struct{ op, what string }{
		{"add", "Add coins to a purse (GM)"},
		{"remove", "Take coins out of a purse, paid with change"},
	} {
		r.command(CommandSpec{Name: "coins " + sc.op, Description: sc.what, Options: []OptionSpec{amount, name}}, coinsHandler(sc.op)).
			complete("name", (*Core).gameCardChoices)
	}
	r.command(CommandSpec{Name: "coins convert", Description: "Change coins of a purse into another coin", Options: []OptionSpec{
		amount, {Name: "into", Description: "The coin to change them into (default the smallest)", Type: "string"}, name,
	}}, coinsHandler("convert")).complete("name", (*Core).gameCardChoices)
}

// coinsHandler is the handler of /coins <op>.
func coinsHandler(op string) CommandFunc {
	return func(c *Core, ctx context.Context, cmd Command) (Response, error) {
		var resp Response
		err := c.store.Update(ctx, func(tx storage.Tx) error {
			t, err := c.inventoryTable(tx, cmd.ChannelID, "no purses")
			if err != nil {
				return err
			}
			camp := t.camp
			rec, err := inventoryCard(t.records, camp, cmd, "changes")
			if err != nil {
				return err
			}
			if op == "add" && !isGM(camp, cmd.User) {
				return refusal.New(refusal.NotGM, "coins come into the game from the GM: only a GM adds to a purse")
			}
			ic := t.inv.camp
			h, err := restoreHeld(ic, rec)
			if err != nil {
				return err
			}
			said, err := coinsDo(ic.System.Money(), op, h, rec.Card.Name, cmd)
			if err != nil {
				return err
			}
			kept, err := ic.Keep(h)
			if err != nil {
				return err
			}
			var changes []sheet.Change
			if b, a := inventory.DiffStored(rec.Inventory, kept); b != nil {
				changes = []sheet.Change{{Card: rec.Card.Name, Path: PathHoldings, Before: b, After: a}}
			}
			rec.Inventory = kept
			t.dirty[rec] = true
			seq, err := c.recordCommand(tx, t, cmd, marketSource+"coins "+op, changes)
			if err != nil {
				return err
			}
			resp = Response{Content: said, Components: undoRow(seq)}
			return nil
		})
		return c.withRules(ctx, cmd.ChannelID, resp, err)
	}
}

// coinsDo changes purse h.Purse as op says and returns what it did in words.
func coinsDo(m *inventory.Money, op string, h *inventory.Held, who string, cmd Command) (string, error) {
	s := strings.TrimSpace(cmd.Get("amount"))
	amount, err := m.ParseAmount(s)
	if err != nil {
		return "", err
	}
	if amount <= 0 {
		return "", refusal.New(refusal.BadAmount, "amount: %q is no coins", s)
	}
	switch op {
	case "add":
		h.Purse = receiveCoins(m, h.Purse, s, amount)
		return fmt.Sprintf("%s receives %s; the purse holds %s.", who, m.Format(amount), purseWords(m, h.Purse)), nil
	case "remove":
		after, ok := m.Pay(h.Purse, amount)
		if !ok {
			return "", refusal.New(refusal.CannotAfford, "%s cannot pay %s: the purse holds %s", who, m.Format(amount), purseWords(m, h.Purse))
		}
		h.Purse = after
		return fmt.Sprintf("%s pays %s; the purse holds %s.", who, m.Format(amount), purseWords(m, h.Purse)), nil
	}
	return convertCoins(m, h, who, s, strings.TrimSpace(cmd.Get("into")))
}

// convertCoins takes the coins s names out of the purse and puts their worth back as
// coins of into.
func convertCoins(m *inventory.Money, h *inventory.Held, who, s, into string) (string, error) {
	take, err := namedCoins(m, s)
	if err != nil {
		return "", err
	}
	to := len(m.Coins) - 1
	if into != "" {
		if to = coinIndex(m, into); to < 0 {
			return "", refusal.New(refusal.BadAmount, "into: %q is not a coin of this game (%s)", into, coinKeys(m))
		}
	}
	out := append(inventory.Purse(nil), h.Purse...)
	var worth int64
	for i, n := range take {
		if n > out[i] {
			return "", refusal.New(refusal.CannotAfford, "%s has only %d %s to convert", who, out[i], m.Coins[i].Key)
		}
		out[i] -= n
		worth += n * m.Coins[i].Value
	}
	v := m.Coins[to].Value
	if worth%v != 0 {
		return "", refusal.New(refusal.BadAmount, "%s is not a whole number of %s: convert an amount worth a multiple of one %s", m.Format(worth), m.Coins[to].Key, m.Coins[to].Key)
	}
	out[to] += worth / v
	h.Purse = out
	return fmt.Sprintf("%s changes %s into %d %s; the purse holds %s.", who, s, worth/v, m.Coins[to].Key, purseWords(m, h.Purse)), nil
}

// namedCoins reads "4 gp 2 sp" as counts per coin: every number must be followed by a
// coin of the system (by key or name).
func namedCoins(m *inventory.Money, s string) (inventory.Purse, error) {
	words := strings.Fields(strings.ReplaceAll(s, ",", " "))
	if len(words) == 0 || len(words)%2 != 0 {
		return nil, refusal.New(refusal.BadAmount, "amount: %q — name each coin, as \"4 gp 2 sp\"", s)
	}
	p := make(inventory.Purse, len(m.Coins))
	for i := 0; i < len(words); i += 2 {
		n, err := strconv.ParseInt(words[i], 10, 64)
		c := coinIndex(m, words[i+1])
		if err != nil || n < 1 || n > 1e12 || c < 0 {
			return nil, refusal.New(refusal.BadAmount, "amount: %q is not a count of a coin of this game (%s)", words[i]+" "+words[i+1], coinKeys(m))
		}
		p[c] += n
	}
	return p, nil
}

// coinIndex is the index of the coin named by key or name, or -1.
func coinIndex(m *inventory.Money, name string) int {
	for i, c := range m.Coins {
		if strings.EqualFold(c.Key, name) || strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// coinKeys lists the system's coins for a refusal: "pp, gp, ep, sp, cp".
func coinKeys(m *inventory.Money) string {
	keys := make([]string, len(m.Coins))
	for i, c := range m.Coins {
		keys[i] = c.Key
	}
	return strings.Join(keys, ", ")
}
