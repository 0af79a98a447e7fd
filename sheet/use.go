package sheet

import (
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/suggest"
)

// maxUseTargets is the most targets a use reaches, however far it is upcast.
const maxUseTargets = 20

// Found is the entry a name on a card means: the marker its rows carry and the entry.
type Found struct {
	Marker string
	Entry  *ruleset.Entry
}

// FindEntry is the one rule for which picked entry a name means, so everything that acts
// on a named entry acts on the same one. Only rows that came from a catalog (they carry a
// marker) answer. A row answers, ignoring case and spacing, to the name it shows — its
// list's gm.sheetSummary name column, else pools.nameColumn, else its first text column —
// and to its entry's label, so a row the player renamed is still found. Nothing answers:
// unknown-entry; rows of two different entries answer: ambiguous-entry. An entry the
// lookup cannot find (a catalog that would not load) is unknown-entry: what it costs is
// unknown, and guessing would hand out a free use.
func FindEntry(rs *ruleset.Ruleset, card *Card, entries Entries, name string) (Found, error) {
	if ruleset.SameName(name, "") {
		return Found{}, refuse(refusal.UnknownEntry, "no name given")
	}
	var matched []string
	for li := range rs.Sheet.Lists {
		list := &rs.Sheet.Lists[li]
		nameCol := ShownNameColumn(rs, list)
		for _, row := range card.Build.Lists[list.ID] {
			m := row.Marker()
			if m == "" || slices.Contains(matched, m) {
				continue
			}
			hit := row.Named(nameCol, name)
			if !hit {
				if e, ok := entryOf(entries, m); ok && ruleset.SameName(e.Label, name) {
					hit = true
				}
			}
			if hit {
				matched = append(matched, m)
			}
		}
	}
	switch len(matched) {
	case 0:
		return Found{}, refuseNear(refusal.UnknownEntry, suggest.DidYouMean(name, entryNames(rs, card, entries)), "nothing on %s's sheet is called %q", card.Name, name)
	case 1:
	default:
		return Found{}, refuse(refusal.AmbiguousEntry, "%q could be %s", name, strings.Join(matched, " or "))
	}
	e, ok := entryOf(entries, matched[0])
	if !ok {
		return Found{}, refuse(refusal.UnknownEntry, "the catalog entry %s is not available", matched[0])
	}
	return Found{Marker: matched[0], Entry: e}, nil
}

// entryNames is every name FindEntry answers to on card, row by row: what each row that
// came from a catalog shows, then its entry's label.
func entryNames(rs *ruleset.Ruleset, card *Card, entries Entries) []string {
	var names []string
	for li := range rs.Sheet.Lists {
		list := &rs.Sheet.Lists[li]
		nameCol := ShownNameColumn(rs, list)
		for _, row := range card.Build.Lists[list.ID] {
			m := row.Marker()
			if m == "" {
				continue
			}
			if s, _ := row.Text(nameCol); s != "" {
				names = append(names, s)
			}
			if e, ok := entryOf(entries, m); ok {
				names = append(names, e.Label)
			}
		}
	}
	return names
}

// ShownNameColumn is the column a Game Master sees a row of list under, and the one
// use= and its autocomplete name rows by: the one the sheet summary prints it by, then
// the column a row pool is keyed by, then the first text column.
func ShownNameColumn(rs *ruleset.Ruleset, list *ruleset.List) string {
	if s := rs.GM.SheetSummary; s != nil {
		for _, l := range s.Lists {
			if l.List == list.ID && l.NameColumn != "" {
				return l.NameColumn
			}
		}
	}
	return list.NameColumn()
}

// useResult is what a use paid: each pool and what it leaves, the level the effect
// takes (0 when the cost has no level), how far above its own level it was paid, and how
// many targets it reaches (0 when the entry says nothing about targets).
type useResult struct {
	Paid    []payment
	Level   int
	Steps   int
	Targets int
}

// payment is one pool a use spends from and what it leaves.
type payment struct {
	Key   string
	Label string
	Value int // after paying
}

// opUse is the dispatch handler of use and cast: name= (spell= is read as name=) and the
// optional upcast pool=. It pays for using the entry name names (SPEC 5.5), all or
// nothing: every cost term is paid (a named pool from itself, a group from its first
// pool, in declaration order, that can afford it — never climbing by itself), then one
// use from every counter row the same entry wrote. Anything short refuses the whole use
// insufficient, saying what was short. An entry with no cost and no counter succeeds and
// changes nothing. now lists each pool paid ("3rd-level slots 1/3; Last Ember 0/1"); the
// outcome carries the effect's level and its targets.
func opUse(op *Op) (string, error) {
	name, _ := op.Req.Get("name")
	pool, _ := op.Req.Get("pool")
	now, res, err := payUse(op.Rules, op.Card, op.Values, entriesFor(op.Opts), name, pool)
	if err != nil {
		return "", err
	}
	op.Outcome.Level, op.Outcome.Targets = res.Level, res.Targets
	return now, nil
}

// payUse plans the use on card (evaluated as vals) and, when everything can be paid,
// pays it on card. It returns the use's now.
func payUse(rs *ruleset.Ruleset, card *Card, vals *Values, entries Entries, name, pool string) (string, useResult, error) {
	res, err := planUse(rs, card, vals, entries, name, pool)
	if err != nil {
		return "", res, err
	}
	if len(res.Paid) == 0 {
		return "no cost", res, nil
	}
	now := make([]string, 0, len(res.Paid))
	for _, p := range res.Paid {
		rp := vals.Live.Pool(p.Key)
		setPool(&card.Live, rp, p.Value, rp.Temp)
		now = append(now, p.Label+" "+PoolNow(rp, p.Value, rp.Temp))
	}
	return strings.Join(now, "; "), res, nil
}

func planUse(rs *ruleset.Ruleset, card *Card, vals *Values, entries Entries, name, pool string) (useResult, error) {
	found, err := FindEntry(rs, card, entries, name)
	if err != nil {
		return useResult{}, err
	}
	p := &payer{rs: rs, vals: vals, live: vals.Live, running: map[string]int{}}
	var res useResult
	var terms []ruleset.CostTerm
	var targetCount, perStep *int
	if m := found.Entry.Mechanics; m != nil {
		terms, targetCount, perStep = m.Cost, m.TargetCount, m.TargetsPerCostStep
	}

	if strings.TrimSpace(pool) != "" {
		if err := p.upcast(terms, pool, &res); err != nil {
			return useResult{}, err
		}
	} else {
		for _, t := range terms {
			p.term(t)
		}
		if len(terms) == 1 {
			res.Level = p.costLevel(terms[0].Pool)
		}
	}
	var instead string
	if len(p.short) > 0 && len(terms) == 1 {
		instead = couldPay(offered(rs, vals, terms[0]), terms[0].Amount, pool)
	}
	p.counters(card, found.Marker)
	if len(p.short) > 0 {
		return useResult{}, refuse(refusal.Insufficient, "not enough: %s%s", strings.Join(p.short, "; "), instead)
	}
	res.Paid = p.paid
	if targetCount != nil || perStep != nil {
		n := 1
		if targetCount != nil {
			n = *targetCount
		}
		if perStep != nil {
			n += *perStep * res.Steps
		}
		res.Targets = min(n, maxUseTargets)
	}
	return res, nil
}

// payer plans one use: what each pool pays so far (running), the payments in order, and
// what was short.
type payer struct {
	rs      *ruleset.Ruleset
	vals    *Values
	live    *Resolved
	running map[string]int
	paid    []payment
	short   []string
}

// pay takes amount from pool p, or notes it short.
func (u *payer) pay(p *Pool, amount int) {
	left := p.Value - u.running[p.Key]
	if left < amount {
		u.short = append(u.short, p.Label+" has "+strconv.Itoa(left)+" of "+strconv.Itoa(amount))
		return
	}
	u.running[p.Key] += amount
	for i := range u.paid {
		if u.paid[i].Key == p.Key {
			u.paid[i].Value -= amount
			return
		}
	}
	u.paid = append(u.paid, payment{Key: p.Key, Label: p.Label, Value: left - amount})
}

// term pays one cost term: a live pool from itself (never climbing to a higher one), a
// group from its first pool, in declaration order, that can afford it.
func (u *payer) term(t ruleset.CostTerm) {
	if d := u.rs.Sheet.Live.Pool(t.Pool); d != nil {
		p := u.live.Pool(d.ID)
		if p == nil {
			u.short = append(u.short, d.Label+" has 0 of "+strconv.Itoa(t.Amount))
			return
		}
		u.pay(p, t.Amount)
		return
	}
	var first *Pool
	for i := range u.rs.Sheet.Live.Pools {
		d := &u.rs.Sheet.Live.Pools[i]
		if d.Group != t.Pool {
			continue
		}
		p := u.live.Pool(d.ID)
		if p == nil {
			continue
		}
		if first == nil {
			first = p
		}
		if p.Value-u.running[p.Key] >= t.Amount {
			u.pay(p, t.Amount)
			return
		}
	}
	if first == nil {
		u.short = append(u.short, termName(u.rs, t.Pool)+" has 0 of "+strconv.Itoa(t.Amount))
		return
	}
	u.short = append(u.short, "no "+termName(u.rs, t.Pool)+" pool has "+strconv.Itoa(t.Amount))
}

// upcast pays the single cost term from the pool the use names: one of the term's own
// group, or one that pays for that group, at a level not below the cost's (the pools a
// front end offers, SPEC 5.5). Anything else is bad-pool, never reinterpreted. Paying above the cost's level raises the effect by
// the difference.
func (u *payer) upcast(terms []ruleset.CostTerm, pool string, res *useResult) error {
	if len(terms) != 1 {
		return refuse(refusal.BadPool, "pool= needs a cost of exactly one term; this one has %d", len(terms))
	}
	t := terms[0]
	named := ruleset.ByName(u.rs.Sheet.Live.Pools, pool, func(p *ruleset.LivePool) []string { return []string{p.ID, p.Label} })
	if named == nil {
		return refuse(refusal.BadPool, "there is no pool %q", pool)
	}
	group := termGroup(u.rs, t.Pool)
	costLevel := u.costLevel(t.Pool)
	level := u.declLevel(named)
	switch {
	case named.ID == t.Pool:
	case group != "" && (named.Group == group || slices.Contains(named.Pays, group)):
		// An upcast pays from a pool at or above the cost's level, never below: a
		// 1st-level slot never pays for Fireball, whether it shares the group or pays for it.
		if level < costLevel {
			return refuse(refusal.BadPool, "%s pays at level %d, below the cost's level %d", named.Label, level, costLevel)
		}
	default:
		return refuse(refusal.BadPool, "%s cannot pay for %s", named.Label, termName(u.rs, t.Pool))
	}
	p := u.live.Pool(named.ID)
	if p == nil {
		u.short = append(u.short, named.Label+" has 0 of "+strconv.Itoa(t.Amount))
		return nil
	}
	u.pay(p, t.Amount)
	res.Steps = max(0, level-costLevel)
	res.Level = max(level, costLevel)
	return nil
}

// counters takes one use from every counter row the entry (marker) wrote. A counter whose
// maximum is 0 is not a pool and has nothing to give: the use is short, never free. A
// counter the plan already pays is not charged twice.
func (u *payer) counters(card *Card, marker string) {
	for li := range u.rs.Sheet.Lists {
		list := &u.rs.Sheet.Lists[li]
		if list.Pools == nil || u.vals.Hidden(list.HideWhen) {
			continue
		}
		for _, row := range card.Build.Lists[list.ID] {
			if row.Marker() != marker {
				continue
			}
			name, _ := row.Text(list.Pools.NameColumn)
			if strings.TrimSpace(name) == "" {
				continue
			}
			key := RowPoolKey(list.ID, name)
			p := u.live.Pool(key)
			if p == nil {
				u.short = append(u.short, strings.TrimSpace(name)+" has no uses")
				continue
			}
			if _, done := u.running[key]; done {
				continue
			}
			u.pay(p, 1)
		}
	}
}

// costLevel is the level of a cost term: its pool's level, or for a group the level of
// the group's first pool.
func (u *payer) costLevel(target string) int {
	if d := u.rs.Sheet.Live.Pool(target); d != nil {
		return u.declLevel(d)
	}
	for i := range u.rs.Sheet.Live.Pools {
		if d := &u.rs.Sheet.Live.Pools[i]; d.Group == target {
			return u.declLevel(d)
		}
	}
	return 0
}

// declLevel is a declared pool's level, whether or not the card has it: its level
// reference read from the build, else its 1-based place in its group, else 0.
func (u *payer) declLevel(d *ruleset.LivePool) int {
	if d.Level != nil {
		return floorInt(u.vals.Ref(d.Level))
	}
	return groupPlace(u.rs, d)
}

// groupPlace is a pool's 1-based place among its group's pools in declaration order, 0
// when it is in no group.
func groupPlace(rs *ruleset.Ruleset, d *ruleset.LivePool) int {
	if d.Group == "" {
		return 0
	}
	n := 0
	for i := range rs.Sheet.Live.Pools {
		p := &rs.Sheet.Live.Pools[i]
		if p.Group == d.Group {
			n++
		}
		if p == d {
			return n
		}
	}
	return 0
}

// termGroup is the group a cost term's target belongs to: the group it names, or the
// group of the pool it names ("" for a pool in no group).
func termGroup(rs *ruleset.Ruleset, target string) string {
	if d := rs.Sheet.Live.Pool(target); d != nil {
		return d.Group
	}
	return target
}

// termName is what a player reads for a cost term: a declared pool's label, else the
// group's id (a group has no label of its own).
func termName(rs *ruleset.Ruleset, id string) string {
	if d := rs.Sheet.Live.Pool(id); d != nil {
		return d.Label
	}
	return id
}
