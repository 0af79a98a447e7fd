package bot

import (
	"context"
	"strconv"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// /item add|remove|equip|unequip|state|give (SPEC 8.1): a player's own changes to their
// character's inventory, each the inventory tag a GM would write, applied through the
// same actions (inventory_actions.go) and recorded as a reply with an Undo button, as
// /use is. A player changes only their own inventory and only as the system lets a
// player (no state only the GM switches, nothing a layer locks); a GM changes anyone's,
// and overrides.

// actor is who an inventory tag acts as.
type actor int

const (
	actorTag    actor = iota // a GM's message: states by their own rules, GM states as the GM's
	actorPlayer              // a player's /item: only what a player may switch
	actorGM                  // a GM's /item: the GM's override on every state
)

// itemCommands adds the /item commands.
func itemCommands(r *router) {
	name := OptionSpec{Name: "name", Description: "The character (default: yours in this game)", Type: "string"}
	item := OptionSpec{Name: "item", Description: "The item, by name", Type: "string", Required: true}
	count := OptionSpec{Name: "count", Description: "How many (default 1)", Type: "integer"}
	for _, sc := range []struct {
		op, what string
		extra    []OptionSpec
		choices  func(*Core, storage.Tx, *acQuery) ([]Choice, error)
	}{
		{"add", "Add an item of the campaign's catalog to a character's inventory", []OptionSpec{count}, (*Core).catalogItemChoices},
		{"remove", "Take an item out of a character's inventory", []OptionSpec{count}, (*Core).heldItemChoices},
		{"equip", "Equip an item (it takes its place in a slot)", nil, (*Core).heldItemChoices},
		{"unequip", "Unequip an item", nil, (*Core).heldItemChoices},
		{"state", "Switch a state of an item on or off (attuned, identified…)", []OptionSpec{
			{Name: "key", Description: "The state, by key or label", Type: "string", Required: true},
			{Name: "state", Description: "on or off", Type: "string", Required: true, Choices: []Choice{{Name: "on", Value: "on"}, {Name: "off", Value: "off"}}},
		}, (*Core).heldItemChoices},
		{"give", "Give an item to another character", []OptionSpec{
			{Name: "to", Description: "Who receives it", Type: "string", Required: true}, count,
		}, (*Core).heldItemChoices},
	} {
		opts := append([]OptionSpec{item}, sc.extra...)
		rt := r.command(CommandSpec{Name: "item " + sc.op, Description: sc.what, Options: append(opts, name)}, itemHandler(sc.op)).
			complete("item", sc.choices).
			complete("name", (*Core).gameCardChoices)
		switch sc.op {
		case "state":
			rt.complete("key", (*Core).stateChoices)
		case "give":
			rt.complete("to", (*Core).gameCardChoices)
		}
	}
}

// itemHandler is the handler of /item <op>.
func itemHandler(op string) func(*Core, context.Context, Command) (Response, error) {
	return func(c *Core, ctx context.Context, cmd Command) (Response, error) {
		var resp Response
		err := c.store.Update(ctx, func(tx storage.Tx) error {
			t, err := c.channelTable(tx, cmd.ChannelID)
			if err != nil {
				return err
			}
			resp, err = c.itemAction(tx, t, op, cmd)
			return err
		})
		return c.withRules(ctx, cmd.ChannelID, resp, err)
	}
}

// itemAction runs /item <op> as cmd gives it on the table t, in t's transaction: the
// one way a player's own inventory change is made, from the command or from a panel's
// button (panel_request.go).
func (c *Core) itemAction(tx storage.Tx, t *table, op string, cmd Command) (Response, error) {
	rec, err := inventoryCard(t.records, t.camp, cmd, "changes")
	if err != nil {
		return Response{}, err
	}
	t.actor = actorPlayer
	if isGM(t.camp, cmd.User) {
		t.actor = actorGM
	}
	tag := itemTag(op, rec.Card.Name, cmd)
	what := op + " " + strings.TrimSpace(cmd.Get("item"))
	if op == "state" {
		what = "switch " + strings.TrimSpace(cmd.Get("key")) + " " + strings.ToLower(cmd.Get("state")) + " on " + strings.TrimSpace(cmd.Get("item"))
	}
	return c.playTag(tx, t, cmd, tag, rec.Card.Name+" cannot "+what)
}

// itemTag is the inventory tag /item <op> stands for; a panel's button (requestCommand)
// also names the entry by uid, which the tag says after the rest, as the parser reads it.
func itemTag(op, who string, cmd Command) parser.Tag {
	tag := parser.Tag{Kind: parser.Inventory, Op: op, Who: who, Attrs: []parser.Attr{{Key: "item", Value: strings.TrimSpace(cmd.Get("item"))}}}
	if op == "state" {
		tag = withAttrs(tag, "key", strings.TrimSpace(cmd.Get("key")), "state", strings.ToLower(strings.TrimSpace(cmd.Get("state"))))
		return withUID(tag, cmd)
	}
	n, err := strconv.Atoi(strings.TrimSpace(cmd.Get("count")))
	if err != nil || n < 1 {
		n = 1
	}
	tag = withAttrs(tag, "count", strconv.Itoa(min(n, parser.MaxCount)))
	if op == "give" {
		tag = withAttrs(tag, "to", strings.TrimSpace(cmd.Get("to")))
	}
	if op == "add" {
		return tag // an add makes rows; it names none
	}
	return withUID(tag, cmd)
}

// withUID is t saying uid= when cmd names an entry by uid.
func withUID(t parser.Tag, cmd Command) parser.Tag {
	if uid := strings.TrimSpace(cmd.Get("uid")); uid != "" {
		return withAttrs(t, "uid", uid)
	}
	return t
}

func withAttrs(t parser.Tag, kv ...string) parser.Tag {
	for i := 0; i+1 < len(kv); i += 2 {
		t.Attrs = append(t.Attrs, parser.Attr{Key: kv[i], Value: kv[i+1]})
	}
	return t
}

// maxItemChoices is how many choices Discord shows.
const maxItemChoices = 25

// catalogItemChoices offers the campaign system's catalog items whose names hold what
// is typed, those starting with it first.
func (c *Core) catalogItemChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	p, err := c.quickSystem(tx, q)
	if err != nil || p == nil {
		return nil, nil
	}
	want := ruleset.FoldName(q.typed)
	var first, then []Choice
	for _, it := range p.camp.System.Catalog {
		n := ruleset.FoldName(it.Name)
		switch {
		case strings.HasPrefix(n, want):
			first = append(first, choiceOf(it.Name, it.Name))
		case strings.Contains(n, want) && len(then) < maxItemChoices:
			then = append(then, choiceOf(it.Name, it.Name))
		}
		if len(first) >= maxItemChoices {
			break
		}
	}
	out := append(first, then...)
	return out[:min(len(out), maxItemChoices)], nil
}

// heldItemChoices offers what the character (name:, else the user's own) holds, to whom
// /inventory shows it (inventoryCard: its player or a GM); anyone else is offered
// nothing, so typing cannot read an inventory the command refuses.
func (c *Core) heldItemChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.holdingChoices(tx, q, true)
}

// holdingChoices offers what q's character holds whose names hold what is typed; guarded,
// only to its player or a GM.
func (c *Core) holdingChoices(tx storage.Tx, q *acQuery, guarded bool) ([]Choice, error) {
	p, err := c.quickSystem(tx, q)
	if err != nil || p == nil {
		return nil, nil
	}
	camp, err := tx.Campaign(q.a.ChannelID)
	if err != nil {
		return nil, err
	}
	records, err := tx.GameCards(q.a.ChannelID)
	if err != nil {
		return nil, err
	}
	cmd := Command{User: q.a.User, ChannelID: q.a.ChannelID, Options: []Option{{Name: "name", Value: q.get("name")}}}
	var rec *storage.CardRecord
	if guarded {
		rec, err = inventoryCard(records, camp, cmd, "reads")
	} else {
		rec, err = findCard(records, q.get("name"))
	}
	if err != nil {
		return nil, nil // refused: nothing to offer
	}
	h, ps := p.camp.Restore(rec.Inventory)
	if len(ps) > 0 {
		return nil, nil
	}
	want := ruleset.FoldName(q.typed)
	seen := map[string]bool{}
	var out []Choice
	for _, e := range h.Inv {
		n := p.camp.Now(e).Name
		if seen[n] || !strings.Contains(ruleset.FoldName(n), want) {
			continue
		}
		seen[n] = true
		label := n
		if e.Equipped {
			label += " (equipped)"
		}
		if out = append(out, choiceOf(label, n)); len(out) == maxItemChoices {
			break
		}
	}
	return out, nil
}

// stateChoices offers the campaign's item states.
func (c *Core) stateChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	p, err := c.quickSystem(tx, q)
	if err != nil || p == nil {
		return nil, nil
	}
	var out []Choice
	for _, st := range p.camp.States {
		if strings.Contains(ruleset.FoldName(st.Label), ruleset.FoldName(q.typed)) && len(out) < maxItemChoices {
			out = append(out, choiceOf(st.Label, st.Key))
		}
	}
	return out, nil
}

// quickSystem is the system the channel's campaign plays its inventories on, for a
// completer (nil: none).
func (c *Core) quickSystem(tx storage.Tx, q *acQuery) (*played, error) {
	camp, err := tx.Campaign(q.a.ChannelID)
	if err != nil {
		return nil, err
	}
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, err
	}
	return c.playedSystem(tx, camp, l)
}
