package bot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// gate is a schedule.Leader that leads once open is closed.
type gate struct{ open chan struct{} }

func (g gate) Lead(ctx context.Context) (<-chan struct{}, error) {
	select {
	case <-g.open:
		return make(chan struct{}), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// kilnTable is a campaign in channel room of the kiln system (console/testdata) on a
// bbolt store in a temp dir, closed with the test, with Ana's Mira joined.
func kilnTable(t *testing.T, opts Options) *cmdTable {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := &cmdTable{t: t, store: st, core: New(st, opts), ch: "room"}
	data, err := os.ReadFile("console/testdata/systems/kiln.json")
	if err != nil {
		t.Fatal(err)
	}
	m.runFile(gmUser, "system import", &Attachment{Name: "kiln.json", Data: data})
	m.ok(gmUser, "campaign create", "ruleset", "low-vell", "system", "kiln")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")
	return m
}

// miraHolds is Mira's stored holdings in m's channel (nil: none).
func (m *cmdTable) miraHolds() *inventory.Stored {
	m.t.Helper()
	var inv *inventory.Stored
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		rec, err := tx.GameCard(m.ch, "Mira")
		if err == nil {
			inv = rec.Inventory
		}
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return inv
}

// TestRulesOnWallTime: on wall time the rules clock runs with the schedules — only once
// this process leads them — and heats the holder of equipped tongs a degree a second,
// stored as it goes; Close stops it.
func TestRulesOnWallTime(t *testing.T) {
	if testing.Short() {
		t.Skip("waits on wall time")
	}
	ctx := context.Background()
	var mu sync.Mutex
	var posts []Action
	m := kilnTable(t, Options{Post: func(_ context.Context, a Action) { mu.Lock(); posts = append(posts, a); mu.Unlock() }})
	m.core.OnMessage(ctx, Message{ChannelID: m.ch, GuildID: "guild", ID: "m1", Author: gmUser,
		Content: `[inventory: action="add" item="Ember Tongs" who="Mira"] [inventory: action="equip" item="Ember Tongs" who="Mira"]`})
	heat := func() float64 {
		if inv := m.miraHolds(); inv != nil && inv.Rules != nil {
			return inv.Rules.Locals["heat"]
		}
		return 0
	}
	lead := gate{open: make(chan struct{})}
	if err := m.core.StartLeading(ctx, lead); err != nil {
		t.Fatal(err)
	}
	defer m.core.Close()
	time.Sleep(1200 * time.Millisecond)
	if h := heat(); h != 0 {
		t.Fatalf("heated %v while another process leads", h)
	}
	close(lead.open)
	deadline := time.Now().Add(10 * time.Second)
	for heat() < 3 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if h := heat(); h < 3 {
		t.Fatalf("heat %v after leading for a while", h)
	}
	m.core.Close()
	after := heat()
	time.Sleep(1200 * time.Millisecond)
	if h := heat(); h != after {
		t.Errorf("still heating after Close: %v → %v", after, h)
	}
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, p := range posts {
		found = found || p.ChannelID == m.ch && p.Content == "🎒 <@"+ana.ID+"> Ember Tongs: The tongs glow cherry red."
	}
	if !found {
		t.Errorf("the player was not told: %+v", posts)
	}
}

// TestRulesAfterAnEdit: an edit that takes a message's last inventory tags out reverts
// the holdings they changed, and the rules run after it as after any change: the
// equipped tongs gone, nothing of the campaign moves, so it leaves the rules clock.
func TestRulesAfterAnEdit(t *testing.T) {
	ctx := context.Background()
	m := kilnTable(t, Options{})
	defer m.core.Close()
	held := func() int {
		if inv := m.miraHolds(); inv != nil {
			return len(inv.Items)
		}
		return 0
	}
	before := held()
	msg := Message{ChannelID: m.ch, GuildID: "guild", ID: "m1", Author: gmUser,
		Content: `[inventory: action="add" item="Ember Tongs" who="Mira"] [inventory: action="equip" item="Ember Tongs" who="Mira"]`}
	m.core.OnMessage(ctx, msg)
	if n := held(); n != before+1 {
		t.Fatalf("Mira holds %d items after the tongs were added, want %d", n, before+1)
	}
	if reg := m.core.itemRules.Clock().Registered(); !slices.Equal(reg, []string{m.ch}) {
		t.Fatalf("equipped tongs heat on the clock: registered %v", reg)
	}
	msg.Content = "Mira leaves the tongs where they lay."
	m.core.OnEdit(ctx, msg)
	if n := held(); n != before {
		t.Fatalf("after the edit Mira holds %d items, want %d", n, before)
	}
	if reg := m.core.itemRules.Clock().Registered(); len(reg) != 0 {
		t.Errorf("the edit took the tongs away, but the campaign is still on the rules clock: %v", reg)
	}
}

// regenSystem is a system whose Charm, as it is acquired, curses itself and adds 1 to
// its holder's luck; a Stone does nothing.
const regenSystem = `{
  "packrat": "system", "id": "regen-yard", "name": "Regen Yard",
  "templates": [ { "id": "rg-thing", "name": "Thing", "plural": "Things", "features": { "stacks": false } } ],
  "states": [ { "key": "cursed", "label": "Cursed", "who": "gm" } ],
  "values": [ { "name": "luck", "scope": "local", "label": "Luck", "default": 0 } ],
  "catalog": [
    { "id": "rg-charm", "type": "rg-thing", "name": "Charm", "cost": 1, "weight": 0,
      "triggers": [ { "when": "acquired", "do": [{ "set": "item.state.cursed", "to": "on" }, { "add": "local.luck", "by": 1 }] } ] },
    { "id": "rg-stone", "type": "rg-thing", "name": "Stone", "cost": 1, "weight": 0 }
  ]
}`

// regenTable is a campaign in channel room of regenSystem on a bbolt store, with Ana's
// Mira joined.
func regenTable(t *testing.T) *cmdTable {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := &cmdTable{t: t, store: st, core: New(st, Options{}), ch: "room"}
	m.runFile(gmUser, "system import", &Attachment{Name: "regen.json", Data: []byte(regenSystem)})
	m.ok(gmUser, "campaign create", "ruleset", "low-vell", "system", "regen-yard")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")
	return m
}

// charms counts the charms Mira holds, and how many of them are cursed.
func (m *cmdTable) charms() (charms, cursed int) {
	m.t.Helper()
	for _, se := range m.miraHolds().Items {
		if se.ID == "rg-charm" {
			charms++
			if se.States["cursed"] {
				cursed++
			}
		}
	}
	return charms, cursed
}

// TestRegeneratedReplyGivesNewUIDs: a regenerated reply that gives a different item
// than its first text did gives it a uid never used before (the reverted stone's stays
// out of use: a uid is never given twice), so the item is acquired and its acquired rule
// fires.
func TestRegeneratedReplyGivesNewUIDs(t *testing.T) {
	ctx := context.Background()
	m := regenTable(t)
	defer m.core.Close()
	m.gmMessage("m0", `[inventory: action="add" item="Charm" who="Mira"]`)
	msg := m.gmMessage("m1", `Mira finds a pebble. [inventory: action="add" item="Stone" who="Mira"]`)
	msg.Content = `Mira finds a second charm instead. [inventory: action="add" item="Charm" who="Mira"]`
	m.core.OnEdit(ctx, msg)
	t.Logf("%s", m.storedJSON("Mira"))
	charms, cursed := m.charms()
	if charms != 2 {
		t.Fatalf("Mira holds %d charms, want 2", charms)
	}
	if cursed != 2 {
		t.Errorf("%d of Mira's 2 charms are cursed: the regenerated reply's charm was acquired but its acquired rule never fired", cursed)
	}
	if l := m.miraHolds().Rules.Locals["luck"]; l != 2 {
		t.Errorf("luck %v, want 2 (one a charm acquired)", l)
	}
}

// TestRegenerateRefusedWhenItsItemChanged: a regenerate whose reply gave a charm its
// own acquired rule has cursed since cannot undo that reply's holdings change; applying
// the new text on top would give the charm twice (SPEC 6: a regenerated reply can never
// spend twice), so the edit is refused as a whole, saying so, and nothing changes.
func TestRegenerateRefusedWhenItsItemChanged(t *testing.T) {
	ctx := context.Background()
	m := regenTable(t)
	defer m.core.Close()
	m.gmMessage("m0", `[inventory: action="add" item="Stone" who="Mira"]`)
	msg := m.gmMessage("m1", `Mira finds a charm. [inventory: action="add" item="Charm" who="Mira"]`)
	before := m.storedJSON("Mira")
	msg.Content = `Mira finds a shining charm. [inventory: action="add" item="Charm" who="Mira"]`
	acts := m.core.OnEdit(ctx, msg)
	if charms, cursed := m.charms(); charms != 1 || cursed != 1 {
		t.Errorf("Mira holds %d charms, %d cursed; want 1, 1", charms, cursed)
	}
	if got := m.storedJSON("Mira"); got != before {
		t.Errorf("the refused edit changed Mira's holdings:\n%s\nwant\n%s", got, before)
	}
	if len(acts) != 1 || acts[0].Content != heldEdit {
		t.Errorf("the GM is told the edit was not applied: %+v", acts)
	}
}

// TestRulesCatchUpLoadsNoRuleset: the rules catch-up as the bot starts visits every
// campaign, but one whose cards hold nothing has no rules to run, known from the cards:
// its ruleset is not loaded for it (the cache stays empty until a reply needs it).
func TestRulesCatchUpLoadsNoRuleset(t *testing.T) {
	obs := &recorder{}
	m := &schedTable{t: t, path: t.TempDir() + "/sheetkeeper.db", obs: obs}
	t0 := time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC)
	m.open(t0)
	m.demo()
	obs.take()
	m.restart(t0.Add(time.Hour))
	if got := obs.take(); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "rulesets") }) {
		t.Fatalf("the catch-up loaded the ruleset of a campaign whose cards hold nothing: %q", got)
	}
	m.gmSays(`[sheet: who="Mira" op="damage" pool="breath" amount="1"]`)
	if got := obs.take(); !slices.Contains(got, "rulesets 1") {
		t.Fatalf("after the first reply: %q", got)
	}
}

// gmMessage posts text as the GM's message id in m's channel and returns the message,
// for an edit of it.
func (m *cmdTable) gmMessage(id, text string) Message {
	m.t.Helper()
	msg := Message{ChannelID: m.ch, GuildID: "guild", ID: id, Author: gmUser, Content: text}
	m.core.OnMessage(context.Background(), msg)
	return msg
}
