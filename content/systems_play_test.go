package content

import (
	"strings"
	"testing"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
)

// play is a character's inventory in a built-in system, items taken from its catalog.
type play struct {
	t   *testing.T
	c   *inventory.Campaign
	inv []*inventory.Entry
}

func newPlay(t *testing.T, id string) *play {
	t.Helper()
	c, ps := lookupSys(t, id).Campaign(nil)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	return &play{t: t, c: c}
}

func (p *play) take(id string) *inventory.Entry {
	p.t.Helper()
	it := p.c.System.CatalogItem(id)
	if it == nil {
		p.t.Fatalf("%s: not in the catalog", id)
	}
	e := p.c.NewEntry(id, it, 1)
	p.inv = append(p.inv, e)
	return e
}

func (p *play) set(e *inventory.Entry, state string) error {
	_, err := p.c.SetState(p.inv, e, inventory.StateChange{Key: state, On: true}, nil)
	return err
}

// In the 5e system a fourth attunement is refused, an item that needs none cannot be
// attuned, and the hands slot holds a shield beside a one-handed sword but not beside
// a two-handed maul, nor beside a versatile sword held in both hands.
func TestDnD5ePlays(t *testing.T) {
	p := newPlay(t, "dnd5e-srd")
	for _, id := range []string{"amulet-of-health", "cloak-of-protection", "ring-of-protection"} {
		if err := p.set(p.take(id), "attuned"); err != nil {
			t.Fatalf("attuning %s: %v", id, err)
		}
	}
	if err := p.set(p.take("belt-of-dwarvenkind"), "attuned"); refusal.Of(err) != refusal.Limit || !strings.Contains(err.Error(), "at most 3") {
		t.Errorf("a fourth attunement: %v, want refused (%s) by the limit of 3", err, refusal.Limit)
	}
	if err := p.set(p.take("bag-of-holding"), "attuned"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("attuning a bag of holding: %v, want refused (%s)", err, refusal.NotAllowed)
	}

	equip := func(p *play, e *inventory.Entry) *inventory.Full {
		t.Helper()
		full, err := p.c.Equip(p.inv, e)
		if err != nil {
			t.Fatalf("equipping %s: %v", e.Item.ID, err)
		}
		return full
	}
	hands := newPlay(t, "dnd5e-srd")
	if full := equip(hands, hands.take("maul")); full != nil {
		t.Fatalf("a maul in empty hands: full %+v", full)
	}
	if full := equip(hands, hands.take("shield")); full == nil || full.Slot.Key != "hands" {
		t.Errorf("a shield beside a maul: %+v, want the hands full", full)
	}
	hands = newPlay(t, "dnd5e-srd")
	sword := hands.take("longsword")
	if equip(hands, sword) != nil || equip(hands, hands.take("shield")) != nil {
		t.Fatal("a longsword and a shield do not fit two hands")
	}
	if err := hands.set(sword, "twoHanded"); refusal.Of(err) != refusal.NoSlot || !strings.Contains(err.Error(), "Hands is full") {
		t.Errorf("a longsword in both hands beside a shield: %v, want refused (%s)", err, refusal.NoSlot)
	}
}

// In Saltmarch a Heavy punt pole takes both hands and one keepsake can be sworn (the
// second only warns).
func TestSaltmarchPlays(t *testing.T) {
	p := newPlay(t, "saltmarch")
	if full, err := p.c.Equip(p.inv, p.take("sm-punt-pole")); err != nil || full != nil {
		t.Fatalf("a punt pole: %v, %+v", err, full)
	}
	if full, err := p.c.Equip(p.inv, p.take("sm-reed-knife")); err != nil || full == nil {
		t.Errorf("a knife beside a punt pole: %v, %+v; want the hands full", err, full)
	}
	if err := p.set(p.take("sm-mothers-ring"), "sworn"); err != nil {
		t.Fatal(err)
	}
	w, err := p.c.SetState(p.inv, p.take("sm-drowned-bell"), inventory.StateChange{Key: "sworn", On: true}, nil)
	if err != nil || w == "" {
		t.Errorf("a second keepsake: warning %q, %v; want a warning", w, err)
	}
}

// The SRD prices and weighs ammunition by the 20: twenty arrows are one bundle, 1 gp and
// 1 lb, not twenty of each.
func TestDnD5eAmmunitionBundles(t *testing.T) {
	p := newPlay(t, "dnd5e-srd")
	e := p.take("arrow")
	e.Qty = 20
	if w := p.c.EntryWeight(e); w != 1 {
		t.Errorf("20 arrows weigh %v lb, want 1", w)
	}
	if v := p.c.EntryWorth(e); v != 100 {
		t.Errorf("20 arrows are worth %d cp, want 100 (1 gp)", v)
	}
}
