package parser

import "strings"

// MaxBody is the longest tag body, in UTF-16 code units as Marinara's reader counts them
// (an emoji counts two). The bound is Marinara's: it is what keeps a reply full of
// unclosed heads cheap, since a head whose ']' is further away is no tag.
const MaxBody = 1500

// maxBytesPerUnit is the most bytes of UTF-8 one UTF-16 code unit stands for: three, for a
// character of the Basic Multilingual Plane; a four-byte character is two units.
const maxBytesPerUnit = 3

// span is one tag as found in a message: text[start:end] is the whole `[head: … ]`, and
// text[bodyStart:end-1] its body.
type span struct {
	kind             Kind
	start, bodyStart int
	end              int
}

// headAt reports the kind of tag head at text[p] (which is '['), and where its body starts.
// The head is case-insensitive, as Marinara's /gi matcher is; ASCII folding only.
func headAt(text string, p int) (Kind, int, bool) {
	rest := text[p+1:]
	if len(rest) >= 6 && strings.EqualFold(rest[:6], "sheet:") {
		return Sheet, p + 7, true
	}
	if len(rest) >= 10 && strings.EqualFold(rest[:10], "inventory:") {
		return Inventory, p + 11, true
	}
	if k, n, ok := rollHeadAt(rest); ok {
		return k, p + 1 + n, true
	}
	return "", 0, false
}

// unitCursor counts UTF-16 code units from the start of a text up to a position that only
// moves forward, so counting the characters of many overlapping bodies costs one pass in all.
type unitCursor struct{ pos, units int }

func (c *unitCursor) at(text string, pos int) int {
	if pos > c.pos {
		c.units += UTF16Len(text[c.pos:pos])
		c.pos = pos
	}
	return c.units
}

// findSpans finds every tag in text, left to right, in linear time.
//
// A tag is a head followed by at most MaxBody characters (UTF-16 code units) without ']'
// and then ']'. The scan never goes back: the next ']' is found once and reused by every
// head before it, and character counts come from two cursors that only move forward, so a
// reply made of ten thousand unclosed heads costs the same as one read of the reply. When a head has no
// ']' in reach the scan carries on just after the head, so a later tag is still found; a
// head inside another tag's body is part of that body, as in Marinara.
//
// The spans are appended to buf, which may live on the caller's stack.
func findSpans(text string, buf []span) []span {
	spans := buf
	nextClose := -1 // offset of the first ']' at or after the last look; len(text) for none
	var bodyUnits, closeUnits unitCursor
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '[')
		if j < 0 {
			break
		}
		p := i + j
		kind, bodyStart, ok := headAt(text, p)
		if !ok {
			i = p + 1
			continue
		}
		i = bodyStart
		if nextClose < bodyStart {
			if k := strings.IndexByte(text[bodyStart:], ']'); k >= 0 {
				nextClose = bodyStart + k
			} else {
				nextClose = len(text)
			}
		}
		if nextClose == len(text) {
			break // no ']' anywhere after here: every later head is unclosed too
		}
		if n := nextClose - bodyStart; n > MaxBody {
			// More bytes than MaxBody: count UTF-16 units, unless there are too many bytes
			// for any body of MaxBody units.
			if n > MaxBody*maxBytesPerUnit || closeUnits.at(text, nextClose)-bodyUnits.at(text, bodyStart) > MaxBody {
				continue
			}
		}
		spans = append(spans, span{kind: kind, start: p, bodyStart: bodyStart, end: nextClose + 1})
		i = nextClose + 1
	}
	return spans
}

// codeRegions returns the byte ranges of text that Discord shows as code: inline spans
// (`…`, “…“) and fenced blocks (```…```). A run of one or two backticks is closed by
// the next run of the same length, a run of three or more by the next run of three or
// more; a run nothing closes is literal text.
//
// Backticks inside tag spans are not counted. A tag's body belongs to the tag: the engine
// rewrites it (drops forged attributes, sanitises, caps), and if a backtick in it could
// open or close code, rewriting one tag could hide another or bring a quoted one to life.
func codeRegions(text string, spans []span) [][2]int {
	if strings.IndexByte(text, '`') < 0 {
		return nil
	}
	type run struct{ start, end int }
	var runs []run
	si := 0
	for i := 0; i < len(text); {
		for si < len(spans) && spans[si].end <= i {
			si++
		}
		if si < len(spans) && i >= spans[si].start {
			i = spans[si].end
			continue
		}
		limit := len(text)
		if si < len(spans) {
			limit = spans[si].start
		}
		j := strings.IndexByte(text[i:limit], '`')
		if j < 0 {
			i = limit
			continue
		}
		start := i + j
		end := start
		for end < limit && text[end] == '`' {
			end++
		}
		runs = append(runs, run{start, end})
		i = end
	}
	// next[k] is the index of the run that closes runs[k], or -1: found with one backward
	// pass that remembers the nearest later run of each class (1, 2, fence).
	next := make([]int, len(runs))
	later := [3]int{-1, -1, -1}
	for k := len(runs) - 1; k >= 0; k-- {
		c := min(runs[k].end-runs[k].start, 3) - 1
		next[k] = later[c]
		later[c] = k
	}
	var regions [][2]int
	for k := 0; k < len(runs); {
		if m := next[k]; m >= 0 {
			regions = append(regions, [2]int{runs[k].start, runs[m].end})
			k = m + 1
			continue
		}
		k++
	}
	return regions
}

// dropCode removes the spans whose head lies inside a code region.
func dropCode(spans []span, regions [][2]int) []span {
	if len(regions) == 0 {
		return spans
	}
	out := spans[:0]
	r := 0
	for _, s := range spans {
		for r < len(regions) && regions[r][1] <= s.start {
			r++
		}
		if r < len(regions) && regions[r][0] <= s.start {
			continue
		}
		out = append(out, s)
	}
	return out
}

// dropQuoted removes the spans whose head lies in a Discord quote: on a quote line (a line
// that starts, after any spaces, with "> ") or anywhere after a line that starts with
// ">>> ". That is how a GM quotes an outcome without asking for it again (SPEC 3.4).
//
// A line starts after a newline that is neither in code (Discord shows a '>' there as
// text) nor inside a tag that is read: such a tag is rewritten on one line, so a break in
// its body must not quote, or stop quoting, what follows it. A tag that is not read is
// kept as written, so the breaks in its body do count. Spans and regions are in text
// order, and the scan only moves forward: linear in the text.
func dropQuoted(text string, spans []span, code [][2]int) []span {
	if len(spans) == 0 || strings.IndexByte(text, '>') < 0 {
		return spans
	}
	quoted := quoteAt(text, 0) // the quote the line being scanned starts
	if quoted == quoteRest {
		return nil
	}
	out := spans[:0]
	pos, ci := 0, 0
	for _, s := range spans {
		for {
			j := strings.IndexByte(text[pos:s.start], '\n')
			if j < 0 {
				break
			}
			nl := pos + j
			pos = nl + 1
			for ci < len(code) && code[ci][1] <= nl {
				ci++
			}
			if ci < len(code) && code[ci][0] <= nl {
				continue // a break in code starts no line
			}
			if quoted = quoteAt(text, pos); quoted == quoteRest {
				return out
			}
		}
		if quoted == quoteLine {
			// pos moves to s's start, not past it: the breaks in its body count, and the
			// text before it, searched already, is not searched again (linear on a long
			// quoted line of tags).
			pos = s.start
			continue
		}
		out = append(out, s)
		pos = s.end
	}
	return out
}

// The quotes a line can start.
const (
	quoteNone = iota
	quoteLine // "> ": this line
	quoteRest // ">>> ": this line and every one after it
)

// quoteAt reports the quote a line starting at text[p] begins, as Discord reads one: any
// spaces, then "> " or ">>> ".
func quoteAt(text string, p int) int {
	for p < len(text) && text[p] == ' ' {
		p++
	}
	switch rest := text[p:]; {
	case strings.HasPrefix(rest, ">>> "):
		return quoteRest
	case strings.HasPrefix(rest, "> "):
		return quoteLine
	}
	return quoteNone
}
