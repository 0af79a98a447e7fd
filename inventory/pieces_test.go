package inventory

import (
	"testing"

	"sheetkeeper/refusal"
)

func withSetAndPack(t *testing.T) *Campaign {
	t.Helper()
	s, ps := Parse(mutate(t, func(m map[string]any) {
		m["catalog"] = append(m["catalog"].([]any),
			map[string]any{"id": "lr-cards", "type": "lr-gear", "name": "Playing cards", "features": map[string]any{"deck": true},
				"pieceName": "card", "deckCards": []any{"Ace", map[string]any{"name": "King"}, "Queen"}},
			map[string]any{"id": "lr-kit", "type": "lr-gear", "name": "Traveller's kit", "features": map[string]any{"pack": true},
				"contents": []any{map[string]any{"id": "lr-sack"}, map[string]any{"name": "waterskin", "qty": 2}, map[string]any{"name": "Tinderbox", "qty": 1}}})
	}))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	return c
}

func TestSets(t *testing.T) {
	c := withSetAndPack(t)
	deck := c.NewEntry("d", c.System.CatalogItem("lr-cards"), 1)
	if got := c.Pieces(deck); len(got) != 3 || got[1] != "King" {
		t.Fatalf("pieces: %v", got)
	}
	if p, err := c.Draw(deck, func(n int) int { return 2 }); err != nil || p != "King" {
		t.Fatalf("drawing the second of three: %q %v", p, err)
	}
	if p, _ := c.Draw(deck, func(n int) int { return n }); p != "Queen" {
		t.Errorf("the last of the two left: %q", p)
	}
	if err := c.TakeOut(deck, "Ace"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Draw(deck, func(int) int { return 1 }); refusal.Of(err) != refusal.Insufficient {
		t.Errorf("an empty set: %v", err)
	}
	if err := c.PutBack(deck, "King"); err != nil || len(deck.Out) != 2 {
		t.Errorf("putting the King back: %v %v", err, deck.Out)
	}
	if err := c.PutBack(deck, "King"); refusal.Of(err) != refusal.UnknownEntry {
		t.Errorf("the King is in already: %v", err)
	}
}

func TestUnpack(t *testing.T) {
	c := withSetAndPack(t)
	kit := c.NewEntry("k", c.System.CatalogItem("lr-kit"), 2)
	lines, err := c.Unpack(kit)
	if err != nil || len(lines) != 3 || lines[0].Item.ID != "lr-sack" || lines[0].Qty != 2 || lines[1].Item.ID != "lr-skin" || lines[1].Qty != 4 ||
		lines[2].Item != nil || lines[2].Name != "Tinderbox" {
		t.Fatalf("two kits: %+v %v", lines, err)
	}
	if _, err := c.Unpack(c.NewEntry("s", c.System.CatalogItem("lr-sword"), 1)); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a sword is no pack: %v", err)
	}
	_, ps := Parse(mutate(t, func(m map[string]any) {
		m["catalog"] = append(m["catalog"].([]any), map[string]any{"id": "lr-kit", "type": "lr-gear", "name": "Kit",
			"features": map[string]any{"pack": true}, "contents": []any{map[string]any{"id": "lr-rope"}}})
	}))
	if !has(ps, "catalog[11] (lr-kit).contents[0].id", `unknown catalog item "lr-rope"`) {
		t.Errorf("got %v", ps)
	}
	_, ps = Parse(mutate(t, func(m map[string]any) {
		m["catalog"] = append(m["catalog"].([]any), map[string]any{"id": "lr-kit", "type": "lr-gear", "name": "Kit",
			"features": map[string]any{"pack": true}, "contents": []any{map[string]any{"id": "lr-sack", "name": "Sack"}}})
	}))
	if !has(ps, "catalog[11] (lr-kit).contents[0]", "by id or by name") {
		t.Errorf("got %v", ps)
	}
}
