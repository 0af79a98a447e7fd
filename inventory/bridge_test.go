package inventory

import (
	"encoding/json"
	"os"
	"testing"

	"sheetkeeper/ruleset"
)

type doc = map[string]any

// emberWithItems is the reference ember-roads ruleset given an items block and an item
// catalog, as the ruleset's own tests give it.
func emberWithItems(t *testing.T) *ruleset.Loaded {
	t.Helper()
	data, err := os.ReadFile("../../shared/reference/marinara/ember-roads.json")
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	d["items"] = doc{
		"categories": []any{doc{"id": "gear", "label": "Gear"}, doc{"id": "tonic", "label": "Tonic"}},
		"rarities":   []any{doc{"id": "common", "label": "Common"}, doc{"id": "rare", "label": "Rare"}},
		"tags":       []any{doc{"id": "glass", "label": "Glass"}},
		"stats": []any{
			doc{"id": "weight", "label": "Weight", "type": "number", "min": 0, "max": 50},
			doc{"id": "make", "label": "Make", "type": "enum", "values": []any{"road", "city"}},
		},
		"slots":      []any{doc{"id": "hand", "label": "Hand", "count": 2}},
		"binding":    doc{"label": "Bound", "max": doc{"const": 2}},
		"carry":      doc{"stat": "weight", "encumberedAbove": doc{"const": 20}},
		"currencies": []any{doc{"id": "scrip", "label": "Scrip", "perWeight": 50, "units": []any{doc{"id": "bit", "label": "Bit", "value": 1}, doc{"id": "chit", "label": "Chit", "value": 10}}}},
	}
	d["catalogs"] = append(d["catalogs"].([]any), doc{"id": "kit", "label": "Kit", "holds": "items", "entries": []any{
		doc{"id": "ash-tonic", "label": "Ash Tonic", "summary": "Bitter; wakes the dead tired.", "item": doc{
			"category": "tonic", "rarity": "common", "tags": []any{"glass"},
			"stats": doc{"weight": 1, "make": "road"}, "stack": 5, "cost": doc{"amount": 3, "unit": "chit"},
		}},
		doc{"id": "grey-glove", "label": "Grey Glove", "item": doc{
			"category": "gear", "rarity": "rare", "slots": doc{"hand": 1}, "binds": doc{"cursed": true},
			"stats": doc{"weight": 2}, "cost": doc{"amount": 7, "unit": "bit"},
		}},
	}})
	out, _ := json.Marshal(d)
	l, err := ruleset.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestFromRuleset(t *testing.T) {
	l := emberWithItems(t)
	s, ps := FromRuleset(l.Ruleset, l.Entries)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if len(s.Templates) != 2 || s.TemplateByID("tonic") == nil || s.WeightUnit(2) != "lb" {
		t.Fatalf("templates %v, unit %q", s.Templates, s.WeightUnit(2))
	}
	tonic := s.CatalogItem("kit/ash-tonic")
	if tonic == nil || tonic.Cost != 30 || tonic.Weight != 1 || tonic.Fields["make"] != "road" || tonic.Fields["rarity"] != "common" || tonic.Description == "" {
		t.Fatalf("tonic: %+v", tonic)
	}
	m := s.Money()
	if m.Coins[0].Key != "chit" || m.Format(35) != "3.5 chit" {
		t.Errorf("coins largest first, shown in the largest: %v %q", m.Coins, m.Format(35))
	}
	c, _ := s.Campaign(nil)
	glove := c.NewEntry("g", s.CatalogItem("kit/grey-glove"), 1)
	if p, ok := c.SlotFor(glove); !ok || p.Slot.Key != "hand" || p.Size != 1 {
		t.Errorf("the glove's slot: %+v", p)
	}
	if !c.Equippable(glove) || c.Equippable(c.NewEntry("t", tonic, 1)) {
		t.Error("only an item that takes a slot equips")
	}
	if _, err := c.SetState(nil, glove, StateChange{Key: BoundState, On: true}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetState(nil, glove, StateChange{Key: BoundState, On: false}, nil); err == nil {
		t.Error("a cursed item's binding only the GM can end")
	}
	if n, _ := c.Limit(c.State(BoundState), nil); n != 2 {
		t.Errorf("binding.max: %d", n)
	}
	if _, err := c.SetState(nil, c.NewEntry("t", tonic, 1), StateChange{Key: BoundState, On: true}, nil); err == nil {
		t.Error("a tonic does not bind")
	}
}

// A ruleset item's charges are the inventory's, counted down by a use; a maximum read
// off the sheet is none the inventory counts.
func TestBridgeCharges(t *testing.T) {
	kit := doc{"id": "kit", "label": "Kit", "holds": "items", "entries": []any{
		doc{"id": "wand", "label": "Spark Wand", "item": doc{"category": "gear", "stack": 1, "charges": doc{"max": 3},
			"use": doc{"kind": "buff", "charges": 1, "free": true}}},
		doc{"id": "rope", "label": "Rope", "item": doc{"category": "gear"}},
	}}
	c := bridged(t, doc{"categories": []any{doc{"id": "gear", "label": "Gear"}}}, kit)
	wand := c.NewEntry("w", c.System.CatalogItem("kit/wand"), 1)
	if c.MaxCharges(wand) != 3 || wand.Charges != 3 {
		t.Fatalf("wand charges %d/%d", wand.Charges, c.MaxCharges(wand))
	}
	if err := c.UseCharges(wand, 2); err != nil || wand.Charges != 1 {
		t.Fatalf("used: %v, %d left", err, wand.Charges)
	}
	if c.MaxCharges(c.NewEntry("r", c.System.CatalogItem("kit/rope"), 1)) != 0 {
		t.Error("rope has no charges")
	}
}

// The weight unit is the carry stat's unit, never the quantity's name.
func TestBridgeWeightUnit(t *testing.T) {
	ex := "2 kg"
	for _, tc := range []struct {
		stat ruleset.ItemStatDecl
		want string
	}{
		{ruleset.ItemStatDecl{ID: "w", Label: "Weight"}, ""},
		{ruleset.ItemStatDecl{ID: "w", Label: "Weight (lb)"}, "lb"},
		{ruleset.ItemStatDecl{ID: "w", Label: "Weight", Example: &ex}, "kg"},
		{ruleset.ItemStatDecl{ID: "w", Label: "Bulk"}, "bulk"},
	} {
		if got := weightUnit([]ruleset.ItemStatDecl{tc.stat}, "w"); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.stat, got, tc.want)
		}
	}
}

// bridged is a campaign on ember-roads with the given items block and item catalog.
func bridged(t *testing.T, items, catalog doc) *Campaign {
	t.Helper()
	data, err := os.ReadFile("../../shared/reference/marinara/ember-roads.json")
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	d["items"] = items
	d["catalogs"] = append(d["catalogs"].([]any), catalog)
	out, _ := json.Marshal(d)
	l, err := ruleset.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, ps := FromRuleset(l.Ruleset, l.Entries)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, ps := s.Campaign(nil)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	return c
}

func TestFromRulesetWithoutItems(t *testing.T) {
	if s, ps := FromRuleset(&ruleset.Ruleset{}, nil); s != nil || ps != nil {
		t.Errorf("got %v %v", s, ps)
	}
}
