package check

import (
	"slices"
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/sheet"
)

// gravewatch is a warden on Gravewatch's d10 pool: Nerve 3, Sinew 2, Warmth 2, Ward
// Steady (+2: five dice), Soothe Trusted (+3), capped at the Resolve left.
func gravewatch(t *testing.T) (*ruleset.Ruleset, *sheet.Card) {
	rs := reference(t, "gravewatch.json")
	c := card(rs, map[string]float64{"nerve": 3, "sinew": 2, "warmth": 2}, map[string]string{"ward": "rating_2", "soothe": "rating_3"})
	return rs, c
}

// replayed resolves tag with exactly faces (then seed 1) and returns the record; it
// checks the faces thrown were the ones given.
func replayed(t *testing.T, rs *ruleset.Ruleset, c *sheet.Card, tag string, faces ...int) (Result, string) {
	t.Helper()
	res, err := Resolve(rs, sheet.Evaluate(rs, c, nil), request(t, tag), NewReplay(faces, Seeded(1)))
	if err != nil {
		t.Fatalf("%s: %v", tag, err)
	}
	if !slices.Equal(res.Faces, faces) {
		t.Errorf("%s: faces %v, want %v", tag, res.Faces, faces)
	}
	return res, parser.Read(tag).Tags[0].WriteRecord(res.Record())
}

func TestPoolGravewatchSeeded(t *testing.T) {
	rs, c := gravewatch(t)
	for _, tc := range []struct {
		tag  string
		seed uint64
		want string
	}{
		// Ward with Sinew instead of Nerve (4 dice), two taken off by bonus=, target 8.
		{`[skill_check: skill="Ward" dc="2" who="Bram" threshold="8" bonus="-2" with="Sinew"]`, 3,
			`[skill_check: who="Bram" skill="Ward" with="Sinew" dc="2" dice="2d10" resolution="successes" threshold="8" rolls="2|9" successes="1" result="failure"]`},
		// Grim: three successes at target 8; explode moved to 9, so the 9 throws another.
		{`[skill_check: skill="Ward" difficulty="Grim" explode="9"]`, 1,
			`[skill_check: skill="Ward" dc="3" dice="5d10" resolution="successes" threshold="8" explode="9" rolls="2|3|3|9|8|8" successes="3" result="success"]`},
		// An exploded die explodes in turn; a 1 cancels one success.
		{`[skill_check: skill="Ward" difficulty="Grim" explode="9"]`, 3,
			`[skill_check: skill="Ward" dc="3" dice="5d10" resolution="successes" threshold="8" explode="9" rolls="2|9|1|5|3|9|2" successes="1" result="failure"]`},
		// abilityPlusAbility: Nerve and Warmth thrown together; the 10 explodes.
		{`[skill_check: ability="Nerve" dc="1" with="Warmth"]`, 2,
			`[skill_check: ability="Nerve" with="Warmth" dc="1" dice="5d10" resolution="successes" threshold="6" rolls="7|4|5|10|5|8" successes="3" result="success"]`},
		// careful: every face of 6 or less thrown again once; the new face stands.
		{`[skill_check: skill="Ward" dc="2" reroll="careful"]`, 1,
			`[skill_check: skill="Ward" dc="2" dice="5d10" resolution="successes" threshold="7" reroll="careful" rolls="8|1|1|9|8" successes="1" result="failure"]`},
		// threshold= outside target 5..9 is pulled back to 9; bonus= beyond +3 to +3.
		{`[skill_check: skill="Ward" dc="40" threshold="12" bonus="+9"]`, 1,
			`[skill_check: skill="Ward" dc="30" dice="8d10" resolution="successes" threshold="9" rolls="2|3|3|9|8|8|1|1" successes="0" result="failure"]`},
	} {
		_, got := resolve(t, rs, c, tc.tag, tc.seed)
		wantRecord(t, got, tc.want)
	}
}

func TestPoolSpend(t *testing.T) {
	rs, c := gravewatch(t)
	// resolve:1 buys one success, added after the dice are counted and cancelled.
	res, got := replayed(t, rs, c, `[skill_check: skill="Ward" dc="2" spend="resolve:1"]`, 2, 3, 3, 9, 1)
	wantRecord(t, got, `[skill_check: skill="Ward" dc="2" dice="5d10" resolution="successes" threshold="7" spend="resolve:1" rolls="2|3|3|9|1" successes="1" result="failure"]`)
	if !slices.Equal(res.Paid, []Payment{{"resolve", 1}}) || res.Bought != 1 {
		t.Errorf("paid %v bought %d", res.Paid, res.Bought)
	}
	// Asking for five is clamped to perCheck 2, and only the cap is paid.
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="2" spend="Resolve:5"]`, 2, 3, 3, 4, 5)
	if !slices.Equal(res.Paid, []Payment{{"resolve", 2}}) || res.Successes != 2 || res.Outcome != Success {
		t.Errorf("paid %v successes %d %s", res.Paid, res.Successes, res.Outcome)
	}
	// A pool that cannot cover it buys nothing and pays nothing.
	c.Live.Pools = map[string]sheet.PoolValue{"resolve": {Value: 1}}
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="2" spend="resolve:2"]`, 2, 3, 3, 4, 5)
	if len(res.Paid) != 0 || res.Successes != 0 {
		t.Errorf("paid %v successes %d with one Resolve left", res.Paid, res.Successes)
	}
	// A bought success is a success: faces with none and a 1 do not botch it.
	c.Live.Pools = map[string]sheet.PoolValue{"resolve": {Value: 3}}
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="1" spend="resolve:1"]`, 1, 2, 3, 4, 5)
	if res.Outcome != Success || res.Successes != 1 {
		t.Errorf("a bought success beside a 1: %s, %d successes; want success, 1", res.Outcome, res.Successes)
	}
	// A pool no spend rule names is ignored.
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="2" spend="luck:1"]`, 2, 3, 3, 4, 5)
	if len(res.Paid) != 0 {
		t.Errorf("paid %v from a pool no rule names", res.Paid)
	}
}

func TestPoolPenaltyAndCap(t *testing.T) {
	rs, c := gravewatch(t)
	// Three marks on Harm: Bleeding, three dice off Ward's five. dc="1" is exactly the
	// step Plain work needs, so the check counts with its target, 6.
	c.Live.Wounds = map[string]sheet.Wounds{"harm": {Marks: []string{"tear", "knock", "knock"}}}
	_, got := replayed(t, rs, c, `[skill_check: skill="Ward" dc="1"]`, 7, 2)
	wantRecord(t, got, `[skill_check: skill="Ward" dc="1" dice="2d10" resolution="successes" threshold="6" rolls="7|2" penalty="-3" successes="1" result="success"]`)
	// Down (-99) is floored at pool.min: one die.
	c.Live.Wounds = map[string]sheet.Wounds{"harm": {Marks: []string{"tear", "tear", "tear", "tear"}}}
	res, _ := replayed(t, rs, c, `[skill_check: skill="Ward" dc="1"]`, 4)
	if res.Dice != "1d10" || res.Penalty != -99 {
		t.Errorf("dice %s penalty %d", res.Dice, res.Penalty)
	}
	// Soothe (Warmth 2 + Trusted 3 = 5) is capped at the Resolve left: 2.
	c.Live.Wounds = nil
	c.Live.Pools = map[string]sheet.PoolValue{"resolve": {Value: 2}}
	res, _ = replayed(t, rs, c, `[skill_check: skill="Soothe" dc="1"]`, 7, 2)
	if res.Dice != "2d10" || !res.Capped || res.Number != 2 {
		t.Errorf("dice %s capped %v number %d", res.Dice, res.Capped, res.Number)
	}
}

func TestPoolBotchExceptionalDouble(t *testing.T) {
	rs, c := gravewatch(t)
	ward := `[skill_check: skill="Ward" dc="1"]`
	// No die succeeded and a 1 showed: a botch.
	res, _ := replayed(t, rs, c, ward, 1, 2, 3, 4, 5)
	if res.Outcome != CriticalFailure {
		t.Errorf("botch: %s", res.Outcome)
	}
	// A success cancelled away has failed, not botched.
	res, _ = replayed(t, rs, c, ward, 1, 2, 3, 4, 7)
	if res.Outcome != Failure || res.Successes != 0 {
		t.Errorf("cancelled: %s %d", res.Outcome, res.Successes)
	}
	// Five net successes: exceptional.
	res, _ = replayed(t, rs, c, ward, 7, 8, 9, 7, 8)
	if res.Outcome != CriticalSuccess || res.Successes != 5 {
		t.Errorf("exceptional: %s %d", res.Outcome, res.Successes)
	}
	// halfOrMore: low faces on at least half the first dice; beside a success, a complication.
	rs.Resolution.Botch.Rule = "halfOrMore"
	res, got := replayed(t, rs, c, ward, 1, 1, 1, 9, 9)
	if res.Outcome != Failure || !res.Complication {
		t.Errorf("halfOrMore with successes: %s complication %v", res.Outcome, res.Complication)
	}
	wantRecord(t, got, `[skill_check: skill="Ward" dc="1" dice="5d10" resolution="successes" threshold="6" rolls="1|1|1|9|9" successes="0" result="failure" complication="true"]`)
	res, _ = replayed(t, rs, c, ward, 1, 1, 1, 4, 4)
	if res.Outcome != CriticalFailure {
		t.Errorf("halfOrMore, no success: %s", res.Outcome)
	}
	res, _ = replayed(t, rs, c, ward, 1, 2, 3, 4, 4)
	if res.Outcome != Failure {
		t.Errorf("halfOrMore, one low face: %s", res.Outcome)
	}
	// double: a face at or above 9 counts twice; double= moves it down to its min.
	nine, eight := 9, 8
	rs.Resolution.Double = &ruleset.FaceRule{From: &nine, Min: &eight}
	res, _ = replayed(t, rs, c, ward, 9, 8, 7, 2, 2)
	if res.Successes != 4 {
		t.Errorf("double from 9: %d successes", res.Successes)
	}
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="1" double="2"]`, 9, 8, 7, 2, 2)
	if res.Successes != 5 || !res.Double.Set || res.Double.V != 8 {
		t.Errorf("double moved to 8: %d successes, double %+v", res.Successes, res.Double)
	}
}

func TestPoolRerollUntilAndLimits(t *testing.T) {
	rs, c := gravewatch(t)
	rs.Resolution.Reroll[0].Mode = "until"
	// until: a die keeps being thrown while it shows 6 or less.
	res, _ := replayed(t, rs, c, `[skill_check: skill="Ward" dc="1" reroll="careful"]`, 8, 8, 8, 8, 2, 3, 4, 7)
	if !slices.Equal(res.Rolls, []int{8, 8, 8, 8, 7}) || res.Rethrows != 3 || res.Reroll != "careful" {
		t.Errorf("until: rolls %v rethrows %d reroll %q", res.Rolls, res.Rethrows, res.Reroll)
	}
	// A re-throw that threw nothing is not written; an unknown id is ignored.
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="1" reroll="careful"]`, 8, 8, 8, 8, 8)
	if res.Reroll != "" {
		t.Errorf("reroll %q written for nothing thrown", res.Reroll)
	}
	// An "until" stops after 100 re-throws on one check, whatever the faces.
	faces := []int{1, 1, 1, 1, 1}
	for range 200 {
		faces = append(faces, 1)
	}
	r, err := Resolve(rs, sheet.Evaluate(rs, c, nil), request(t, `[skill_check: skill="Ward" dc="1" reroll="careful"]`), NewReplay(faces, Seeded(1)))
	if err != nil || r.Rethrows != maxRethrows || len(r.Faces) != 5+maxRethrows {
		t.Errorf("rethrows %d faces %d (%v)", r.Rethrows, len(r.Faces), err)
	}
	// Exploding dice stop at pool.max added dice.
	rs.Resolution.Explode.From = new(int)
	*rs.Resolution.Explode.From = 2
	tens := make([]int, 0, 40)
	for range 40 {
		tens = append(tens, 10)
	}
	r, _ = Resolve(rs, sheet.Evaluate(rs, c, nil), request(t, `[skill_check: skill="Ward" dc="1"]`), NewReplay(tens, Seeded(1)))
	if len(r.Rolls) != 5+rs.Resolution.PoolRange().Max {
		t.Errorf("%d dice thrown with every face exploding", len(r.Rolls))
	}
}

func TestPoolUntrainedAndEmpty(t *testing.T) {
	rs, c := gravewatch(t)
	listen := findSkillLike(rs.Sheet.Skills, "listen")
	listen.Rule = &ruleset.UntrainedRule{Mode: "harder"}
	res, _ := replayed(t, rs, c, `[skill_check: skill="Listen" dc="1"]`, 7, 8, 9)
	if res.Threshold != 7 || res.Untrained != "harder" { // Plain work's 6, one harder
		t.Errorf("harder: threshold %d untrained %q", res.Threshold, res.Untrained)
	}
	listen.Rule = &ruleset.UntrainedRule{Mode: "refuse"}
	if _, err := Resolve(rs, sheet.Evaluate(rs, c, nil), request(t, `[skill_check: skill="Listen" dc="1"]`), Seeded(1)); refusal.Of(err) != refusal.Untrained {
		t.Errorf("refuse: %v", err)
	}
	// pool.min 0: an empty pool fails with no roll at all.
	rs.Resolution.Pool.Min = 0
	c.Live.Wounds = map[string]sheet.Wounds{"harm": {Marks: []string{"tear", "tear", "tear", "tear"}}}
	res, _ = replayed(t, rs, c, `[skill_check: skill="Ward" dc="1"]`)
	if res.Dice != "0d10" || res.Outcome != Failure || len(res.Faces) != 0 {
		t.Errorf("empty pool: %s %s %v", res.Dice, res.Outcome, res.Faces)
	}
}

// A paid entry's mechanics.check changes the roll: successes nobody rolled, a re-throw,
// a moved explode face that outranks the tag's; the record names the entry.
func TestPoolEntry(t *testing.T) {
	rs, c := gravewatch(t)
	one := 1
	potence := &Entry{Name: "Grave-salt", Effect: &ruleset.CheckEffect{Reroll: &ruleset.Reroll{UpTo: 1, Mode: "once"}, Successes: &one}, Times: 2}
	req := request(t, `[skill_check: skill="Ward" dc="2" use="Grave-salt"]`)
	req.Entry = potence
	res, err := Resolve(rs, sheet.Evaluate(rs, c, nil), req, NewReplay([]int{1, 7, 2, 3, 4, 9}, Seeded(1)))
	if err != nil {
		t.Fatal(err)
	}
	// The 1 is thrown again (9); 7 and 9 succeed, and two bought successes make four.
	if !slices.Equal(res.Rolls, []int{9, 7, 2, 3, 4}) || res.Successes != 4 || res.Outcome != Success || res.Use != "Grave-salt" {
		t.Errorf("rolls %v successes %d %s use %q", res.Rolls, res.Successes, res.Outcome, res.Use)
	}
	eight := 8
	req = request(t, `[skill_check: skill="Ward" dc="1" explode="10"]`)
	req.Entry = &Entry{Name: "Lantern", Effect: &ruleset.CheckEffect{Explode: &eight}, Times: 1}
	res, _ = Resolve(rs, sheet.Evaluate(rs, c, nil), req, NewReplay([]int{8, 2, 2, 2, 2, 3}, Seeded(1)))
	if !res.Explode.Set || res.Explode.V != 8 || len(res.Rolls) != 6 {
		t.Errorf("explode %+v rolls %v", res.Explode, res.Rolls)
	}
}

// The card's numbers come back with the result: score, modifier, tier, proficiency.
func TestCardNumbers(t *testing.T) {
	_, roll := mira5e(t)
	res, _ := roll(`[skill_check: skill="Stealth" dc="10"]`, 1)
	if res.Score != 16 || res.AbilityMod != 3 || res.Tier != "proficient" || res.Proficiency != 3 || res.Number != 6 {
		t.Errorf("%+v", res)
	}
}

// An item's worn effect, handed in by the inventory, changes the check as a condition
// does: Gravewatch's bound Dawn bell adds a die to Ward, and only to Ward.
func TestPoolItemEffects(t *testing.T) {
	rs, c := gravewatch(t)
	one := 1
	bell := ItemEffects{From: "Dawn bell", Effects: &fight.Effects{Modifiers: []fight.Modifier{{To: "checks", Skills: []string{"ward"}, Flat: &one}}}}
	req := request(t, `[skill_check: skill="Ward" dc="2"]`)
	req.Items = []ItemEffects{bell}
	res, got := func() (Result, string) {
		res, err := Resolve(rs, sheet.Evaluate(rs, c, nil), req, NewReplay([]int{7, 7, 1, 2, 3, 4}, Seeded(1)))
		if err != nil {
			t.Fatal(err)
		}
		return res, parser.Read(`[skill_check: skill="Ward" dc="2"]`).Tags[0].WriteRecord(res.Record())
	}()
	if res.Dice != "6d10" {
		t.Errorf("dice %s", res.Dice)
	}
	wantRecord(t, got, `[skill_check: skill="Ward" dc="2" dice="6d10" resolution="successes" threshold="7" rolls="7|7|1|2|3|4" successes="1" result="failure" effects="+1" from="Dawn bell"]`)
	req = request(t, `[skill_check: skill="Listen" dc="2"]`)
	req.Items = []ItemEffects{bell}
	res, _ = Resolve(rs, sheet.Evaluate(rs, c, nil), req, Seeded(1))
	if res.Effects != 0 || len(res.From) != 0 {
		t.Errorf("the bell changed Listen: %+v", res)
	}
}
