package inventory

import (
	"slices"
	"strings"

	"sheetkeeper/refusal"
)

// Placement is where an equipped item goes: a slot, and how many of its places it takes.
type Placement struct {
	Slot *Slot
	Size int
}

// SlotFor returns where an entry goes when equipped: the slot it names itself (with its
// own slotSize), else the first slot with a rule it matches, a rule with a state counting
// only while that state is on. false: it takes no slot ("none", no rule matches, or the
// system has no slots), so it equips freely.
func (c *Campaign) SlotFor(e *Entry) (Placement, bool) {
	return c.slotFor(e, "")
}

// slotFor is SlotFor with one state taken as off (without: "" for none), to ask whether
// switching that state off would make an item take less room.
func (c *Campaign) slotFor(e *Entry, without string) (Placement, bool) {
	it := e.Item
	if it.Slot == "none" {
		return Placement{}, false
	}
	cur := c.Now(e)
	for i := range c.System.Slots {
		s := &c.System.Slots[i]
		if it.Slot != "" {
			if it.Slot == s.Key {
				return Placement{Slot: s, Size: max(1, it.SlotSize)}, true
			}
			continue
		}
		for _, r := range s.Rules {
			if r.State != "" && (r.State == without || !e.On(r.State)) {
				continue
			}
			if c.ruleMatches(&r, e, &cur) {
				return Placement{Slot: s, Size: max(1, r.Size)}, true
			}
		}
	}
	return Placement{}, false
}

// ruleMatches reports whether an item (as it is now) matches every criterion a rule
// gives, as a container's rules do: the catalog item, a template (or one under it), a
// category, a feature, a property (starting with it) and a name (containing it, in any
// case).
func (c *Campaign) ruleMatches(r *SlotRule, e *Entry, cur *Current) bool {
	if r.Item != "" && e.Item.ID != r.Item {
		return false
	}
	if r.Template != "" {
		want, in := c.System.resolveTemplate(r.Template), false
		for t := range c.System.lineage(cur.Template) {
			in = in || t == want || want == nil && t.ID == r.Template
		}
		if !in {
			return false
		}
	}
	if cats, _ := categories(r.Category); len(cats) > 0 && !slices.Contains(cats, cur.Category) {
		return false
	}
	if r.Feature != "" && !cur.Has(r.Feature) {
		return false
	}
	if r.Property != "" && !cur.HasProperty(r.Property) {
		return false
	}
	return r.Name == "" || strings.Contains(strings.ToLower(cur.Name), strings.ToLower(r.Name))
}

// Full is the answer to equipping into a full slot: what could come out to make room,
// and which states make something in it take more room than it would without them.
type Full struct {
	Slot *Slot
	// Need places are wanted; Free are left.
	Need, Free int
	// Holders are the equipped entries in the slot: taking one out makes room.
	Holders []*Entry
	// Shrink: switching State off would make Entry take less room.
	Shrink []StateOff
}

// StateOff names an entry and a state of it.
type StateOff struct {
	Entry *Entry
	State string
}

// Equip equips entry e of a character's inventory inv. An item that cannot be equipped
// (no equippable feature, nor one of the system's features with an equip) is refused;
// one that goes in a slot without room answers Full, changing nothing, so the player can
// choose what to take out. Without slots, anything equippable is equipped.
func (c *Campaign) Equip(inv []*Entry, e *Entry) (*Full, error) {
	if !c.Equippable(e) {
		return nil, refusal.New(refusal.NotAllowed, "%s cannot be equipped", c.Now(e).Name)
	}
	if e.Equipped {
		return nil, nil
	}
	if full := c.room(inv, e, e); full != nil {
		return full, nil
	}
	e.Equipped = true
	return nil, nil
}

// Equippable reports whether an entry can be equipped at all.
func (c *Campaign) Equippable(e *Entry) bool {
	cur := c.Now(e)
	if cur.Has("equippable") {
		return true
	}
	for i := range c.System.Features {
		if f := &c.System.Features[i]; f.Equip != "" && cur.Has(f.Key) {
			return true
		}
	}
	return false
}

// room returns nil when e fits where it goes, else what fills the slot; skip (e, or the
// entry e stands for) is not counted among what is already there.
func (c *Campaign) room(inv []*Entry, e, skip *Entry) *Full {
	p, ok := c.SlotFor(e)
	if !ok {
		return nil
	}
	used := 0
	var holders []*Entry
	for _, x := range inv {
		if x == e || x == skip || !x.Equipped {
			continue
		}
		if xp, ok := c.SlotFor(x); ok && xp.Slot == p.Slot {
			used += xp.Size
			holders = append(holders, x)
		}
	}
	free := p.Slot.Count - used
	if p.Size <= free {
		return nil
	}
	full := &Full{Slot: p.Slot, Need: p.Size, Free: max(free, 0), Holders: holders}
	for _, h := range holders {
		for _, st := range c.States {
			if !h.On(st.Key) {
				continue
			}
			if without, ok := c.slotFor(h, st.Key); !ok || without.Slot != p.Slot || without.Size < c.sizeIn(h, p.Slot) {
				full.Shrink = append(full.Shrink, StateOff{Entry: h, State: st.Key})
			}
		}
	}
	return full
}

func (c *Campaign) sizeIn(e *Entry, s *Slot) int {
	if p, ok := c.SlotFor(e); ok && p.Slot == s {
		return p.Size
	}
	return 0
}

// stateFits reports what fills the slot if an equipped entry's state were switched on
// (a Versatile weapon taken two-handed beside a shield), or nil when it still fits.
func (c *Campaign) stateFits(inv []*Entry, e *Entry, key string) *Full {
	if !e.Equipped {
		return nil
	}
	tmp := *e
	tmp.Own = map[string]bool{key: true}
	for k, v := range e.Own {
		tmp.Own[k] = v || k == key
	}
	tmp.GM = nil
	for k, v := range e.GM {
		if k != key {
			if tmp.GM == nil {
				tmp.GM = map[string]bool{}
			}
			tmp.GM[k] = v
		}
	}
	return c.room(inv, &tmp, e)
}

// Unequip takes an entry out of its slot; it reports whether it was equipped (the
// caller then runs the unequipped rules).
func (c *Campaign) Unequip(e *Entry) bool {
	was := e.Equipped
	e.Equipped = false
	return was
}
