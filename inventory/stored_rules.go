package inventory

import (
	"maps"
	"math"
	"slices"
	"time"

	"sheetkeeper/internal/jsonappend"
	"sheetkeeper/strictjson"
)

// What rules leave behind is kept with the holdings it belongs to (Stored.Rules): the
// character's Local values, the values still moving, what becomes rules last saw, and
// when all that was as of — so rules survive a restart, and a value moving while the bot
// was down is caught up from At. A tag changing the holdings keeps it as it was (Keep
// writes back what Restore read); only a rules run changes it (Held.KeepWorld). It is
// not part of a reply's change (DiffStored): undoing a tag puts back the entries, not
// the rules' clock.

// StoredRules is the rules' part of a character's World as the store keeps it.
type StoredRules struct {
	// At is when the values were as of, RFC 3339 with nanoseconds.
	At     string             `json:"at"`
	Locals map[string]float64 `json:"locals,omitempty"`
	Moving map[string]Moving  `json:"moving,omitempty"`
	// Seen are the World.Seen keys whose conditions held and Off those whose did not,
	// each a list, sorted: a key in neither was never seen, and a becomes rule never
	// seen takes its conditions as they stand (Runner).
	Seen []string `json:"seen,omitempty" maxItems:"20000"`
	Off  []string `json:"off,omitempty" maxItems:"20000"`
	// Had and Worn are the uids of the entries held and of those equipped when rules
	// last ran, so the next run knows what was acquired, equipped or unequipped since
	// (Held.Events), whichever way it changed: a tag, a command, a trade, an undo.
	Had  []string `json:"had,omitempty" maxItems:"2000"`
	Worn []string `json:"worn,omitempty" maxItems:"2000"`
}

// checkRules is ParseStored's check of the rules' part: a time that reads, values within
// MaxValue.
func checkRules(r *StoredRules, ps *strictjson.Problems) {
	if _, err := time.Parse(time.RFC3339Nano, r.At); err != nil {
		ps.Add("rules.at", "%q is not a time (RFC 3339)", r.At)
	}
	for name, v := range r.Locals {
		if math.Abs(v) > MaxValue {
			ps.Add(strictjson.Join("rules.locals", name), "%v is past ±%v", v, MaxValue)
		}
	}
	for key, m := range r.Moving {
		if math.Abs(m.Rate) > MaxValue || m.Until != nil && math.Abs(*m.Until) > MaxValue {
			ps.Add(strictjson.Join("rules.moving", key), "a rate or until past ±%v", MaxValue)
		}
	}
}

// World is the world rules run on for these holdings, with when its values were as of
// (zero: rules never ran on them). Its entries and purse are the holdings' own, so what
// rules do to an entry is done to the holdings; its Local values start at the system's
// defaults, its Global values and stats are the system's.
func (c *Campaign) World(h *Held) (*World, time.Time) {
	w := &World{Inv: h.Inv, Purse: h.Purse, Stats: c.System.Stats, Locals: map[string]float64{}, Globals: map[string]float64{}}
	for _, v := range c.System.Values {
		if v.Default == nil {
			continue
		}
		if v.Scope == "global" {
			w.Globals[v.Name] = *v.Default
		} else {
			w.Locals[v.Name] = *v.Default
		}
	}
	r := h.rules
	if r == nil {
		return w, time.Time{}
	}
	maps.Copy(w.Locals, r.Locals)
	w.Moving = maps.Clone(r.Moving)
	w.Seen = make(map[string]bool, len(r.Seen)) // not nil: rules ran before
	for _, k := range r.Seen {
		w.Seen[k] = true
	}
	for _, k := range r.Off {
		w.Seen[k] = false
	}
	at, _ := time.Parse(time.RFC3339Nano, r.At) // ParseStored checked it
	return w, at
}

// KeepWorld records what rules left in w as of at, for Keep to write; w's entries are
// taken as the holdings' (rules change entries, never which there are).
func (h *Held) KeepWorld(w *World, at time.Time) {
	h.Inv = w.Inv
	r := &StoredRules{At: at.UTC().Format(time.RFC3339Nano), Locals: maps.Clone(w.Locals), Moving: maps.Clone(w.Moving)}
	if len(r.Locals) == 0 {
		r.Locals = nil
	}
	if len(r.Moving) == 0 {
		r.Moving = nil
	}
	for k, on := range w.Seen {
		if on {
			r.Seen = append(r.Seen, k)
		} else {
			r.Off = append(r.Off, k)
		}
	}
	slices.Sort(r.Seen)
	slices.Sort(r.Off)
	for _, e := range w.Inv {
		r.Had = append(r.Had, e.UID)
		if e.Equipped {
			r.Worn = append(r.Worn, e.UID)
		}
	}
	h.rules = r
}

// Events is what happened to the entries since rules last ran (KeepWorld): each entry
// not held then was acquired (and, when it is equipped, equipped), each whose equipped
// changed was equipped or unequipped. When rules never ran on these holdings, every
// entry is new to them: rules are kept only for characters with rules (HasRules), so a
// character's first item with rules is acquired then, with whatever came before it.
func (h *Held) Events() []Event {
	r := h.rules
	if r == nil {
		r = &StoredRules{}
	}
	set := func(uids []string) map[string]bool {
		m := make(map[string]bool, len(uids))
		for _, u := range uids {
			m[u] = true
		}
		return m
	}
	hadAll, wornAll := set(r.Had), set(r.Worn)
	var out []Event
	for _, e := range h.Inv {
		had, worn := hadAll[e.UID], wornAll[e.UID]
		if !had {
			out = append(out, Event{Kind: "acquired", UID: e.UID})
		}
		switch {
		case e.Equipped && !worn:
			out = append(out, Event{Kind: "equipped", UID: e.UID})
		case !e.Equipped && worn && had:
			out = append(out, Event{Kind: "unequipped", UID: e.UID})
		}
	}
	return out
}

// clone is a deep copy.
func (r *StoredRules) clone() *StoredRules {
	if r == nil {
		return nil
	}
	return &StoredRules{At: r.At, Locals: maps.Clone(r.Locals), Moving: maps.Clone(r.Moving), Seen: slices.Clone(r.Seen),
		Off: slices.Clone(r.Off), Had: slices.Clone(r.Had), Worn: slices.Clone(r.Worn)}
}

// appendJSON appends json.Marshal(r).
func (r *StoredRules) appendJSON(out []byte) ([]byte, error) {
	out = jsonappend.String(append(out, `{"at":`...), r.At)
	var err error
	if len(r.Locals) > 0 {
		if out, err = jsonappend.Map(append(out, `,"locals":`...), r.Locals, false, jsonappend.Float); err != nil {
			return out, err
		}
	}
	if len(r.Moving) > 0 {
		if out, err = jsonappend.Map(append(out, `,"moving":`...), r.Moving, false, appendMoving); err != nil {
			return out, err
		}
	}
	if len(r.Seen) > 0 {
		out = jsonappend.Strings(append(out, `,"seen":`...), r.Seen)
	}
	if len(r.Off) > 0 {
		out = jsonappend.Strings(append(out, `,"off":`...), r.Off)
	}
	if len(r.Had) > 0 {
		out = jsonappend.Strings(append(out, `,"had":`...), r.Had)
	}
	if len(r.Worn) > 0 {
		out = jsonappend.Strings(append(out, `,"worn":`...), r.Worn)
	}
	return append(out, '}'), nil
}

func appendMoving(out []byte, m Moving) ([]byte, error) {
	out, err := jsonappend.Float(append(out, `{"rate":`...), m.Rate)
	if err != nil {
		return out, err
	}
	if m.Until != nil {
		if out, err = jsonappend.Float(append(out, `,"until":`...), *m.Until); err != nil {
			return out, err
		}
	}
	return append(out, '}'), nil
}

// HasRules reports whether any of the entries has a rule (its item's or its template
// lineage's): a character without is not run, and nothing of rules is kept for it.
func (c *Campaign) HasRules(inv []*Entry) bool {
	r := c.NewRunner(nil)
	for _, e := range inv {
		if len(r.rulesOf(e)) > 0 {
			return true
		}
	}
	return false
}

// MayNeedRules reports whether stored holdings (nil: none) could need a rules run,
// without their system: only holdings that hold something, or that rules ran on before,
// can (StoredNeedsRules says whether they do).
func (st *Stored) MayNeedRules() bool { return st != nil && (st.Rules != nil || len(st.Items) > 0) }

// StoredNeedsRules reports, without restoring them, whether stored holdings need a
// rules run: rules ran on them before (values may be moving), or an entry's catalog item
// has rules, or an entry embeds its own item (which may). Most holdings of most systems
// have none, and a run after every tag would otherwise cost a write.
func (c *Campaign) StoredNeedsRules(st *Stored) bool {
	if !st.MayNeedRules() {
		return false
	}
	if st.Rules != nil {
		return true
	}
	// Without a rule in the system's templates and catalog, or the players' own
	// templates, only an embedded item can bring one.
	catalog := c.System.index.ruled || len(c.templates) > 0
	for i := range st.Items {
		se := &st.Items[i]
		if se.Item != nil {
			return true
		}
		if !catalog {
			continue
		}
		if it := c.System.CatalogItem(se.ID); it != nil && c.hasRules(it) {
			return true
		}
	}
	return false
}

// hasRules reports whether an item has rules (Runner.rulesOf is not empty) without
// gathering them: StoredNeedsRules asks it of every entry after every message.
func (c *Campaign) hasRules(it *Item) bool {
	if len(it.Rules) > 0 {
		return true
	}
	for t := range c.System.lineage(c.itemTemplate(it)) {
		if len(t.Rules) > 0 {
			return true
		}
	}
	return false
}
