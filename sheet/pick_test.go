package sheet

import (
	"path/filepath"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// Every fixture of testdata/use is a ruleset that loads with no problem.
func TestUseFixturesParseClean(t *testing.T) {
	files, err := filepath.Glob("testdata/use/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	for _, f := range files {
		rs := useRuleset(t, f)
		if len(rs.Catalogs) == 0 {
			t.Errorf("%s: no catalogs", f)
		}
	}
}

func TestPick(t *testing.T) {
	rs := useRuleset(t, emberPath)
	look := inline(rs)
	c := NewCard("Ash", rs.ID, rs.Version, rs.Sheet.Version)
	c.Build.Abilities = map[string]float64{"heart": 2}
	// A value left over from an earlier counter of the same name does not survive: a new
	// counter starts full.
	c.Live.Pools = map[string]PoolValue{"tricks:last ember": {Value: 0}}
	e, _ := look.Entry("knacks", "last-ember")
	out, ch := Pick(rs, c, "knacks", e, look)
	if !out.OK() || out.Now != "Last Ember added (2 rows)" {
		t.Fatalf("pick: %+v", out)
	}
	wantKnack := Row{"name": "Last Ember", "notes": e.Rows[0].Values["notes"], CatalogKey: "knacks/last-ember"}
	wantTrick := Row{"name": "Last Ember", "uses": 2.0, "recharge": "camp", CatalogKey: "knacks/last-ember"}
	if !sameValue(c.Build.Lists["knacks"], []Row{wantKnack}) || !sameValue(c.Build.Lists["tricks"], []Row{wantTrick}) {
		t.Fatalf("rows: %v / %v", c.Build.Lists["knacks"], c.Build.Lists["tricks"])
	}
	if len(c.Live.Pools) != 0 {
		t.Fatalf("the new counter is not full: %v", c.Live.Pools)
	}
	if p := Evaluate(rs, c, nil).Live.Pool("tricks:last ember"); p == nil || p.Value != 2 || p.Max != 2 {
		t.Fatalf("counter %+v", p)
	}
	paths := map[string]bool{}
	for _, x := range ch {
		paths[x.Path] = true
	}
	for _, p := range []string{"live.pools.tricks:last ember", "build.lists.knacks[0]", "build.lists.tricks[0]"} {
		if !paths[p] {
			t.Errorf("no change at %s in %+v", p, ch)
		}
	}
	// The entry's own values were copied, not shared.
	edited := c.Clone()
	edited.Build.Lists["knacks"][0]["name"] = "Ember"
	if e.Rows[0].Values["name"] != "Last Ember" {
		t.Fatal("the pick shares its values with the catalog")
	}
	// Reverting the pick takes the rows back off, except a row the player edited since.
	Revert(edited, ch)
	if len(edited.Build.Lists["knacks"]) != 1 || len(edited.Build.Lists["tricks"]) != 0 {
		t.Fatalf("reverted after an edit: %+v", edited.Build.Lists)
	}
	Revert(c, ch)
	if len(c.Build.Lists["knacks"]) != 0 || len(c.Build.Lists["tricks"]) != 0 || c.Live.Pools["tricks:last ember"] != (PoolValue{}) {
		t.Fatalf("reverted: %+v", c.Build.Lists)
	}
}

func TestPickKeepsAnExistingCounter(t *testing.T) {
	rs := useRuleset(t, emberPath)
	look := inline(rs)
	c := NewCard("Ash", rs.ID, rs.Version, rs.Sheet.Version)
	c.Build.Abilities = map[string]float64{"heart": 2}
	pickAll(t, rs, c, "knacks", "last-ember")
	c.Live.Pools = map[string]PoolValue{"tricks:last ember": {Value: 0}}
	e, _ := look.Entry("knacks", "last-ember")
	if out, _ := Pick(rs, c, "knacks", e, look); !out.OK() {
		t.Fatal(out)
	}
	if c.Live.Pools["tricks:last ember"] != (PoolValue{Value: 0}) {
		t.Fatalf("picking again refilled a counter the card already had: %v", c.Live.Pools)
	}
}

func TestPickRefusals(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	look := inline(rs)
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	// features holds at most 3 rows.
	pickAll(t, rs, c, "features", "tough", "channel")
	e, _ := look.Entry("features", "last-ember")
	if out, ch := Pick(rs, c, "features", e, look); !out.OK() || len(ch) == 0 {
		t.Fatalf("third feature: %+v", out)
	}
	before := c.Clone()
	out, ch := Pick(rs, c, "features", e, look)
	if out.Reason != refusal.NotAllowed || len(ch) != 0 || !c.Equal(before) {
		t.Fatalf("fourth feature: %+v %v", out, ch)
	}
	er := useRuleset(t, emberPath)
	moth, _ := inline(er).Entry("road_trouble", "cinder-moth")
	if out, _ := Pick(er, NewCard("Ash", er.ID, 1, 1), "road_trouble", moth, inline(er)); out.Reason != refusal.UnknownEntry {
		t.Fatalf("a creature: %+v", out)
	}
	if out, _ := Pick(rs, c, "features", (*ruleset.Entry)(nil), look); out.Reason != refusal.UnknownEntry {
		t.Fatalf("no entry: %+v", out)
	}
}
