package bot

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /inventory (SPEC 8.1): a character's holdings as the embed a player wants (equipped
// and carried, containers nested, weight against the limit, purse, states, charges,
// limited states' counts), or as one JSON object (SPEC 8.2's console style). A player
// sees their own; the GM sees every inventory.

// inventoryCommands adds /inventory.
func inventoryCommands(r *router) {
	r.command(CommandSpec{
		Name:        "inventory",
		Description: "Show a character's inventory and purse (only you see it)",
		Options: []OptionSpec{
			{Name: "name", Description: "The character (default: yours in this game)", Type: "string"},
			{Name: "format", Description: "text (default) or json", Type: "string",
				Choices: []Choice{{Name: "text", Value: "text"}, {Name: "json", Value: "json"}}},
		},
	}, (*Core).cmdInventory).
		complete("name", (*Core).gameCardChoices)
}

// shownInventory is one character's holdings restored for showing.
type shownInventory struct {
	c    *inventory.Campaign
	rec  *storage.CardRecord
	h    *inventory.Held
	load inventory.Load
	// limit is what the character can carry (nil: no limit the sheet says).
	limit *float64
	local func(string) (float64, bool)
}

func (c *Core) cmdInventory(ctx context.Context, cmd Command) (Response, error) {
	format := strings.ToLower(strings.TrimSpace(cmd.Get("format")))
	if format != "" && format != "text" && format != "json" {
		return Response{}, refusal.New(refusal.NotAllowed, "format is text or json")
	}
	var resp Response
	var panels *inventoryPanelCall
	err := c.store.View(ctx, func(tx storage.Tx) error {
		t, err := c.inventoryTable(tx, cmd.ChannelID, "nothing to show")
		if err != nil {
			return err
		}
		camp := t.camp
		rec, err := inventoryCard(t.records, camp, cmd, "sees")
		if err != nil {
			return err
		}
		h, err := restoreHeld(t.inv.camp, rec)
		if err != nil {
			return err
		}
		s := &shownInventory{c: t.inv.camp, rec: rec, h: h, load: t.inv.camp.Carried(h.Inv, h.Purse), local: t.locals(rec)}
		s.limit = carryLimit(t.rules.Ruleset, rec.Card, t.holdings(rec))
		if format == "json" {
			data, err := json.Marshal(s.json())
			if err != nil {
				return err
			}
			resp = Response{Content: string(data), Ephemeral: true}
			return nil
		}
		resp = Response{Embeds: []Embed{s.embed()}, Ephemeral: true}
		panels = c.inventoryPanelsOf(t, rec, h, cmd.User)
		return nil
	})
	if err != nil || panels == nil {
		return resp, err
	}
	// The panels run once the transaction is over: they are untrusted and slow.
	embeds, rows := c.inventoryPanels(ctx, panels)
	resp.Embeds, resp.Components = append(resp.Embeds, embeds...), rows
	return resp, nil
}

// inventoryCard is the card whose inventory cmd reaches: name: when given (the
// invoker's own, or any for a GM), else the invoker's one card in the campaign. verb
// says what a refusal says only its player or a GM does to it ("sees", "changes").
func inventoryCard(records []*storage.CardRecord, camp *storage.Campaign, cmd Command, verb string) (*storage.CardRecord, error) {
	name := strings.TrimSpace(cmd.Get("name"))
	if name == "" {
		return ownCard(records, camp, cmd)
	}
	rec, err := findCard(records, name)
	if err != nil {
		return nil, err
	}
	if rec.OwnerID != cmd.User.ID && !isGM(camp, cmd.User) {
		return nil, refusal.New(refusal.NotAllowed, "%s is not your character: only its player or a GM %s its inventory", rec.Card.Name, verb)
	}
	return rec, nil
}

// carryLimit is the most a card can carry by its ruleset's carry block (nil: no limit),
// on the sheet its holdings h leave (a worn item may set the ability the limit reads;
// the limit itself may not read itemStat).
func carryLimit(rs *ruleset.Ruleset, card *sheet.Card, h *inventory.Holdings) *float64 {
	if rs.Items == nil || rs.Items.Carry == nil || rs.Items.Carry.Limit == nil {
		return nil
	}
	n := evaluate(rs, card, h).Ref(rs.Items.Carry.Limit)
	return &n
}

// inventoryJSON is /inventory format:json.
type inventoryJSON struct {
	Name   string `json:"name"`
	System struct {
		ID      string  `json:"id"`
		Version float64 `json:"version"`
	} `json:"system"`
	Purse map[string]int64 `json:"purse"`
	// Worth is the purse and the gear together, in the smallest coin.
	Worth  int64 `json:"worth"`
	Weight struct {
		Carried float64  `json:"carried"`
		Limit   *float64 `json:"limit"`
		Unit    string   `json:"unit"`
	} `json:"weight"`
	Items []itemJSON `json:"items"`
}

type itemJSON struct {
	UID      string   `json:"uid"`
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Qty      int64    `json:"qty"`
	Equipped bool     `json:"equipped"`
	States   []string `json:"states"`
	Charges  *int64   `json:"charges,omitempty"`
	In       string   `json:"in,omitempty"`
}

func (s *shownInventory) json() inventoryJSON {
	sys, m := s.c.System, s.c.System.Money()
	out := inventoryJSON{Name: s.rec.Card.Name, Purse: m.Map(s.h.Purse), Items: []itemJSON{}}
	out.System.ID, out.System.Version = sys.ID, sys.Version
	tot := s.c.Totals(s.h.Inv, s.h.Purse)
	out.Worth = tot.CoinsWorth + tot.GearWorth
	out.Weight.Carried, out.Weight.Limit, out.Weight.Unit = shownWeight(s.load.Carried), s.limit, sys.WeightUnit(s.load.Carried)
	for _, e := range s.h.Inv {
		it := itemJSON{UID: e.UID, ID: e.Item.ID, Name: s.c.Now(e).Name, Qty: e.Qty, Equipped: e.Equipped, States: s.statesOn(e), In: e.Parent}
		if s.c.MaxCharges(e) > 0 {
			n := e.Charges
			it.Charges = &n
		}
		out.Items = append(out.Items, it)
	}
	return out
}

// statesOn is the keys of an entry's states that are on, in the campaign's order.
func (s *shownInventory) statesOn(e *inventory.Entry) []string {
	out := []string{}
	for _, st := range s.c.States {
		if e.On(st.Key) {
			out = append(out, st.Key)
		}
	}
	return out
}

// shownWeight is a load as a person reads it, to a thousandth of the unit: a sum of
// decimal weights in binary floating point leaves tails (15.299999999999999) no
// player wrote.
func shownWeight(w float64) float64 { return math.Round(w*1000) / 1000 }

// embed is the readable inventory: what is equipped, what is carried (containers with
// what is inside them beneath), the load, the purse and the limited states' use.
func (s *shownInventory) embed() Embed {
	sys, m := s.c.System, s.c.System.Money()
	e := Embed{Title: s.rec.Card.Name + " — inventory", Color: colorOK}
	var worn, carried []string
	for _, x := range s.h.Inv {
		if x.Equipped {
			worn = append(worn, "• "+s.line(x))
			if x.UID != "" {
				s.nest(&worn, x.UID, 1) // a worn pack's contents are still carried, in it
			}
		}
	}
	s.nest(&carried, "", 0)
	e.Fields = append(e.Fields, EmbedField{Name: "Equipped", Value: orNothing(worn)}, EmbedField{Name: "Carried", Value: orNothing(carried)})
	weight := numText(shownWeight(s.load.Carried))
	if s.limit != nil {
		weight += " / " + numText(*s.limit)
	}
	weight += " " + sys.WeightUnit(s.load.Carried)
	purse := purseWords(m, s.h.Purse)
	if worth := m.Format(m.Worth(s.h.Purse)); worth != purse && m.Worth(s.h.Purse) > 0 {
		purse += " (worth " + worth + ")"
	}
	e.Fields = append(e.Fields, EmbedField{Name: "Weight", Value: weight, Inline: true}, EmbedField{Name: "Purse", Value: purse, Inline: true})
	var limits []string
	for _, sc := range s.c.Limits(s.h.Inv, s.local) {
		limits = append(limits, strings.ToLower(s.c.State(sc.Key).Label)+" "+strconv.FormatInt(sc.Count, 10)+"/"+strconv.FormatInt(sc.Limit, 10))
	}
	if len(limits) > 0 {
		e.Fields = append(e.Fields, EmbedField{Name: "Limits", Value: strings.Join(limits, " · "), Inline: true})
	}
	return e
}

// nest lists the entries inside box ("" for the loose unequipped ones: the equipped are
// listed apart, with what is in them nested beneath), each container's contents
// beneath it, indented (at most inventory.MaxNesting deep).
func (s *shownInventory) nest(out *[]string, box string, depth int) {
	if depth > inventory.MaxNesting {
		return
	}
	for _, x := range s.h.Inv {
		if x.Parent != box || x.Equipped && box == "" {
			continue
		}
		*out = append(*out, strings.Repeat("  ", depth)+"• "+s.line(x))
		if x.UID != "" {
			s.nest(out, x.UID, depth+1)
		}
	}
}

// line is one entry: its name as it is now, how many, its states and charges.
func (s *shownInventory) line(x *inventory.Entry) string {
	l := s.c.Now(x).Name
	if x.Qty != 1 {
		l += " ×" + strconv.FormatInt(x.Qty, 10)
	}
	var notes []string
	for _, k := range s.statesOn(x) {
		notes = append(notes, strings.ToLower(s.c.State(k).Label))
	}
	if max := s.c.MaxCharges(x); max > 0 {
		notes = append(notes, strconv.FormatInt(x.Charges, 10)+"/"+strconv.FormatInt(max, 10)+" charges")
	}
	if len(notes) > 0 {
		l += " (" + strings.Join(notes, ", ") + ")"
	}
	return l
}

func orNothing(lines []string) string {
	if len(lines) == 0 {
		return "nothing"
	}
	return strings.Join(lines, "\n")
}
