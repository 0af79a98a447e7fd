package bot

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSheetText(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character set", "name", "Mira", "ability", "nerve", "value", "2")
	m.ok(ana, "character set", "name", "Mira", "skill", "row", "value", "trained")
	m.ok(ana, "character join", "name", "Mira")
	m.ok(ana, "pick", "name", "Mira", "catalog", "workings", "entry", "Bellows Breath")
	m.ok(ana, "character set", "name", "Mira", "field", "oath", "value", "Nobody drowns tonight")
	// Play: the GM's tags (OnMessage) change the live state the sheet shows.
	m.core.OnMessage(t.Context(), Message{ChannelID: m.ch, ID: "g1", Author: gmUser, Content: `` +
		`[sheet: who="Mira" op="damage" pool="Breath" amount="3"] [sheet: who="Mira" op="temp" pool="breath" amount="2"] ` +
		`[sheet: who="Mira" op="spend" pool="Bellows Breath" amount="1"] [sheet: who="Mira" op="damage" track="scars" kind="chill" amount="1"] ` +
		`[sheet: who="Mira" op="condition" condition="soaked"] [sheet: who="Mira" op="note" field="errand" value="Ferry the bellringer"] ` +
		`[sheet: who="Mira" op="state" state="lamp" value="hooded"] [sheet: who="Mira" op="track" track="tide" by="2"]`})

	r := m.run(ana, "sheet")
	wantResponse(t, "own sheet, no name", r, strings.Join([]string{
		"**Mira** — Low Vell: Lamplighters of the Drowned City v1, game card of <@ana>",
		"Nerve 2 (+2) · Knack 0 (+0) · Glow 0 (+0)",
		"Skills: Row +3 (Trained) · Climb +2 · Tinker +0 · Sneak +0 · Kindle +0 · Parley +0",
		"Saves: Keep steady +2 · Ward off the Murk +0",
		"__The lamplighter__",
		"Guild: Wickwright · Rank: 1 · Lamps lit: 0 · Hardiness: 2 · Oath: Nobody drowns tonight",
		"Charms you can bind 1 · Haul before burdened 10 · Quickness 2 · Guard 7",
		"__Flame and breath__",
		"Breath maximum 10 · Spark charges 2 · Flare charges 0 · Blaze charges 0 · Reserve oil 1 · Reserve burns at tier 1 · Wick control 0 · Working difficulty 8 · Light cast 1",
		"__Workings__",
		"Workings:",
		"• **Bellows Breath** — Tier 0 — What it does Recover 1d6 Breath. Uses equal your Nerve, back after a breather.",
		"Tallies:",
		"• **Bellows Breath** — Uses 2 — Comes back After a breather [1/2 left]",
		"__Now__",
		"Pools: Breath 7/10 +2 temp · Spark charges 2/2 · Reserve oil 1/1",
		"Tracks: Rising Tide 2 (0–6) · Scars 1/4 Shaken",
		"Conditions: Soaked",
		"Notes: Tonight's errand: Ferry the bellringer",
		"Lantern: Hooded",
	}, "\n"), true)
	// Anyone at the table may look at a game card; the answer is theirs alone.
	if r := m.run(bo, "sheet", "name", "MIRA"); !r.Ephemeral || !strings.HasPrefix(r.Content, "**Mira** —") {
		t.Errorf("another player's view: %q", r.Content)
	}
	wantResponse(t, "bad format", m.run(ana, "sheet", "format", "yaml"), "format is text or json", true)
	wantResponse(t, "no character", m.run(bo, "sheet"), "you have no character yet: /character create name:<name> makes one", true)
	m.ok(ana, "character create", "name", "Ash")
	m.ok(ana, "character join", "name", "Ash")
	wantResponse(t, "two characters", m.run(ana, "sheet"), "you have several characters (Ash, Mira): add name:", true)
	// A library card is its owner's alone.
	if r := m.run(ana, "sheet", "name", "Ash"); !strings.Contains(r.Content, "game card of <@ana>") {
		t.Errorf("game card first: %q", r.Content)
	}
	m.ok(bo, "character create", "name", "Bram")
	if r := m.run(bo, "sheet"); !strings.HasPrefix(r.Content, "**Bram** — Low Vell: Lamplighters of the Drowned City v1, library card of <@bo>") {
		t.Errorf("library card: %q", r.Content)
	}
	wantResponse(t, "someone else's library", m.run(ana, "sheet", "name", "Bram"), `no character is called "Bram"`, true)
}

// TestLongSheetIsOneText: a sheet longer than a Discord message is answered whole; the
// Discord adapter splits it where it reads well.
func TestLongSheetIsOneText(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "demo", "ruleset", "dnd5e-srd")
	for _, spell := range []string{"Acid Splash", "Mage Hand", "Light", "Detect Magic", "Sleep", "Mage Armor", "Misty Step", "Web", "Counterspell", "Fly", "Haste", "Lightning Bolt"} {
		m.ok(gmUser, "pick", "name", "Mira", "catalog", "spells", "entry", spell)
	}
	r := m.run(gmUser, "sheet", "name", "Mira")
	if n := len([]rune(r.Content)); n <= 2000 {
		t.Fatalf("a sheet longer than a Discord message was wanted: %d characters", n)
	}
	if !strings.Contains(r.Content, "• **Lightning Bolt** — Level 3") || !strings.HasSuffix(r.Content, "Conditions: none") {
		t.Errorf("the sheet loses lines:\n%s", r.Content)
	}
}

func TestSheetJSON(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "demo")
	m.core.OnMessage(t.Context(), Message{ChannelID: m.ch, ID: "g1", Author: gmUser, Content: `` +
		`[sheet: who="Mira" op="damage" pool="breath" amount="3"] [sheet: who="Mira" op="damage" track="scars" kind="murk" amount="2"] ` +
		`[sheet: who="Mira" op="condition" condition="soaked"] [sheet: who="Mira" op="cast" spell="Guiding Glow"]`})
	r := m.run(gmUser, "sheet", "name", "mira", "format", "json")
	if !r.Ephemeral {
		t.Error("json is a private view too")
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Content), &got); err != nil {
		t.Fatalf("%v: %s", err, r.Content)
	}
	keys := func(m map[string]any) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		return ks
	}
	if ks := keys(got); len(ks) != 5 || got["name"] != "Mira" {
		t.Errorf("top level %q", ks)
	}
	wantJSON(t, "ruleset", got["ruleset"], `{"id":"low-vell","version":1}`)
	wantJSON(t, "live (sparse, as stored)", got["live"],
		`{"conditions":["soaked"],"pools":{"breath":{"value":7},"spark":{"value":2}},"wounds":{"scars":{"marks":["murk","murk"]}}}`)
	res := got["resolved"].(map[string]any)
	wantJSON(t, "pools", res["pools"], `{"breath":{"max":10,"temp":0,"value":7},"flare":{"max":1,"temp":0,"value":1},`+
		`"reserve":{"max":2,"temp":0,"value":2},"spark":{"max":3,"temp":0,"value":2},"tallies:bellows breath":{"max":2,"temp":0,"value":2}}`)
	wantJSON(t, "tracks", res["tracks"], `{"scars":{"marks":["murk","murk"],"overflow":0,"penalty":-1},"tide":0}`)
	wantJSON(t, "text", res["text"], `{"errand":"","owed":""}`)
	wantJSON(t, "conditions", res["conditions"], `["soaked"]`)
	wantJSON(t, "states", res["states"], `{"lamp":"lit"}`)
	wantJSON(t, "abilities", res["abilities"], `{"glow":{"mod":2,"score":2},"knack":{"mod":0,"score":0},"nerve":{"mod":2,"score":2}}`)
	wantJSON(t, "derived", res["derived"], `{"blaze_max":0,"breath_max":10,"charm_limit":2,"flare_max":1,"guard":7,"haul":10,`+
		`"lamp_light":2,"quick":2,"reserve_level":1,"reserve_max":2,"spark_max":3,"ward_dc":10,"wick_skill":2}`)
	build := got["build"].(map[string]any)
	wantJSON(t, "build fields", build["fields"], `{"guild":"Ferrylight","oath":"Bring every passenger home","rank":3}`)
	if rows := build["lists"].(map[string]any)["workings"].([]any); len(rows) != 4 {
		t.Errorf("workings rows %d", len(rows))
	}
}

func wantJSON(t *testing.T, what string, v any, want string) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	if !reflect.DeepEqual(v, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, got, want)
	}
}
