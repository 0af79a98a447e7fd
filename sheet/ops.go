package sheet

import (
	"strconv"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// maxOpAmount is what one command may move at once: a bigger number is a typo or a
// model inventing damage.
const maxOpAmount = 100_000

// FindPool finds the pool a command names: its exact key, then a declared pool by id or
// label (case ignored), then a list row's counter by its key or name on its own — the
// way a GM writes "Ki" without knowing its list. Two rows answering is ambiguous-pool.
func FindPool(r *Resolved, name string) (*Pool, error) {
	want := trimSpace(name)
	if want == "" {
		return nil, refuse(refusal.UnknownPool, "no pool named")
	}
	for i := range r.Pools {
		if r.Pools[i].Key == want {
			return &r.Pools[i], nil
		}
	}
	for i := range r.Pools {
		p := &r.Pools[i]
		if p.List == "" && (sameTagName(p.Key, want) || sameTagName(p.Label, want)) {
			return p, nil
		}
	}
	var found *Pool
	for i := range r.Pools {
		p := &r.Pools[i]
		if p.List != "" && (sameTagName(p.Key, want) || sameTagName(p.Label, want)) {
			if found != nil {
				return nil, refuse(refusal.AmbiguousPool, "more than one pool is called %q", name)
			}
			found = p
		}
	}
	if found == nil {
		return nil, refuseNear(refusal.UnknownPool, nearOf(name, r.Pools, func(p *Pool) (string, string) { return p.Label, p.Key }), "no pool %q on this sheet", name)
	}
	return found, nil
}

func trimSpace(s string) string {
	start, end := 0, len(s)
	for start < end && (s[start] == ' ' || s[start] == '\t' || s[start] == '\n' || s[start] == '\r') {
		start++
	}
	for end > start && (s[end-1] == ' ' || s[end-1] == '\t' || s[end-1] == '\n' || s[end-1] == '\r') {
		end--
	}
	return s[start:end]
}

// PoolNow is a pool's `now`: "value/max", with " +T temp" when it holds temporary points.
func PoolNow(p *Pool, value, temp int) string {
	s := strconv.Itoa(value) + "/" + strconv.Itoa(p.Max)
	if temp > 0 {
		s += " +" + strconv.Itoa(temp) + " temp"
	}
	return s
}

// amount reads the request's amount: a whole number from lo (1, or 0 for temp) to
// 100,000, else bad-amount with those bounds.
func amount(op *Op, lo int) (int, error) {
	n, ok := op.Req.Int("amount")
	if !ok || n < lo || n > maxOpAmount {
		return 0, badAmount(lo, maxOpAmount, "the amount must be a whole number from %d to %d", lo, maxOpAmount)
	}
	return n, nil
}

// poolFor finds the request's pool and reads its amount, in Marinara's order.
func poolFor(op *Op, lo int) (*Pool, int, error) {
	name, _ := op.Req.Get("pool")
	p, err := FindPool(op.Values.Live, name)
	if err != nil {
		return nil, 0, err
	}
	n, err := amount(op, lo)
	return p, n, err
}

// opSpend takes amount from a pool. Spending more than is left is refused, not floored:
// "you are out" is a fact the narration has to hear.
func opSpend(op *Op) (string, error) {
	p, n, err := poolFor(op, 1)
	if err != nil {
		return "", err
	}
	if p.Value < n {
		return "", refuse(refusal.Insufficient, "%s has %d, not %d", p.Label, p.Value, n)
	}
	setPool(&op.Card.Live, p, p.Value-n, p.Temp)
	return PoolNow(p, p.Value-n, p.Temp), nil
}

// opRestore gives amount back to a pool, up to its maximum.
func opRestore(op *Op) (string, error) {
	p, n, err := poolFor(op, 1)
	if err != nil {
		return "", err
	}
	v := min(p.Max, p.Value+n)
	setPool(&op.Card.Live, p, v, p.Temp)
	return PoolNow(p, v, p.Temp), nil
}

// opDamage takes temporary points first, then the pool, stopping at 0: a killing blow is
// never refused. A damage that names a track marks a wound track instead.
func opDamage(op *Op) (string, error) {
	if _, ok := op.Req.Get("track"); ok {
		return opWound(op)
	}
	p, n, err := poolFor(op, 1)
	if err != nil {
		return "", err
	}
	fromTemp := min(p.Temp, n)
	temp := p.Temp - fromTemp
	v := max(0, p.Value-(n-fromTemp))
	setPool(&op.Card.Live, p, v, temp)
	return PoolNow(p, v, temp), nil
}

// opTemp sets a pool's temporary points to amount (0 clears them), where the pool
// allows temporary points.
func opTemp(op *Op) (string, error) {
	p, n, err := poolFor(op, 0)
	if err != nil {
		return "", err
	}
	if !p.AllowTemp {
		return "", refuse(refusal.NoTemp, "%s cannot hold temporary points", p.Label)
	}
	setPool(&op.Card.Live, p, p.Value, n)
	return PoolNow(p, p.Value, n), nil
}

// findTrack finds a track the sheet shows by id or label.
func findTrack(r *Resolved, name string) (*TrackValue, error) {
	for i := range r.Tracks {
		t := &r.Tracks[i]
		if sameTagName(t.ID, name) || sameTagName(t.Label, name) {
			return t, nil
		}
	}
	return nil, refuseNear(refusal.UnknownTrack, nearOf(name, r.Tracks, func(x *TrackValue) (string, string) { return x.Label, x.ID }), "no track %q on this sheet", name)
}

// opWound marks a wound track: amount marks of kind (a negative amount heals, the named
// kind only when the track has it), an indexed track's first mark aimed at box.
func opWound(op *Op) (string, error) {
	name, _ := op.Req.Get("track")
	t, err := findTrack(op.Values.Live, name)
	if err != nil {
		return "", err
	}
	if t.Wound == nil {
		return "", refuse(refusal.WrongTrack, "%s is not a wound track", t.Label)
	}
	n, ok := op.Req.Int("amount")
	if !ok || n == 0 || n > maxOpAmount || n < -maxOpAmount {
		return "", badAmount(-maxOpAmount, maxOpAmount, "the amount must be a whole number other than 0, from %d to %d", -maxOpAmount, maxOpAmount)
	}
	w := newWoundWork(t.Decl, len(t.Wound.Levels), storedWounds(&op.Card.Live, t.ID))
	kindName, _ := op.Req.Get("kind")
	rank := -1
	for i, k := range w.ladder {
		if sameTagName(k.ID, kindName) || sameTagName(k.Label, kindName) {
			rank = i
			break
		}
	}
	if rank < 0 && n > 0 {
		near := nearOf(kindName, w.ladder, func(k *ruleset.TrackKind) (string, string) { return k.Label, k.ID })
		return "", refuseNear(refusal.UnknownKind, near, "%s takes no kind %q", t.Label, kindName)
	}
	box := 0
	if b, has := op.Req.Get("box"); has {
		v, ok := op.Req.Int("box")
		if !ok || v < 1 || v > woundLevelsMax {
			return "", badAmount(1, woundLevelsMax, "box %q is not a box from 1 to %d", b, woundLevelsMax)
		}
		box = v
	}
	before := w.overflow
	heal := -1
	if n < 0 {
		heal = rank
	}
	if !w.apply(max(rank, 0), n, box, heal) {
		return "", refuse(refusal.NoBox, "%s has no box free for %d more", t.Label, n)
	}
	st := w.stored()
	setWounds(&op.Card.Live, t.ID, st)
	return woundNow(t.Label, resolveWounds(t.Decl, t.Wound.Levels, &st), w.overflow-before), nil
}

// opTrack moves a plain track to a value or by an amount, held within its bounds (as
// Marinara does: clamped, not refused). A wound track is marked with kinds, so a bare
// number is wrong-track.
func opTrack(op *Op) (string, error) {
	name, _ := op.Req.Get("track")
	t, err := findTrack(op.Values.Live, name)
	if err != nil {
		return "", err
	}
	if t.Wound != nil {
		return "", refuse(refusal.WrongTrack, "%s is a wound track: mark it with op=damage and a kind", t.Label)
	}
	to, hasTo := op.Req.Get("to")
	by, hasBy := op.Req.Get("by")
	if hasTo == hasBy {
		return "", refuse(refusal.Malformed, "track takes exactly one of to and by")
	}
	var v int
	if hasTo {
		n, ok := op.Req.Int("to")
		if !ok || n < -maxLiveNumber || n > maxLiveNumber {
			return "", badAmount(-maxLiveNumber, maxLiveNumber, "to %q is not a whole number from %d to %d", to, -maxLiveNumber, maxLiveNumber)
		}
		v = n
	} else {
		n, ok := op.Req.Int("by")
		if !ok || n < -maxOpAmount || n > maxOpAmount {
			return "", badAmount(-maxOpAmount, maxOpAmount, "by %q is not a whole number from %d to %d", by, -maxOpAmount, maxOpAmount)
		}
		v = t.Value + n
	}
	v = clamp(v, t.Min, t.Max)
	setTrack(&op.Card.Live, t, v)
	return t.Label + " " + strconv.Itoa(v), nil
}

// opCondition turns a declared condition on (state on/add/true or absent) or off.
func opCondition(op *Op) (string, error) {
	name, _ := op.Req.Get("condition")
	r := op.Values.Live
	for i := range r.Conditions {
		c := &r.Conditions[i]
		if !sameTagName(c.ID, name) && !sameTagName(c.Label, name) {
			continue
		}
		on := true
		if s, ok := op.Req.Get("state"); ok {
			switch strings.ToLower(trimSpace(s)) {
			case "on", "add", "true", "":
			case "off", "remove", "false":
				on = false
			default:
				return "", refuse(refusal.Malformed, "state %q is not on or off", s)
			}
		}
		setCondition(&op.Card.Live, c.ID, on)
		if on {
			return c.Label + " on", nil
		}
		return c.Label + " off", nil
	}
	return "", refuseNear(refusal.UnknownCondition, nearOf(name, r.Conditions, func(x *ConditionValue) (string, string) { return x.Label, x.ID }), "no condition %q", name)
}

// opState sets a live state the sheet shows to one of its values, each named by id or
// label.
func opState(op *Op) (string, error) {
	name, _ := op.Req.Get("state")
	value, _ := op.Req.Get("value")
	r := op.Values.Live
	for i := range r.States {
		s := &r.States[i]
		if !sameTagName(s.ID, name) && !sameTagName(s.Label, name) {
			continue
		}
		for _, v := range s.Decl.Values {
			if sameTagName(v, value) || sameTagName(s.Decl.ValueLabel(v), value) {
				setStateValue(&op.Card.Live, s.Decl, v)
				return s.Label + " " + s.Decl.ValueLabel(v), nil
			}
		}
		near := nearOf(value, s.Decl.Values, func(v *string) (string, string) { return s.Decl.ValueLabel(*v), *v })
		return "", refuseNear(refusal.UnknownValue, near, "%s has no value %q", s.Label, value)
	}
	return "", refuseNear(refusal.UnknownState, nearOf(name, r.States, func(x *StateValue) (string, string) { return x.Label, x.ID }), "no state %q on this sheet", name)
}

// opNote writes a live text field, cut to its maxLength (as Marinara does); no value
// clears it.
func opNote(op *Op) (string, error) {
	name, _ := op.Req.Get("field")
	value, _ := op.Req.Get("value")
	r := op.Values.Live
	for i := range r.Text {
		t := &r.Text[i]
		if !sameTagName(t.ID, name) && !sameTagName(t.Label, name) {
			continue
		}
		v := parser.CapUTF16(value, t.MaxLength)
		setText(&op.Card.Live, t.ID, v)
		if v == "" {
			return t.Label + " cleared", nil
		}
		return t.Label + ": " + v, nil
	}
	return "", refuseNear(refusal.UnknownField, nearOf(name, r.Text, func(x *TextValue) (string, string) { return x.Label, x.ID }), "no text field %q", name)
}
