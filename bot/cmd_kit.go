package bot

import (
	"context"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// /character kit add|remove|equip|unequip|show|clear (issue 16): a player writes the
// starting kit of one of their library cards, which /character join copies (kit.go).
//
// A kit is held to one game system, as a game card's holdings are: the one system: names
// when the kit is begun, else the library card's ruleset's own items. Every change is the
// inventory tag /item would play, applied by the same engine actions (inventory_tags.go)
// to the kit alone, all or nothing, so a kit holds only what that system lets a
// character hold (its catalog, its slots, its bounds). It is a library card's, so it
// works in any channel, needs no campaign and records no reply: a change is undone by
// its opposite (remove what was added).

// kitCommands adds the /character kit commands.
func kitCommands(r *router) {
	name := OptionSpec{Name: "name", Description: "Your character (a library card)", Type: "string", Required: true}
	item := OptionSpec{Name: "item", Description: "The item, by name", Type: "string", Required: true}
	count := OptionSpec{Name: "count", Description: "How many (default 1)", Type: "integer"}
	system := OptionSpec{Name: "system", Description: "The game system the kit is for (default: the one it is for, else the ruleset's own items)", Type: "string"}
	for _, sc := range []struct {
		op, what string
		extra    []OptionSpec
	}{
		{"add", "Put an item of the kit's system into a character's starting kit", []OptionSpec{count, system}},
		{"remove", "Take an item out of a character's starting kit", []OptionSpec{count}},
		{"equip", "Start with an item of the kit equipped", nil},
		{"unequip", "Start with an item of the kit not equipped", nil},
	} {
		r.command(CommandSpec{Name: "character kit " + sc.op, Description: sc.what, Options: append([]OptionSpec{name, item}, sc.extra...)}, kitHandler(sc.op)).
			complete("name", (*Core).libraryChoices).
			complete("item", (*Core).kitItemChoices)
	}
	r.command(CommandSpec{Name: "character kit show", Description: "Show a character's starting kit (only you see it)", Options: []OptionSpec{name}}, (*Core).cmdKitShow).
		complete("name", (*Core).libraryChoices)
	r.command(CommandSpec{Name: "character kit clear", Description: "Empty a character's starting kit (and free it for another system)", Options: []OptionSpec{name}}, (*Core).cmdKitClear).
		complete("name", (*Core).libraryChoices)
}

// kitTable is a library card's kit opened for changing: the card alone at a table of its
// ruleset, played on the kit's system, as the player.
type kitTable struct {
	lib *storage.CardRecord
	t   *table
	// system is the kit's system id ("" for the ruleset's items).
	system string
}

// openKit opens cmd's user's library card name: for its kit's system, or for want (a
// system's id) when given.
func (c *Core) openKit(tx storage.Tx, cmd Command, want string) (*kitTable, error) {
	lib, err := tx.LibraryCard(cmd.User.ID, cmd.Get("name"))
	if storage.KindOf(err) == storage.NotFound {
		return nil, unknownCard(tx, "", cmd.User, strings.TrimSpace(cmd.Get("name")), "you have no character called %s%s (make one with /character create)")
	}
	if err != nil {
		return nil, err
	}
	l, err := c.rules(tx, cmd.GuildID, lib.Card.Ruleset)
	if err != nil {
		return nil, err
	}
	system := lib.KitSystem
	if want != "" && want != system {
		if lib.Inventory != nil && len(lib.Inventory.Items) > 0 {
			return nil, refusal.New(refusal.NotAllowed, "%s's starting kit is for %s: `/character kit clear name:%s` empties it before you build one for %s", lib.Card.Name, kitSystemName(system), lib.Card.Name, want)
		}
		system = want
	}
	var p *played
	if system != "" {
		p, err = c.namedSystem(tx, cmd.GuildID, system, 0)
	} else if l.Ruleset.Items != nil {
		p, err = c.buildSystem(playedKey{rules: l}, "")
	} else {
		err = refusal.New(refusal.NotEnabled, "%s's ruleset %s has no items of its own: name the kit's game system with system:<id>", lib.Card.Name, l.ID)
	}
	if err != nil {
		return nil, err
	}
	records := []*storage.CardRecord{lib}
	t := &table{rules: l, catalogs: c.catalogs(l), records: records, cards: cardsOf(records), dirty: map[*storage.CardRecord]bool{}, dice: c.dice, inv: p, actor: actorPlayer}
	return &kitTable{lib: lib, t: t, system: system}, nil
}

// kitSystemName names a kit's system for a sentence.
func kitSystemName(system string) string {
	if system == "" {
		return "the ruleset's own items"
	}
	return "the game system " + system
}

// kitHandler is the handler of /character kit <op>.
func kitHandler(op string) func(*Core, context.Context, Command) (Response, error) {
	return func(c *Core, ctx context.Context, cmd Command) (Response, error) {
		var resp Response
		err := c.store.Update(ctx, func(tx storage.Tx) error {
			k, err := c.openKit(tx, cmd, strings.TrimSpace(cmd.Get("system")))
			if err != nil {
				return err
			}
			tag := itemTag(op, k.lib.Card.Name, cmd)
			done := k.t.apply([]parser.Tag{tag}, k.lib.Card.Name)
			if out := done[0].res.Outcome; !out.OK() {
				return refusal.New(out.Reason, "%s's starting kit cannot %s %s: %s", k.lib.Card.Name, op, strings.TrimSpace(cmd.Get("item")), plain(out.Err()))
			}
			k.lib.KitSystem, k.lib.UpdatedAt = k.system, c.Now()
			if err := tx.PutLibraryCard(k.lib); err != nil {
				return err
			}
			resp = Response{Ephemeral: true, Content: k.lib.Card.Name + "'s starting kit, on " + k.t.inv.from + ": " + inventoryPhrase(tag) + " → " + done[0].res.Outcome.Now +
				". `/character kit show name:" + k.lib.Card.Name + "` shows it; `/character join` brings it into a game on that system."}
			return nil
		})
		return resp, err
	}
}

// cmdKitShow answers /character kit show: the kit as /inventory shows holdings.
func (c *Core) cmdKitShow(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		k, err := c.openKit(tx, cmd, "")
		if err != nil {
			return err
		}
		camp := k.t.inv.camp
		h, ps := camp.Restore(k.lib.Inventory)
		if len(ps) > 0 {
			return refusal.New(refusal.Malformed, "%s's starting kit does not fit %s: %v", k.lib.Card.Name, k.t.inv.from, ps.Head(1))
		}
		s := &shownInventory{c: camp, rec: k.lib, h: h, load: camp.Carried(h.Inv, h.Purse), local: k.t.locals(k.lib)}
		e := s.embed()
		e.Title = k.lib.Card.Name + " — starting kit"
		e.Footer = "For " + k.t.inv.from + ": /character join copies it into a game on that system."
		resp = Response{Embeds: []Embed{e}, Ephemeral: true}
		return nil
	})
	return resp, err
}

// cmdKitClear answers /character kit clear.
func (c *Core) cmdKitClear(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		lib, err := tx.LibraryCard(cmd.User.ID, cmd.Get("name"))
		if storage.KindOf(err) == storage.NotFound {
			return unknownCard(tx, "", cmd.User, strings.TrimSpace(cmd.Get("name")), "you have no character called %s%s (make one with /character create)")
		}
		if err != nil {
			return err
		}
		lib.Inventory, lib.KitSystem, lib.UpdatedAt = nil, "", c.Now()
		if err := tx.PutLibraryCard(lib); err != nil {
			return err
		}
		resp = Response{Ephemeral: true, Content: lib.Card.Name + "'s starting kit is empty."}
		return nil
	})
	return resp, err
}

// kitItemChoices offers, for add, the items of the kit's system (system: when typed)
// whose names hold what is typed; for the others, what the kit holds.
func (c *Core) kitItemChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	cmd := Command{User: q.a.User, GuildID: q.a.GuildID, Options: []Option{{Name: "name", Value: q.get("name")}}}
	k, err := c.openKit(tx, cmd, strings.TrimSpace(q.get("system")))
	if err != nil {
		return nil, nil
	}
	var names []string
	if strings.HasSuffix(q.cmd, " add") {
		for _, it := range k.t.inv.camp.System.Catalog {
			names = append(names, it.Name)
		}
	} else if h, ps := k.t.inv.camp.Restore(k.lib.Inventory); len(ps) == 0 {
		for _, e := range h.Inv {
			names = append(names, k.t.inv.camp.Now(e).Name)
		}
	}
	return nameChoices(names, q.typed), nil
}

// nameChoices are the distinct names holding typed, those starting with it first, at
// most maxItemChoices.
func nameChoices(names []string, typed string) []Choice {
	want := ruleset.FoldName(typed)
	seen := map[string]bool{}
	var first, then []Choice
	for _, n := range names {
		f := ruleset.FoldName(n)
		if seen[f] || !strings.Contains(f, want) {
			continue
		}
		seen[f] = true
		if strings.HasPrefix(f, want) {
			first = append(first, choiceOf(n, n))
		} else {
			then = append(then, choiceOf(n, n))
		}
	}
	out := append(first, then...)
	return out[:min(len(out), maxItemChoices)]
}
