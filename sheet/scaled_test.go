package sheet

import (
	"testing"

	"sheetkeeper/ruleset"
)

// usesOf returns the uses column of each counters row.
func usesOf(c *Card) []any {
	var u []any
	for _, r := range c.Build.Lists["counters"] {
		u = append(u, r["uses"])
	}
	return u
}

func TestRescale(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	look := inline(rs)
	for _, tc := range []struct {
		name   string
		fields map[string]any
		heart  float64
		want   []any // Channel Power, Left Mark, Right Mark, Focus Charges, Last Ember
	}{
		{name: "a blank card", want: []any{1.0, 0.0, 0.0, 0.0, 0.0}},
		{name: "step table, derived, ability", fields: map[string]any{"level": 5.0}, heart: 2,
			want: []any{1.0, 2.0, 2.0, 0.0, 2.0}},
		{name: "next step", fields: map[string]any{"level": 6.0}, want: []any{2.0, 3.0, 0.0, 0.0, 0.0}},
		{name: "top step", fields: map[string]any{"level": 20.0}, heart: 3, want: []any{3.0, 9.0, 3.0, 0.0, 3.0}},
		{name: "floored for an integer column", fields: map[string]any{"focus": 2.75}, want: []any{1.0, 0.0, 0.0, 2.0, 0.0}},
		{name: "held to the column's min (a row at 0 stays)", heart: -1, want: []any{1.0, 0.0, 0.0, 0.0, 0.0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
			pickAll(t, rs, c, "features", "channel", "twin-marks")
			pickAll(t, rs, c, "features", "focus-charges", "last-ember")
			c.Build.Fields = tc.fields
			c.Build.Abilities = map[string]float64{"heart": tc.heart}
			Rescale(rs, c, look)
			if got := usesOf(c); !sameValue(got, tc.want) {
				t.Fatalf("uses %v, want %v", got, tc.want)
			}
			if ch := Rescale(rs, c, look); len(ch) != 0 {
				t.Fatalf("a second rescale changed %v", ch)
			}
			// A counter at 0 is no pool; the rows stay.
			live := Evaluate(rs, c, nil).Live
			for i, r := range c.Build.Lists["counters"] {
				name, _ := r.Text("name")
				if p := live.Pool(RowPoolKey("counters", name)); (p != nil) != (tc.want[i].(float64) > 0) {
					t.Errorf("%s: pool %+v with uses %v", name, p, tc.want[i])
				}
			}
		})
	}
}

// With several scaled rows for one list (API 1.92) a card row follows the spec of its
// own name; a renamed row follows nothing. Unmarked rows and rows whose entry is gone are
// never touched.
func TestRescaleByName(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	look := inline(rs)
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(t, rs, c, "features", "twin-marks")
	rows := c.Build.Lists["counters"]
	rows[0], rows[1] = rows[1], rows[0] // order on the card does not matter
	rows[1]["name"] = "  left   MARK "  // still its name
	c.Build.Lists["counters"] = append(rows,
		Row{"name": "Right Mark", "uses": 7.0},                                   // hand-made: no marker
		Row{"name": "Gone", "uses": 7.0, CatalogKey: "features/retired-feature"}, // entry gone
	)
	c.Build.Fields = map[string]any{"level": 8.0}
	c.Build.Abilities = map[string]float64{"heart": 3}
	ch := Rescale(rs, c, look)
	if got := usesOf(c); !sameValue(got, []any{3.0, 4.0, 7.0, 7.0}) {
		t.Fatalf("uses %v", got)
	}
	want := []Change{
		{Card: "Mira", Path: "build.lists.counters[0].uses", Before: 0.0, After: 3.0},
		{Card: "Mira", Path: "build.lists.counters[1].uses", Before: 0.0, After: 4.0},
	}
	if len(ch) != 2 || ch[0] != want[0] || ch[1] != want[1] {
		t.Fatalf("changes %+v", ch)
	}
	c.Build.Lists["counters"][0]["name"] = "Sinister Mark" // renamed by the player
	c.Build.Abilities["heart"] = 1
	c.Build.Fields["level"] = 2.0
	Rescale(rs, c, look)
	if got := usesOf(c); !sameValue(got, []any{3.0, 1.0, 7.0, 7.0}) {
		t.Fatalf("after a rename: %v", got)
	}
}

// The single-row rule: a marker's rows follow the entry's only row for their list, even
// when the card holds it twice.
func TestRescaleSingleRow(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	look := inline(rs)
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(t, rs, c, "features", "channel")
	rows := c.Build.Lists["counters"]
	rows[0]["name"] = "Renamed Power"
	c.Build.Lists["counters"] = append(rows, Row{"name": "Channel Power", "uses": 5.0, CatalogKey: "features/channel"})
	c.Build.Fields = map[string]any{"level": 18.0}
	Rescale(rs, c, look)
	if got := usesOf(c); !sameValue(got, []any{3.0, 3.0}) {
		t.Fatalf("uses %v", got)
	}
	// Without the catalog (it could not be loaded), nothing moves.
	c.Build.Fields["level"] = 1.0
	none := entriesFunc(func(string, string) (*ruleset.Entry, bool) { return nil, false })
	if ch := Rescale(rs, c, none); len(ch) != 0 {
		t.Fatalf("rescaled without entries: %v", ch)
	}
}

func TestFitColumn(t *testing.T) {
	lo, hi := 0.0, 9.0
	whole := &ruleset.Column{Type: "number", Min: &lo, Max: &hi}
	no := false
	frac := &ruleset.Column{Type: "number", Min: &lo, Max: &hi, Integer: &no}
	for _, tc := range []struct {
		col     *ruleset.Column
		in, out float64
	}{
		{whole, 3.9, 3}, {whole, -2, 0}, {whole, 12, 9}, {whole, -0.5, 0},
		{frac, 3.9, 3.9}, {frac, 9.5, 9}, {&ruleset.Column{Type: "number"}, -3.5, -4},
	} {
		if got := fitColumn(tc.in, tc.col); got != tc.out {
			t.Errorf("fit %v = %v, want %v", tc.in, got, tc.out)
		}
	}
}

func BenchmarkRescale(b *testing.B) {
	rs := useRuleset(b, arcanaPath)
	look := inline(rs)
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(b, rs, c, "features", "channel", "twin-marks")
	pickAll(b, rs, c, "features", "focus-charges", "last-ember")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.Build.Fields = map[string]any{"level": float64(1 + i%20)}
		Rescale(rs, c, look)
	}
}
