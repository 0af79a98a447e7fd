package bot

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// itemAs runs /item op as u at m's table, options as name, value pairs.
func itemAs(m *msgTable, u User, op string, opts ...string) (Response, error) {
	cmd := Command{Name: "item " + op, User: u, ChannelID: m.ch}
	for i := 0; i+1 < len(opts); i += 2 {
		cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
	}
	return itemHandler(op)(m.core, context.Background(), cmd)
}

// showcaseTable is a saltmarch game where Wren (Ana's) and Oskar (Bram's) joined: Wren,
// the game's first character, starts with the showcase, items the catalog has not.
func showcaseTable(t *testing.T) *cmdTable {
	m := newCmdTable(t)
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "saltmarch")
	m.ok(pkAna, "character create", "name", "Wren")
	m.ok(pkBram, "character create", "name", "Oskar")
	m.ok(pkAna, "character join", "name", "Wren")
	m.ok(pkBram, "character join", "name", "Oskar")
	return m
}

// TestGiveOwnItem: an item of the giver's own (the showcase's Playing cards) is given
// with its JSON, so the receiver's holdings keep it (it was refused, unkinded).
func TestGiveOwnItem(t *testing.T) {
	m := showcaseTable(t)
	r := m.run(pkAna, "item give", "item", "Playing cards", "to", "Oskar")
	if r.Ephemeral {
		t.Fatalf("give refused: %q", r.Content)
	}
	if got := m.gameRecord("Oskar").Inventory; got == nil || len(got.Items) != 1 || got.Items[0].Item["name"] != "Playing cards" {
		t.Errorf("Oskar holds %+v", got)
	}
}

// TestTradeOwnItem: the showcase's Compass, Wren's own, trades like a catalog item (the
// accept was an internal error).
func TestTradeOwnItem(t *testing.T) {
	m := showcaseTable(t)
	m.ok(pkAna, "trade offer", "to", "Oskar", "give", "Compass")
	if r := m.run(pkBram, "trade accept"); strings.Contains(r.Content, "Internal error") || r.Ephemeral {
		t.Fatalf("accept: %q", r.Content)
	}
	if got := m.gameRecord("Oskar").Inventory; got == nil || len(got.Items) != 1 || got.Items[0].Item["name"] != "Compass" {
		t.Errorf("Oskar holds %+v", got)
	}
}

// TestRowCap: a stacking add past the 2,000 rows an inventory holds is refused
// too-many, like any other row past them, and the inventory stays readable (it was
// stored with 2,001 rows, and every later tag was malformed).
func TestRowCap(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.playSystem("saltmarch")
	m.card(ana.ID, "Mira", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Reed knife" count="2000" who="Mira"]`)
	wantOutcomes(t, "2000 knives", acts, "")
	_, acts = m.say(gmUser, `[inventory: action="add" item="Smoked eel" count="4" who="Mira"]`)
	wantOutcomes(t, "one row more", acts, refusal.TooMany)
	if n := strings.Count(m.holdings("Mira"), `"uid"`); n != 2000 {
		t.Errorf("Mira holds %d rows", n)
	}
	_, acts = m.say(gmUser, `[inventory: action="remove" item="Reed knife" who="Mira"]`)
	wantOutcomes(t, "still readable", acts, "")
}

// TestCursedHeldFast: a cursed binding only the GM ends (SPEC 7): Wren's player cannot
// give, remove or trade the bound Hollow Ring away (locked), nor give a bound charm to
// Oskar past his binding limit (limit); the GM's /item removes it. Before, the give and
// the remove went through and Oskar was left with bound charms 3/2.
func TestCursedHeldFast(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	m.card(bo.ID, "Oskar", nil)
	for _, step := range []struct {
		u    User
		op   string
		opts []string
		want refusal.Reason
	}{
		{gmUser, "add", []string{"name", "Oskar", "item", "Reed Amulet"}, ""},
		{gmUser, "add", []string{"name", "Oskar", "item", "Heron Feather"}, ""},
		{bo, "state", []string{"item", "Reed Amulet", "key", "bound", "state", "on"}, ""},
		{bo, "state", []string{"item", "Heron Feather", "key", "bound", "state", "on"}, ""},
		{gmUser, "add", []string{"name", "Wren", "item", "Hollow Ring"}, ""},
		{gmUser, "add", []string{"name", "Wren", "item", "Reed Amulet"}, ""},
		{ana, "state", []string{"item", "Hollow Ring", "key", "bound", "state", "on"}, ""},
		{ana, "state", []string{"item", "Reed Amulet", "key", "bound", "state", "on"}, ""},
		{ana, "give", []string{"item", "Hollow Ring", "to", "Oskar"}, refusal.Locked},
		{ana, "remove", []string{"item", "Hollow Ring"}, refusal.Locked},
		{ana, "give", []string{"item", "Reed Amulet", "to", "Oskar"}, refusal.Limit},
		{gmUser, "remove", []string{"name", "Wren", "item", "Hollow Ring"}, ""},
	} {
		if _, err := itemAs(m, step.u, step.op, step.opts...); refusal.Of(err) != step.want {
			t.Errorf("%s /item %s %v: %v, want %q", step.u.ID, step.op, step.opts, err, step.want)
		}
	}
	if got := m.holdings("Oskar"); strings.Count(got, `"bound":true`) != 2 {
		t.Errorf("Oskar holds %s", got)
	}
	if got := m.holdings("Wren"); strings.Contains(got, "hollow-ring") || !strings.Contains(got, "reed-amulet") {
		t.Errorf("Wren holds %s", got)
	}
}

// TestCursedTrade: a trade cannot take a cursed binding away either (locked).
func TestCursedTrade(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	m.card(bo.ID, "Oskar", nil)
	if _, err := itemAs(m, gmUser, "add", "name", "Wren", "item", "Hollow Ring"); err != nil {
		t.Fatal(err)
	}
	if _, err := itemAs(m, ana, "state", "item", "Hollow Ring", "key", "bound", "state", "on"); err != nil {
		t.Fatal(err)
	}
	offer := Command{Name: "trade offer", User: ana, ChannelID: m.ch, Options: []Option{{Name: "to", Value: "Oskar"}, {Name: "give", Value: "Hollow Ring"}}}
	_, err := m.core.cmdTradeOffer(context.Background(), offer)
	if err == nil {
		_, err = m.core.cmdTradeAccept(context.Background(), Command{Name: "trade accept", User: bo, ChannelID: m.ch})
	}
	if refusal.Of(err) != refusal.Locked {
		t.Errorf("trading the cursed ring: %v, want locked", err)
	}
	if got := m.holdings("Wren"); !strings.Contains(got, "hollow-ring") {
		t.Errorf("Wren holds %s", got)
	}
}

// TestBindingMaxReadsHoldings: the binding limit is inventory.BindingMax off the sheet
// with its holdings, so a carried charm that raises Wit (binding.max is Wit's modifier
// here, through a derived value) raises the limit; it was read off a sheet with
// nothing held.
func TestBindingMaxReadsHoldings(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("console", "testdata", "rulesets", "fenlight.json"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	for old, new := range map[string]string{
		`"binding": {"label": "Bound charms", "max": {"const": 2}}`: `"binding": {"label": "Bound charms", "max": {"derived": "charm_max"}}`,
		`"derived": [`: `"derived": [{"id": "charm_max", "label": "Charms bound at most", "op": "sum", "of": [{"abilityMod": "wit"}], "section": "warden"}, `,
		`{"id": "hollow-ring",`: `{"id": "owl-charm", "label": "Owl Charm", "summary": "Sharpens the wits of whoever carries it.", "item": {"category": "charm", "rarity": "odd", "stats": {"weight": 0}, "carried": {"abilities": {"wit": {"add": 2}}}, "cost": {"amount": 1, "unit": "pearl"}}},
      {"id": "hollow-ring",`,
	} {
		if !strings.Contains(src, old) {
			t.Fatalf("fenlight.json lacks %s", old)
		}
		src = strings.Replace(src, old, new, 1)
	}
	rec := &storage.RulesetRecord{ID: "local/fenlight", Version: 1, File: []byte(src)}
	l, err := loadRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	m := newMsgTableOn(t, rec, l)
	m.card(ana.ID, "Wren", nil)
	for _, step := range []struct {
		u    User
		op   string
		opts []string
		want refusal.Reason
	}{
		{gmUser, "add", []string{"name", "Wren", "item", "Reed Amulet"}, ""},
		{gmUser, "add", []string{"name", "Wren", "item", "Heron Feather"}, ""},
		{ana, "bind", []string{"item", "Reed Amulet"}, ""},
		{ana, "bind", []string{"item", "Heron Feather"}, refusal.Limit}, // Wit 1: one charm
		{gmUser, "add", []string{"name", "Wren", "item", "Owl Charm"}, ""},
		{ana, "bind", []string{"item", "Heron Feather"}, ""}, // Wit 3 with the Owl Charm
	} {
		if _, err := itemAs(m, step.u, step.op, step.opts...); refusal.Of(err) != step.want {
			t.Errorf("%s /item %s %v: %v, want %q", step.u.ID, step.op, step.opts, err, step.want)
		}
	}
}

// TestWornContainerShowsContents: what is inside an equipped container is listed under
// it in /inventory's Equipped (it vanished from the embed, though it still weighed).
func TestWornContainerShowsContents(t *testing.T) {
	m := showcaseTable(t)
	m.update(func(tx storage.Tx) error {
		rec, err := tx.GameCard(m.ch, "Wren")
		if err != nil {
			return err
		}
		for i := range rec.Inventory.Items {
			if e := &rec.Inventory.Items[i]; e.Item["name"] == "Backpack" {
				e.Equipped = true
			}
		}
		return tx.PutGameCard(m.ch, rec)
	})
	r := m.run(pkAna, "inventory")
	if len(r.Embeds) == 0 {
		t.Fatalf("/inventory: %q", r.Content)
	}
	for _, f := range r.Embeds[0].Fields {
		if f.Name == "Equipped" && (!strings.HasPrefix(f.Value, "• Backpack\n") || !strings.Contains(f.Value, "\n  • Rations (1 day) ×4") || !strings.Contains(f.Value, "\n  • Arrows ×7")) {
			t.Errorf("Equipped: %q", f.Value)
		}
		if f.Name == "Carried" && strings.Contains(f.Value, "Rations") {
			t.Errorf("Carried: %q", f.Value)
		}
	}
}

// TestShowcaseTemplates: on a system without the showcase's template ids (saltmarch),
// the Backpack is made from a template that holds things and the rest from a plain one,
// not all from the first template (a tool of harm, taking a hand).
func TestShowcaseTemplates(t *testing.T) {
	m := showcaseTable(t)
	for _, e := range m.gameRecord("Wren").Inventory.Items {
		want := "sm-provision"
		if e.Item["name"] == "Backpack" {
			want = "sm-carrier"
		}
		if e.Item["type"] != want {
			t.Errorf("%v is made from %v, want %s", e.Item["name"], e.Item["type"], want)
		}
	}
}

// TestRemoveContainerDropsContents: removing a container drops what is in it loose, and
// only a give moves it with the container (a remove deleted the contents with it).
func TestRemoveContainerDropsContents(t *testing.T) {
	m := showcaseTable(t)
	m.ok(pkAna, "item remove", "item", "Backpack")
	names := map[string]string{}
	for _, e := range m.gameRecord("Wren").Inventory.Items {
		names[e.Item["name"].(string)] = e.In
	}
	if _, ok := names["Backpack"]; ok {
		t.Errorf("the Backpack stays: %v", names)
	}
	for _, n := range []string{"Rations (1 day)", "Arrows"} {
		if in, ok := names[n]; !ok || in != "" {
			t.Errorf("%s: held %v, in %q", n, ok, in)
		}
	}
}

// blockYardSystem limits attunement to one item, in block mode.
const blockYardSystem = `{
  "packrat": "system", "id": "block-yard", "name": "Block Yard",
  "templates": [ { "id": "by-charm", "name": "Charm", "plural": "Charms", "features": { "attunement": true, "equippable": true } } ],
  "features": [ { "key": "attunement", "label": "Attunement", "flag": "requiresAttunement" } ],
  "states": [ { "key": "attuned", "label": "Attuned", "who": "player", "requires": "attunement",
    "limit": { "value": "attuneSlots", "default": 1, "mode": "block", "text": "You can attune to at most {limit} items" } } ],
  "catalog": [ { "id": "by-bead", "type": "by-charm", "name": "Bead", "cost": 1, "weight": 0 } ]
}`

// TestEquipSplitKeepsBlockLimits: equipping one of a stack splits off a row that keeps
// the stack's states, so it is checked as an arrival is. Two beads in one attuned row
// are one attunement of one allowed; equipping one would make two attuned rows, so it
// is refused limit and changes nothing. Unattuned, the stack splits and equips.
func TestEquipSplitKeepsBlockLimits(t *testing.T) {
	m := newCmdTable(t)
	m.runFile(pkGM, "system import", &Attachment{Name: "block.json", Data: []byte(blockYardSystem)})
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "block-yard")
	m.ok(pkAna, "character create", "name", "Mira")
	m.ok(pkAna, "character join", "name", "Mira")
	m.ok(pkGM, "item add", "item", "Bead", "name", "Mira", "count", "2")
	item := func(op string, opts ...string) error {
		cmd := Command{Name: "item " + op, User: pkAna, ChannelID: m.ch}
		for i := 0; i+1 < len(opts); i += 2 {
			cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
		}
		_, err := itemHandler(op)(m.core, context.Background(), cmd)
		return err
	}
	if err := item("state", "item", "Bead", "key", "attuned", "state", "on"); err != nil {
		t.Fatal(err)
	}
	before := m.storedJSON("Mira")
	if err := item("equip", "item", "Bead"); refusal.Of(err) != refusal.Limit {
		t.Errorf("equipping one of an attuned pair at the limit: %v, want limit", err)
	}
	if after := m.storedJSON("Mira"); after != before {
		t.Errorf("the refused equip changed the holdings:\n%s\n→\n%s", before, after)
	}
	if err := item("state", "item", "Bead", "key", "attuned", "state", "off"); err != nil {
		t.Fatal(err)
	}
	if err := item("equip", "item", "Bead"); err != nil {
		t.Errorf("equipping one of an unattuned pair: %v", err)
	}
	if s := m.storedJSON("Mira"); !strings.Contains(s, `"qty":1,"equipped":true`) {
		t.Errorf("one bead is not equipped: %s", s)
	}
}
