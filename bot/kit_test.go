package bot

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
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

// kitErr runs /character kit op as u straight through its handler and returns its
// error, for a refusal's kind.
func (m *cmdTable) kitErr(u User, op string, opts ...string) error {
	m.t.Helper()
	cmd := Command{Name: "character kit " + op, User: u, ChannelID: m.ch, GuildID: "guild"}
	for i := 0; i+1 < len(opts); i += 2 {
		cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
	}
	_, err := kitHandler(op)(m.core, context.Background(), cmd)
	return err
}

// A player writes a library card's kit with /character kit, held to one system by the
// engine's own checks; joining a game on that system copies it, one on another leaves it
// on the card and says so; a refused change changes nothing.
func TestCharacterKit(t *testing.T) {
	m := newPickTable(t, "low-vell", "")
	m.ok(pkAna, "character create", "name", "Wren")
	m.ch = "library" // no campaign here: a kit is the library card's
	if got := m.ok(pkAna, "character kit add", "name", "Wren", "item", "Flask of Lamp Oil", "count", "3"); !strings.Contains(got, "Flask of Lamp Oil ×3") {
		t.Errorf("kit add: %q", got)
	}
	m.ok(pkAna, "character kit add", "name", "Wren", "item", "Oilskin Coat")
	before := m.libraryRecord("ana", "Wren")

	if err := m.kitErr(pkAna, "remove", "name", "Wren", "item", "Moon on a stick"); refusal.Of(err) != refusal.NotHeld {
		t.Errorf("removing what the kit lacks: %v, want not-held", err)
	}
	if err := m.kitErr(pkAna, "remove", "name", "Wren", "item", "Flask of Lamp Oil", "count", "9"); refusal.Of(err) != refusal.Insufficient {
		t.Errorf("removing more than the kit holds: %v, want insufficient", err)
	}
	if err := m.kitErr(pkAna, "add", "name", "Wren", "item", "Rope", "system", "saltmarch"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a kit of the ruleset's items given another system: %v, want not-allowed", err)
	}
	if err := m.kitErr(pkBram, "add", "name", "Wren", "item", "Oilskin Coat"); refusal.Of(err) != refusal.UnknownCharacter {
		t.Errorf("another player writing Wren's kit: %v, want unknown-character", err)
	}
	if after := m.libraryRecord("ana", "Wren"); !reflect.DeepEqual(after.Inventory, before.Inventory) || after.KitSystem != "" {
		t.Fatalf("refused kit changes changed the kit: %+v → %+v", before.Inventory, after.Inventory)
	}
	if v := m.run(pkAna, "character kit show", "name", "Wren"); len(v.Embeds) != 1 || !strings.Contains(v.Embeds[0].Fields[1].Value, "Flask of Lamp Oil ×3") {
		t.Errorf("kit show: %+v", v)
	}

	m.ch = "room"
	if got := m.ok(pkAna, "character join", "name", "Wren"); !strings.Contains(got, "They start with 2 things") {
		t.Errorf("join: %q", got)
	}
	if v := m.run(pkAna, "inventory"); len(v.Embeds) == 0 || !strings.Contains(v.Embeds[0].Fields[1].Value, "Oilskin Coat") {
		t.Errorf("/inventory after joining: %+v", v)
	}

	// A kit for Saltmarch fits a game on Saltmarch, not one on the ruleset's items.
	m.ok(pkAna, "character create", "name", "Oskar", "ruleset", "low-vell")
	if err := m.kitErr(pkAna, "add", "name", "Oskar", "item", "Nothing-such", "system", "no-such-system"); refusal.Of(err) != refusal.NotEnabled {
		t.Errorf("a system not installed: %v, want not-enabled", err)
	}
	m.ch = "saltmarch"
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "saltmarch")
	item := m.complete(pkAna, "character kit add", "item", "", "name", "Oskar", "system", "saltmarch")
	if len(item) == 0 {
		t.Fatal("no Saltmarch items offered for the kit")
	}
	m.ok(pkAna, "character kit add", "name", "Oskar", "item", item[0].Value, "system", "saltmarch")
	if got := m.ok(pkAna, "character join", "name", "Oskar"); !strings.Contains(got, "They start with 1 thing") {
		t.Errorf("joining Saltmarch with a Saltmarch kit: %q", got)
	}
	m.ch = "room"
	if got := m.ok(pkAna, "character join", "name", "Oskar"); !strings.Contains(got, "is for the game system saltmarch") {
		t.Errorf("joining the ruleset's items with a Saltmarch kit: %q", got)
	}
	if inv := m.gameRecord("Oskar").Inventory; inv != nil {
		t.Errorf("a kit that does not fit gave %+v", inv)
	}
	if lib := m.libraryRecord("ana", "Oskar"); lib.Inventory == nil || lib.KitSystem != "saltmarch" {
		t.Errorf("the kit left on the card: %+v (%q)", lib.Inventory, lib.KitSystem)
	}
	m.ok(pkAna, "character kit clear", "name", "Oskar")
	if lib := m.libraryRecord("ana", "Oskar"); lib.Inventory != nil || lib.KitSystem != "" {
		t.Errorf("kit clear left %+v (%q)", lib.Inventory, lib.KitSystem)
	}
}
