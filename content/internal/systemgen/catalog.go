package main

import (
	"fmt"
	"strings"
)

// catalog turns every SRD item into a catalog item, and returns the categories each
// template's items use, in the order they first appear.
func (d *srd) catalog() ([]map[string]any, map[string][]string, error) {
	var out []map[string]any
	cats := map[string][]string{}
	add := func(tmpl string, it map[string]any) {
		if c, _ := it["category"].(string); c != "" && !contains(cats[tmpl], c) {
			cats[tmpl] = append(cats[tmpl], c)
		}
		it["type"] = tmpl
		out = append(out, it)
	}
	for _, e := range d.equipment {
		tmpl, it, err := e.item()
		if err != nil {
			return nil, nil, fmt.Errorf("equipment %s: %w", e.Index, err)
		}
		add(tmpl, it)
	}
	for _, m := range d.magic {
		if len(m.Variants) > 0 {
			continue // its variants (Armor, +1…) are the items
		}
		it, err := m.item()
		if err != nil {
			return nil, nil, fmt.Errorf("magic item %s: %w", m.Index, err)
		}
		add("magic-item", it)
	}
	return out, cats, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// item is one piece of mundane equipment: its template and its catalog entry.
func (e equipment) item() (string, map[string]any, error) {
	it := map[string]any{"id": e.Index, "name": e.Name, "source": "SRD 5.1"}
	if e.Cost != nil {
		v, ok := coinValue[e.Cost.Unit]
		if !ok {
			return "", nil, fmt.Errorf("unknown coin %q", e.Cost.Unit)
		}
		it["cost"] = e.Cost.Quantity * v
	}
	if e.Weight != nil {
		it["weight"] = *e.Weight
	}
	var tmpl string
	switch e.EquipmentCategory.Index {
	case "weapon":
		tmpl = "weapon"
		e.weapon(it)
	case "armor":
		tmpl = "armor"
		e.armor(it)
	case "adventuring-gear":
		tmpl = "gear"
		if e.GearCategory != nil {
			it["category"] = e.GearCategory.Name
		}
		e.holds(it)
		if e.Quantity > 1 {
			// The SRD prices and weighs ammunition by the 20: a bundle, so one
			// arrow costs and weighs a twentieth (Pack Rat's bundle feature).
			it["description"] = fmt.Sprintf("Sold %d at a time.", e.Quantity)
			fs, _ := it["features"].(map[string]any)
			if fs == nil {
				fs = map[string]any{}
			}
			fs["bundle"] = true
			it["features"], it["bundle"] = fs, e.Quantity
		}
	case "tools":
		tmpl = "tool"
		it["category"] = e.ToolCategory
	case "mounts-and-vehicles":
		tmpl = "mount"
		it["category"] = e.VehicleCategory
	default:
		return "", nil, fmt.Errorf("unknown equipment category %q", e.EquipmentCategory.Index)
	}
	return tmpl, it, nil
}

// containers are the SRD's container capacities, which the data has only as a table in
// its prose: what each solid container holds, in pounds or in pieces.
var containers = map[string]map[string]any{
	"backpack":           {"capacity": "1 cubic foot", "capacityLb": 30},
	"basket":             {"capacity": "2 cubic feet", "capacityLb": 40},
	"chest":              {"capacity": "12 cubic feet", "capacityLb": 300},
	"pouch":              {"capacity": "1/5 cubic foot", "capacityLb": 6},
	"sack":               {"capacity": "1 cubic foot", "capacityLb": 30},
	"quiver":             {"holds": "arrows", "holdLimit": 20, "holdUnit": "arrows"},
	"case-crossbow-bolt": {"holds": "bolts", "holdLimit": 20, "holdUnit": "bolts"},
	"case-map-or-scroll": {"holds": "scrolls", "holdLimit": 10, "holdUnit": "scrolls"},
}

// liquidPints are the same table's vessels for liquids, in pints.
var liquidPints = map[string]float64{
	"barrel": 320, "bucket": 24, "bottle-glass": 1.5, "flask-or-tankard": 1,
	"jug-or-pitcher": 8, "pot-iron": 8, "vial": 0.25, "waterskin": 4,
}

// holds makes a container, a vessel or an equipment pack of a piece of gear.
func (e equipment) holds(it map[string]any) {
	switch {
	case containers[e.Index] != nil:
		it["features"] = map[string]any{"holds": true, "stacks": false}
		for k, v := range containers[e.Index] {
			it[k] = v
		}
	case liquidPints[e.Index] > 0:
		it["features"] = map[string]any{"liquid": true}
		it["liquidPints"] = liquidPints[e.Index]
	case len(e.Contents) > 0:
		it["features"] = map[string]any{"pack": true, "stacks": false}
		var lines []any
		for _, c := range e.Contents {
			lines = append(lines, map[string]any{"id": c.Item.Index, "qty": c.Quantity})
		}
		it["contents"] = lines
	}
}

// weapon fills a weapon's fields and its one-line description.
func (e equipment) weapon(it map[string]any) {
	it["category"] = e.CategoryRange
	var props []any
	hands := "1"
	for _, p := range e.Properties {
		name := p.Name
		switch {
		case p.Index == "two-handed":
			hands = "2"
		case p.Index == "versatile" && e.TwoHandedDamage != nil:
			name = fmt.Sprintf("%s (%s)", name, e.TwoHandedDamage.Dice)
		}
		props = append(props, name)
	}
	it["hands"] = hands
	if props != nil {
		it["properties"] = props
	}
	desc := strings.ToLower(e.CategoryRange) + " weapon"
	if e.Damage != nil {
		it["damage"] = e.Damage.Dice
		it["damageType"] = e.Damage.Type.Name
		desc += fmt.Sprintf(": %s %s", e.Damage.Dice, strings.ToLower(e.Damage.Type.Name))
	}
	if r := e.Range; r != nil {
		if r.Long != nil {
			it["range"] = fmt.Sprintf("%d/%d ft", r.Normal, *r.Long)
		} else {
			it["range"] = fmt.Sprintf("%d ft", r.Normal)
		}
	}
	if t := e.ThrowRange; t != nil {
		desc += fmt.Sprintf(", thrown %d/%d ft", t.Normal, t.Long)
	}
	it["description"] = upperFirst(desc) + "."
}

// armor fills a suit's or a shield's fields and its one-line description.
func (e equipment) armor(it map[string]any) {
	it["category"] = e.ArmorCategory
	ac := e.ArmorClass
	if ac == nil {
		return
	}
	it["armorClass"] = ac.Base
	var desc string
	switch {
	case e.ArmorCategory == "Shield":
		desc = fmt.Sprintf("Shield: +%d armor class", ac.Base)
	case ac.DexBonus && ac.MaxBonus != nil:
		it["dexterity"] = fmt.Sprintf("up to +%d", *ac.MaxBonus)
		desc = fmt.Sprintf("%s armor: armor class %d + Dex (at most +%d)", e.ArmorCategory, ac.Base, *ac.MaxBonus)
	case ac.DexBonus:
		it["dexterity"] = "full"
		desc = fmt.Sprintf("%s armor: armor class %d + Dex", e.ArmorCategory, ac.Base)
	default:
		it["dexterity"] = "none"
		desc = fmt.Sprintf("%s armor: armor class %d", e.ArmorCategory, ac.Base)
	}
	if e.StrMinimum > 0 {
		it["strength"] = e.StrMinimum
		desc += fmt.Sprintf("; needs Strength %d", e.StrMinimum)
	}
	if e.StealthDisadvantage {
		it["stealthDisadvantage"] = true
		desc += "; disadvantage on Stealth"
	}
	it["description"] = desc + "."
}

// item is one magic item's catalog entry. The SRD gives magic items no price or
// weight, so they have none.
func (m magicItem) item() (map[string]any, error) {
	kind, ok := magicKinds[m.EquipmentCategory.Index]
	if !ok {
		return nil, fmt.Errorf("unknown magic item category %q", m.EquipmentCategory.Index)
	}
	if !contains(rarities, m.Rarity.Name) {
		return nil, fmt.Errorf("unknown rarity %q", m.Rarity.Name)
	}
	it := map[string]any{"id": m.Index, "name": m.Name, "source": "SRD 5.1", "category": kind, "rarity": m.Rarity.Name}
	desc := fmt.Sprintf("%s, %s", kind, strings.ToLower(m.Rarity.Name))
	if m.Rarity.Name == "Varies" {
		desc = kind + " of varying rarity"
	}
	if needs, by := attunement(m); needs {
		it["features"] = map[string]any{"attunement": true}
		it["requiresAttunement"] = true
		desc += "; needs attunement"
		if by != "" {
			desc += " (" + by + ")"
		}
	}
	it["description"] = desc + "."
	return it, nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
