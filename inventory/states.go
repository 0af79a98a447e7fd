package inventory

import (
	"strconv"
	"strings"

	"sheetkeeper/refusal"
)

// CanHave reports whether an entry can have a state at all: a state that requires a
// feature needs the item to have it (or a layer for the state), and one that requires a
// property needs a property starting with it.
func (c *Campaign) CanHave(e *Entry, st *State) bool {
	cur := c.Now(e)
	if st.Requires != "" && c.System.layerFor(e.Item, cur.Template, st.Key) == nil && !cur.Has(st.Requires) {
		return false
	}
	return st.RequiresProperty == "" || cur.HasProperty(st.RequiresProperty)
}

// Limit returns how many of a character's items may have a state on: the character's
// Local value the limit names (local reads it; false when unset), else the limit's
// default. ok is false when the state has no limit.
func (c *Campaign) Limit(st *State, local func(name string) (float64, bool)) (n int64, ok bool) {
	l := st.Limit
	if l == nil {
		return 0, false
	}
	name := l.Value
	if name == "" {
		name = strings.TrimPrefix(l.GMValue, "gm_")
	}
	if name != "" && local != nil {
		if v, set := local(name); set {
			return int64(v), true
		}
	}
	if l.Default == nil {
		return 0, false
	}
	return int64(*l.Default), true
}

// LimitText is what a player reads at a state's limit.
func LimitText(st *State, limit int64) string {
	n := strconv.FormatInt(limit, 10)
	if st.Limit != nil && st.Limit.Text != "" {
		return strings.ReplaceAll(st.Limit.Text, "{limit}", n)
	}
	return "At most " + n + " can be " + strings.ToLower(st.Label)
}

// StateChange is a request to switch one state of an entry.
type StateChange struct {
	Key string
	On  bool
	// GM: the GM asks, overriding the player's choice; Clear (GM only) drops the
	// override, giving the state back to the player.
	GM    bool
	Clear bool
}

// SetState switches a state of entry e in a character's inventory inv, checking it as
// Pack Rat does: the state must exist and the item be able to have it; a player may
// switch only "player" states not locked by a layer that is on; switching on past the
// state's limit is refused in "block" mode and allowed with a warning in "warn" mode.
// The GM can always override: the GM's On or Off wins over the player's own choice until
// the GM clears it (Pack Rat's entryStates). Where Pack Rat records a player's change
// under the GM's override, to show only once the override is cleared, a player's change
// to a state the GM has set is refused here (locked), so the player learns why nothing
// changed. It returns the warning, if any; on a refusal e is unchanged.
func (c *Campaign) SetState(inv []*Entry, e *Entry, ch StateChange, local func(string) (float64, bool)) (warning string, err error) {
	st := c.State(ch.Key)
	if st == nil {
		return "", refusal.New(refusal.UnknownState, "the system has no state %q", ch.Key)
	}
	if ch.GM && ch.Clear {
		delete(e.GM, ch.Key)
		return "", nil
	}
	if ch.On && !c.CanHave(e, st) {
		return "", refusal.New(refusal.NotAllowed, "%s cannot be %s", c.Now(e).Name, strings.ToLower(st.Label))
	}
	if !ch.GM {
		if st.Who == "gm" {
			return "", refusal.New(refusal.NotGM, "only the GM switches %s", strings.ToLower(st.Label))
		}
		if cur := c.Now(e); cur.Locks(st.Key) {
			return "", refusal.New(refusal.Locked, "%s is locked: only the GM can change it", strings.ToLower(st.Label))
		}
		if _, overridden := e.GM[st.Key]; overridden {
			return "", refusal.New(refusal.Locked, "the GM has set %s", strings.ToLower(st.Label))
		}
	}
	if ch.On && !e.On(st.Key) {
		if limit, ok := c.Limit(st, local); ok {
			count := int64(0)
			for _, x := range inv {
				if x != e && x.On(st.Key) {
					count++
				}
			}
			if count+1 > limit {
				text := LimitText(st, limit)
				if st.Limit.Mode == "block" && !ch.GM {
					return "", refusal.New(refusal.Limit, "%s", text)
				}
				warning = text
			}
		}
	}
	if ch.On && !ch.GM {
		if full := c.stateFits(inv, e, st.Key); full != nil {
			return "", refusal.New(refusal.NoSlot, "%s is full: take something out first", full.Slot.Label)
		}
	}
	if ch.GM {
		if e.GM == nil {
			e.GM = map[string]bool{}
		}
		e.GM[st.Key] = ch.On
		return warning, nil
	}
	if ch.On {
		if e.Own == nil {
			e.Own = map[string]bool{}
		}
		e.Own[st.Key] = true
	} else {
		delete(e.Own, st.Key)
	}
	return warning, nil
}
