package strictjson

import (
	"fmt"
	"unicode/utf8"
)

// The decoder's bounds: an array or object over its item limit is one problem and its
// items past the limit are skipped over, building nothing; a document over its budget
// of values stops there; problems past MaxProblems are counted, not kept.

// overLimit reports the one problem of an array or object over its limit: it has n
// items (or keys), at most limit allowed.
func (d *decoder) overLimit(n, limit int, what string) {
	msg := "has " + groupDigits(n) + " " + what + ", at most " + groupDigits(limit) + " allowed"
	if d.problems.full() {
		d.drop(Limit)
		return
	}
	d.problems.AddKind(Limit, d.pathString(), msg)
}

func (d *decoder) drop(k Kind) {
	if d.dropped == 0 {
		d.droppedKind = k
	}
	d.dropped++
}

// mark is where the problems stood, so an array found over its limit can take back
// those of its items: the limit is its one problem.
type mark struct{ n, dropped int }

func (d *decoder) mark() mark { return mark{n: len(d.problems), dropped: d.dropped} }

func (d *decoder) restore(m mark) { d.problems, d.dropped = d.problems[:m.n], m.dropped }

// counted counts one more value decoded and reports whether it is within
// Options.MaxValues; the first past it stops the document with its one Limit problem.
func (d *decoder) counted() bool {
	d.values++
	if d.opt.MaxValues <= 0 || d.values <= d.opt.MaxValues {
		return true
	}
	// The document is refused for its size alone: what its values had wrong is noise.
	d.failed, d.dropped = true, 0
	d.problems = append(d.problems[:0], Problem{Path: d.base, Kind: Limit,
		Msg: "holds more than " + groupDigits(d.opt.MaxValues) + " values, more than any such document needs; the rest was not read"})
	return false
}

// skip passes over the next value, checking its syntax and its text's UTF-8 as value
// does, but building nothing: the items of an array past its limit cost a scan.
func (d *decoder) skip(depth int) {
	if d.failed {
		return
	}
	if depth > d.opt.MaxDepth {
		d.syntax(fmt.Sprintf("nested deeper than %d levels", d.opt.MaxDepth))
		return
	}
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input")
		return
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		d.skipMembers(depth)
	case c == '[':
		d.elements(depth, func(int) { d.skip(depth + 1) })
	case c == '"':
		d.skipString()
	case c == 't' || c == 'f':
		d.literalBool()
	case c == 'n':
		d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		d.scanNumber()
	default:
		d.syntax(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

// skipString passes over a string without building it; escapes are checked by the
// reader that builds one, which the rare string holding one is given to.
func (d *decoder) skipString() {
	start := d.pos + 1
	for p := start; p < len(d.data); p++ {
		switch c := d.data[p]; {
		case c == '"':
			d.pos = p + 1
			if !utf8.Valid(d.data[start:p]) {
				d.notUTF8()
			}
			return
		case c == '\\':
			d.str()
			return
		case c < 0x20:
			d.pos = p
			d.syntax("control character in string")
			return
		}
	}
	d.pos = len(d.data)
	d.syntax("unterminated string")
}

// skipMembers passes over an object as members does, its keys only scanned.
func (d *decoder) skipMembers(depth int) {
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return
	}
	for !d.failed {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			d.syntax("expected a key in quotes")
			return
		}
		if d.skipString(); d.failed {
			return
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			d.syntax("expected ':' after a key")
			return
		}
		d.pos++
		d.skipSpace()
		if d.skip(depth + 1); d.failed {
			return
		}
		if !d.more('}') {
			return
		}
	}
}

// bounded walks a container with walk (members or elementsOf), giving each of its
// first limit items (or keys) to each and only skipping over the rest; limit 0 is no
// bound. Past the limit the problems the items had are taken back and the container's
// one problem is that it has too many. It reports whether the container was over.
func (d *decoder) bounded(walk func(int, func(string)), depth, limit int, what string, each func(string)) bool {
	m := d.mark()
	n := 0
	walk(depth, func(key string) {
		n++
		if limit > 0 && n > limit {
			d.skip(depth + 1)
			return
		}
		each(key)
	})
	if limit <= 0 || n <= limit || d.failed {
		return false
	}
	d.restore(m)
	d.overLimit(n, limit, what)
	return true
}

// elementsOf is elements in the shape bounded walks.
func (d *decoder) elementsOf(depth int, each func(string)) {
	d.elements(depth, func(int) { each("") })
}
