package inventory

import (
	"math"
	"strings"
)

// do carries out a rule's actions, returning its messages. An action whose value is no
// number (NaN) does nothing, as Pack Rat skips a value it cannot set.
func (r *Runner) do(w *World, e *Entry, rule Rule) ([]string, error) {
	var msgs []string
	for _, a := range rule.Do {
		switch {
		case a.Set != "":
			v, err := r.operand(w, e, a.Set, a.To)
			if err != nil {
				return msgs, err
			}
			if warn := r.overLimit(w, e, a.Set, v); warn != "" {
				msgs = append(msgs, warn)
			}
			r.write(w, e, a.Set, v)
		case a.Add != "":
			v, err := r.operand(w, e, a.Add, a.By)
			if err != nil {
				return msgs, err
			}
			old, _ := r.value(w, e, a.Add)
			r.write(w, e, a.Add, old+v)
		case a.Change != "":
			r.start(w, e, a)
		case a.Message != "":
			msgs = append(msgs, a.Message)
		}
	}
	if rule.Message != "" {
		msgs = append(msgs, rule.Message)
	}
	return msgs, nil
}

// write sets what an action addresses: a state (on when not 0), charges (rounded, within
// 0 and the most; nothing for an item without charges), or a Local value (within its
// declared range and step). Rules never write a Global value, nor the Local value a
// state's limit is kept in: those are the GM's, so such a write does nothing (the file's
// checks refuse the first already).
func (r *Runner) write(w *World, e *Entry, addr string, v float64) {
	if math.IsNaN(v) || math.Abs(v) > MaxValue {
		return
	}
	prefix, name := splitAddress(addr)
	switch {
	case prefix == "item.state":
		if e.Own == nil {
			e.Own = map[string]bool{}
		}
		if v != 0 {
			e.Own[name] = true
		} else {
			delete(e.Own, name)
		}
	case addr == "item.charges":
		if most := r.c.MaxCharges(e); most > 0 {
			e.Charges = min(max(int64(math.Round(v)), 0), most)
		}
	case prefix == "char.local" || prefix == "local":
		if r.limitValue(name) {
			return
		}
		uid, _ := splitLocal(r.localKey(w, e, addr))
		r.setLocal(w, uid, name, r.clamp(name, v, true))
		delete(w.Moving, r.localKey(w, e, addr)) // a value set stops moving, as in Pack Rat
	}
}

// overLimit is the warning for a rule turning a state on past its limit: a rule keeps
// it anyway (only a player is blocked), as in Pack Rat, but the player hears of it.
func (r *Runner) overLimit(w *World, e *Entry, addr string, v float64) string {
	prefix, key := splitAddress(addr)
	if prefix != "item.state" || v == 0 || math.IsNaN(v) || e.On(key) {
		return ""
	}
	st := r.c.State(key)
	if st == nil {
		return ""
	}
	limit, ok := r.c.Limit(st, func(k string) (float64, bool) { v, ok := w.Locals[k]; return v, ok })
	if n, _ := r.read(w, e, "char.count."+key); !ok || int64(n) < limit {
		return ""
	}
	return LimitText(st, limit) + " (keeping it anyway)"
}

// start sets a Local value moving from where it is now: rate a second, stopping at until,
// or at the end of its declared range when it has one.
func (r *Runner) start(w *World, e *Entry, a Action) {
	prefix, name := splitAddress(a.Change)
	if prefix != "local" && prefix != "char.local" || r.limitValue(name) || a.Rate == 0 || math.IsNaN(a.Rate) || math.IsInf(a.Rate, 0) {
		return
	}
	key := r.localKey(w, e, a.Change)
	uid, _ := splitLocal(key)
	now, _ := r.value(w, e, a.Change)
	r.setLocal(w, uid, name, now)
	m := Moving{Rate: a.Rate}
	if a.Until != nil {
		u := r.clamp(name, *a.Until, false)
		m.Until = &u
	} else if lo, hi, ok := r.bounds(name); ok {
		end := hi
		if a.Rate < 0 {
			end = lo
		}
		m.Until = &end
	}
	if w.Moving == nil {
		w.Moving = map[string]Moving{}
	}
	w.Moving[key] = m
}

// limitValue reports whether name is the Local value a state's limit is kept in.
func (r *Runner) limitValue(name string) bool {
	for _, st := range r.c.States {
		if l := st.Limit; l != nil && (l.Value == name || strings.TrimPrefix(l.GMValue, "gm_") == name) {
			return true
		}
	}
	return false
}

// bounds is a declared value's range: its choices' places, or its min and max.
func (r *Runner) bounds(name string) (lo, hi float64, ok bool) {
	d := r.declared(name)
	switch {
	case d == nil:
		return 0, 0, false
	case len(d.Choices) > 0:
		return 0, float64(len(d.Choices) - 1), true
	}
	lo, hi = math.Inf(-1), math.Inf(1)
	if d.Min != nil {
		lo = *d.Min
	}
	if d.Max != nil {
		hi = *d.Max
	}
	return min(lo, hi), max(lo, hi), d.Min != nil || d.Max != nil
}

// clamp keeps v within name's declared range and, when step, on its steps (a choice's
// place is whole).
func (r *Runner) clamp(name string, v float64, step bool) float64 {
	d := r.declared(name)
	if d == nil {
		return v
	}
	lo, hi, _ := r.bounds(name)
	if len(d.Choices) == 0 && d.Min == nil && d.Max == nil {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	v = min(max(v, lo), hi)
	switch {
	case !step:
	case len(d.Choices) > 0:
		v = math.Round(v)
	case d.Step != nil && *d.Step > 0 && !math.IsInf(lo, 0):
		v = lo + math.Round((v-lo) / *d.Step)**d.Step
		v = min(math.Round(v*1e6)/1e6, hi)
	}
	return v
}

// localKey names the Local value an address (local.<name> or char.local.<name>) means
// for e: "uid/name" for the item's own, when it has one, else its character's "/name".
func (r *Runner) localKey(w *World, e *Entry, addr string) string {
	prefix, name := splitAddress(addr)
	if _, ok := w.ItemLocals[e.UID][name]; ok && prefix == "local" {
		return e.UID + "/" + name
	}
	return "/" + name
}

func splitLocal(key string) (uid, name string) {
	uid, name, _ = strings.Cut(key, "/")
	return uid, name
}

func (r *Runner) local(w *World, uid, name string) float64 {
	if uid != "" {
		return w.ItemLocals[uid][name]
	}
	return w.Locals[name]
}

func (r *Runner) setLocal(w *World, uid, name string, v float64) {
	if uid != "" {
		if w.ItemLocals == nil {
			w.ItemLocals = map[string]map[string]float64{}
		}
		if w.ItemLocals[uid] == nil {
			w.ItemLocals[uid] = map[string]float64{}
		}
		w.ItemLocals[uid][name] = v
		return
	}
	if w.Locals == nil {
		w.Locals = map[string]float64{}
	}
	w.Locals[name] = v
}
