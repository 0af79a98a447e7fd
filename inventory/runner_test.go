package inventory

import (
	"slices"
	"testing"
)

func heatEval(f string, read func(string) (float64, bool)) (float64, error) {
	h, _ := read("local.heat")
	return h/10 + 8, nil // the fixture's one formula: local.heat / 10 + 8
}

// TestRulesRun: the seed's wand — it crumbles (cursed) as its charges reach 0, once; the
// older rule then takes its attunement off in the same chain.
func TestRulesRun(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Own = map[string]bool{"attuned": true}
	wand.GM = map[string]bool{"identified": true}
	w := &World{Inv: []*Entry{wand}}
	r := c.NewRunner(heatEval)
	if res, err := r.After(w, nil); err != nil || len(res.Messages) != 0 {
		t.Fatalf("nothing fires at 3 charges: %v %v", res.Messages, err)
	}
	wand.Charges = 0
	res, err := r.After(w, nil)
	msgs := res.Messages
	if err != nil || !slices.Contains(msgs, "The wand crumbles to dust.") || !wand.On("cursed") {
		t.Fatalf("at 0 charges: %v %v", msgs, err)
	}
	delete(wand.GM, "identified") // the older rule: cursed while unidentified takes attunement off
	if res, _ := r.After(w, nil); len(res.Messages) != 0 {
		t.Errorf("becomes fires once, not again while it holds: %v", res.Messages)
	}
}

func TestRulesChain(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Own = map[string]bool{"attuned": true}
	w := &World{Inv: []*Entry{wand}}
	r := c.NewRunner(heatEval)
	r.After(w, nil)
	wand.Charges = 0
	res, err := r.After(w, nil)
	msgs := res.Messages
	if err != nil || !wand.On("cursed") || wand.On("attuned") || !slices.Contains(msgs, "It slips off.") {
		t.Fatalf("crumbling, then slipping off in one chain: %v %v (attuned %v)", msgs, err, wand.On("attuned"))
	}
}

func TestAcquiredRule(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	w := &World{Inv: []*Entry{wand}}
	r := c.NewRunner(heatEval)
	if _, err := r.After(w, []Event{{Kind: "acquired", UID: "w"}}); err != nil || !wand.On("cursed") {
		t.Fatalf("an unidentified wand acquired is cursed: %v", err)
	}
}

// TestWhileAndChange: while equipped the wand heats a Local value 1 a second; at 5 the
// heat starts falling, 1 a second, until 0.
func TestWhileAndChange(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Equipped = true
	wand.GM = map[string]bool{"identified": true}
	w := &World{Inv: []*Entry{wand}, Locals: map[string]float64{"heat": 0}}
	r := c.NewRunner(heatEval)
	var msgs []string
	for i := 0; i < 20; i++ { // 5 seconds at 4 ticks a second
		m, err := r.Tick(w, 0.25)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m.Messages...)
	}
	if !slices.Contains(msgs, "It cools.") {
		t.Fatalf("heat %v, messages %v", w.Locals["heat"], msgs)
	}
	wand.Equipped = false
	for i := 0; i < 40; i++ {
		r.Tick(w, 0.25)
	}
	if w.Locals["heat"] != 0 {
		t.Errorf("the heat falls to 0 and stops: %v", w.Locals["heat"])
	}
}

// TestOscillationHeldBack: two rules undoing each other stop.
func TestOscillationHeldBack(t *testing.T) {
	s := lantern(t)
	it, ps := s.ParseItem([]byte(`{"id":"flicker","type":"lr-gear","name":"Flicker","triggers":[
		{"when":"becomes","test":[{"value":"item.state.cursed","op":"=","to":"on"}],"do":[{"set":"item.state.cursed","to":"off"}],"message":"off"},
		{"when":"becomes","test":[{"value":"item.state.cursed","op":"=","to":"off"}],"do":[{"set":"item.state.cursed","to":"on"}],"message":"on"}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	w := &World{Inv: []*Entry{{UID: "f", Item: it}}}
	res, err := c.NewRunner(nil).After(w, nil)
	msgs := res.Messages
	if err != nil || len(msgs) > 2*MaxFirings {
		t.Fatalf("%d messages: %v %v", len(msgs), msgs, err)
	}
}

func TestFormulaNeedsEvaluator(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	w := &World{Inv: []*Entry{wand}, Locals: map[string]float64{"heat": 6}}
	if _, err := c.NewRunner(nil).After(w, nil); err == nil {
		t.Error("a formula without an evaluator is an error, not a guess")
	}
}

// TestAddresses: every address a condition can read, and choices by name.
func TestAddresses(t *testing.T) {
	c := campaign(t)
	ring := c.NewEntry("r", c.System.CatalogItem("lr-ring"), 2)
	ring.Own = map[string]bool{"attuned": true}
	ring.Equipped, ring.Fill = true, 0
	sword := c.NewEntry("s", c.System.CatalogItem("lr-sword"), 1)
	w := &World{Inv: []*Entry{ring, sword}, Stats: map[string]any{"str": 12.0},
		Locals: map[string]float64{"curse": 2, "attuneSlots": 4}, ItemLocals: map[string]map[string]float64{"r": {"heat": 7}},
		Globals: map[string]float64{"storm": 0.5}}
	r := c.NewRunner(nil)
	cases := map[string]float64{
		"item.qty": 2, "item.equipped": 1, "item.worth": 40, "item.weight": 0,
		"item.state.attuned": 1, "item.state.cursed": 0, "char.count.attuned": 1, "char.limit.attuned": 4,
		"char.stat.str": 12, "char.carried": 1, "local.heat": 7, "local.curse": 2, "char.local.curse": 2, "global.storm": 0.5,
	}
	for addr, want := range cases {
		if ok, err := r.all(w, ring, []Condition{{Value: addr, Op: "=", To: want}}); err != nil || !ok {
			t.Errorf("%s: want %v (%v)", addr, want, err)
		}
	}
	// Charges are read only where an item has them (Pack Rat's undefined): a plain
	// ring's "charges = 0" does not hold; an empty wand's does.
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Charges = 0
	if ok, _ := r.all(w, ring, []Condition{{Value: "item.charges", Op: "=", To: 0.0}}); ok {
		t.Error("a ring without charges has no item.charges")
	}
	if ok, _ := r.all(w, wand, []Condition{{Value: "item.charges", Op: "=", To: 0.0}}); !ok {
		t.Error("an empty wand's item.charges is 0")
	}
	if ok, _ := r.all(w, ring, []Condition{{Value: "local.curse", Op: "=", To: "Gripped"}}); !ok {
		t.Error("a value's choice by name")
	}
	if ok, _ := r.all(w, ring, []Condition{{Value: "global.storm", Op: "between", To: 0.0, To2: 1.0}, {Value: "item.qty", Op: ">=", To: 2.0}}); !ok {
		t.Error("between and >=")
	}
	if ok, _ := r.all(w, ring, []Condition{{Value: "item.qty", Op: "!=", To: 2.0}}); ok {
		t.Error("!=")
	}
	_, err := r.do(w, ring, Rule{Do: []Action{{Set: "local.heat", To: 1.0}, {Add: "char.local.curse", By: 1.0}, {Set: "item.charges", To: 9.0}}})
	if err != nil || w.ItemLocals["r"]["heat"] != 1 || w.Locals["curse"] != 3 || ring.Charges != 0 {
		t.Errorf("writes: heat %v curse %v charges %d (%v)", w.ItemLocals["r"]["heat"], w.Locals["curse"], ring.Charges, err)
	}
}

// TestInPlay: rules first run on a character already in play do not fire rules whose
// conditions were already true (an entry new to the rules is taken as it stands).
func TestInPlay(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Charges = 0
	w := &World{Inv: []*Entry{wand}}
	r := c.NewRunner(heatEval)
	if res, _ := r.After(w, nil); len(res.Messages) != 0 || wand.On("cursed") {
		t.Errorf("an empty wand loaded does not crumble again: %v", res.Messages)
	}
	if !r.Timed(w) || r.Timed(&World{Inv: []*Entry{c.NewEntry("s", c.System.CatalogItem("lr-sword"), 1)}}) {
		t.Error("a wand with a while rule needs the clock; a sword does not")
	}
}
