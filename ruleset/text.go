package ruleset

import (
	"math"
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

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
	c.Count(base, len(items), lo, hi)
	c.Unique(base, what, len(items), func(i int) string {
		id, _ := P(&items[i]).idLabel()
		return id
	})
	for i := range items {
		t := P(&items[i])
		path := strictjson.Join(base, i)
		id, label := t.idLabel()
		c.SheetID(path+".id", id)
		c.Label(path+".label", label)
		check(i, t, path)
	}
}

// decodeRaw decodes a union member the file holds as raw JSON, at the raw's own path,
// and keeps the problems. It reports whether the member decoded cleanly.
func (c *checker) decodeRaw(raw strictjson.Raw, v any, path string) bool {
	ps := strictjson.Decode(raw, v, path, strictjson.Options{AllowComment: true})
	c.Problems = append(c.Problems, ps...)
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
		c.OneOf(path, string(r), "down", "up", "nearest")
	}
}

// StepTable lives in rules, where the fight's blocks read it too.
type StepTable = rules.StepTable

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
		c.Add(path, "hideWhen names exactly one of: equals, notEquals, in")
	}
	if h.In != nil {
		c.Count(strictjson.Join(path, "in"), len(h.In), 1, 24)
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
			c.MaxLen(valuePath(i), x, rules.MaxLabel)
		case float64, bool:
		default:
			c.Add(valuePath(i), "expected a string, number or boolean")
		}
	}
	if !c.SheetID(strictjson.Join(path, "field"), h.Field) || c.names == nil {
		return
	}
	f := c.names.field(h.Field)
	if f == nil {
		c.Add(strictjson.Join(path, "field"), "unknown field %q", h.Field)
		return
	}
	for i, v := range vals {
		if msg := f.refusesScalar(v); msg != "" {
			c.Add(valuePath(i), "field %q %s", f.ID, msg)
		}
	}
}
