package parser

import (
	"strconv"
	"strings"
)

// maxWho is the longest who= a sheet tag keeps, Marinara's ceiling for a character name.
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

// CapRunes keeps the first n characters (runes) of s: a tag's free text is capped by
// characters, as Marinara counts them, never cut inside one.
func CapRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// readSheet reads one sheet body into the request it makes, per op (SPEC 3.2, 5.6).
func readSheet(body string, attrs []rawAttr) Tag {
	l := lookup{attrs: attrs}
	bad := func(detail string) Tag { return malformed(Sheet, body, attrs, detail) }
	t := Tag{Kind: Sheet, Raw: strings.TrimSpace(body), Resolved: resolvedBy(attrs)}
	if who, ok := l.get("who"); ok {
		t.Who = strings.TrimSpace(CapRunes(who, maxWho))
	}
	name, ok := l.get("op")
	if !ok {
		return bad("the tag names no op")
	}
	op, ok := sheetOps[strings.ToLower(name)]
	if !ok {
		return bad("op " + strconv.Quote(CapRunes(name, 40)) + " is not a sheet op")
	}
	t.Op = op
	t.Attrs = make([]Attr, 0, 4) // no op writes more than four (damage on a track)
	add := func(k, v string) { t.Attrs = append(t.Attrs, Attr{k, v}) }
	need := func(keys ...string) bool {
		for _, k := range keys {
			v, ok := l.get(k)
			if !ok {
				return false
			}
			add(k, v)
		}
		return true
	}
	switch op {
	case "spend", "restore", "damage", "temp":
		amount, hasAmount, e := l.integer("amount")
		if e != "" {
			return bad(e)
		}
		if track, ok := l.get("track"); ok && op == "damage" {
			// A damage that names a track is a mark on a wound track; a heal (a negative
			// amount) may leave the kind out and then clears the lightest mark.
			kind, hasKind := l.get("kind")
			if !hasAmount {
				return bad("damage on a track needs an amount")
			}
			if amount >= 0 && !hasKind {
				return bad("damage on a track needs a kind unless it heals")
			}
			box, hasBox, e := l.integer("box")
			if e != "" {
				return bad(e) // a box that is not a number is refused, not read as box 1
			}
			add("track", track)
			if hasKind {
				add("kind", kind)
			}
			add("amount", strconv.Itoa(amount))
			if hasBox {
				add("box", strconv.Itoa(box))
			}
			break
		}
		if !need("pool") {
			return bad(op + " needs a pool")
		}
		if !hasAmount {
			return bad(op + " needs an amount")
		}
		add("amount", strconv.Itoa(amount))
	case "track":
		if !need("track") {
			return bad("track needs a track")
		}
		to, hasTo, e1 := l.integer("to")
		by, hasBy, e2 := l.integer("by")
		if e1 != "" || e2 != "" {
			return bad(e1 + e2)
		}
		if hasTo == hasBy {
			return bad("track needs exactly one of to and by")
		}
		if hasTo {
			add("to", strconv.Itoa(to))
		} else {
			add("by", strconv.Itoa(by))
		}
	case "condition":
		if !need("condition") {
			return bad("condition needs a condition")
		}
		on, ok := readSwitch(l.find("state"))
		if !ok {
			return bad("state must be on or off")
		}
		add("state", on)
	case "state":
		if !need("state", "value") {
			return bad("state needs a state and a value")
		}
	case "note":
		if !need("field") {
			return bad("note needs a field")
		}
		v, _ := l.get("value") // absent (or empty) clears the note
		add("value", v)
	case "rest":
		if !need("rest") {
			return bad("rest needs a rest")
		}
	case "use":
		// spell= goes with cast=; both are the general name=, and name= wins.
		entry, ok := l.get("name")
		if !ok {
			entry, ok = l.get("spell")
		}
		if !ok {
			return bad("use needs a name")
		}
		add("name", entry)
		if pool, ok := l.get("pool"); ok {
			add("pool", pool)
		}
	case "advance":
		if e := readAdvance(l, add); e != "" {
			return bad(e)
		}
	}
	return t
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
func readAdvance(l lookup, add func(k, v string)) string {
	target, value := "", ""
	for _, k := range [...]string{"field", "ability", "skill", "save"} {
		if v, ok := l.get(k); ok {
			if target != "" {
				return "advance takes exactly one of field, ability, skill and save"
			}
			target, value = k, v
		}
	}
	if target == "" {
		return "advance needs a field, ability, skill or save"
	}
	add(target, value)
	to, hasTo := l.get("to")
	by, hasBy, e := l.integer("by")
	if e != "" {
		return e
	}
	switch target {
	case "field", "ability":
		if hasTo == hasBy {
			return "advance of a " + target + " needs exactly one of by and to"
		}
		if hasBy {
			add("by", strconv.Itoa(by))
			return ""
		}
		if n, isInt := readInt(to); isInt {
			add("to", strconv.Itoa(n))
		} else if target == "ability" {
			return "to must be a whole number of at most 9 digits"
		} else {
			add("to", to)
		}
	default:
		if hasTo || hasBy {
			return "advance of a " + target + " takes a tier, not by or to"
		}
		tier, ok := l.get("tier")
		if !ok {
			return "advance of a " + target + " needs a tier"
		}
		add("tier", tier)
	}
	return ""
}
