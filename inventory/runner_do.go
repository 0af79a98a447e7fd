package inventory

import (
	"strings"
)

// read gives an address's number for entry e: 1 or 0 for yes/no, 0 for what is unset.
func (r *Runner) read(w *World, e *Entry, addr string) (float64, bool) {
	c := r.c
	switch addr {
	case "item.charges":
		return float64(e.Charges), true
	case "item.qty":
		return float64(e.Qty), true
	case "item.equipped":
		return b2f(e.Equipped), true
	case "item.fill":
		return e.Fill, true
	case "item.worth":
		return float64(c.EntryWorth(e)), true
	case "item.weight":
		return c.EntryWeight(e), true
	case "char.carried":
		return c.Carried(w.Inv, w.Purse).Carried, true
	}
	prefix, name, _ := strings.Cut(addr, ".")
	if prefix == "char" || prefix == "item" {
		var sub string
		sub, name, _ = strings.Cut(name, ".")
		prefix += "." + sub
	}
	switch prefix {
	case "item.state":
		return b2f(e.On(name)), true
	case "char.count":
		n := 0
		for _, x := range w.Inv {
			if x.On(name) {
				n++
			}
		}
		return float64(n), true
	case "char.limit":
		if st := c.State(name); st != nil {
			n, ok := c.Limit(st, func(k string) (float64, bool) { v, ok := w.Locals[k]; return v, ok })
			return float64(n), ok
		}
	case "char.stat":
		v, ok := w.Stats[name].(float64)
		return v, ok
	case "local":
		if v, ok := w.ItemLocals[e.UID][name]; ok {
			return v, true
		}
		v, ok := w.Locals[name]
		return v, ok
	case "char.local":
		v, ok := w.Locals[name]
		return v, ok
	case "global":
		v, ok := w.Globals[name]
		return v, ok
	}
	return 0, false
}

// do carries out a rule's actions, returning its messages.
func (r *Runner) do(w *World, e *Entry, rule Rule) ([]string, error) {
	var msgs []string
	for _, a := range rule.Do {
		switch {
		case a.Set != "":
			v, err := r.operand(w, e, a.Set, a.To)
			if err != nil {
				return msgs, err
			}
			r.write(w, e, a.Set, func(float64) float64 { return v })
		case a.Add != "":
			v, err := r.operand(w, e, a.Add, a.By)
			if err != nil {
				return msgs, err
			}
			r.write(w, e, a.Add, func(old float64) float64 { return old + v })
		case a.Change != "":
			name := strings.TrimPrefix(a.Change, "local.")
			r.changes[r.localKey(w, e, name)] = change{rate: a.Rate, until: a.Until}
		case a.Message != "":
			msgs = append(msgs, a.Message)
		}
	}
	if rule.Message != "" {
		msgs = append(msgs, rule.Message)
	}
	return msgs, nil
}

// write sets what an action addresses: a state (on when not 0), charges (within 0 and
// the most), or a Local value. The file's checks keep Global values out.
func (r *Runner) write(w *World, e *Entry, addr string, f func(old float64) float64) {
	old, _ := r.read(w, e, addr)
	v := f(old)
	switch {
	case strings.HasPrefix(addr, "item.state."):
		key := strings.TrimPrefix(addr, "item.state.")
		if e.Own == nil {
			e.Own = map[string]bool{}
		}
		if v != 0 {
			e.Own[key] = true
		} else {
			delete(e.Own, key)
		}
	case addr == "item.charges":
		e.Charges = min(max(int64(v), 0), max(r.c.MaxCharges(e), 0))
	case strings.HasPrefix(addr, "char.local."):
		r.setLocal(w, "", strings.TrimPrefix(addr, "char.local."), v)
	case strings.HasPrefix(addr, "local."):
		name := strings.TrimPrefix(addr, "local.")
		uid, _, _ := strings.Cut(r.localKey(w, e, name), "/")
		r.setLocal(w, uid, name, v)
	}
}

// localKey names the Local value local.<name> means for e: the item's own when it has
// one, else its character's ("/name").
func (r *Runner) localKey(w *World, e *Entry, name string) string {
	if _, ok := w.ItemLocals[e.UID][name]; ok {
		return e.UID + "/" + name
	}
	return "/" + name
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
