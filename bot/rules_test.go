package bot

import (
	"context"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/schedule"
)

// ruleShelf is a RuleStore in memory: one campaign's holdings, saved as UpdateRules is
// told, so a second Rules over the same shelf is the bot after a restart.
type ruleShelf struct {
	mu    sync.Mutex
	camp  *inventory.Campaign
	held  []RuleHolding
	saves int
}

func (s *ruleShelf) UpdateRules(_ context.Context, _ string, fn func(*inventory.Campaign, []RuleHolding) ([]RuleHolding, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed, err := fn(s.camp, slices.Clone(s.held))
	if err != nil {
		return err
	}
	for _, h := range changed {
		for i := range s.held {
			if s.held[i].Character == h.Character {
				s.held[i] = h
			}
		}
	}
	s.saves++
	return nil
}

// wandShelf is a campaign of the lantern system with Mira holding its ember wand,
// identified and equipped: while equipped it heats her 1 a second, and at 5 it starts
// cooling.
func wandShelf(t testing.TB) (*ruleShelf, *inventory.Entry) {
	t.Helper()
	data, err := os.ReadFile("../inventory/testdata/lantern.json")
	if err != nil {
		t.Fatal(err)
	}
	s, ps := inventory.Parse(data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, ps := s.Campaign(nil)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	wand := c.NewEntry("w", s.CatalogItem("lr-wand"), 1)
	wand.Equipped = true
	wand.GM = map[string]bool{"identified": true}
	w := &inventory.World{Inv: []*inventory.Entry{wand}, Locals: map[string]float64{"heat": 0}}
	return &ruleShelf{camp: c, held: []RuleHolding{{Character: "mira", Player: "u-mira", World: w}}}, wand
}

// TestRulesHeatOnTheClock: a while rule heating a value while equipped, driven by the
// injected clock through the rules clock; the message reaches the player; after a
// restart three hours later the cooling has caught up; with the wand gone (no while
// rule, nothing moving) the campaign leaves the clock.
func TestRulesHeatOnTheClock(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	clock := schedule.NewManualClock(t0)
	shelf, wand := wandShelf(t)
	var mu sync.Mutex
	var got []RuleNote
	deliver := func(_ context.Context, ns []RuleNote) { mu.Lock(); got = append(got, ns...); mu.Unlock() }
	rules := NewRules(shelf, clock, deliver)
	if notes, err := rules.Changed(ctx, "table", nil); err != nil || len(notes) != 0 {
		t.Fatalf("first run: %v %v", notes, err)
	}
	if reg := rules.Clock().Registered(); !slices.Equal(reg, []string{"table"}) {
		t.Fatalf("a wand with a while rule needs the clock: %v", reg)
	}
	for i := 1; i <= 20; i++ { // 5 seconds at 4 ticks a second
		clock.Set(t0.Add(time.Duration(i) * schedule.MinRulesTick))
		rules.Clock().Tick(ctx)
	}
	mu.Lock()
	heard := slices.Clone(got)
	mu.Unlock()
	if !slices.Contains(heard, RuleNote{Campaign: "table", Player: "u-mira", Text: "Ember wand: It cools."}) {
		t.Fatalf("heat %v, notes %v", shelf.held[0].World.Locals["heat"], heard)
	}
	if w := shelf.held[0].World; w.Locals["heat"] != 5 || len(w.Moving) != 1 || !shelf.held[0].At.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("stored: heat %v moving %v at %v", w.Locals["heat"], w.Moving, shelf.held[0].At)
	}

	wand.Equipped = false // taken off as the bot goes down
	clock.Set(t0.Add(3 * time.Hour))
	again := NewRules(shelf, clock, deliver)
	if _, err := again.Changed(ctx, "table", nil); err != nil {
		t.Fatal(err)
	}
	if w := shelf.held[0].World; w.Locals["heat"] != 0 || len(w.Moving) != 0 {
		t.Errorf("three hours later the heat has fallen to 0 and stopped: %v %v", w.Locals["heat"], w.Moving)
	}
	if reg := again.Clock().Registered(); !slices.Equal(reg, []string{"table"}) {
		t.Errorf("the wand's while rule keeps the campaign on the clock: %v", reg)
	}
	shelf.held[0].World.Inv = nil // the wand sold
	if _, err := again.Changed(ctx, "table", nil); err != nil {
		t.Fatal(err)
	}
	if reg := again.Clock().Registered(); len(reg) != 0 {
		t.Errorf("no while rule and nothing moving: off the clock: %v", reg)
	}
}

// TestRulesTellTheGM: two rules undoing each other are held back and the GM is told
// which item; a player's messages are limited, the rest summarised.
func TestRulesTellTheGM(t *testing.T) {
	ctx := context.Background()
	clock := schedule.NewManualClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	shelf, _ := wandShelf(t)
	s := shelf.camp.System
	it, ps := s.ParseItem([]byte(`{"id":"flicker","type":"lr-gear","name":"Flicker","triggers":[
		{"when":"becomes","test":[{"value":"local.v","op":"=","to":0}],"do":[{"set":"local.v","to":1},{"message":"on"}],"message":"flick"},
		{"when":"becomes","test":[{"value":"local.v","op":"=","to":1}],"do":[{"set":"local.v","to":0},{"message":"off"}],"message":"flick"}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	w := shelf.held[0].World
	w.Inv = append(w.Inv, &inventory.Entry{UID: "f", Item: it, Qty: 1})
	// The flicker's rules have seen v = 1 (a new entry's are taken as they stand); v is
	// now 0, so the first turns true and the two undo each other.
	w.Seen = map[string]bool{inventory.SeenKey("f", it.Rules[0]): false, inventory.SeenKey("f", it.Rules[1]): true}
	notes, err := NewRules(shelf, clock, nil).Changed(ctx, "table", nil)
	if err != nil {
		t.Fatal(err)
	}
	var gm, player []string
	for _, n := range notes {
		if n.Player == "" {
			gm = append(gm, n.Text)
		} else {
			player = append(player, n.Text)
		}
	}
	if len(gm) != 1 || gm[0] != "mira's Flicker: rules 1 and 2 kept firing, undoing each other, so they were held back." {
		t.Errorf("the GM is told: %q", gm)
	}
	if len(player) != ruleNotesPerMinute || player[0] != "Flicker: on" || player[len(player)-1] != "…and 7 more" {
		t.Errorf("6 messages a minute, the rest summarised: %q", player)
	}
}

// brokenShelf is a store whose transactions fail with errDiskOnFire.
type brokenShelf struct{}

var errDiskOnFire = errors.New("disk on fire")

func (brokenShelf) UpdateRules(context.Context, string, func(*inventory.Campaign, []RuleHolding) ([]RuleHolding, error)) error {
	return errDiskOnFire
}

// TestRulesTickFails: a tick that cannot run tells the GM why and takes the campaign
// off the clock, rather than failing four times a second.
func TestRulesTickFails(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	clock := schedule.NewManualClock(t0)
	var got []RuleNote
	rules := NewRules(brokenShelf{}, clock, func(_ context.Context, ns []RuleNote) { got = append(got, ns...) })
	if _, err := rules.Changed(ctx, "table", nil); !errors.Is(err, errDiskOnFire) {
		t.Fatalf("the store's error, as it is: %v", err)
	}
	rules.Clock().Register("table")
	clock.Set(t0.Add(time.Second))
	rules.Clock().Tick(ctx)
	if len(got) != 1 || got[0].Player != "" || !strings.Contains(got[0].Text, "disk on fire") || len(rules.Clock().Registered()) != 0 {
		t.Errorf("notes %v, registered %v", got, rules.Clock().Registered())
	}
}

// TestRulesTimeCountedOnce: a change run between two ticks moves values by the time
// since the last save, so the tick after it does not count that time again.
func TestRulesTimeCountedOnce(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	clock := schedule.NewManualClock(t0)
	shelf, _ := wandShelf(t)
	w := shelf.held[0].World
	w.Inv = nil
	w.Locals["cold"] = 0
	w.Moving = map[string]inventory.Moving{"/cold": {Rate: 1}}
	rules := NewRules(shelf, clock, nil)
	for _, step := range []struct {
		at   time.Duration
		tick bool
	}{{0, false}, {200 * time.Millisecond, false}, {250 * time.Millisecond, true}, {900 * time.Millisecond, true}} {
		clock.Set(t0.Add(step.at))
		if step.tick {
			rules.Clock().Tick(ctx)
		} else if _, err := rules.Changed(ctx, "table", nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := shelf.held[0].World.Locals["cold"]; math.Abs(got-0.9) > 1e-9 {
		t.Errorf("after 0.9 s at 1 a second: %v", got)
	}
}
