package ruleset

import (
	"fmt"
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

// Rest is a declared rest (short, long): restore steps run in order, then live text and
// conditions are cleared.
type Rest struct {
	ID      string        `json:"id"`
	Label   string        `json:"label"`
	Restore []RestoreStep `json:"restore,omitempty"`
	Clear   *RestClear    `json:"clear,omitempty"`
}

// RestoreStep puts back one target — a pool, every pool of a group, a list's row pools
// (only rows whose recharge column is one of Recharge, when given), a track (only marks
// of Kind, on a wound track) or a state — either setting it (to) or moving it (by).
type RestoreStep struct {
	Pool      string         `json:"pool,omitempty"`
	PoolGroup string         `json:"poolGroup,omitempty"`
	ListPools string         `json:"listPools,omitempty"`
	Recharge  []string       `json:"recharge,omitempty"`
	Track     string         `json:"track,omitempty"`
	Kind      string         `json:"kind,omitempty"`
	State     string         `json:"state,omitempty"`
	RawTo     strictjson.Raw `json:"to,omitempty"`
	By        *RestBy        `json:"by,omitempty"`

	// To is the decoded "to": ToWord ("max", "min", "default" or a state's value) or
	// ToNumber.
	ToWord   string `json:"-"`
	ToNumber *int   `json:"-"`
}

// RestBy moves a value by a constant, or by a fraction of its maximum (rounded, at
// least Min).
type RestBy struct {
	Const         *int     `json:"const,omitempty"`
	FractionOfMax *float64 `json:"fractionOfMax,omitempty"`
	Round         Rounding `json:"round,omitempty"`
	Min           *int     `json:"min,omitempty"`
}

// RestClear lists the live text and conditions a rest clears; Conditions is "all" or a
// list of ids.
type RestClear struct {
	Text          []string       `json:"text,omitempty"`
	RawConditions strictjson.Raw `json:"conditions,omitempty"`

	AllConditions bool     `json:"-"`
	Conditions    []string `json:"-"`
}

func (c *checker) checkRests() {
	rests := c.rs.Rests
	labelledList(c, "rests", "rest", rests, 0, 12, func(_ int, r *Rest, path string) {
		c.Count(path+".restore", len(r.Restore), 0, 40)
		for j := range r.Restore {
			c.restoreStep(&r.Restore[j], fmt.Sprintf("%s.restore[%d]", path, j))
		}
		if r.Clear != nil {
			c.restClear(r.Clear, path+".clear")
		}
	})
}

func (c *checker) restoreStep(op *RestoreStep, path string) {
	n := c.names
	at := func(k string) string { return strictjson.Join(path, k) }
	switch rawKind(op.RawTo) {
	case 0:
	case 's':
		if c.decodeRaw(op.RawTo, &op.ToWord, at("to")) {
			c.MaxLen(at("to"), op.ToWord, 80)
			if op.ToWord == "" {
				c.Add(at("to"), "must not be empty")
			}
		}
	default:
		var v int
		if c.decodeRaw(op.RawTo, &v, at("to")) {
			op.ToNumber = &v
		}
	}
	hasTo := op.RawTo != nil
	targets := 0
	for _, on := range []bool{op.Pool != "", op.PoolGroup != "", op.ListPools != "", op.Track != "", op.State != ""} {
		if on {
			targets++
		}
	}
	if op.State != "" && (op.ToWord == "" || op.ToNumber != nil) {
		c.Add(at("to"), "a state step sets it with \"to\": \"default\" or one of its values")
	}
	if op.State == "" && op.ToWord != "" && op.ToWord != "max" && op.ToWord != "min" {
		c.Add(at("to"), "\"to\" is \"max\", \"min\" or a number")
	}
	if op.Kind != "" && op.Track == "" {
		c.Add(at("kind"), "\"kind\" only narrows a track")
	}
	if targets != 1 {
		c.Add(path, "a restore step names exactly one of: pool, poolGroup, listPools, track, state")
	}
	if hasTo == (op.By != nil) {
		c.Add(path, "a restore step has exactly one of \"to\" or \"by\"")
	}
	if op.Recharge != nil && op.ListPools == "" {
		c.Add(at("recharge"), "\"recharge\" only filters listPools")
	}
	if op.By != nil {
		c.restBy(op.By, at("by"))
	}

	if op.Pool != "" {
		c.Known(at("pool"), "pool", op.Pool, n.pool(op.Pool) != nil)
	}
	if op.PoolGroup != "" && c.SheetID(at("poolGroup"), op.PoolGroup) && !n.isGroup(op.PoolGroup) {
		c.Add(at("poolGroup"), "no pool declares the group %q", op.PoolGroup)
	}
	t := n.track(op.Track)
	if op.Track != "" {
		c.Known(at("track"), "track", op.Track, t != nil)
	}
	if op.State != "" {
		st := n.state(op.State)
		if c.Known(at("state"), "state", op.State, st != nil) && op.ToWord != "" && op.ToWord != "default" && !contains(st.Values, op.ToWord) {
			c.Add(at("to"), "%q is not \"default\" or one of the values of %q", rules.Clip(op.ToWord), op.State)
		}
	}
	if op.Kind != "" && c.SheetID(at("kind"), op.Kind) && t != nil {
		switch {
		case !t.IsWound():
			c.Add(at("kind"), "%q is not a wound track, so it has no kinds", op.Track)
		case !t.hasKind(op.Kind):
			c.Add(at("kind"), "%q declares no kind %q", op.Track, op.Kind)
		}
	}
	if op.ListPools != "" {
		c.restoreListPools(op, path)
	}
}

func (t *Track) hasKind(id string) bool {
	for _, k := range t.Kinds {
		if k.ID == id {
			return true
		}
	}
	return false
}

func (c *checker) restoreListPools(op *RestoreStep, path string) {
	if op.Recharge != nil {
		c.Count(path+".recharge", len(op.Recharge), 1, 12)
		for i, v := range op.Recharge {
			if v == "" {
				c.Add(strictjson.Join(path+".recharge", i), "must not be empty")
			}
			c.MaxLen(strictjson.Join(path+".recharge", i), v, 80)
		}
	}
	if !c.SheetID(path+".listPools", op.ListPools) {
		return
	}
	l := c.names.list(op.ListPools)
	if l == nil || l.Pools == nil {
		c.Add(path+".listPools", "%q is not a list with pools", op.ListPools)
		return
	}
	if op.Recharge == nil {
		return
	}
	col := l.Column(l.Pools.RechargeColumn)
	if l.Pools.RechargeColumn == "" || col == nil || col.Type != "enum" {
		c.Add(path+".recharge", "list %q declares no rechargeColumn to filter on", op.ListPools)
		return
	}
	for i, v := range op.Recharge {
		if !contains(col.Values, v) {
			c.Add(strictjson.Join(path+".recharge", i), "%q is not one of the values of %q", rules.Clip(v), col.ID)
		}
	}
}

// restBy checks "by": exactly a constant, or a fraction of the maximum with its own
// rounding and floor.
func (c *checker) restBy(b *RestBy, path string) {
	switch {
	case b.Const != nil:
		for _, k := range []struct {
			key string
			on  bool
		}{{"fractionOfMax", b.FractionOfMax != nil}, {"round", b.Round != ""}, {"min", b.Min != nil}} {
			if k.on {
				c.Add(path+"."+k.key, "unknown key beside const")
			}
		}
	case b.FractionOfMax != nil:
		if f := *b.FractionOfMax; f <= 0 || f > 1 {
			c.Add(path+".fractionOfMax", "%s is out of range: above 0, at most 1", rules.Num(f))
		}
		c.rounding(path+".round", b.Round)
		if b.Min != nil && *b.Min < 0 {
			c.Add(path+".min", "min must be 0 or more")
		}
	default:
		c.Add(path, "by is {\"const\": n} or {\"fractionOfMax\": f}")
	}
}

func (c *checker) restClear(cl *RestClear, path string) {
	c.Count(path+".text", len(cl.Text), 0, 12)
	for i, id := range cl.Text {
		c.Known(strictjson.Join(path+".text", i), "live text", id, c.names.liveText(id) != nil)
	}
	switch rawKind(cl.RawConditions) {
	case 0:
	case 's':
		var word string
		if c.decodeRaw(cl.RawConditions, &word, path+".conditions") {
			cl.AllConditions = word == "all"
			if !cl.AllConditions {
				c.Add(path+".conditions", "conditions is \"all\" or a list of condition ids")
			}
		}
	default:
		if c.decodeRaw(cl.RawConditions, &cl.Conditions, path+".conditions") {
			c.Count(path+".conditions", len(cl.Conditions), 0, 80)
			for i, id := range cl.Conditions {
				c.Known(strictjson.Join(path+".conditions", i), "condition", id, c.names.condition(id) != nil)
			}
		}
	}
}
