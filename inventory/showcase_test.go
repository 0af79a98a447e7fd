package inventory

import (
	"fmt"
	"os"
	"testing"

	"sheetkeeper/refusal"
)

func uids() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("u%d", n) }
}

// TestShowcase: a new character's example items, made from the system's own templates
// (D&D 5e's gear and tool; the container and consumable it lacks fall back to gear), the
// two stacks inside the pack, the cards a set to draw from.
func TestShowcase(t *testing.T) {
	data, err := os.ReadFile("../content/systems/dnd5e-srd.json")
	if err != nil {
		t.Fatal(err)
	}
	s, ps := Parse(data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	es := c.Showcase(uids())
	if len(es) != 7 {
		t.Fatalf("%d entries", len(es))
	}
	pack, rations, cards := es[0], es[1], es[6]
	cur := c.Now(pack)
	if pack.Item.Type != "gear" || !cur.Has("holds") || rations.Parent != pack.UID || rations.Qty != 4 || es[2].Parent != pack.UID {
		t.Errorf("pack %+v, rations %+v", pack.Item, rations)
	}
	if cards.Item.Type != "tool" || len(c.Pieces(cards)) != 54 {
		t.Errorf("cards: %s, %d pieces", cards.Item.Type, len(c.Pieces(cards)))
	}
	if w := c.Carried(es, c.System.Money().NewPurse()).Items; w != 5+4*2+7*0.05+0.5+1+0.25 {
		t.Errorf("carried %g", w)
	}
	off := false
	s.Showcase = &off
	if es := c.Showcase(uids()); es != nil {
		t.Errorf("showcase: false gives none: %d", len(es))
	}
}

// TestAdoptStarter: a starter template becomes the players' own, once.
func TestAdoptStarter(t *testing.T) {
	c, _ := lantern(t).Campaign(nil)
	if err := c.AdoptStarter("lr-tool"); err != nil {
		t.Fatal(err)
	}
	it, ps := c.ParseItem([]byte(`{"id":"my-saw","type":"lr-tool","name":"Saw"}`))
	if len(ps) > 0 || c.Now(c.NewEntry("s", it, 1)).Template.ID != "lr-tool" {
		t.Fatalf("%v %v", it, ps)
	}
	wantReason(t, c.AdoptStarter("lr-tool"), refusal.NotAllowed)
	wantReason(t, c.AdoptStarter("nope"), refusal.UnknownEntry)
}
