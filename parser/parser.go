// Package parser reads the commands a Game Master writes into narration — `[sheet: …]` and
// `[inventory: …]` tags — and writes them back in canonical form with their outcome.
//
// The wire format is Marinara Engine's, so an AI GM prompted for Marinara's Game Mode works
// unchanged. Its one principle: the GM asks, the engine decides. So the reader takes the
// request and nothing else — a `result`, `reason` or `now` in the input is dropped — and the
// writer builds each tag from what was read and what was done, never by splicing what the
// model wrote, so a forged outcome cannot survive a round trip.
//
// Reading is in two steps. Tag spans are found first with a bounded, linear scan (a head,
// at most MaxBody characters without ']', then ']'); each body is then read on its own by
// the body grammar (grammar.go), so one bad tag never hides the others. A body that does
// not say a command is kept as a malformed request (refused with reason malformed), never
// an error that stops the message.
package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"sheetkeeper/refusal"
)

// Kind says which tag a command came from.
type Kind string

// The two kinds of tag.
const (
	Sheet     Kind = "sheet"
	Inventory Kind = "inventory"
)

// MaxCommands is how many sheet commands one message may carry. Later ones are still read
// (so the write-back shows what was asked) but are refused too-many.
const MaxCommands = 40

// Attr is one attribute of a request, under its canonical key.
type Attr struct {
	Key, Value string
}

// Tag is one request as read from a message.
//
// For a sheet tag Op is the canonical op (synonyms folded: heal is restore, cast is use);
// for an inventory tag it is the action. Attrs holds the other attributes the op reads,
// under canonical keys (spell is name) and in the order they are written back; values are
// trimmed, integers normalised ("+05" is "5"), and otherwise as the GM wrote them, because
// the engine needs the full text (a note may be longer than the write-back keeps).
//
// An inventory tag that names several items is read as one Tag per item, all with the same
// Start and End, so every item gets its own outcome; Replace writes them back side by side.
type Tag struct {
	Kind Kind
	// Start and End are byte offsets: text[Start:End] is the whole tag, brackets included.
	Start, End int
	Op         string
	Who        string
	Attrs      []Attr
	// Malformed says the body does not say a command; Raw is then what it said.
	Malformed bool
	// Reason is why the request is refused before it reaches the engine: refusal.Malformed
	// or refusal.TooMany. Empty for a request the engine should decide.
	Reason refusal.Reason
	// Detail says, for people, what was wrong with a malformed body.
	Detail string
	// Raw is the trimmed body as written (or, for a tag the engine wrote back as malformed,
	// the raw= it carries), for the write-back of a body nothing could be read from.
	Raw string
}

// Message is what Read found in one message.
//
// Every tag in it is a request, also one that carries a result, reason or now — a model
// imitating last turn's write-back means what it asks, and a forged ok must never count
// (SPEC 3.4). What is not to be applied is told apart by where it stands, never by what
// it says: the bot's own posts are not read at all, and a GM quotes an outcome in a quote
// line or in code, which Read skips.
type Message struct {
	// Tags are the tags outside code and quotes, in the order they appear.
	Tags []Tag
}

// Get returns the value of a canonical attribute (who and op included).
func (t Tag) Get(key string) (string, bool) {
	switch key {
	case "who":
		return t.Who, t.Who != ""
	case "op", "action":
		return t.Op, t.Op != ""
	}
	for _, a := range t.Attrs {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// Int returns an integer attribute (amount, by, to, box, count). ok is false when the
// attribute is absent or is not an integer — for advance, to= on a text field is text.
func (t Tag) Int(key string) (int, bool) {
	v, ok := t.Get(key)
	if !ok {
		return 0, false
	}
	n, ok := readInt(v)
	return n, ok
}

// Err returns the refusal a request carries before it reaches the engine, or nil.
func (t Tag) Err() error {
	if t.Reason == "" {
		return nil
	}
	return &refusal.Error{Reason: t.Reason, Detail: t.Detail}
}

// WithCount returns a copy of an inventory tag whose count is n: the write-back of an
// inventory tag says how many really moved, which may be fewer than were asked for.
func (t Tag) WithCount(n int) Tag {
	attrs := make([]Attr, len(t.Attrs))
	copy(attrs, t.Attrs)
	t.Attrs = attrs
	for i := range t.Attrs {
		if t.Attrs[i].Key == "count" {
			t.Attrs[i].Value = strconv.Itoa(n)
		}
	}
	return t
}

// Read finds and reads every tag in text.
//
// Text with no tag head costs one scan for '[' (about what strings.Contains costs); tags
// inside inline code, fenced blocks or Discord quotes are not read; the 41st and later
// sheet commands are marked too-many. Read never fails: whatever a body says, it comes
// back as a Tag.
func Read(text string) Message {
	if strings.IndexByte(text, '[') < 0 {
		return Message{} // before the buffers below are even cleared
	}
	var spanBuf [16]span
	spans := findSpans(text, spanBuf[:0])
	if len(spans) == 0 {
		return Message{}
	}
	code := codeRegions(text, spans)
	spans = dropQuoted(text, dropCode(spans, code), code)
	if len(spans) == 0 {
		return Message{}
	}
	// One tag a span, and room for a second item in each inventory tag: enough for most
	// replies, so the slice is not grown while it fills.
	room := len(spans)
	for _, s := range spans {
		if s.kind == Inventory {
			room++
		}
	}
	m := Message{Tags: make([]Tag, 0, room)}
	commands := 0
	// One token and one attribute buffer serve every body: nothing read from a body
	// keeps either (a Tag holds strings of the text, never the buffers).
	var tokBuf [32]lexer.Token
	var attrBuf [16]rawAttr
	toks, attrs := tokBuf[:0], attrBuf[:0]
	for _, s := range spans {
		body := text[s.bodyStart : s.end-1]
		toks = lexBody(body, toks[:0])
		attrs = readAttrs(toks, attrs[:0])
		var tags []Tag
		switch {
		case s.kind == Sheet:
			tags = []Tag{readSheet(body, attrs)}
		case s.kind == SkillCheck || s.kind == DiceRoll:
			tags = []Tag{readRollTag(s.kind, body, attrs)}
		default:
			tags = readInventory(body, attrs)
		}
		for _, t := range tags {
			t.Start, t.End = s.start, s.end
			if t.Kind == Sheet && !t.Malformed {
				commands++
				if commands > MaxCommands {
					t.Reason = refusal.TooMany
					t.Detail = "a message may carry at most " + strconv.Itoa(MaxCommands) + " sheet commands"
				}
			}
			m.Tags = append(m.Tags, t)
		}
	}
	return m
}

// rawAttr is one attribute as written: its key lowercased, its value unquoted and trimmed.
// has is false for a `key=` with no value, which declares nothing.
type rawAttr struct {
	key      string
	value    string
	has      bool
	bare     bool
	start    int // offset of the key in the body
	valuePos int // offset of the value in the body
}

func isValue(t lexer.TokenType) bool { return t == tokDouble || t == tokSingle || t == tokBare }

// readAttrs appends to out the attributes of one body, read from its tokens (lexBody).
func readAttrs(toks []lexer.Token, out []rawAttr) []rawAttr {
	for i := 0; i < len(toks); i++ {
		if toks[i].Type != tokKey {
			continue
		}
		r := rawAttr{key: strings.ToLower(toks[i].Value), start: toks[i].Pos.Offset}
		if i+1 < len(toks) && isValue(toks[i+1].Type) {
			v := toks[i+1]
			r.has = true
			r.valuePos = v.Pos.Offset
			switch v.Type {
			case tokDouble:
				r.value = unquoteDouble(v.Value)
			case tokSingle:
				r.value = stripQuoteRunes(v.Value)
			default:
				r.bare = true
				r.value = stripLooseQuotes(v.Value)
			}
			r.value = strings.TrimSpace(r.value)
		}
		out = append(out, r)
	}
	return out
}

// unquoteDouble strips the quotes of a double-quoted value. In ASCII quotes \" stands for
// a quote and \\ for a backslash; any other backslash is itself. Typographic quotes have
// no escapes.
func unquoteDouble(s string) string {
	if s[0] != '"' {
		return stripQuoteRunes(s)
	}
	s = s[1 : len(s)-1]
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stripQuoteRunes drops the first and last rune: the quotes of a quoted value.
func stripQuoteRunes(s string) string {
	_, first := firstRune(s)
	_, last := lastRune(s)
	if first+last > len(s) {
		return ""
	}
	return s[first : len(s)-last]
}

// stripLooseQuotes drops one quote mark from each end of an unquoted value, as Marinara
// does: `name="Fire` with its quote never closed reads as Fire.
func stripLooseQuotes(s string) string {
	if r, n := firstRune(s); isQuote(r) {
		s = s[n:]
	}
	if r, n := lastRune(s); n > 0 && isQuote(r) {
		s = s[:len(s)-n]
	}
	return s
}

func isQuote(r rune) bool { return r == '"' || r == '\'' || typographicClass(r) != 0 }

// readInt reads a signed integer of at most 9 digits: a longer run of digits is not a
// number a command can mean, and bounding it keeps it from costing anything.
func readInt(s string) (int, bool) {
	d := s
	if len(d) > 0 && (d[0] == '+' || d[0] == '-') {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

// malformed builds the request for a body that does not say a command. A body that is our
// own malformed write-back (a raw= and no op) keeps the raw it carries, so reading a
// write-back gives back the same request.
func malformed(kind Kind, body string, attrs []rawAttr, detail string) Tag {
	t := Tag{Kind: kind, Malformed: true, Reason: refusal.Malformed, Detail: detail, Raw: strings.TrimSpace(body)}
	var raw *rawAttr
	for i := range attrs {
		switch attrs[i].key {
		case "op", "action":
			if attrs[i].has {
				return t
			}
		case "raw":
			if attrs[i].has && raw == nil {
				raw = &attrs[i]
			}
		}
	}
	if raw != nil {
		t.Raw = raw.value
	}
	return t
}

func firstRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }
func lastRune(s string) (rune, int)  { return utf8.DecodeLastRuneInString(s) }
