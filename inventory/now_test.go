package inventory

import (
	"fmt"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/strictjson"
)

func campaign(t testing.TB, own ...State) *Campaign {
	t.Helper()
	c, ps := lantern(t).Campaign(own)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	return c
}

func entry(t testing.TB, c *Campaign, id string) *Entry {
	t.Helper()
	it := c.System.CatalogItem(id)
	if it == nil {
		t.Fatalf("no catalog item %s", id)
	}
	return &Entry{UID: "u-" + id, Item: it, Qty: 1}
}

// TestCursedItem is the seed's example: a plain ring, identified by the GM, is a Ring of
// Protection worth 350,000; cursed, it weighs 10, has charges, and locks Attuned so only
// the GM can end the attunement.
func TestCursedItem(t *testing.T) {
	c := campaign(t)
	ring := entry(t, c, "lr-ring")
	if _, err := c.SetState(nil, ring, StateChange{Key: "attuned", On: true}, nil); err != nil {
		t.Fatalf("attuning the ring: %v", err)
	}
	if now := c.Now(ring); now.Name != "Plain ring" || now.Cost != 20 || now.Has("charges") {
		t.Fatalf("before the GM: %+v", now)
	}
	for _, k := range []string{"identified", "cursed"} {
		if _, err := c.SetState(nil, ring, StateChange{Key: k, On: true, GM: true}, nil); err != nil {
			t.Fatalf("the GM sets %s: %v", k, err)
		}
	}
	now := c.Now(ring)
	if now.Name != "Ring of Protection" || now.Cost != 350000 || now.Weight != 10 || now.Description != "A ward against blows." {
		t.Fatalf("identified and cursed: %+v", now)
	}
	if !now.Has("charges") {
		t.Error("the cursed layer turns charges on")
	}
	if v, _ := now.Field("maxCharges"); v != 3.0 {
		t.Errorf("maxCharges = %v, want 3", v)
	}
	if v, _ := now.Field("rarity"); v != "rare" {
		t.Errorf("a field no layer changes keeps the item's: %v", v)
	}
	_, err := c.SetState(nil, ring, StateChange{Key: "attuned", On: false}, nil)
	if refusal.Of(err) != refusal.Locked || !ring.On("attuned") {
		t.Fatalf("the player ends a locked attunement: %v", err)
	}
	if _, err := c.SetState(nil, ring, StateChange{Key: "attuned", On: false, GM: true}, nil); err != nil || ring.On("attuned") {
		t.Fatalf("the GM ends it: %v", err)
	}
	if _, err := c.SetState(nil, ring, StateChange{Key: "attuned", GM: true, Clear: true}, nil); err != nil || !ring.On("attuned") {
		t.Fatalf("clearing the GM's override gives back the player's choice (on): %v", err)
	}
}

// TestLayersStackInStateOrder: two on states' layers that change the same field — the
// one later in the system's state order wins, whatever order they were switched on in.
func TestLayersStackInStateOrder(t *testing.T) {
	c := campaign(t)
	name := func(s string) *string { return &s }
	it := &Item{ID: "x", Type: "lr-trinket", Name: "Stone", Layers: map[string]*Layer{
		"cursed":     {Name: name("Cursed stone")},
		"identified": {Name: name("Moonstone")},
	}}
	e := &Entry{Item: it, GM: map[string]bool{"cursed": true, "identified": true}}
	if got := c.Now(e).Name; got != "Cursed stone" {
		t.Errorf("got %q, want the later state's (cursed) name", got)
	}
	e.GM["cursed"] = false
	if got := c.Now(e).Name; got != "Moonstone" {
		t.Errorf("a state overridden off adds no layer: got %q", got)
	}
}

func TestFeaturesAndDefaults(t *testing.T) {
	c := campaign(t)
	sword := c.Now(entry(t, c, "lr-sword"))
	if !sword.Has("weapon") || !sword.Has("equippable") || sword.Has("stacks") || sword.Has("holds") {
		t.Errorf("sword's features: weapon %v equippable %v stacks %v holds %v", sword.Has("weapon"), sword.Has("equippable"), sword.Has("stacks"), sword.Has("holds"))
	}
	if skin := c.Now(entry(t, c, "lr-skin")); !skin.Has("liquid") || !skin.Has("stacks") {
		t.Error("the waterskin turns liquid on itself; stacks is on unless something says false")
	}
	off := &Item{ID: "y", Type: "lr-weapon", Name: "Stick", Features: map[string]bool{"weapon": false, "equippable": false}}
	stick := c.Now(&Entry{Item: off})
	if !stick.Has("weapon") || stick.Has("equippable") {
		t.Error("a main feature is always on; a true one the item can turn off")
	}
	if v, _ := stick.Field("hands"); v != "1" {
		t.Errorf("hands defaults from the template: %v", v)
	}
}

func TestStateRules(t *testing.T) {
	c := campaign(t)
	sword, staff := entry(t, c, "lr-sword"), entry(t, c, "lr-staff")
	if _, err := c.SetState(nil, sword, StateChange{Key: "attuned", On: true}, nil); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("attuned requires attunement, which a sword has not: %v", err)
	}
	if _, err := c.SetState(nil, sword, StateChange{Key: "twoHanded", On: true}, nil); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("two-handed requires a Versatile property: %v", err)
	}
	if _, err := c.SetState(nil, staff, StateChange{Key: "twoHanded", On: true}, nil); err != nil || !staff.On("twoHanded") {
		t.Errorf("the staff is Versatile (1d8): %v", err)
	}
	if _, err := c.SetState(nil, staff, StateChange{Key: "identified", On: true}, nil); refusal.Of(err) != refusal.NotGM {
		t.Errorf("identified is the GM's: %v", err)
	}
	if _, err := c.SetState(nil, staff, StateChange{Key: "lit", On: true}, nil); refusal.Of(err) != refusal.UnknownState {
		t.Errorf("an unknown state: %v", err)
	}
}

// TestStateLimits: attuned warns past its limit (the character's attuneSlots, else 3);
// a campaign's own blocking state refuses a player past it, never the GM.
func TestStateLimits(t *testing.T) {
	one := 1.0
	c := campaign(t, State{Key: "blessed", Label: "Blessed", Who: "player", Limit: &Limit{Default: &one, Mode: "block", Text: "Only {limit} blessed item"}})
	var inv []*Entry
	for i := 0; i < 4; i++ {
		e := entry(t, c, "lr-ring")
		e.UID = fmt.Sprint(i)
		inv = append(inv, e)
	}
	for i, e := range inv {
		warn, err := c.SetState(inv, e, StateChange{Key: "attuned", On: true}, nil)
		if err != nil || (i < 3) != (warn == "") {
			t.Fatalf("attuning ring %d: warning %q, %v", i+1, warn, err)
		}
		if i == 3 && warn != "You can attune to at most 3 items" {
			t.Errorf("warning %q", warn)
		}
	}
	slots := func(name string) (float64, bool) { return 5, name == "attuneSlots" }
	if n, _ := c.Limit(c.State("attuned"), slots); n != 5 {
		t.Errorf("the character's Local value sets the limit: %d", n)
	}
	if _, err := c.SetState(inv, inv[0], StateChange{Key: "blessed", On: true}, nil); err != nil {
		t.Fatal(err)
	}
	_, err := c.SetState(inv, inv[1], StateChange{Key: "blessed", On: true}, nil)
	if refusal.Of(err) != refusal.Limit || inv[1].On("blessed") {
		t.Errorf("a second blessing is blocked: %v", err)
	}
	if warn, err := c.SetState(inv, inv[1], StateChange{Key: "blessed", On: true, GM: true}, nil); err != nil || warn != "Only 1 blessed item" {
		t.Errorf("the GM overrides a block, warned: %q %v", warn, err)
	}
}

func TestCampaignStatesRefused(t *testing.T) {
	s := lantern(t)
	_, ps := s.Campaign([]State{{Key: "cursed", Label: "Cursed again"}, {Key: "lit", Label: "Lit", Requires: "fire"}})
	if !has(ps, "states[0].key", "cannot replace") || !has(ps, "states[1].requires", `unknown feature "fire"`) {
		t.Fatalf("got %v", ps)
	}
	if k, _ := strictjson.KindOf(ps); k != strictjson.Malformed {
		t.Errorf("kind %v", k)
	}
}

// BenchmarkItemAsNow200 works out the item as it is now for a 200-item inventory (the
// issue asks at most 100 µs), a third of it with states on.
func BenchmarkItemAsNow200(b *testing.B) {
	c := campaign(b)
	ids := []string{"lr-ring", "lr-sword", "lr-staff", "lr-mail", "lr-sack", "lr-skin"}
	inv := make([]*Entry, 200)
	for i := range inv {
		e := entry(b, c, ids[i%len(ids)])
		if i%3 == 0 {
			e.Own = map[string]bool{"attuned": true}
			e.GM = map[string]bool{"identified": true, "cursed": i%2 == 0}
		}
		inv[i] = e
	}
	b.ReportAllocs()
	for b.Loop() {
		var w float64
		var cost int64
		for _, e := range inv {
			now := c.Now(e)
			w += now.Weight
			cost += now.Cost
			if now.Has("charges") {
				cost++
			}
		}
		if w == 0 || cost == 0 {
			b.Fatal("nothing summed")
		}
	}
}

// TestTemplateLayers: a template's layer is what its items become in a state, unless an
// item has a layer of its own for it.
func TestTemplateLayers(t *testing.T) {
	s, ps := Parse(mutate(t, func(m map[string]any) {
		obj(m, "templates", 5)["layers"] = map[string]any{"cursed": map[string]any{"name": "Dark trinket", "weight": 3}}
	}))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	curio := &Entry{Item: s.CatalogItem("lr-curio-1"), GM: map[string]bool{"cursed": true}}
	if now := c.Now(curio); now.Name != "Dark trinket" || now.Weight != 3 {
		t.Errorf("the template's layer: %+v", now)
	}
	ring := &Entry{Item: s.CatalogItem("lr-ring"), GM: map[string]bool{"cursed": true}}
	if now := c.Now(ring); now.Name != "Plain ring" || now.Weight != 10 {
		t.Errorf("the item's own layer wins: %+v", now)
	}
	_, ps = Parse(mutate(t, func(m map[string]any) {
		obj(m, "templates", 5)["layers"] = map[string]any{"cursed": map[string]any{"sharpness": 3}}
	}))
	if !has(ps, "templates[5] (lr-trinket).layers.cursed.sharpness", "unknown field") {
		t.Errorf("a template's layer changes only its items' fields: %v", ps)
	}
}

// TestManyLayers: more on layers than a Current holds inline still stack in order.
func TestManyLayers(t *testing.T) {
	c := campaign(t, State{Key: "wet", Label: "Wet"}, State{Key: "lit", Label: "Lit"})
	layers := map[string]*Layer{}
	on := map[string]bool{}
	for i, st := range c.States {
		w := float64(i + 1)
		layers[st.Key] = &Layer{Weight: &w, Fields: map[string]any{st.Key: true}}
		on[st.Key] = true
	}
	e := &Entry{Item: &Item{ID: "x", Type: "lr-gear", Name: "X", Layers: layers}, Own: on}
	now := c.Now(e)
	if now.Weight != float64(len(c.States)) {
		t.Errorf("weight %v, want the last state's", now.Weight)
	}
	if v, _ := now.Field("wet"); v != true {
		t.Error("a spilled layer's field is read")
	}
	if v, _ := now.Field("attuned"); v != true {
		t.Error("an inline layer's field is read")
	}
}
