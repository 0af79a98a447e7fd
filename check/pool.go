package check

import (
	"strconv"

	"sheetkeeper/ruleset"
)

// maxRethrows is the most dice one check throws again, whatever the file says: an
// "until" re-throw stops there (Marinara's cap).
const maxRethrows = 100

// poolRules are the faces and counts one pool check is thrown with, after the GM's asks
// were held to what the ruleset declares.
type poolRules struct {
	sides, target       int
	explodeAt, doubleAt int // 0: the rule does not fire
	reroll              *ruleset.Reroll
	rerollID            string
}

// pool resolves a dice-pool check: the sheet's number is the pool, less the wound
// penalty and plus adjustments, situational dice and bought dice, held to pool.min and
// pool.max; each die at or above the target is a success (two where double fires),
// faces at or below cancel take one away, explode throws more, botch and exceptional
// read criticals, and successes a spend bought are added last, because nobody rolled
// them.
func (r *run) pool() {
	res, out := r.res, &r.out
	step := r.difficulty()
	rules := r.poolRules(step)
	out.Threshold = rules.target
	if r.eff.fails { // failed without a roll, and nothing is spent on it
		out.Automatic, out.Outcome, out.DC, out.HasDC = true, Failure, r.poolDC(step), true
		out.Dice = "0d" + strconv.Itoa(rules.sides)
		return
	}
	buy := r.spend()
	r.entry(&rules, &buy)
	bounds := res.PoolRange()
	bonus := 0
	if sd := res.SituationalDice; sd != nil && r.req.Bonus.Set {
		bonus = min(max(r.req.Bonus.V, sd.Min), sd.Max)
	}
	out.Effects = r.eff.flat
	n := min(max(out.Number+out.Penalty+out.Adjust+out.Effects+bonus+buy.dice, bounds.Min), bounds.Max)
	if buy.reroll != nil && (rules.reroll == nil || rerollBetter(buy.reroll, rules.reroll)) {
		rules.reroll, rules.rerollID = buy.reroll, ""
	}
	out.Dice = strconv.Itoa(n) + "d" + strconv.Itoa(rules.sides)
	out.DC, out.HasDC = r.poolDC(step), true
	faces := r.throwPool(n, rules)
	out.Rolls = faces
	raw, cancelled, low, lowFirst := 0, 0, 0, 0
	for i, f := range faces {
		switch {
		case f >= rules.target && rules.doubleAt > 0 && f >= rules.doubleAt:
			raw += 2
		case f >= rules.target:
			raw++
		}
		if res.Cancel != nil && f <= res.Cancel.UpTo {
			cancelled++
		}
		if res.Botch != nil && f <= res.Botch.UpTo {
			low++
			if i < n {
				lowFirst++
			}
		}
	}
	net := max(raw-cancelled, 0) + buy.successes
	out.Successes, out.Bought = net, buy.successes
	out.Outcome = Failure
	if net >= out.DC {
		out.Outcome = Success
		if e := res.Exceptional; e != nil && net >= e.Successes {
			out.Outcome = CriticalSuccess
		}
	}
	// A botch: no success at all and a low face showed (noSuccesses), or low faces on at
	// least half the dice first thrown (halfOrMore), which beside a success is a
	// complication instead. A pool whose one success was cancelled away has failed; one
	// with a success a spend bought has a success, which no face can take away.
	if b := res.Botch; b != nil {
		none := raw == 0 && buy.successes == 0
		half := n > 0 && 2*lowFirst >= n
		switch {
		case b.Rule == "halfOrMore" && half && none:
			out.Outcome = CriticalFailure
		case b.Rule == "halfOrMore" && half:
			out.Complication = true
		case b.Rule != "halfOrMore" && none && low > 0:
			out.Outcome = CriticalFailure
		}
	}
}

// rerollBetter reports whether a re-throw reaches more faces than b, or as many with
// "until" over "once": the one a check throws when two could apply.
func rerollBetter(a, b *ruleset.Reroll) bool {
	return a.UpTo > b.UpTo || a.UpTo == b.UpTo && a.Mode == "until" && b.Mode != "until"
}

// poolRules holds the GM's threshold=, explode=, double= and reroll= to the ruleset:
// the target moves only where target.min is below target.max (a ladder step's target
// first, threshold= over it, an untrained "harder" one up from there), a face only where
// its rule has a min, a re-throw only by an id the ruleset declares.
func (r *run) poolRules(step *ruleset.LadderStep) poolRules {
	res := r.res
	p := poolRules{sides: res.DieSides()}
	t := res.Target
	p.target = t.Default
	if t.Min < t.Max {
		if step != nil && step.Target != nil {
			p.target = *step.Target
		}
		if r.req.Threshold.Set {
			p.target = r.req.Threshold.V
		}
		if r.harder {
			p.target++
		}
		p.target = min(max(p.target, t.Min), t.Max)
	}
	face := func(rule *ruleset.FaceRule, ask Opt, moved *Opt) int {
		if rule == nil {
			return 0
		}
		at := 0
		if rule.From != nil {
			at = *rule.From
		}
		if ask.Set && rule.Min != nil {
			v := min(max(ask.V, *rule.Min), p.sides)
			if v != at {
				*moved = opt(v)
			}
			at = v
		}
		return at
	}
	p.explodeAt = face(res.Explode, r.req.Explode, &r.out.Explode)
	p.doubleAt = face(res.Double, r.req.Double, &r.out.Double)
	if r.req.Reroll != "" {
		for i := range res.Reroll {
			if rr := &res.Reroll[i]; matches(r.req.Reroll, rr.ID, rr.ID) {
				p.reroll, p.rerollID = &ruleset.Reroll{UpTo: rr.UpTo, Mode: rr.Mode}, rr.ID
			}
		}
	}
	return p
}

// throwPool throws n dice, throws again the ones a re-throw reaches, then adds a die for
// every face at or above the explode face (an added die may explode in turn), at most
// pool.max dice added. It returns the faces that count, in order.
func (r *run) throwPool(n int, p poolRules) []int {
	faces := make([]int, 0, n+4)
	for range n {
		faces = append(faces, r.rec.roll(p.sides))
	}
	if rr := p.reroll; rr != nil {
		thrown := 0
		for i := range faces {
			for faces[i] <= rr.UpTo && thrown < maxRethrows {
				faces[i] = r.rec.roll(p.sides)
				thrown++
				if rr.Mode != "until" {
					break
				}
			}
		}
		r.out.Rethrows = thrown
		if thrown > 0 && p.rerollID != "" {
			r.out.Reroll = p.rerollID
		}
	}
	if p.explodeAt > 0 {
		extra, limit := 0, r.res.PoolRange().Max
		for i := 0; i < len(faces) && extra < limit; i++ {
			if faces[i] >= p.explodeAt {
				faces = append(faces, r.rec.roll(p.sides))
				extra++
			}
		}
	}
	return faces
}

// poolDC is the successes a pool check needs: dc= held to 1 and the most one roll can
// count, else the step's, else one.
func (r *run) poolDC(step *ruleset.LadderStep) int {
	if r.req.DC.Set {
		return min(max(r.req.DC.V, 1), r.res.MaxSuccesses())
	}
	if step != nil && step.Successes != nil {
		return *step.Successes
	}
	return 1
}

// entry applies a paid entry's mechanics.check: dice before the throw and successes after
// the count, times over; a threshold, explode or double face that outranks the tag's
// (held to the ruleset as the tag's is); its re-throw where it reaches more faces.
func (r *run) entry(p *poolRules, b *bought) {
	e := r.req.Entry
	if e == nil || e.Effect == nil || e.Times < 1 {
		return
	}
	x, times := e.Effect, e.Times
	if x.Dice != nil {
		b.dice += times * *x.Dice
	}
	if x.Successes != nil {
		b.successes += times * *x.Successes
	}
	if t := r.res.Target; x.Threshold != nil && t.Min < t.Max {
		p.target = min(max(*x.Threshold, t.Min), t.Max)
		r.out.Threshold = p.target
	}
	move := func(rule *ruleset.FaceRule, face *int, at *int, moved *Opt) {
		if rule == nil || rule.Min == nil || face == nil {
			return
		}
		*at = min(max(*face, *rule.Min), p.sides)
		*moved = opt(*at)
	}
	move(r.res.Explode, x.Explode, &p.explodeAt, &r.out.Explode)
	move(r.res.Double, x.Double, &p.doubleAt, &r.out.Double)
	if x.Reroll != nil && (b.reroll == nil || rerollBetter(x.Reroll, b.reroll)) {
		b.reroll = x.Reroll
	}
	r.out.Use = e.Name
}
