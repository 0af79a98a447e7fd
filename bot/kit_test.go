package bot

import (
	"strings"
	"testing"

	"sheetkeeper/inventory"
	"sheetkeeper/storage"
)

// giveKit makes owner's library card name carry kit.
func (m *cmdTable) giveKit(owner, name string, kit *inventory.Stored) {
	m.t.Helper()
	m.update(func(tx storage.Tx) error {
		rec, err := tx.LibraryCard(owner, name)
		if err != nil {
			return err
		}
		rec.Inventory = kit
		return tx.PutLibraryCard(rec)
	})
}

// A library card's kit goes with it into a game whose system holds it, and stays behind
// (whole) in one whose system does not; it is copied, never moved.
func TestStartingKit(t *testing.T) {
	kit := &inventory.Stored{Items: []inventory.StoredEntry{{UID: "i1", ID: "chandlery/oilskin-coat", Qty: 1}, {UID: "i2", ID: "chandlery/flask-of-oil", Qty: 3}}, Next: 2}

	m := newPickTable(t, "low-vell", "")
	m.ok(pkAna, "character create", "name", "Wren")
	m.giveKit("ana", "Wren", kit)
	if got := m.ok(pkAna, "character join", "name", "Wren"); !strings.Contains(got, "They start with 2 things") {
		t.Errorf("join: %q", got)
	}
	got := m.gameRecord("Wren").Inventory
	if got == nil || len(got.Items) != 2 || got.Items[1].ID != "chandlery/flask-of-oil" || got.Items[1].Qty != 3 || got.Next != 2 {
		t.Fatalf("the game card's inventory: %+v", got)
	}
	if lib := m.libraryRecord("ana", "Wren").Inventory; lib == nil || len(lib.Items) != 2 {
		t.Errorf("the library card's kit after joining: %+v", lib)
	}
	if v := m.run(pkAna, "inventory"); len(v.Embeds) == 0 || !strings.Contains(v.Embeds[0].Fields[1].Value, "Flask of Lamp Oil ×3") {
		t.Errorf("/inventory after joining: %+v", v)
	}

	// Another game of the same ruleset on a Pack Rat system has none of those items.
	m.ch = "elsewhere"
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "saltmarch")
	if got := m.ok(pkAna, "character join", "name", "Wren"); !strings.Contains(got, "starting kit stays on their library card") {
		t.Errorf("join where the kit does not fit: %q", got)
	}
	if inv := m.gameRecord("Wren").Inventory; inv != nil {
		t.Errorf("a kit that does not fit gave %+v", inv)
	}
}

// Without a kit, the first character of a game on a Pack Rat system starts with the
// system's showcase, as Pack Rat's first character does; the next starts with nothing.
func TestShowcaseForTheFirstCharacter(t *testing.T) {
	m := newCmdTable(t)
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "saltmarch")
	m.ok(pkAna, "character create", "name", "Wren")
	m.ok(pkBram, "character create", "name", "Oskar")
	if got := m.ok(pkAna, "character join", "name", "Wren"); !strings.Contains(got, "They start with") {
		t.Errorf("the first join: %q", got)
	}
	inv := m.gameRecord("Wren").Inventory
	if inv == nil || len(inv.Items) < 2 {
		t.Fatalf("the first character's showcase: %+v", inv)
	}
	for _, e := range inv.Items {
		if e.Item == nil {
			t.Errorf("showcase entry %s is not kept as its own item: %+v", e.UID, e)
		}
	}
	if v := m.run(pkAna, "inventory"); len(v.Embeds) == 0 || !strings.Contains(v.Embeds[0].Fields[1].Value, "Backpack") {
		t.Errorf("/inventory of the showcase: %+v", v)
	}
	if got := m.ok(pkBram, "character join", "name", "Oskar"); strings.Contains(got, "start with") {
		t.Errorf("the second join: %q", got)
	}
	if inv := m.gameRecord("Oskar").Inventory; inv != nil {
		t.Errorf("the second character's inventory: %+v", inv)
	}
}
