package bot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// fenlightWith is a table on the fenlight ruleset with its items block changed by edit.
func fenlightWith(t *testing.T, edit func(items map[string]any)) *msgTable {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("console", "testdata", "rulesets", "fenlight.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	edit(d["items"].(map[string]any))
	if data, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	rec := &storage.RulesetRecord{ID: "local/fenlight", Version: 1, File: data}
	l, err := loadRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return newMsgTableOn(t, rec, l)
}

// TestInventoryInvent: a GM's add that describes an item invents it in the ruleset's
// words, kept with the holdings; a later tag finds it by name for another character,
// the same item; names find the ruleset's items by label in any case; a plain item is
// its name.
func TestInventoryInvent(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	m.card(bo.ID, "Oskar", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Glass Knife" like="Fen Lantern" category="tool" rarity="mythic" stats="weight=30" who="Wren"] `+
		`[inventory: action="add" item="eel jerky" who="Wren"] [inventory: action="add" item="Lucky Pebble" count="2" who="Wren"]`)
	wantOutcomes(t, "inventing", acts, "", "", "")
	wren := m.holdings("Wren")
	for _, want := range []string{`"id":"gm/glass-knife"`, `"id":"pack/eel-jerky"`, `"id":"plain/lucky-pebble"`, `"qty":2`} {
		if !strings.Contains(wren, want) {
			t.Errorf("Wren holds %s, lacking %s", wren, want)
		}
	}
	if d := acts[0].Embeds[0].Description; !strings.Contains(d, "Glass Knife ×1 (") {
		t.Errorf("the invention's notes are not said: %q", d)
	}
	_, acts = m.say(gmUser, `[inventory: action="add" item="Glass Knife" who="Oskar"] [inventory: action="equip" item="Glass Knife" who="Oskar"]`)
	wantOutcomes(t, "found again", acts, "", "")
	if got := m.holdings("Oskar"); !strings.Contains(got, `"id":"gm/glass-knife"`) || !strings.Contains(got, `"equipped":true`) {
		t.Errorf("Oskar holds %s", got)
	}
}

// TestInventoryStackRows: an add past an item's stack fills the stacks there are and
// starts rows of at most the stack (Fenlight's Eel Jerky: 10).
func TestInventoryStackRows(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	m.say(gmUser, `[inventory: action="add" item="Eel Jerky" count="4" who="Wren"]`)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Eel Jerky" count="21" who="Wren"]`)
	wantOutcomes(t, "jerky", acts, "")
	got := m.holdings("Wren")
	if strings.Count(got, `"qty":10`) != 2 || !strings.Contains(got, `"qty":5`) {
		t.Errorf("25 jerky in rows of at most 10: %s", got)
	}
}

// TestInventoryRulesetWords: native: false refuses the GM a name none of the ruleset's
// items has (not-ruleset-item), and propose: false refuses an invention (not-allowed);
// each refusal changes nothing.
func TestInventoryRulesetWords(t *testing.T) {
	m := fenlightWith(t, func(it map[string]any) { it["native"], it["propose"] = false, false })
	m.card(ana.ID, "Wren", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Lucky Pebble" who="Wren"] [inventory: action="add" item="Glass Knife" like="Fen Lantern" who="Wren"] `+
		`[inventory: action="add" item="Fen Lantern" who="Wren"]`)
	wantOutcomes(t, "ruleset words", acts, refusal.NotRulesetItem, refusal.NotAllowed, "")
	if got := m.holdings("Wren"); strings.Contains(got, "plain/") || strings.Contains(got, "gm/") {
		t.Errorf("a refused add changed the holdings: %s", got)
	}
}

// TestInventoryShareOut: an add without who= is shared out among the party (asked in
// the table's order: Oskar, then Wren) by what each carries against their carry line
// (Fenlight: encumbered above 12; here at most 14): all of it to the first who carries
// it unencumbered, else most room first; what weighs nothing to the first; past
// everyone's limit it is refused too-heavy and nothing changes.
func TestInventoryShareOut(t *testing.T) {
	m := fenlightWith(t, func(it map[string]any) {
		it["carry"].(map[string]any)["limit"] = map[string]any{"const": 14}
	})
	m.card(ana.ID, "Wren", nil)
	m.card(bo.ID, "Oskar", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Fen Lantern" count="2"] [inventory: action="add" item="Punt Gaff" count="4"] [inventory: action="add" item="Heron Feather" count="3"]`)
	wantOutcomes(t, "sharing", acts, "", "", "")
	var lines []string
	for _, e := range acts[0].Embeds {
		lines = append(lines, e.Title+": "+e.Description)
	}
	got := strings.Join(lines, "\n")
	if !strings.Contains(got, "Punt Gaff: 1 to Oskar, 3 to Wren") {
		t.Errorf("the share-out says\n%s", got)
	}
	wren, oskar := m.holdings("Wren"), m.holdings("Oskar")
	if !strings.Contains(oskar, `"id":"pack/fen-lantern","qty":2`) || !strings.Contains(oskar, `"id":"pack/heron-feather","qty":3`) ||
		!strings.Contains(oskar, `"id":"pack/punt-gaff","qty":1`) || !strings.Contains(wren, `"id":"pack/punt-gaff","qty":3`) {
		t.Errorf("Wren holds %s\nOskar holds %s", wren, oskar)
	}
	_, acts = m.say(gmUser, `[inventory: action="add" item="Punt Gaff" count="3"]`)
	wantOutcomes(t, "past every limit", acts, refusal.TooHeavy)
	if m.holdings("Wren") != wren || m.holdings("Oskar") != oskar {
		t.Error("a refused share-out changed the holdings")
	}
}
