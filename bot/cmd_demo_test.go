package bot

import (
	"strings"
	"testing"

	"sheetkeeper/catalog"
	"sheetkeeper/parser"
	"sheetkeeper/sheet"
)

// The demo's promise: its guide's middle line, pasted by the newcomer, applies tags.
func TestDemo(t *testing.T) {
	for _, tc := range []struct {
		ruleset string
		guide   []string
		now     map[string]string // tag op (cast is written back as use) → its now
		pools   map[string]string // card:pool → value/max after
	}{{
		ruleset: "",
		guide: []string{
			"Demo game on **Low Vell: Lamplighters of the Drowned City** (low-vell v1): you are the GM, and Mira and Bram have joined.",
			`Paste this as your next message: The canal water bites. [sheet: who="Mira" op="damage" pool="breath" amount="3"] Bram flicks a coal at the eel. [sheet: who="Bram" op="cast" spell="Ember Dart"]`,
			"Then `/sheet name:Mira` shows what changed; `/pick`, `/use` and `/character set` shape and play a character.",
		},
		now:   map[string]string{"damage": "7/10", "use": "Spark charges 2/3"},
		pools: map[string]string{"Mira:breath": "7/10", "Bram:spark": "2/3"},
	}, {
		ruleset: "dnd5e-srd",
		guide: []string{
			"Demo game on **D&D 5e (SRD 5.1)** (dnd5e-srd v1): you are the GM, and Mira and Bram have joined.",
			`Paste this as your next message: The ogre's club lands. [sheet: who="Bram" op="damage" pool="hp" amount="9"] Mira answers with force. [sheet: who="Mira" op="cast" spell="Magic Missile"]`,
			"Then `/sheet name:Bram` shows what changed; `/pick`, `/use` and `/character set` shape and play a character.",
		},
		now:   map[string]string{"damage": "22/31", "use": "1st-level slots 3/4"},
		pools: map[string]string{"Bram:hp": "22/31", "Mira:slots_1": "3/4"},
	}} {
		t.Run(tc.ruleset, func(t *testing.T) {
			m := newCmdTable(t)
			var opts []string
			if tc.ruleset != "" {
				opts = []string{"ruleset", tc.ruleset}
			}
			r := m.run(gmUser, "demo", opts...)
			wantResponse(t, "guide", r, strings.Join(tc.guide, "\n"), false)
			if camp := m.campaignRecord(); len(camp.GMs) != 1 || camp.GMs[0].ID != "gm" {
				t.Errorf("GMs %+v", camp.GMs)
			}
			for _, name := range []string{"Mira", "Bram"} {
				lib, game := m.libraryRecord("gm", name), m.gameRecord(name)
				if lib.Card.Equal(sheet.NewCard(name, lib.Card.Ruleset.ID, 1, 1)) || len(catalog.Picked(game.Card)) == 0 {
					t.Errorf("%s is not ready: %+v", name, game.Card.Build)
				}
			}

			paste := strings.TrimPrefix(tc.guide[1], "Paste this as your next message: ")
			acts := m.core.OnMessage(t.Context(), Message{ChannelID: m.ch, ID: "m1", Author: gmUser, Content: paste})
			if len(acts) != 1 {
				t.Fatalf("actions %+v", acts)
			}
			post := acts[0].Content
			if len(parser.Read(post).Tags) == 0 || strings.Contains(post, "refused") {
				t.Errorf("post %q", post)
			}
			for op, now := range tc.now {
				if want := `op="` + op + `"`; !strings.Contains(post, want) || !strings.Contains(post, `result="ok" now="`+now+`"`) {
					t.Errorf("post %q lacks %s ending ok now=%q", post, want, now)
				}
			}
			rules := builtinRules(t, m.campaignRecord().Ruleset.ID)
			for key, want := range tc.pools {
				name, pool, _ := strings.Cut(key, ":")
				p := sheet.Evaluate(rules.Ruleset, m.gameRecord(name).Card, nil).Live.Pool(pool)
				if p == nil || sheet.PoolNow(p, p.Value, p.Temp) != want {
					t.Errorf("%s = %+v, want %s", key, p, want)
				}
			}
		})
	}
}

func TestDemoRefusals(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "other ruleset", m.run(gmUser, "demo", "ruleset", "ember-roads"), "the demo plays low-vell or dnd5e-srd", true)
	m.ok(ana, "campaign create", "ruleset", "low-vell")
	wantResponse(t, "campaign here", m.run(gmUser, "demo"), "This channel already has a campaign: **Low Vell: Lamplighters of the Drowned City** (low-vell v1), GM <@ana>, with no characters yet.\n"+
		"Play on — `/campaign show` and `/sheet` show it — or start over: a GM runs `/demo reset`, which ends this campaign after a confirmation, then `/demo` again.", true)
	// In another channel the same player's demo reuses their library cards.
	m.ok(gmUser, "character create", "name", "Mira")
	m.ch = "other"
	m.ok(gmUser, "demo")
	if lib := m.libraryRecord("gm", "Mira"); len(catalog.Picked(lib.Card)) != 0 {
		t.Error("the demo changed an existing library card")
	}
	if game := m.gameRecord("Mira"); len(catalog.Picked(game.Card)) != 4 {
		t.Errorf("demo game card %+v", game.Card.Build)
	}
}
