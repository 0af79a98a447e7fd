package check

import (
	"math"
	"strconv"
	"strings"

	"sheetkeeper/ruleset"
)

// bought is what a check's spend bought.
type bought struct {
	successes, dice int
	reroll          *ruleset.Reroll
}

// spend reads spend="pool:points, …" against the ruleset's standing spend rules and the
// card's pools, and works out what it buys. Points that are not a whole number of
// purchases buy nothing more; asking for more than perCheck buys (and pays for) only the
// cap; a pool that cannot cover what was bought buys nothing and pays nothing — the roll
// is exactly the one it would have been. A pool the rules do not name is ignored.
func (r *run) spend() bought {
	var b bought
	if r.req.Spend == "" || r.v == nil || r.v.Live == nil {
		return b
	}
	for part := range strings.SplitSeq(r.req.Spend, ",") {
		name, pts, hasPts := strings.Cut(strings.TrimSpace(part), ":")
		points := 0
		if hasPts {
			n, err := strconv.Atoi(strings.TrimSpace(pts))
			if err != nil || n < 1 {
				continue
			}
			points = n
		}
		rule := r.spendRule(name)
		if rule == nil || r.alreadyPaid(rule.Pool) {
			continue
		}
		if !hasPts {
			points = rule.Amount
		}
		purchases := min(points/rule.Amount, r.perCheck(rule))
		cost := purchases * rule.Amount
		pool := r.v.Live.Pool(rule.Pool)
		if purchases < 1 || pool == nil || pool.Value < cost {
			continue
		}
		r.out.Paid = append(r.out.Paid, Payment{Pool: rule.Pool, Amount: cost})
		if rule.Successes != nil {
			b.successes += purchases * *rule.Successes
		}
		if rule.Dice != nil {
			b.dice += purchases * *rule.Dice
		}
		if rule.Reroll != nil && (b.reroll == nil || rerollBetter(rule.Reroll, b.reroll)) {
			b.reroll = rule.Reroll
		}
	}
	return b
}

func (r *run) alreadyPaid(pool string) bool {
	for _, p := range r.out.Paid {
		if p.Pool == pool {
			return true
		}
	}
	return false
}

// spendRule finds the standing spend on the pool a GM named, by id or label.
func (r *run) spendRule(name string) *ruleset.Spend {
	for i := range r.res.Spend {
		s := &r.res.Spend[i]
		label := s.Pool
		for j := range r.rs.Sheet.Live.Pools {
			if p := &r.rs.Sheet.Live.Pools[j]; p.ID == s.Pool {
				label = p.Label
			}
		}
		if matches(name, s.Pool, label) {
			return s
		}
	}
	return nil
}

// perCheck is how many purchases one check may make: a number, a value off the sheet
// (rounded down, held to 0..100), or "pool": the sheet's number before anything else.
func (r *run) perCheck(s *ruleset.Spend) int {
	switch {
	case s.PerCheckPool:
		return max(r.poolBase, 0)
	case s.PerCheckRef != nil:
		return min(max(int(math.Floor(r.v.Ref(s.PerCheckRef))), 0), 100)
	}
	return s.PerCheckNumber
}
