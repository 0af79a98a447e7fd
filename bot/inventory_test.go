package bot

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// holdings is a game card's stored holdings as JSON ("null" for none).
func (m *msgTable) holdings(name string) string {
	m.t.Helper()
	var out []byte
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		r, err := gameCard(tx, m.ch, name)
		if err != nil {
			return err
		}
		out, err = json.Marshal(r.Inventory)
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return string(out)
}

// playSystem makes the table's campaign play its inventories on a built-in system.
func (m *msgTable) playSystem(id string) {
	m.t.Helper()
	m.update(func(tx storage.Tx) error {
		camp, err := tx.Campaign(m.ch)
		if err != nil {
			return err
		}
		camp.System = id
		return tx.PutCampaign(camp)
	})
}

// outcomes are the reasons (or "ok") of a reply post's tags, in order.
func outcomes(t *testing.T, acts []Action) []string {
	t.Helper()
	for _, a := range acts {
		if len(a.Outcomes) == 0 {
			continue
		}
		var out []string
		for _, o := range a.Outcomes {
			if o.Result == "ok" {
				out = append(out, "ok")
			} else {
				out = append(out, o.Reason)
			}
		}
		return out
	}
	t.Fatalf("no outcomes in %+v", acts)
	return nil
}

func wantOutcomes(t *testing.T, what string, acts []Action, want ...refusal.Reason) {
	t.Helper()
	got := outcomes(t, acts)
	var w []string
	for _, r := range want {
		if r == "" {
			w = append(w, "ok")
		} else {
			w = append(w, string(r))
		}
	}
	if strings.Join(got, ",") != strings.Join(w, ",") {
		t.Errorf("%s: outcomes %v, want %v", what, got, w)
	}
}

// TestInventoryTags: Low Vell's items block is the campaign's inventory. Tags add,
// stack, equip into slots (a full one refused, saying what to take out), give between
// characters and pay; each refused tag changes nothing, and deleting the message puts
// back exactly what was there before, but for the uid counter, which never goes back.
func TestInventoryTags(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.card(ana.ID, "Mira", nil)
	m.card(bo.ID, "Bram", nil)
	_, acts := m.say(gmUser, `The chandler's. [inventory: action="add" item="Storm Lantern" who="Mira"] `+
		`[inventory: action="add" item="Flask of Lamp Oil" count="3" who="Mira"] [inventory: action="receive" amount="2 shells 4 bits" who="Mira"] `+
		`[inventory: action="equip" item="Storm Lantern" who="Mira"] [inventory: action="add" item="Boathook" who="Mira"]`)
	wantOutcomes(t, "the first reply", acts, "", "", "", "", "")
	first := m.holdings("Mira")
	for _, want := range []string{`"id":"chandlery/storm-lantern","qty":1,"equipped":true`, `"id":"chandlery/flask-of-oil","qty":3`, `"purse":{"bit":4,"shell":2}`} {
		if !strings.Contains(first, want) {
			t.Errorf("Mira holds %s, lacking %s", first, want)
		}
	}
	id2, acts := m.say(gmUser, `[inventory: action="equip" item="Boathook" who="Mira"] [inventory: action="give" item="Flask of Lamp Oil" count="2" who="Mira" to="Bram"] `+
		`[inventory: action="pay" amount="3 bits" who="Mira" to="Bram"] [inventory: action="remove" item="Flask of Lamp Oil" count="5" who="Mira"] `+
		`[inventory: action="give" item="Tide Glass" who="Mira" to="Bram"] [inventory: action="add" item="Golden Fleece" who="Mira"] `+
		`[inventory: action="pay" amount="9 crowns" who="Bram"] [inventory: action="add" item="Storm Lantern"]`)
	// A name none of the ruleset's items has is a plain item (the guide's freeform), since
	// Low Vell says nothing against it; an add without who= is shared out among the party.
	wantOutcomes(t, "the second reply", acts, refusal.NoSlot, "", "", refusal.Insufficient, refusal.NotHeld, "", refusal.CannotAfford, "")
	if got := m.holdings("Mira"); !strings.Contains(got, `"item":{"id":"plain/golden-fleece"`) {
		t.Errorf("the plain Golden Fleece is kept with its own JSON: %s", got)
	}
	if !strings.Contains(acts[0].Embeds[0].Description, "Hands is full: Boathook needs 2, 1 free; take out Storm Lantern first") {
		t.Errorf("the no-slot refusal says %q", acts[0].Embeds[0].Description)
	}
	if got := m.holdings("Bram"); !strings.Contains(got, `"id":"chandlery/flask-of-oil","qty":2`) || !strings.Contains(got, `"purse":{"bit":3}`) {
		t.Errorf("Bram holds %s", got)
	}
	m.delete(id2)
	// The uids the second reply gave (Mira's Golden Fleece i4, Bram's rows) are not given again.
	if got, want := m.holdings("Mira"), strings.Replace(first, `"next":3`, `"next":4`, 1); got != want {
		t.Errorf("after the delete Mira holds\n%s\nwant\n%s", got, want)
	}
	if got := m.holdings("Bram"); got != `{"next":2}` {
		t.Errorf("after the delete Bram holds %s", got)
	}
}

// TestMoneyTagsRefuseAPursePastItsLimit: a receive, or a pay to= a character, that
// would take a purse past what it is read back with is refused bad-amount, all or
// nothing (the payer keeps the coins), and both purses go on being used.
func TestMoneyTagsRefuseAPursePastItsLimit(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.card(ana.ID, "Mira", nil)
	m.card(bo.ID, "Bram", nil)
	_, acts := m.say(gmUser, `[inventory: action="receive" amount="5 crowns" who="Mira"] [inventory: action="receive" amount="10000000000 crowns" who="Bram"]`)
	wantOutcomes(t, "up to the limit", acts, "", "")
	mira, bram := m.holdings("Mira"), m.holdings("Bram")
	_, acts = m.say(gmUser, `[inventory: action="receive" amount="10000000000 crowns" who="Mira"] [inventory: action="pay" amount="1 crown" who="Mira" to="Bram"] `+
		`[inventory: action="earn" count="1" item="crown" who="Bram"]`)
	wantOutcomes(t, "past the limit", acts, refusal.BadAmount, refusal.BadAmount, refusal.BadAmount)
	if got := m.holdings("Mira"); got != mira {
		t.Errorf("the refused tags changed Mira's holdings: %s, were %s", got, mira)
	}
	if got := m.holdings("Bram"); got != bram {
		t.Errorf("the refused tags changed Bram's holdings: %s, were %s", got, bram)
	}
	_, acts = m.say(gmUser, `[inventory: action="pay" amount="1 crown" who="Bram" to="Mira"] [inventory: action="pay" amount="1 crown" who="Mira" to="Bram"]`)
	wantOutcomes(t, "after the refusals", acts, "", "")
}

// TestInventoryBinding: Low Vell binds charms up to the sheet's charm limit (a blocking
// limit); binding past it is refused limit, and a state the system has not is
// unknown-state.
func TestInventoryBinding(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.card(ana.ID, "Mira", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Moth Charm" count="4" who="Mira"] [inventory: action="bind" item="Moth Charm" who="Mira"] `+
		`[inventory: action="state" item="Moth Charm" key="glowing" state="on" who="Mira"] [inventory: action="unbind" item="Storm Lantern" who="Mira"]`)
	wantOutcomes(t, "binding", acts, "", "", refusal.UnknownState, refusal.NotHeld)
	if got := m.holdings("Mira"); !strings.Contains(got, `"states":{"bound":true}`) {
		t.Errorf("Mira holds %s", got)
	}
}

// TestInventoryNotEnabled: a campaign whose ruleset has no items and that names no
// system refuses inventory tags not-enabled, changing nothing.
func TestInventoryNotEnabled(t *testing.T) {
	m := newMsgTable(t, "dnd5e-srd")
	m.card(ana.ID, "Mira", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Rope" who="Mira"]`)
	wantOutcomes(t, "no inventory", acts, refusal.NotEnabled)
	if got := m.holdings("Mira"); got != "null" {
		t.Errorf("Mira holds %s", got)
	}
}

// TestInventoryCommand: /inventory format:json is SPEC 8.2's shape; the text view lists
// what is equipped and carried, the load and the purse; another player's inventory is
// refused, the GM's view is not.
func TestInventoryCommand(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.playSystem("saltmarch")
	m.card(ana.ID, "Mira", nil)
	m.card(bo.ID, "Bram", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Eel hook" who="Mira"] [inventory: action="equip" item="Eel hook" who="Mira"] `+
		`[inventory: action="add" item="Salt salve" who="Mira"] [inventory: action="use" item="Salt salve" who="Mira"] [inventory: action="receive" amount="1 crown 2 bit" who="Mira"]`)
	wantOutcomes(t, "the tags", acts, "", "", "", "", "")
	run := func(u User, opts ...Option) (Response, error) {
		return m.core.cmdInventory(context.Background(), Command{Name: "inventory", User: u, ChannelID: m.ch, Options: opts})
	}
	resp, err := run(ana, Option{Name: "format", Value: "json"})
	if err != nil || !resp.Ephemeral {
		t.Fatalf("json: %+v %v", resp, err)
	}
	var got struct {
		Name   string
		System struct{ ID string }
		Purse  map[string]int64
		Worth  int64
		Weight struct {
			Carried float64
			Unit    string
		}
		Items []struct {
			UID, ID, Name string
			Qty           int64
			Equipped      bool
			States        []string
			Charges       *int64
		}
	}
	if err := json.Unmarshal([]byte(resp.Content), &got); err != nil {
		t.Fatal(err)
	}
	if got.Name != "Mira" || got.System.ID != "saltmarch" || got.Purse["crown"] != 1 || got.Purse["bit"] != 2 || len(got.Items) != 2 ||
		got.Items[0].ID != "sm-eel-hook" || !got.Items[0].Equipped || got.Items[1].Charges == nil || *got.Items[1].Charges != 2 ||
		math.Abs(got.Weight.Carried-1.23) > 1e-9 || // the coins weigh 3/100
		got.Worth != 96+2+16+10 {
		t.Errorf("json: %s", resp.Content)
	}
	resp, err = run(ana)
	if err != nil || len(resp.Embeds) != 1 {
		t.Fatalf("text: %+v %v", resp, err)
	}
	var text []string
	for _, f := range resp.Embeds[0].Fields {
		text = append(text, f.Name+": "+f.Value)
	}
	for _, want := range []string{"Equipped: • Eel hook", "Carried: • Salt salve (2/3 charges)", "Purse: 1 crown 2 bit"} {
		if !strings.Contains(strings.Join(text, "\n"), want) {
			t.Errorf("text lacks %q:\n%s", want, strings.Join(text, "\n"))
		}
	}
	if _, err := run(bo, Option{Name: "name", Value: "Mira"}); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("another player's inventory: %v", err)
	}
	if _, err := run(gmUser, Option{Name: "name", Value: "Mira"}); err != nil {
		t.Errorf("the GM's view: %v", err)
	}
}

// fenlightTable is a table on the console's test ruleset with items: hands, bound
// charms (the Hollow Ring cursed) and a purse.
func fenlightTable(t *testing.T) *msgTable {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("console", "testdata", "rulesets", "fenlight.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec := &storage.RulesetRecord{ID: "local/fenlight", Version: 1, File: data}
	l, err := loadRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return newMsgTableOn(t, rec, l)
}

// TestItemCommands: /item is the player's own inventory tag, recorded with Undo. A
// player changes only their own character, and only as a player may: a cursed binding
// stays (locked); the GM's /item overrides it.
func TestItemCommands(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	m.card(bo.ID, "Oskar", nil)
	item := func(u User, op string, opts ...string) (Response, error) {
		cmd := Command{Name: "item " + op, User: u, ChannelID: m.ch}
		for i := 0; i+1 < len(opts); i += 2 {
			cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
		}
		return itemHandler(op)(m.core, context.Background(), cmd)
	}
	for _, step := range []struct {
		u    User
		op   string
		opts []string
		want refusal.Reason
	}{
		{ana, "add", []string{"item", "Hollow Ring"}, ""},
		{ana, "add", []string{"item", "Eel Jerky", "count", "3"}, ""},
		{ana, "state", []string{"item", "Hollow Ring", "key", "Bound charms", "state", "on"}, ""},
		{ana, "state", []string{"item", "Hollow Ring", "key", "bound", "state", "off"}, refusal.Locked},
		{bo, "remove", []string{"name", "Wren", "item", "Eel Jerky"}, refusal.NotAllowed},
		{ana, "give", []string{"item", "Eel Jerky", "to", "Oskar", "count", "2"}, ""},
		{ana, "remove", []string{"item", "Punt Gaff"}, refusal.NotHeld},
		{gmUser, "state", []string{"name", "Wren", "item", "Hollow Ring", "key", "bound", "state", "off"}, ""},
	} {
		resp, err := item(step.u, step.op, step.opts...)
		if refusal.Of(err) != step.want {
			t.Errorf("%s /item %s %v: %v, want %q", step.u.ID, step.op, step.opts, err, step.want)
		}
		if err == nil && (len(resp.Components) == 0 || !strings.Contains(resp.Content, "[inventory:")) {
			t.Errorf("%s /item %s: %+v", step.u.ID, step.op, resp)
		}
	}
	// The GM's override wins over the binding Wren made (SPEC 7's GM override).
	if got := m.holdings("Wren"); !strings.Contains(got, `"id":"pack/eel-jerky","qty":1`) || !strings.Contains(got, `"gm":{"bound":false}`) {
		t.Errorf("Wren holds %s", got)
	}
	if got := m.holdings("Oskar"); !strings.Contains(got, `"id":"pack/eel-jerky","qty":2`) {
		t.Errorf("Oskar holds %s", got)
	}
}

// TestInventoryRows: a thing that never shares a row is a row each, with uids from the
// holdings' own counter; more rows than an inventory holds are refused too-many and add
// nothing; equipping one of a stack takes one off it.
func TestInventoryRows(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.playSystem("saltmarch")
	m.card(ana.ID, "Mira", nil)
	_, acts := m.say(gmUser, `[inventory: action="add" item="Eel hook" count="3" who="Mira"] [inventory: action="add" item="Smoked eel" count="4" who="Mira"] `+
		`[inventory: action="add" item="Reed knife" count="9999" who="Mira"] [inventory: action="equip" item="Eel hook" who="Mira"] [inventory: action="equip" item="Eel hook" who="Mira"]`)
	wantOutcomes(t, "rows", acts, "", "", refusal.TooMany, "", "")
	got := m.holdings("Mira")
	for _, want := range []string{`{"uid":"i1","id":"sm-eel-hook","qty":1,"equipped":true}`, `{"uid":"i2","id":"sm-eel-hook","qty":1,"equipped":true}`,
		`{"uid":"i3","id":"sm-eel-hook","qty":1}`, `{"uid":"i4","id":"sm-smoked-eel","qty":4}`, `"next":4}`} {
		if !strings.Contains(got, want) {
			t.Errorf("Mira holds %s, lacking %s", got, want)
		}
	}
	if strings.Contains(got, "sm-reed-knife") {
		t.Errorf("a refused add added: %s", got)
	}
}

// TestInventoryConcurrent: the campaign's system is built once and shared; tags applied
// while others read inventories (views run beside updates) share it safely (run with
// -race).
func TestInventoryConcurrent(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	m.playSystem("saltmarch")
	m.card(ana.ID, "Mira", nil)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 5 {
				if i%2 == 0 {
					m.core.OnMessage(context.Background(), Message{ChannelID: m.ch, ID: "c" + strconv.Itoa(i) + "-" + strconv.Itoa(j), Author: gmUser,
						Content: `[inventory: action="add" item="Smoked eel" who="Mira"] [inventory: action="equip" item="Eel hook" who="Mira"]`})
				} else if _, err := m.core.cmdInventory(context.Background(), Command{Name: "inventory", User: ana, ChannelID: m.ch}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if got := m.holdings("Mira"); !strings.Contains(got, `"id":"sm-smoked-eel"`) {
		t.Errorf("Mira holds %s", got)
	}
}
