package sheet

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestChanges: every applied op reports its leaf changes with stored before/after values.
func TestChanges(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build.Lists = map[string][]Row{"tricks": {{"name": "Fire Bolt", "uses": 2.0}}}
	cases := []struct {
		tag  string
		want []Change
	}{
		{`[sheet: op="damage" pool="stamina" amount="2"]`, []Change{{"Mira", "live.pools.stamina", nil, map[string]any{"value": 3.0}}}},
		{`[sheet: op="temp" pool="stamina" amount="2"]`, []Change{{"Mira", "live.pools.stamina", map[string]any{"value": 3.0}, map[string]any{"value": 3.0, "temp": 2.0}}}},
		{`[sheet: op="spend" pool="fire bolt" amount="1"]`, []Change{{"Mira", "live.pools.tricks:fire bolt", nil, map[string]any{"value": 1.0}}}},
		{`[sheet: op="restore" pool="fire bolt" amount="1"]`, []Change{{"Mira", "live.pools.tricks:fire bolt", map[string]any{"value": 1.0}, nil}}},
		{`[sheet: op="track" track="heat" to="3"]`, []Change{{"Mira", "live.tracks.heat", nil, 3.0}}},
		{`[sheet: op="track" track="heat" to="1"]`, []Change{{"Mira", "live.tracks.heat", 3.0, nil}}},
		{`[sheet: op="damage" track="harm" kind="lethal" amount="1"]`, []Change{{"Mira", "live.wounds.harm", nil, map[string]any{"marks": []any{"lethal"}}}}},
		{`[sheet: op="note" field="goal" value="home"]`, []Change{{"Mira", "live.text.goal", nil, "home"}}},
		{`[sheet: op="condition" condition="prone"]`, []Change{{"Mira", "live.conditions.prone", nil, true}}},
		{`[sheet: op="condition" condition="prone"]`, nil},
		{`[sheet: op="state" state="stance" value="guarded"]`, []Change{{"Mira", "live.states.stance", nil, "guarded"}}},
		{`[sheet: op="spend" pool="stamina" amount="9"]`, nil},
	}
	for _, tc := range cases {
		res := Apply(rs, []*Card{c}, tag(t, tc.tag), Options{Default: "Mira"})
		got := res.Changes()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.tag, got, tc.want)
		}
		for _, ch := range got {
			if v, _ := c.Get(ch.Path); !sameValue(v, ch.After) {
				t.Errorf("%s: %s holds %v, change says %v", tc.tag, ch.Path, v, ch.After)
			}
		}
	}
}

// TestRevert: a revert restores Before only where the value still equals After, so a
// later edit survives; changes survive a JSON round trip.
func TestRevert(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	start := c.Clone()
	var all []Change
	for _, s := range []string{
		`[sheet: op="damage" pool="stamina" amount="2"]`,
		`[sheet: op="spend" pool="slot_1" amount="1"]`,
		`[sheet: op="condition" condition="prone"]`,
		`[sheet: op="damage" track="harm" kind="lethal" amount="2"]`,
		`[sheet: op="state" state="stance" value="guarded"]`,
		`[sheet: op="rest" rest="camp"]`,
		`[sheet: op="note" field="goal" value="home"]`,
	} {
		all = append(all, Apply(rs, []*Card{c}, tag(t, s), Options{Default: "Mira"}).Changes()...)
	}
	data, _ := json.Marshal(all)
	var stored []Change
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	// A later player edit to the goal survives the revert; everything else goes back.
	c.Live.Text["goal"] = "elsewhere"
	done := Revert(c, stored)
	if len(done) == 0 {
		t.Fatal("nothing reverted")
	}
	if c.Live.Text["goal"] != "elsewhere" {
		t.Errorf("later edit lost: %v", c.Live.Text)
	}
	delete(c.Live.Text, "goal")
	if !c.Equal(start) {
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(start)
		t.Errorf("not reverted:\n%s\n%s", a, b)
	}
	// Another card's changes are not this card's.
	other := newCard(rs, "Bram")
	if got := Revert(other, stored); len(got) != 0 {
		t.Errorf("reverted another card's changes: %v", got)
	}
}

// TestPathsBuild: get and set every build leaf; row add and remove revert in order.
func TestPathsBuild(t *testing.T) {
	before := NewCard("Mira", "trials", 1, 1)
	before.Build.Lists = map[string][]Row{"tricks": {{"name": "A"}}}
	after := before.Clone()
	after.Build.Abilities = map[string]float64{"might": 12}
	after.Build.Skills = map[string]string{"lore": "trained"}
	after.Build.Saves = map[string]string{"grit": "half"}
	after.Build.Bonuses = map[string]float64{"lore": 2}
	after.Build.Fields = map[string]any{"level": 2.0, "motto": "x", "caster": true}
	after.Build.Lists["tricks"][0]["uses"] = 3.0
	after.Build.Lists["tricks"] = append(after.Build.Lists["tricks"], Row{"name": "B", "_catalog": "k/b"}, Row{"name": "C"})
	changes := Diff("Mira", before, after)
	var paths []string
	for _, ch := range changes {
		paths = append(paths, ch.Path)
	}
	want := []string{"build.abilities.might", "build.skills.lore", "build.saves.grit", "build.bonuses.lore",
		"build.fields.caster", "build.fields.level", "build.fields.motto",
		"build.lists.tricks[0].uses", "build.lists.tricks[1]", "build.lists.tricks[2]"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %q", paths)
	}
	Revert(after, changes)
	if !after.Equal(before) {
		t.Errorf("build not reverted: %+v", after.Build)
	}
	// A removed row comes back where it was.
	gone := before.Clone()
	gone.Build.Lists["tricks"] = nil
	ch := Diff("Mira", before, gone)
	Revert(gone, ch)
	if !gone.Equal(before) {
		t.Errorf("removed row not restored: %+v", gone.Build.Lists)
	}
	if _, err := before.Get("build.nothing.x"); err == nil {
		t.Error("unknown path read")
	}
	if err := before.Set("live.pools.hp", "full"); err == nil {
		t.Error("wrong shape stored")
	}
}
