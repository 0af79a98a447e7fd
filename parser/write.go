package parser

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"sheetkeeper/refusal"
)

// MaxValue is the longest value the write-back carries, so one tag can never run away;
// MaxNow is the room `now` gets, since for a party it lists every member. Both are in
// UTF-16 code units, as Marinara counts them (CapUTF16).
const (
	MaxValue = 120
	MaxNow   = 240
)

// Result is what the engine did with a request.
type Result string

// The two results a write-back can carry.
const (
	ResultOK      Result = "ok"
	ResultRefused Result = "refused"
)

// Outcome is what the engine did with one request, for its write-back. The zero Outcome
// is no outcome: the request in canonical form.
type Outcome struct {
	Result Result
	// Now is the outcome summary of an applied command (SPEC 3.3), e.g. "2/3".
	Now string
	// Reason is why a command was refused, a word of refusal's vocabulary.
	Reason refusal.Reason
	// Bounds are the allowed bounds of a bad-amount refusal, "lo..hi".
	Bounds string
	// Level and Targets are what an applied use raised (SPEC 5.5): the effect level when
	// it was paid above the cost's level, and the target count targetsPerCostStep gave.
	// 0 writes nothing.
	Level, Targets int
}

// Canonical is the request in canonical form, with no outcome.
func (t Tag) Canonical() string { return t.WriteBack(Outcome{}) }

// WriteBack builds the tag that replaces this one in the reply: the request as read, in
// the attribute order Marinara writes, then the outcome.
//
// It is built from what was read and what was done, never spliced from what the GM wrote:
// attributes the op does not read, and any result, reason or now the GM wrote, are gone.
// Every value is sanitised — no quotes, brackets, control characters or line breaks, which
// could reshape this tag or forge another — and capped at MaxValue characters as Marinara
// counts them, in UTF-16 code units (now at MaxNow, cut at a "; " boundary). A malformed
// request is written as raw="…" with the sanitised body; its outcome is a refusal with
// t.Reason.
func (t Tag) WriteBack(o Outcome) string {
	if t.Kind == SkillCheck || t.Kind == DiceRoll {
		return t.writeRollTag(o)
	}
	w := tagWriter{inventory: t.Kind == Inventory}
	w.b.Grow(64 + len(t.Raw))
	if w.inventory {
		w.b.WriteString("[inventory:")
	} else {
		w.b.WriteString("[sheet:")
	}
	switch {
	case t.Malformed:
		w.attr("raw", t.Raw, MaxValue)
	case w.inventory:
		w.attr("action", t.Op, MaxValue)
		to, hasTo := "", false
		for _, a := range t.Attrs {
			if a.Key == "to" {
				to, hasTo = a.Value, true
				continue
			}
			w.attr(a.Key, a.Value, MaxValue)
		}
		if t.Who != "" {
			w.attr("who", t.Who, MaxValue)
		}
		if hasTo {
			w.attr("to", to, MaxValue)
		}
	default:
		if t.Who != "" {
			w.attr("who", t.Who, MaxValue)
		}
		w.attr("op", t.Op, MaxValue)
		for _, a := range t.Attrs {
			w.attr(a.Key, a.Value, MaxValue)
		}
	}
	switch o.Result {
	case ResultOK:
		w.attr("result", "ok", MaxValue)
		w.attr("now", o.Now, MaxNow)
		if o.Level > 0 {
			w.attr("level", strconv.Itoa(o.Level), MaxValue)
		}
		if o.Targets > 0 {
			w.attr("targets", strconv.Itoa(o.Targets), MaxValue)
		}
	case ResultRefused:
		w.refusal(o)
	}
	w.b.WriteByte(']')
	return w.b.String()
}

// refusal writes a refused outcome's attributes: result, then its reason and bounds.
func (w *tagWriter) refusal(o Outcome) {
	w.attr("result", "refused", MaxValue)
	if o.Reason != "" {
		w.attr("reason", string(o.Reason), MaxValue)
	}
	if o.Bounds != "" {
		w.attr("bounds", o.Bounds, MaxValue)
	}
}

// Written is value as WriteBack writes it in t: sanitised, and capped at limit (MaxValue,
// or MaxNow for now=). A front end shows an outcome's values as the write-back says them
// without reading the written tag again.
func (t Tag) Written(value string, limit int) string {
	return sanitize(value, limit, t.Kind == Inventory)
}

type tagWriter struct {
	b         strings.Builder
	inventory bool
}

func (w *tagWriter) attr(key, value string, limit int) {
	w.b.WriteByte(' ')
	w.b.WriteString(key)
	w.b.WriteString(`="`)
	writeEscaped(&w.b, sanitize(value, limit, w.inventory))
	w.b.WriteByte('"')
}

// writeEscaped writes a sanitised value between double quotes. The reader takes \\ as one
// backslash and \" as a quote, so a backslash is doubled exactly where it would otherwise
// be read as one of those (before another backslash, or before the closing quote); every
// other backslash is written as it is, which keeps the text Marinara's reader sees as is.
func writeEscaped(b *strings.Builder, v string) {
	if strings.IndexByte(v, '\\') < 0 {
		b.WriteString(v)
		return
	}
	for i := 0; i < len(v); i++ {
		b.WriteByte(v[i])
		if v[i] == '\\' && (i+1 == len(v) || v[i+1] == '\\') {
			b.WriteByte('\\')
		}
	}
}

// dropped are the characters a written value may not hold: control characters, line and
// paragraph separators, quotes and brackets.
func dropped(r rune) bool {
	return r == '"' || r == '[' || r == ']' || unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// isSpaceRune is whitespace as JavaScript's \s and trim() see it.
func isSpaceRune(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// sanitize makes a value safe to write inside a tag (Marinara's rules): dropped characters
// become spaces (a sheet tag) or vanish (quotes and brackets in an inventory tag, as
// Marinara's inventory writer does), runs of whitespace become one space, the ends are
// trimmed, and the value is capped at limit UTF-16 code units — in a sheet tag cut back to
// the last "; " inside the cap, so a party summary never ends half an entry. Sanitising a
// sanitised value changes nothing, which is what makes a write-back read back the same.
func sanitize(v string, limit int, inventory bool) string {
	if sanitized(v, limit) {
		return v
	}
	return resanitize(v, limit, inventory)
}

// sanitized reports whether v is already as sanitize leaves it, for the usual value —
// printable ASCII, no quote or bracket, single inner spaces, no space at either end,
// within limit — so a write-back copies it as it is instead of building it again.
func sanitized(v string, limit int) bool {
	if len(v) > limit {
		return false
	}
	if v == "" {
		return true
	}
	if v[0] == ' ' || v[len(v)-1] == ' ' {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c < 0x20 || c >= 0x7f || c == '"' || c == '[' || c == ']':
			return false
		case c == ' ' && v[i-1] == ' ': // i > 0: v does not start with a space
			return false
		}
	}
	return true
}

// resanitize is sanitize for any value, character by character.
func resanitize(v string, limit int, inventory bool) string {
	var b strings.Builder
	b.Grow(len(v))
	var run []rune // the whitespace run not yet written: one rune stays, more become " "
	for _, r := range v {
		if dropped(r) {
			if inventory && (r == '"' || r == '[' || r == ']') {
				continue
			}
			r = ' '
		}
		if isSpaceRune(r) {
			if len(run) < 2 {
				run = append(run, r)
			}
			continue
		}
		flushSpace(&b, run)
		run = run[:0]
		b.WriteRune(r)
	}
	s := strings.TrimFunc(b.String(), isSpaceRune)
	whole := len(s)
	if s = CapUTF16(s, limit); len(s) == whole {
		return s
	}
	if !inventory || limit == MaxNow {
		if i := strings.LastIndex(s, "; "); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimFunc(s, isSpaceRune)
}

func flushSpace(b *strings.Builder, run []rune) {
	switch len(run) {
	case 0:
	case 1:
		b.WriteRune(run[0])
	default:
		b.WriteByte(' ')
	}
}

// Replace returns text with each tag replaced by its replacement (usually its WriteBack),
// everything else kept byte for byte. tags must be in the order Read returned them; tags
// that share a span (the items of one inventory tag) are written side by side, separated
// by a space.
//
// One more thing is kept: which other text is a tag. A head with no ']' within MaxBody
// characters is no tag, but a rewrite that shortened a later tag could bring its ']' into
// reach and make one. So after such a head a replacement shorter than what it replaces
// (in UTF-16 code units, as the reach is counted) is padded with spaces before its ']',
// and the written-back text holds exactly the tags the engine wrote (and the ones it left
// alone).
func Replace(text string, tags []Tag, replacements []string) (string, error) {
	if len(tags) != len(replacements) {
		return "", fmt.Errorf("parser.Replace: %d tags but %d replacements", len(tags), len(replacements))
	}
	if len(tags) == 0 {
		return text, nil
	}
	unclosed := firstUnclosedHead(text)
	var b strings.Builder
	b.Grow(len(text) + 64*len(tags))
	last := 0
	for i := 0; i < len(tags); {
		t := tags[i]
		if t.Start < last || t.End <= t.Start || t.End > len(text) || text[t.Start] != '[' || text[t.End-1] != ']' {
			return "", fmt.Errorf("parser.Replace: tag %d at %d..%d is not a tag span of this text in order", i, t.Start, t.End)
		}
		j := i + 1
		for j < len(tags) && tags[j].Start == t.Start && tags[j].End == t.End {
			j++
		}
		b.WriteString(text[last:t.Start])
		pad := 0
		if unclosed >= 0 && unclosed < t.Start {
			n := j - i - 1 // the spaces between the items of one inventory tag
			for _, r := range replacements[i:j] {
				n += UTF16Len(r)
			}
			pad = max(UTF16Len(text[t.Start:t.End])-n, 0)
		}
		for k, r := range replacements[i:j] {
			if k > 0 {
				b.WriteByte(' ')
			}
			if k == j-i-1 && pad > 0 {
				if body, ok := strings.CutSuffix(r, "]"); ok {
					b.WriteString(body)
					b.WriteString(strings.Repeat(" ", pad))
					b.WriteByte(']')
					continue
				}
				r += strings.Repeat(" ", pad)
			}
			b.WriteString(r)
		}
		last = t.End
		i = j
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// firstUnclosedHead returns the offset of the first tag head that starts no tag and lies in
// no tag's body, or -1.
func firstUnclosedHead(text string) int {
	spans := findSpans(text, nil)
	s := 0
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '[')
		if j < 0 {
			return -1
		}
		p := i + j
		for s < len(spans) && spans[s].end <= p {
			s++
		}
		if s < len(spans) && spans[s].start <= p {
			i = spans[s].end
			continue
		}
		if _, _, ok := headAt(text, p); ok {
			return p
		}
		i = p + 1
	}
	return -1
}
