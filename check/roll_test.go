package check

import (
	"slices"
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
)

func mustDice(t testing.TB, s string) parser.Dice {
	t.Helper()
	d, err := parser.ParseDice(s)
	if err != nil {
		t.Fatalf("ParseDice(%q): %v", s, err)
	}
	return d
}

func TestRollDiceFixedSeed(t *testing.T) {
	src := Seeded(1)
	for _, c := range []struct {
		notation string
		faces    []int
		total    int
		text     string
	}{
		{"2d6+1", []int{1, 2}, 4, "2d6+1 = 4 (1, 2 +1)"},
		{"d20", []int{5}, 5, "1d20 = 5"},
		{"4d6kh3", []int{6, 5, 5, 1}, 16, "4d6kh3 = 16 (6, 5, 5, (1))"},
		{"2d20kl1-2", []int{2, 17}, 0, "2d20kl1-2 = 0 (2, (17) -2)"},
	} {
		r := RollDice(mustDice(t, c.notation), src)
		if !slices.Equal(r.Faces, c.faces) || r.Total != c.total || r.Text() != c.text {
			t.Errorf("%s: faces %v total %d text %q, want %v %d %q", c.notation, r.Faces, r.Total, r.Text(), c.faces, c.total, c.text)
		}
	}
}

// TestRollTextConstantsAfterFaces: a constant the notation puts before or between dice
// is written after the faces, so it never runs into a face ("1+2d6" once showed its
// faces 3 and 4 as "+13, 4"), and a roll of constants alone shows its total alone.
func TestRollTextConstantsAfterFaces(t *testing.T) {
	for _, c := range []struct {
		notation string
		faces    []int
		text     string
	}{
		{"1+2d6", []int{3, 4}, "1+2d6 = 8 (3, 4 +1)"},
		{"2-1d4+1d6", []int{3, 5}, "2-1d4+1d6 = 4 (-3, 5 +2)"},
		{"d20+1+2", []int{10}, "1d20+1+2 = 13 (10 +1 +2)"},
		{"5", nil, "5 = 5"},
	} {
		r := RollDice(mustDice(t, c.notation), NewReplay(c.faces, Seeded(1)))
		if r.Text() != c.text {
			t.Errorf("%s with faces %v: text %q, want %q", c.notation, c.faces, r.Text(), c.text)
		}
	}
}

func TestReplayGivesBackTheFaces(t *testing.T) {
	d := mustDice(t, "3d8+2")
	first := RollDice(d, Seeded(7))
	again := RollDice(d, NewReplay(first.Faces, Seeded(99)))
	if !slices.Equal(first.Faces, again.Faces) || first.Total != again.Total {
		t.Fatalf("replay %v/%d, first %v/%d", again.Faces, again.Total, first.Faces, first.Total)
	}
	// A stored face that no longer fits the die is not used: the replay throws anew.
	rp := NewReplay([]int{8, 8}, Seeded(1))
	if f := rp.Roll(6); f > 6 || !rp.Diverged {
		t.Fatalf("face %d diverged %v", f, rp.Diverged)
	}
}

func TestNewSourceRollsInRange(t *testing.T) {
	src := NewSource()
	for range 1000 {
		if f := src.Roll(6); f < 1 || f > 6 {
			t.Fatalf("face %d", f)
		}
	}
}

func TestRollTag(t *testing.T) {
	tag := parser.Read("[dice: 2d6 + 1 = 99 (6, 6 +1)]").Tags[0]
	r, err := RollTag(tag, Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := tag.WriteRecord(r.Record()); got != "[dice: 2d6+1 = 4 (1, 2 +1)]" {
		t.Errorf("write-back %s", got)
	}
	bad := parser.Read("[dice: 101d6]").Tags[0]
	if _, err := RollTag(bad, Seeded(1)); refusal.Of(err) != refusal.Malformed {
		t.Errorf("101d6: %v", err)
	}
}

// One check costs a handful of allocations beyond its write-back.
func TestResolveAllocations(t *testing.T) {
	rs := reference(t, "5e-2014/ruleset.json")
	c := card(rs, map[string]float64{"dex": 16}, map[string]string{"stealth": "proficient"})
	v := sheet.Evaluate(rs, c, nil)
	req := Request{Subject: Skill, Name: "Stealth", DC: opt(15), Mode: "advantage"}
	src := Seeded(1)
	if n := testing.AllocsPerRun(100, func() { _, _ = Resolve(rs, v, req, src) }); n > 10 {
		t.Errorf("%v allocations per check", n)
	}
}
