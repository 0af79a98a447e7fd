package inventory

import (
	"testing"

	"sheetkeeper/refusal"
)

func equipped(t *testing.T, c *Campaign, inv []*Entry, e *Entry) {
	t.Helper()
	full, err := c.Equip(inv, e)
	if err != nil || full != nil || !e.Equipped {
		t.Fatalf("equipping %s: full %+v, %v", e.Item.ID, full, err)
	}
}

// TestFullHandsSaysWhatToTakeOut is the seed's: with a sword and a shield in hand, a
// two-handed maul does not fit; the answer names both as what could come out.
func TestFullHandsSaysWhatToTakeOut(t *testing.T) {
	c := campaign(t)
	sword, shield, maul := entry(t, c, "lr-sword"), entry(t, c, "lr-shield"), entry(t, c, "lr-maul")
	inv := []*Entry{sword, shield, maul}
	equipped(t, c, inv, sword)
	equipped(t, c, inv, shield)
	full, err := c.Equip(inv, maul)
	if err != nil || full == nil {
		t.Fatalf("the maul fits full hands? %+v %v", full, err)
	}
	if full.Slot.Key != "hands" || full.Need != 2 || full.Free != 0 || len(full.Holders) != 2 || full.Holders[0] != sword || full.Holders[1] != shield {
		t.Fatalf("got %+v", full)
	}
	if maul.Equipped {
		t.Error("a refused equip changes nothing")
	}
}

// TestTwoHandedTakesBothHands: a Two-handed weapon takes both hands; a Versatile one
// does while its Two-handed state is on, and the answer offers switching that off.
func TestTwoHandedTakesBothHands(t *testing.T) {
	c := campaign(t)
	maul, sword := entry(t, c, "lr-maul"), entry(t, c, "lr-sword")
	if p, _ := c.SlotFor(maul); p.Slot.Key != "hands" || p.Size != 2 {
		t.Fatalf("maul: %+v", p)
	}
	if p, _ := c.SlotFor(sword); p.Size != 1 {
		t.Fatalf("sword: %+v", p)
	}
	inv := []*Entry{maul, sword}
	equipped(t, c, inv, maul)
	if full, _ := c.Equip(inv, sword); full == nil || full.Free != 0 || len(full.Holders) != 1 || len(full.Shrink) != 0 {
		t.Fatalf("a sword beside a maul: %+v", full)
	}

	c = campaign(t)
	staff := entry(t, c, "lr-staff")
	sword = entry(t, c, "lr-sword")
	inv = []*Entry{staff, sword}
	if _, err := c.SetState(inv, staff, StateChange{Key: "twoHanded", On: true}, nil); err != nil {
		t.Fatal(err)
	}
	if p, _ := c.SlotFor(staff); p.Size != 2 {
		t.Fatalf("a Versatile staff held two-handed: %+v", p)
	}
	equipped(t, c, inv, staff)
	full, _ := c.Equip(inv, sword)
	if full == nil || len(full.Shrink) != 1 || full.Shrink[0].Entry != staff || full.Shrink[0].State != "twoHanded" {
		t.Fatalf("the answer should offer switching Two-handed off: %+v", full)
	}
	staff.Own["twoHanded"] = false
	equipped(t, c, inv, sword)
	if !c.Unequip(sword) || c.Unequip(sword) || sword.Equipped {
		t.Error("Unequip says whether it was equipped")
	}
}

func TestSlotsOtherwise(t *testing.T) {
	c := campaign(t)
	mail, mail2 := entry(t, c, "lr-mail"), entry(t, c, "lr-mail")
	inv := []*Entry{mail, mail2}
	equipped(t, c, inv, mail)
	if full, _ := c.Equip(inv, mail2); full == nil || full.Slot.Key != "body" {
		t.Errorf("one body armor at a time: %+v", full)
	}
	whistle := entry(t, c, "lr-curio-2") // slot "none"
	if _, ok := c.SlotFor(whistle); ok {
		t.Error(`an item with slot "none" takes no slot`)
	}
	equipped(t, c, inv, whistle)
	if _, err := c.Equip(inv, entry(t, c, "lr-sack")); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a sack is not equippable: %v", err)
	}
	own := &Entry{Item: &Item{ID: "belt-knife", Type: "lr-weapon", Name: "Belt knife", Slot: "body", SlotSize: 1}}
	if p, ok := c.SlotFor(own); !ok || p.Slot.Key != "body" {
		t.Errorf("an item's own slot wins over the rules: %+v", p)
	}
}

// TestStateThatNeedsRoom: taking an equipped Versatile staff two-handed beside a shield
// is refused while the hands are full, and allowed once the shield is out.
func TestStateThatNeedsRoom(t *testing.T) {
	c := campaign(t)
	staff, shield := entry(t, c, "lr-staff"), entry(t, c, "lr-shield")
	inv := []*Entry{staff, shield}
	equipped(t, c, inv, staff)
	equipped(t, c, inv, shield)
	if _, err := c.SetState(inv, staff, StateChange{Key: "twoHanded", On: true}, nil); refusal.Of(err) != refusal.NoSlot || staff.On("twoHanded") {
		t.Fatalf("two hands on the staff with a shield in one: %v", err)
	}
	shield.Equipped = false
	if _, err := c.SetState(inv, staff, StateChange{Key: "twoHanded", On: true}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestSlotRulesAsPackRat holds the slot rules to Pack Rat's own (js/system.js slotFor and
// store.js ruleMatches): slots in order, the first rule of a slot an item matches; a rule's
// item is an id or a list of ids; group is a legacy group's name for a template; template
// takes the templates under it and the system template a player's copy started from; name
// is words, any of which the item's name has as a whole word, a plural s allowed; an
// item's own slot wins, its slotSize at least 1, "none" never in a slot, and a slot key
// no slot has equips freely.
func TestSlotRulesAsPackRat(t *testing.T) {
	s, ps := Parse(mutate(t, func(m map[string]any) {
		m["slots"] = []any{
			map[string]any{"key": "belt", "label": "Belt", "count": 3, "rules": []any{
				map[string]any{"item": []any{"lr-ring", "lr-wand"}},
				map[string]any{"name": "arrow, quiver"},
			}},
			map[string]any{"key": "pack", "label": "Pack", "count": 2, "rules": []any{
				map[string]any{"group": "kit", "size": 2},
				map[string]any{"template": "arms"},
			}},
			map[string]any{"key": "sheath", "label": "Sheath", "count": 1, "rules": []any{map[string]any{"template": "lr-weapon"}}},
		}
		cat := m["catalog"].([]any)
		m["catalog"] = append(cat,
			map[string]any{"id": "x-arrows", "type": "lr-gear", "name": "Arrows (20)"},
			map[string]any{"id": "x-sparrow", "type": "lr-trinket", "name": "Sparrow figurine"},
			map[string]any{"id": "x-own", "type": "lr-gear", "name": "Banner", "slot": "pack"},
			map[string]any{"id": "x-none", "type": "lr-weapon", "name": "Arrow of slaying", "slot": "none"},
		)
	}))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	if ps := c.AddTemplates([]Template{{ID: "my-blade", Name: "My blade", From: "lr-weapon"}}); len(ps) > 0 {
		t.Fatal(ps)
	}
	mine, ps := c.ParseItem([]byte(`{"id":"my-1","type":"my-blade","name":"Heirloom"}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	at := func(it *Item) string {
		p, ok := c.SlotFor(&Entry{UID: it.ID, Item: it, Qty: 1})
		if !ok {
			return "-"
		}
		return p.Slot.Key + ":" + string(rune('0'+p.Size))
	}
	for id, want := range map[string]string{
		"lr-ring":   "belt:1", // the ids' list
		"x-arrows":  "belt:1", // "arrow" with its plural s
		"x-sparrow": "-",      // not a whole word
		"lr-sack":   "pack:2", // in the legacy group kit, now lr-gear
		"lr-sword":  "pack:1", // under arms
		"x-own":     "pack:1", // its own slot, at least 1 place
		"x-none":    "-",      // "none": never, though its name says arrow
	} {
		if got := at(s.CatalogItem(id)); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
	if got := at(mine); got != "sheath:1" {
		t.Errorf("a player's copy of lr-weapon, under no template, counts as its original for a template rule: %s", got)
	}
	_, ps = Parse(mutate(t, func(m map[string]any) {
		m["slots"] = []any{map[string]any{"key": "belt", "label": "Belt", "count": 1, "rules": []any{
			map[string]any{"item": []any{"lr-ring", "nope"}}, map[string]any{"group": "tools"}}}}
	}))
	if !has(ps, "slots[0].rules[0].item", `unknown catalog item "nope"`) || !has(ps, "slots[0].rules[1].group", `unknown group "tools"`) {
		t.Errorf("got %v", ps)
	}
}

// TestGMOverride: the GM's On or Off wins over the player's own choice (Pack Rat's
// entryStates: the overrides over the entry's own states), and clearing it gives the state
// back to the player's choice.
func TestGMOverride(t *testing.T) {
	c := campaign(t)
	ring := entry(t, c, "lr-ring")
	if _, err := c.SetState(nil, ring, StateChange{Key: "attuned", On: true}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetState(nil, ring, StateChange{Key: "attuned", On: false, GM: true}, nil); err != nil || ring.On("attuned") {
		t.Fatalf("the GM's Off wins: %v %v", err, ring.On("attuned"))
	}
	if _, err := c.SetState(nil, ring, StateChange{Key: "attuned", GM: true, Clear: true}, nil); err != nil || !ring.On("attuned") {
		t.Fatalf("cleared, the player's choice again: %v %v", err, ring.On("attuned"))
	}
	if _, err := c.SetState(nil, ring, StateChange{Key: "identified", On: true, GM: true}, nil); err != nil || !ring.On("identified") {
		t.Fatalf("the GM's On: %v", err)
	}
}

// TestLayerMovesSlot: where an item goes is read off the item as it is now (Pack Rat's
// slotFor takes currentItem), so a layer may move it: a cursed staff clings to the body.
func TestLayerMovesSlot(t *testing.T) {
	s, ps := Parse(mutate(t, func(m map[string]any) {
		obj(m, "catalog", 2)["layers"] = map[string]any{"cursed": map[string]any{"slot": "body"}}
	}))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	staff := &Entry{UID: "s", Item: s.CatalogItem("lr-staff"), Qty: 1}
	if p, ok := c.SlotFor(staff); !ok || p.Slot.Key != "hands" {
		t.Fatalf("in hand: %+v", p)
	}
	staff.GM = map[string]bool{"cursed": true}
	if p, ok := c.SlotFor(staff); !ok || p.Slot.Key != "body" || p.Size != 1 {
		t.Errorf("cursed, on the body: %+v", p)
	}
	_, ps = Parse(mutate(t, func(m map[string]any) {
		obj(m, "catalog", 2)["layers"] = map[string]any{"cursed": map[string]any{"slot": "tail"}}
	}))
	if !has(ps, "catalog[2] (lr-staff).layers.cursed.slot", `unknown slot "tail"`) {
		t.Errorf("got %v", ps)
	}
}
