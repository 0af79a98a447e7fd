package sheet

import (
	"strings"
	"testing"
)

// TestOps runs each op on a fresh trials card (after the given setup tags) and checks the
// exact write-back: now for an applied command, the reason (and bounds) for a refusal.
func TestOps(t *testing.T) {
	rs := fixture(t, "trials.json")
	cases := []struct {
		name  string
		setup []string
		tag   string
		want  string
	}{
		{"spend", nil, `[sheet: op="spend" pool="slot_1" amount="1"]`, "1/2"},
		{"spend by label", nil, `[sheet: op="spend" pool="1ST-CIRCLE SLOTS" amount="2"]`, "0/2"},
		{"spend insufficient", nil, `[sheet: op="spend" pool="slot_1" amount="3"]`, "refused insufficient"},
		{"spend zero", nil, `[sheet: op="spend" pool="slot_1" amount="0"]`, "refused bad-amount 1..100000"},
		{"spend too much", nil, `[sheet: op="spend" pool="stamina" amount="100001"]`, "refused bad-amount 1..100000"},
		{"spend negative", nil, `[sheet: op="spend" pool="stamina" amount="-1"]`, "refused bad-amount 1..100000"},
		{"unknown pool", nil, `[sheet: op="spend" pool="mana" amount="1"]`, "refused unknown-pool"},
		{"max 0 is no pool", nil, `[sheet: op="spend" pool="slot_2" amount="1"]`, "refused unknown-pool"},
		{"hidden pool", nil, `[sheet: op="restore" pool="oil" amount="1"]`, "refused unknown-pool"},
		{"restore caps at max", []string{`[sheet: op="spend" pool="stamina" amount="3"]`}, `[sheet: op="restore" pool="stamina" amount="9"]`, "5/5"},
		{"heal alias", []string{`[sheet: op="damage" pool="stamina" amount="3"]`}, `[sheet: op="heal" pool="Stamina" amount="1"]`, "3/5"},
		{"restore empty-start", nil, `[sheet: op="restore" pool="focus" amount="2"]`, "2/3"},
		{"damage stops at 0", nil, `[sheet: op="damage" pool="stamina" amount="99"]`, "0/5"},
		{"damage temp first", []string{`[sheet: op="temp" pool="stamina" amount="3"]`}, `[sheet: op="damage" pool="stamina" amount="2"]`, "5/5 +1 temp"},
		{"damage through temp", []string{`[sheet: op="temp" pool="stamina" amount="3"]`}, `[sheet: op="damage" pool="stamina" amount="4"]`, "4/5"},
		{"temp", nil, `[sheet: op="temp" pool="stamina" amount="4"]`, "5/5 +4 temp"},
		{"temp sets not adds", []string{`[sheet: op="temp" pool="stamina" amount="4"]`}, `[sheet: op="temp" pool="stamina" amount="2"]`, "5/5 +2 temp"},
		{"temp 0 clears", []string{`[sheet: op="temp" pool="stamina" amount="4"]`}, `[sheet: op="temp" pool="stamina" amount="0"]`, "5/5"},
		{"no temp", nil, `[sheet: op="temp" pool="focus" amount="1"]`, "refused no-temp"},
		{"temp bounds", nil, `[sheet: op="temp" pool="stamina" amount="-1"]`, "refused bad-amount 0..100000"},
		{"track to", nil, `[sheet: op="track" track="heat" to="4"]`, "Heat 4"},
		{"track by label", nil, `[sheet: op="track" track="HEAT" by="2"]`, "Heat 3"},
		{"track clamps high", nil, `[sheet: op="track" track="heat" to="9"]`, "Heat 5"},
		{"track clamps low", nil, `[sheet: op="track" track="heat" by="-7"]`, "Heat 0"},
		{"track by too far", nil, `[sheet: op="track" track="heat" by="100001"]`, "refused bad-amount -100000..100000"},
		{"track max from a value", nil, `[sheet: op="track" track="depth" to="5"]`, "Depth 1"},
		{"track unknown", nil, `[sheet: op="track" track="luck" to="1"]`, "refused unknown-track"},
		{"track on wound track", nil, `[sheet: op="track" track="harm" to="1"]`, "refused wrong-track"},
		{"wound on plain track", nil, `[sheet: op="damage" track="heat" kind="bashing" amount="1"]`, "refused wrong-track"},
		{"condition on", nil, `[sheet: op="condition" condition="prone"]`, "Prone on"},
		{"condition add by label", nil, `[sheet: op="condition" condition="SHAKEN" state="add"]`, "Shaken on"},
		{"condition off", []string{`[sheet: op="condition" condition="prone"]`}, `[sheet: op="condition" condition="prone" state="false"]`, "Prone off"},
		{"condition unknown", nil, `[sheet: op="condition" condition="asleep"]`, "refused unknown-condition"},
		{"note", nil, `[sheet: op="note" field="goal" value="Find Ash"]`, "Goal: Find Ash"},
		{"note by label, cut to max", nil, `[sheet: op="note" field="Goal" value="Reach the far tower"]`, "Goal: Reach the "},
		{"note cut to max in UTF-16 units", nil, `[sheet: op="note" field="goal" value="🔥🔥🔥🔥🔥🔥"]`, "Goal: 🔥🔥🔥🔥🔥"},
		{"note cut drops a character it would split", nil, `[sheet: op="note" field="goal" value="a🔥🔥🔥🔥🔥"]`, "Goal: a🔥🔥🔥🔥"},
		{"note clears", []string{`[sheet: op="note" field="goal" value="x"]`}, `[sheet: op="note" field="goal"]`, "Goal cleared"},
		{"note unknown", nil, `[sheet: op="note" field="diary" value="x"]`, "refused unknown-field"},
		{"state by value", nil, `[sheet: op="state" state="stance" value="guarded"]`, "Stance Guarded"},
		{"state by labels", nil, `[sheet: op="state" state="STANCE" value="all in"]`, "Stance All in"},
		{"state value without label", nil, `[sheet: op="state" state="stance" value="Steady"]`, "Stance steady"},
		{"state unknown value", nil, `[sheet: op="state" state="stance" value="sleepy"]`, "refused unknown-value"},
		{"state unknown", nil, `[sheet: op="state" state="form" value="wolf"]`, "refused unknown-state"},
		{"rest unknown", nil, `[sheet: op="rest" rest="nap time"]`, "refused unknown-rest"},
		{"rest by label", nil, `[sheet: op="rest" rest="make CAMP"]`, "Make camp: Focus 1/3, Heat 0, Strain 0/3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCard(rs, "Mira")
			for _, s := range tc.setup {
				if o := run(t, rs, c, s); !o.OK() {
					t.Fatalf("setup %s: %s", s, summary(o))
				}
			}
			before := c.Clone()
			got := summary(run(t, rs, c, tc.tag))
			if got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.tag, got, tc.want)
			}
			if got[:3] == "ref" && !c.Equal(before) {
				t.Errorf("a refused op changed the card")
			}
		})
	}
}

// TestPoolNames covers Marinara's pool lookup: exact key, a declared pool by id or
// label, then a row counter by its name, refused ambiguous when two lists share it.
func TestPoolNames(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build.Lists = map[string][]Row{
		"tricks": {
			{"name": "  Last Ember ", "uses": 2.0, "recharge": "camp"},
			{"name": "last ember", "uses": 5.0},
			{"name": "Stamina", "uses": 1.0},
			{"name": "Spark", "uses": 0.0},
			{"name": "", "uses": 3.0},
		},
	}
	for _, tc := range []struct{ tag, want string }{
		{`[sheet: op="spend" pool="tricks:last ember" amount="1"]`, "1/2"},
		{`[sheet: op="spend" pool="Last Ember" amount="1"]`, "0/2"},
		{`[sheet: op="spend" pool="last ember" amount="1"]`, "refused insufficient"},
		{`[sheet: op="spend" pool="stamina" amount="1"]`, "4/5"},
		{`[sheet: op="spend" pool="tricks:stamina" amount="1"]`, "0/1"},
		{`[sheet: op="spend" pool="spark" amount="1"]`, "refused unknown-pool"},
	} {
		if got := summary(run(t, rs, c, tc.tag)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.tag, got, tc.want)
		}
	}
	if got := c.Live.Pools["tricks:last ember"]; got != (PoolValue{Value: 0}) {
		t.Errorf("row counter stored %+v", got)
	}
}

func TestAmbiguousPool(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build.Lists = map[string][]Row{
		"tricks": {{"name": "Spark", "uses": 2.0}},
		"boons":  {{"name": "spark", "count": 4.0}},
	}
	if got := summary(run(t, rs, c, `[sheet: op="spend" pool="spark" amount="1"]`)); got != "refused ambiguous-pool" {
		t.Errorf("got %q", got)
	}
	if got := summary(run(t, rs, c, `[sheet: op="spend" pool="boons:spark" amount="1"]`)); got != "3/4" {
		t.Errorf("got %q", got)
	}
	// A hidden list's rows are no pools: the name is no longer ambiguous.
	c.Build.Fields = map[string]any{"caster": true}
	if got := summary(run(t, rs, c, `[sheet: op="spend" pool="spark" amount="1"]`)); got != "1/2" {
		t.Errorf("got %q", got)
	}
}

// TestNoteNowCutTo120: a note's now is "Label: value", cut at 120 as Marinara's done()
// cuts every op's now, though the value itself fits the field's maxLength of 120.
func TestNoteNowCutTo120(t *testing.T) {
	rs := loadRuleset(t, "../content/rulesets/low-vell.json")
	c := newCard(rs, "Mira")
	value := strings.Repeat("abcdefghij", 12) // 120 characters
	tg := tag(t, `[sheet: op="note" field="errand" value="`+value+`"]`)
	o := Apply(rs, []*Card{c}, tg, Options{Default: c.Name}).Outcome
	if !o.OK() {
		t.Fatalf("refused: %s", summary(o))
	}
	full := "Tonight's errand: " + value
	if want := full[:120]; o.Now != want {
		t.Errorf("now %q, want %q", o.Now, want)
	}
	if got := c.Live.Text["errand"]; got != value {
		t.Errorf("stored %q, want the whole value", got)
	}
}
