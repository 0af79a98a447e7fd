package sheet

import (
	"math"
	"slices"
	"strconv"

	"sheetkeeper/ruleset"
)

// Wound tracks, by the guide's exact rules:
//
//   - A sequential track (the default) holds its marks sorted most severe first; a new
//     mark is placed in severity order, taking the highest level its severity earns and
//     pushing lighter marks down. An indexed track ("fill": "indexed") puts a mark on the
//     box the command names, or the next free one above it, and never moves a mark.
//   - The penalty in force on named levels is the one on the lowest marked level (never
//     a sum; none unmarked). On boxes it is the track's table read at the boxes filled or
//     remaining.
//   - An amount is that many marks of one kind, applied one at a time.
//   - Marking a full track upgrades its lowest-severity mark one step up the ladder of
//     kinds; past the top the mark is counted as overflow, which is kept. A track with
//     "onFull": "refuse" (and every indexed one) refuses the whole command instead.
//   - Healing (a negative amount) clears overflow first, then the lightest marks (of the
//     named kind only, when the command names one the track has; on an indexed track the
//     highest box among equally light ones).
//   - Marks that no longer fit a track that got shorter are overflow, not forgotten.

// Bounds of one wound track, Marinara's.
const (
	woundLevelsMax   = 64
	woundExtraPerRow = 16
)

// WoundState is a wound track as it stands.
type WoundState struct {
	// Levels are this character's levels: the named ones with any a list adds, or the
	// numbered boxes.
	Levels []ruleset.TrackLevel
	// Marks are kind ids; Marks[i] sits on Levels[i]. On an indexed track a clear box
	// between marked ones is "".
	Marks []string
	// Filled is how many boxes are marked; Lowest the worst marked level (-1 clear).
	Filled, Lowest int
	// Overflow is harm that could not land.
	Overflow int
	// Penalty is the penalty in force.
	Penalty int
	// Numbered: boxes rather than named levels. Indexed: marks land on named boxes.
	// RefusesWhenFull: a mark with no box free refuses the command.
	Numbered, Indexed, RefusesWhenFull bool
}

// woundLevels lists the levels this character's wound track has. Boxes: as many as the
// track's max works out to (≤ 64), numbered, each with the penalty its table gives when
// it is the last one marked. Named levels: the declared ones, plus, for each row of the
// extra list, its count of levels (≤ 16) at its penalty, inserted after the last level
// whose penalty is at least as good and named after it when the penalty matches.
func woundLevels(ix *index, build *Build, base *Values, t *ruleset.Track) []ruleset.TrackLevel {
	if t.Boxes != nil {
		n := clamp(trackMax(t, base), 0, woundLevelsMax)
		levels := make([]ruleset.TrackLevel, n)
		for i := range levels {
			at := n - i - 1
			if t.Boxes.Penalty.By == "filled" {
				at = i + 1
			}
			levels[i] = ruleset.TrackLevel{Label: strconv.Itoa(i + 1), Penalty: int(t.Boxes.Penalty.Table.Lookup(float64(at)))}
		}
		return levels
	}
	levels := t.Levels
	x := t.Extra
	if x == nil {
		return levels
	}
	l := ix.rs.Sheet.List(x.List)
	rows := build.Lists[x.List]
	if l == nil || len(rows) == 0 || base.Hidden(l.HideWhen) {
		return levels
	}
	levels = slices.Clone(levels)
	cell := func(row Row, id string) float64 {
		if f, ok := row.Number(id); ok {
			return f
		}
		if c := l.Column(id); c != nil && c.Type == "number" {
			d, _ := c.Default.(float64)
			return d
		}
		return 0
	}
	for _, row := range rows {
		count := clamp(int(math.Floor(cell(row, x.CountColumn))), 0, woundExtraPerRow)
		// JavaScript's Math.round: halves go up.
		penalty := clamp(int(math.Floor(cell(row, x.PenaltyColumn)+0.5)), -1000, 0)
		after := -1
		for i, lv := range levels {
			if lv.Penalty >= penalty {
				after = i
			}
		}
		label := strconv.Itoa(penalty)
		if after >= 0 && levels[after].Penalty == penalty {
			label = levels[after].Label
		}
		add := make([]ruleset.TrackLevel, count)
		for i := range add {
			add[i] = ruleset.TrackLevel{Label: label, Penalty: penalty}
		}
		levels = slices.Insert(levels, after+1, add...)
		if len(levels) >= woundLevelsMax {
			break
		}
	}
	if len(levels) > woundLevelsMax {
		levels = levels[:woundLevelsMax]
	}
	return levels
}

// woundWork is a wound track being worked on: marks as ranks on the ladder of kinds
// (sorted least severe first), so every rule is plain number work. On a sequential track
// marks is dense and sorted most severe first; on an indexed one it has a slot per box,
// -1 where the box is clear.
type woundWork struct {
	ladder   []ruleset.TrackKind
	length   int
	indexed  bool
	refuse   bool
	marks    []int
	overflow int
}

// kindLadder is the track's kinds, least severe first: the ladder an upgrade climbs.
func kindLadder(t *ruleset.Track) []ruleset.TrackKind {
	ladder := slices.Clone(t.Kinds)
	slices.SortStableFunc(ladder, func(a, b ruleset.TrackKind) int { return a.Severity - b.Severity })
	return ladder
}

// rankOf is a kind's place on the ladder, or -1.
func (w *woundWork) rankOf(id string) int {
	for i, k := range w.ladder {
		if k.ID == id {
			return i
		}
	}
	return -1
}

func newWoundWork(t *ruleset.Track, length int, stored *Wounds) *woundWork {
	w := &woundWork{ladder: kindLadder(t), length: length, indexed: t.Fill == "indexed"}
	w.refuse = w.indexed || t.OnFull == "refuse"
	var read []int
	if stored != nil {
		w.overflow = max(0, stored.Overflow)
		read = make([]int, len(stored.Marks))
		for i, id := range stored.Marks {
			// A kind the ruleset no longer declares cannot sit on the ladder: dropped.
			read[i] = w.rankOf(id)
		}
	}
	if w.indexed {
		w.marks = make([]int, length)
		for i := range w.marks {
			w.marks[i] = -1
			if i < len(read) {
				w.marks[i] = read[i]
			}
		}
		for _, m := range read[min(length, len(read)):] {
			if m >= 0 {
				w.overflow++
			}
		}
		return w
	}
	dense := slices.DeleteFunc(read, func(m int) bool { return m < 0 })
	slices.SortFunc(dense, func(a, b int) int { return b - a })
	if len(dense) > length {
		w.overflow += len(dense) - length
		dense = dense[:length]
	}
	w.marks = dense
	return w
}

func (w *woundWork) filled() int {
	n := 0
	for _, m := range w.marks {
		if m >= 0 {
			n++
		}
	}
	return n
}

// place puts one mark where its severity earns it, pushing lighter marks down.
func (w *woundWork) place(rank int) {
	at := slices.IndexFunc(w.marks, func(m int) bool { return m >= 0 && m < rank })
	if at < 0 {
		w.marks = append(w.marks, rank)
		return
	}
	w.marks = slices.Insert(w.marks, at, rank)
}

// markOnce is one mark on a sequential track that upgrades when full.
func (w *woundWork) markOnce(rank int) {
	if len(w.marks) < w.length {
		w.place(rank)
		return
	}
	lowest := w.marks[len(w.marks)-1]
	if lowest+1 >= len(w.ladder) {
		w.overflow++
		return
	}
	w.marks = w.marks[:len(w.marks)-1]
	w.place(lowest + 1)
}

// healOnce clears one mark: overflow first, then the lightest (of rank only, when rank
// is not -1), the highest box among equals. False when nothing was left to clear.
func (w *woundWork) healOnce(rank int) bool {
	if w.overflow > 0 {
		w.overflow--
		return true
	}
	at := -1
	for i, m := range w.marks {
		if m < 0 || (rank >= 0 && m != rank) {
			continue
		}
		if at < 0 || m <= w.marks[at] {
			at = i
		}
	}
	if at < 0 {
		return false
	}
	if w.indexed {
		w.marks[at] = -1
	} else {
		w.marks = slices.Delete(w.marks, at, at+1)
	}
	return true
}

// apply lands amount marks of rank one at a time, or heals -amount (only marks of
// healRank when it is not -1). box is where an indexed track's first mark aims (1-based;
// 0 for the first box). False when a track that refuses had no box for every mark; then
// nothing changed.
func (w *woundWork) apply(rank, amount, box, healRank int) bool {
	if amount < 0 {
		for i := 0; i < -amount; i++ {
			if !w.healOnce(healRank) {
				break
			}
		}
		return true
	}
	if w.indexed {
		from := max(0, box-1)
		planned := make([]int, 0, amount)
		for range amount {
			at := -1
			for b := from; b < w.length; b++ {
				if w.marks[b] < 0 && !slices.Contains(planned, b) {
					at = b
					break
				}
			}
			if at < 0 {
				return false
			}
			planned = append(planned, at)
		}
		for _, b := range planned {
			w.marks[b] = rank
		}
		return true
	}
	if w.refuse {
		if w.length-len(w.marks) < amount {
			return false
		}
		for range amount {
			w.place(rank)
		}
		return true
	}
	top := len(w.ladder) - 1
	for i := range amount {
		// Full at the worst kind: every remaining mark is one more overflow.
		if len(w.marks) == w.length && (w.length == 0 || w.marks[len(w.marks)-1] == top) {
			w.overflow += amount - i
			break
		}
		w.markOnce(rank)
	}
	return true
}

// stored is the stored shape again: kind ids, an indexed track's clear boxes as "" with
// trailing ones left off.
func (w *woundWork) stored() Wounds {
	marks := make([]string, 0, len(w.marks))
	for _, m := range w.marks {
		switch {
		case m >= 0:
			marks = append(marks, w.ladder[m].ID)
		case w.indexed:
			marks = append(marks, "")
		}
	}
	for len(marks) > 0 && marks[len(marks)-1] == "" {
		marks = marks[:len(marks)-1]
	}
	return Wounds{Marks: marks, Overflow: min(maxLiveNumber, w.overflow)}
}

// resolveWounds reads a stored wound track against this character's levels.
func resolveWounds(t *ruleset.Track, levels []ruleset.TrackLevel, stored *Wounds) *WoundState {
	w := newWoundWork(t, len(levels), stored)
	st := &WoundState{
		Levels:          levels,
		Marks:           w.stored().Marks,
		Filled:          w.filled(),
		Lowest:          -1,
		Overflow:        w.overflow,
		Numbered:        t.Boxes != nil,
		Indexed:         w.indexed,
		RefusesWhenFull: w.refuse,
	}
	for i, m := range w.marks {
		if m >= 0 {
			st.Lowest = i
		}
	}
	switch {
	case t.Boxes != nil:
		at := len(levels) - st.Filled
		if t.Boxes.Penalty.By == "filled" {
			at = st.Filled
		}
		st.Penalty = int(t.Boxes.Penalty.Table.Lookup(float64(at)))
	case st.Lowest >= 0:
		st.Penalty = levels[st.Lowest].Penalty
	}
	return st
}

// woundNow is a wound track's `now`: "Label marks/levels LevelLabel", the level named
// only on named levels, and " +N over" when overflow grew by N.
func woundNow(label string, st *WoundState, grew int) string {
	s := label + " " + strconv.Itoa(st.Filled) + "/" + strconv.Itoa(len(st.Levels))
	if st.Lowest >= 0 && !st.Numbered {
		s += " " + st.Levels[st.Lowest].Label
	}
	if grew > 0 {
		s += " +" + strconv.Itoa(grew) + " over"
	}
	return s
}
