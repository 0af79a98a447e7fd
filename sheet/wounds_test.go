package sheet

import (
	"slices"
	"testing"
)

// TestWoundRulesGuide walks Gravewatch's Harm track (levels Scuffed 0, Winded -1,
// Bleeding -3, Down -99; kinds knock < tear) through every rule of the guide, one command
// after another on one card.
func TestWoundRulesGuide(t *testing.T) {
	rs := reference(t, "gravewatch.json")
	c := newCard(rs, "Bram")
	steps := []struct {
		tag     string
		now     string
		marks   []string
		over    int
		penalty int
	}{
		// A mark lands on the first level.
		{`[sheet: op="damage" track="harm" kind="knock" amount="1"]`, "Harm 1/4 Scuffed", []string{"knock"}, 0, 0},
		// Placed in severity order, never appended: the tear takes the top level and
		// pushes the knock down. The penalty is the lowest marked level's, not a sum.
		{`[sheet: op="damage" track="Harm" kind="T" amount="1"]`, "Harm 2/4 Winded", []string{"tear", "knock"}, 0, -1},
		// An amount is marks applied one at a time.
		{`[sheet: op="damage" track="harm" kind="knock" amount="2"]`, "Harm 4/4 Down", []string{"tear", "knock", "knock", "knock"}, 0, -99},
		// Full: the lowest-severity mark upgrades one step instead of a new mark.
		{`[sheet: op="damage" track="harm" kind="knock" amount="1"]`, "Harm 4/4 Down", []string{"tear", "tear", "knock", "knock"}, 0, -99},
		// Upgrades, then full at the worst kind: the rest is overflow, and the now says so.
		{`[sheet: op="damage" track="harm" kind="tear" amount="3"]`, "Harm 4/4 Down +1 over", []string{"tear", "tear", "tear", "tear"}, 1, -99},
		{`[sheet: op="damage" track="harm" kind="knock" amount="5"]`, "Harm 4/4 Down +5 over", []string{"tear", "tear", "tear", "tear"}, 6, -99},
		// Healing clears overflow first, then the lightest marks.
		{`[sheet: op="damage" track="harm" amount="-7"]`, "Harm 3/4 Bleeding", []string{"tear", "tear", "tear"}, 0, -3},
		{`[sheet: op="damage" track="harm" kind="knock" amount="1"]`, "Harm 4/4 Down", []string{"tear", "tear", "tear", "knock"}, 0, -99},
		// A heal naming a kind the track has clears only that kind.
		{`[sheet: op="damage" track="harm" kind="tear" amount="-1"]`, "Harm 3/4 Bleeding", []string{"tear", "tear", "knock"}, 0, -3},
		// A heal naming a kind the track does not have heals the lightest first.
		{`[sheet: op="damage" track="harm" kind="fire" amount="-1"]`, "Harm 2/4 Winded", []string{"tear", "tear"}, 0, -1},
		// Healing more than there is clears the track; the store is sparse again.
		{`[sheet: op="damage" track="harm" amount="-9"]`, "Harm 0/4", nil, 0, 0},
	}
	for _, s := range steps {
		o := run(t, rs, c, s.tag)
		if summary(o) != s.now {
			t.Fatalf("%s: got %q, want %q", s.tag, summary(o), s.now)
		}
		w := c.Live.Wounds["harm"]
		if !slices.Equal(w.Marks, s.marks) || w.Overflow != s.over {
			t.Fatalf("%s: stored %+v, want marks %v overflow %d", s.tag, w, s.marks, s.over)
		}
		v := Evaluate(rs, c, nil)
		if got := v.Live.Track("harm").Wound.Penalty; got != s.penalty {
			t.Fatalf("%s: penalty %d, want %d", s.tag, got, s.penalty)
		}
		// harm_left reads the track's remaining levels.
		if got := v.Derived["harm_left"]; got != float64(4-len(s.marks)) {
			t.Fatalf("%s: harm_left %v", s.tag, got)
		}
	}
	if _, stored := c.Live.Wounds["harm"]; stored {
		t.Error("a clear track is still stored")
	}
}

func TestWoundRefusals(t *testing.T) {
	rs := reference(t, "gravewatch.json")
	for _, tc := range []struct{ tag, want string }{
		{`[sheet: op="damage" track="harm" kind="fire" amount="1"]`, "refused unknown-kind"},
		{`[sheet: op="damage" track="harm" kind="knock" amount="0"]`, "refused bad-amount -100000..100000"},
		{`[sheet: op="damage" track="harm" kind="knock" amount="100001"]`, "refused bad-amount -100000..100000"},
		{`[sheet: op="damage" track="harm" kind="knock" amount="1" box="0"]`, "refused bad-amount 1..64"},
		{`[sheet: op="damage" track="scars" kind="knock" amount="1"]`, "refused unknown-track"},
		{`[sheet: op="damage" track="harm" kind="knock" amount="-1"]`, "Harm 0/4"},
	} {
		c := newCard(rs, "Bram")
		if got := summary(run(t, rs, c, tc.tag)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.tag, got, tc.want)
		}
	}
}

// TestWoundBoxesIndexed: numbered boxes as long as the track's max, marks landing on the
// named box or the next free one above it and never moving, a command that cannot land
// whole refused no-box, heals clearing the highest of the lightest, and the penalty read
// off the table at the boxes remaining.
func TestWoundBoxesIndexed(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira") // toughness 0: 3 boxes
	steps := []struct {
		tag     string
		now     string
		marks   []string
		penalty int
	}{
		{`[sheet: op="damage" track="strain" kind="strain" amount="1" box="2"]`, "Strain 1/3", []string{"", "strain"}, 0},
		{`[sheet: op="damage" track="strain" kind="strain" amount="2" box="2"]`, "refused no-box", []string{"", "strain"}, 0},
		{`[sheet: op="damage" track="strain" kind="burn" amount="1" box="2"]`, "Strain 2/3", []string{"", "strain", "burn"}, -1},
		{`[sheet: op="damage" track="strain" kind="strain" amount="1"]`, "Strain 3/3", []string{"strain", "strain", "burn"}, -2},
		{`[sheet: op="damage" track="strain" kind="strain" amount="1"]`, "refused no-box", []string{"strain", "strain", "burn"}, -2},
		{`[sheet: op="damage" track="strain" amount="-1"]`, "Strain 2/3", []string{"strain", "", "burn"}, -1},
		{`[sheet: op="damage" track="strain" kind="burn" amount="-1"]`, "Strain 1/3", []string{"strain"}, 0},
	}
	for _, s := range steps {
		if got := summary(run(t, rs, c, s.tag)); got != s.now {
			t.Fatalf("%s: got %q, want %q", s.tag, got, s.now)
		}
		if got := c.Live.Wounds["strain"].Marks; !slices.Equal(got, s.marks) {
			t.Fatalf("%s: marks %q, want %q", s.tag, got, s.marks)
		}
		w := Evaluate(rs, c, nil).Live.Track("strain").Wound
		if w.Penalty != s.penalty || !w.Numbered || !w.Indexed || !w.RefusesWhenFull {
			t.Fatalf("%s: %+v", s.tag, w)
		}
	}
	// The track is as long as its max: more toughness, more boxes.
	c.Build.Fields = map[string]any{"toughness": 2.0}
	if got := Evaluate(rs, c, nil).Live.Track("strain"); got.Max != 5 || len(got.Wound.Levels) != 5 || got.Wound.Levels[4].Label != "5" {
		t.Errorf("boxes: %+v", got)
	}
}

// TestWoundRefusesWhenFull: onFull "refuse" refuses the whole command when there are not
// enough free levels, rather than upgrading.
func TestWoundRefusesWhenFull(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	if got := summary(run(t, rs, c, `[sheet: op="damage" track="doom" kind="dread" amount="2"]`)); got != "Doom 2/3 Haunted" {
		t.Fatal(got)
	}
	before := c.Clone()
	if got := summary(run(t, rs, c, `[sheet: op="damage" track="doom" kind="dread" amount="2"]`)); got != "refused no-box" {
		t.Fatal(got)
	}
	if !c.Equal(before) {
		t.Fatal("a refused mark changed the card")
	}
	if got := summary(run(t, rs, c, `[sheet: op="damage" track="doom" kind="dread" amount="1"]`)); got != "Doom 3/3 Lost" {
		t.Fatal(got)
	}
}

// TestWoundExtraLevels: each row of the extra list adds its count of levels after the
// last level whose penalty is at least as good, named after it when the penalty matches
// and by the penalty otherwise; a row deleted under marks leaves them as overflow.
func TestWoundExtraLevels(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Build.Lists = map[string][]Row{"scars": {
		{"name": "Old cut", "levels": 2.0, "penalty": -1.0},
		{"name": "Burn", "penalty": -4.0}, // levels: the column's default, 1
	}}
	w := Evaluate(rs, c, nil).Live.Track("harm").Wound
	var got []string
	for _, l := range w.Levels {
		got = append(got, l.Label)
	}
	want := []string{"Bruised", "Hurt", "Hurt", "Hurt", "Injured", "-4", "Down"}
	if !slices.Equal(got, want) {
		t.Fatalf("levels %q, want %q", got, want)
	}
	if o := run(t, rs, c, `[sheet: op="damage" track="harm" kind="lethal" amount="6"]`); summary(o) != "Harm 6/7 -4" {
		t.Fatalf("got %q", summary(o))
	}
	if p := Evaluate(rs, c, nil).Derived["hurt"]; p != -4 {
		t.Errorf("hurt reads penalty -4, got %v", p)
	}
	// The scars go: the track is four long again and two marks are overflow.
	c.Build.Lists = nil
	tv := Evaluate(rs, c, nil).Live.Track("harm")
	if tv.Value != 4 || tv.Wound.Overflow != 2 || tv.Wound.Penalty != -5 {
		t.Errorf("after the scars went: %+v %+v", tv, tv.Wound)
	}
	// Healing clears the overflow first.
	if o := run(t, rs, c, `[sheet: op="damage" track="harm" amount="-3"]`); summary(o) != "Harm 3/4 Injured" {
		t.Errorf("got %q", summary(o))
	}
}

// TestWoundUpgradeLadder: an upgrade climbs one step of the declared ladder, whatever
// the incoming kind; marks of a kind the ruleset no longer declares are dropped on read.
func TestWoundUpgradeLadder(t *testing.T) {
	rs := fixture(t, "trials.json")
	c := newCard(rs, "Mira")
	c.Live.Wounds = map[string]Wounds{"harm": {Marks: []string{"bashing", "ghost", "lethal", "bashing", "bashing"}}}
	// Read sorted most severe first: lethal, bashing, bashing, bashing (ghost dropped).
	if o := run(t, rs, c, `[sheet: op="damage" track="harm" kind="aggravated" amount="1"]`); summary(o) != "Harm 4/4 Down" {
		t.Fatalf("got %q", summary(o))
	}
	// Full: the lowest bashing became lethal — not aggravated, the incoming kind.
	if got := c.Live.Wounds["harm"].Marks; !slices.Equal(got, []string{"lethal", "lethal", "bashing", "bashing"}) {
		t.Fatalf("marks %q", got)
	}
}
