package inventory

import "math"

// The party share-out (SPEC 7, Marinara's inventory): an item added without saying who
// takes it goes to whoever can carry it, so the GM's "you find 40 lb of iron" lands on
// the party the way players would share it out, and nobody is made to carry what they
// cannot.

// Bearer is one character an addition may go to: the weight they carry now, the most
// they carry before they are encumbered (Above) and at all (Limit), +Inf for no line.
type Bearer struct {
	Load, Above, Limit float64
}

// shareSlack is how far past a line a load of fractions may sum and still be at it.
const shareSlack = 1e-9

// Share splits n of an item weighing w each among bearers, in the order they are asked
// (the character the tag is for first, then the party):
//  1. all of it to the first who can carry it all without becoming encumbered;
//  2. otherwise to each the most they can without becoming encumbered, most room first;
//  3. what is still left one at a time to whoever would then be least over their line,
//     never past their limit;
//  4. what nobody can carry within their limit is left (left > 0).
//
// Something that weighs nothing goes to the first bearer.
func Share(w float64, n int64, bearers []Bearer) (shares []int64, left int64) {
	shares = make([]int64, len(bearers))
	if len(bearers) == 0 {
		return shares, n
	}
	if w <= 0 {
		shares[0] = n
		return shares, 0
	}
	fits := func(room float64) int64 {
		if math.IsInf(room, 1) {
			return n
		}
		return int64(max(0, math.Floor(room/w+shareSlack)))
	}
	free := make([]int64, len(bearers))
	most := make([]int64, len(bearers))
	for i, b := range bearers {
		free[i], most[i] = min(fits(b.Above-b.Load), fits(b.Limit-b.Load)), fits(b.Limit-b.Load)
		if free[i] >= n {
			shares[i] = n
			return shares, 0
		}
	}
	left = n
	order := make([]int, len(bearers))
	for i := range order {
		order[i] = i
	}
	// Most room first; the order asked breaks a tie (a stable insertion sort: a party is small).
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && free[order[j]] > free[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		take := min(left, free[i])
		shares[i] += take
		left -= take
	}
	for left > 0 {
		best, bestOver := -1, math.Inf(1)
		for i, b := range bearers {
			if shares[i] >= most[i] {
				continue
			}
			if over := b.Load + w*float64(shares[i]+1) - b.Above; over < bestOver {
				best, bestOver = i, over
			}
		}
		if best < 0 {
			break
		}
		shares[best]++
		left--
	}
	return shares, left
}
