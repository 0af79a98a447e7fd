package sheet

import (
	"strconv"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// FindRest finds a declared rest by id or label, case ignored.
func FindRest(rs *ruleset.Ruleset, name string) (*ruleset.Rest, error) {
	for i := range rs.Rests {
		if r := &rs.Rests[i]; sameTagName(r.ID, name) || sameTagName(r.Label, name) {
			return r, nil
		}
	}
	return nil, refuseNear(refusal.UnknownRest, nearOf(name, rs.Rests, func(r *ruleset.Rest) (string, string) { return r.Label, r.ID }), "no rest %q", name)
}

// opRest applies a declared rest: its restore steps in order, then what it clears. A
// rest does exactly what the ruleset says and nothing else — no implied healing, no
// temporary points dropped. Its `now` is "Label: Pool 6/6, Track 0, …" naming every value
// it moved, or the label alone.
func opRest(op *Op) (string, error) {
	name, _ := op.Req.Get("rest")
	rest, err := FindRest(op.Rules, name)
	if err != nil {
		return "", err
	}
	return applyRest(op.Card, op.Values.Live, rest), nil
}

// applyRest runs rest on card, whose live state reads as r, and returns its `now`.
func applyRest(card *Card, r *Resolved, rest *ruleset.Rest) string {
	live := &card.Live
	var moved []string
	for si := range rest.Restore {
		step := &rest.Restore[si]
		switch {
		case step.State != "":
			st := r.State(step.State)
			if st == nil || step.ToWord == "" {
				continue
			}
			v := step.ToWord
			if v == "default" {
				v = StateDefault(st.Decl)
			}
			if !contains(st.Decl.Values, v) {
				continue
			}
			if v != st.Value {
				moved = append(moved, st.Label+" "+st.Decl.ValueLabel(v))
			}
			st.Value, st.ValueLabel = v, st.Decl.ValueLabel(v)
			setStateValue(live, st.Decl, v)
		case step.Track != "":
			t := r.Track(step.Track)
			if t == nil {
				continue
			}
			if t.Wound != nil {
				if s, ok := restWounds(card, t, step); ok {
					moved = append(moved, s)
				}
				continue
			}
			v := clamp(restMove(step, t.Value, t.Max, t.Min, t.Default()), t.Min, t.Max)
			if v != t.Value {
				moved = append(moved, t.Label+" "+strconv.Itoa(v))
			}
			t.Value = v
			setTrack(live, t, v)
		default:
			for i := range r.Pools {
				p := &r.Pools[i]
				if !restTargets(step, p) {
					continue
				}
				v := clamp(restMove(step, p.Value, p.Max, 0, p.Default()), 0, p.Max)
				if v != p.Value {
					moved = append(moved, p.Label+" "+strconv.Itoa(v)+"/"+strconv.Itoa(p.Max))
				}
				p.Value = v
				setPool(live, p, v, p.Temp)
			}
		}
	}
	if c := rest.Clear; c != nil {
		for _, id := range c.Text {
			setText(live, id, "")
		}
		switch {
		case c.AllConditions:
			live.Conditions = nil
		case len(c.Conditions) > 0:
			for _, id := range c.Conditions {
				setCondition(live, id, false)
			}
		}
	}
	if len(moved) == 0 {
		return rest.Label
	}
	return rest.Label + ": " + strings.Join(moved, ", ")
}

// restTargets reports whether a pool step reaches pool p: the declared pool it names,
// every pool of its group, or the counters of its list (only those whose recharge is one
// the step lists, when it lists any).
func restTargets(step *ruleset.RestoreStep, p *Pool) bool {
	switch {
	case step.Pool != "":
		return p.List == "" && p.Key == step.Pool
	case step.PoolGroup != "":
		return p.List == "" && p.Group == step.PoolGroup
	case step.ListPools != "":
		if p.List != step.ListPools {
			return false
		}
		return len(step.Recharge) == 0 || p.Recharge != "" && contains(step.Recharge, p.Recharge)
	}
	return false
}

// restMove is where a step puts a value: "to" max, min, default or a number; "by" a
// constant or a fraction of the maximum (rounded its way, at least its min).
func restMove(step *ruleset.RestoreStep, current, hi, lo, def int) int {
	switch {
	case step.ToNumber != nil:
		return *step.ToNumber
	case step.ToWord == "max":
		return hi
	case step.ToWord == "min":
		return lo
	case step.ToWord == "default":
		return def
	case step.By == nil:
		return current
	case step.By.Const != nil:
		return current + *step.By.Const
	case step.By.FractionOfMax != nil:
		least := 0
		if step.By.Min != nil {
			least = *step.By.Min
		}
		return current + max(least, int(step.By.Round.Round(float64(hi)**step.By.FractionOfMax)))
	}
	return current
}

// restWounds heals a wound track by a rest step: "to" clears it down to that many marks,
// overflow and all; a negative "by" clears that many, overflow first. A step that would
// add marks does nothing. With a kind, only marks of that kind clear.
func restWounds(card *Card, t *TrackValue, step *ruleset.RestoreStep) (string, bool) {
	w := newWoundWork(t.Decl, len(t.Wound.Levels), storedWounds(&card.Live, t.ID))
	var cleared int
	if step.ToNumber != nil || step.ToWord != "" {
		v := clamp(restMove(step, t.Value, t.Max, 0, 0), 0, t.Max)
		cleared = t.Value - v + w.overflow
	} else {
		cleared = t.Value - restMove(step, t.Value, t.Max, 0, 0)
	}
	if cleared <= 0 {
		return "", false
	}
	// A kind the track does not have heals the lightest marks, as a heal naming none does.
	heal := w.rankOf(step.Kind)
	w.apply(0, -cleared, 0, heal)
	setWounds(&card.Live, t.ID, w.stored())
	t.Value = w.filled()
	return t.Label + " " + strconv.Itoa(t.Value) + "/" + strconv.Itoa(t.Max), true
}
