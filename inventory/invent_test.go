package inventory

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// emberGuide is the reference ember-roads ruleset given the items block Marinara's guide
// shows for it (The items block) and an outfitter of three of its items; edit changes the
// block first.
func emberGuide(t testing.TB, edit func(items doc)) *Campaign {
	t.Helper()
	data, err := os.ReadFile("../../shared/reference/marinara/ember-roads.json")
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	items := doc{
		"categories": []any{doc{"id": "weapon", "label": "Weapon"}, doc{"id": "armor", "label": "Armor"}},
		"rarities":   []any{doc{"id": "common", "label": "Common"}, doc{"id": "storied", "label": "Storied"}},
		"tags":       []any{doc{"id": "thrown", "label": "Thrown"}, doc{"id": "two_handed", "label": "Two-handed"}},
		"stats": []any{
			doc{"id": "bulk", "label": "Bulk", "type": "number", "min": 0, "max": 10, "default": 0},
			doc{"id": "guard", "label": "Guard", "type": "number", "min": 0, "max": 4, "default": 0},
			doc{"id": "damage", "label": "Damage", "type": "dice", "example": "1d6"},
			doc{"id": "swing", "label": "Rolls with", "type": "enum", "values": []any{"brawn", "wits", "heart"}, "default": "brawn"},
			doc{"id": "cache", "label": "Hidden in", "type": "text", "maxLength": 20, "promptVisible": false},
			doc{"id": "secret", "label": "Secret", "type": "number", "min": 0, "max": 2, "promptVisible": false},
		},
		"slots":      []any{doc{"id": "body", "label": "Body", "count": 1}, doc{"id": "hands", "label": "Hands", "count": 2}},
		"binding":    doc{"label": "Bound", "max": doc{"const": 2}},
		"carry":      doc{"stat": "bulk", "encumberedAbove": doc{"const": 8}, "limit": doc{"const": 12}},
		"rarityCaps": []any{doc{"rarity": "common", "stats": doc{"guard": 1}, "bonus": 1}, doc{"rarity": "storied", "stats": doc{"guard": 3}, "bonus": 2}},
		"currencies": []any{doc{"id": "coin", "label": "Coin", "units": []any{doc{"id": "bit", "label": "bits", "value": 1}, doc{"id": "mark", "label": "marks", "value": 10}}}},
	}
	if edit != nil {
		edit(items)
	}
	d["items"] = items
	d["catalogs"] = append(d["catalogs"].([]any), doc{"id": "outfitter", "label": "Outfitter", "holds": "items", "entries": []any{
		doc{"id": "hand-axe", "label": "Hand axe", "summary": "A woodsman's axe.", "item": doc{
			"category": "weapon", "rarity": "common", "tags": []any{"thrown"},
			"stats": doc{"bulk": 1, "damage": "1d6", "swing": "brawn"}, "slots": doc{"hands": 1}, "stack": 3,
			"cost": doc{"amount": 2, "unit": "mark"},
		}},
		doc{"id": "leather-coat", "label": "Leather coat", "item": doc{
			"category": "armor", "rarity": "common", "stats": doc{"bulk": 2, "guard": 1}, "slots": doc{"body": 1},
			"worn": doc{"modifiers": []any{doc{"to": "checks", "skills": []any{"sneak"}, "flat": -1}}},
		}},
		doc{"id": "second-axe", "label": "HAND AXE", "item": doc{"category": "weapon"}},
	}})
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

func wantReason(t *testing.T, err error, want refusal.Reason) {
	t.Helper()
	if got := refusal.Of(err); got != want {
		t.Fatalf("reason %q (%v), want %q", got, err, want)
	}
}

// TestResolve: names find the ruleset's items by label in any case, the first the
// catalogs list when two share one; anything else is a plain item unless native (for the
// GM) or freeform (for a player) says no.
func TestResolve(t *testing.T) {
	c := emberGuide(t, nil)
	for _, name := range []string{"hand axe", "  Hand  Axe ", "outfitter/hand-axe"} {
		it, err := c.Resolve(name, true)
		if err != nil || it.ID != "outfitter/hand-axe" {
			t.Errorf("%q: %v %v", name, it, err)
		}
	}
	it, err := c.Resolve("Lucky pebble", true)
	if err != nil || it.ID != "" || it.Name != "Lucky pebble" || c.Now(c.NewEntry("p", it, 1)).Weight != 0 {
		t.Fatalf("a plain item: %+v %v", it, err)
	}
	if _, err := c.Resolve("Hand", true); err != nil {
		t.Errorf("a name that only starts a ruleset item's is a plain item: %v", err)
	}
	_, err = c.Resolve(" ", false)
	wantReason(t, err, refusal.Malformed)
	_, err = c.Resolve(strings.Repeat("x", maxLabelLen+1), false)
	wantReason(t, err, refusal.Malformed)

	native := emberGuide(t, func(items doc) { items["native"] = false })
	_, err = native.Resolve("Lucky pebble", true)
	wantReason(t, err, refusal.NotRulesetItem)
	if _, err := native.Resolve("Lucky pebble", false); err != nil {
		t.Errorf("native governs the GM only: %v", err)
	}
	if it, err := native.Resolve("leather coat", true); err != nil || it.ID != "outfitter/leather-coat" {
		t.Errorf("the ruleset's own items: %v %v", it, err)
	}

	refuse := emberGuide(t, func(items doc) { items["freeform"] = "refuse" })
	_, err = refuse.Resolve("Lucky pebble", false)
	wantReason(t, err, refusal.NotRulesetItem)
	if _, err := refuse.Resolve("Lucky pebble", true); err != nil {
		t.Errorf("freeform governs players only: %v", err)
	}
}

// TestResolvePackRat: a Pack Rat system's names find catalog items as FindItem does,
// and an unknown one is a player's plain item.
func TestResolvePackRat(t *testing.T) {
	c, _ := lantern(t).Campaign(nil)
	it := c.System.Catalog[0]
	if got, err := c.Resolve(strings.ToUpper(it.Name), false); err != nil || got != it {
		t.Errorf("%v %v", got, err)
	}
	if got, err := c.Resolve("Thing nobody sells", false); err != nil || got.ID != "" {
		t.Errorf("%v %v", got, err)
	}
	_, err := c.Invent(Invention{Name: "Sword of Dawn"})
	wantReason(t, err, refusal.NotAllowed)
}

// TestInvent: the GM's item in the ruleset's words, held to ranges and rarity caps, what
// like= started it from included, with every change told.
func TestInvent(t *testing.T) {
	c := emberGuide(t, nil)
	got, err := c.Invent(Invention{Name: "Storm axe", Like: "hand axe", Rarity: "Storied",
		Tags: "Thrown, glitter", Stats: "guard=9, damage=1d8, shine=3", Slots: "hands=3", Binds: "cursed", Summary: "Hums\nbefore rain."})
	if err != nil {
		t.Fatal(err)
	}
	it := got.Item
	if got.Known || it.ID != "gm/storm-axe" || it.Type != "weapon" || it.Fields["rarity"] != "storied" || it.Weight != 1 || it.Fields["damage"] != "1d8" {
		t.Fatalf("%+v", it)
	}
	if it.Fields["guard"] != 3.0 || it.Description != "Hums before rain." || it.Slot != "hands" || it.SlotSize != 2 {
		t.Errorf("held: guard %v, %q, slot %s %d", it.Fields["guard"], it.Description, it.Slot, it.SlotSize)
	}
	if tags, _ := it.Fields["tags"].([]any); len(tags) != 1 || tags[0] != "thrown" {
		t.Errorf("tags %v", it.Fields["tags"])
	}
	notes := strings.Join(got.Notes, "\n")
	for _, want := range []string{"Guard 9 is 3: a Storied item gives at most 3", "glitter", "shine", "Hands \"3\" is 2"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	e := c.NewEntry("a", it, 1)
	if _, err := c.SetState(nil, e, StateChange{Key: BoundState, On: true}, nil); err != nil {
		t.Fatal(err)
	}
	_, err = c.SetState(nil, e, StateChange{Key: BoundState, On: false}, nil)
	wantReason(t, err, refusal.Locked)

	back, ps := c.ParseItem(got.Data)
	if len(ps) > 0 || back.Name != it.Name || back.Fields["guard"] != 3.0 || len(back.Layers) != 1 {
		t.Errorf("the kept form reads back: %+v %v", back, ps)
	}
	c.Invented = append(c.Invented, it)
	if found, err := c.Resolve("storm AXE", true); err != nil || found != it {
		t.Errorf("an invented item is found by its name: %v %v", found, err)
	}
	again, err := c.Invent(Invention{Name: "Storm axe", Stats: "guard=1"})
	if err != nil || !again.Known || again.Item != it {
		t.Errorf("the same name is that item: %+v %v", again, err)
	}
}

// TestInventHeld: what the block has not is left out or made its lowest; a rarity left
// out is the lowest, so its cap holds; a stat the GM is not shown is held without a word.
func TestInventHeld(t *testing.T) {
	c := emberGuide(t, nil)
	got, err := c.Invent(Invention{Name: "Odd shield", Category: "shield", Rarity: "legendary", Stats: "guard=2.6 secret=5 cache=boot, swing=Wits"})
	if err != nil {
		t.Fatal(err)
	}
	it := got.Item
	if it.Type != "weapon" || it.Fields["rarity"] != "common" || it.Fields["guard"] != 1.0 || it.Fields["secret"] != 2.0 || it.Fields["swing"] != "wits" || it.Fields["cache"] != "boot" {
		t.Fatalf("%+v", it.Fields)
	}
	notes := strings.Join(got.Notes, "\n")
	if strings.Contains(notes, "Secret") || strings.Contains(notes, "Hidden") || !strings.Contains(notes, `"legendary" is no rarity`) || !strings.Contains(notes, `"shield" is no item category`) {
		t.Errorf("notes:\n%s", notes)
	}
	plain, err := c.Invent(Invention{Name: "Walking stick", Stats: "guard=3"})
	if err != nil || plain.Item.Fields["rarity"] != "common" || plain.Item.Fields["guard"] != 1.0 {
		t.Errorf("no rarity is the lowest, and its cap holds: %+v %v", plain, err)
	}
	_, err = c.Invent(Invention{Name: "Brass knuckles", Stats: "guard=lots"})
	wantReason(t, err, refusal.BadAmount)
	var re *refusal.Error
	if errors.As(err, &re); re.Bounds != "0..4" {
		t.Errorf("bounds %q", re.Bounds)
	}
	off := emberGuide(t, func(items doc) { items["propose"] = false })
	_, err = off.Invent(Invention{Name: "Anything"})
	wantReason(t, err, refusal.NotAllowed)
}

// TestBridgeStack: an item's stack is kept on the bridged item.
func TestBridgeStack(t *testing.T) {
	c := emberGuide(t, nil)
	if v, _ := c.System.CatalogItem("outfitter/hand-axe").Fields[stackField]; v != 3.0 {
		t.Errorf("stack %v", v)
	}
}

// TestAddStackLimit: adding past a ruleset item's stack fills the stack and starts a new
// one (the guide's `stack`).
func TestAddStackLimit(t *testing.T) {
	c := emberGuide(t, nil)
	axe := c.System.CatalogItem("outfitter/hand-axe")
	inv, _ := c.Add(nil, c.NewEntry("a", axe, 2))
	inv, got := c.Add(inv, c.NewEntry("b", axe, 2))
	if len(inv) != 2 || inv[0].Qty != 3 || inv[1].Qty != 1 || got != inv[1] {
		t.Fatalf("rows %d: %d %d", len(inv), inv[0].Qty, inv[len(inv)-1].Qty)
	}
	inv, got = c.Add(inv, c.NewEntry("c", axe, 2))
	if len(inv) != 2 || inv[1].Qty != 3 || got != inv[1] {
		t.Errorf("the second stack fills: %d rows, %d", len(inv), inv[1].Qty)
	}
}

// TestInventEffects: worn= and carried= in the GM's words, as the guide reads them, a
// bonus held to the rarity's cap, kept on the item so ItemEffects reads them back; a
// catalog item's effects are its entry's.
func TestInventEffects(t *testing.T) {
	c := emberGuide(t, nil)
	got, err := c.Invent(Invention{Name: "Creaky boots", Rarity: "common", Slots: "body",
		Worn: "+3 Sneak; disadvantage on Sway checks; Brawn +1; +1 attack roll bonus", Carried: "+1 checks"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Item.Fields["worn"] != "+1 Sneak checks; disadvantage on Sway checks; +1 Brawn" || got.Item.Fields["carried"] != "+1 checks" {
		t.Fatalf("kept as %q and %q", got.Item.Fields["worn"], got.Item.Fields["carried"])
	}
	notes := strings.Join(got.Notes, "\n")
	if !strings.Contains(notes, "+3 on Sneak is +1") || !strings.Contains(notes, `"+1 attack roll bonus" names nothing`) {
		t.Errorf("notes:\n%s", notes)
	}
	back, ps := c.ParseItem(got.Data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	worn, carried := c.ItemEffects(back)
	if worn == nil || len(worn.Modifiers) != 2 || *worn.Modifiers[0].Flat != 1 || worn.Modifiers[0].Skills[0] != "sneak" ||
		worn.Modifiers[1].Mode != "disadvantage" || worn.Modifiers[1].Skills[0] != "sway" || *worn.AbilityChanges["brawn"].Add != 1 {
		t.Fatalf("worn %+v", worn)
	}
	if carried == nil || len(carried.Modifiers) != 1 || carried.Modifiers[0].To != "checks" || carried.Modifiers[0].Skills != nil {
		t.Errorf("carried %+v", carried)
	}
	penalty, err := c.Invent(Invention{Name: "Cursed bell", Carried: "-2 Sway"})
	if err != nil || penalty.Item.Fields["carried"] != "-2 Sway checks" {
		t.Errorf("a penalty is never capped: %+v %v", penalty, err)
	}
	never, _ := c.Invent(Invention{Name: "Lucky coin", Worn: "+1 Sway"})
	if !strings.Contains(strings.Join(never.Notes, "\n"), "never worn") {
		t.Errorf("notes %v", never.Notes)
	}
	if w, cr := c.ItemEffects(c.System.CatalogItem("outfitter/hand-axe")); w != nil || cr != nil {
		t.Errorf("the axe does nothing worn: %v %v", w, cr)
	}
	if w, _ := c.ItemEffects(c.System.CatalogItem("outfitter/leather-coat")); w == nil || *w.Modifiers[0].Flat != -1 {
		t.Errorf("the coat creaks: %+v", w)
	}
	coat, err := c.Invent(Invention{Name: "Oiled coat", Like: "leather coat"})
	if err != nil || coat.Item.Fields["worn"] != "-1 Sneak checks" || coat.Item.Slot != "body" {
		t.Errorf("made like the coat, it creaks as the coat does: %+v %v", coat.Item.Fields, err)
	}
	quiet, _ := c.Invent(Invention{Name: "Quiet coat", Like: "leather coat", Worn: "+2 Sneak"})
	if quiet.Item.Fields["worn"] != "+1 Sneak checks" {
		t.Errorf("its own worn= over the coat's, capped at Common's +1: %v", quiet.Item.Fields["worn"])
	}
}

// FuzzInvent: whatever a GM writes in an add, Invent answers with an item its system
// takes (ParseItem reads the kept form back) or a refusal of the closed vocabulary, and
// never panics.
func FuzzInvent(f *testing.F) {
	f.Add("Storm axe", "hand axe", "Storied", "thrown, glitter", "guard=9, damage=1d8", "hands=3", "cursed", "+3 Sneak; Brawn +1", "fails saves", "Hums.")
	f.Add("x", "", "", "none", "guard=lots", "none", "no", "none", "-1", "")
	f.Add("=", "=", "=", ",,,", "=,=;=", "=;=", "?", "+ ; - ; +1", "advantage", "\x00")
	c := emberGuide(f, nil)
	f.Fuzz(func(t *testing.T, name, like, category, rarity, tags, stats, slots, binds, worn, carried string) {
		got, err := c.Invent(Invention{Name: name, Like: like, Category: category, Rarity: rarity, Tags: tags,
			Stats: stats, Slots: slots, Binds: binds, Worn: worn, Carried: carried})
		if err != nil {
			if !refusal.Of(err).Known() {
				t.Fatalf("not a refusal: %v", err)
			}
			return
		}
		if got.Known {
			return
		}
		if _, ps := c.ParseItem(got.Data); len(ps) > 0 {
			t.Fatalf("the kept form does not read back: %v\n%s", ps, got.Data)
		}
		c.ItemEffects(got.Item)
	})
}
