package sheet

import (
	"slices"

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
	t := entry.Mechanics.Cost[0]
	vals := Evaluate(rs, card, nil)
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
