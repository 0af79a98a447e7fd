package bot

import (
	"encoding/json"
	"maps"

	"sheetkeeper/inventory"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// A character's starting kit (SPEC 7, issue 16): what /character join puts in the new
// game card's inventory.
//
// The shape is the least that holds one: a library card's record keeps its kit in the
// field a game card keeps its holdings in (storage.CardRecord.Inventory), in the stored
// shape of the system it is held to (CardRecord.KitSystem: a system's id, or "" for the
// card's ruleset's own items), which a player writes it on with /character kit
// (cmd_kit.go). Joining copies it when it fits the campaign's system: the campaign plays
// the system the kit was built on, and every item is one that system has. A kit that
// does not fit is left behind, and the card starts with nothing rather than with part
// of it: the kit was checked against its own system's rules (slots, limits), which
// another system's same names need not share.
//
// A card that brings no kit into a game on a Pack Rat system of its own starts as Pack
// Rat's first character does: with the system's showcase (a pack with rations and
// arrows in it, a compass, playing cards… unless the system says `showcase: false`),
// for the first character of the game only, as Pack Rat gives it to a new install's
// first character. A ruleset's items have no showcase.

// startingKit is what a game card joined from lib into camp starts with (nil: nothing),
// and whether lib's kit was left behind because it does not fit.
func (c *Core) startingKit(tx storage.Tx, camp *storage.Campaign, l *ruleset.Loaded, lib *storage.CardRecord) (*inventory.Stored, bool, error) {
	p, err := c.playedSystem(tx, camp, l)
	if err != nil || p == nil {
		// No inventory (or one that cannot be read): nothing to start with; the kit
		// stays on the library card for another game.
		return nil, lib.Inventory != nil, nil
	}
	if lib.Inventory != nil {
		if lib.KitSystem != camp.System {
			return nil, true, nil
		}
		if _, ps := p.camp.Restore(lib.Inventory); len(ps) > 0 {
			return nil, true, nil
		}
		return lib.Inventory.Clone(), false, nil
	}
	if camp.System == "" {
		return nil, false, nil
	}
	others, err := tx.GameCards(camp.ChannelID)
	if err != nil || len(cardRecords(others)) > 0 {
		return nil, false, err
	}
	return showcaseKit(p.camp), false, nil
}

// showcaseKit is the system's showcase as stored holdings; nil when it has none. The
// showcase's items are made as a player's own are, so each is kept with what it was
// made from; one that does not read back is left out, as Showcase leaves out one the
// system will not take.
func showcaseKit(c *inventory.Campaign) *inventory.Stored {
	h := c.NewHeld()
	for _, e := range c.Showcase(h.NewUID) {
		data, err := json.Marshal(ownItemJSON(e.Item))
		if err != nil {
			continue
		}
		if err := h.Own(e.Item, data); err != nil {
			continue
		}
		h.Inv = append(h.Inv, e)
	}
	if len(h.Inv) == 0 {
		return nil
	}
	st, err := c.Keep(h)
	if err != nil {
		return nil
	}
	if _, ps := c.Restore(st); len(ps) > 0 {
		return nil
	}
	return st
}

// ownItemJSON is a player's own item as its JSON: what Showcase made it from (its id,
// template, name, weight, description, features and fields).
func ownItemJSON(it *inventory.Item) map[string]any {
	m := map[string]any{"id": it.ID, "type": it.Type, "name": it.Name, "weight": it.Weight}
	if it.Description != "" {
		m["description"] = it.Description
	}
	if len(it.Features) > 0 {
		m["features"] = maps.Clone(it.Features)
	}
	for k, v := range it.Fields {
		if _, set := m[k]; !set {
			m[k] = v
		}
	}
	return m
}

// kitWords is what a joined card's answer says of its kit: " They start with 7 things
// (`/inventory` shows them)."; "" for nothing. A kit left behind (left) was made for
// system (a KitSystem).
func kitWords(st *inventory.Stored, left bool, system string) string {
	switch {
	case left:
		return " Their starting kit stays on their library card: it is for " + kitSystemName(system) + ", and this game's inventory cannot hold it."
	case st == nil || len(st.Items) == 0:
		return ""
	}
	return " They start with " + plural(len(st.Items), "thing", "things") + " (`/inventory` shows them)."
}
