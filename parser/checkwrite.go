package parser

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

// WriteRecord builds the tag that replaces a check or a free roll once the engine has
// rolled it: record is what the engine read and threw, in write-back order (for a check:
// who, skill, dc, mode, dice, rolls, used, modifier, total, result, …; for a free roll
// one attribute, the roll's text). Values are sanitised and capped as every write-back's.
func (t Tag) WriteRecord(record []Attr) string {
	w := tagWriter{}
	if t.Kind == DiceRoll {
		w.b.WriteString("[dice: ")
		if len(record) > 0 {
			w.b.WriteString(sanitize(record[0].Value, MaxNow, false))
		}
		w.b.WriteByte(']')
		return w.b.String()
	}
	w.b.WriteString("[skill_check:")
	for _, a := range record {
		w.attr(a.Key, a.Value, MaxValue)
	}
	w.b.WriteByte(']')
	return w.b.String()
}

// writeRollTag is WriteBack for a check or a free roll: the request in canonical form,
// then result="refused" and the reason. A roll's real write-back is WriteRecord; an ok
// Outcome here writes its Now as the outcome (a free roll's "9 (3, 5 +1)"), so whatever a
// front end writes back reads again as the same request.
func (t Tag) writeRollTag(o Outcome) string {
	w := tagWriter{}
	if t.Kind == DiceRoll && !t.Malformed {
		// What follows the '=' is never read back, so a refusal goes there too.
		w.b.WriteString("[dice: " + t.Attrs[0].Value)
		switch o.Result {
		case ResultOK:
			w.b.WriteString(" = " + sanitize(o.Now, MaxNow, false))
		case ResultRefused:
			w.b.WriteString(" = refused")
			if o.Reason != "" {
				w.b.WriteString(" (" + sanitize(string(o.Reason), MaxValue, false) + ")")
			}
		}
		w.b.WriteByte(']')
		return w.b.String()
	}
	w.b.WriteString("[" + string(t.Kind) + ":")
	switch {
	case t.Malformed:
		w.attr("raw", t.Raw, MaxValue)
	default:
		if t.Who != "" {
			w.attr("who", t.Who, MaxValue)
		}
		for _, a := range t.Attrs {
			w.attr(a.Key, a.Value, MaxValue)
		}
	}
	switch o.Result {
	case ResultOK:
		w.attr("result", "ok", MaxValue)
	case ResultRefused:
		w.refusal(o)
	}
	w.b.WriteByte(']')
	return w.b.String()
}
