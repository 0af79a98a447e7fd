package fight

import (
	"sheetkeeper/strictjson"
)

// Battle lends the engine's own combat the sheet's numbers: the health pool (or wound
// track), a pool spent as energy, pools spent as spell slots by level, and the lists
// whose catalog-marked rows become combat skills. It does not make a fight follow the
// ruleset; Combat does that. A ruleset may carry both, for an engine that reads only
// this one.
type Battle struct {
	Health Health       `json:"health"`
	Energy *PoolRef     `json:"energy,omitempty"`
	Slots  []BattleSlot `json:"slots,omitempty"`
	Skills []RowFilter  `json:"skills,omitempty"`
}

// PoolRef names one live pool.
type PoolRef struct {
	Pool string `json:"pool"`
}

// BattleSlot is a pool a fight spends one at a time as a spell slot of Level 1–9.
type BattleSlot struct {
	Pool  string `json:"pool"`
	Level int    `json:"level"`
}

// checkBattle checks the battle block: declared pools used once each, distinct slot
// levels, and the lists its skills come from.
func (c *checker) checkBattle(b *Battle) {
	if b == nil {
		return
	}
	const p = "battle"
	c.UsesOnce("the battle block", 22, p)
	if b.Health.Track != "" {
		c.UsesOnce("combat health on a wound track", 30, strictjson.Join(p, "health"))
	}
	c.fightHealth(strictjson.Join(p, "health"), b.Health)
	health := b.Health.Pool
	if health == "" {
		health = b.Health.Track
	}
	energy := ""
	if b.Energy != nil {
		energy = b.Energy.Pool
		ep := strictjson.Join(strictjson.Join(p, "energy"), "pool")
		if c.declaredPool(ep, energy) && energy == health {
			c.Add(ep, "the energy pool cannot also be the health pool")
		}
	}
	sp := strictjson.Join(p, "slots")
	c.Count(sp, len(b.Slots), 0, 12)
	pools, levels := map[string]bool{}, map[int]bool{}
	for i, s := range b.Slots {
		pp := strictjson.Join(strictjson.Join(sp, i), "pool")
		lp := strictjson.Join(strictjson.Join(sp, i), "level")
		if c.declaredPool(pp, s.Pool) {
			switch {
			case s.Pool == health || s.Pool == energy:
				c.Add(pp, "pool %q is already the health or energy pool", s.Pool)
			case pools[s.Pool]:
				c.Add(pp, "slot pool %q is listed twice", s.Pool)
			}
		}
		pools[s.Pool] = true
		if c.Between(lp, float64(s.Level), 1, 9) && levels[s.Level] {
			c.Add(lp, "slot level %d is listed twice", s.Level)
		}
		levels[s.Level] = true
	}
	kp := strictjson.Join(p, "skills")
	c.Count(kp, len(b.Skills), 0, 8)
	for i := range b.Skills {
		c.rowFilter(strictjson.Join(kp, i), b.Skills[i])
	}
}
