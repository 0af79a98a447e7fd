package ruleset

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf16"

	"sheetkeeper/strictjson"
)

// Small checks every region of a ruleset shares. Marinara's schema states each of these
// once and reuses it everywhere; so do we, so a sheet id or a label means the same thing
// in a list column, a catalog filter and a creature's action.

// maxSheetID is the longest sheet id (a field, list, pool, catalog… id).
const maxSheetID = 40

// maxLabel is the longest label: labels reach the GM prompt.
const maxLabel = 80

// textLen measures a string the way the schema does (JavaScript's length: UTF-16 code
// units), so a label that fits Marinara fits here and one that does not, does not.
func textLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// isSheetID reports whether s is a sheet id: a lowercase letter, then lowercase letters,
// digits and underscores, at most 40 characters.
func isSheetID(s string) bool {
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

// sheetID checks that id is a sheet id. Every name on a sheet is one, so a GM tag can
// carry it bare.
func (c *checker) sheetID(path, id string) bool {
	switch {
	case len(id) > maxSheetID:
		c.add(path, "id %q is longer than %d characters", clip(id), maxSheetID)
	case !isSheetID(id):
		c.add(path, "id %q must be lowercase letters, digits and underscores, starting with a letter", clip(id))
	default:
		return true
	}
	return false
}

// sheetIDs checks every id of a list of references.
func (c *checker) sheetIDs(path string, ids []string) {
	for i, id := range ids {
		c.sheetID(strictjson.Join(path, i), id)
	}
}

// clip shortens a value quoted in a message, so a 4,000-character mistake does not fill
// the report.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 57
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}

// promptText checks text that reaches the GM prompt (labels, guidance): not empty, at
// most max characters, one line, no control characters, no square brackets (the shape of
// a GM tag) and no macro braces.
func (c *checker) promptText(path, s string, max int) {
	if s == "" {
		c.add(path, "must not be empty")
		return
	}
	if n := textLen(s); n > max {
		c.add(path, "is %d characters long, at most %d allowed", n, max)
	}
	if strings.ContainsAny(s, "\r\n\u0085\u2028\u2029") {
		c.add(path, "must not contain line breaks")
	} else if hasControl(s, false) {
		c.add(path, "must not contain control characters")
	}
	if strings.ContainsAny(s, "[]") {
		c.add(path, "must not contain square brackets")
	}
	if strings.Contains(s, "{{") || strings.Contains(s, "}}") {
		c.add(path, "must not contain macro braces")
	}
}

// label checks a label: prompt-safe text of at most 80 characters.
func (c *checker) label(path, s string) { c.promptText(path, s, maxLabel) }

// catalogText checks one plain line the picker shows but the model never reads: at most
// max characters, no line breaks, no control characters. Brackets and braces are fine.
func (c *checker) catalogText(path, s string, max int) {
	if n := textLen(s); n > max {
		c.add(path, "is %d characters long, at most %d allowed", n, max)
	}
	if hasControl(s, true) || strings.ContainsAny(s, "\u2028\u2029") {
		c.add(path, "must not contain line breaks or control characters")
	}
}

// maxLen checks only a length.
func (c *checker) maxLen(path, s string, max int) {
	if n := textLen(s); n > max {
		c.add(path, "is %d characters long, at most %d allowed", n, max)
	}
}

// hasControl reports a C0 control character or DEL, and with c1 also U+0080–U+009F.
func hasControl(s string, c1 bool) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7F || c1 && r >= 0x80 && r <= 0x9F {
			return true
		}
	}
	return false
}

// oneOf checks that v is one of the allowed words.
func (c *checker) oneOf(path, v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	c.add(path, "%q is not one of: %s", clip(v), strings.Join(allowed, ", "))
	return false
}

// between checks a number against inclusive bounds.
func (c *checker) between(path string, v, lo, hi float64) bool {
	if v < lo || v > hi {
		c.add(path, "%s is out of range %s..%s", num(v), num(lo), num(hi))
		return false
	}
	return true
}

// count checks how many items a list holds.
func (c *checker) count(path string, n, lo, hi int) bool {
	switch {
	case n < lo && lo == 1:
		c.add(path, "must not be empty")
	case n < lo:
		c.add(path, "has %s, at least %d needed", items(n), lo)
	case n > hi:
		c.add(path, "has %s, at most %d allowed", items(n), hi)
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

// num formats a number the way a JSON file would write it.
func num(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprint(f)
}

// unique reports every id that repeats an earlier one, at the later item's id. what
// names the kind of thing ("field", "pool") for the message.
func (c *checker) unique(path, what string, n int, id func(i int) string) {
	seen := make(map[string]bool, n)
	for i := 0; i < n; i++ {
		v := id(i)
		if v == "" {
			continue
		}
		if seen[v] {
			c.add(strictjson.Join(strictjson.Join(path, i), "id"), "duplicate %s id %q", what, v)
		}
		seen[v] = true
	}
}

// labelled is something a ruleset lists by id, with a label to show.
type labelled interface{ idLabel() (id, label string) }

func (s *Section) idLabel() (string, string)         { return s.ID, s.Label }
func (a *Ability) idLabel() (string, string)         { return a.ID, a.Label }
func (s *Skill) idLabel() (string, string)           { return s.ID, s.Label }
func (d *Derived) idLabel() (string, string)         { return d.ID, d.Label }
func (l *List) idLabel() (string, string)            { return l.ID, l.Label }
func (r *Rest) idLabel() (string, string)            { return r.ID, r.Label }
func (l *Layer) idLabel() (string, string)           { return l.ID, l.Label }
func (t *ProficiencyTier) idLabel() (string, string) { return t.ID, t.Label }

// labelledList checks a list of labelled things at base: lo to hi of them, every id a
// sheet id and none twice (a repeat is named as what), every label one to show; then
// check reads the rest of each, the i-th at path.
func labelledList[T any, P interface {
	*T
	labelled
}](c *checker, base, what string, items []T, lo, hi int, check func(i int, t P, path string)) {
	c.count(base, len(items), lo, hi)
	c.unique(base, what, len(items), func(i int) string {
		id, _ := P(&items[i]).idLabel()
		return id
	})
	for i := range items {
		t := P(&items[i])
		path := strictjson.Join(base, i)
		id, label := t.idLabel()
		c.sheetID(path+".id", id)
		c.label(path+".label", label)
		check(i, t, path)
	}
}

// uniqueStrings reports every repeated value of a list of strings at the repeat.
func (c *checker) uniqueStrings(path, what string, vs []string) {
	seen := make(map[string]bool, len(vs))
	for i, v := range vs {
		if seen[v] {
			c.add(strictjson.Join(path, i), "%s %q is listed twice", what, clip(v))
		}
		seen[v] = true
	}
}

// decodeRaw decodes a union member the file holds as raw JSON, at the raw's own path,
// and keeps the problems. It reports whether the member decoded cleanly.
func (c *checker) decodeRaw(raw strictjson.Raw, v any, path string) bool {
	ps := strictjson.Decode(raw, v, path, strictjson.Options{AllowComment: true})
	c.p = append(c.p, ps...)
	return len(ps) == 0
}

// rawKind reports what JSON value raw holds: 'n' number, 's' string, 'b' boolean,
// 'o' object, 'a' array, 'z' null, 0 nothing.
func rawKind(raw strictjson.Raw) byte {
	for _, b := range raw {
		switch {
		case b == ' ' || b == '\t' || b == '\n' || b == '\r':
			continue
		case b == '{':
			return 'o'
		case b == '[':
			return 'a'
		case b == '"':
			return 's'
		case b == 't' || b == 'f':
			return 'b'
		case b == 'n':
			return 'z'
		default:
			return 'n'
		}
	}
	return 0
}

// Rounding says how a fractional result becomes a whole number: "down" (the default),
// "up" or "nearest".
type Rounding string

// Round applies the rounding, "down" when none is set.
func (r Rounding) Round(f float64) float64 {
	switch r {
	case "up":
		return math.Ceil(f)
	case "nearest":
		return math.Round(f)
	}
	return math.Floor(f)
}

func (c *checker) rounding(path string, r Rounding) {
	if r != "" {
		c.oneOf(path, string(r), "down", "up", "nearest")
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

// stepTable checks a table's length and that its thresholds run strictly up: a repeated
// or falling threshold would never be the one read.
func (c *checker) stepTable(path string, t StepTable, max int) {
	c.count(path, len(t), 1, max)
	for i := 1; i < len(t); i++ {
		if t[i][0] <= t[i-1][0] {
			c.add(fmt.Sprintf("%s[%d][0]", path, i), "thresholds must be strictly ascending")
		}
	}
}

// HideWhen takes something off the sheet while a field holds one value (equals), holds
// anything but one value (notEquals), or holds one of a few (in). Exactly one of the
// three, so a rule always says one thing. Values are strings (≤ 80), numbers or booleans.
type HideWhen struct {
	Field     string `json:"field"`
	Equals    any    `json:"equals,omitempty"`
	NotEquals any    `json:"notEquals,omitempty"`
	In        []any  `json:"in,omitempty"`
}

// Values returns every value the rule compares against.
func (h *HideWhen) Values() []any {
	if h.In != nil {
		return h.In
	}
	if h.Equals != nil {
		return []any{h.Equals}
	}
	if h.NotEquals != nil {
		return []any{h.NotEquals}
	}
	return nil
}

// Hides reports whether the rule hides its owner while its field holds v.
func (h *HideWhen) Hides(v any) bool {
	switch {
	case h.In != nil:
		for _, w := range h.In {
			if sameScalar(v, w) {
				return true
			}
		}
		return false
	case h.Equals != nil:
		return sameScalar(v, h.Equals)
	case h.NotEquals != nil:
		return !sameScalar(v, h.NotEquals)
	}
	return false
}

func sameScalar(a, b any) bool {
	switch x := a.(type) {
	case int:
		a = float64(x)
	}
	switch x := b.(type) {
	case int:
		b = float64(x)
	}
	return a == b
}

// hideWhen checks a rule's own shape and that its field exists and can hold its values.
// It needs c.names.
func (c *checker) hideWhen(path string, h *HideWhen) {
	if h == nil {
		return
	}
	n := 0
	for _, set := range []bool{h.Equals != nil, h.NotEquals != nil, h.In != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		c.add(path, "hideWhen names exactly one of: equals, notEquals, in")
	}
	if h.In != nil {
		c.count(strictjson.Join(path, "in"), len(h.In), 1, 24)
	}
	valuePath := func(i int) string {
		switch {
		case h.In != nil:
			return strictjson.Join(strictjson.Join(path, "in"), i)
		case h.Equals != nil:
			return strictjson.Join(path, "equals")
		}
		return strictjson.Join(path, "notEquals")
	}
	vals := h.Values()
	for i, v := range vals {
		switch x := v.(type) {
		case string:
			c.maxLen(valuePath(i), x, maxLabel)
		case float64, bool:
		default:
			c.add(valuePath(i), "expected a string, number or boolean")
		}
	}
	if !c.sheetID(strictjson.Join(path, "field"), h.Field) || c.names == nil {
		return
	}
	f := c.names.field(h.Field)
	if f == nil {
		c.add(strictjson.Join(path, "field"), "unknown field %q", h.Field)
		return
	}
	for i, v := range vals {
		if msg := f.refusesScalar(v); msg != "" {
			c.add(valuePath(i), "field %q %s", f.ID, msg)
		}
	}
}
