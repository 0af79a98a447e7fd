package sheet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/suggest"
)

// Change is one stored leaf an operation changed on one card: its path, and the stored
// (sparse) value before and after, nil meaning absent. Values are in JSON's generic
// shapes (float64, string, bool, map[string]any, []any), so a change survives a JSON
// round trip unchanged and storage can keep it as it is.
//
// Paths are stable strings:
//
//	live.pools.<key>            {"value": n, "temp": t}  (key: pool id or "<list>:<row name>")
//	live.tracks.<id>            n
//	live.wounds.<id>            {"marks": [...], "overflow": n}
//	live.text.<id>              "text"
//	live.conditions.<id>        true
//	live.states.<id>            "value"
//	build.abilities.<id>        n
//	build.skills.<id>           "tier"
//	build.saves.<id>            "tier"
//	build.bonuses.<id>          n
//	build.fields.<id>           number, text or switch
//	build.lists.<list>[i]       a whole row (added or removed)
//	build.lists.<list>[i].<col> one cell
type Change struct {
	Card   string `json:"card"`
	Path   string `json:"path"`
	Before any    `json:"before"`
	After  any    `json:"after"`
}

// Outcome is what one operation did to one card: applied (ok) with a `now` summary in
// Marinara's formats, or refused with a reason of the closed vocabulary (and, for
// bad-amount, the bounds "lo..hi"). Level and Targets are a use's raised effect level
// and target count (0 when they do not apply).
type Outcome struct {
	Result parser.Result  `json:"result"`
	Now    string         `json:"now,omitempty"`
	Reason refusal.Reason `json:"reason,omitempty"`
	// Op is the op that refused ("damage"), for logs; the write-back never reads it.
	Op      string `json:"op,omitempty"`
	Bounds  string `json:"bounds,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Level   int    `json:"level,omitempty"`
	Targets int    `json:"targets,omitempty"`
}

// OK reports whether the operation was applied.
func (o Outcome) OK() bool { return o.Result == parser.ResultOK }

// WriteBack is the outcome as the tag writer takes it.
func (o Outcome) WriteBack() parser.Outcome {
	return parser.Outcome{Result: o.Result, Now: o.Now, Reason: o.Reason, Bounds: o.Bounds, Level: o.Level, Targets: o.Targets}
}

// Err returns the refusal as an error, or nil when the operation was applied.
func (o Outcome) Err() error {
	if o.OK() {
		return nil
	}
	return &refusal.Error{Op: o.Op, Reason: o.Reason, Detail: o.Detail, Bounds: o.Bounds}
}

// Applied is an ok outcome with the given now.
func Applied(now string) Outcome { return Outcome{Result: parser.ResultOK, Now: now} }

// Refused is the outcome of a refusal: err's reason, detail and bounds when it is a
// *refusal.Error, else a malformed refusal carrying err's text.
func Refused(err error) Outcome {
	var e *refusal.Error
	if errors.As(err, &e) {
		return Outcome{Result: parser.ResultRefused, Reason: e.Reason, Op: e.Op, Detail: e.Detail, Bounds: e.Bounds}
	}
	return Outcome{Result: parser.ResultRefused, Reason: refusal.Malformed, Detail: err.Error()}
}

// refuse builds a refusal error with a detail.
func refuse(r refusal.Reason, format string, args ...any) *refusal.Error {
	return refusal.New(r, format, args...)
}

// refuseNear is an unknown-… refusal whose words end with near, the names the user
// probably meant (suggest's " — did you mean …?", or ""). Only the words change: a
// write-back reads the reason alone.
func refuseNear(r refusal.Reason, near string, format string, args ...any) *refusal.Error {
	e := refuse(r, format, args...)
	e.Detail += near
	return e
}

// nearOf is the "did you mean" words for typed among items that each answer to a label
// and an id (suggest.DidYouMeanOf): one per item, its label on a tie, since that is
// what the sheet shows. It is worked out on a refusal's path only.
func nearOf[T any](typed string, items []T, names func(*T) (label, id string)) string {
	return suggest.DidYouMeanOf(typed, items, func(x *T) []string {
		l, id := names(x)
		return []string{l, id}
	})
}

// badAmount is a bad-amount refusal stating its bounds.
func badAmount(lo, hi int, format string, args ...any) *refusal.Error {
	e := refusal.New(refusal.BadAmount, format, args...)
	e.Bounds = strconv.Itoa(lo) + ".." + strconv.Itoa(hi)
	return e
}

// ---- paths ----

// Path sections.
const (
	PathPools      = "live.pools."
	PathTracks     = "live.tracks."
	PathWounds     = "live.wounds."
	PathText       = "live.text."
	PathConditions = "live.conditions."
	PathStates     = "live.states."
	PathAbilities  = "build.abilities."
	PathSkills     = "build.skills."
	PathSaves      = "build.saves."
	PathBonuses    = "build.bonuses."
	PathFields     = "build.fields."
	PathLists      = "build.lists."
)

// RowPath is the path of row i of list, or of its column col when col is not "".
func RowPath(list string, i int, col string) string {
	p := PathLists + list + "[" + strconv.Itoa(i) + "]"
	if col != "" {
		p += "." + col
	}
	return p
}

var errBadPath = errors.New("sheet: unknown path")

// splitRowPath reads "build.lists.<list>[i]" or "…[i].<col>".
func splitRowPath(path string) (list string, i int, col string, ok bool) {
	rest, found := strings.CutPrefix(path, PathLists)
	if !found {
		return "", 0, "", false
	}
	open := strings.IndexByte(rest, '[')
	end := strings.IndexByte(rest, ']')
	if open <= 0 || end < open {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(rest[open+1 : end])
	if err != nil || n < 0 {
		return "", 0, "", false
	}
	tail := rest[end+1:]
	if tail != "" {
		if tail[0] != '.' || len(tail) == 1 {
			return "", 0, "", false
		}
		col = tail[1:]
	}
	return rest[:open], n, col, true
}

// Get returns the stored value at path in JSON's generic shapes, nil when absent.
func (c *Card) Get(path string) (any, error) {
	if k, ok := strings.CutPrefix(path, PathPools); ok {
		p, ok := c.Live.Pools[k]
		if !ok {
			return nil, nil
		}
		return poolJSON(p), nil
	}
	if k, ok := strings.CutPrefix(path, PathTracks); ok {
		if v, ok := c.Live.Tracks[k]; ok {
			return float64(v), nil
		}
		return nil, nil
	}
	if k, ok := strings.CutPrefix(path, PathWounds); ok {
		if w, ok := c.Live.Wounds[k]; ok {
			return woundsJSON(w), nil
		}
		return nil, nil
	}
	if k, ok := strings.CutPrefix(path, PathText); ok {
		if v, ok := c.Live.Text[k]; ok {
			return v, nil
		}
		return nil, nil
	}
	if k, ok := strings.CutPrefix(path, PathConditions); ok {
		if slices.Contains(c.Live.Conditions, k) {
			return true, nil
		}
		return nil, nil
	}
	if k, ok := strings.CutPrefix(path, PathStates); ok {
		if v, ok := c.Live.States[k]; ok {
			return v, nil
		}
		return nil, nil
	}
	if k, ok := strings.CutPrefix(path, PathAbilities); ok {
		return getOrNil(c.Build.Abilities, k), nil
	}
	if k, ok := strings.CutPrefix(path, PathBonuses); ok {
		return getOrNil(c.Build.Bonuses, k), nil
	}
	if k, ok := strings.CutPrefix(path, PathSkills); ok {
		return getOrNil(c.Build.Skills, k), nil
	}
	if k, ok := strings.CutPrefix(path, PathSaves); ok {
		return getOrNil(c.Build.Saves, k), nil
	}
	if k, ok := strings.CutPrefix(path, PathFields); ok {
		return getOrNil(c.Build.Fields, k), nil
	}
	if list, i, col, ok := splitRowPath(path); ok {
		rows := c.Build.Lists[list]
		if i >= len(rows) {
			return nil, nil
		}
		if col == "" {
			return map[string]any(maps.Clone(rows[i])), nil
		}
		if v, ok := rows[i][col]; ok {
			return v, nil
		}
		return nil, nil
	}
	return nil, fmt.Errorf("%w %q", errBadPath, path)
}

func getOrNil[V any](m map[string]V, k string) any {
	if v, ok := m[k]; ok {
		return v
	}
	return nil
}

// Set stores v at path (nil removes it). v is in JSON's generic shapes or the engine's
// own types; a value of the wrong shape is an error and changes nothing.
func (c *Card) Set(path string, v any) error {
	if k, ok := strings.CutPrefix(path, PathPools); ok {
		if v == nil {
			delete(c.Live.Pools, k)
			return nil
		}
		var p PoolValue
		if err := convert(v, &p); err != nil {
			return err
		}
		c.Live.Pools = put(c.Live.Pools, k, p)
		return nil
	}
	if k, ok := strings.CutPrefix(path, PathTracks); ok {
		if v == nil {
			delete(c.Live.Tracks, k)
			return nil
		}
		var n int
		if err := convert(v, &n); err != nil {
			return err
		}
		c.Live.Tracks = put(c.Live.Tracks, k, n)
		return nil
	}
	if k, ok := strings.CutPrefix(path, PathWounds); ok {
		if v == nil {
			delete(c.Live.Wounds, k)
			return nil
		}
		var w Wounds
		if err := convert(v, &w); err != nil {
			return err
		}
		c.Live.Wounds = put(c.Live.Wounds, k, w)
		return nil
	}
	if k, ok := strings.CutPrefix(path, PathText); ok {
		return setString(&c.Live.Text, k, v)
	}
	if k, ok := strings.CutPrefix(path, PathStates); ok {
		return setString(&c.Live.States, k, v)
	}
	if k, ok := strings.CutPrefix(path, PathConditions); ok {
		c.Live.Conditions = slices.DeleteFunc(c.Live.Conditions, func(s string) bool { return s == k })
		if v != nil {
			c.Live.Conditions = append(c.Live.Conditions, k)
		}
		return nil
	}
	if k, ok := strings.CutPrefix(path, PathAbilities); ok {
		return setNumber(&c.Build.Abilities, k, v)
	}
	if k, ok := strings.CutPrefix(path, PathBonuses); ok {
		return setNumber(&c.Build.Bonuses, k, v)
	}
	if k, ok := strings.CutPrefix(path, PathSkills); ok {
		return setString(&c.Build.Skills, k, v)
	}
	if k, ok := strings.CutPrefix(path, PathSaves); ok {
		return setString(&c.Build.Saves, k, v)
	}
	if k, ok := strings.CutPrefix(path, PathFields); ok {
		if v == nil {
			delete(c.Build.Fields, k)
			return nil
		}
		s, err := scalar(v)
		if err != nil {
			return err
		}
		c.Build.Fields = put(c.Build.Fields, k, s)
		return nil
	}
	if list, i, col, ok := splitRowPath(path); ok {
		return c.setRow(list, i, col, v)
	}
	return fmt.Errorf("%w %q", errBadPath, path)
}

func (c *Card) setRow(list string, i int, col string, v any) error {
	rows := c.Build.Lists[list]
	if col == "" {
		if v == nil {
			if i < len(rows) {
				c.Build.Lists[list] = slices.Delete(rows, i, i+1)
			}
			return nil
		}
		var cells map[string]any
		if err := convert(v, &cells); err != nil {
			return err
		}
		row := Row{}
		for k, cv := range cells {
			s, err := scalar(cv)
			if err != nil {
				return err
			}
			row[k] = s
		}
		if c.Build.Lists == nil {
			c.Build.Lists = map[string][]Row{}
		}
		c.Build.Lists[list] = slices.Insert(rows, min(i, len(rows)), row)
		return nil
	}
	if i >= len(rows) {
		return fmt.Errorf("sheet: list %q has no row %d", list, i)
	}
	if v == nil {
		delete(rows[i], col)
		return nil
	}
	s, err := scalar(v)
	if err != nil {
		return err
	}
	rows[i][col] = s
	return nil
}

func put[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}

func setString(m *map[string]string, k string, v any) error {
	if v == nil {
		delete(*m, k)
		return nil
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("sheet: %v is not text", v)
	}
	*m = put(*m, k, s)
	return nil
}

func setNumber(m *map[string]float64, k string, v any) error {
	if v == nil {
		delete(*m, k)
		return nil
	}
	var f float64
	if err := convert(v, &f); err != nil {
		return err
	}
	*m = put(*m, k, f)
	return nil
}

// scalar reads a build value: a number, text or a switch.
func scalar(v any) (any, error) {
	switch x := v.(type) {
	case float64, string, bool:
		return x, nil
	case int:
		return float64(x), nil
	case json.Number:
		return x.Float64()
	}
	return nil, fmt.Errorf("sheet: %v is not a number, text or switch", v)
}

// convert moves v into out through JSON, so generic and typed values both work.
func convert(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

func poolJSON(p PoolValue) any {
	m := map[string]any{"value": float64(p.Value)}
	if p.Temp > 0 {
		m["temp"] = float64(p.Temp)
	}
	return m
}

func woundsJSON(w Wounds) any {
	marks := make([]any, len(w.Marks))
	for i, m := range w.Marks {
		marks[i] = m
	}
	m := map[string]any{"marks": marks}
	if w.Overflow > 0 {
		m["overflow"] = float64(w.Overflow)
	}
	return m
}

// sameValue compares two stored values by their JSON form, so a row and the generic map
// storage hands back compare equal.
func sameValue(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Revert undoes changes on card where it still can: each change, newest first, whose
// card is this one and whose path still holds exactly what the change left (After) is
// put back to Before. A value changed since (a player's edit, a later reply) is left as
// it is, so later edits survive. It returns the changes the revert itself made.
func Revert(card *Card, changes []Change) []Change {
	var done []Change
	name := ruleset.FoldName(card.Name)
	for i := len(changes) - 1; i >= 0; i-- {
		ch := changes[i]
		if ch.Card != "" && ruleset.FoldName(ch.Card) != name {
			continue
		}
		cur, err := card.Get(ch.Path)
		if err != nil || !sameValue(cur, ch.After) {
			continue
		}
		if err := card.Set(ch.Path, ch.Before); err != nil {
			continue
		}
		done = append(done, Change{Card: card.Name, Path: ch.Path, Before: cur, After: ch.Before})
	}
	return done
}

// ---- diffs ----

// Diff lists the leaf changes from before to after (two states of the card named name),
// live state first then build, each section in key order.
func Diff(name string, before, after *Card) []Change {
	var out []Change
	out = diffLive(out, name, &before.Live, &after.Live)
	return diffBuild(out, name, &before.Build, &after.Build)
}

func diffLive(out []Change, name string, a, b *Live) []Change {
	out = diffMap(out, name, PathPools, a.Pools, b.Pools, func(x, y PoolValue) bool { return x == y }, poolJSON)
	out = diffMap(out, name, PathTracks, a.Tracks, b.Tracks, func(x, y int) bool { return x == y },
		func(x int) any { return float64(x) })
	out = diffMap(out, name, PathWounds, a.Wounds, b.Wounds,
		func(x, y Wounds) bool { return x.Overflow == y.Overflow && slices.Equal(x.Marks, y.Marks) }, woundsJSON)
	out = diffMap(out, name, PathText, a.Text, b.Text, func(x, y string) bool { return x == y },
		func(x string) any { return x })
	if !slices.Equal(a.Conditions, b.Conditions) {
		seen := map[string]bool{}
		var keys []string
		for _, k := range slices.Concat(a.Conditions, b.Conditions) {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			inA, inB := slices.Contains(a.Conditions, k), slices.Contains(b.Conditions, k)
			if inA != inB {
				out = append(out, Change{Card: name, Path: PathConditions + k, Before: boolOrNil(inA), After: boolOrNil(inB)})
			}
		}
	}
	return diffMap(out, name, PathStates, a.States, b.States, func(x, y string) bool { return x == y },
		func(x string) any { return x })
}

func boolOrNil(b bool) any {
	if b {
		return true
	}
	return nil
}

func diffBuild(out []Change, name string, a, b *Build) []Change {
	num := func(x float64) any { return x }
	str := func(x string) any { return x }
	eqF := func(x, y float64) bool { return x == y }
	eqS := func(x, y string) bool { return x == y }
	out = diffMap(out, name, PathAbilities, a.Abilities, b.Abilities, eqF, num)
	out = diffMap(out, name, PathSkills, a.Skills, b.Skills, eqS, str)
	out = diffMap(out, name, PathSaves, a.Saves, b.Saves, eqS, str)
	out = diffMap(out, name, PathBonuses, a.Bonuses, b.Bonuses, eqF, num)
	out = diffMap(out, name, PathFields, a.Fields, b.Fields, func(x, y any) bool { return x == y },
		func(x any) any { return x })
	for _, list := range unionKeys(a.Lists, b.Lists) {
		ra, rb := a.Lists[list], b.Lists[list]
		for i := range max(len(ra), len(rb)) {
			switch {
			case i >= len(ra):
				out = append(out, Change{Card: name, Path: RowPath(list, i, ""), After: map[string]any(maps.Clone(rb[i]))})
			case i >= len(rb):
				out = append(out, Change{Card: name, Path: RowPath(list, i, ""), Before: map[string]any(maps.Clone(ra[i]))})
			default:
				for _, col := range unionKeys(ra[i], rb[i]) {
					x, inA := ra[i][col]
					y, inB := rb[i][col]
					if inA != inB || x != y {
						ch := Change{Card: name, Path: RowPath(list, i, col)}
						if inA {
							ch.Before = x
						}
						if inB {
							ch.After = y
						}
						out = append(out, ch)
					}
				}
			}
		}
	}
	return out
}

func unionKeys[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func diffMap[V any](out []Change, name, prefix string, a, b map[string]V, eq func(V, V) bool, js func(V) any) []Change {
	if len(a) == 0 && len(b) == 0 {
		return out
	}
	// Only the keys that changed are collected (an op changes one or two), then sorted so
	// the changes come in key order.
	var buf [4]string
	keys := buf[:0]
	for k, x := range a {
		if y, inB := b[k]; !inB || !eq(x, y) {
			keys = append(keys, k)
		}
	}
	for k := range b {
		if _, inA := a[k]; !inA {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		x, inA := a[k]
		y, inB := b[k]
		ch := Change{Card: name, Path: prefix + k}
		if inA {
			ch.Before = js(x)
		}
		if inB {
			ch.After = js(y)
		}
		out = append(out, ch)
	}
	return out
}
