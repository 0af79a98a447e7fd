package inventory

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sheetkeeper/parser"
)

// ruled returns a campaign of the lantern system and an entry of an item with the
// given triggers (a JSON list), checked as a file's would be.
func ruled(t *testing.T, triggers string) (*Campaign, *Entry) {
	t.Helper()
	s := lantern(t)
	it, ps := s.ParseItem([]byte(`{"id":"probe","type":"lr-gear","name":"Probe","features":{"charges":true},"maxCharges":5,"triggers":` + triggers + `}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, ps := s.Campaign(nil)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	return c, &Entry{UID: "p", Item: it, Qty: 1, Charges: 5}
}

// TestTriggerKinds: each kind fires on what it names and nothing else.
func TestTriggerKinds(t *testing.T) {
	for _, kind := range []string{"acquired", "equipped", "unequipped"} {
		t.Run(kind, func(t *testing.T) {
			c, e := ruled(t, `[{"when":"`+kind+`","do":[{"message":"`+kind+`"}]}]`)
			w := &World{Inv: []*Entry{e}}
			r := c.NewRunner(nil)
			for _, other := range []string{"acquired", "equipped", "unequipped"} {
				res, err := r.After(w, []Event{{Kind: other, UID: "p"}, {Kind: kind, UID: "someone-else"}})
				if got := slices.Contains(res.Messages, kind); err != nil || got != (other == kind) {
					t.Errorf("event %s: %v %v", other, res.Messages, err)
				}
			}
			if res, _ := r.After(w, nil); len(res.Messages) != 0 {
				t.Errorf("no event, no firing: %v", res.Messages)
			}
		})
	}
	t.Run("becomes", func(t *testing.T) {
		c, e := ruled(t, `[{"when":"becomes","test":[{"value":"item.charges","op":"<","to":3},{"value":"item.equipped","op":"=","to":"on"}],"do":[{"message":"low"}]}]`)
		w := &World{Inv: []*Entry{e}}
		r := c.NewRunner(nil)
		var fired int
		for _, step := range []func(){
			func() { e.Charges = 2 },      // one of two: no
			func() { e.Equipped = true },  // both turn true: fires
			func() { e.Charges = 1 },      // still true: no
			func() { e.Equipped = false }, // false again
			func() { e.Equipped = true },  // true again: fires
		} {
			step()
			res, err := r.After(w, nil)
			if err != nil {
				t.Fatal(err)
			}
			fired += len(res.Messages)
		}
		if fired != 2 {
			t.Errorf("fired %d times, want 2 (once each time all conditions turn true)", fired)
		}
	})
}

// TestConditionOps: every op, to2 either way round, and = within Pack Rat's 1e-9.
func TestConditionOps(t *testing.T) {
	c, e := ruled(t, `[]`)
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"x": 0.1 + 0.2}}
	r := c.NewRunner(parser.EvalFormula)
	cases := []struct {
		op      string
		to, to2 any
		want    bool
	}{
		{"=", 0.3, nil, true}, {"=", 0.31, nil, false},
		{"!=", 0.3, nil, false}, {"!=", 1.0, nil, true},
		{"<", 0.4, nil, true}, {"<", 0.1, nil, false},
		{"<=", 0.1 + 0.2, nil, true}, {"<=", 0.2, nil, false},
		{">", 0.2, nil, true}, {">", 0.4, nil, false},
		{">=", 0.1 + 0.2, nil, true}, {">=", 0.4, nil, false},
		{"between", 0.0, 1.0, true}, {"between", 1.0, 0.0, true}, {"between", 0.5, 1.0, false},
		{"between", "local.x", "local.x * 2", true},
	}
	for _, tc := range cases {
		got, err := r.all(w, e, []Condition{{Value: "local.x", Op: tc.op, To: tc.to, To2: tc.to2}})
		if err != nil || got != tc.want {
			t.Errorf("0.3 %s %v %v: %v (%v), want %v", tc.op, tc.to, tc.to2, got, err, tc.want)
		}
	}
}

// TestOperands: `to` as a number, on/off (and yes/no, true/false, any case), a choice
// by name, a formula, and what is no number (a formula's infinity) never holding.
func TestOperands(t *testing.T) {
	c, e := ruled(t, `[]`)
	e.Own = map[string]bool{"cursed": true}
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"curse": 2, "heat": 4}, Globals: map[string]float64{}}
	r := c.NewRunner(parser.EvalFormula)
	holds := map[Condition]bool{
		{Value: "item.state.cursed", Op: "=", To: 1.0}:        true,
		{Value: "item.state.cursed", Op: "=", To: "on"}:       true,
		{Value: "item.state.cursed", Op: "=", To: " Yes "}:    true,
		{Value: "item.state.cursed", Op: "=", To: "TRUE"}:     true,
		{Value: "item.state.cursed", Op: "!=", To: "off"}:     true,
		{Value: "item.state.cursed", Op: "=", To: true}:       true,
		{Value: "local.curse", Op: "=", To: "gripped"}:        true,
		{Value: "char.local.curse", Op: "<", To: "Bound"}:     true,
		{Value: "local.heat", Op: "=", To: "local.curse * 2"}: true,
		{Value: "global.storm", Op: "=", To: 0.0}:             true,  // unset: its default
		{Value: "char.stat.str", Op: "=", To: 0.0}:            false, // no such stat: no value
	}
	for cd, want := range holds {
		if got, err := r.all(w, e, []Condition{cd}); err != nil || got != want {
			t.Errorf("%+v: %v (%v), want %v", cd, got, err, want)
		}
	}
	inf := c.NewRunner(func(string, func(string) (float64, bool)) (float64, error) { return math.Inf(1), nil })
	for _, op := range []string{"<", ">", "!="} {
		if got, _ := inf.all(w, e, []Condition{{Value: "local.heat", Op: op, To: "item.charges / 0"}}); got {
			t.Errorf("%s against an infinity holds: it is no number", op)
		}
	}
	if _, err := inf.do(w, e, Rule{Do: []Action{{Set: "local.heat", To: "item.charges / 0"}}}); err != nil || w.Locals["heat"] != 4 {
		t.Errorf("set to no number does nothing: %v (%v)", w.Locals["heat"], err)
	}
}

// TestIfGuards: a rule's `if` is checked as it fires; a becomes rule kept from firing by
// its `if` does not fire later while its test stays true.
func TestIfGuards(t *testing.T) {
	c, e := ruled(t, `[{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"if":[{"value":"item.equipped","op":"=","to":"on"}],"do":[{"message":"fizz"}]}]`)
	w := &World{Inv: []*Entry{e}}
	r := c.NewRunner(nil)
	e.Charges = 0
	if res, _ := r.After(w, nil); len(res.Messages) != 0 {
		t.Errorf("if does not hold: %v", res.Messages)
	}
	e.Equipped = true
	if res, _ := r.After(w, nil); len(res.Messages) != 0 {
		t.Errorf("if is checked as it fires, not watched: %v", res.Messages)
	}
	e.Charges = 1
	r.After(w, nil)
	e.Charges = 0
	if res, _ := r.After(w, nil); !slices.Contains(res.Messages, "fizz") {
		t.Errorf("turns true with the if holding: %v", res.Messages)
	}
}

// TestNewEntryTakenAsItStands: an entry new to the rules fires its acquired rules but
// takes its becomes conditions as they stand (Pack Rat's "an entry with no seen is new
// here"), whether or not the character's rules ran before; they fire as they turn true.
func TestNewEntryTakenAsItStands(t *testing.T) {
	c, e := ruled(t, `[
		{"when":"becomes","test":[{"value":"local.v","op":"=","to":0}],"do":[{"message":"zero"}]},
		{"when":"acquired","do":[{"message":"hello"}]}]`)
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"v": 0}, Seen: map[string]bool{"other/rule": true}}
	r := c.NewRunner(nil)
	res, err := r.After(w, []Event{{Kind: "acquired", UID: e.UID}})
	if err != nil || !slices.Equal(res.Messages, []string{"hello"}) {
		t.Fatalf("a new entry: %v (%v), want only its acquired rule", res.Messages, err)
	}
	w.Locals["v"] = 1
	r.After(w, nil)
	w.Locals["v"] = 0
	if res, _ := r.After(w, nil); !slices.Equal(res.Messages, []string{"zero"}) {
		t.Errorf("turning true later: %v, want zero", res.Messages)
	}
}

// TestLegacyShapes: the older trigger shapes as Pack Rat reads them — on:/off:<state>,
// the event names, if without is, set without to, and a message alone.
func TestLegacyShapes(t *testing.T) {
	c, e := ruled(t, `[
		{"on":"on:cursed","if":{"state":"identified"},"do":[{"set":"attuned"}],"message":"grips"},
		{"on":"off:cursed","do":[{"set":"attuned","to":false}]},
		{"on":"equipped","message":"worn"}]`)
	rs := e.Item.Rules
	if rs[0].If[0].To != "on" || rs[0].Do[0].To != "on" || rs[2].When != "equipped" || len(rs[2].Do) != 0 {
		t.Fatalf("read as: %+v", rs)
	}
	w := &World{Inv: []*Entry{e}}
	r := c.NewRunner(nil)
	e.GM = map[string]bool{"identified": true}
	r.After(w, nil) // a new entry's conditions are taken as they stand (Pack Rat)
	e.Own = map[string]bool{"cursed": true}
	if res, _ := r.After(w, nil); !e.On("attuned") || !slices.Contains(res.Messages, "grips") {
		t.Errorf("on:cursed: attuned %v %v", e.On("attuned"), res.Messages)
	}
	delete(e.Own, "cursed")
	if r.After(w, nil); e.On("attuned") {
		t.Error("off:cursed takes attunement off")
	}
	if res, _ := r.After(w, []Event{{Kind: "equipped", UID: "p"}}); !slices.Equal(res.Messages, []string{"worn"}) {
		t.Errorf("a message alone: %v", res.Messages)
	}
}

// TestChainOf11StopsAt10: eleven rules, each making the next one's condition true
// (listed last first, so each needs a step of its own), stop after MaxChain steps and
// say so; the next run carries the chain on.
func TestChainOf11StopsAt10(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for k := 10; k >= 0; k-- {
		if k < 10 {
			b.WriteString(",")
		}
		b.WriteString(`{"when":"becomes","test":[{"value":"local.s","op":"=","to":` + strconv.Itoa(k) + `}],"do":[{"set":"local.s","to":` + strconv.Itoa(k+1) + `}]}`)
	}
	b.WriteString("]")
	c, e := ruled(t, b.String())
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"s": -1}}
	r := c.NewRunner(nil)
	r.After(w, nil) // a new entry's conditions are taken as they stand (Pack Rat)
	w.Locals["s"] = 0
	res, err := r.After(w, nil)
	if err != nil || !res.Stopped || w.Locals["s"] != MaxChain {
		t.Fatalf("s = %v, stopped %v (%v); want %d and stopped", w.Locals["s"], res.Stopped, err, MaxChain)
	}
	if res, _ := r.After(w, nil); res.Stopped || w.Locals["s"] != 11 {
		t.Errorf("the next run fires the 11th: s = %v, stopped %v", w.Locals["s"], res.Stopped)
	}
}

// TestOscillationReported: two rules undoing each other are held back after MaxFirings
// each, and the result names both rules and their item, for the GM.
func TestOscillationReported(t *testing.T) {
	c, e := ruled(t, `[
		{"when":"becomes","test":[{"value":"local.v","op":"=","to":0}],"do":[{"set":"local.v","to":1}]},
		{"when":"becomes","test":[{"value":"local.v","op":"=","to":1}],"do":[{"set":"local.v","to":0}]}]`)
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"v": -1}}
	r := c.NewRunner(nil)
	r.After(w, nil) // a new entry's conditions are taken as they stand (Pack Rat)
	w.Locals["v"] = 0
	res, err := r.After(w, nil)
	want := []HeldBack{{UID: "p", Item: "Probe", Rule: 0}, {UID: "p", Item: "Probe", Rule: 1}}
	if err != nil || !slices.Equal(res.Held, want) || res.Stopped {
		t.Fatalf("held %+v stopped %v (%v); want %+v", res.Held, res.Stopped, err, want)
	}
}

// TestRulesNeverSetGlobals: the file's checks refuse a rule writing a Global value
// (TestRulesRefused); a rule that reaches the runner anyway (built in code) changes
// nothing Global, nor the Local value a state's limit is kept in — the GM's, as in
// Pack Rat — while a Local value of the rule's own is set.
func TestRulesNeverSetGlobals(t *testing.T) {
	c, e := ruled(t, `[]`)
	w := &World{Inv: []*Entry{e}, Globals: map[string]float64{"storm": 0.5}, Locals: map[string]float64{"attuneSlots": 3}}
	r := c.NewRunner(nil)
	rule := Rule{Do: []Action{{Set: "global.storm", To: 1.0}, {Add: "global.storm", By: 1.0}, {Change: "global.storm", Rate: 1},
		{Set: "local.attuneSlots", To: 9.0}, {Change: "char.local.attuneSlots", Rate: 1}, {Set: "local.mine", To: 2.0}}}
	if _, err := r.do(w, e, rule); err != nil {
		t.Fatal(err)
	}
	if w.Globals["storm"] != 0.5 || w.Locals["attuneSlots"] != 3 || len(w.Moving) != 0 || w.Locals["mine"] != 2 {
		t.Errorf("globals %v locals %v moving %v", w.Globals, w.Locals, w.Moving)
	}
}

// TestChangeCatchesUp: a moving value ticked through in many small steps and in one
// long one (the bot down for hours) lands in the same place, stops at its until, and
// the long tick's work does not grow with its length.
func TestChangeCatchesUp(t *testing.T) {
	c := campaign(t)
	rng := rand.New(rand.NewPCG(17, 1))
	for n := 0; n < 200; n++ {
		start, rate := rng.Float64()*100-50, rng.Float64()*10-5
		var until *float64
		if rng.IntN(2) == 0 {
			u := start + rate*rng.Float64()*200
			until = &u
		}
		mk := func() *World {
			return &World{Locals: map[string]float64{"heat": start}, Moving: map[string]Moving{"/heat": {Rate: rate, Until: until}}}
		}
		stepped, jumped := mk(), mk()
		r := c.NewRunner(nil)
		total := 0.0
		for total < 150 {
			dt := 0.25 + rng.Float64()*2
			r.Tick(stepped, dt)
			total += dt
		}
		r.Tick(jumped, total)
		a, b := stepped.Locals["heat"], jumped.Locals["heat"]
		if math.Abs(a-b) > 1e-9*max(1, math.Abs(a)) || len(stepped.Moving) != len(jumped.Moving) {
			t.Fatalf("start %v rate %v until %v over %v s: stepped %v, one tick %v", start, rate, until, total, a, b)
		}
		if until != nil && (rate > 0 && a > *until || rate < 0 && a < *until) {
			t.Fatalf("passed its until %v: %v", *until, a)
		}
	}
}

// TestWhileEvery: a while rule fires every `every` seconds counted on the ticks it is
// given, the first a full period after its conditions start holding; after a long gap
// (the bot down three hours) a due rule fires once, not ten thousand times.
func TestWhileEvery(t *testing.T) {
	c, e := ruled(t, `[{"when":"while","every":2,"test":[{"value":"item.equipped","op":"=","to":"on"}],"do":[{"add":"local.heat","by":1}]},
		{"when":"while","test":[{"value":"item.equipped","op":"=","to":"on"}],"do":[{"add":"local.beat","by":1}]}]`)
	e.Equipped = true
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{}}
	r := c.NewRunner(nil)
	for i := 0; i < 4*7; i++ { // 7 s at 4 ticks a second
		if _, err := r.Tick(w, 0.25); err != nil {
			t.Fatal(err)
		}
	}
	if w.Locals["heat"] != 3 || w.Locals["beat"] != 7 {
		t.Errorf("after 7 s: heat %v (every 2 s: 3), beat %v (every 1 s by default: 7)", w.Locals["heat"], w.Locals["beat"])
	}
	r.Tick(w, 3*3600)
	if w.Locals["heat"] != 4 || w.Locals["beat"] != 8 {
		t.Errorf("after 3 h away each due rule fires once: heat %v beat %v", w.Locals["heat"], w.Locals["beat"])
	}
	e.Equipped = false
	r.Tick(w, 0.25)
	e.Equipped = true
	r.Tick(w, 1.75)
	if w.Locals["heat"] != 4 {
		t.Errorf("held again from 0: not due before 2 s: heat %v", w.Locals["heat"])
	}
}

// TestChangeStopsAtDeclaredRange: a change without until stops at the end of a
// declared value's range; a value set by a rule stops moving.
func TestChangeStopsAtDeclaredRange(t *testing.T) {
	c, e := ruled(t, `[{"when":"acquired","do":[{"change":"char.local.curse","rate":1}]}]`)
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"curse": 1}}
	r := c.NewRunner(nil)
	if _, err := r.After(w, []Event{{Kind: "acquired", UID: "p"}}); err != nil || !r.Timed(w) {
		t.Fatalf("moving: %v %v", w.Moving, err)
	}
	r.Tick(w, 60)
	if w.Locals["curse"] != 3 || r.Timed(w) {
		t.Errorf("curse has 4 choices: stops at 3, and needs no clock: %v %v", w.Locals["curse"], w.Moving)
	}
	r.start(w, e, Action{Change: "local.curse", Rate: -1})
	r.write(w, e, "local.curse", 2)
	if len(w.Moving) != 0 || w.Locals["curse"] != 2 {
		t.Errorf("set stops it: %v %v", w.Locals, w.Moving)
	}
}

// TestSeenSurvivesRestart: what becomes rules saw is the World's, so a runner made
// afresh (the bot restarted) neither fires again for what was seen nor misses a change
// made since; entries gone are forgotten.
func TestSeenSurvivesRestart(t *testing.T) {
	c, e := ruled(t, `[{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"empty"}]}]`)
	w := &World{Inv: []*Entry{e}}
	if res, _ := c.NewRunner(nil).After(w, nil); len(res.Messages) != 0 || len(w.Seen) != 1 {
		t.Fatalf("5 charges: %v, seen %v", res.Messages, w.Seen)
	}
	e.Charges = 0 // the last charge spent while the bot restarts
	if res, _ := c.NewRunner(nil).After(w, nil); !slices.Equal(res.Messages, []string{"empty"}) {
		t.Errorf("a fresh runner sees the change: %v", res.Messages)
	}
	if res, _ := c.NewRunner(nil).After(w, nil); len(res.Messages) != 0 {
		t.Errorf("and another does not fire it again: %v", res.Messages)
	}
	w.Inv = nil
	c.NewRunner(nil).After(w, nil)
	if len(w.Seen) != 0 {
		t.Errorf("a gone entry's rules are forgotten: %v", w.Seen)
	}
}

// TestFill: item.fill is how full a container is, 0 to 1, as Pack Rat reads it: a
// liquid's pints of its most, a bag's contents by weight of its capacity; an item that
// holds nothing has no fill.
func TestFill(t *testing.T) {
	c := campaign(t)
	skin := c.NewEntry("k", c.System.CatalogItem("lr-skin"), 1)
	skin.Fill = 3
	sack := c.NewEntry("s", c.System.CatalogItem("lr-sack"), 1)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Parent = "s" // half a pound in a sack holding 4
	ring := c.NewEntry("r", c.System.CatalogItem("lr-ring"), 1)
	w := &World{Inv: []*Entry{skin, sack, wand, ring}}
	r := c.NewRunner(nil)
	for e, want := range map[*Entry]float64{skin: 0.75, sack: 0.125} {
		if v, ok := r.read(w, e, "item.fill"); !ok || math.Abs(v-want) > 1e-9 {
			t.Errorf("%s: fill %v %v, want %v", e.UID, v, ok, want)
		}
	}
	if _, ok := r.read(w, ring, "item.fill"); ok {
		t.Error("a ring holds nothing: no fill")
	}
}

// TestRuleOverLimit: a rule turning a state on past its limit keeps it, with the
// warning for the player, as Pack Rat does for rules.
func TestRuleOverLimit(t *testing.T) {
	c, e := ruled(t, `[{"when":"acquired","do":[{"set":"item.state.attuned","to":"on"}]}]`)
	w := &World{Inv: []*Entry{e}, Locals: map[string]float64{"attuneSlots": 0}}
	res, err := c.NewRunner(nil).After(w, []Event{{Kind: "acquired", UID: "p"}})
	if err != nil || !e.On("attuned") || !slices.Equal(res.Messages, []string{"You can attune to at most 0 items (keeping it anyway)"}) {
		t.Errorf("attuned %v: %q (%v)", e.On("attuned"), res.Messages, err)
	}
}

// TestMessagesFrom: each message comes with the name of the item that said it, as the
// item is now.
func TestMessagesFrom(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.GM = map[string]bool{"identified": true}
	w := &World{Inv: []*Entry{wand}}
	r := c.NewRunner(heatEval)
	r.After(w, nil)
	wand.Charges = 0
	res, err := r.After(w, nil)
	if err != nil || len(res.From) != len(res.Messages) || len(res.From) == 0 || res.From[0] != c.Now(wand).Name {
		t.Errorf("from %q for %q (%v)", res.From, res.Messages, err)
	}
}

// TestMovingIsBounded: an undeclared value moving with no until stops at MaxValue, so a
// bot down for years catches up to a number, not an infinity.
func TestMovingIsBounded(t *testing.T) {
	c := campaign(t)
	w := &World{Locals: map[string]float64{"drift": 0}, Moving: map[string]Moving{"/drift": {Rate: -1000}}}
	c.NewRunner(nil).Tick(w, 1e12)
	if w.Locals["drift"] != -MaxValue || len(w.Moving) != 0 {
		t.Errorf("drift %v, moving %v", w.Locals["drift"], w.Moving)
	}
}

// TestBecomesRulesOnOneTestEachFire: becomes fires once, as all the conditions in test
// turn true, for each rule — two rules of one item on the same conditions (and two alike
// in every part) each fire, and once.
func TestBecomesRulesOnOneTestEachFire(t *testing.T) {
	c, e := ruled(t, `[
		{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"first"}]},
		{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"second"}]},
		{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"second"}]}]`)
	w := &World{Inv: []*Entry{e}}
	r := c.NewRunner(nil)
	if _, err := r.After(w, nil); err != nil {
		t.Fatal(err)
	}
	e.Charges = 0
	res, err := r.After(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Messages, []string{"first", "second", "second"}) {
		t.Errorf("as charges reach 0 every rule fires; got %q", res.Messages)
	}
	if res, _ := r.After(w, nil); len(res.Messages) != 0 {
		t.Errorf("and none again: %q", res.Messages)
	}
}

// TestSeenKeptFromBeforeWholeRuleKeys: a World stored when Seen's keys were the entry
// and the rule's when and conditions still tells each rule on those conditions what it
// saw, so the first run after the upgrade neither misses a turn nor fires again.
func TestSeenKeptFromBeforeWholeRuleKeys(t *testing.T) {
	c, e := ruled(t, `[
		{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"first"}]},
		{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"second"}]}]`)
	old := "p/" + fmt.Sprint(e.Item.Rules[0].When, e.Item.Rules[0].Test)
	e.Charges = 0
	w := &World{Inv: []*Entry{e}, Seen: map[string]bool{old: false}}
	if res, _ := c.NewRunner(nil).After(w, nil); !slices.Equal(res.Messages, []string{"first", "second"}) {
		t.Errorf("charges were 5 when last seen and are 0: %q", res.Messages)
	}
	w.Seen = map[string]bool{old: true}
	if res, _ := c.NewRunner(nil).After(w, nil); len(res.Messages) != 0 {
		t.Errorf("charges were 0 already: %q", res.Messages)
	}
	// The old key is read by the first run alone: a rule edited afterwards (charges at 0
	// all along) starts afresh, and does not fire on what the old key held that day.
	if _, kept := w.Seen[old]; kept {
		t.Errorf("the old key outlived the run that read it: %v", w.Seen)
	}
	w.Seen = map[string]bool{old: false} // stored before the upgrade, charges 5
	e.Charges = 5
	c.NewRunner(nil).After(w, nil) // the first run after it
	e.Charges = 0
	if res, _ := c.NewRunner(nil).After(w, nil); len(res.Messages) != 2 {
		t.Fatalf("both fire as charges reach 0: %q", res.Messages)
	}
	_, edited := ruled(t, `[{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"edited"}]}]`)
	edited.Charges = 0
	w.Inv = []*Entry{edited}
	if res, _ := c.NewRunner(nil).After(w, nil); len(res.Messages) != 0 {
		t.Errorf("a rule edited starts afresh (its conditions as they stand), yet fired: %q", res.Messages)
	}
	// A key holds a digest of the rule's actions and message, not their text: short
	// however long the message.
	_, long := ruled(t, `[{"when":"becomes","test":[{"value":"item.charges","op":"=","to":0}],"do":[{"message":"`+strings.Repeat("a long message ", 100)+`"}]}]`)
	if k := SeenKey(long.UID, long.Item.Rules[0]); len(k) > 80 {
		t.Errorf("a Seen key of %d bytes: %q", len(k), k)
	}
}
