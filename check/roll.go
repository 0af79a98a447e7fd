package check

import (
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/parser"
)

// Roll is a free roll of a dice notation: every face in the order thrown (what Replay
// needs), which of them were kept, and the total.
type Roll struct {
	Dice parser.Dice
	// Faces are every face thrown, term by term.
	Faces []int
	// Dropped marks the faces a keep left out (same length as Faces).
	Dropped []bool
	Total   int
}

// RollDice throws a notation with src.
func RollDice(d parser.Dice, src Source) Roll {
	rec := recorder{src: src, faces: make([]int, 0, d.Count())}
	r := Roll{Dice: d, Dropped: make([]bool, 0, d.Count())}
	for _, t := range d.Terms {
		sign := 1
		if t.Neg {
			sign = -1
		}
		if t.Sides == 0 {
			r.Total += sign * t.Const
			continue
		}
		start := len(rec.faces)
		for range t.Count {
			rec.roll(t.Sides)
		}
		faces := rec.faces[start:]
		dropped := make([]bool, len(faces))
		if t.Keep > 0 {
			markDropped(faces, dropped, t.Keep, t.KeepLow)
		}
		for i, f := range faces {
			if !dropped[i] {
				r.Total += sign * f
			}
		}
		r.Dropped = append(r.Dropped, dropped...)
	}
	r.Faces = rec.faces
	return r
}

// markDropped marks all but the keep highest (or lowest) faces; among equal faces the
// earlier one is kept.
func markDropped(faces []int, dropped []bool, keep int, low bool) {
	order := make([]int, len(faces))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if low {
			return faces[a] - faces[b]
		}
		return faces[b] - faces[a]
	})
	for _, i := range order[keep:] {
		dropped[i] = true
	}
}

// Text is the roll as the write-back shows it, in Marinara's form: "2d6+1 = 9 (3, 5 +1)",
// a dropped face in parentheses, "d20 = 14" alone for one die or a constant alone. The
// faces come first, in the notation's order, then its constants, wherever the notation
// put them ("1+2d6 = 8 (3, 4 +1)"): a constant never runs into a face.
func (r Roll) Text() string {
	var b strings.Builder
	b.WriteString(r.Dice.String())
	b.WriteString(" = ")
	b.WriteString(strconv.Itoa(r.Total))
	if len(r.Faces) == 0 || len(r.Dice.Terms) == 1 && r.Dice.Terms[0].Count == 1 {
		return b.String()
	}
	b.WriteString(" (")
	fi := 0
	for _, t := range r.Dice.Terms {
		for range t.Count {
			if fi > 0 {
				b.WriteString(", ")
			}
			if t.Neg {
				b.WriteByte('-')
			}
			if r.Dropped[fi] {
				b.WriteString("(" + strconv.Itoa(r.Faces[fi]) + ")")
			} else {
				b.WriteString(strconv.Itoa(r.Faces[fi]))
			}
			fi++
		}
	}
	for _, t := range r.Dice.Terms {
		if t.Sides != 0 {
			continue
		}
		if t.Neg {
			b.WriteString(" -")
		} else {
			b.WriteString(" +")
		}
		b.WriteString(strconv.Itoa(t.Const))
	}
	b.WriteByte(')')
	return b.String()
}

// RollTag throws a [dice:] tag: its notation, read again from the canonical form the
// reader kept. A tag refused before the engine gives its refusal.
func RollTag(t parser.Tag, src Source) (Roll, error) {
	if err := t.Err(); err != nil {
		return Roll{}, err
	}
	notation, _ := t.Get("dice")
	d, err := parser.ParseDice(notation)
	if err != nil {
		return Roll{}, err
	}
	return RollDice(d, src), nil
}

// Record is the free roll's write-back for Tag.WriteRecord: its text, faces and total.
func (r Roll) Record() []parser.Attr { return []parser.Attr{{Key: "roll", Value: r.Text()}} }
