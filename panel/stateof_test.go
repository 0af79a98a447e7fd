package panel_test

import (
	"strings"
	"testing"

	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/panel"
)

// From the inventory engine to a panel's body: a 5e character built from the built-in
// system's catalog, the state StateOf makes of them, and the Combat and Character panels
// drawing it — the chain the bot runs for /inventory.
func TestStateOfFeedsTheBuiltinPanels(t *testing.T) {
	file, ok, err := content.LookupSystem("dnd5e-srd")
	if err != nil || !ok {
		t.Fatal(err)
	}
	sys, ps := inventory.Parse(file.File)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, ps := sys.Campaign(nil)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	entry := func(uid, id string, qty int64, equipped bool) *inventory.Entry {
		it := sys.CatalogItem(id)
		if it == nil {
			t.Fatalf("no catalog item %q", id)
		}
		e := c.NewEntry(uid, it, qty)
		e.Equipped = equipped
		return e
	}
	quiver := entry("q", "quiver", 1, false)
	arrows := entry("a", "arrow", 20, false)
	arrows.Parent = quiver.UID
	inv := []*inventory.Entry{entry("s", "longsword", 1, true), entry("b", "longbow", 1, true), quiver, arrows,
		entry("m", "chain-mail", 1, true)}
	purse, err := sys.Money().PurseOf(map[string]int64{"gp": 12, "sp": 5})
	if err != nil {
		t.Fatal(err)
	}
	st := panel.StateOf(c, panel.Who{ID: "mira", Name: "Mira", Stats: map[string]any{"str": 15.0, "dex": 14.0}, Purse: purse}, inv)
	if st.Character.Stats["prof"] != 2.0 || st.Character.Stats["str"] != 15.0 {
		t.Errorf("stats %v: the system's starting values under the character's own", st.Character.Stats)
	}
	if a := st.Items[3]; a.Location != "Quiver" || !a.InHolder {
		t.Errorf("arrows in %q (in a holder %v)", a.Location, a.InHolder)
	}
	if s := st.Items[0]; s.Item["damage"] != "1d8" || !contains(s.Features, "weapon") || !contains(s.Main, "weapon") {
		t.Errorf("longsword %+v", s)
	}
	if st.Totals.CoinsWorth != "12.5 gp" || st.Limits["attuned"].Limit != 3 {
		t.Errorf("totals %+v, limits %+v", st.Totals, st.Limits)
	}
	body := map[string]string{}
	for _, p := range builtinPanels(t, "dnd5e-srd") {
		if p.Slot != panel.SlotInventory {
			continue
		}
		r, err := panel.Run(&panel.Job{Lib: p.lib, Panel: p.Panel, Glossary: p.glossary, State: st, Budget: panel.MaxBudget})
		if err != nil {
			t.Fatal(err)
		}
		body[p.ID] = r.Body
	}
	for id, want := range map[string][]string{
		"combat":    {"**Longsword** **+4** to hit · 1d8 + 2 slashing", "**Longbow** **+4** to hit", "Ammunition: 20 Arrow (Quiver)"},
		"character": {"**Armor Class 16** — Chain Mail 16", "**Carried 62.3 / 225 lb**", "12 gp, 5 sp"},
	} {
		for _, w := range want {
			if !strings.Contains(body[id], w) {
				t.Errorf("%s's body lacks %q:\n%s", id, w, body[id])
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// builtin is one panel of a built-in system with what it runs with.
type builtin struct {
	panel.Panel
	lib      string
	glossary map[string]string
}

func builtinPanels(t testing.TB, id string) []builtin {
	var out []builtin
	for _, sys := range builtins(t) {
		if sys.ID == id {
			for _, p := range sys.Panels {
				out = append(out, builtin{p, sys.PanelLib, sys.Glossary})
			}
		}
	}
	return out
}
