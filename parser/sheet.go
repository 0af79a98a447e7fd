package parser

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// maxWho is the longest who= a sheet tag keeps (UTF-16 code units, as CapUTF16 counts),
// Marinara's ceiling for a character name.
const maxWho = 100

// sheetOps are the ops a sheet tag may name: Marinara's set plus the seed's advance.
var sheetOps = map[string]string{
	"spend": "spend", "restore": "restore", "heal": "restore", "damage": "damage",
	"temp": "temp", "track": "track", "condition": "condition", "note": "note",
	"state": "state", "rest": "rest", "use": "use", "cast": "use", "advance": "advance",
}

// lookup finds attributes by key. For a sheet tag the last one written wins (Marinara keeps
// a map and overwrites); for an inventory tag the first one does.
type lookup struct {
	attrs     []rawAttr
	firstWins bool
}

// get returns a value that says something: present, and not empty once sanitised — a value
// that would be written back as "" cannot be what a required attribute asked for.
func (l lookup) get(key string) (string, bool) {
	a := l.find(key)
	if a == nil || !meaningful(a.value) {
		return "", false
	}
	return a.value, true
}

// find returns the attribute with a value under key, if any.
func (l lookup) find(key string) *rawAttr {
	n := len(l.attrs)
	for i := range n {
		k := n - 1 - i
		if l.firstWins {
			k = i
		}
		if a := &l.attrs[k]; a.key == key && a.has {
			return a
		}
	}
	return nil
}

// integer reads an integer attribute: absent is (0, false, nil); present but not a signed
// integer of at most 9 digits is an error, because a tag whose number does not read as one
// does not say what it means.
func (l lookup) integer(key string) (int, bool, string) {
	a := l.find(key)
	if a == nil {
		return 0, false, ""
	}
	n, ok := readInt(a.value)
	if !ok {
		return 0, false, key + " must be a whole number of at most 9 digits"
	}
	return n, true, ""
}

// meaningful reports whether anything of v survives sanitising.
func meaningful(v string) bool {
	for _, r := range v {
		if !dropped(r) && !isSpaceRune(r) {
			return true
		}
	}
	return false
}

// CapUTF16 keeps the longest start of s that is at most n UTF-16 code units long. A tag's
// free text is capped as Marinara caps it, with JavaScript's length and slice, which count
// UTF-16 code units: a character outside the Basic Multilingual Plane (most emoji) counts
// two. It never cuts inside a character: where slice would keep the first half of a
// surrogate pair, which a Go string cannot hold, the whole character is dropped, so the
// result may be one unit shorter than Marinara's.
func CapUTF16(s string, n int) string {
	if len(s) <= n { // a character is never more UTF-16 units than bytes
		return s
	}
	units := 0
	for k, r := range s {
		if units += utf16.RuneLen(r); units > n {
			return s[:k]
		}
	}
	return s
}

// UTF16Len is the length of s as JavaScript's length counts it, in UTF-16 code units:
// what Marinara's character bounds measure (the parser's caps, a package's manifest).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// readSheet reads one sheet body into the request it makes, per op (SPEC 3.2, 5.6): who
// and op here, the op's own attributes in readSheetOp.
func readSheet(body string, attrs []rawAttr) Tag {
	l := lookup{attrs: attrs}
	bad := func(detail string) Tag { return malformed(Sheet, body, attrs, detail) }
	t := Tag{Kind: Sheet, Raw: strings.TrimSpace(body)}
	if who, ok := l.get("who"); ok {
		t.Who = strings.TrimSpace(CapUTF16(who, maxWho))
	}
	name, ok := l.get("op")
	if !ok {
		return bad("the tag names no op")
	}
	op, ok := sheetOps[strings.ToLower(name)]
	if !ok {
		return bad("op " + strconv.Quote(CapUTF16(name, 40)) + " is not a sheet op")
	}
	t.Op = op
	t.Attrs = make([]Attr, 0, 4) // no op writes more than four (damage on a track)
	r := opReader{lookup: l, attrs: &t.Attrs}
	if e := r.readOp(op); e != "" {
		return bad(e)
	}
	return t
}

// opReader reads the attributes of a sheet tag's op: the ones the GM wrote, and the ones
// the request keeps, in the order they are written back. The kept ones are appended
// through a pointer, not to a field: what is stored through the reader would otherwise
// make the compiler move the attributes it reads (Read's buffer) to the heap.
type opReader struct {
	lookup
	attrs *[]Attr
}

// add keeps an attribute.
func (r *opReader) add(k, v string) { *r.attrs = append(*r.attrs, Attr{k, v}) }

// need keeps each of keys, and reports false at the first one that says nothing.
func (r *opReader) need(keys ...string) bool {
	for _, k := range keys {
		v, ok := r.get(k)
		if !ok {
			return false
		}
		r.add(k, v)
	}
	return true
}

// readOp reads the attributes op takes; it returns why the tag is malformed, or "".
func (r *opReader) readOp(op string) string {
	switch op {
	case "spend", "restore", "damage", "temp":
		return r.readAmount(op)
	case "track":
		return r.readTrack()
	case "condition":
		if !r.need("condition") {
			return "condition needs a condition"
		}
		on, ok := readSwitch(r.find("state"))
		if !ok {
			return "state must be on or off"
		}
		r.add("state", on)
	case "state":
		if !r.need("state", "value") {
			return "state needs a state and a value"
		}
	case "note":
		if !r.need("field") {
			return "note needs a field"
		}
		v, _ := r.get("value") // absent (or empty) clears the note
		r.add("value", v)
	case "rest":
		if !r.need("rest") {
			return "rest needs a rest"
		}
	case "use":
		// spell= goes with cast=; both are the general name=, and name= wins.
		entry, ok := r.get("name")
		if !ok {
			entry, ok = r.get("spell")
		}
		if !ok {
			return "use needs a name"
		}
		r.add("name", entry)
		if pool, ok := r.get("pool"); ok {
			r.add("pool", pool)
		}
	case "advance":
		return r.readAdvance()
	}
	return ""
}

// readAmount reads spend, restore, damage and temp: a pool and an amount, or for a damage
// that names a track, a mark on a wound track.
func (r *opReader) readAmount(op string) string {
	amount, hasAmount, e := r.integer("amount")
	if e != "" {
		return e
	}
	if track, ok := r.get("track"); ok && op == "damage" {
		return r.readTrackDamage(track, amount, hasAmount)
	}
	if !r.need("pool") {
		return op + " needs a pool"
	}
	if !hasAmount {
		return op + " needs an amount"
	}
	r.add("amount", strconv.Itoa(amount))
	return ""
}

// readTrackDamage reads a damage that names a track, a mark on a wound track; a heal (a
// negative amount) may leave the kind out and then clears the lightest mark.
func (r *opReader) readTrackDamage(track string, amount int, hasAmount bool) string {
	kind, hasKind := r.get("kind")
	if !hasAmount {
		return "damage on a track needs an amount"
	}
	if amount >= 0 && !hasKind {
		return "damage on a track needs a kind unless it heals"
	}
	box, hasBox, e := r.integer("box")
	if e != "" {
		return e // a box that is not a number is refused, not read as box 1
	}
	r.add("track", track)
	if hasKind {
		r.add("kind", kind)
	}
	r.add("amount", strconv.Itoa(amount))
	if hasBox {
		r.add("box", strconv.Itoa(box))
	}
	return ""
}

// readTrack reads track: a track, moved to a value or by an amount.
func (r *opReader) readTrack() string {
	if !r.need("track") {
		return "track needs a track"
	}
	to, hasTo, e1 := r.integer("to")
	by, hasBy, e2 := r.integer("by")
	if e1 != "" || e2 != "" {
		return e1 + e2
	}
	if hasTo == hasBy {
		return "track needs exactly one of to and by"
	}
	if hasTo {
		r.add("to", strconv.Itoa(to))
	} else {
		r.add("by", strconv.Itoa(by))
	}
	return ""
}

// readSwitch reads a condition's or an item state's on/off: on, add, true; off, remove,
// false; absent or empty is on, because a bare condition command turns it on.
func readSwitch(a *rawAttr) (string, bool) {
	if a == nil {
		return "on", true
	}
	switch strings.ToLower(a.value) {
	case "", "on", "add", "true":
		return "on", true
	case "off", "remove", "false":
		return "off", true
	}
	return "", false
}

// readAdvance reads advance (SPEC 5.6): exactly one target of field, ability, skill, save;
// a field or ability takes exactly one of by and to, a skill or save a tier. by is always
// an integer, and so is to for an ability; a field's to may be text (a text field), so it
// is kept as written and the engine checks it against the field's type.
func (r *opReader) readAdvance() string {
	target, value := "", ""
	for _, k := range [...]string{"field", "ability", "skill", "save"} {
		if v, ok := r.get(k); ok {
			if target != "" {
				return "advance takes exactly one of field, ability, skill and save"
			}
			target, value = k, v
		}
	}
	if target == "" {
		return "advance needs a field, ability, skill or save"
	}
	r.add(target, value)
	to, hasTo := r.get("to")
	by, hasBy, e := r.integer("by")
	if e != "" {
		return e
	}
	switch target {
	case "field", "ability":
		if hasTo == hasBy {
			return "advance of a " + target + " needs exactly one of by and to"
		}
		if hasBy {
			r.add("by", strconv.Itoa(by))
			return ""
		}
		if n, isInt := readInt(to); isInt {
			r.add("to", strconv.Itoa(n))
		} else if target == "ability" {
			return "to must be a whole number of at most 9 digits"
		} else {
			r.add("to", to)
		}
	default:
		if hasTo || hasBy {
			return "advance of a " + target + " takes a tier, not by or to"
		}
		tier, ok := r.get("tier")
		if !ok {
			return "advance of a " + target + " needs a tier"
		}
		r.add("tier", tier)
	}
	return ""
}
