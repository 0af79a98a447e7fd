package check

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// A check resolved again with the faces it threw comes out the same, record and all:
// what undo, redo and a regenerate rely on.
func TestReplayResolvesTheSameCheck(t *testing.T) {
	rs, c := gravewatch(t)
	v := sheet.Evaluate(rs, c, nil)
	for _, tag := range []string{
		`[skill_check: skill="Ward" difficulty="Grim" explode="8" reroll="careful"]`,
		`[skill_check: ability="Nerve" dc="2" with="Warmth" spend="resolve:2"]`,
	} {
		req := request(t, tag)
		for seed := range uint64(20) {
			first, err := Resolve(rs, v, req, Seeded(seed))
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Resolve(rs, v, req, NewReplay(first.Faces, Seeded(seed+1000)))
			if !slices.Equal(first.Record(), again.Record()) || !slices.Equal(first.Faces, again.Faces) {
				t.Fatalf("%s seed %d: replay %v, first %v", tag, seed, again.Record(), first.Record())
			}
		}
	}
}

// Totals and success counts lie in their bounds, whatever the card and the ask.
func TestRapidBounds(t *testing.T) {
	sum5e := reference(t, "5e-2014/ruleset.json")
	ember := reference(t, "ember-roads.json")
	grave := reference(t, "gravewatch.json")
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		mode := rapid.SampledFrom([]string{"", "advantage", "disadvantage"}).Draw(rt, "mode")
		for _, rs := range []*ruleset.Ruleset{sum5e, ember} {
			score := float64(rapid.IntRange(-5, 30).Draw(rt, "score"))
			c := card(rs, map[string]float64{rs.Sheet.Abilities[0].ID: score}, nil)
			req := Request{Subject: Ability, Name: rs.Sheet.Abilities[0].ID, Mode: mode, DC: opt(rapid.IntRange(-5, 40).Draw(rt, "dc"))}
			res, err := Resolve(rs, sheet.Evaluate(rs, c, nil), req, Seeded(seed))
			if err != nil {
				rt.Fatal(err)
			}
			count, sides := 1, 20
			if d := rs.Resolution.Dice; d != nil {
				count, sides = d.Count, d.Sides
			}
			if res.Used < count || res.Used > count*sides || res.Total != res.Used+res.Modifier {
				rt.Fatalf("%s: used %d total %d modifier %d", rs.ID, res.Used, res.Total, res.Modifier)
			}
			if (res.Total >= res.DC) != (res.Outcome == Success || res.Outcome == CriticalSuccess) && rs.Resolution.Naturals == nil {
				rt.Fatalf("%s: total %d dc %d %s", rs.ID, res.Total, res.DC, res.Outcome)
			}
		}
		c := card(grave, map[string]float64{"nerve": float64(rapid.IntRange(0, 20).Draw(rt, "nerve"))}, nil)
		req := Request{Subject: Skill, Name: "ward", Bonus: opt(rapid.IntRange(-10, 10).Draw(rt, "bonus")),
			Threshold: opt(rapid.IntRange(0, 12).Draw(rt, "threshold")), Explode: opt(rapid.IntRange(0, 12).Draw(rt, "explode")),
			Reroll: "careful", DC: opt(rapid.IntRange(-3, 100).Draw(rt, "dc"))}
		res, err := Resolve(grave, sheet.Evaluate(grave, c, nil), req, Seeded(seed))
		if err != nil {
			rt.Fatal(err)
		}
		b := grave.Resolution.PoolRange()
		if n := len(res.Rolls); n < b.Min || n > 2*b.Max {
			rt.Fatalf("%d dice thrown", n)
		}
		if res.Successes < 0 || res.Successes > grave.Resolution.MaxSuccesses() || res.DC < 1 || res.DC > grave.Resolution.MaxSuccesses() {
			rt.Fatalf("successes %d dc %d", res.Successes, res.DC)
		}
		if t := grave.Resolution.Target; res.Threshold < t.Min || res.Threshold > t.Max {
			rt.Fatalf("threshold %d", res.Threshold)
		}
	})
}

// Free rolls: the total is the kept faces plus the constants, within the notation's bounds.
func TestRapidFreeRoll(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 20).Draw(rt, "n")
		sides := rapid.IntRange(1, 1000).Draw(rt, "sides")
		keep := rapid.IntRange(0, n).Draw(rt, "keep")
		k := parser.DiceTerm{Count: n, Sides: sides, Keep: keep, KeepLow: rapid.Bool().Draw(rt, "low")}
		c := rapid.IntRange(0, 100).Draw(rt, "const")
		d := parser.Dice{Terms: []parser.DiceTerm{k, {Neg: true, Const: c}}}
		r := RollDice(d, Seeded(rapid.Uint64().Draw(rt, "seed")))
		kept := n
		if keep > 0 {
			kept = keep
		}
		if r.Total < kept-c || r.Total > kept*sides-c || len(r.Faces) != n {
			rt.Fatalf("%s: total %d faces %v", d, r.Total, r.Faces)
		}
	})
}

// chiSquare compares observed counts with expected probabilities; it fails beyond the
// 0.999 quantile for the degrees of freedom (a fixed seed: it never flakes).
func chiSquare(t *testing.T, what string, counts []int, probs []float64, limit float64) {
	t.Helper()
	total := 0
	for _, c := range counts {
		total += c
	}
	x := 0.0
	for i, p := range probs {
		e := p * float64(total)
		x += (float64(counts[i]) - e) * (float64(counts[i]) - e) / e
	}
	if x > limit {
		t.Errorf("%s: chi-square %.1f over %.1f (counts %v)", what, x, limit, counts)
	}
}

const statRolls = 100_000

func TestDistributions(t *testing.T) {
	src := Seeded(2026)
	// 1d20: uniform; 19 degrees of freedom, 0.999 quantile 43.8.
	d20 := make([]int, 20)
	p20 := make([]float64, 20)
	for i := range p20 {
		p20[i] = 1.0 / 20
	}
	one := mustDice(t, "1d20")
	for range statRolls {
		d20[RollDice(one, src).Total-1]++
	}
	chiSquare(t, "1d20", d20, p20, 43.8)
	// 2d6: triangular over 2..12; 10 degrees of freedom, 29.6.
	twoD6 := make([]int, 11)
	p2d6 := make([]float64, 11)
	for s := 2; s <= 12; s++ {
		p2d6[s-2] = float64(6-int(math.Abs(float64(s-7)))) / 36
	}
	two := mustDice(t, "2d6")
	for range statRolls {
		twoD6[RollDice(two, src).Total-2]++
	}
	chiSquare(t, "2d6", twoD6, p2d6, 29.6)

	// Advantage keeps the higher die: P(k) = (2k-1)/400 on a d20; never the lower one.
	rs := reference(t, "5e-2014/ruleset.json")
	adv := make([]int, 20)
	padv := make([]float64, 20)
	for k := 1; k <= 20; k++ {
		padv[k-1] = float64(2*k-1) / 400
	}
	req := Request{Subject: Ability, Name: "dex", Mode: "advantage", DC: opt(10)}
	for range statRolls {
		res, _ := Resolve(rs, nil, req, src)
		if res.Used != max(res.Rolls[0], res.Rolls[1]) {
			t.Fatalf("advantage used %d of %v", res.Used, res.Rolls)
		}
		adv[res.Used-1]++
	}
	chiSquare(t, "advantage", adv, padv, 43.8)

	// A plain d10 pool: five dice at target 7 count Binomial(5, 0.4) successes; 5
	// degrees of freedom, 20.5.
	grave := reference(t, "gravewatch.json")
	grave.Resolution.Explode, grave.Resolution.Cancel, grave.Resolution.Botch, grave.Resolution.Exceptional = nil, nil, nil, nil
	c := card(grave, map[string]float64{"nerve": 5}, nil)
	v := sheet.Evaluate(grave, c, nil)
	pool := make([]int, 6)
	pbin := make([]float64, 6)
	for k := range 6 {
		pbin[k] = binomial(5, k) * math.Pow(0.4, float64(k)) * math.Pow(0.6, float64(5-k))
	}
	preq := Request{Subject: Ability, Name: "nerve", DC: opt(2)} // Awkward: no target of its own
	for range statRolls {
		res, _ := Resolve(grave, v, preq, src)
		pool[res.Successes]++
	}
	chiSquare(t, "5d10 pool", pool, pbin, 20.5)
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := range k {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

func BenchmarkResolveCheck(b *testing.B) {
	rs := reference(b, "5e-2014/ruleset.json")
	c := card(rs, map[string]float64{"dex": 16}, map[string]string{"stealth": "proficient"})
	c.Build.Fields["level"] = 5.0
	v := sheet.Evaluate(rs, c, nil)
	req := Request{Who: "Mira", Subject: Skill, Name: "Stealth", DC: opt(15), Mode: "advantage"}
	src := Seeded(1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Resolve(rs, v, req, src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "µs/check")
}

func BenchmarkExplodingPool20(b *testing.B) {
	rs := reference(b, "gravewatch.json")
	rs.Resolution.Pool.Max = 40
	seven := 7
	rs.Resolution.Explode.From = &seven
	c := card(rs, map[string]float64{"nerve": 20}, nil)
	v := sheet.Evaluate(rs, c, nil)
	req := Request{Subject: Ability, Name: "nerve", DC: opt(5), Reroll: "careful"}
	src := Seeded(1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Resolve(rs, v, req, src); err != nil {
			b.Fatal(err)
		}
	}
}
