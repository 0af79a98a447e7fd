package main

import (
	"fmt"
	"sort"
	"strings"

	"sheetkeeper/inventory"
)

// System identity.
const (
	systemID      = "dnd5e-srd"
	systemVersion = 1
)

// coinValue is each SRD coin's worth in copper, the smallest.
var coinValue = map[string]int64{"pp": 1000, "gp": 100, "ep": 50, "sp": 10, "cp": 1}

// glossary is the project's own one-line reading of each SRD weapon property (the
// SRD's prose is not copied); a property the data adds later fails the generator.
var glossary = map[string]string{
	"Ammunition": "Fires ammunition: each shot spends a piece, and half of what was spent can be picked up after the fight.",
	"Finesse":    "Attack and damage may use Dexterity in place of Strength.",
	"Heavy":      "Too big for Small creatures, who attack with it at disadvantage.",
	"Light":      "Small and easy to handle: the weapon for fighting with one in each hand.",
	"Loading":    "Slow to reload: one shot per action, bonus action or reaction, however many attacks you have.",
	"Monk":       "Counts as a monk weapon.",
	"Reach":      "Adds 5 feet to how far you can reach when you attack with it.",
	"Special":    "Has a rule of its own, given with the weapon.",
	"Thrown":     "Can be thrown for a ranged attack, with the ability you would use in melee.",
	"Two-Handed": "Takes both hands to attack with.",
	"Versatile":  "One hand or two; the dice in brackets are the damage with two.",
}

// rarities are the SRD's magic item rarities, in order.
var rarities = []string{"Common", "Uncommon", "Rare", "Very Rare", "Legendary", "Artifact", "Varies"}

// magicKinds names each SRD magic item category as one item of it.
var magicKinds = map[string]string{
	"wondrous-items": "Wondrous item", "potion": "Potion", "ring": "Ring", "weapon": "Weapon",
	"armor": "Armor", "wand": "Wand", "staff": "Staff", "scroll": "Scroll", "rod": "Rod",
	"ammunition": "Ammunition",
}

func ptr(v float64) *float64 { return &v }

// system builds the whole system from the data.
func (d *srd) system() (*inventory.System, error) {
	names := make([]string, 0, len(d.properties))
	for _, p := range d.properties {
		if glossary[p.Name] == "" {
			return nil, fmt.Errorf("weapon property %q has no glossary entry", p.Name)
		}
		names = append(names, p.Name)
	}
	catalog, cats, err := d.catalog()
	if err != nil {
		return nil, err
	}
	tables, err := d.tables()
	if err != nil {
		return nil, err
	}
	lib, panels, err := dnd5ePanels()
	if err != nil {
		return nil, err
	}
	return &inventory.System{
		Packrat: "system",
		ID:      systemID,
		Name:    "D&D 5e (SRD 5.1)",
		Version: systemVersion,
		Description: "sheetkeeper's built-in 5e inventory, generated from the SRD 5.1 data: platinum, gold, electrum, silver and copper, " +
			"weight in pounds, two hands and a body for armor, attunement to at most three items, and every SRD weapon, armor, " +
			"piece of gear, tool, mount, vehicle and magic item, with the SRD's roll tables for which variant a magic item is. This work includes material taken from the System Reference " +
			"Document 5.1 by Wizards of the Coast LLC, licensed under the Creative Commons Attribution 4.0 International License.",
		Templates:    templates(cats),
		Features:     features(names),
		CommonFields: []inventory.Field{{Key: "rarity", Label: "Rarity", Kind: "select", Options: rarities}},
		States: []inventory.State{
			{Key: "attuned", Label: "Attuned", Who: "player", Requires: "attunement", Limit: &inventory.Limit{
				Value: "attuneSlots", Default: ptr(3), Mode: "block",
				Text: "You can attune to at most {limit} items", Label: "Attunement slots"}},
			{Key: "twoHanded", Label: "In both hands", Who: "player", Requires: "weapon", RequiresProperty: "Versatile"},
			{Key: "identified", Label: "Identified", Who: "gm"},
		},
		Terminology: map[string]string{"gm": "DM", "gameMaster": "Dungeon Master"},
		Currency: &inventory.Currency{Coins: []inventory.Coin{
			{Key: "pp", Name: "platinum", Value: 1000},
			{Key: "gp", Name: "gold", Value: 100},
			{Key: "ep", Name: "electrum", Value: 50},
			{Key: "sp", Name: "silver", Value: 10},
			{Key: "cp", Name: "copper", Value: 1},
		}, Show: "gp", PerWeight: 50},
		Weight: &inventory.WeightUnit{Unit: "lb", One: "lb"},
		// The values the panels read, at their starting values.
		Stats:      map[string]any{"str": 10.0, "dex": 10.0, "prof": 2.0, "carryMultiplier": 1.0},
		Panels:     panels,
		PanelLib:   lib,
		RawCatalog: catalog,
		Tables:     tables,
		Glossary:   glossary,
		Slots: []inventory.Slot{
			{Key: "hands", Label: "Hands", Count: 2, Rules: []inventory.SlotRule{
				{Feature: "weapon", Property: "Two-Handed", Size: 2},
				{Feature: "weapon", State: "twoHanded", Size: 2},
				{Feature: "weapon"},
				{Feature: "armor", Category: []string{"Shield"}},
			}},
			{Key: "body", Label: "Armor", Count: 1, Rules: []inventory.SlotRule{{Feature: "armor"}}},
		},
	}, nil
}

// templates are the item kinds, each with the categories the catalog uses.
func templates(cats map[string][]string) []inventory.Template {
	t := func(id, name, plural, icon string, features map[string]any) inventory.Template {
		return inventory.Template{ID: id, Name: name, Plural: plural, Icon: icon,
			Categories: cats[id], Features: features}
	}
	return []inventory.Template{
		t("weapon", "Weapon", "Weapons", "swords", map[string]any{"weapon": "main", "equippable": true, "stacks": false}),
		t("armor", "Armor", "Armor", "armor", map[string]any{"armor": "main", "equippable": true, "stacks": false}),
		t("gear", "Adventuring gear", "Adventuring gear", "sack", nil),
		t("tool", "Tool", "Tools", "", map[string]any{"stacks": false}),
		t("mount", "Mount or vehicle", "Mounts and vehicles", "", map[string]any{"stacks": false}),
		t("magic-item", "Magic item", "Magic items", "gem", map[string]any{"attunement": false, "equippable": true, "stacks": false}),
	}
}

// features are the system's own: weapons, armor and attunement.
func features(properties []string) []inventory.Feature {
	sort.Strings(properties)
	return []inventory.Feature{
		{Key: "weapon", Label: "Weapon", Equip: "wielded", Hint: "Held to attack with.", Fields: []inventory.Field{
			{Key: "damage", Label: "Damage", Kind: "dice"},
			{Key: "damageType", Label: "Damage type", Kind: "text"},
			{Key: "hands", Label: "Hands", Kind: "select", Options: []string{"1", "2"}, Segmented: true},
			{Key: "properties", Label: "Properties", Kind: "tags", Suggestions: properties},
			{Key: "range", Label: "Range", Kind: "text"},
		}},
		{Key: "armor", Label: "Armor", Equip: "worn", Hint: "Worn for armor class.", Fields: []inventory.Field{
			{Key: "armorClass", Label: "Armor class", Kind: "number", Min: ptr(0)},
			{Key: "dexterity", Label: "Dexterity bonus", Kind: "text"},
			{Key: "strength", Label: "Strength needed", Kind: "number", Min: ptr(0)},
			{Key: "stealthDisadvantage", Label: "Stealth disadvantage", Kind: "checkbox"},
		}},
		{Key: "attunement", Label: "Attunement", Flag: "requiresAttunement", Hint: "Works only for a creature attuned to it."},
	}
}

// attunement returns whether a magic item needs attuning and who or where it may be
// attuned ("" for anyone, "cleric/druid/paladin" for a list of classes), from the
// item's first line, which states its kind, rarity and attunement.
func attunement(m magicItem) (bool, string) {
	if len(m.Desc) == 0 {
		return false, ""
	}
	line := strings.ToLower(m.Desc[0])
	_, rest, ok := strings.Cut(line, "requires attunement")
	if !ok {
		return false, ""
	}
	who := strings.TrimSpace(strings.TrimRight(rest, ") "))
	for _, article := range []string{"by a ", "by an "} {
		who = strings.TrimPrefix(who, article)
	}
	return true, strings.NewReplacer(", or ", "/", " or ", "/", ", ", "/").Replace(who)
}
