package sheet

import (
	"slices"
	"strings"

	"sheetkeeper/ruleset"
)

// PoolOffer is one pool a front end may offer to pay an entry's cost from (the /use pool
// autocomplete): the pool, where it stands, its level, and why it is offered.
type PoolOffer struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Value int    `json:"value"`
	Max   int    `json:"max"`
	Level int    `json:"level"`
	// Own is the cost's own pool; Pays is a pool of another group that pays for it.
	Own  bool `json:"own,omitempty"`
	Pays bool `json:"pays,omitempty"`
}

// OfferedPools lists the pools a front end may offer for using entry on card: the cost's
// own pool, the higher pools of its group, then the pools of other groups that pay for
// that group at a level not below the cost's — the own pool even when it is empty, since
// a use is still offered from a higher pool then. Only pools the card has are listed
// (a pool whose maximum is 0 does not exist), in declaration order within each part.
// An entry whose cost is not exactly one term offers nothing: pool= cannot apply to it.
func OfferedPools(rs *ruleset.Ruleset, card *Card, entry *ruleset.Entry) []PoolOffer {
	if entry == nil || entry.Mechanics == nil || len(entry.Mechanics.Cost) != 1 {
		return nil
	}
	return offered(rs, Evaluate(rs, card, nil), entry.Mechanics.Cost[0])
}

// offered is OfferedPools for the single cost term t, on the card evaluated as vals.
func offered(rs *ruleset.Ruleset, vals *Values, t ruleset.CostTerm) []PoolOffer {
	u := &payer{rs: rs, vals: vals, live: vals.Live}
	group := termGroup(rs, t.Pool)
	costLevel := u.costLevel(t.Pool)
	var out []PoolOffer
	add := func(d *ruleset.LivePool, own, pays bool) {
		p := vals.Live.Pool(d.ID)
		if p == nil || slices.ContainsFunc(out, func(o PoolOffer) bool { return o.Key == d.ID }) {
			return
		}
		out = append(out, PoolOffer{Key: p.Key, Label: p.Label, Value: p.Value, Max: p.Max, Level: u.declLevel(d), Own: own, Pays: pays})
	}
	if d := rs.Sheet.Live.Pool(t.Pool); d != nil {
		add(d, true, false)
	}
	pools := rs.Sheet.Live.Pools
	if group != "" {
		for i := range pools {
			d := &pools[i]
			if d.Group == group && d.ID != t.Pool && u.declLevel(d) >= costLevel {
				add(d, d.Group == t.Pool && len(out) == 0, false)
			}
		}
		for i := range pools {
			d := &pools[i]
			if d.Group != group && slices.Contains(d.Pays, group) && u.declLevel(d) >= costLevel {
				add(d, false, true)
			}
		}
	}
	return out
}

// mostInstead is how many pools a refused use names as able to pay instead.
const mostInstead = 3

// couldPay is the words a use refused insufficient ends with when other pools of those
// offered could pay amount — a higher pool of the cost's group, or one that pays for it
// (5e's Pact Magic slots for a spell slot): "; Pact Magic slots or 2nd-level slots can
// pay: add pool="Pact Magic slots"", the lowest level first (the smallest upcast), at
// most mostInstead. The pool the use already named (named, by id or label) is not
// offered again (the cost's own pool is, when pool= named another that was short); ""
// when no other pool can pay. Only for a short cost term: a short counter has no other
// pool to pay from.
func couldPay(offers []PoolOffer, amount int, named string) string {
	want := ruleset.FoldName(named)
	var can []PoolOffer
	for _, o := range offers {
		if o.Value < amount || (want != "" && (ruleset.FoldName(o.Key) == want || ruleset.FoldName(o.Label) == want)) {
			continue
		}
		can = append(can, o)
	}
	if len(can) == 0 {
		return ""
	}
	slices.SortStableFunc(can, func(a, b PoolOffer) int { return a.Level - b.Level })
	can = can[:min(len(can), mostInstead)]
	labels := make([]string, len(can))
	for i, o := range can {
		labels[i] = o.Label
	}
	pays := labels[0]
	if len(labels) > 1 {
		pays = strings.Join(labels[:len(labels)-1], ", ") + " or " + labels[len(labels)-1]
	}
	return "; " + pays + " can pay: add pool=\"" + can[0].Label + "\""
}
