package bot

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/panel"
	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// What a panel asks for (PackRat.request, issue 17) is played only when the player asks
// for it. In Pack Rat a panel calls request from a button's click handler; here a panel
// runs once to draw, so each request it made becomes a button under the /inventory it
// was drawn for, shown only to the character's player. Pressing it runs the /item
// action it stands for (itemAction) as that player, with every check /item makes and an
// Undo button; anyone else pressing it is refused and nothing changes.
//
// The requests that map onto /item are Pack Rat's equip ({uid, on}), setState ({uid,
// key, on}) and changeQty ({uid, delta}); the others (setStat, setValue, openItem,
// openCoins) have no /item action and stay listed as not done. A button names the
// entry by uid, and the action is played on that entry when pressed (the tag says its
// uid=, since two entries may share a name and a name finds the first), so an entry
// gone since the panel drew is refused not-held. The uid is looked for only in the
// pressing player's own character's holdings, so a forged one reaches nothing else.

// panelRequestID is a panel request's button: op (equip, unequip, on, off, add,
// remove), the entry's uid, the op's argument (a state key, a count; "" for none) and
// the card's name.
var panelRequestID = componentKind{name: "panel:request", arity: 4}

// maxRequestButtons is how many request buttons one answer has: Discord's five rows of
// five.
const maxRequestButtons = 25

func panelRequestComponents(r *router) {
	r.component(panelRequestID, (*Core).panelRequestClick)
}

// requestButton is the button a panel's request rq becomes on rec's holdings h; false
// when it has none (an action /item has no equal, an entry h does not hold, arguments
// that do not read, an id that would not fit).
func requestButton(c *inventory.Campaign, rec *storage.CardRecord, h *inventory.Held, rq panel.Request) (Button, bool) {
	uid, _ := rq.Args["uid"].(string)
	var e *inventory.Entry
	for _, x := range h.Inv {
		if x.UID == uid {
			e = x
		}
	}
	if e == nil || strings.Contains(uid, ":") {
		return Button{}, false
	}
	name := c.Now(e).Name
	var op, arg, label string
	switch rq.Action {
	case "equip":
		op = "equip"
		if on, ok := rq.Args["on"].(bool); (ok && !on) || (!ok && e.Equipped) {
			op = "unequip"
		}
		label = strings.ToUpper(op[:1]) + op[1:] + " " + name
	case "setState":
		key, _ := rq.Args["key"].(string)
		st := c.State(key)
		if st == nil || strings.Contains(key, ":") {
			return Button{}, false
		}
		on, _ := rq.Args["on"].(bool)
		op, arg = onOff(on), key
		label = name + ": " + st.Label + " " + op
	case "changeQty":
		d, ok := rq.Args["delta"].(float64)
		if !ok || d == 0 || d != math.Trunc(d) || math.Abs(d) > parser.MaxCount {
			return Button{}, false
		}
		op, arg = "add", strconv.Itoa(int(d))
		label = "+" + arg + " " + name
		if d < 0 {
			op, arg = "remove", strconv.Itoa(int(-d))
			label = "−" + arg + " " + name
		}
	default:
		return Button{}, false
	}
	if len(rec.Card.Name) > panelRequestID.room(op, uid, arg) {
		return Button{}, false
	}
	return Button{CustomID: panelRequestID.encode(op, uid, arg, rec.Card.Name), Label: clipRunes(label, 80), Style: "secondary"}, true
}

// requestRows are the buttons of the panels' requests for rec's player (nil for anyone
// else, who sees them listed), each once, at most maxRequestButtons.
func requestRows(c *inventory.Campaign, rec *storage.CardRecord, h *inventory.Held, prs []panelResult) []Row {
	var rows []Row
	seen := map[string]bool{}
	n := 0
	for _, pr := range prs {
		for _, rq := range pr.r.Requests {
			b, ok := requestButton(c, rec, h, rq)
			if !ok || seen[b.CustomID] || n == maxRequestButtons {
				continue
			}
			seen[b.CustomID] = true
			if n%5 == 0 {
				rows = append(rows, Row{})
			}
			rows[len(rows)-1].Buttons = append(rows[len(rows)-1].Buttons, b)
			n++
		}
	}
	return rows
}

// unbuttoned is r with only the requests that have no button for rec's player left
// (all of them when buttons is false), for requestWords to list as not done.
func unbuttoned(c *inventory.Campaign, rec *storage.CardRecord, h *inventory.Held, r panel.Result, buttons bool) panel.Result {
	if !buttons {
		return r
	}
	var left []panel.Request
	for _, rq := range r.Requests {
		if _, ok := requestButton(c, rec, h, rq); !ok {
			left = append(left, rq)
		}
	}
	r.Requests = left
	return r
}

// panelRequestClick plays a panel's request as the /item action it stands for, for the
// card's player only.
func (c *Core) panelRequestClick(ctx context.Context, comp Component, args []string) (Response, error) {
	op, uid, arg, name := args[0], args[1], args[2], args[3]
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.channelTable(tx, comp.ChannelID)
		if err != nil {
			return err
		}
		rec, err := findCard(t.records, name)
		if err != nil {
			return err
		}
		if rec.OwnerID != comp.User.ID {
			return refusal.New(refusal.NotAllowed, "this button is %s's: only their player plays what their panels ask for", rec.Card.Name)
		}
		if t.inv == nil {
			return t.noInventory("nothing for a panel to ask")
		}
		cmd, err := requestCommand(t.inv.camp, rec, comp, op, uid, arg)
		if err != nil {
			return err
		}
		resp, err = c.itemAction(tx, t, strings.TrimPrefix(cmd.Name, "item "), cmd)
		return err
	})
	return c.withRules(ctx, comp.ChannelID, resp, err)
}

// requestCommand is the /item command a request button stands for, naming the entry
// uid by its name now and by its uid (an option no /item command offers, so only a
// button sets it), so the entry acted on is that one; an add adds the catalog item.
func requestCommand(c *inventory.Campaign, rec *storage.CardRecord, comp Component, op, uid, arg string) (Command, error) {
	h, err := restoreHeld(c, rec)
	if err != nil {
		return Command{}, err
	}
	var item, itemID string
	for _, e := range h.Inv {
		if e.UID == uid {
			item, itemID = c.Now(e).Name, e.Item.ID
		}
	}
	if item == "" {
		return Command{}, refusal.New(refusal.NotHeld, "%s no longer holds the item the panel showed: draw /inventory again", rec.Card.Name)
	}
	cmd := Command{User: comp.User, ChannelID: comp.ChannelID, GuildID: comp.GuildID,
		Options: []Option{{Name: "name", Value: rec.Card.Name}, {Name: "item", Value: item}}}
	switch op {
	case "equip", "unequip":
		cmd.Name = "item " + op
	case "on", "off":
		cmd.Name = "item state"
		cmd.Options = append(cmd.Options, Option{Name: "key", Value: arg}, Option{Name: "state", Value: op})
	case "add", "remove":
		cmd.Name = "item " + op
		cmd.Options = append(cmd.Options, Option{Name: "count", Value: arg})
		if op == "add" {
			// More of the same: the catalog item by its id (a name may be a layer's).
			cmd.Options[1].Value = itemID
			return cmd, nil
		}
	default:
		return Command{}, refusal.New(refusal.Malformed, "%q is not an action a panel's button plays", op)
	}
	cmd.Options = append(cmd.Options, Option{Name: "uid", Value: uid})
	return cmd, nil
}

// requestArgsJSON is a request's arguments as a short JSON text for its line.
func requestArgsJSON(rq panel.Request) string {
	args, _ := json.Marshal(rq.Args)
	return clipRunes(strings.ReplaceAll(string(args), "`", "'"), maxBlockValue)
}
