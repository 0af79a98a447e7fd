package rules

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"sheetkeeper/parser"
	"sheetkeeper/strictjson"
)

// Small checks every part of a ruleset shares. Marinara's schema states each of these
// once and reuses it everywhere; so do we, so a sheet id or a label means the same thing
// in a list column, a catalog filter and a creature's action.

// maxSheetID is the longest sheet id (a field, list, pool, catalog… id).
const maxSheetID = 40

// MaxLabel is the longest label: labels reach the GM prompt.
const MaxLabel = 80

// TextLen measures a string the way the schema does (JavaScript's length: UTF-16 code
// units), so a label that fits Marinara fits here and one that does not, does not.
// It is parser.UTF16Len, the one count, under the name the schema's checks use.
func TextLen(s string) int { return parser.UTF16Len(s) }

// IsSheetID reports whether s is a sheet id: a lowercase letter, then lowercase letters,
// digits and underscores, at most 40 characters.
func IsSheetID(s string) bool {
	if s == "" || len(s) > maxSheetID || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// SheetID checks that id is a sheet id. Every name on a sheet is one, so a GM tag can
// carry it bare.
func (r *Report) SheetID(path, id string) bool {
	switch {
	case len(id) > maxSheetID:
		r.Add(path, "id %q is longer than %d characters", Clip(id), maxSheetID)
	case !IsSheetID(id):
		r.Add(path, "id %q must be lowercase letters, digits and underscores, starting with a letter", Clip(id))
	default:
		return true
	}
	return false
}

// SheetIDs checks every id of a list of references.
func (r *Report) SheetIDs(path string, ids []string) {
	for i, id := range ids {
		r.SheetID(strictjson.Join(path, i), id)
	}
}

// Clip shortens a value quoted in a message, so a 4,000-character mistake does not fill
// the report.
func Clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 57
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}

// PromptText checks text that reaches the GM prompt (labels, guidance): not empty, at
// most max characters, one line, no control characters, no square brackets (the shape of
// a GM tag) and no macro braces.
func (r *Report) PromptText(path, s string, max int) {
	if s == "" {
		r.Add(path, "must not be empty")
		return
	}
	if n := TextLen(s); n > max {
		r.Add(path, "is %d characters long, at most %d allowed", n, max)
	}
	if lineBreak, control := textMarks(s, false); lineBreak {
		r.Add(path, "must not contain line breaks")
	} else if control {
		r.Add(path, "must not contain control characters")
	}
	if strings.ContainsAny(s, "[]") {
		r.Add(path, "must not contain square brackets")
	}
	if strings.Contains(s, "{{") || strings.Contains(s, "}}") {
		r.Add(path, "must not contain macro braces")
	}
}

// Label checks a label: prompt-safe text of at most 80 characters.
func (r *Report) Label(path, s string) { r.PromptText(path, s, MaxLabel) }

// CatalogText checks one plain line the picker shows but the model never reads: at most
// max characters, no line breaks, no control characters. Brackets and braces are fine.
func (r *Report) CatalogText(path, s string, max int) {
	if n := TextLen(s); n > max {
		r.Add(path, "is %d characters long, at most %d allowed", n, max)
	}
	if lineBreak, control := textMarks(s, true); lineBreak || control {
		r.Add(path, "must not contain line breaks or control characters")
	}
}

// MaxLen checks only a length.
func (r *Report) MaxLen(path, s string, max int) {
	if n := TextLen(s); n > max {
		r.Add(path, "is %d characters long, at most %d allowed", n, max)
	}
}

// textMarks reports whether s holds a line break (CR, LF, U+0085, U+2028, U+2029) and
// whether it holds another control character: C0 or DEL, and with c1 U+0080–U+009F.
// One pass, ASCII a byte at a time: every label and line of a package goes through it.
func textMarks(s string, c1 bool) (lineBreak, control bool) {
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			switch {
			case b == '\r' || b == '\n':
				lineBreak = true
			case b < 0x20 || b == 0x7F:
				control = true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			lineBreak = true
		case c1 && r >= 0x80 && r <= 0x9F:
			control = true
		}
	}
	return lineBreak, control
}

// OneOf checks that v is one of the allowed words.
func (r *Report) OneOf(path, v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	r.Add(path, "%q is not one of: %s", Clip(v), strings.Join(allowed, ", "))
	return false
}

// Between checks a number against inclusive bounds.
func (r *Report) Between(path string, v, lo, hi float64) bool {
	if v < lo || v > hi {
		r.Add(path, "%s is out of range %s..%s", Num(v), Num(lo), Num(hi))
		return false
	}
	return true
}

// Count checks how many items a list holds.
func (r *Report) Count(path string, n, lo, hi int) bool {
	switch {
	case n < lo && lo == 1:
		r.Add(path, "must not be empty")
	case n < lo:
		r.Add(path, "has %s, at least %d needed", items(n), lo)
	case n > hi:
		r.Add(path, "has %s, at most %d allowed", items(n), hi)
	default:
		return true
	}
	return false
}

func items(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// Num formats a number the way a JSON file would write it.
func Num(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprint(f)
}

// Unique reports every id that repeats an earlier one, at the later item's id. what
// names the kind of thing ("field", "pool") for the message.
func (r *Report) Unique(path, what string, n int, id func(i int) string) {
	seen := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		v := id(i)
		if v == "" {
			continue
		}
		if seen[v] {
			r.Add(strictjson.Join(strictjson.Join(path, i), "id"), "duplicate %s id %q", what, v)
		}
		seen[v] = true
	}
}

// UniqueStrings reports every repeated value of a list of strings at the repeat.
func (r *Report) UniqueStrings(path, what string, vs []string) {
	seen := make(map[string]bool, len(vs))
	for i, v := range vs {
		if seen[v] {
			r.Add(strictjson.Join(path, i), "%s %q is listed twice", what, Clip(v))
		}
		seen[v] = true
	}
}

// StepTable maps an input to the value of the highest threshold at or below it
// ([[threshold, value], …], thresholds strictly ascending); an input below the first
// threshold reads the first value.
type StepTable [][2]float64

// Lookup reads the table at x.
func (t StepTable) Lookup(x float64) float64 {
	if len(t) == 0 {
		return 0
	}
	v := t[0][1]
	for _, step := range t {
		if step[0] > x {
			break
		}
		v = step[1]
	}
	return v
}

// StepTable checks a table's length and that its thresholds run strictly up: a repeated
// or falling threshold would never be the one read.
func (r *Report) StepTable(path string, t StepTable, max int) {
	r.Count(path, len(t), 1, max)
	for i := 1; i < len(t); i++ {
		if t[i][0] <= t[i-1][0] {
			r.Add(fmt.Sprintf("%s[%d][0]", path, i), "thresholds must be strictly ascending")
		}
	}
}

// MaxDiceText is the longest dice text a ruleset holds.
const MaxDiceText = 40

// Dice checks dice text: 2d6, 1d8+3 — read by the one dice grammar (parser.ParseDice,
// so what a ruleset may write is what the engine can throw) and held to a ruleset's
// shape: one term of dice of at least two sides, then at most one constant, written
// canonically.
func (r *Report) Dice(path, s string) {
	ok, seen := r.dice[s]
	if !seen {
		ok = TextLen(s) <= MaxDiceText && rulesetDice(s)
		if r.dice == nil {
			r.dice = map[string]bool{}
		}
		r.dice[s] = ok
	}
	if !ok {
		r.Add(path, "%q is not dice like 2d6 or 1d8+3", Clip(s))
	}
}

func rulesetDice(s string) bool {
	d, err := parser.ParseDice(s)
	if err != nil || d.String() != s || len(d.Terms) > 2 {
		return false
	}
	first := d.Terms[0]
	if first.Neg || first.Sides < 2 || first.Keep > 0 {
		return false
	}
	return len(d.Terms) == 1 || d.Terms[1].Sides == 0
}
