package main

import (
	"regexp"
	"strconv"
	"strings"
)

// ordinal writes 1st, 2nd, 3rd, 4th ...
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// sheetID turns an SRD index ("sleight-of-hand") into a sheet id ("sleight_of_hand").
func sheetID(index string) string { return strings.ReplaceAll(index, "-", "_") }

// dice is a parsed "NdM+K" expression (Count 0 for a flat number).
type dice struct {
	Count, Sides, Flat int
}

var diceRE = regexp.MustCompile(`^(\d+)d(\d+)(?:([+-])(\d+))?$`)
var flatRE = regexp.MustCompile(`^\d+$`)

// parseDice reads one dice expression or a plain number. It refuses anything else
// ("2d8 + 4d6", "1d8 + MOD"), because an amount the data does not pin down exactly is
// left out rather than guessed.
func parseDice(s string) (dice, bool) {
	s = strings.ReplaceAll(s, " ", "")
	if flatRE.MatchString(s) {
		n, _ := strconv.Atoi(s)
		return dice{Flat: n}, true
	}
	m := diceRE.FindStringSubmatch(s)
	if m == nil {
		return dice{}, false
	}
	d := dice{}
	d.Count, _ = strconv.Atoi(m[1])
	d.Sides, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		d.Flat, _ = strconv.Atoi(m[4])
		if m[3] == "-" {
			d.Flat = -d.Flat
		}
	}
	if d.Count < 1 || d.Count > 999 || d.Sides < 2 || d.Sides > 9999 || d.Flat > 9999 || d.Flat < -9999 {
		return dice{}, false
	}
	return d, true
}

// die is the dice part alone ("8d6"), "" for a flat amount.
func (d dice) die() string {
	if d.Count == 0 {
		return ""
	}
	return strconv.Itoa(d.Count) + "d" + strconv.Itoa(d.Sides)
}

// String is the whole expression ("2d6+5", "7").
func (d dice) String() string {
	switch {
	case d.Count == 0:
		return strconv.Itoa(d.Flat)
	case d.Flat > 0:
		return d.die() + "+" + strconv.Itoa(d.Flat)
	case d.Flat < 0:
		return d.die() + strconv.Itoa(d.Flat)
	}
	return d.die()
}

// average is the expected roll.
func (d dice) average() float64 {
	return float64(d.Count)*float64(d.Sides+1)/2 + float64(d.Flat)
}

// amount is the catalog amount shape: dice (with any flat part folded in) or flat.
func (d dice) amount() obj {
	if d.Count == 0 {
		return o("flat", d.Flat)
	}
	return o("dice", d.String())
}

// stepTable compresses values[i], the value at start+i, into [[threshold, value]]
// rows: one row wherever the value changes.
func stepTable(start int, values []int) [][2]int {
	var out [][2]int
	for i, v := range values {
		if len(out) > 0 && out[len(out)-1][1] == v {
			continue
		}
		out = append(out, [2]int{start + i, v})
	}
	return out
}

func tableJSON(t [][2]int) [][]int {
	out := make([][]int, len(t))
	for i, r := range t {
		out[i] = []int{r[0], r[1]}
	}
	return out
}

// lookup reads a step table at x: the value of the highest threshold at or below x,
// or the first value below the first threshold.
func lookup(t [][2]int, x int) int {
	v := t[0][1]
	for _, r := range t {
		if r[0] <= x {
			v = r[1]
		}
	}
	return v
}

// titleCase capitalises the first letter.
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// joinAnd writes "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// clip shortens s to at most n bytes at a word boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndex(s[:n-1], " ")
	if cut < n/2 {
		cut = n - 1
	}
	return strings.TrimRight(s[:cut], " ,;.") + "…"
}

// fmtCR writes a challenge rating as the SRD does (1/8, 1/4, 1/2, 3).
func fmtCR(cr float64) string {
	switch cr {
	case 0.125:
		return "1/8"
	case 0.25:
		return "1/4"
	case 0.5:
		return "1/2"
	}
	return strconv.Itoa(int(cr))
}

// crTierID is the threat tier id of a challenge rating (cr_1_8, cr_10).
func crTierID(cr float64) string {
	return "cr_" + strings.ReplaceAll(fmtCR(cr), "/", "_")
}

// thousands writes 11500 as 11,500.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
