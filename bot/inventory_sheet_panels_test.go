package bot

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"sheetkeeper/panel"
	"sheetkeeper/storage"
)

// A panel that fails is shown where it would have been, with its kind (and its message
// to a GM only), and never breaks the command; what a panel asks for while drawing is
// listed as not done, never done behind the player's back.
func TestPanelsAtTheTable(t *testing.T) {
	m := newCmdTable(t)
	var ran []string
	m.core.panels = func(_ context.Context, j *panel.Job) (panel.Result, error) {
		ran = append(ran, j.Panel.ID+":"+j.State.Character.Name)
		switch j.Panel.ID {
		case "character":
			return panel.Result{}, &panel.Error{Kind: panel.KindTimeout, Panel: j.Panel.ID, Msg: "the call ran past 250ms"}
		case "combat":
			r, err := panel.Run(j)
			r.Requests = append(r.Requests, panel.Request{Action: "equip", Args: map[string]any{"uid": "i1"}})
			return r, err
		}
		return panel.Run(j)
	}
	m.ok(pkGM, "campaign create", "ruleset", "dnd5e-srd", "system", "dnd5e-srd")
	m.pkCard("ana", "Mira", map[string]any{"ability.str": 15.0})
	before := m.gameRecord("Mira")

	r := m.run(pkAna, "inventory")
	if len(r.Embeds) != 3 {
		t.Fatalf("a player's /inventory: %d embeds, want the inventory and two inventory panels: %+v", len(r.Embeds), r)
	}
	if got := r.Embeds[1].Description; !strings.Contains(got, "(timeout)") || strings.Contains(got, "250ms") {
		t.Errorf("the failed panel, to a player: %q (want its kind, not its message)", got)
	}
	if got := r.Embeds[2].Description; !strings.Contains(got, "Unarmed strike") || !strings.Contains(got, "Not done") || !strings.Contains(got, "equip") {
		t.Errorf("the combat panel: %q (want what it drew and its request, not done)", got)
	}
	if after := m.gameRecord("Mira"); after.Inventory != before.Inventory && after.Inventory != nil {
		t.Errorf("a panel's request changed the inventory: %+v", after.Inventory)
	}

	g := m.run(pkGM, "inventory", "name", "Mira")
	if len(g.Embeds) != 4 || !strings.Contains(g.Embeds[1].Description, "250ms") || !strings.Contains(g.Embeds[3].Description, "**AC**") {
		t.Errorf("a GM's /inventory: want the failure's message and the gm-player card: %+v", g.Embeds)
	}
	brief := gmBriefOf(t, m)
	if !strings.Contains(brief, "Player panel: **AC** 10") || !strings.Contains(brief, "Items (Attuned 0 of 3; purse no coins): none") {
		t.Errorf("the brief's character lines:\n%s", brief[strings.Index(brief, "CHARACTER SHEETS"):])
	}
	if len(ran) == 0 || ran[0] != "character:Mira" {
		t.Errorf("panels ran for %v", ran)
	}
}

// viewCounting is a store that counts the read transactions open.
type viewCounting struct {
	storage.Store
	open *atomic.Int32
}

func (s viewCounting) View(ctx context.Context, fn func(storage.Tx) error) error {
	s.open.Add(1)
	defer s.open.Add(-1)
	return s.Store.View(ctx, fn)
}

// Panels run after the store's transaction, never inside it: a panel may take its
// whole budget, and a read transaction held that long stalls every writer that must
// grow the file.
func TestPanelsRunOutsideTheStoreTransaction(t *testing.T) {
	m := newCmdTable(t)
	m.ok(pkGM, "campaign create", "ruleset", "dnd5e-srd", "system", "dnd5e-srd")
	m.pkCard("ana", "Mira", map[string]any{"ability.str": 15.0})
	open := &atomic.Int32{}
	m.core.store = viewCounting{Store: m.core.store, open: open}
	var ran, inside int
	m.core.panels = func(_ context.Context, j *panel.Job) (panel.Result, error) {
		ran++
		if open.Load() > 0 {
			inside++
		}
		return panel.Run(j)
	}
	m.run(pkGM, "inventory", "name", "Mira")
	m.run(pkGM, "gm brief")
	if ran == 0 || inside > 0 {
		t.Fatalf("%d panels ran, %d of them inside a read transaction", ran, inside)
	}
}

// A panel is sent the campaign's Global values as the system declares them (their
// defaults: nothing sets them yet), as the inventory rules read them; settings, which
// no campaign stores, are an empty object.
func TestPanelsSeeGlobals(t *testing.T) {
	m := newCmdTable(t)
	att := marchCopy(t, "")
	att.Data = bytes.Replace(att.Data, []byte(`"values": [`), []byte(`"values": [
    { "name": "season", "scope": "global", "label": "Season", "default": 2 },`), 1)
	if r := m.runFile(pkGM, "system import", att); !strings.HasPrefix(r.Content, "Imported") {
		t.Fatalf("import: %s", r.Content)
	}
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "my-march")
	m.pkCard("ana", "Mira", nil)
	var got []panel.State
	m.core.panels = func(_ context.Context, j *panel.Job) (panel.Result, error) {
		got = append(got, j.State)
		return panel.Result{}, nil
	}
	m.run(pkGM, "inventory", "name", "Mira")
	if len(got) == 0 {
		t.Fatal("no panel ran")
	}
	for _, st := range got {
		if st.Values.Global["season"] != 2.0 || st.Settings == nil || len(st.Settings) != 0 {
			t.Errorf("global values %v, settings %v: want season 2 and no settings", st.Values.Global, st.Settings)
		}
	}
}
