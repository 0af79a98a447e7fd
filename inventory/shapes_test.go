package inventory

import "testing"

// TestDnd5eShapes: the shapes Pack Rat's own D&D 5e file uses read — legacy groups with
// a split, feature fields shared by several features (bonus), a weapon's kind, packs
// listing their contents by name, ammunition in bundles, starter templates naming a
// group and the template they started from.
func TestDnd5eShapes(t *testing.T) {
	s, ps := Parse([]byte(`{
  "packrat": "system", "id": "five", "name": "Five",
  "groups": [
    { "id": "weapon", "name": "Weapons", "hue": 5, "templates": ["weapon"] },
    { "id": "gear", "name": "Gear & Tools", "hue": 95, "templates": ["gear", "pack"] },
    { "id": "consumable", "name": "Consumables", "hue": 268, "templates": ["ammunition"],
      "split": { "ammunition": { "rest": "Ammunition" } } }
  ],
  "templates": [
    { "id": "weapon", "name": "Weapon", "group": "weapon", "categories": ["Simple", "Martial"], "categorySegmented": true,
      "features": { "weapon": "main", "equippable": true, "stacks": false } },
    { "id": "ammunition", "name": "Ammunition", "group": "consumable", "features": { "ammunition": "main", "bundle": true } },
    { "id": "gear", "name": "Adventuring Gear", "group": "gear" },
    { "id": "pack", "name": "Equipment Pack", "group": "gear", "features": { "pack": true, "stacks": false } }
  ],
  "commonFields": [{ "key": "rarity", "label": "Rarity", "kind": "select", "options": ["", "Common", "Rare"] }],
  "features": [
    { "key": "weapon", "label": "Weapon", "fields": [
      { "key": "kind", "label": "Melee or ranged", "kind": "select", "options": ["Melee", "Ranged"], "segmented": true },
      { "key": "damage", "label": "Damage dice", "kind": "dice", "placeholder": "1d8" },
      { "key": "properties", "label": "Properties", "kind": "tags", "suggestions": ["Light", "Two-handed"] },
      { "key": "bonus", "label": "Magic bonus", "kind": "number" } ] },
    { "key": "ammunition", "label": "Ammunition", "fields": [{ "key": "bonus", "label": "Magic bonus", "kind": "number" }] }
  ],
  "starterTemplates": [{ "id": "tpl-scroll", "name": "Spell Scroll", "group": "consumable", "from": "ammunition",
    "fields": [{ "key": "spell", "label": "Spell", "kind": "text" }], "defaults": { "weight": 0 } }],
  "catalog": [
    { "id": "weapon-club", "type": "weapon", "name": "Club", "category": "Simple", "kind": "Melee", "damage": "1d4",
      "properties": ["Light"], "cost": 10, "weight": 2.0, "source": "SRD 5.1" },
    { "id": "ammo-arrows", "type": "ammunition", "name": "Arrows", "bundle": 20, "cost": 100, "weight": 1.0 },
    { "id": "gear-torch", "type": "gear", "name": "Torch", "cost": 1, "weight": 1 },
    { "id": "pack-explorer", "type": "pack", "name": "Explorer's Pack", "cost": 1000, "weight": 0,
      "contents": [{ "name": "Torch", "qty": 10 }, { "name": "Bedroll", "qty": 1 }] }
  ]
}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	// A group of several whose id a template has already becomes "<id>-all" above them.
	if all := s.TemplateByID("gear-all"); all == nil || !all.Abstract || s.TemplateByID("gear").Parent != "gear-all" ||
		s.TemplateByID("pack").Parent != "gear-all" || s.TemplateAlias("gear") != "gear-all" {
		t.Errorf("a group of gear and packs: %+v", s.Templates)
	}
	if now := c.Now(c.NewEntry("t", s.CatalogItem("gear-torch"), 1)); now.Template.ID != "gear" {
		t.Errorf("an item of type gear is made with the template gear, not the group gear became: %s", now.Template.ID)
	}
	lines, err := c.Unpack(c.NewEntry("p", s.CatalogItem("pack-explorer"), 1))
	if err != nil || lines[0].Item == nil || lines[0].Qty != 10 || lines[1].Item != nil {
		t.Errorf("unpacking: %+v %v", lines, err)
	}
	arrows := c.NewEntry("a", s.CatalogItem("ammo-arrows"), 30)
	if w := c.EntryWeight(arrows); w != 1.5 {
		t.Errorf("30 arrows weigh %v", w)
	}
}
