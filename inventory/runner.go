package inventory

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// World is what rules read and write for one character: the inventory, the purse, the
// character's stats and Local values, each item's own Local values, the Local values
// moving over time, and the Global values (read only: those are the GM's).
//
// Moving is part of the world, not the runner, so a value still moving when the bot
// stops is stored with the rest and carries on, caught up, when it starts again.
type World struct {
	Inv        []*Entry
	Purse      Purse
	Stats      map[string]any
	Locals     map[string]float64
	ItemLocals map[string]map[string]float64 // entry uid → name → value
	Globals    map[string]float64
	Moving     map[string]Moving // "uid/name" (an item's) or "/name" (the character's)
	// Seen is whether each becomes rule's conditions held when rules last ran, by
	// SeenKey (Pack Rat's entry.seen): kept with the rest, so after a restart a rule
	// neither fires again for what it already saw nor misses what changed meanwhile.
	Seen map[string]bool
	// oldRead are the Seen keys of the kind stored before keys held the whole rule that
	// this run read in place of a rule's own (seenBefore): dropped once it ends, so only
	// the first run after the upgrade reads them, and a rule edited or added later starts
	// afresh rather than read what its conditions held that day.
	oldRead []string
}

// SeenKey names one rule of one entry in World.Seen: the entry and the whole rule (its
// when and conditions, then a digest of its if, actions and message), so a rule edited
// in its file starts afresh, rules moved about (or a system imported again with them in
// another order) keep what they saw, and two rules on the same conditions each fire as
// they turn true — a key of the when and conditions alone was shared by them, and the
// first to look recorded what it saw before the second looked. Rules alike in every
// part are told apart by seenAt.
func SeenKey(uid string, rule Rule) string {
	part, _ := seenPart(rule)
	return uid + "/" + part
}

// seenAt is the SeenKey of an entry's i-th rule, with "#n" after it for the n-th earlier
// rule just like it, so even identical rules have a key each (and the first keeps the
// plain one).
func seenAt(uid string, rules []Rule, i int) string {
	part, _ := seenPart(rules[i])
	key := uid + "/" + part
	n := 0
	for _, o := range rules[:i] {
		if p, _ := seenPart(o); p == part {
			n++
		}
	}
	if n > 0 {
		key += "#" + strconv.Itoa(n)
	}
	return key
}

// seenOf is a rule's part of its SeenKey, and the length of its start, the when and
// conditions: all the part was before keys held the whole rule, so what a stored key of
// that kind saw is still read (seenBefore) and no rule misses its turn at the first run
// after the upgrade. The rest is written as JSON (as %v would write Until's pointer, not
// its number) and kept as its digest.
func seenOf(rule Rule) (string, int) {
	old := fmt.Sprint(rule.When, rule.Test)
	rest, err := json.Marshal(struct {
		If      []Condition
		Do      []Action
		Message string
	}{rule.If, rule.Do, rule.Message})
	if err != nil { // a number JSON cannot write: the rule's text is its own still
		rest = []byte(fmt.Sprint(rule.If, rule.Do, rule.Message))
	}
	// The rest is kept as a digest: a key stays short (the stored holdings are bounded,
	// and a rule's actions and message can be long) and tells rules apart all the same.
	sum := sha256.Sum256(rest)
	return old + "|" + hex.EncodeToString(sum[:8]), len(old)
}

// seenPart is the rule's seenOf, as worked out when it was read (a Rule made in code
// has it worked out here).
func seenPart(rule Rule) (string, int) {
	if rule.seen == "" {
		return seenOf(rule)
	}
	return rule.seen, rule.seenOld
}

// seenBefore is what a becomes rule saw when rules last ran: under its own key, else
// under the key stored before keys held the whole rule (uid/when+conditions). Every
// rule on those conditions of that entry saw the same there, so each may read it; it is
// forgotten with its entry.
func seenBefore(w *World, uid string, rule Rule, key string) (bool, bool) {
	if before, ok := w.Seen[key]; ok {
		return before, true
	}
	part, old := seenPart(rule)
	oldKey := uid + "/" + part[:old]
	before, ok := w.Seen[oldKey]
	if ok {
		w.oldRead = append(w.oldRead, oldKey)
	}
	return before, ok
}

// dropOldRead forgets the old-kind keys a run read (World.oldRead), once it is over:
// every rule that stood on them has its own key now.
func dropOldRead(w *World) {
	for _, k := range w.oldRead {
		delete(w.Seen, k)
	}
	w.oldRead = nil
}

// Moving is a Local value rising (or, with a negative Rate, falling) Rate a second, and
// stopping at Until when there is one.
type Moving struct {
	Rate  float64  `json:"rate"`
	Until *float64 `json:"until,omitempty"`
}

// Eval works out a formula ("local.heat / 10") with read giving each address's number.
// The formula language is the parser's (parser.EvalFormula, and a parser.Formulas
// cache's Eval, have this shape: pass one to NewRunner); the runner takes it as a
// function so inventory imports nothing of the parser.
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

// Result is what a run of rules did, as data for the bot to pass on: the messages for
// the player, the rules held back and whether the chain was cut short (for the GM).
type Result struct {
	Messages []string
	// From is, for each message, the name of the item whose rule said it (as the item
	// is now: "Ring of Protection" once identified), for a player to read it by.
	From []string
	Held []HeldBack
	// Stopped: the chain still had rules to fire after MaxChain steps.
	Stopped bool
}

// HeldBack is a rule held back for firing over and over: which item, and which of its rules
// (its place among the entry's rules, template's first).
type HeldBack struct {
	UID, Item string
	Rule      int
}

// Add appends another run's result to res.
func (res *Result) Add(o Result) {
	res.Messages = append(res.Messages, o.Messages...)
	res.From = append(res.From, o.From...)
	res.Held = append(res.Held, o.Held...)
	res.Stopped = res.Stopped || o.Stopped
}

// Runner runs a campaign's rules for one character, remembering how long each while
// rule has held (what becomes rules saw is the World's: World.Seen).
//
// It keeps to Pack Rat's js/triggers.js and js/clockwork.js: what each address reads,
// how `to` is worked out, when rules fire, what they may write. It differs on purpose
// in three ways: events (acquired, equipped, unequipped) are told to After by the bot
// rather than guessed from what changed; a rule is held back after MaxFirings firings
// in one run rather than 25 in five seconds of wall time (runs are the bot's, not a
// browser's redraws); and local.<name> written by an item's rule is the value it reads
// (the item's own when it has one, else its character's), where Pack Rat always writes
// the item's own.
type Runner struct {
	c    *Campaign
	eval Eval
	held map[ruleAt]float64
}

// ruleAt is one rule of one entry: its place in the entry's rules (template's first).
type ruleAt struct {
	uid string
	i   int
}

// NewRunner returns a runner of the campaign's rules; eval works out formulas (nil: a
// rule with a formula is an error when it runs).
func (c *Campaign) NewRunner(eval Eval) *Runner {
	return &Runner{c: c, eval: eval, held: map[ruleAt]float64{}}
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
// steps have run. A step, as in Pack Rat, first sees which rules are due and then fires
// them, so two rules undoing each other take turns, and a rule firing more than
// MaxFirings times in one run is held back.
func (r *Runner) After(w *World, events []Event) (Result, error) {
	var res Result
	forgetGone(w)
	defer dropOldRead(w)
	fired := map[ruleAt]int{}
	for step := 0; ; step++ {
		due, err := r.dueAll(w, events, step)
		if err != nil || len(due) == 0 {
			return res, err
		}
		if step == MaxChain {
			res.Stopped = true
			return res, nil
		}
		firedAny := false
		for _, d := range due {
			if fired[d.at] >= MaxFirings {
				res.Held = append(res.Held, HeldBack{UID: d.e.UID, Item: d.e.Item.Name, Rule: d.at.i})
				continue
			}
			ok, err := r.fire(w, d.e, d.rule, &res)
			if err != nil {
				return res, err
			}
			if ok {
				fired[d.at]++
				firedAny = true
			}
		}
		if len(res.Held) > 0 {
			res.Held = heldAll(res.Held, fired, w)
			return res, nil
		}
		if !firedAny {
			return res, nil
		}
	}
}

// forgetGone drops what was Seen of entries no longer in the inventory, so Seen stays
// as big as the inventory's rules.
func forgetGone(w *World) {
	if len(w.Seen) == 0 {
		return
	}
	here := make(map[string]bool, len(w.Inv))
	for _, e := range w.Inv {
		here[e.UID] = true
	}
	for key := range w.Seen {
		if uid, _, _ := strings.Cut(key, "/"); !here[uid] {
			delete(w.Seen, key)
		}
	}
}

// dueRule is a rule due to fire at a step.
type dueRule struct {
	at   ruleAt
	e    *Entry
	rule Rule
}

// dueAll is every rule due at this step, in the entries' and rules' order.
func (r *Runner) dueAll(w *World, events []Event, step int) ([]dueRule, error) {
	var out []dueRule
	for _, e := range w.Inv {
		rules := r.rulesOf(e)
		for i, rule := range rules {
			at := ruleAt{e.UID, i}
			fire, err := r.due(w, e, rules, at, step, events, step < MaxChain)
			if err != nil {
				return nil, err
			}
			if fire {
				out = append(out, dueRule{at, e, rule})
			}
		}
	}
	return out, nil
}

// heldAll is what a run that held rules back reports: every rule that fired MaxFirings
// times (the held ones' partners in the loop too), in the entries' order.
func heldAll(held []HeldBack, fired map[ruleAt]int, w *World) []HeldBack {
	var out []HeldBack
	for _, e := range w.Inv {
		var mine []HeldBack
		for at, n := range fired {
			if at.uid == e.UID && n >= MaxFirings {
				mine = append(mine, HeldBack{UID: e.UID, Item: e.Item.Name, Rule: at.i})
			}
		}
		for _, h := range held {
			if h.UID == e.UID && !slices.Contains(mine, h) {
				mine = append(mine, h)
			}
		}
		slices.SortFunc(mine, func(a, b HeldBack) int { return a.Rule - b.Rule })
		out = append(out, mine...)
	}
	return out
}

// due reports whether a rule fires at this step: an event rule at the first step for
// its event, a becomes rule as its conditions turn true (remembering what it saw when
// record: a chain cut short leaves the rest to fire on the next run, as Pack Rat's does).
func (r *Runner) due(w *World, e *Entry, rules []Rule, at ruleAt, step int, events []Event, record bool) (bool, error) {
	rule := rules[at.i]
	switch rule.When {
	case "becomes":
		now, err := r.all(w, e, rule.Test)
		if err != nil {
			return false, err
		}
		// A rule never seen before (its entry new here, or the rule just edited) takes
		// its conditions as they stand and fires only as they turn true from here:
		// Pack Rat's "an entry with no seen is new here" (triggers.js), per entry.
		key := seenAt(e.UID, rules, at.i)
		before, seen := seenBefore(w, e.UID, rule, key)
		fire := now && seen && !before
		if record {
			if w.Seen == nil {
				w.Seen = map[string]bool{}
			}
			w.Seen[key] = now
		}
		return fire, nil
	case "acquired", "equipped", "unequipped":
		return step == 0 && hasEvent(events, rule.When, e.UID), nil
	}
	return false, nil
}

// fire does a rule's actions when its `if` holds, reporting whether it did.
func (r *Runner) fire(w *World, e *Entry, rule Rule, res *Result) (bool, error) {
	if ok, err := r.all(w, e, rule.If); err != nil || !ok {
		return false, err
	}
	m, err := r.do(w, e, rule)
	res.Messages = append(res.Messages, m...)
	if len(m) > 0 {
		name := r.c.Now(e).Name
		for range m {
			res.From = append(res.From, name)
		}
	}
	return true, err
}

func hasEvent(events []Event, kind, uid string) bool {
	for _, ev := range events {
		if ev.Kind == kind && ev.UID == uid {
			return true
		}
	}
	return false
}

// Tick moves time on by dt seconds. Moving Local values move in closed form (so one
// tick of three hours after the bot was down lands where ticking through them would),
// then each while rule whose conditions hold fires when `every` seconds have passed —
// once however long it was, as Pack Rat's game tick does after time away, so catching
// up costs one tick's work — and then the becomes rules run as after any change.
func (r *Runner) Tick(w *World, dt float64) (Result, error) {
	if dt < 0 || math.IsNaN(dt) {
		dt = 0
	}
	r.move(w, dt)
	var res Result
	for _, e := range w.Inv {
		for i, rule := range r.rulesOf(e) {
			if rule.When != "while" {
				continue
			}
			at := ruleAt{e.UID, i}
			ok, err := r.all(w, e, rule.Test)
			if err != nil {
				return res, err
			}
			if !ok {
				delete(r.held, at)
				continue
			}
			every := max(rule.Every, 0.25)
			if rule.Every == 0 {
				every = 1
			}
			r.held[at] += dt
			if r.held[at] < every {
				continue
			}
			r.held[at] = remainder(r.held[at]-every, every)
			if _, err := r.fire(w, e, rule, &res); err != nil {
				return res, err
			}
		}
	}
	more, err := r.After(w, nil)
	res.Add(more)
	return res, err
}

// remainder is x modulo every, for a while rule behind by more than one period.
func remainder(x, every float64) float64 {
	if x < every {
		return x
	}
	return x - every*float64(int64(x/every))
}

// move moves each moving Local value on by dt seconds, stopping (and forgetting) those
// that reach their until, or ±MaxValue.
func (r *Runner) move(w *World, dt float64) {
	for key, m := range w.Moving {
		uid, name := splitLocal(key)
		v := r.local(w, uid, name) + m.Rate*dt
		end := math.Copysign(MaxValue, m.Rate)
		if m.Until != nil {
			end = *m.Until
		}
		if m.Rate > 0 && v >= end || m.Rate < 0 && v <= end {
			v = end
			delete(w.Moving, key)
		}
		if m.Rate == 0 {
			delete(w.Moving, key)
		}
		r.setLocal(w, uid, name, v)
	}
}

// Timed reports whether the character needs the clock: a while rule on one of its
// items, or a Local value still moving. Only campaigns with such characters are ticked.
func (r *Runner) Timed(w *World) bool {
	if len(w.Moving) > 0 {
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
