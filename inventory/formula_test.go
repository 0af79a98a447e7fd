package inventory

import (
	"slices"
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
)

// TestRulesRunParserFormulas: the runner with the parser's formula language — the
// fixture wand's cooling rule ("local.heat / 10 + 8") and rules whose actions are
// formulas — so what a system file writes is what the runner works out.
func TestRulesRunParserFormulas(t *testing.T) {
	c := campaign(t)
	wand := c.NewEntry("w", c.System.CatalogItem("lr-wand"), 1)
	wand.Equipped = true
	wand.GM = map[string]bool{"identified": true}
	w := &World{Inv: []*Entry{wand}, Locals: map[string]float64{"heat": 0}}
	r := c.NewRunner(parser.EvalFormula)
	var msgs []string
	for i := 0; i < 20; i++ { // 5 seconds at 4 ticks a second: heat 5 is between 5 and 5/10+8
		m, err := r.Tick(w, 0.25)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m.Messages...)
	}
	if !slices.Contains(msgs, "It cools.") {
		t.Fatalf("heat %v, messages %v", w.Locals["heat"], msgs)
	}

	s := lantern(t)
	it, ps := s.ParseItem([]byte(`{"id":"coal","type":"lr-gear","name":"Coal","cost":3,"weight":2,"triggers":[
		{"when":"acquired","do":[{"add":"local.heat","by":"clamp(item.weight * item.qty ^ 2, 0, 10) + round(-2.5) + max(item.qty, 1) % 3"}],"message":"warm"}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c2, _ := s.Campaign(nil)
	coal := &Entry{UID: "c", Item: it, Qty: 2}
	w2 := &World{Inv: []*Entry{coal}, Locals: map[string]float64{"heat": 1}}
	if res, err := c2.NewRunner(parser.EvalFormula).After(w2, []Event{{Kind: "acquired", UID: "c"}}); err != nil || !slices.Contains(res.Messages, "warm") {
		t.Fatalf("acquired: %v %v", res.Messages, err)
	}
	// The entry weighs 2 × 2 = 4, × qty² 4 = 16, clamped to 10; round(-2.5) is -2; 2 % 3 is 2.
	if got := w2.Locals["heat"]; got != 1+10-2+2 {
		t.Errorf("heat after the formula: %v, want 11", got)
	}
}

// TestRulesFormulaRefusals: a rule's formula that reads no known value, or does not
// read at all, is an error of the parser's kind, not a guessed 0.
func TestRulesFormulaRefusals(t *testing.T) {
	s := lantern(t)
	for by, want := range map[string]refusal.Reason{
		"local.nothing * 2":  refusal.UnknownValue,
		"item.charges +":     refusal.Malformed,
		"1 / (item.qty - 1)": refusal.BadAmount,
	} {
		it, ps := s.ParseItem([]byte(`{"id":"odd","type":"lr-gear","name":"Odd","triggers":[
			{"when":"acquired","do":[{"add":"local.heat","by":"` + by + `"}]}]}`))
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		c, _ := s.Campaign(nil)
		w := &World{Inv: []*Entry{{UID: "o", Item: it, Qty: 1}}, Locals: map[string]float64{"heat": 1}}
		var fs parser.Formulas // the cache, as a long-running runner would hold it
		_, err := c.NewRunner(fs.Eval).After(w, []Event{{Kind: "acquired", UID: "o"}})
		if refusal.Of(err) != want {
			t.Errorf("by %q: %v; want %s", by, err, want)
		}
	}
}
