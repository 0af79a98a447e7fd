package bot

import (
	"context"
	"fmt"
	"strings"

	"sheetkeeper/catalog"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /demo: a newcomer's first minute. It starts a campaign in this channel on a built-in
// ruleset with the invoker as GM and two ready characters — library cards of the invoker
// joined as game cards, with entries picked from the catalogs — and answers with a
// three-line guide whose middle line is a GM message to paste, so a tag is applied on the
// very next message.
//
// A second /demo in a channel that has a campaign changes nothing: it says what the
// campaign has and how to start over. /demo reset (GM only) asks, with a button, to end
// the channel's campaign; the click, by a GM of that same campaign, ends it
// (demo_reset.go).

// The kinds of /demo reset's buttons. The confirmation carries the campaign's creation
// time, so a click ends the campaign it was asked about, never a newer one started in
// the channel since (a clock that stands still — the console's until !clock — cannot
// tell two apart; the press also replaces the question, so its buttons go).
var (
	demoEndID  = componentKind{name: "demo:end", arity: 1}  // the campaign's CreatedAt, Unix nanoseconds
	demoKeepID = componentKind{name: "demo:keep", arity: 0} // changes nothing
)

// demoCommands adds /demo, /demo reset and the reset's buttons.
func demoCommands(r *router) {
	r.command(CommandSpec{
		Name:        "demo",
		Description: "Try it now: a game in this channel with two ready characters, and a tag to paste",
		Options: []OptionSpec{
			{Name: "ruleset", Description: "low-vell (default) or dnd5e-srd", Type: "string",
				Choices: []Choice{{Name: "Low Vell", Value: "low-vell"}, {Name: "D&D 5e (SRD 5.1)", Value: "dnd5e-srd"}}},
		},
	}, (*Core).cmdDemo)
	r.command(CommandSpec{
		Name:        "demo reset",
		Description: "End this channel's campaign (after a confirmation), to start over",
		GMOnly:      true,
	}, (*Core).cmdDemoReset)
	r.component(demoEndID, (*Core).demoEndClick)
	r.component(demoKeepID, (*Core).demoKeepClick)
}

// demoCard is one ready character: its build and the catalog entries it picks
// ("catalog/entry").
type demoCard struct {
	name      string
	abilities map[string]float64
	skills    map[string]string
	fields    map[string]any
	picks     []string
}

// demo is what /demo sets up on one ruleset, and the GM message its guide offers.
type demo struct {
	cards [2]demoCard
	paste string
	sheet string
}

// demoFor returns the demo of a built-in ruleset.
func demoFor(id string) (demo, bool) {
	switch id {
	case "low-vell":
		return demo{
			cards: [2]demoCard{{
				name:      "Mira",
				abilities: map[string]float64{"nerve": 2, "knack": 0, "glow": 2},
				skills:    map[string]string{"row": "trained", "kindle": "trained"},
				fields:    map[string]any{"guild": "Ferrylight", "rank": 3.0, "oath": "Bring every passenger home"},
				picks:     []string{"workings/kindle-wick", "workings/guiding-glow", "workings/hearthwarm", "workings/bellows-breath"},
			}, {
				name:      "Bram",
				abilities: map[string]float64{"nerve": 1, "knack": 2, "glow": 1},
				skills:    map[string]string{"tinker": "trained", "sneak": "trained"},
				fields:    map[string]any{"guild": "Wickwright", "rank": 3.0},
				picks:     []string{"workings/kindle-wick", "workings/ember-dart", "workings/hood-the-flame", "workings/twin-lamps"},
			}},
			paste: `The canal water bites. [sheet: who="Mira" op="damage" pool="breath" amount="3"] Bram flicks a coal at the eel. [sheet: who="Bram" op="cast" spell="Ember Dart"]`,
			sheet: "Mira",
		}, true
	case "dnd5e-srd":
		return demo{
			cards: [2]demoCard{{
				name:      "Mira",
				abilities: map[string]float64{"str": 8, "dex": 14, "con": 14, "int": 16, "wis": 12, "cha": 10},
				skills:    map[string]string{"arcana": "proficient", "investigation": "proficient"},
				fields: map[string]any{"class": "Wizard", "race": "Human", "wizard_level": 5.0, "caster_level": 5.0,
					"spellcasting_ability": "int", "hp_max": 27.0, "hit_die": "d6", "ac": 12.0},
				picks: []string{"spells/fire-bolt", "spells/magic-missile", "spells/shield", "spells/fireball"},
			}, {
				name:      "Bram",
				abilities: map[string]float64{"str": 16, "dex": 12, "con": 15, "int": 10, "wis": 13, "cha": 8},
				skills:    map[string]string{"athletics": "proficient", "perception": "proficient"},
				fields: map[string]any{"class": "Fighter", "race": "Dwarf", "fighter_level": 3.0, "hp_max": 31.0,
					"hit_die": "d10", "ac": 18.0},
				picks: []string{"features/second-wind", "features/action-surge-1-use"},
			}},
			paste: `The ogre's club lands. [sheet: who="Bram" op="damage" pool="hp" amount="9"] Mira answers with force. [sheet: who="Mira" op="cast" spell="Magic Missile"]`,
			sheet: "Bram",
		}, true
	}
	return demo{}, false
}

func (c *Core) cmdDemo(ctx context.Context, cmd Command) (Response, error) {
	id := strings.TrimSpace(cmd.Get("ruleset"))
	if id == "" {
		id = "low-vell"
	}
	d, ok := demoFor(id)
	if !ok {
		return Response{}, refusal.New(refusal.NotAllowed, "the demo plays low-vell or dnd5e-srd")
	}
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		if camp, err := tx.Campaign(cmd.ChannelID); err == nil {
			resp, err = c.demoExisting(tx, camp)
			return err
		} else if storage.KindOf(err) != storage.NotFound {
			return err
		}
		camp, l, err := c.createCampaign(tx, cmd, id, "")
		if err != nil {
			return err
		}
		for _, dc := range d.cards {
			card, err := dc.build(l, c.catalogs(l), camp.Ruleset)
			if err != nil {
				return err
			}
			lib := &storage.CardRecord{OwnerID: cmd.User.ID, Card: card, UpdatedAt: c.Now()}
			if _, err := tx.LibraryCard(cmd.User.ID, card.Name); storage.KindOf(err) == storage.NotFound {
				if err := tx.PutLibraryCard(lib); err != nil {
					return err
				}
			} else if err != nil {
				return err
			}
			if _, _, err := c.joinCard(tx, camp, cmd.User.ID, lib); err != nil {
				return err
			}
		}
		resp = Response{Content: fmt.Sprintf(
			"Demo game on **%s** (%s v%d): you are the GM, and %s and %s have joined.\n"+
				"Paste this as your next message: %s\n"+
				"Then `/sheet name:%s` shows what changed; `/pick`, `/use` and `/character set` shape and play a character.",
			l.Name, camp.Ruleset.ID, camp.Ruleset.Version, d.cards[0].name, d.cards[1].name, d.paste, d.sheet)}
		return nil
	})
	return resp, err
}

// build makes the card on l: its build set, its entries picked (scaled values worked
// out as each pick goes on).
func (dc demoCard) build(l *ruleset.Loaded, entries *catalog.Index, ref sheet.RulesetRef) (*sheet.Card, error) {
	card := sheet.NewCard(dc.name, ref.ID, ref.Version, l.Sheet.Version)
	card.Build.Abilities = map[string]float64{}
	for k, v := range dc.abilities {
		card.Build.Abilities[k] = v
	}
	card.Build.Skills = map[string]string{}
	for k, v := range dc.skills {
		card.Build.Skills[k] = v
	}
	card.Build.Fields = map[string]any{}
	for k, v := range dc.fields {
		card.Build.Fields[k] = v
	}
	for _, p := range dc.picks {
		cat, id, _ := strings.Cut(p, "/")
		e, ok := entries.Entry(cat, id)
		if !ok {
			return nil, fmt.Errorf("demo: %s has no entry %s", l.ID, p)
		}
		if out, _ := sheet.Pick(l.Ruleset, card, cat, e, entries); !out.OK() {
			return nil, fmt.Errorf("demo: picking %s for %s: %w", p, dc.name, out.Err())
		}
	}
	return card, nil
}
