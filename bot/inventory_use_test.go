package bot

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// lowVellWith is a table on Low Vell with its file changed by edit.
func lowVellWith(t *testing.T, edit func(d map[string]any)) *msgTable {
	t.Helper()
	data, err := os.ReadFile("../content/rulesets/low-vell.json")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	if data, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	rec := &storage.RulesetRecord{ID: "local/low-vell", Version: 1, File: data}
	l, err := loadRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return newMsgTableOn(t, rec, l)
}

// TestInventoryUse: a ruleset item's use does what the guide's Items chapter says, on
// the user's sheet, in the same tag: the Flask of Lamp Oil is used up and gives back 1
// reserve; the Tide Glass spends its use's charge and stays. Deleting the message puts
// back both the sheet and the holdings; a use past the charges is refused and changes
// neither.
func TestInventoryUse(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.card(ana.ID, "Mira", nil)
	m.say(gmUser, `[sheet: op="spend" pool="reserve" amount="1" who="Mira"] [inventory: action="add" item="Flask of Lamp Oil" count="2" who="Mira"] [inventory: action="add" item="Tide Glass" who="Mira"]`)
	before, held := m.pool("Mira", "reserve"), m.holdings("Mira")
	id, acts := m.say(gmUser, `[inventory: action="use" item="Flask of Lamp Oil" who="Mira"] [inventory: action="use" item="Tide Glass" count="2" who="Mira"]`)
	wantOutcomes(t, "using", acts, "", "")
	if d := acts[0].Embeds[0].Description; !strings.Contains(d, "Flask of Lamp Oil ×1; restore 1 reserve") || !strings.Contains(d, "Tide Glass 1/3 charges") {
		t.Errorf("the use says %q", d)
	}
	if got := m.pool("Mira", "reserve"); got == before {
		t.Errorf("the flask gave back no reserve: %s", got)
	}
	_, acts = m.say(gmUser, `[inventory: action="use" item="Tide Glass" count="2" who="Mira"]`)
	wantOutcomes(t, "past the charges", acts, refusal.Insufficient)
	m.delete(id)
	if got := m.pool("Mira", "reserve"); got != before {
		t.Errorf("after the delete reserve is %s, want %s", got, before)
	}
	if got := m.holdings("Mira"); got != held {
		t.Errorf("after the delete Mira holds\n%s\nwant\n%s", got, held)
	}
	// The last charge throws the Tide Glass's breaksOn die: on a 1 it is gone.
	_, acts = m.say(gmUser, `[inventory: action="use" item="Tide Glass" count="3" who="Mira"]`)
	wantOutcomes(t, "the last charge", acts, "")
	d := acts[0].Embeds[0].Description
	gone := !strings.Contains(m.holdings("Mira"), "tide-glass")
	if !strings.Contains(d, "last charge: 1d6 ") || strings.Contains(d, "it breaks") != gone {
		t.Errorf("the last charge says %q; the glass gone: %v", d, gone)
	}
	if r := m.lastReply(); len(r.Rolls) != 1 || len(r.Rolls[0].Faces) != 1 {
		t.Errorf("the reply keeps %+v", r.Rolls)
	}
}

// TestInventoryUseDice: a heal's dice are thrown by the table and kept with the reply,
// so regenerating the same text throws the same faces.
func TestInventoryUseDice(t *testing.T) {
	m := lowVellWith(t, func(d map[string]any) {
		for _, c := range d["catalogs"].([]any) {
			c := c.(map[string]any)
			if c["holds"] == "items" {
				c["entries"] = append(c["entries"].([]any), map[string]any{"id": "salt-draught", "label": "Salt Draught", "filters": map[string]any{"shelf": "Provisions"},
					"item": map[string]any{"category": "provision", "stack": 5, "use": map[string]any{"kind": "heal", "budget": "act", "targets": "self", "consumes": true, "amount": map[string]any{"dice": "3d6"}}}})
				break
			}
		}
	})
	m.card(ana.ID, "Mira", nil)
	m.say(gmUser, `[sheet: op="damage" pool="breath" amount="99" who="Mira"] [inventory: action="add" item="Salt Draught" count="2" who="Mira"]`)
	text := `[inventory: action="use" item="Salt Draught" who="Mira"]`
	id, acts := m.say(gmUser, text)
	wantOutcomes(t, "the draught", acts, "")
	healed := m.pool("Mira", "breath")
	if r := m.lastReply(); len(r.Rolls) != 1 || len(r.Rolls[0].Faces) != 3 {
		t.Fatalf("the reply keeps %+v", r.Rolls)
	}
	m.edit(id, gmUser, "Again: "+text)
	if got := m.pool("Mira", "breath"); got != healed {
		t.Errorf("regenerated, breath is %s, want %s (the same faces)", got, healed)
	}
}
