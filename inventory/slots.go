package inventory

import (
	"slices"
	"strings"
	"unicode"

	"sheetkeeper/refusal"
)

// Placement is where an equipped item goes: a slot, and how many of its places it takes.
type Placement struct {
	Slot *Slot
	Size int
}

// SlotFor returns where an entry goes when equipped, its item as it is now (a layer may
// move it): the slot it names itself (with its own slotSize), else the first slot with a rule it matches, a rule with a state counting
// only while that state is on. false: it takes no slot ("none", no rule matches, or the
// system has no slots), so it equips freely.
func (c *Campaign) SlotFor(e *Entry) (Placement, bool) {
	return c.slotFor(e, "")
}

// slotFor is SlotFor with one state taken as off (without: "" for none), to ask whether
// switching that state off would make an item take less room.
func (c *Campaign) slotFor(e *Entry, without string) (Placement, bool) {
	cur := c.Now(e)
	if cur.Slot == "none" {
		return Placement{}, false
	}
	for i := range c.System.Slots {
		s := &c.System.Slots[i]
		if cur.Slot != "" {
			if cur.Slot == s.Key {
				return Placement{Slot: s, Size: max(1, cur.SlotSize)}, true
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
// gives, as Pack Rat's ruleMatches (store.js) has it for a container's rules and a slot's
// alike: the catalog item (one of the ids), a group or a template (the item's or one it
// is under; for a template, also the system template a player's copy started from), a
// category (one of them), a feature, a property (one starting with it) and a name (any
// of the words, as a whole word, in any case).
func (c *Campaign) ruleMatches(r *SlotRule, e *Entry, cur *Current) bool {
	if ids, _ := oneOrList(r.Item); len(ids) > 0 && !slices.Contains(ids, e.Item.ID) {
		return false
	}
	if r.Group != "" && !c.inTemplate(cur.Template, c.System.TemplateAlias(r.Group)) {
		return false
	}
	if r.Template != "" && !c.inTemplate(cur.Template, c.System.TemplateAlias(r.Template)) && c.rootID(cur.Template) != r.Template {
		return false
	}
	if cats, _ := oneOrList(r.Category); len(cats) > 0 && !slices.Contains(cats, cur.Category) {
		return false
	}
	if r.Feature != "" && !cur.Has(r.Feature) {
		return false
	}
	if r.Property != "" && !cur.HasProperty(r.Property) {
		return false
	}
	return r.Name == "" || nameHasWord(cur.Name, r.Name)
}

// inTemplate reports whether template t is the template id or under it.
func (c *Campaign) inTemplate(t *Template, id string) bool {
	for x := range c.System.lineage(t) {
		if x.ID == id {
			return true
		}
	}
	return false
}

// rootID is the id of the system template a template descends from: itself when it is
// the system's, else the one a player's copy started as (its From, followed at most ten
// steps, as Pack Rat's rootTemplate), else its own.
func (c *Campaign) rootID(t *Template) string {
	for x, n := t, 0; x != nil && n < 10; n++ {
		if c.System.index.templates[x.ID] == x {
			return x.ID
		}
		if y := c.templates[x.From]; y != nil {
			x = y
		} else {
			x = c.System.resolveTemplate(x.From)
		}
	}
	if t == nil {
		return ""
	}
	return t.ID
}

// nameHasWord reports whether name has one of words (split at spaces and commas) as a
// whole word, an "s" after it allowed, in any case: Pack Rat's nameWords, whose pattern
// is \b(w1|w2…)s?\b. A word boundary is where a word character (an ASCII letter, digit
// or underscore) meets anything else, as in JavaScript's \b.
func nameHasWord(name, words string) bool {
	name = strings.ToLower(name)
	for _, w := range strings.FieldsFunc(strings.ToLower(words), func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		for from := 0; from <= len(name)-len(w); {
			i := strings.Index(name[from:], w)
			if i < 0 {
				break
			}
			p := from + i
			end := p + len(w)
			if boundary(name, p) && (end < len(name) && name[end] == 's' && boundary(name, end+1) || boundary(name, end)) {
				return true
			}
			from = p + 1
		}
	}
	return false
}

// boundary reports whether position i of s is a word boundary.
func boundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
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
