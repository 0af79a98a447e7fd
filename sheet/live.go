package sheet

import (
	"math"
	"slices"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
)

// Resolved is a card's live state as it reads right now: every pool the sheet has (with
// its maximum, value and temporary points), every track the sheet shows, every live text
// field, condition and state, defaults filled in. Junk in the store reads as defaults.
type Resolved struct {
	Pools      []Pool
	Tracks     []TrackValue
	Text       []TextValue
	Conditions []ConditionValue
	States     []StateValue
}

// Pool is one pool a card has: a declared pool the sheet does not hide whose maximum is
// above 0, or one counter per named row of a list with pools (Key "<list>:<lowercased
// trimmed name>", the first row of a name wins).
type Pool struct {
	Key        string
	Label      string
	Max        int
	AllowTemp  bool
	Group      string
	StartsFull bool
	// Recharge is a row counter's recharge column value ("" when none).
	Recharge string
	// List and Row locate a row counter (List "" for a declared pool).
	List string
	Row  int
	// Decl is the declared pool, nil for a row counter.
	Decl *ruleset.LivePool
	// Level is the pool's level for payment (the seed's): its declared level, else its
	// 1-based place in its group; 0 for a pool in no group without a level.
	Level int
	Value int
	Temp  int
}

// Default is where the pool sits when nothing is stored: full or empty as it starts.
func (p *Pool) Default() int {
	if p.StartsFull {
		return p.Max
	}
	return 0
}

// TrackValue is one track as it stands. A wound track carries Wound, and its Value is
// how many boxes are marked, its Max how many levels this character's track has.
type TrackValue struct {
	ID    string
	Label string
	Min   int
	Max   int
	Value int
	Decl  *ruleset.Track
	Wound *WoundState
}

// Default is where a plain track sits when nothing is stored.
func (t *TrackValue) Default() int {
	d := t.Min
	if t.Decl != nil && t.Decl.Default != nil {
		d = *t.Decl.Default
	}
	return clamp(d, t.Min, t.Max)
}

// TextValue is a live text field and what it holds ("" when clear).
type TextValue struct {
	ID        string
	Label     string
	MaxLength int
	Value     string
}

// ConditionValue is a declared condition and whether it is on.
type ConditionValue struct {
	ID     string
	Label  string
	Active bool
}

// StateValue is a live state the sheet shows, at its value (its default when nothing it
// still offers is stored).
type StateValue struct {
	ID         string
	Label      string
	Decl       *ruleset.State
	Value      string
	ValueLabel string
}

// Pool returns the pool keyed key, or nil.
func (r *Resolved) Pool(key string) *Pool {
	if r == nil {
		return nil
	}
	for i := range r.Pools {
		if r.Pools[i].Key == key {
			return &r.Pools[i]
		}
	}
	return nil
}

// Track returns the track id, or nil when the sheet does not show it.
func (r *Resolved) Track(id string) *TrackValue {
	if r == nil {
		return nil
	}
	for i := range r.Tracks {
		if r.Tracks[i].ID == id {
			return &r.Tracks[i]
		}
	}
	return nil
}

// State returns the live state id, or nil when the sheet hides it.
func (r *Resolved) State(id string) *StateValue {
	if r == nil {
		return nil
	}
	for i := range r.States {
		if r.States[i].ID == id {
			return &r.States[i]
		}
	}
	return nil
}

// trackRead is one number off a live track: its value, how far above its floor
// ("filled"), how far below its top ("remaining"), or a wound track's penalty. A track
// the card does not have reads 0.
func (r *Resolved) trackRead(id, read string) float64 {
	t := r.Track(id)
	if t == nil {
		return 0
	}
	switch read {
	case "filled":
		return float64(t.Value - t.Min)
	case "remaining":
		return float64(t.Max - t.Value)
	case "penalty":
		if t.Wound != nil {
			return float64(t.Wound.Penalty)
		}
		return 0
	}
	return float64(t.Value)
}

func clamp(v, lo, hi int) int {
	return min(max(v, lo), hi)
}

// floorInt floors f into the live number range.
func floorInt(f float64) int {
	if math.IsNaN(f) {
		return 0
	}
	return int(math.Max(-maxLiveNumber, math.Min(maxLiveNumber, math.Floor(f))))
}

// StateDefault is where a live state starts and where a rest's "default" puts it: its
// default when it still offers it, else its first value.
func StateDefault(s *ruleset.State) string {
	if s.Default != nil && contains(s.Values, *s.Default) {
		return *s.Default
	}
	if len(s.Values) > 0 {
		return s.Values[0]
	}
	return ""
}

// RowPoolKey is the pool key of a list row named name: "<list>:<RowKey(name)>".
func RowPoolKey(list, name string) string {
	return list + ":" + RowKey(name)
}

// RowKey is a row's name as a row pool's key holds it: lowercased and trimmed, inner
// spacing kept. It is not ruleset.FoldName on purpose: the key is stored in every card's
// live state, so folding it differently would orphan the counters of rows already
// kept. Two rows are the same counter when their RowKeys are equal (HasRowKeyed).
func RowKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// HasRowKeyed reports whether rows hold a row whose nameCol keys the same counter as
// name (equal RowKeys): the one row-name match for row pools.
func HasRowKeyed(rows []Row, nameCol, name string) bool {
	key := RowKey(name)
	return slices.ContainsFunc(rows, func(r Row) bool {
		n, _ := r.Text(nameCol)
		return RowKey(n) == key
	})
}

// listPools lists every pool the card has, given its build-only evaluation: declared
// pools first (not hidden, maximum above 0), then one per named row of each list with
// pools (not hidden, maximum above 0, first row of a name wins).
func listPools(ix *index, build *Build, base *Values) []Pool {
	s := &ix.rs.Sheet
	// Room for every declared pool and every row that may be a counter, so the slice is
	// made once.
	n := len(s.Live.Pools)
	for li := range s.Lists {
		if s.Lists[li].Pools != nil {
			n += len(build.Lists[s.Lists[li].ID])
		}
	}
	pools := make([]Pool, 0, min(n, len(s.Live.Pools)+maxLivePools))
	groupPlace := map[string]int{}
	for i := range s.Live.Pools {
		d := &s.Live.Pools[i]
		place := 0
		if d.Group != "" {
			groupPlace[d.Group]++
			place = groupPlace[d.Group]
		}
		if base.Hidden(d.HideWhen) {
			continue
		}
		m := min(maxLiveNumber, floorInt(base.Ref(&d.Max)))
		if m <= 0 {
			continue
		}
		level := place
		if d.Level != nil {
			level = floorInt(base.Ref(d.Level))
		}
		pools = append(pools, Pool{Key: d.ID, Label: d.Label, Max: m, AllowTemp: d.AllowTemp, Group: d.Group,
			StartsFull: d.StartsFull(), Decl: d, Level: level})
	}
	for li := range s.Lists {
		l := &s.Lists[li]
		if l.Pools == nil || base.Hidden(l.HideWhen) {
			continue
		}
		for ri, row := range build.Lists[l.ID] {
			if len(pools) >= maxLivePools {
				break
			}
			name, _ := row.Text(l.Pools.NameColumn)
			name = strings.TrimSpace(name)
			mx, _ := row.Number(l.Pools.MaxColumn)
			m := min(maxLiveNumber, floorInt(mx))
			if name == "" || m <= 0 {
				continue
			}
			key := RowPoolKey(l.ID, name)
			if slices.ContainsFunc(pools, func(p Pool) bool { return p.Key == key }) {
				continue
			}
			p := Pool{Key: key, Label: name, Max: m, StartsFull: true, List: l.ID, Row: ri}
			if l.Pools.RechargeColumn != "" {
				p.Recharge, _ = row.Text(l.Pools.RechargeColumn)
			}
			pools = append(pools, p)
		}
	}
	return pools
}

// resolveLive reads the card's stored live state against the sheet.
func resolveLive(ix *index, card *Card, base *Values) *Resolved {
	f := frameOf(ix, &card.Build, base)
	return f.resolve(ix, &card.Live)
}

// liveFrame is the part of a live state that the build alone decides: which pools,
// tracks and states the sheet shows, with their maximums, labels and wound levels. A
// live-only op leaves it as it was, so an Applier works it out once per card and fills
// in each op's live values (resolve).
type liveFrame struct {
	pools  []Pool // Value and Temp not filled in
	tracks []trackFrame
	states []*ruleset.State
}

// trackFrame is one track the sheet shows: tv without its value, and a wound track's
// levels (nil for a plain track).
type trackFrame struct {
	tv     TrackValue
	levels []ruleset.TrackLevel
}

// frameOf works out a build's live frame on base, the build's numbers (live reads 0).
func frameOf(ix *index, build *Build, base *Values) liveFrame {
	s := &ix.rs.Sheet
	f := liveFrame{pools: listPools(ix, build, base), tracks: make([]trackFrame, 0, len(s.Live.Tracks))}
	for i := range s.Live.Tracks {
		t := &s.Live.Tracks[i]
		if t.IsWound() {
			levels := woundLevels(ix, build, base, t)
			f.tracks = append(f.tracks, trackFrame{tv: TrackValue{ID: t.ID, Label: t.Label, Max: len(levels), Decl: t}, levels: levels})
			continue
		}
		if base.Hidden(t.HideWhen) {
			continue
		}
		f.tracks = append(f.tracks, trackFrame{tv: TrackValue{ID: t.ID, Label: t.Label, Min: t.Min, Max: trackMax(t, base), Decl: t}})
	}
	for i := range s.Live.States {
		if d := &s.Live.States[i]; !base.Hidden(d.HideWhen) {
			f.states = append(f.states, d)
		}
	}
	return f
}

// resolve reads the stored live state st into the frame: every value where it is
// stored, else its default. Junk reads as defaults.
func (f *liveFrame) resolve(ix *index, st *Live) *Resolved {
	return f.resolveInto(ix, st, &Resolved{})
}

// resolveInto is resolve filling in r, which it returns. It fills r's slices in place
// where they have the room (an Applier's run, resolved again for every tag).
func (f *liveFrame) resolveInto(ix *index, st *Live, r *Resolved) *Resolved {
	s := &ix.rs.Sheet
	r.Pools = append(room(r.Pools, 0), f.pools...)
	for i := range r.Pools {
		r.Pools[i].read(st)
	}
	r.Tracks = room(r.Tracks, len(f.tracks))
	for i := range f.tracks {
		tf := &f.tracks[i]
		tv := tf.tv
		if tv.Decl.IsWound() {
			tv.Wound = resolveWounds(tv.Decl, tf.levels, storedWounds(st, tv.ID))
			tv.Value = tv.Wound.Filled
		} else {
			tv.Value = tv.Default()
			if v, ok := st.Tracks[tv.ID]; ok {
				tv.Value = clamp(v, tv.Min, tv.Max)
			}
		}
		r.Tracks[i] = tv
	}
	r.Text = room(r.Text, len(s.Live.Text))
	for i, t := range s.Live.Text {
		r.Text[i] = TextValue{ID: t.ID, Label: t.Label, MaxLength: t.MaxLength, Value: parser.CapUTF16(st.Text[t.ID], t.MaxLength)}
	}
	r.Conditions = room(r.Conditions, len(s.Live.Conditions))
	for i, c := range s.Live.Conditions {
		r.Conditions[i] = ConditionValue{ID: c.ID, Label: c.Label, Active: slices.Contains(st.Conditions, c.ID)}
	}
	states := r.States
	r.States = nil
	if len(f.states) > 0 {
		r.States = room(states, len(f.states))
	}
	for i, d := range f.states {
		v, ok := st.States[d.ID]
		if !ok || !contains(d.Values, v) {
			v = StateDefault(d)
		}
		r.States[i] = StateValue{ID: d.ID, Label: d.Label, Decl: d, Value: v, ValueLabel: d.ValueLabel(v)}
	}
	return r
}

// room is buf with length n, every element zero, in buf's own array when it has the
// room, else in a new one.
func room[T any](buf []T, n int) []T {
	if buf == nil || cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// pool is the pool keyed key read from st as resolve reads it, or nil.
func (f *liveFrame) pool(key string, st *Live) *Pool {
	for i := range f.pools {
		if f.pools[i].Key == key {
			p := f.pools[i]
			p.read(st)
			return &p
		}
	}
	return nil
}

// read fills in a frame's pool from the stored live state: its value where it is
// stored (and its temporary points where it takes them), else its default.
func (p *Pool) read(st *Live) {
	p.Value = p.Default()
	if v, ok := st.Pools[p.Key]; ok {
		p.Value = v.Value
		if p.AllowTemp {
			p.Temp = max(0, v.Temp)
		}
	}
	p.Value = clamp(p.Value, 0, p.Max)
}

func storedWounds(st *Live, id string) *Wounds {
	if w, ok := st.Wounds[id]; ok {
		return &w
	}
	return nil
}

// trackMax is a track's maximum: its number, or the value it reads floored, never below
// its floor.
func trackMax(t *ruleset.Track, base *Values) int {
	if t.MaxNumber != nil {
		return *t.MaxNumber
	}
	if t.MaxRef == nil {
		return t.Min
	}
	return max(t.Min, min(maxLiveNumber, floorInt(base.Ref(t.MaxRef))))
}

// ---- sparse writes: a value back at its default drops out of the store ----

// setPool stores a pool's value and temporary points, or drops it when it is back at its
// default with no temporary points — so an untouched pool follows its maximum.
func setPool(l *Live, p *Pool, value, temp int) {
	if value == p.Default() && temp == 0 {
		delete(l.Pools, p.Key)
		return
	}
	l.Pools = put(l.Pools, p.Key, PoolValue{Value: value, Temp: max(0, temp)})
}

// setTrack stores a plain track's value, or drops it at its default.
func setTrack(l *Live, t *TrackValue, value int) {
	if value == t.Default() {
		delete(l.Tracks, t.ID)
		return
	}
	l.Tracks = put(l.Tracks, t.ID, value)
}

// setWounds stores a wound track, or drops it when unmarked with nothing overflowed.
func setWounds(l *Live, id string, w Wounds) {
	if len(w.Marks) == 0 && w.Overflow == 0 {
		delete(l.Wounds, id)
		return
	}
	l.Wounds = put(l.Wounds, id, w)
}

// setStateValue stores a live state's value, or drops it at its default.
func setStateValue(l *Live, d *ruleset.State, value string) {
	if value == StateDefault(d) {
		delete(l.States, d.ID)
		return
	}
	l.States = put(l.States, d.ID, value)
}

// setText stores a live text field, or drops it when clear.
func setText(l *Live, id, value string) {
	if value == "" {
		delete(l.Text, id)
		return
	}
	l.Text = put(l.Text, id, value)
}

// setCondition turns a condition on (appended, kept once) or off.
func setCondition(l *Live, id string, on bool) {
	has := slices.Contains(l.Conditions, id)
	switch {
	case on && !has && len(l.Conditions) < maxLiveConditions:
		l.Conditions = append(l.Conditions, id)
	case !on && has:
		l.Conditions = slices.DeleteFunc(l.Conditions, func(s string) bool { return s == id })
	}
}
