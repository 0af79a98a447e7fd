package inventory

import (
	"encoding/json"
	"fmt"
	"slices"

	"sheetkeeper/refusal"
	"sheetkeeper/strictjson"
)

// What a new character starts with (the seed's showcase and starterTemplates, as Pack
// Rat's js/showcase.js and its new install do): a few example items showing what an
// inventory can do — a pack that holds things with two stacks inside it, gear, and a set
// of pieces to draw from — made from the system's container, consumable, ammunition,
// tool and gear templates where it has them, unless the system says `showcase: false`;
// and the example templates players may take up into their own.

// showcaseThing is one example item: its id, the templates it is made from (the first the
// system has), what it is, how many, and whether it goes inside the pack.
type showcaseThing struct {
	id        string
	templates []string
	fields    map[string]any
	qty       int64
	inPack    bool
}

// showcaseCards are a deck of playing cards, jokers last.
func showcaseCards() []any {
	var cards []any
	for _, suit := range []string{"Spades", "Hearts", "Diamonds", "Clubs"} {
		for _, rank := range []string{"Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"} {
			cards = append(cards, rank+" of "+suit)
		}
	}
	return append(cards, "Red Joker", "Black Joker")
}

func showcaseThings() []showcaseThing {
	return []showcaseThing{
		{"showcase-backpack", []string{"container", "gear"}, map[string]any{"name": "Backpack", "weight": 5, "capacityLb": 30,
			"features": map[string]any{"holds": true}, "description": "Put things in it and take them out: what is inside counts towards what you carry."}, 1, false},
		{"showcase-rations", []string{"consumable", "gear"}, map[string]any{"name": "Rations (1 day)", "weight": 2,
			"description": "A stack: one row with a count. Eat one and the count goes down."}, 4, true},
		{"showcase-arrows", []string{"ammunition", "gear"}, map[string]any{"name": "Arrows", "weight": 0.05,
			"description": "A stack of arrows, counted one by one."}, 7, true},
		{"showcase-compass", []string{"gear"}, map[string]any{"name": "Compass", "weight": 0.5,
			"description": "A plain brass compass."}, 1, false},
		{"showcase-totem", []string{"gear"}, map[string]any{"name": "Totem", "weight": 1,
			"description": "A small carved charm."}, 1, false},
		{"showcase-watch", []string{"gear"}, map[string]any{"name": "Pocket watch", "weight": 0.25,
			"description": "It keeps the time."}, 1, false},
		{"showcase-cards", []string{"tool", "gear"}, map[string]any{"name": "Playing cards", "weight": 0, "deckCards": showcaseCards(),
			"features": map[string]any{"deck": true}, "description": "A set of pieces: draw a card at random, take one out, put them back."}, 1, false},
	}
}

// Showcase returns the example entries a new character starts with, in order, the stacks
// inside the pack; newUID names each entry. A system with `showcase: false`, or with no
// template an item can be made with, gives none. An item its system will not take (a
// field the template does not have) is left out rather than the character given a
// broken one.
func (c *Campaign) Showcase(newUID func() string) []*Entry {
	s := c.System
	if s.Showcase != nil && !*s.Showcase {
		return nil
	}
	var out []*Entry
	var pack *Entry
	for _, th := range showcaseThings() {
		t := s.showcaseTemplate(th.templates, th.features())
		if t == nil {
			return nil
		}
		raw := map[string]any{"id": th.id, "type": t.ID}
		for k, v := range th.fields {
			raw[k] = v
		}
		data, err := json.Marshal(raw)
		if err != nil {
			continue
		}
		it, ps := c.ParseItem(data)
		if len(ps) > 0 {
			continue
		}
		e := c.NewEntry(newUID(), it, th.qty)
		if th.inPack && pack != nil {
			e.Parent = pack.UID
		}
		if cur := c.Now(e); th.id == "showcase-backpack" && cur.Has("holds") {
			pack = e
		}
		out = append(out, e)
	}
	return out
}

// features are the features the thing's fields switch on (the pack's holds).
func (th showcaseThing) features() []string {
	m, _ := th.fields["features"].(map[string]any)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// showcaseTemplate is the first of ids the system has (made with, so not abstract), else
// its general gear template, else the template made with that fits best: one whose own
// features have on every one the thing wants (a pack's holds) where one does, and the
// fewest others, so a compass on a system without those ids is made a plain thing, not
// the first template's weapon that takes a hand.
func (s *System) showcaseTemplate(ids, wants []string) *Template {
	for _, id := range append(ids, "gear") {
		if t := s.TemplateByID(id); t != nil && !t.Abstract {
			return t
		}
	}
	var best *Template
	bestFit := 0
	for i := range s.Templates {
		t := &s.Templates[i]
		if t.Abstract {
			continue
		}
		fit := 0
		for k, v := range t.Features {
			switch on, isBool := v.(bool); {
			case isBool && !on || v == nil:
			case slices.Contains(wants, k):
				fit += 1000 // outweighs the others: a template names far fewer features
			default:
				fit--
			}
		}
		if best == nil || fit > bestFit {
			best, bestFit = t, fit
		}
	}
	return best
}

// AdoptStarter gives the campaign's players one of the system's starter templates (the
// example templates players may add as their own, by id), checked as their own are. One
// the campaign has already is refused, as is an id no starter template has.
func (c *Campaign) AdoptStarter(id string) error {
	for _, t := range c.System.StarterTemplates {
		if t.ID != id {
			continue
		}
		if _, had := c.templates[id]; had {
			return refusal.New(refusal.NotAllowed, "the players have the template %q already", id)
		}
		if ps := c.AddTemplates([]Template{t}); len(ps) > 0 {
			return fmt.Errorf("inventory: starter template %q: %w", id, strictjson.Problems(ps))
		}
		return nil
	}
	return refusal.New(refusal.UnknownEntry, "the system has no starter template %q", id)
}
