package sheet

import (
	"slices"
	"testing"

	"sheetkeeper/parser"
)

// TestRestSteps runs the trials rests on a worn-down card: every restore step form
// (pool to max, by const, a pool group, list pools by recharge, a plain track by, a wound
// track cleared of one kind, boxes, a state back to default, a fraction of the max with
// its rounding and min) and both clears.
func TestRestSteps(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build.Lists = map[string][]Row{"tricks": {
		{"name": "Last Ember", "uses": 2.0, "recharge": "camp"},
		{"name": "Dawn Song", "uses": 1.0, "recharge": "dawn"},
		{"name": "Knack", "uses": 3.0},
	}}
	for _, s := range []string{
		`[sheet: op="damage" pool="stamina" amount="4"]`,
		`[sheet: op="spend" pool="slot_1" amount="2"]`,
		`[sheet: op="spend" pool="slot_3" amount="1"]`,
		`[sheet: op="spend" pool="last ember" amount="2"]`,
		`[sheet: op="spend" pool="dawn song" amount="1"]`,
		`[sheet: op="spend" pool="knack" amount="1"]`,
		`[sheet: op="track" track="heat" to="5"]`,
		`[sheet: op="damage" track="harm" kind="bashing" amount="2"]`,
		`[sheet: op="damage" track="harm" kind="lethal" amount="1"]`,
		`[sheet: op="damage" track="strain" kind="strain" amount="2"]`,
		`[sheet: op="state" state="stance" value="reckless"]`,
		`[sheet: op="note" field="goal" value="home"]`,
		`[sheet: op="condition" condition="shaken"]`,
		`[sheet: op="condition" condition="prone"]`,
		`[sheet: op="temp" pool="stamina" amount="2"]`,
	} {
		if o := run(t, rs, c, s); !o.OK() {
			t.Fatalf("%s: %s", s, summary(o))
		}
	}
	// Its now names every value the rest moved, cut at 120 as Marinara's done() cuts it;
	// the rest itself still moves them all (the stance is checked below).
	got := summary(run(t, rs, c, `[sheet: op="rest" rest="camp"]`))
	want := "Make camp: Stamina 5/5, Focus 1/3, 1st-circle slots 2/2, 3rd-circle slots 1/1, Last Ember 2/2, Heat 3, Harm 1/4, Strain 1/3, Stance steady"[:120]
	if got != want {
		t.Fatalf("camp:\n got %q\nwant %q", got, want)
	}
	v := Evaluate(rs, c, nil)
	if p := v.Live.Pool("stamina"); p.Temp != 2 {
		t.Errorf("a rest dropped temporary points: %+v", p)
	}
	if p := v.Live.Pool("tricks:dawn song"); p.Value != 0 {
		t.Errorf("camp recharged a dawn trick: %+v", p)
	}
	if p := v.Live.Pool("tricks:knack"); p.Value != 2 {
		t.Errorf("camp recharged a trick with no recharge: %+v", p)
	}
	if m := c.Live.Wounds["harm"].Marks; !slices.Equal(m, []string{"lethal"}) {
		t.Errorf("harm marks %q", m)
	}
	if c.Live.Text["goal"] != "" || !slices.Equal(c.Live.Conditions, []string{"prone"}) {
		t.Errorf("clear: text %v conditions %v", c.Live.Text, c.Live.Conditions)
	}
	if _, ok := c.Live.States["stance"]; ok {
		t.Error("stance back at default is still stored")
	}

	// Dawn: stamina by half its max rounded up (3), at least 1; every trick to its min;
	// harm by -2 (one mark left, so it clears it and stops); depth to its max; stance to a
	// value; every condition cleared.
	run(t, rs, c, `[sheet: op="damage" pool="stamina" amount="7"]`)
	got = summary(run(t, rs, c, `[sheet: op="rest" rest="dawn"]`))
	want = "Dawn: Stamina 3/5, Last Ember 0/2, Knack 0/3, Harm 0/4, Depth 1, Stance All in"
	if got != want {
		t.Fatalf("dawn:\n got %q\nwant %q", got, want)
	}
	if len(c.Live.Conditions) != 0 {
		t.Errorf("conditions %v", c.Live.Conditions)
	}
	// A rest that moves nothing says its label alone; a positive by on heat moves it.
	if got := summary(run(t, rs, c, `[sheet: op="rest" rest="nap"]`)); got != "Nap: Heat 4" {
		t.Errorf("nap: %q", got)
	}
}

// TestLongRestNowCutTo120: a 5e long rest on a worn-down 9th-level wizard moves nine
// values, and its now is cut at 120 UTF-16 code units as Marinara's done() cuts it, even
// mid-word; the write-back carries that, not the tag writer's 240.
func TestLongRestNowCutTo120(t *testing.T) {
	rs := loadRuleset(t, "../content/rulesets/dnd5e-srd/ruleset.json")
	c := newCard(rs, "Mira")
	c.Build.Fields = map[string]any{"class": "Wizard", "wizard_level": 9.0, "spellcasting_ability": "int", "caster_level": 9.0, "hp_max": 50.0}
	for _, s := range []string{
		`[sheet: op="damage" pool="hp" amount="20"]`,
		`[sheet: op="spend" pool="slots_1" amount="2"]`,
		`[sheet: op="spend" pool="slots_2" amount="2"]`,
		`[sheet: op="spend" pool="slots_3" amount="2"]`,
		`[sheet: op="spend" pool="slots_4" amount="1"]`,
		`[sheet: op="spend" pool="slots_5" amount="1"]`,
		`[sheet: op="spend" pool="hit_dice" amount="5"]`,
		`[sheet: op="track" track="exhaustion" to="2"]`,
		`[sheet: op="track" track="death_save_failures" to="2"]`,
	} {
		if o := run(t, rs, c, s); !o.OK() {
			t.Fatalf("%s: %s", s, summary(o))
		}
	}
	rest := tag(t, `[sheet: op="rest" rest="long"]`)
	o := Apply(rs, []*Card{c}, rest, Options{Default: c.Name}).Outcome
	full := "Long rest: Hit points 50/50, 1st-level slots 4/4, 2nd-level slots 3/3, 3rd-level slots 3/3, " +
		"4th-level slots 3/3, 5th-level slots 1/1, Hit dice 8/9, Exhaustion 1, Death save failures 0"
	if want := full[:120]; o.Now != want {
		t.Errorf("now %q, want %q", o.Now, want)
	}
	want := `[sheet: op="rest" rest="long" result="ok" now="` + full[:120] + `"]`
	if got := rest.WriteBack(parser.Outcome{Result: parser.ResultOK, Now: o.Now}); got != want {
		t.Errorf("write-back %s\nwant %s", got, want)
	}
	if p := Evaluate(rs, c, nil).Live.Pool("hit_dice"); p.Value != 8 {
		t.Errorf("the rest moved less than its now names: hit dice %+v", p)
	}
}

// TestRestFractionMin: fractionOfMax rounds its way and never gives less than its min.
func TestRestFractionMin(t *testing.T) {
	rs := reference(t, "ruleset-5e-2014.example.json")
	c := newCard(rs, "Mira") // level 1: one hit die
	run(t, rs, c, `[sheet: op="spend" pool="hit_dice" amount="1"]`)
	got := summary(run(t, rs, c, `[sheet: op="rest" rest="long"]`))
	if got != "Long rest: Hit dice 1/1" {
		t.Errorf("got %q", got)
	}
	c.Build.Fields = map[string]any{"level": 9.0}
	run(t, rs, c, `[sheet: op="spend" pool="hit_dice" amount="9"]`)
	if got := summary(run(t, rs, c, `[sheet: op="rest" rest="long"]`)); got != "Long rest: Hit dice 4/9" {
		t.Errorf("got %q", got)
	}
}

// TestRestWoundTo: a wound step with "to" clears down to that many marks, overflow and all.
func TestRestWoundTo(t *testing.T) {
	rs := reference(t, "gravewatch.json")
	c := newCard(rs, "Bram")
	run(t, rs, c, `[sheet: op="damage" track="harm" kind="tear" amount="6"]`)
	if got := summary(run(t, rs, c, `[sheet: op="rest" rest="vigil"]`)); got != "Stand down from the vigil: Harm 0/4" {
		t.Errorf("got %q", got)
	}
	if len(c.Live.Wounds) != 0 {
		t.Errorf("wounds %v", c.Live.Wounds)
	}
}
