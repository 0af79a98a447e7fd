package inventory

import (
	"math"
	"slices"
	"testing"
)

func TestShare(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name    string
		w       float64
		n       int64
		bearers []Bearer
		want    []int64
		left    int64
	}{
		{"weightless to the first", 0, 5, []Bearer{{10, 5, inf}, {0, 20, inf}}, []int64{5, 0}, 0},
		{"all to the first who carries it unencumbered", 2, 3, []Bearer{{10, 12, inf}, {0, 12, inf}}, []int64{0, 3}, 0},
		{"the first asked wins a tie", 1, 2, []Bearer{{0, 12, inf}, {0, 12, inf}}, []int64{2, 0}, 0},
		{"split by room, most first", 1, 10, []Bearer{{8, 12, inf}, {4, 12, inf}}, []int64{2, 8}, 0},
		{"past everyone's ease, to the least over", 1, 6, []Bearer{{12, 12, inf}, {10, 12, inf}}, []int64{2, 4}, 0},
		{"never past a limit; the rest is left", 2, 5, []Bearer{{10, 10, 14}, {0, 2, 3}}, []int64{2, 1}, 2},
		{"nobody asked", 1, 3, nil, []int64{}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, left := Share(tc.w, tc.n, tc.bearers)
			if !slices.Equal(got, tc.want) || left != tc.left {
				t.Errorf("Share = %v left %d, want %v left %d", got, left, tc.want, tc.left)
			}
			var sum int64
			for _, s := range got {
				sum += s
			}
			if sum+left != tc.n {
				t.Errorf("shares %v and left %d do not add up to %d", got, left, tc.n)
			}
		})
	}
}
