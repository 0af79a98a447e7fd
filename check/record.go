package check

import (
	"strconv"
	"strings"

	"sheetkeeper/parser"
)

// Record is the check's write-back, in canonical order (SPEC 3.6): who, what was
// rolled, the ability swapped in, the difficulty as a number, the mode, then the dice
// and every number the engine used, and the result. Pools add resolution, threshold,
// successes and complication; a check conditions changed adds effects, from and
// automatic. Only numbers the engine worked out are written: what the GM wrote about an
// outcome was dropped when the tag was read.
func (r *Result) Record() []parser.Attr {
	a := make([]parser.Attr, 0, 20)
	put := func(k, v string) { a = append(a, parser.Attr{Key: k, Value: v}) }
	num := func(k string, n int) { put(k, strconv.Itoa(n)) }
	if r.Who != "" {
		put("who", r.Who)
	}
	put(r.Subject, r.Label)
	if r.With != "" {
		put("with", r.With)
	}
	if r.HasDC {
		num("dc", r.DC)
	}
	if r.Mode != "" {
		put("mode", r.Mode)
	}
	pool := r.Threshold > 0
	if pool || r.Dice != "1d20" {
		put("dice", r.Dice)
	}
	if pool {
		put("resolution", "successes")
		num("threshold", r.Threshold)
		if r.Explode.Set {
			num("explode", r.Explode.V)
		}
		if r.Double.Set {
			num("double", r.Double.V)
		}
		if r.Reroll != "" {
			put("reroll", r.Reroll)
		}
	}
	if len(r.Paid) > 0 {
		parts := make([]string, len(r.Paid))
		for i, p := range r.Paid {
			parts[i] = p.Pool + ":" + strconv.Itoa(p.Amount)
		}
		put("spend", strings.Join(parts, ", "))
	}
	if r.Use != "" {
		put("use", r.Use)
	}
	if !r.Automatic {
		put("rolls", joinInts(r.Rolls))
	}
	if r.Penalty != 0 {
		num("penalty", r.Penalty)
	}
	if r.Adjust != 0 {
		num("adjust", r.Adjust)
	}
	if pool {
		num("successes", r.Successes)
	} else if !r.Automatic {
		num("used", r.Used)
		num("modifier", r.Modifier)
		num("total", r.Total)
	}
	if r.Outcome != "" {
		put("result", r.Outcome)
	}
	if r.Complication {
		put("complication", "true")
	}
	if r.Effects != 0 {
		put("effects", signed(r.Effects))
	}
	if len(r.From) > 0 {
		put("from", strings.Join(r.From, ", "))
	}
	if r.Automatic {
		put("automatic", "true")
	}
	return a
}

func joinInts(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
