package inventory

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"sheetkeeper/ruleset"
	"sheetkeeper/strictjson"
)

// The bridge serves a Marinara ruleset's items block with this engine, as a system
// derived from it (SPEC 7): categories become templates, rarities, tags and stats the
// common fields (the carry stat is the weight), slots the equipment slots, binding a
// limited state, carry the weight unit, the first currency family the coins, and every
// entry of an item catalog a catalog item ("<catalog>/<entry>", as loot tables name
// them). The derived file is read by Parse like any other, so it is held to the same
// rules and bounds.

// BoundState is the key of the state binding becomes.
const BoundState = "bound"

// bindsFeature is the feature an item that must be bound has.
const bindsFeature = "binds"

// stackField is the field holding the most one stack of a ruleset's item holds; maxStack
// is the most the guide lets a `stack` be.
const (
	stackField = "stack"
	maxStack   = 999_999
)

// FromRuleset derives a system from a ruleset's items block. entries reads an item
// catalog's entries (a Loaded's Entries, which reads a package's standalone files). A
// ruleset without an items block has no system: nil and no problems.
func FromRuleset(rs *ruleset.Ruleset, entries func(catalogID string) ([]ruleset.Entry, error)) (*System, strictjson.Problems) {
	it := rs.Items
	if it == nil {
		return nil, nil
	}
	f := map[string]any{"packrat": "system", "id": "ruleset-" + rs.ID, "name": rs.Name}
	var templates []any
	for _, c := range it.Categories {
		// Only an item that takes slots equips (slotted, item by item), as in the guide:
		// a tonic in a ruleset with hands is carried, never worn.
		templates = append(templates, map[string]any{"id": c.ID, "name": c.Label, "plural": c.Label})
	}
	f["templates"] = templates
	weightStat := ""
	if it.Carry != nil {
		weightStat = it.Carry.Stat
	}
	if fields := bridgeFields(it, weightStat); len(fields) > 0 {
		f["commonFields"] = fields // a null is no array: a block with no words leaves it out
	}
	if unit := weightUnit(it.Stats, weightStat); unit != "" {
		f["weight"] = map[string]any{"unit": unit}
	}
	if len(it.Slots) > 0 {
		var slots []any
		for _, s := range it.Slots {
			slots = append(slots, map[string]any{"key": s.ID, "label": s.Label, "count": s.Count})
		}
		f["slots"] = slots
	}
	if b := it.Binding; b != nil {
		f["features"], f["states"] = bridgeBinding(b)
	}
	money := map[string]int64{}
	if len(it.Currencies) > 0 {
		f["currency"] = bridgeCurrency(it.Currencies[0], money)
	}
	var catalog []any
	var ps strictjson.Problems
	ruleItems := map[string]*ruleset.Item{}
	for _, c := range rs.Catalogs {
		if c.Kind() != "items" {
			continue
		}
		es, err := entries(c.ID)
		if err != nil {
			ps.Add("catalogs."+c.ID, "%v", err)
			continue
		}
		for _, e := range es {
			if e.Item != nil {
				catalog = append(catalog, bridgeItem(c.ID, &e, weightStat, money))
				ruleItems[c.ID+"/"+e.ID] = e.Item
			}
		}
	}
	if len(ps) > 0 {
		return nil, ps
	}
	if len(catalog) > 0 {
		f["catalog"] = catalog
	}
	data, err := json.Marshal(f)
	if err != nil {
		return nil, strictjson.Problems{{Msg: err.Error()}}
	}
	s, ps := Parse(data)
	if s != nil {
		s.words, s.sheet, s.ruleItems = it, &rs.Sheet, ruleItems
	}
	return s, ps
}

// bridgeBinding is binding as a feature items that bind have, and a blocking state
// whose limit is the character's Local value bindingMax (the sheet's binding.max, which
// the caller feeds in), else the ruleset's constant.
func bridgeBinding(b *ruleset.Binding) (features, states []any) {
	limit := map[string]any{"value": bindingMax, "mode": "block", "label": b.Label}
	if b.Max.Const != nil {
		limit["default"] = *b.Max.Const
	}
	return []any{map[string]any{"key": bindsFeature, "label": b.Label}},
		[]any{map[string]any{"key": BoundState, "label": b.Label, "who": "player", "requires": bindsFeature, "limit": limit}}
}

// bridgeCurrency is a currency family as coins, largest first; money is filled with
// each unit's value, to price items.
func bridgeCurrency(fam ruleset.CurrencyFamily, money map[string]int64) map[string]any {
	units := append([]ruleset.CurrencyUnit(nil), fam.Units...)
	sort.SliceStable(units, func(i, j int) bool { return units[i].Value > units[j].Value })
	var coins []any
	for _, u := range units {
		coins = append(coins, map[string]any{"key": u.ID, "name": u.Label, "value": u.Value})
		money[u.ID] = int64(u.Value)
	}
	cur := map[string]any{"coins": coins}
	if fam.PerWeight != nil {
		cur["perWeight"] = *fam.PerWeight
	}
	return cur
}

// bridgeFields turns rarities, tags and stats (but the weight) into common fields.
func bridgeFields(it *ruleset.Items, weightStat string) []any {
	var fields []any
	if len(it.Rarities) > 0 {
		opts, labels := words(it.Rarities)
		fields = append(fields, map[string]any{"key": "rarity", "label": "Rarity", "kind": "select", "options": opts, "labels": labels})
	}
	if len(it.Tags) > 0 {
		opts, _ := words(it.Tags)
		fields = append(fields, map[string]any{"key": "tags", "label": "Tags", "kind": "tags", "suggestions": opts})
	}
	// stackField is the most one stack of an item holds (its `stack`), as a field every
	// item may carry, so a player's copy keeps it.
	fields = append(fields, map[string]any{"key": stackField, "label": "Stack", "kind": "number", "min": 1, "max": maxStack})
	// worn and carried keep an invented item's effects in the words Invent reads back
	// (ItemEffects), unless the ruleset has stats of those names.
	for _, k := range []string{"worn", "carried"} {
		if !slices.ContainsFunc(it.Stats, func(s ruleset.ItemStatDecl) bool { return s.ID == k }) {
			fields = append(fields, map[string]any{"key": k, "label": strings.ToUpper(k[:1]) + k[1:], "kind": "text"})
		}
	}
	kinds := map[string]string{"number": "number", "text": "text", "boolean": "checkbox", "enum": "select", "dice": "dice"}
	for _, s := range it.Stats {
		if s.ID == weightStat {
			continue
		}
		fd := map[string]any{"key": s.ID, "label": s.Label, "kind": kinds[s.Type]}
		if s.Min != nil {
			fd["min"] = *s.Min
		}
		if s.Max != nil {
			fd["max"] = *s.Max
		}
		if s.Type == "enum" {
			fd["options"] = s.Values
			if len(s.ValueLabels) > 0 {
				fd["labels"] = s.ValueLabels
			}
		}
		fields = append(fields, fd)
	}
	return fields
}

func words(ws []ruleset.ItemWord) ([]string, map[string]string) {
	ids := make([]string, len(ws))
	labels := make(map[string]string, len(ws))
	for i, w := range ws {
		ids[i], labels[w.ID] = w.ID, w.Label
	}
	return ids, labels
}

// bridgeItem is one item catalog entry as a catalog item. Its cost is in the smallest
// coin; the slot it takes most of is its own slot.
func bridgeItem(catalogID string, e *ruleset.Entry, weightStat string, money map[string]int64) map[string]any {
	ri := e.Item
	it := map[string]any{"id": catalogID + "/" + e.ID, "type": ri.Category, "name": e.Label}
	if e.Summary != nil {
		it["description"] = *e.Summary
	}
	if ri.Rarity != nil {
		it["rarity"] = *ri.Rarity
	}
	if len(ri.Tags) > 0 {
		it["tags"] = ri.Tags
	}
	for k, v := range ri.Stats {
		if k == weightStat {
			it["weight"] = v
		} else {
			it[k] = v
		}
	}
	if ri.Cost != nil {
		it["cost"] = int64(ri.Cost.Amount) * money[ri.Cost.Unit]
	}
	if len(ri.Slots) > 0 {
		keys := make([]string, 0, len(ri.Slots))
		for k := range ri.Slots {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		best := keys[0]
		for _, k := range keys {
			if ri.Slots[k] > ri.Slots[best] {
				best = k
			}
		}
		it["slot"], it["slotSize"] = best, ri.Slots[best]
	}
	if ri.Stack != nil {
		it[stackField] = *ri.Stack
	}
	features := map[string]any{}
	if ri.Charges != nil {
		it["noStack"] = true // an item that holds charges is one to a stack
		if n, ok := constCharges(ri.Charges.Max); ok {
			features["charges"], it["maxCharges"] = true, n
		}
	}
	if ri.Binds != nil {
		features[bindsFeature] = true
		if ri.Binds.Cursed != nil && *ri.Binds.Cursed {
			it["layers"] = map[string]any{BoundState: map[string]any{"locks": []any{BoundState}}}
		}
	}
	if len(features) > 0 {
		it["features"] = features
	}
	slotted(it)
	return it
}

// slotted makes an item's file form equippable exactly when it takes a slot (its own
// slot, as bridgeItem and Invent write it): the guide's items without slots cannot be
// worn, so neither can they here.
func slotted(raw map[string]any) {
	features, _ := raw["features"].(map[string]any)
	features = mapsClone(features)
	if _, ok := raw["slot"]; ok {
		features["equippable"] = true
	} else {
		delete(features, "equippable")
	}
	setOrDrop(raw, "features", features)
}

// constCharges is an item's charges.max when it is a whole number written as one; a
// maximum read off the sheet (a ValueRef) is no constant, and the item then holds none
// the inventory counts.
func constCharges(raw []byte) (int64, bool) {
	var n float64
	if err := json.Unmarshal(raw, &n); err != nil || n < 1 || n != float64(int64(n)) {
		return 0, false
	}
	return int64(n), true
}

// weightUnit is the unit the carry stat is counted in, for "6 lb" rather than "6
// Weight": a unit its label names in brackets ("Weight (kg)"), else the unit its example
// is written in ("2 lb"), else its label unless that only names the quantity (Weight,
// Load, Wt), which leaves the system's default unit. "" is no unit of its own.
func weightUnit(stats []ruleset.ItemStatDecl, stat string) string {
	i := slices.IndexFunc(stats, func(s ruleset.ItemStatDecl) bool { return s.ID == stat })
	if stat == "" || i < 0 {
		return ""
	}
	s := stats[i]
	if open, end := strings.IndexAny(s.Label, "(["), strings.LastIndexAny(s.Label, ")]"); open >= 0 && end > open+1 {
		return strings.TrimSpace(s.Label[open+1 : end])
	}
	if s.Example != nil {
		if f := strings.Fields(*s.Example); len(f) == 2 && strings.ContainsAny(f[0], "0123456789") {
			return f[1]
		}
	}
	switch ruleset.FoldName(s.Label) {
	case "weight", "wt", "load", "mass", "":
		return ""
	}
	return strings.ToLower(s.Label)
}
