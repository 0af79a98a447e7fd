// Package sheet is the sheet engine: a character's card (its permanent build and its
// sparse live state), the numbers a ruleset works out from it, and every op a Game
// Master's sheet tag or a player's command applies to it.
//
// The engine is pure. It reads a validated *ruleset.Ruleset and cards, and returns what
// it did as values: an Outcome per command and the leaf Changes it made, which storage
// records for undo. It does no I/O, keeps no globals and never reads the clock.
//
// Semantics follow Marinara Engine's Game Mode (live-state.ts, sheet-math.ts and the
// ruleset guide) so an AI GM prompted for Marinara reads the same write-back here.
package sheet

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"unicode/utf8"

	"sheetkeeper/internal/jsonappend"
	"sheetkeeper/ruleset"
)

// Card is one character: a name, the ruleset it was built on, its permanent build and
// its live state. A card remembers the ruleset id and version and the sheet version it
// was built with; a newer ruleset reads it tolerantly (unknown values kept, missing ones
// at their defaults).
type Card struct {
	Name    string     `json:"name"`
	Ruleset RulesetRef `json:"ruleset"`
	// SheetVersion is the ruleset's sheet.version when the build was made.
	SheetVersion int   `json:"sheetVersion"`
	Build        Build `json:"build"`
	Live         Live  `json:"live"`
}

// RulesetRef names a ruleset at one exact version.
type RulesetRef struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
}

// Build is the permanent part of a card, in Marinara's stored shape: ability scores,
// proficiency tier ids per skill and save, free bonuses per skill or save, field values
// and list rows. Keys the engine does not know are kept in Extra and written back.
type Build struct {
	Abilities map[string]float64 `json:"abilities"`
	Skills    map[string]string  `json:"skills"`
	Saves     map[string]string  `json:"saves"`
	Bonuses   map[string]float64 `json:"bonuses"`
	// Fields hold numbers (float64), text (string) or switches (bool).
	Fields map[string]any   `json:"fields"`
	Lists  map[string][]Row `json:"lists"`
	// Extra keeps top-level build keys a newer engine wrote, untouched.
	Extra map[string]json.RawMessage `json:"-"`
}

// Row is one list row: column id → value (float64, string or bool). A row copied from a
// catalog carries the marker CatalogKey = "<catalog id>/<entry id>".
type Row map[string]any

// CatalogKey is the key of a row's catalog marker. Column ids start with a letter, so
// it can never be a column.
const CatalogKey = "_catalog"

// Marker returns the row's catalog marker, or "".
func (r Row) Marker() string {
	s, _ := r[CatalogKey].(string)
	return s
}

// Text returns the row's value in column id when it is a string.
func (r Row) Text(id string) (string, bool) {
	s, ok := r[id].(string)
	return s, ok
}

// Named reports whether the row answers, by its column col, to name as someone typed
// it: ruleset.FoldName on both sides; no column ("") names nothing. The one rule for
// finding a row by its name (a row pool's counter is another idea: RowKey).
func (r Row) Named(col, name string) bool {
	if col == "" {
		return false
	}
	s, _ := r.Text(col)
	return ruleset.SameName(s, name)
}

// Number returns the row's value in column id when it is a finite number.
func (r Row) Number(id string) (float64, bool) {
	f, ok := r[id].(float64)
	return f, ok && !math.IsInf(f, 0) && !math.IsNaN(f)
}

// Live is the part of a card play changes, stored SPARSE: only what differs from its
// default. A pool at its default (full or empty as it starts, no temporary points) is
// absent, which is what lets an untouched pool follow its maximum when it grows.
type Live struct {
	Pools  map[string]PoolValue `json:"pools,omitempty"`
	Tracks map[string]int       `json:"tracks,omitempty"`
	// Wounds holds wound tracks only; a plain track's number is in Tracks.
	Wounds     map[string]Wounds `json:"wounds,omitempty"`
	Text       map[string]string `json:"text,omitempty"`
	Conditions []string          `json:"conditions,omitempty"`
	States     map[string]string `json:"states,omitempty"`
}

// PoolValue is a stored pool: its value and its temporary points (0 when none).
type PoolValue struct {
	Value int `json:"value"`
	Temp  int `json:"temp,omitempty"`
}

// Wounds is a stored wound track: the marks (kind ids; on a sequential track sorted most
// severe first, on an indexed one each on its box with "" for a clear box between marked
// ones) and the overflow, harm that could not land.
type Wounds struct {
	Marks    []string `json:"marks"`
	Overflow int      `json:"overflow,omitempty"`
}

// Bounds of the stored live state, Marinara's: junk beyond them is dropped on read.
const (
	maxLiveNumber      = 1_000_000
	maxLivePools       = 600
	maxLiveKeyLength   = 200
	maxLiveTracks      = 30
	maxLiveTexts       = 12
	maxLiveTextLength  = 500
	maxLiveConditions  = 80
	maxConditionLength = 80
	maxLiveStates      = 30
	maxStateValueLen   = 80
	maxWoundMarks      = 64
	maxListRows        = 500
	maxBuildString     = 4000
)

// NewCard returns an empty card named name on ruleset id at version, built with sheet
// version sheetVersion. Every value reads as its default until set.
func NewCard(name, rulesetID string, version, sheetVersion int) *Card {
	return &Card{Name: name, Ruleset: RulesetRef{ID: rulesetID, Version: version}, SheetVersion: sheetVersion,
		Build: Build{}}
}

// Clone returns a deep copy of the card: nothing the clone holds is shared with c, and
// it encodes to the same bytes. Storage clones a card on every read, so it copies each
// map with maps.Clone, which copies the map's storage wholesale instead of hashing every
// key again (about 1.6× as fast as a presized hand loop for a 40-entry map).
func (c *Card) Clone() *Card {
	d := *c
	d.Build = c.Build.clone()
	d.Live = c.Live.clone()
	return &d
}

// clone copies b. Fields and row cells hold float64, string or bool values, which an
// interface holds immutably, so copying those maps copies their values; only the row
// slices, the rows themselves and Extra's raw bytes need copies of their own. A nil row
// list stays nil (it encodes as null, an empty one as []).
func (b Build) clone() Build {
	d := Build{
		Abilities: maps.Clone(b.Abilities),
		Skills:    maps.Clone(b.Skills),
		Saves:     maps.Clone(b.Saves),
		Bonuses:   maps.Clone(b.Bonuses),
		Fields:    maps.Clone(b.Fields),
		Lists:     maps.Clone(b.Lists),
		Extra:     maps.Clone(b.Extra),
	}
	for k, rows := range d.Lists {
		if rows != nil {
			rows = slices.Clone(rows)
			for i, r := range rows {
				rows[i] = maps.Clone(r)
			}
			d.Lists[k] = rows
		}
	}
	for k, v := range d.Extra {
		d.Extra[k] = slices.Clone(v)
	}
	return d
}

func (l Live) clone() Live {
	d := Live{
		Pools:      maps.Clone(l.Pools),
		Tracks:     maps.Clone(l.Tracks),
		Text:       maps.Clone(l.Text),
		Conditions: slices.Clone(l.Conditions),
		States:     maps.Clone(l.States),
	}
	if l.Wounds != nil {
		d.Wounds = make(map[string]Wounds, len(l.Wounds))
		for k, w := range l.Wounds {
			d.Wounds[k] = Wounds{Marks: slices.Clone(w.Marks), Overflow: w.Overflow}
		}
	}
	return d
}

// Equal reports whether two cards hold the same stored values. Conditions are a set:
// their order does not count.
func (c *Card) Equal(o *Card) bool {
	a, err1 := json.Marshal(c.withSortedConditions())
	b, err2 := json.Marshal(o.withSortedConditions())
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

func (c *Card) withSortedConditions() *Card {
	if slices.IsSorted(c.Live.Conditions) {
		return c
	}
	d := *c
	d.Live.Conditions = slices.Sorted(slices.Values(c.Live.Conditions))
	return &d
}

// ---- JSON: stable output, tolerant input ----

// MarshalJSON writes the build in Marinara's stored shape, every map key sorted, unknown
// top-level keys kept. It writes the bytes encoding/json would write for the same maps
// (TestBuildMarshalMatches), without building them and without reflection: a card is
// encoded on every command that changes it.
func (b Build) MarshalJSON() ([]byte, error) {
	return b.appendJSON(make([]byte, 0, 1024))
}

// AppendJSON appends the card's JSON to dst: the bytes json.Marshal(c) writes
// (TestCardAppendJSON), without reflection and without encoding/json checking the
// build's and live state's bytes a second time. A store encodes a card on every command
// that changes it. On an error it returns json.Marshal's error.
func (c *Card) AppendJSON(dst []byte) ([]byte, error) {
	out := append(dst, `{"name":`...)
	out = jsonappend.String(out, c.Name)
	out = jsonappend.String(append(out, `,"ruleset":{"id":`...), c.Ruleset.ID)
	out = jsonappend.Int(append(out, `,"version":`...), c.Ruleset.Version)
	out = jsonappend.Int(append(out, `},"sheetVersion":`...), c.SheetVersion)
	out, err := c.Build.appendJSON(append(out, `,"build":`...))
	if err != nil {
		if _, err = json.Marshal(c); err == nil { // cannot be: the same encoders fail there
			err = errors.New("sheet: card does not encode")
		}
		return dst, err
	}
	out = c.Live.appendJSON(append(out, `,"live":`...))
	return append(out, '}'), nil
}

// appendJSON is MarshalJSON appending to out (nil on an error).
func (b *Build) appendJSON(out []byte) ([]byte, error) {
	var known [8]string
	keys := append(known[:0], "abilities", "bonuses", "fields", "lists", "saves", "skills")
	for k := range b.Extra {
		if !slices.Contains(keys[:6], k) {
			keys = append(keys, k)
		}
	}
	if len(keys) > 6 {
		slices.Sort(keys)
	}
	out = append(out, '{')
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonappend.String(out, k)
		out = append(out, ':')
		var err error
		switch k {
		case "abilities":
			out, err = jsonappend.Map(out, b.Abilities, true, jsonappend.Float)
		case "bonuses":
			out, err = jsonappend.Map(out, b.Bonuses, true, jsonappend.Float)
		case "fields":
			out, err = jsonappend.Map(out, b.Fields, true, jsonappend.Scalar)
		case "lists":
			out, err = jsonappend.Map(out, b.Lists, true, appendRows)
		case "saves":
			out, err = jsonappend.Map(out, b.Saves, true, appendJSONText)
		case "skills":
			out, err = jsonappend.Map(out, b.Skills, true, appendJSONText)
		default:
			out, err = jsonappend.Value(out, b.Extra[k])
		}
		if err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

// ---- the card's pieces, written with jsonappend ----

func appendRows(out []byte, rows []Row) ([]byte, error) {
	if rows == nil {
		return append(out, "null"...), nil
	}
	out = append(out, '[')
	for i, r := range rows {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = jsonappend.Map(out, map[string]any(r), false, jsonappend.Scalar); err != nil {
			return nil, err
		}
	}
	return append(out, ']'), nil
}

func appendJSONText(out []byte, s string) ([]byte, error) { return jsonappend.String(out, s), nil }

func nonNilMap[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

// UnmarshalJSON reads a stored build tolerantly: a value of the wrong type costs that
// one entry, unknown top-level keys are kept, and nothing short of a build that is not
// a JSON object is an error.
func (b *Build) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*b = Build{}
	for k, v := range raw {
		switch k {
		case "abilities":
			b.Abilities = readMap(v, 0, 0, readNumber)
		case "bonuses":
			b.Bonuses = readMap(v, 0, 0, readNumber)
		case "skills":
			b.Skills = readMap(v, 0, 0, readString(40))
		case "saves":
			b.Saves = readMap(v, 0, 0, readString(40))
		case "fields":
			b.Fields = readMap(v, 0, 0, readScalar)
		case "lists":
			b.Lists = readMap(v, 0, 0, readRows)
		default:
			if b.Extra == nil {
				b.Extra = map[string]json.RawMessage{}
			}
			b.Extra[k] = slices.Clone(v)
		}
	}
	return nil
}

func readObject(data json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

// readMap reads a JSON object's entries with read, keeping those it accepts: at most
// limit of them (0: no limit), under keys of at most keyLen bytes (0: any). Junk costs
// its entry only; nothing kept is a nil map, so a stored card reads back sparse.
func readMap[V any](data json.RawMessage, limit, keyLen int, read func(json.RawMessage) (V, bool)) map[string]V {
	var out map[string]V
	for k, v := range readObject(data) {
		if (limit > 0 && len(out) >= limit) || (keyLen > 0 && len(k) > keyLen) {
			continue
		}
		x, ok := read(v)
		if !ok {
			continue
		}
		if out == nil {
			out = map[string]V{}
		}
		out[k] = x
	}
	return out
}

func readNumber(v json.RawMessage) (float64, bool) {
	var f float64
	return f, json.Unmarshal(v, &f) == nil
}

// readString returns a reader of strings of at most max bytes.
func readString(max int) func(json.RawMessage) (string, bool) {
	return func(v json.RawMessage) (string, bool) {
		var s string
		return s, json.Unmarshal(v, &s) == nil && len(s) <= max
	}
}

// readScalar reads a number, a string (≤ 4000 bytes) or a boolean.
func readScalar(v json.RawMessage) (any, bool) {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return nil, false
	}
	switch t := x.(type) {
	case float64, bool:
		return t, true
	case string:
		return t, len(t) <= maxBuildString
	}
	return nil, false
}

// readRows reads a list's rows: at most maxListRows objects of scalar cells.
func readRows(v json.RawMessage) ([]Row, bool) {
	var items []json.RawMessage
	if json.Unmarshal(v, &items) != nil {
		return nil, false
	}
	rows := make([]Row, 0, min(len(items), maxListRows))
	for _, it := range items {
		if len(rows) == maxListRows {
			break
		}
		cells := readObject(it)
		if cells == nil {
			continue
		}
		row := Row{}
		for col, cv := range cells {
			if x, ok := readScalar(cv); ok {
				row[col] = x
			}
		}
		rows = append(rows, row)
	}
	return rows, true
}

// UnmarshalJSON reads a stored live state tolerantly, as Marinara does: every entry that
// still validates on its own is kept, whether or not the ruleset declares it today (a
// pool a sheet hides now may be back tomorrow); junk costs that entry only.
func (l *Live) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*l = Live{
		Pools:      readMap(raw["pools"], maxLivePools, maxLiveKeyLength, readPool),
		Tracks:     readMap(raw["tracks"], maxLiveTracks, maxLiveKeyLength, readLiveInt),
		Wounds:     readMap(raw["wounds"], maxLiveTracks, maxLiveKeyLength, readWounds),
		Text:       readMap(raw["text"], maxLiveTexts, maxLiveKeyLength, readString(maxLiveTextLength)),
		Conditions: readConditions(raw["conditions"]),
		States:     readMap(raw["states"], maxLiveStates, maxLiveKeyLength, readString(maxStateValueLen)),
	}
	return nil
}

func readPool(v json.RawMessage) (PoolValue, bool) {
	var p struct {
		Value *float64 `json:"value"`
		Temp  *float64 `json:"temp"`
	}
	if json.Unmarshal(v, &p) != nil || p.Value == nil || !liveInt(*p.Value) ||
		(p.Temp != nil && (!liveInt(*p.Temp) || *p.Temp < 0)) || !onlyKeys(v, "value", "temp") {
		return PoolValue{}, false
	}
	pv := PoolValue{Value: int(*p.Value)}
	if p.Temp != nil {
		pv.Temp = int(*p.Temp)
	}
	return pv, true
}

func readLiveInt(v json.RawMessage) (int, bool) {
	f, ok := readNumber(v)
	return int(f), ok && liveInt(f)
}

func readWounds(v json.RawMessage) (Wounds, bool) {
	var w struct {
		Marks    []string `json:"marks"`
		Overflow *float64 `json:"overflow"`
	}
	if json.Unmarshal(v, &w) != nil || w.Marks == nil || len(w.Marks) > maxWoundMarks || !onlyKeys(v, "marks", "overflow") ||
		(w.Overflow != nil && (!liveInt(*w.Overflow) || *w.Overflow < 0)) {
		return Wounds{}, false
	}
	wd := Wounds{Marks: w.Marks}
	if w.Overflow != nil {
		wd.Overflow = int(*w.Overflow)
	}
	return wd, true
}

// readConditions reads the active conditions: at most maxLiveConditions names, each
// once.
func readConditions(data json.RawMessage) []string {
	var conds []json.RawMessage
	if json.Unmarshal(data, &conds) != nil {
		return nil
	}
	var out []string
	for _, c := range conds {
		var s string
		if len(out) >= maxLiveConditions || json.Unmarshal(c, &s) != nil || len(s) > maxConditionLength || slices.Contains(out, s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// MarshalJSON writes the live state sparse: empty sections are left out. The bytes are
// those encoding/json writes for the struct (TestLiveMarshalMatches).
func (l Live) MarshalJSON() ([]byte, error) {
	return l.appendJSON(make([]byte, 0, 256)), nil
}

// appendJSON is MarshalJSON appending to out; a live state always encodes.
func (l *Live) appendJSON(out []byte) []byte {
	n := len(out)
	out = append(out, '{')
	section := func(name string) {
		if len(out) > n+1 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, name...)
		out = append(out, '"', ':')
	}
	if len(l.Pools) > 0 {
		section("pools")
		out, _ = jsonappend.Map(out, l.Pools, false, func(out []byte, p PoolValue) ([]byte, error) {
			out = jsonappend.Int(append(out, `{"value":`...), p.Value)
			if p.Temp != 0 {
				out = jsonappend.Int(append(out, `,"temp":`...), p.Temp)
			}
			return append(out, '}'), nil
		})
	}
	if len(l.Tracks) > 0 {
		section("tracks")
		out, _ = jsonappend.Map(out, l.Tracks, false, func(out []byte, n int) ([]byte, error) { return jsonappend.Int(out, n), nil })
	}
	if len(l.Wounds) > 0 {
		section("wounds")
		out, _ = jsonappend.Map(out, l.Wounds, false, func(out []byte, w Wounds) ([]byte, error) {
			out = jsonappend.Strings(append(out, `{"marks":`...), w.Marks)
			if w.Overflow != 0 {
				out = jsonappend.Int(append(out, `,"overflow":`...), w.Overflow)
			}
			return append(out, '}'), nil
		})
	}
	if len(l.Text) > 0 {
		section("text")
		out, _ = jsonappend.Map(out, l.Text, false, appendJSONText)
	}
	if len(l.Conditions) > 0 {
		section("conditions")
		out = jsonappend.Strings(out, l.Conditions)
	}
	if len(l.States) > 0 {
		section("states")
		out, _ = jsonappend.Map(out, l.States, false, appendJSONText)
	}
	return append(out, '}')
}

// RoundTrips reports whether decoding the card's JSON gives back exactly this card —
// equal values, the same types, nil where nil and empty where empty — so a store may
// keep a copy of the card it wrote as the decoding of the bytes it wrote, instead of
// decoding them again. It answers false whenever in doubt (unknown build keys, an int
// where reading gives a float64, an empty map reading gives as nil, anything the
// tolerant reader would drop or change); false only means "decode to find out".
func (c *Card) RoundTrips() bool {
	return utf8.ValidString(c.Name) && utf8.ValidString(c.Ruleset.ID) && c.Build.roundTrips() && c.Live.roundTrips()
}

func (b *Build) roundTrips() bool {
	if b.Extra != nil {
		return false
	}
	texts := func(m map[string]string) bool {
		return sparseMap(m, len(m), 0, func(v string) bool { return len(v) <= 40 && utf8.ValidString(v) })
	}
	if !sparseMap(b.Abilities, len(b.Abilities), 0, finite) || !sparseMap(b.Bonuses, len(b.Bonuses), 0, finite) ||
		!texts(b.Skills) || !texts(b.Saves) || !sparseMap(b.Fields, len(b.Fields), 0, scalarRoundTrips) {
		return false
	}
	return sparseMap(b.Lists, len(b.Lists), 0, func(rows []Row) bool {
		if rows == nil || len(rows) > maxListRows {
			return false
		}
		for _, r := range rows {
			if r == nil || !sparseMap(r, len(r)+1, 0, scalarRoundTrips) {
				return false
			}
		}
		return true
	})
}

func (l *Live) roundTrips() bool {
	if !sparseMap(l.Pools, maxLivePools, maxLiveKeyLength, func(p PoolValue) bool {
		return liveInt(float64(p.Value)) && liveInt(float64(p.Temp)) && p.Temp >= 0
	}) || !sparseMap(l.Tracks, maxLiveTracks, maxLiveKeyLength, func(n int) bool { return liveInt(float64(n)) }) ||
		!sparseMap(l.Wounds, maxLiveTracks, maxLiveKeyLength, func(w Wounds) bool {
			return w.Marks != nil && len(w.Marks) <= maxWoundMarks && liveInt(float64(w.Overflow)) && w.Overflow >= 0 &&
				!slices.ContainsFunc(w.Marks, func(s string) bool { return !utf8.ValidString(s) })
		}) ||
		!sparseMap(l.Text, maxLiveTexts, maxLiveKeyLength, func(s string) bool { return len(s) <= maxLiveTextLength && utf8.ValidString(s) }) ||
		!sparseMap(l.States, maxLiveStates, maxLiveKeyLength, func(s string) bool { return len(s) <= maxStateValueLen && utf8.ValidString(s) }) {
		return false
	}
	if l.Conditions != nil && (len(l.Conditions) == 0 || len(l.Conditions) > maxLiveConditions) {
		return false
	}
	for i, s := range l.Conditions {
		if len(s) > maxConditionLength || !utf8.ValidString(s) || slices.Contains(l.Conditions[:i], s) {
			return false
		}
	}
	return true
}

// sparseMap reports whether m reads back as itself: nil, or non-empty with at most
// limit entries, every key valid UTF-8 (and at most keyLen bytes when keyLen > 0), every
// value ok.
func sparseMap[V any](m map[string]V, limit, keyLen int, ok func(V) bool) bool {
	if m == nil {
		return true
	}
	if len(m) == 0 || len(m) > limit {
		return false
	}
	for k, v := range m {
		if (keyLen > 0 && len(k) > keyLen) || !utf8.ValidString(k) || !ok(v) {
			return false
		}
	}
	return true
}

// scalarRoundTrips: a float64, a bool or a valid string of at most maxBuildString bytes.
func scalarRoundTrips(v any) bool {
	switch x := v.(type) {
	case float64:
		return finite(x)
	case bool:
		return true
	case string:
		return len(x) <= maxBuildString && utf8.ValidString(x)
	}
	return false
}

// liveInt reports whether f is a whole number a live value may hold.
func liveInt(f float64) bool {
	return f == math.Trunc(f) && f >= -maxLiveNumber && f <= maxLiveNumber
}

// onlyKeys reports whether the JSON object v has no key outside keys (Marinara's stored
// pool and wound values are strict objects).
func onlyKeys(v json.RawMessage, keys ...string) bool {
	for k := range readObject(v) {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}
