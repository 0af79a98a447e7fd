package inventory

import (
	"fmt"
	"math"
	"strings"
)

// read gives an address's number for entry e: 1 or 0 for yes/no; not ok for what does
// not apply (the charges of an item without charges) or is not set.
func (r *Runner) read(w *World, e *Entry, addr string) (float64, bool) {
	c := r.c
	switch addr {
	case "item.charges":
		return float64(e.Charges), c.MaxCharges(e) > 0
	case "item.qty":
		return float64(e.Qty), true
	case "item.equipped":
		return b2f(e.Equipped), true
	case "item.fill":
		return r.fill(w, e)
	case "item.worth":
		return float64(c.EntryWorth(e)), true
	case "item.weight":
		return c.EntryWeight(e), true
	case "char.carried":
		return c.Carried(w.Inv, w.Purse).Carried, true
	}
	prefix, name := splitAddress(addr)
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

// fill is how full a container is, 0 to 1 (Pack Rat's item.fill): what it holds of its
// holdLimit, else of its capacityLb by weight, else a liquid's pints of its
// liquidPints; not ok for what is no container.
func (r *Runner) fill(w *World, e *Entry) (float64, bool) {
	cur := r.c.Now(e)
	field := func(key string) float64 { v, _ := cur.Field(key); n, _ := v.(float64); return n }
	if cur.Has("holds") {
		if n := field("holdLimit"); n > 0 {
			var count int64
			for _, x := range w.Inv {
				if x.Parent == e.UID {
					count += x.Qty
				}
			}
			return float64(count) / n, true
		}
		if lb := field("capacityLb"); lb > 0 {
			return r.c.contentWeight(w.Inv, e, 0) / lb, true
		}
	}
	if pints := field("liquidPints"); cur.Has("liquid") && pints > 0 {
		return e.Fill / pints, true
	}
	return 0, false
}

// splitAddress cuts an address into its kind ("item.state", "local", "global"…) and
// the name after it.
func splitAddress(addr string) (prefix, name string) {
	prefix, name, _ = strings.Cut(addr, ".")
	if prefix == "char" || prefix == "item" {
		var sub string
		sub, name, _ = strings.Cut(name, ".")
		prefix += "." + sub
	}
	return prefix, name
}

// value is what a rule reads at an address: as read, or for a Global or Local value not
// set, the system's default for it, else 0 (Pack Rat's ruleRead).
func (r *Runner) value(w *World, e *Entry, addr string) (float64, bool) {
	if v, ok := r.read(w, e, addr); ok {
		return v, true
	}
	switch prefix, name := splitAddress(addr); prefix {
	case "global", "local", "char.local":
		if d := r.declared(name); d != nil && d.Default != nil {
			return *d.Default, true
		}
		return 0, true
	}
	return 0, false
}

// declared is the system's declaration of the Global or Local value name, or nil.
func (r *Runner) declared(name string) *Value {
	for i := range r.c.System.Values {
		if r.c.System.Values[i].Name == name {
			return &r.c.System.Values[i]
		}
	}
	return nil
}

// all reports whether every condition holds. A condition on what does not apply, or
// against what is no number (a formula dividing by zero), does not hold.
func (r *Runner) all(w *World, e *Entry, conds []Condition) (bool, error) {
	for _, cd := range conds {
		ok, err := r.holds(w, e, cd)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// equalWithin is how close two numbers are to be equal (Pack Rat's 1e-9), so 0.1+0.2
// reaches 0.3.
const equalWithin = 1e-9

func (r *Runner) holds(w *World, e *Entry, cd Condition) (bool, error) {
	v, ok := r.value(w, e, cd.Value)
	if !ok {
		return false, nil
	}
	to, err := r.operand(w, e, cd.Value, cd.To)
	if err != nil || math.IsNaN(to) {
		return false, err
	}
	switch cd.Op {
	case "=":
		return math.Abs(v-to) < equalWithin, nil
	case "!=":
		return math.Abs(v-to) >= equalWithin, nil
	case "<":
		return v < to, nil
	case "<=":
		return v <= to, nil
	case ">":
		return v > to, nil
	case ">=":
		return v >= to, nil
	case "between":
		to2, err := r.operand(w, e, cd.Value, cd.To2)
		if err != nil || math.IsNaN(to2) {
			return false, err
		}
		return v >= min(to, to2) && v <= max(to, to2), nil
	}
	return false, nil
}

// operand is a condition's or action's value for the value at addr: a number, on/off
// (yes/no, true/false, any case), one of the addressed Global or Local value's choices
// by name, or a formula. What is no number (a formula's ±Inf) is NaN; a formula that
// does not read is an error of the parser's kind.
func (r *Runner) operand(w *World, e *Entry, addr string, v any) (float64, error) {
	switch v := v.(type) {
	case float64:
		return v, nil
	case bool:
		return b2f(v), nil
	case string:
		s := strings.TrimSpace(v)
		switch strings.ToLower(s) {
		case "on", "yes", "true":
			return 1, nil
		case "off", "no", "false":
			return 0, nil
		}
		if i := r.choice(addr, s); i >= 0 {
			return float64(i), nil
		}
		if r.eval == nil {
			return 0, fmt.Errorf("the formula %q needs a formula evaluator", s)
		}
		x, err := r.eval(s, func(a string) (float64, bool) { return r.formulaRead(w, e, a) })
		if err != nil || math.IsInf(x, 0) {
			return math.NaN(), err
		}
		return x, nil
	}
	return math.NaN(), nil
}

// formulaRead is an address's number in a formula: as read, a declared value's default
// when unset; anything else unset stays unknown (the parser's error, not a guessed 0).
func (r *Runner) formulaRead(w *World, e *Entry, addr string) (float64, bool) {
	if v, ok := r.read(w, e, addr); ok {
		return v, true
	}
	prefix, name := splitAddress(addr)
	if d := r.declared(name); d != nil && d.Default != nil && (prefix == "global" || prefix == "local" || prefix == "char.local") {
		return *d.Default, true
	}
	return 0, false
}

// choice is the place of a choice name among a Global or Local value's declared
// choices, or -1 (other addresses have no choices).
func (r *Runner) choice(addr, name string) int {
	prefix, n := splitAddress(addr)
	if prefix != "global" && prefix != "local" && prefix != "char.local" {
		return -1
	}
	if d := r.declared(n); d != nil {
		for i, ch := range d.Choices {
			if strings.EqualFold(ch, name) {
				return i
			}
		}
	}
	return -1
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
