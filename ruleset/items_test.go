package ruleset

import (
	"sheetkeeper/ruleset/rules"
	"slices"
	"strings"
	"testing"
)

// withItems gives ember-roads an items block and an inline item catalog.
func withItems(d doc) {
	d["items"] = doc{
		"categories": []any{doc{"id": "gear", "label": "Gear"}, doc{"id": "tonic", "label": "Tonic"}},
		"rarities":   []any{doc{"id": "common", "label": "Common"}},
		"tags":       []any{doc{"id": "glass", "label": "Glass"}},
		"stats": []any{
			doc{"id": "weight", "label": "Weight", "type": "number", "min": 0, "max": 50},
			doc{"id": "make", "label": "Make", "type": "enum", "values": []any{"road", "city"}},
		},
		"slots":      []any{doc{"id": "hand", "label": "Hand", "count": 2}},
		"carry":      doc{"stat": "weight", "encumberedAbove": doc{"const": 20}},
		"currencies": []any{doc{"id": "scrip", "label": "Scrip", "units": []any{doc{"id": "bit", "label": "Bit", "value": 1}, doc{"id": "chit", "label": "Chit", "value": 10}}}},
		"lootTables": []any{doc{"id": "pockets", "label": "Pockets", "entries": []any{doc{"item": "kit/ash-tonic"}, doc{"coins": "bit", "count": "1d6"}}}},
	}
	cats := d["catalogs"].([]any)
	d["catalogs"] = append(cats, doc{"id": "kit", "label": "Kit", "holds": "items", "entries": []any{
		doc{"id": "ash-tonic", "label": "Ash Tonic", "item": doc{
			"category": "tonic", "rarity": "common", "tags": []any{"glass"},
			"stats": doc{"weight": 1, "make": "road"}, "stack": 5,
			"cost": doc{"amount": 3, "unit": "chit"},
		}},
	}})
}

func TestItemsRulesReportExactProblems(t *testing.T) {
	const tonic = "catalogs[2].entries[0] (kit/ash-tonic)"
	cases := []struct {
		name string
		edit func(d doc)
		want string
	}{
		{"clean", func(doc) {}, ""},
		{"category", func(d doc) { obj(d, "catalogs", 2, "entries", 0, "item")["category"] = "potion" },
			tonic + `.item.category: unknown item category "potion"`},
		{"stat value bounds", func(d doc) { obj(d, "catalogs", 2, "entries", 0, "item", "stats")["weight"] = 60 },
			tonic + `.item.stats.weight: item stat "weight" must be between 0 and 50`},
		{"stat enum", func(d doc) { obj(d, "catalogs", 2, "entries", 0, "item", "stats")["make"] = "sea" },
			tonic + `.item.stats.make: item stat "make" takes one of: road, city`},
		{"unknown stat", func(d doc) { obj(d, "catalogs", 2, "entries", 0, "item", "stats")["heft"] = 1 },
			tonic + `.item.stats.heft: unknown item stat "heft"`},
		{"slot count", func(d doc) { obj(d, "catalogs", 2, "entries", 0, "item")["slots"] = doc{"hand": 3} },
			tonic + `.item.slots.hand: a character has 2 of slot "hand"`},
		{"cost unit", func(d doc) { obj(d, "catalogs", 2, "entries", 0, "item", "cost")["unit"] = "gp" },
			tonic + `.item.cost.unit: unknown currency unit "gp"`},
		{"mechanics on an item", func(d doc) { obj(d, "catalogs", 2, "entries", 0)["mechanics"] = doc{"kind": "heal"} },
			tonic + `.mechanics: an item says what it does in its item block, so it carries no mechanics`},
		{"item catalog feeds nothing", func(d doc) { obj(d, "catalogs", 2)["feeds"] = []any{"gear"} },
			`catalogs[2] (kit).feeds: a catalog of items writes no rows, so it feeds no list`},
		{"service has a cost", func(d doc) {
			it := obj(d, "catalogs", 2, "entries", 0, "item")
			it["service"] = true
			delete(it, "cost")
		}, tonic + `.item.service: a service is bought, so it has a cost`},
		{"charges need a use", func(d doc) {
			obj(d, "catalogs", 2, "entries", 0, "item")["charges"] = doc{"max": 3}
		}, tonic + `.item.charges: an item's charges are spent by its use, so its use spends some`},
		{"smallest coin worth 1", func(d doc) { obj(d, "items", "currencies", 0, "units", 0)["value"] = 2 },
			`items.currencies[0] (scrip).units: the smallest unit of "scrip" is worth 1`},
		{"carry stat is a number", func(d doc) { obj(d, "items", "carry")["stat"] = "make" },
			`items.carry.stat: item stat "make" is not a number`},
		{"loot names an item", func(d doc) { obj(d, "items", "lootTables", 0, "entries", 0)["item"] = "kit/no-such" },
			`items.lootTables[0] (pockets).entries[0].item: no item "no-such" in catalog "kit"`},
		{"loot line one of", func(d doc) { obj(d, "items", "lootTables", 0, "entries", 0)["coins"] = "bit" },
			`items.lootTables[0] (pockets).entries[0]: a loot line names an item, a filter or coins, one of them`},
		{"stat longtext", func(d doc) { obj(d, "items", "stats", 0)["type"] = "longtext" },
			`items.stats[0] (weight).type: an item stat is number, text, boolean, enum or dice`},
		{"binding reads no live value", func(d doc) { obj(d, "items")["binding"] = doc{"label": "Bound", "max": doc{"livePool": "grit"}} },
			`items.binding.max.livePool: this value is worked out without the live state, so it cannot read a live pool`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := loadDoc(t, "ember-roads.json")
			withItems(d)
			tc.edit(d)
			rs, ps := Parse(mustJSON(t, d))
			got := problemLines(ps.Err())
			switch tc.want {
			case "":
				if len(ps) > 0 {
					t.Fatalf("clean fixture refused:\n%v", ps)
				}
				if !slices.ContainsFunc(rs.Features(), func(f rules.Feature) bool { return f.Minor == 49 }) {
					t.Errorf("item catalogs (1.49) not recorded: %+v", rs.Features())
				}
			case "*":
				if len(ps) == 0 {
					t.Fatal("no problem reported")
				}
			default:
				if !slices.Contains(got, tc.want) {
					t.Errorf("want %q among:\n%s", tc.want, strings.Join(got, "\n"))
				}
			}
		})
	}
}
