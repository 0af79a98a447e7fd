package inventory

import (
	"math"
	"slices"

	"sheetkeeper/check"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/sheet"
)

// RulesetItems is every item a ruleset's item catalogs list, by the id the bridge gives
// it ("<catalog>/<entry>"). The derived system carries what an item is (its stats, slots,
// binding); what it does while worn or carried, and what it asks of its wearer, stay in
// the ruleset's words, so the holdings read them here.
type RulesetItems map[string]*ruleset.Item

// ItemsOf gathers a ruleset's items by their bridged ids, reading each item catalog's
// entries through entries (a Loaded's Entries), as FromRuleset does.
func ItemsOf(rs *ruleset.Ruleset, entries func(catalogID string) ([]ruleset.Entry, error)) (RulesetItems, error) {
	out := RulesetItems{}
	for _, c := range rs.Catalogs {
		if c.Kind() != "items" {
			continue
		}
		es, err := entries(c.ID)
		if err != nil {
			return nil, err
		}
		for i := range es {
			if es[i].Item != nil {
				out[c.ID+"/"+es[i].ID] = es[i].Item
			}
		}
	}
	return out, nil
}

// Holdings is one character's inventory as their sheet and their checks read it
// (Marinara's itemStat, and worn or carried effects on checks outside a fight). Every
// item is read as it is now. It implements sheet.ItemStats and sheet.ItemAbilities, so
// sheet.Evaluate(rs, card, h) works the sheet out with what the character holds.
//
// An item is worn when it is on the character: one that takes slots while it is
// equipped, one that binds while it is bound, one that does both while both. An item
// that does neither is never worn; everything not worn is carried, containers' contents
// included.
type Holdings struct {
	c     *Campaign
	rs    *ruleset.Ruleset
	items RulesetItems
	inv   []*Entry
	// weightStat is the items block's carry stat, which the bridge made the item's weight.
	weightStat string
}

// Holdings returns the inventory inv (a character's entries under this campaign, whose
// system FromRuleset derived from rs) as their sheet reads it; items are rs's items by
// their bridged ids (ItemsOf), for worn and carried effects and requirements.
func (c *Campaign) Holdings(rs *ruleset.Ruleset, items RulesetItems, inv []*Entry) *Holdings {
	h := &Holdings{c: c, rs: rs, items: items, inv: inv}
	if rs.Items != nil && rs.Items.Carry != nil {
		h.weightStat = rs.Items.Carry.Stat
	}
	return h
}

// held is one entry as the holdings read it.
type held struct {
	e    *Entry
	now  Current
	rule *ruleset.Item // nil: not one of the ruleset's catalog items
	worn bool
}

// each calls f for every entry with a count, as it is now. The holdings read the
// inventory afresh every time, so they follow an equip or a bind made after they were
// made; one held is reused, so a pass allocates once.
func (h *Holdings) each(f func(*held)) {
	var x held
	for _, e := range h.inv {
		if e == nil || e.Item == nil || e.Qty <= 0 {
			continue
		}
		x = held{e: e, now: h.c.Now(e), rule: h.items[e.Item.ID]}
		_, slotted := h.c.SlotFor(e)
		slotted = slotted || x.rule != nil && len(x.rule.Slots) > 0
		binds := x.now.Has(bindsFeature)
		x.worn = (slotted || binds) && (!slotted || e.Equipped) && (!binds || e.On(BoundState))
		f(&x)
	}
}

// ItemStat reads one itemStat over the holdings: from worn, carried or all items,
// narrowed by slot, category and tag, picking a sum (value times count), the highest or
// lowest single value, or a count (of every item, or of those giving the stat). ok is
// false when nothing is picked or nothing picked gives the stat: the reference then
// reads its default.
func (h *Holdings) ItemStat(s *ruleset.ItemStat) (float64, bool) {
	var x float64
	ok := false
	h.each(func(it *held) {
		if !it.from(s.From) || !h.narrowed(it, s) {
			return
		}
		qty := float64(it.e.Qty)
		if s.Stat == "" {
			if s.Pick == "count" {
				x, ok = x+qty, true
			}
			return
		}
		val, gives := h.stat(it, s.Stat)
		v, isNum := number(val)
		switch {
		case !gives:
			return
		case s.Pick == "count":
			x += qty
		case !isNum:
			return
		case s.Pick == "sum":
			x += v * qty
		case !ok:
			x = v
		case s.Pick == "max":
			x = math.Max(x, v)
		case s.Pick == "min":
			x = math.Min(x, v)
		}
		ok = true
	})
	return x, ok
}

func (it *held) from(from string) bool {
	switch from {
	case "worn":
		return it.worn
	case "carried":
		return !it.worn
	}
	return true
}

// narrowed reports whether an item passes an itemStat's slot, category and tag.
func (h *Holdings) narrowed(it *held, s *ruleset.ItemStat) bool {
	if s.Slot != "" && !it.takes(h.c, s.Slot) {
		return false
	}
	if s.Category != "" && it.now.Item.Type != s.Category {
		return false
	}
	return s.Tag == "" || it.tagged(s.Tag)
}

// takes reports whether the item takes a slot: by the ruleset's slots when it is one of
// its items (it may take several), else by where it equips.
func (it *held) takes(c *Campaign, slot string) bool {
	if it.rule != nil && len(it.rule.Slots) > 0 {
		return it.rule.Slots[slot] > 0
	}
	p, ok := c.SlotFor(it.e)
	return ok && p.Slot.Key == slot
}

func (it *held) tagged(tag string) bool {
	v, _ := it.now.Field("tags")
	switch ts := v.(type) {
	case []string:
		return slices.Contains(ts, tag)
	case []any:
		for _, t := range ts {
			if t == tag {
				return true
			}
		}
	}
	return false
}

// stat is an item's value for a stat as it is now, and whether the item gives it: the
// carry stat is the item's weight (the bridge made it so), every other its field (an
// empty one gives nothing).
func (h *Holdings) stat(it *held, id string) (any, bool) {
	if id == h.weightStat {
		listed := false
		if it.rule != nil {
			_, listed = it.rule.Stats[id]
		}
		return it.now.Weight, listed || it.now.Weight != 0
	}
	v, _ := it.now.Field(id)
	return v, v != nil && v != ""
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// ItemAbilities is what the worn and carried items do to ability scores (an item's
// worn abilities while it is worn, its carried ones while it is only carried), each item
// once however many stacks of it are held. The sheet applies it before it is worked out.
func (h *Holdings) ItemAbilities() map[string]sheet.AbilityChange {
	var out map[string]sheet.AbilityChange
	h.effects(func(it *held, eff *ruleset.ItemEffect) {
		for id, ch := range eff.AbilityChanges {
			if out == nil {
				out = map[string]sheet.AbilityChange{}
			}
			a := out[id]
			if ch.Add != nil {
				a.Add += float64(*ch.Add)
			}
			if ch.Set != nil && (!a.HasSet || float64(*ch.Set) > a.Set) {
				a.Set, a.HasSet = float64(*ch.Set), true
			}
			out[id] = a
		}
	})
	return out
}

// effects calls f with each held ruleset item's effect in force: worn while it is worn,
// else carried; each once however many stacks of the item are held (one coat worn and
// one packed apply the worn effect and the carried one, once each).
func (h *Holdings) effects(f func(*held, *ruleset.ItemEffect)) {
	type use struct {
		id   string
		worn bool
	}
	seen := map[use]bool{}
	h.each(func(it *held) {
		u := use{it.e.Item.ID, it.worn}
		if it.rule == nil || seen[u] {
			return
		}
		eff := it.rule.Carried
		if it.worn {
			eff = it.rule.Worn
		}
		if eff == nil {
			return
		}
		seen[u] = true
		f(it, eff)
	})
}

// CheckItems is what the held items do to a check outside a fight, for check.Request's
// Items: each item's worn effects while it is worn, its carried ones while it is only
// carried, and, while it is worn, the otherwise of every requirement the wearer falls
// short of, each named for its stack. v is the wearer's sheet as these holdings leave
// it (sheet.Evaluate with h), so a requirement reads an ability as items changed it
// (nil: every value reads 0, so every requirement falls short).
func (h *Holdings) CheckItems(v *sheet.Values) []check.ItemEffects {
	var out []check.ItemEffects
	add := func(name string, e *ruleset.ItemEffect) {
		fe := &fight.Effects{Effects: e.Effects, Modifiers: e.Modifiers, FailsSaves: e.FailsSaves, Saves: e.Saves, Skills: e.Skills}
		out = append(out, check.ItemEffects{From: name, Effects: fe})
	}
	h.effects(func(it *held, e *ruleset.ItemEffect) { add(it.now.Name, e) })
	seen := map[string]bool{}
	h.each(func(it *held) {
		if it.rule == nil || !it.worn || seen[it.e.Item.ID] {
			return
		}
		seen[it.e.Item.ID] = true
		for i := range it.rule.Requires {
			r := &it.rule.Requires[i]
			if v == nil || v.Ref(&r.Value) < r.AtLeast {
				add(it.now.Name, &r.Otherwise)
			}
		}
	})
	return out
}

// bindingMax is the character's Local value the bound state's limit reads.
const bindingMax = "bindingMax"

// BindingMax is the character's Local value bindingMax, which the bound state's limit
// reads (FromRuleset): the items block's binding.max read off their sheet v. Pass it as
// the local reader of SetState and Limits; false when the ruleset has no binding.
func BindingMax(rs *ruleset.Ruleset, v *sheet.Values) func(name string) (float64, bool) {
	return func(name string) (float64, bool) {
		if !ReadsBinding(rs, name) || v == nil {
			return 0, false
		}
		return math.Floor(v.Ref(&rs.Items.Binding.Max)), true
	}
}

// ReadsBinding reports whether name is the Local value BindingMax reads off a sheet of
// rs, so a caller can tell before working a sheet out that there is nothing to read.
func ReadsBinding(rs *ruleset.Ruleset, name string) bool {
	return name == bindingMax && rs.Items != nil && rs.Items.Binding != nil
}

// Encumbrance is what the character's load means, read against the items block's carry
// numbers off their sheet v (encumberedAbove and limit); p is their purse, whose coins
// weigh by perWeight. Without carry, weight means nothing: never encumbered.
func (h *Holdings) Encumbrance(v *sheet.Values, p Purse) Encumbrance {
	load := h.c.Carried(h.inv, p)
	it := h.rs.Items
	if it == nil || it.Carry == nil || v == nil {
		return Encumbrance{Carried: load.Carried, Above: math.Inf(1)}
	}
	var limit *float64
	if it.Carry.Limit != nil {
		x := v.Ref(it.Carry.Limit)
		limit = &x
	}
	return Encumber(load.Carried, v.Ref(&it.Carry.EncumberedAbove), limit)
}
