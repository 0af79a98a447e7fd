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
