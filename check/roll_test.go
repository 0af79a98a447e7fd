package check

import (
	"slices"
	"testing"

	"sheetkeeper/parser"
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
