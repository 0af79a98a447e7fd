package catalog

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// arcanaV2 is the arcana fixture at version 2, with entries edited by edit (catalog id →
// entry id → the entry as a JSON object).
func arcanaV2(t *testing.T, edit func(entries map[string]map[string]map[string]any)) *ruleset.Ruleset {
	t.Helper()
	data, err := os.ReadFile(arcanaPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["version"] = 2.0
	byID := map[string]map[string]map[string]any{}
	for _, c := range doc["catalogs"].([]any) {
		cat := c.(map[string]any)
		m := map[string]map[string]any{}
		for _, e := range cat["entries"].([]any) {
			m[e.(map[string]any)["id"].(string)] = e.(map[string]any)
		}
		byID[cat["id"].(string)] = m
	}
	edit(byID)
	out, _ := json.Marshal(doc)
	rs, ps := ruleset.Parse(out)
	if len(ps) > 0 {
		t.Fatalf("v2: %v", ps)
	}
	return rs
}

// rowValues returns the values map of an entry's row i.
func rowValues(e map[string]any, i int) map[string]any {
	return e["rows"].([]any)[i].(map[string]any)["values"].(map[string]any)
}

// review renders a review as "list[i] col: card→ruleset" lines.
func review(lists []RefreshList) string {
	var b strings.Builder
	for _, l := range lists {
		for _, r := range l.Rows {
			for _, c := range r.Columns {
				card, _ := json.Marshal(c.Card)
				rules, _ := json.Marshal(c.Ruleset)
				b.WriteString(r.List + "[" + itoa(r.Index) + "] " + c.Column + ": " + string(card) + "→" + string(rules) + "\n")
			}
		}
	}
	return b.String()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestRefresh(t *testing.T) {
	v1 := useRuleset(t, arcanaPath)
	v2 := arcanaV2(t, func(e map[string]map[string]map[string]any) {
		fb := rowValues(e["spells"]["fireball"], 0)
		fb["notes"] = "A roaring burst of flame."                             // text: compared
		fb["damage"] = "9d6"                                                  // dice: compared (the row lacks it below)
		fb["level"] = 4.0                                                     // number the row holds: the player's
		fb["prepared"] = true                                                 // boolean the row lacks: offered
		fb["school"] = "evocation"                                            // unchanged enum: nothing
		rowValues(e["spells"]["magic-missile"], 0)["name"] = "Magic Missiles" // a name is text too
		ch := rowValues(e["features"]["channel"], 1)
		ch["uses"] = 5.0        // scaled: never compared
		ch["recharge"] = "long" // enum: compared
		rowValues(e["features"]["twin-marks"], 1)["recharge"] = "short"
		rowValues(e["features"]["last-ember"], 0)["text"] = "Give a friend 4 back."
		rowValues(e["features"]["tough"], 0)["text"] = "You are very hard to bring down."
	})
	c := sheet.NewCard("Mira", v1.ID, v1.Version, v1.Sheet.Version)
	pickAll(t, v1, c, "spells", "fireball", "magic-missile", "fire-bolt")
	pickAll(t, v1, c, "features", "channel", "twin-marks", "last-ember")
	fb := c.Build.Lists["spells"][0]
	delete(fb, "damage")                                 // the player cleared it: a column absent from the row is offered
	fb["notes"] = "My own words."                        // the player's text still differs from the new text: offered
	c.Build.Lists["spells"][1]["notes"] = "Three darts." // a column the entry does not set: never
	c.Build.Lists["spells"] = append(c.Build.Lists["spells"],
		sheet.Row{"name": "Fire Bolt", "level": 0.0, sheet.CatalogKey: "spells/fire-bolt"}, // picked twice: single-row entry matches both
		sheet.Row{"name": "Old Spell", sheet.CatalogKey: "spells/retired"})                 // entry gone: silently left alone
	c.Build.Lists["counters"] = c.Build.Lists["counters"][:2] // Channel Power, Left Mark: Right Mark deleted
	look2 := inline(v2)
	got := review(Refresh(v2, c, look2))
	want := strings.Join([]string{
		`spells[0] prepared: null→true`,
		`spells[0] damage: null→"9d6"`,
		`spells[0] notes: "My own words."→"A roaring burst of flame."`,
		`spells[1] name: "Magic Missile"→"Magic Missiles"`,
		`features[1] text: "Give a friend 3 back."→"Give a friend 4 back."`,
		`counters[0] recharge: "short"→"long"`,
	}, "\n") + "\n"
	if got != want {
		t.Fatalf("review:\n%s\nwant:\n%s", got, want)
	}
	// The two Twin Marks rows match by position while both are there.
	c.Build.Lists["counters"] = nil
	pickAll(t, v1, c, "features", "twin-marks")
	got = review(Refresh(v2, c, look2))
	if !strings.Contains(got, `counters[1] recharge: "long"→"short"`) || strings.Contains(got, "counters[0]") {
		t.Fatalf("twin marks by position:\n%s", got)
	}
	// Nothing changed on the card.
	if c.Build.Lists["counters"][1]["recharge"] != "long" {
		t.Fatal("the review wrote to the card")
	}
}

// A value the column would refuse is skipped: an enum value no longer offered, text beyond
// maxLength, a number out of bounds. The lookup here hands the engine entries no loader
// checked, as a stale standalone file could.
func TestRefreshSkipsRefusedValues(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	c := sheet.NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(t, rs, c, "spells", "fireball")
	delete(c.Build.Lists["spells"][0], "level")
	stale := &ruleset.Entry{ID: "fireball", Label: "Fireball", Rows: []ruleset.Row{{List: "spells", Values: map[string]any{
		"name":   "Fireball",
		"school": "illusion",
		"notes":  strings.Repeat("x", 61),
		"level":  12.0,
		"damage": "10d6",
		"bogus":  "no such column",
	}}}}
	look := entriesFunc(func(cat, id string) (*ruleset.Entry, bool) { return stale, cat == "spells" && id == "fireball" })
	got := review(Refresh(rs, c, look))
	if got != "spells[0] damage: \"8d6\"→\"10d6\"\n" {
		t.Fatalf("review:\n%s", got)
	}
}

func TestRefreshApply(t *testing.T) {
	v1 := useRuleset(t, arcanaPath)
	v2 := arcanaV2(t, func(e map[string]map[string]map[string]any) {
		rowValues(e["spells"]["fireball"], 0)["notes"] = "A roaring burst of flame."
		rowValues(e["spells"]["magic-missile"], 0)["notes"] = "Three darts of force."
		ch := rowValues(e["features"]["channel"], 1)
		ch["recharge"] = "long"
	})
	c := sheet.NewCard("Mira", v1.ID, v1.Version, v1.Sheet.Version)
	c.Build.Fields = map[string]any{"level": 6.0}
	pickAll(t, v1, c, "spells", "fireball", "magic-missile")
	pickAll(t, v1, c, "features", "channel")
	c.Build.Lists["spells"][0]["level"] = 5.0 // the player's number
	c.Build.Fields["level"] = 18.0            // a build edit since the last rescale
	look2 := inline(v2)
	before := c.Clone()
	out, ch := RefreshApply(v2, c, look2, []RefreshSelection{{List: "spells", Index: 0}, {List: "counters", Index: 0},
		{List: "spells", Index: 7}})
	if !out.OK() || out.Now != "2 rows updated" {
		t.Fatalf("apply: %+v", out)
	}
	fb := c.Build.Lists["spells"][0]
	if fb["notes"] != "A roaring burst of flame." || fb["level"] != 5.0 || fb.Marker() != "spells/fireball" || fb["damage"] != "8d6" {
		t.Fatalf("fireball row %v", fb)
	}
	if c.Build.Lists["spells"][1]["notes"] != nil {
		t.Fatalf("an unticked row changed: %v", c.Build.Lists["spells"][1])
	}
	want := []sheet.Change{
		{Card: "Mira", Path: "build.lists.counters[0].recharge", Before: "short", After: "long"},
		{Card: "Mira", Path: "build.lists.counters[0].uses", Before: 2.0, After: 3.0},
		{Card: "Mira", Path: "build.lists.spells[0].notes", Before: "A burst of flame.", After: "A roaring burst of flame."},
	}
	if len(ch) != len(want) {
		t.Fatalf("changes %+v", ch)
	}
	for i := range want {
		if ch[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, ch[i], want[i])
		}
	}
	if rest := review(Refresh(v2, c, look2)); rest != "spells[1] notes: null→\"Three darts of force.\"\n" {
		t.Fatalf("left to review:\n%s", rest)
	}
	sheet.Revert(c, ch)
	if !c.Equal(before) {
		t.Fatal("revert did not restore the card")
	}
	if out, ch := RefreshApply(v2, c, look2, nil); out.Now != "0 rows updated" || len(ch) != 0 || !c.Equal(before) {
		t.Fatalf("an empty selection: %+v %v", out, ch)
	}
}

func BenchmarkRefresh(b *testing.B) {
	rs := useRuleset(b, arcanaPath)
	look := inline(rs)
	c := sheet.NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(b, rs, c, "spells", "fire-bolt", "magic-missile", "hold-person", "fireball", "mass-sleep", "banish")
	pickAll(b, rs, c, "features", "channel", "twin-marks", "last-ember")
	for _, r := range c.Build.Lists["spells"] {
		r["notes"] = "edited"
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(Refresh(rs, c, look)) == 0 {
			b.Fatal("nothing to review")
		}
	}
}

// entriesFunc is a test's own entry lookup as a sheet.Entries.
type entriesFunc func(catalogID, entryID string) (*ruleset.Entry, bool)

func (f entriesFunc) Entry(catalogID, entryID string) (*ruleset.Entry, bool) {
	return f(catalogID, entryID)
}
