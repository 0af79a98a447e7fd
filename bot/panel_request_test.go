package bot

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/panel"
	"sheetkeeper/refusal"
)

// requestButtons are the request buttons of an /inventory answer, by label.
func requestButtons(r Response) map[string]string {
	out := map[string]string{}
	for _, row := range r.Components {
		for _, b := range row.Buttons {
			if strings.HasPrefix(b.CustomID, panelRequestID.name+":") {
				out[b.Label] = b.CustomID
			}
		}
	}
	return out
}

// A panel's requests are buttons for the character's player only; pressed by them, each
// plays the /item action it stands for, with its checks and an Undo; pressed by anyone
// else, or refused by /item's checks, it changes nothing.
func TestPanelRequestButtons(t *testing.T) {
	m := newCmdTable(t)
	m.ok(pkGM, "campaign create", "ruleset", "dnd5e-srd", "system", "dnd5e-srd")
	m.pkCard("ana", "Mira", map[string]any{"ability.str": 15.0})
	m.ok(pkGM, "item add", "item", "Longsword", "name", "Mira")
	uid := m.gameRecord("Mira").Inventory.Items[0].UID
	m.core.panels = func(_ context.Context, j *panel.Job) (panel.Result, error) {
		r, err := panel.Run(j)
		if j.Panel.ID == "combat" {
			r.Requests = append(r.Requests,
				panel.Request{Action: "equip", Args: map[string]any{"uid": uid}},
				panel.Request{Action: "changeQty", Args: map[string]any{"uid": uid, "delta": -5.0}},
				panel.Request{Action: "setStat", Args: map[string]any{"key": "str", "value": 30.0}})
		}
		return r, err
	}

	r := m.run(pkAna, "inventory")
	buttons := requestButtons(r)
	equip, remove := buttons["Equip Longsword"], buttons["−5 Longsword"]
	if equip == "" || remove == "" || len(buttons) != 2 {
		t.Fatalf("the player's request buttons: %v", buttons)
	}
	if d := r.Embeds[len(r.Embeds)-1].Description; !strings.Contains(d, "Not done") || !strings.Contains(d, "setStat") || strings.Contains(d, "changeQty") {
		t.Errorf("the combat panel lists what has no button: %q", d)
	}
	if g := m.run(pkGM, "inventory", "name", "Mira"); len(requestButtons(g)) != 0 {
		t.Errorf("a GM's view of Mira has her buttons: %v", requestButtons(g))
	}

	before := m.gameRecord("Mira").Inventory
	press := func(u User, id string) error {
		args, err := panelRequestID.parse(id)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.core.panelRequestClick(context.Background(), Component{CustomID: id, User: u, ChannelID: m.ch, GuildID: "guild"}, args)
		return err
	}
	if err := press(pkBram, equip); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("someone else pressing Mira's button: %v, want not-allowed", err)
	}
	if err := press(pkGM, equip); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("the GM pressing Mira's button: %v, want not-allowed", err)
	}
	if err := press(pkAna, remove); refusal.Of(err) != refusal.Insufficient {
		t.Errorf("removing 5 of 1 held: %v, want insufficient", err)
	}
	if after := m.gameRecord("Mira").Inventory; !reflect.DeepEqual(after, before) {
		t.Fatalf("refused presses changed the inventory: %+v → %+v", before, after)
	}

	got := m.click(pkAna, equip)
	if len(got.Components) == 0 || !strings.Contains(got.Components[0].Buttons[0].CustomID, "undo") || !strings.Contains(got.Embeds[0].Description, "Longsword equipped") {
		t.Fatalf("the owner pressing Equip: %+v", got)
	}
	if inv := m.gameRecord("Mira").Inventory; !inv.Items[0].Equipped {
		t.Fatalf("the press did not equip the Longsword: %+v", inv)
	}
	m.click(pkGM, got.Components[0].Buttons[0].CustomID) // Undo is the GM's, as for /item
	if inv := m.gameRecord("Mira").Inventory; inv.Items[0].Equipped {
		t.Errorf("Undo left the Longsword equipped: %+v", inv)
	}

	// An entry gone since the panel drew is refused, not played on another.
	m.ok(pkGM, "item remove", "item", "Longsword", "name", "Mira")
	if err := press(pkAna, equip); refusal.Of(err) != refusal.NotHeld {
		t.Errorf("pressing for an entry gone: %v, want not-held", err)
	}
}

// A request names its entry by uid, and the press acts on that entry even when others
// share its name (a name finds the first): a state switched, a count taken, on that row
// alone, and again on that row when the GM's Undo is redone. A uid the player's character
// does not hold is refused not-held, changing nothing.
func TestPanelRequestActsOnTheEntryItNames(t *testing.T) {
	m := newCmdTable(t)
	m.ok(pkGM, "campaign create", "ruleset", "dnd5e-srd", "system", "dnd5e-srd")
	m.pkCard("ana", "Mira", map[string]any{"ability.str": 15.0})
	for range 3 {
		m.ok(pkGM, "item add", "item", "Longsword", "name", "Mira")
	}
	inv := m.gameRecord("Mira").Inventory
	if len(inv.Items) != 3 {
		t.Fatalf("three longswords, three rows: %+v", inv.Items)
	}
	second := inv.Items[1].UID
	m.core.panels = func(_ context.Context, j *panel.Job) (panel.Result, error) {
		r, err := panel.Run(j)
		if j.Panel.ID == "combat" {
			r.Requests = append(r.Requests,
				panel.Request{Action: "setState", Args: map[string]any{"uid": second, "key": "twoHanded", "on": true}},
				panel.Request{Action: "changeQty", Args: map[string]any{"uid": second, "delta": -1.0}})
		}
		return r, err
	}
	buttons := requestButtons(m.run(pkAna, "inventory"))
	state, remove := buttons["Longsword: In both hands on"], buttons["−1 Longsword"]
	if state == "" || remove == "" {
		t.Fatalf("the request buttons: %v", buttons)
	}

	m.click(pkAna, state)
	inv = m.gameRecord("Mira").Inventory
	for i, se := range inv.Items {
		if se.States["twoHanded"] != (se.UID == second) {
			t.Errorf("the request was for %s; row %d (%s) has %v", second, i, se.UID, se.States)
		}
	}

	forged := panelRequestID.encode("remove", "i99", "1", "Mira")
	args, _ := panelRequestID.parse(forged)
	if _, err := m.core.panelRequestClick(context.Background(), Component{CustomID: forged, User: pkAna, ChannelID: m.ch}, args); refusal.Of(err) != refusal.NotHeld {
		t.Errorf("a button for a uid Mira does not hold: %v, want not-held", err)
	}

	uids := func() []string {
		var out []string
		for _, se := range m.gameRecord("Mira").Inventory.Items {
			out = append(out, se.UID)
		}
		return out
	}
	want := []string{inv.Items[0].UID, inv.Items[2].UID}
	got := m.click(pkAna, remove)
	if u := uids(); !reflect.DeepEqual(u, want) {
		t.Fatalf("removing %s left %v, want %v", second, u, want)
	}
	undo := got.Components[0].Buttons[0].CustomID
	m.click(pkGM, undo)
	if u := uids(); len(u) != 3 {
		t.Fatalf("undone, Mira holds %v", u)
	}
	m.click(pkGM, redoID.encode(strings.TrimPrefix(undo, undoID.name+":")))
	if u := uids(); !reflect.DeepEqual(u, want) {
		t.Errorf("redone, the remove of %s left %v, want %v", second, u, want)
	}
}
