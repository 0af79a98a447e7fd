package bot

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

func TestCharacterCreateAndJoin(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "no campaign", m.run(ana, "character create", "name", "Mira"),
		"this channel has no campaign to take the ruleset from: add ruleset:<id>", true)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	wantResponse(t, "create", m.run(ana, "character create", "name", "  Mira  "),
		"Mira is your new character on Low Vell: Lamplighters of the Drowned City (v1), every value at its default.\n"+
			"Shape them with `/character set name:Mira …`, `/character row add` and `/pick`; bring them into a game with `/character join name:Mira`.", true)
	lib := m.libraryRecord("ana", "mira")
	want := sheet.NewCard("Mira", "low-vell", 1, 1)
	if lib.OwnerID != "ana" || !lib.Card.Equal(want) {
		t.Errorf("library card %+v", lib.Card)
	}
	wantResponse(t, "twice", m.run(ana, "character create", "name", "MIRA"), "you have a character called MIRA already", true)
	for bad, why := range map[string]string{
		"party":                 `"party" means the whole party in tags; choose another name`,
		`Mi"ra`:                 `a name cannot hold '"': tags must be able to name the character`,
		"Mira [x]":              `a name cannot hold '[': tags must be able to name the character`,
		"A; B":                  `a name cannot hold ';': tags must be able to name the character`,
		strings.Repeat("x", 61): "a name has at most 60 characters",
	} {
		wantResponse(t, "name "+bad, m.run(ana, "character create", "name", bad), why, true)
	}
	// Another player's name is theirs: the library is per user.
	m.ok(bo, "character create", "name", "Mira")

	wantResponse(t, "join someone else's", m.run(gmUser, "character join", "name", "Mira"),
		"you have no character called Mira (make one with /character create)", true)
	wantResponse(t, "join", m.run(ana, "character join", "name", "mira"), "Mira joins the game. `/sheet name:Mira` shows their sheet.", false)
	game := m.gameRecord("Mira")
	if game.OwnerID != "ana" || game.From != "Mira" || !game.Card.Equal(want) || !game.UpdatedAt.Equal(cmdTime) {
		t.Errorf("game card %+v", game)
	}
	wantResponse(t, "join twice", m.run(ana, "character join", "name", "Mira"), "Mira is in this game already", true)
	wantResponse(t, "same name, other player", m.run(bo, "character join", "name", "Mira"), "this game has a character called Mira already", true)

	// A library card built on another ruleset does not join.
	m.ok(bo, "character create", "name", "Ash", "ruleset", "dnd5e-srd")
	wantResponse(t, "other ruleset", m.run(bo, "character join", "name", "Ash"), "Ash is built on dnd5e-srd, and this game plays low-vell", true)
}

func TestCharacterSet(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell", "layers", "harbour_law")
	m.ok(ana, "character create", "name", "Mira")

	// Before joining, the library card is the one edited.
	wantResponse(t, "library field", m.run(ana, "character set", "name", "Mira", "field", "Rank", "value", "3"),
		"Mira (your library card): Rank 1 → 3.", true)
	m.ok(ana, "character join", "name", "Mira")
	wantResponse(t, "game field", m.run(ana, "character set", "name", "Mira", "field", "rank", "value", "4"),
		"Mira (in this game): Rank 3 → 4.", true)
	if got := m.libraryRecord("ana", "Mira").Card.Build.Fields["rank"]; got != 3.0 {
		t.Errorf("library rank %v: play and game edits never reach it", got)
	}
	wantResponse(t, "out of bounds", m.run(ana, "character set", "name", "Mira", "field", "rank", "value", "11"),
		"Rank is a whole number from 1 to 10", true)
	wantResponse(t, "not whole", m.run(ana, "character set", "name", "Mira", "field", "rank", "value", "2.5"),
		"Rank is a whole number from 1 to 10", true)
	wantResponse(t, "text", m.run(ana, "character set", "name", "Mira", "field", "oath", "value", "Nobody drowns tonight"),
		"Mira (in this game): Oath (none) → Nobody drowns tonight.", true)
	// The campaign's layer takes Smokejack out of the guild field.
	wantResponse(t, "layer-removed value", m.run(ana, "character set", "name", "Mira", "field", "guild", "value", "Smokejack"),
		"Guild is one of Wickwright, Ferrylight, Beaconkeeper", true)
	wantResponse(t, "enum", m.run(ana, "character set", "name", "Mira", "field", "guild", "value", "beaconkeeper"),
		"Mira (in this game): Guild Wickwright → Beaconkeeper.", true)
	// The tower field shows only for Beaconkeepers.
	wantResponse(t, "shown field", m.run(ana, "character set", "name", "Mira", "field", "Tower kept", "value", "Salt Spire"),
		"Mira (in this game): Tower kept (none) → Salt Spire.", true)
	m.ok(ana, "character set", "name", "Mira", "field", "guild", "value", "Ferrylight")
	wantResponse(t, "hidden field", m.run(ana, "character set", "name", "Mira", "field", "tower", "value", "Salt Spire"),
		"Tower kept is not on this character's sheet", true)
	wantResponse(t, "unknown field", m.run(ana, "character set", "name", "Mira", "field", "luck", "value", "1"),
		`Low Vell: Lamplighters of the Drowned City has no field "luck"`, true)

	wantResponse(t, "ability", m.run(ana, "character set", "name", "Mira", "ability", "NRV", "value", "3"),
		"Mira (in this game): Nerve 0 → 3.", true)
	wantResponse(t, "ability bounds", m.run(ana, "character set", "name", "Mira", "ability", "nerve", "value", "5"),
		"Nerve is a whole number from -1 to 4", true)
	wantResponse(t, "skill", m.run(ana, "character set", "name", "Mira", "skill", "Row", "value", "adept"),
		"Mira (in this game): Row Untried → Adept.", true)
	wantResponse(t, "save", m.run(ana, "character set", "name", "Mira", "save", "Keep steady", "value", "Trained"),
		"Mira (in this game): Keep steady Untried → Trained.", true)
	wantResponse(t, "tier", m.run(ana, "character set", "name", "Mira", "skill", "row", "value", "legend"),
		"the tiers a skill takes are Untried, Trained, Adept, Master", true)
	wantResponse(t, "two targets", m.run(ana, "character set", "name", "Mira", "skill", "row", "save", "ward", "value", "adept"),
		"name exactly one of field:, ability:, skill: or save:", true)

	card := m.gameRecord("Mira").Card
	wantBuild := sheet.Build{
		Abilities: map[string]float64{"nerve": 3},
		Skills:    map[string]string{"row": "adept"},
		Saves:     map[string]string{"steady": "trained"},
		Fields:    map[string]any{"rank": 4.0, "oath": "Nobody drowns tonight", "guild": "Ferrylight", "tower": "Salt Spire"},
	}
	if !reflect.DeepEqual(card.Build, wantBuild) {
		t.Errorf("build:\n got %+v\nwant %+v", card.Build, wantBuild)
	}

	// Permissions: another player may not edit Mira; a GM may.
	wantResponse(t, "other player", m.run(bo, "character set", "name", "Mira", "field", "rank", "value", "1"),
		"Mira is not your character: only its player or a GM may change it", true)
	wantResponse(t, "GM", m.run(gmUser, "character set", "name", "Mira", "field", "rank", "value", "5"),
		"Mira (in this game): Rank 4 → 5.", true)
	wantResponse(t, "nobody", m.run(bo, "character set", "name", "Nobody", "field", "rank", "value", "1"),
		`no character is called "Nobody"`, true)
}

func TestCharacterRows(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")

	wantResponse(t, "add", m.run(ana, "character row add", "name", "Mira", "list", "Tallies", "values", "name=Lucky Coin; Uses=2; recharge=After a breather"),
		"Mira (in this game): added Lucky Coin to Tallies (row 1).", true)
	wantResponse(t, "add a second", m.run(ana, "character row add", "name", "Mira", "list", "workings", "values", "name=Whistle; tier=1"),
		"Mira (in this game): added Whistle to Workings (row 1).", true)
	wantResponse(t, "required column", m.run(ana, "character row add", "name", "Mira", "list", "workings", "values", "tier=1"),
		"Workings needs a Working (name=…)", true)
	wantResponse(t, "unknown column", m.run(ana, "character row add", "name", "Mira", "list", "workings", "values", "name=X; colour=red"),
		`Workings has no column "colour" (it has name, tier, effect)`, true)
	wantResponse(t, "bounds", m.run(ana, "character row add", "name", "Mira", "list", "tallies", "values", "name=X; uses=12"),
		"Uses is a whole number from 0 to 9", true)
	wantResponse(t, "no =", m.run(ana, "character row add", "name", "Mira", "list", "tallies", "values", "name X"),
		`write each value as column=value, separated by semicolons ("name X" has no =)`, true)
	wantResponse(t, "unknown list", m.run(ana, "character row add", "name", "Mira", "list", "gear", "values", "name=X"),
		`Low Vell: Lamplighters of the Drowned City has no list "gear"`, true)

	// The counter is a pool keyed by its name; spend from it, then rename it.
	rec := m.gameRecord("Mira")
	rec.Card.Live.Pools = map[string]sheet.PoolValue{"tallies:lucky coin": {Value: 1}}
	m.update(func(tx storage.Tx) error { return tx.PutGameCard(m.ch, rec) })

	wantResponse(t, "edit by name", m.run(ana, "character row edit", "name", "Mira", "list", "tallies", "row", "lucky coin", "values", "uses=3; recharge="),
		"Mira (in this game): changed Lucky Coin in Tallies (row 1).", true)
	wantResponse(t, "clear a required column", m.run(ana, "character row edit", "name", "Mira", "list", "tallies", "row", "1", "values", "name="),
		"Tallies needs a Tally (name=…)", true)
	wantResponse(t, "no such row", m.run(ana, "character row edit", "name", "Mira", "list", "tallies", "row", "4", "values", "uses=1"),
		"Tallies has 1 row; there is no row 4", true)
	card := m.gameRecord("Mira").Card
	wantRows := []sheet.Row{{"name": "Lucky Coin", "uses": 3.0}}
	if !reflect.DeepEqual(card.Build.Lists["tallies"], wantRows) {
		t.Errorf("tallies %+v", card.Build.Lists["tallies"])
	}
	if p := sheet.Evaluate(builtinRules(t, "low-vell").Ruleset, card, nil).Live.Pool("tallies:lucky coin"); p == nil || p.Value != 1 || p.Max != 3 {
		t.Errorf("counter %+v", p)
	}

	wantResponse(t, "other player", m.run(bo, "character row remove", "name", "Mira", "list", "tallies", "row", "1"),
		"Mira is not your character: only its player or a GM may change it", true)
	wantResponse(t, "remove", m.run(ana, "character row remove", "name", "Mira", "list", "tallies", "row", "1"),
		"Mira (in this game): removed Lucky Coin from Tallies.", true)
	card = m.gameRecord("Mira").Card
	if len(card.Build.Lists["tallies"]) != 0 || len(card.Live.Pools) != 0 {
		t.Errorf("after remove: rows %+v, pools %+v", card.Build.Lists["tallies"], card.Live.Pools)
	}
}

// A player edit recomputes scaled values: Ferryman's Count follows rank.
func TestCharacterEditRescales(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "demo")
	m.ok(gmUser, "pick", "name", "Bram", "catalog", "workings", "entry", "ferrymans-count")
	uses := func() any {
		for _, r := range m.gameRecord("Bram").Card.Build.Lists["tallies"] {
			if r["name"] == "Ferryman's Count" {
				return r["uses"]
			}
		}
		return nil
	}
	if got := uses(); got != 1.0 {
		t.Fatalf("uses at rank 3: %v", got)
	}
	wantResponse(t, "rank up", m.run(gmUser, "character set", "name", "Bram", "field", "rank", "value", "8"),
		"Bram (in this game): Rank 3 → 8. 1 scaled value followed.", true)
	if got := uses(); got != 3.0 {
		t.Errorf("uses at rank 8: %v", got)
	}
}

// TestBlankNamesAreRefused: a name that is only a byte-order mark is blank as the store
// keys names, so every command taking one refuses it as missing, never "Internal error"
// (the store found the folded name empty).
func TestBlankNamesAreRefused(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	for _, tc := range [][]string{
		{"character create", "name", "\uFEFF"},
		{"character join", "name", "\uFEFF"},
		{"pick", "name", "\uFEFF", "catalog", "workings", "entry", "ember-dart"},
		{"character set", "name", "\uFEFF", "field", "rank", "value", "2"},
		{"catalog search", "catalog", "workings", "name", "\uFEFF"},
	} {
		r := m.run(ana, tc[0], tc[1:]...)
		if !r.Ephemeral || r.Content == "Internal error" {
			t.Errorf("/%s name:<BOM>: %+v, want a refusal", tc[0], r)
		}
	}
}

// TestValueChoicesHonourLayerRemovals: /character set's value choices leave out what
// the campaign's layers remove from a game card's field, as the command refuses it.
func TestValueChoicesHonourLayerRemovals(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell", "layers", "harbour_law")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")
	wantResponse(t, "refused", m.run(ana, "character set", "name", "Mira", "field", "guild", "value", "Smokejack"),
		"Guild is one of Wickwright, Ferrylight, Beaconkeeper", true)
	got := names(m.complete(ana, "character set", "value", "", "name", "Mira", "field", "guild"))
	if strings.Contains(strings.ToLower(got), "smokejack") || !strings.Contains(got, "Wickwright") {
		t.Errorf("value choices %s: want the guilds less the layer-removed Smokejack", got)
	}
}

// TestCampaignSetChecksGMInItsUpdate: /campaign set checks its caller is a GM inside
// its own Update, as every GM command that writes does, so a GM removed after the
// router's check changes nothing.
func TestCampaignSetChecksGMInItsUpdate(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	_, err := m.core.cmdCampaignSet(context.Background(), Command{Name: "campaign set", User: ana, ChannelID: m.ch, GuildID: "guild",
		Options: []Option{{Name: "rules-messages", Value: "dm"}}})
	if refusal.Of(err) != refusal.NotGM || m.campaignRecord().RulesMessages != "" {
		t.Errorf("a non-GM's /campaign set: %v, rules-messages %q; want %s and nothing changed", err, m.campaignRecord().RulesMessages, refusal.NotGM)
	}
}
