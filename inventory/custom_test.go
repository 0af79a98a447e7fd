package inventory

import "testing"

// TestPlayersOwnItem: a player's item is checked like a catalog one, and a category the
// system renamed since takes its new name.
func TestPlayersOwnItem(t *testing.T) {
	s := lantern(t)
	it, ps := s.ParseItem([]byte(`{"id":"my-amulet","type":"lr-trinket","name":"Grandmother's amulet","category":"Amulet","cost":5}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if it.Category != "Charm" || it.Cost != 5 {
		t.Errorf("got %+v", it)
	}
	c, _ := s.Campaign(nil)
	if now := c.Now(&Entry{Item: it}); !now.Has("attunement") {
		t.Error("a player's item has its template's features")
	}
	if _, ps := s.ParseItem([]byte(`{"id":"x","type":"lr-trinket","name":"X","sharpness":2}`)); !has(ps, "sharpness", "unknown field") {
		t.Errorf("got %v", ps)
	}
}

func TestPlayersOwnTemplate(t *testing.T) {
	s := lantern(t)
	if ps := s.CheckTemplate(Template{ID: "my-tool", Name: "Tool", Parent: "lr-gear", Features: map[string]any{"charges": true}}); len(ps) > 0 {
		t.Errorf("a template under one of the system's: %v", ps)
	}
	if ps := s.CheckTemplate(Template{ID: "my-tool", Name: "Tool", Parent: "nowhere"}); !has(ps, "template[0].parent", "unknown template") {
		t.Errorf("got %v", ps)
	}
}

// TestPlayersTemplatesInPlay: a player's template under one of the system's gives its
// items its fields and features, and its parent's.
func TestPlayersTemplatesInPlay(t *testing.T) {
	c := campaign(t)
	ps := c.AddTemplates([]Template{
		{ID: "my-tool", Name: "Tool", Parent: "lr-bag", Fields: []Field{{Key: "craft", Label: "Craft", Kind: "text"}}, Features: map[string]any{"charges": true}},
		{ID: "my-pick", Name: "Lockpick", Parent: "my-tool", Defaults: map[string]any{"craft": "thieving"},
			Layers: map[string]map[string]any{"cursed": {"name": "Snapped pick"}}},
	})
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	it, ps := c.ParseItem([]byte(`{"id":"pick","type":"my-pick","name":"Bent pick","maxCharges":2}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	now := c.Now(&Entry{Item: it})
	if v, _ := now.Field("craft"); v != "thieving" || !now.Has("charges") || !now.Has("holds") || now.Template.ID != "my-pick" {
		t.Errorf("craft %v, charges %v, holds %v", v, now.Has("charges"), now.Has("holds"))
	}
	if got := c.Now(&Entry{Item: it, GM: map[string]bool{"cursed": true}}).Name; got != "Snapped pick" {
		t.Errorf("a player's template's layer: %q", got)
	}
	if ps := c.AddTemplates([]Template{{ID: "lr-gear", Name: "Mine"}}); !has(ps, "templates[0].id", "already") {
		t.Errorf("a player's template cannot take a system template's id: %v", ps)
	}
	if _, ps := lantern(t).ParseItem([]byte(`{"id":"pick","type":"my-pick","name":"Bent pick"}`)); !has(ps, "type", "unknown template") {
		t.Errorf("without the campaign, a player's template is unknown: %v", ps)
	}
}
