package inventory

import (
	"fmt"
	"strings"
)

// World is what rules read and write for one character: the inventory, the purse, the
// character's stats and Local values, each item's own Local values, and the Global
// values (read only: those are the GM's).
type World struct {
	Inv        []*Entry
	Purse      Purse
	Stats      map[string]any
	Locals     map[string]float64
	ItemLocals map[string]map[string]float64 // entry uid → name → value
	Globals    map[string]float64
}

// Eval works out a formula ("local.heat / 10") with read giving each address's number.
// The formula language is the parser's (parser.EvalFormula, and a parser.Formulas
// cache's Eval, have this shape: pass one to NewRunner); the runner takes it as a function so the engine stays one package per
// concern and inventory imports nothing of the parser.
type Eval func(formula string, read func(addr string) (float64, bool)) (float64, error)

// Event is something that happened to an entry: "acquired", "equipped" or "unequipped".
type Event struct {
	Kind string
	UID  string
}

// MaxChain is how many steps a chain of rules (one firing making another's conditions
// true) runs before it stops; MaxFirings how often one rule may fire in one run before
// it is held back (two rules undoing each other).
const (
	MaxChain   = 10
	MaxFirings = 3
)

// Runner runs a campaign's rules for one character: what each becomes rule last saw
// (so it fires once, as its conditions turn true), how long each while rule has held,
// and the Local values moving over time.
type Runner struct {
	c       *Campaign
	eval    Eval
	was     map[ruleAt]bool
	held    map[ruleAt]float64
	changes map[string]change // "uid/name" or "/name" → how it moves
}

// ruleAt is one rule of one entry: its place in the entry's rules (template's first).
type ruleAt struct {
	uid string
	i   int
}

type change struct {
	rate  float64
	until *float64
}

// NewRunner returns a runner of the campaign's rules; eval works out formulas (nil: a
// rule with a formula is an error when it runs).
func (c *Campaign) NewRunner(eval Eval) *Runner {
	return &Runner{c: c, eval: eval, was: map[ruleAt]bool{}, held: map[ruleAt]float64{}, changes: map[string]change{}}
}

// rulesOf is an entry's rules: its template lineage's (top first), then its item's own.
func (r *Runner) rulesOf(e *Entry) []Rule {
	line := r.c.System.Lineage(r.c.itemTemplate(e.Item))
	var out []Rule
	for i := len(line) - 1; i >= 0; i-- {
		out = append(out, line[i].Rules...)
	}
	return append(out, e.Item.Rules...)
}

// After runs the rules after a change: event rules for events, then becomes rules as
// their conditions turn true, step after step until nothing more fires or MaxChain
// steps. It returns the messages for the player.
func (r *Runner) After(w *World, events []Event) ([]string, error) {
	var msgs []string
	fired := map[ruleAt]int{}
	for step := 0; step < MaxChain; step++ {
		firedAny := false
		for _, e := range w.Inv {
			for i, rule := range r.rulesOf(e) {
				at := ruleAt{e.UID, i}
				fire := false
				switch rule.When {
				case "becomes":
					now, err := r.all(w, e, rule.Test)
					if err != nil {
						return msgs, err
					}
					fire, r.was[at] = now && !r.was[at], now
				case "acquired", "equipped", "unequipped":
					fire = step == 0 && hasEvent(events, rule.When, e.UID)
				}
				if !fire || fired[at] >= MaxFirings {
					continue
				}
				if ok, err := r.all(w, e, rule.If); err != nil || !ok {
					if err != nil {
						return msgs, err
					}
					continue
				}
				fired[at]++
				firedAny = true
				m, err := r.do(w, e, rule)
				msgs = append(msgs, m...)
				if err != nil {
					return msgs, err
				}
			}
		}
		if !firedAny {
			break
		}
	}
	return msgs, nil
}

func hasEvent(events []Event, kind, uid string) bool {
	for _, ev := range events {
		if ev.Kind == kind && ev.UID == uid {
			return true
		}
	}
	return false
}

// Tick moves time on by dt seconds: while rules whose conditions hold fire every
// `every` seconds, and Local values moving by a change action move (stopping at their
// until). The caller ticks only campaigns with such rules, at most 4 times a second.
func (r *Runner) Tick(w *World, dt float64) ([]string, error) {
	for key, ch := range r.changes {
		uid, name, _ := strings.Cut(key, "/")
		v := r.local(w, uid, name)
		next := v + ch.rate*dt
		if ch.until != nil && (ch.rate > 0 && next >= *ch.until || ch.rate < 0 && next <= *ch.until) {
			next = *ch.until
			delete(r.changes, key)
		}
		r.setLocal(w, uid, name, next)
	}
	var msgs []string
	for _, e := range w.Inv {
		for i, rule := range r.rulesOf(e) {
			if rule.When != "while" {
				continue
			}
			at := ruleAt{e.UID, i}
			ok, err := r.all(w, e, rule.Test)
			if err != nil {
				return msgs, err
			}
			if !ok {
				delete(r.held, at)
				continue
			}
			every := rule.Every
			if every <= 0 {
				every = 1
			}
			r.held[at] += dt
			for r.held[at] >= every {
				r.held[at] -= every
				if ok, err := r.all(w, e, rule.If); err != nil || !ok {
					if err != nil {
						return msgs, err
					}
					continue
				}
				m, err := r.do(w, e, rule)
				msgs = append(msgs, m...)
				if err != nil {
					return msgs, err
				}
			}
		}
	}
	more, err := r.After(w, nil)
	return append(msgs, more...), err
}

func (r *Runner) all(w *World, e *Entry, conds []Condition) (bool, error) {
	for _, cd := range conds {
		v, _ := r.read(w, e, cd.Value)
		to, err := r.operand(w, e, cd.Value, cd.To)
		if err != nil {
			return false, err
		}
		var ok bool
		switch cd.Op {
		case "=":
			ok = v == to
		case "!=":
			ok = v != to
		case "<":
			ok = v < to
		case "<=":
			ok = v <= to
		case ">":
			ok = v > to
		case ">=":
			ok = v >= to
		case "between":
			to2, err := r.operand(w, e, cd.Value, cd.To2)
			if err != nil {
				return false, err
			}
			ok = v >= min(to, to2) && v <= max(to, to2)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// operand is a condition's or action's value: a number, on/off, a choice of the
// addressed value by name, or a formula.
func (r *Runner) operand(w *World, e *Entry, addr string, v any) (float64, error) {
	switch v := v.(type) {
	case float64:
		return v, nil
	case bool:
		return b2f(v), nil
	case string:
		switch v {
		case "on":
			return 1, nil
		case "off":
			return 0, nil
		}
		if i := r.choice(addr, v); i >= 0 {
			return float64(i), nil
		}
		if r.eval == nil {
			return 0, fmt.Errorf("the formula %q needs a formula evaluator", v)
		}
		return r.eval(v, func(a string) (float64, bool) { return r.read(w, e, a) })
	}
	return 0, nil
}

// choice is the place of a choice name among the declared value's choices, or -1.
func (r *Runner) choice(addr, name string) int {
	_, n, _ := strings.Cut(strings.TrimPrefix(addr, "char."), ".")
	for _, d := range r.c.System.Values {
		if d.Name == n {
			for i, ch := range d.Choices {
				if strings.EqualFold(ch, name) {
					return i
				}
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

// Prime records what every becomes rule sees now without firing any, so a runner made
// for a character already in play (after a restart, a campaign loaded) fires rules only
// as their conditions turn true from here on.
func (r *Runner) Prime(w *World) error {
	for _, e := range w.Inv {
		for i, rule := range r.rulesOf(e) {
			if rule.When != "becomes" {
				continue
			}
			now, err := r.all(w, e, rule.Test)
			if err != nil {
				return err
			}
			r.was[ruleAt{e.UID, i}] = now
		}
	}
	return nil
}

// Timed reports whether the character needs the clock: a while rule on one of its
// items, or a Local value still moving. Only campaigns with such characters are ticked.
func (r *Runner) Timed(w *World) bool {
	if len(r.changes) > 0 {
		return true
	}
	for _, e := range w.Inv {
		for _, rule := range r.rulesOf(e) {
			if rule.When == "while" {
				return true
			}
		}
	}
	return false
}
