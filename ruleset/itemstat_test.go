package ruleset

import (
	"slices"
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

// Items change in play, so itemStat is held to a live read's rule: a pool's maximum,
// binding.max, the carry numbers and a scaled column cannot read it, directly or through
// a derived value, while a derived value itself may. Each refusal names its path and is a
// Malformed problem.
func TestItemStatReadsNothingWorkedOutWithoutTheLiveState(t *testing.T) {
	worn := doc{"itemStat": doc{"stat": "weight", "from": "worn", "pick": "sum"}}
	const cannot = "this value is worked out without the live state, so it cannot read the items a character holds"
	cases := []struct {
		name string
		edit func(d doc)
		want string
	}{
		{"a derived value may", func(d doc) {
			g := obj(d, "sheet", "derived", 1)
			g["of"] = append(g["of"].([]any), worn)
		}, ""},
		{"a pool's max", func(d doc) { obj(d, "sheet", "live", "pools", 1)["max"] = worn },
			"sheet.live.pools[1] (luck).max.itemStat: " + cannot},
		{"a pool's max through a derived value", func(d doc) {
			g := obj(d, "sheet", "derived", 0)
			g["of"] = append(g["of"].([]any), worn)
		}, `sheet.live.pools[0] (grit).max.derived: derived value "grit_max" reads the live state, which this value cannot`},
		{"binding.max", func(d doc) { obj(d, "items")["binding"] = doc{"label": "Bound", "max": worn} },
			"items.binding.max.itemStat: " + cannot},
		{"carry.encumberedAbove", func(d doc) { obj(d, "items", "carry")["encumberedAbove"] = worn },
			"items.carry.encumberedAbove.itemStat: " + cannot},
		{"a scaled column", func(d doc) { obj(d, append(lastEmber, "rows", 1, "scaled", "uses")...)["from"] = worn },
			"catalogs[0].entries[3] (knacks/last-ember).rows[1].scaled.uses.from.itemStat: " + cannot},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := loadDoc(t, "ember-roads.json")
			withItems(d)
			tc.edit(d)
			_, ps := Parse(mustJSON(t, d))
			if tc.want == "" {
				if len(ps) > 0 {
					t.Fatalf("refused:\n%v", ps)
				}
				return
			}
			got := problemLines(ps.Err())
			if !slices.Contains(got, tc.want) {
				t.Fatalf("want %q among:\n%s", tc.want, strings.Join(got, "\n"))
			}
			if k, ok := strictjson.KindOf(ps.Err()); !ok || k != strictjson.Malformed {
				t.Errorf("kind %v %v, want %v", k, ok, strictjson.Malformed)
			}
		})
	}
}

// The proficiency bonus is worked out from the sheet alone, so it cannot read items
// either.
func TestProficiencyBonusReadsNoItems(t *testing.T) {
	d := loadCoreSmall(t)
	coreSet("resolution.proficiency.bonus", doc{"itemStat": doc{"from": "worn", "pick": "count"}})(t, d)
	_, ps := Parse(mustJSON(t, d))
	want := "resolution.proficiency.bonus.itemStat: this value is worked out without the live state, so it cannot read the items a character holds"
	if got := problemLines(ps.Err()); !slices.Contains(got, want) {
		t.Fatalf("want %q among:\n%s", want, strings.Join(got, "\n"))
	}
	if k, _ := strictjson.KindOf(ps.Err()); k != strictjson.Malformed {
		t.Errorf("kind %v", k)
	}
}
