package ruleset

import (
	"fmt"
	"sheetkeeper/ruleset/rules"
	"strings"

	"sheetkeeper/strictjson"
)

// Wound track bounds: levels and kinds one track may declare, and boxes one track may
// come to.
const (
	maxTrackLevels = 16
	maxTrackKinds  = 6
	maxWoundBoxes  = 64
)

func (c *checker) checkLive() {
	live := &c.rs.Sheet.Live
	n := c.names
	c.Count("sheet.live.pools", len(live.Pools), 0, 60)
	c.Count("sheet.live.tracks", len(live.Tracks), 0, 30)
	c.Count("sheet.live.text", len(live.Text), 0, 12)
	c.Count("sheet.live.conditions", len(live.Conditions), 0, 80)
	c.Count("sheet.live.states", len(live.States), 0, 12)
	c.Unique("sheet.live.pools", "pool", len(live.Pools), func(i int) string { return live.Pools[i].ID })
	c.Unique("sheet.live.tracks", "track", len(live.Tracks), func(i int) string { return live.Tracks[i].ID })
	c.Unique("sheet.live.text", "live text", len(live.Text), func(i int) string { return live.Text[i].ID })
	c.Unique("sheet.live.conditions", "condition", len(live.Conditions), func(i int) string { return live.Conditions[i].ID })
	c.Unique("sheet.live.states", "state", len(live.States), func(i int) string { return live.States[i].ID })

	for i := range live.Pools {
		c.checkPool(&live.Pools[i], fmt.Sprintf("sheet.live.pools[%d]", i))
		if n.track(live.Pools[i].ID) != nil {
			c.Add(fmt.Sprintf("sheet.live.pools[%d].id", i), "%q is already a track id", live.Pools[i].ID)
		}
	}
	for i := range live.Tracks {
		c.checkTrack(&live.Tracks[i], fmt.Sprintf("sheet.live.tracks[%d]", i))
	}
	for i, t := range live.Text {
		path := fmt.Sprintf("sheet.live.text[%d]", i)
		c.SheetID(path+".id", t.ID)
		c.Label(path+".label", t.Label)
		c.Between(path+".maxLength", float64(t.MaxLength), 1, 500)
	}
	for i, k := range live.Conditions {
		path := fmt.Sprintf("sheet.live.conditions[%d]", i)
		c.SheetID(path+".id", k.ID)
		c.Label(path+".label", k.Label)
	}
	for i := range live.States {
		c.checkState(&live.States[i], fmt.Sprintf("sheet.live.states[%d]", i))
	}
}

// checkPool checks a live pool. Its maximum and level are worked out without the live
// state. Pays (API 1.171) names up to four other pool groups the pool also pays for, at
// its own level: its level, else its place in its own group, so it needs one of them.
func (c *checker) checkPool(p *LivePool, path string) {
	n := c.names
	c.SheetID(path+".id", p.ID)
	c.Label(path+".label", p.Label)
	c.valueRef(&p.Max, path+".max", refRules{allDerived: true, noLive: true})
	if p.Group != "" {
		c.SheetID(path+".group", p.Group)
	}
	if p.Start != "" {
		c.OneOf(path+".start", p.Start, "full", "empty")
	}
	c.hideWhen(path+".hideWhen", p.HideWhen)
	if p.Level != nil {
		c.Uses("live pool level", 171, path+".level")
		c.valueRef(p.Level, path+".level", refRules{allDerived: true, noLive: true})
	}
	if p.Pays == nil {
		return
	}
	c.Uses("live pool pays", 171, path+".pays")
	c.Count(path+".pays", len(p.Pays), 1, 4)
	c.UniqueStrings(path+".pays", "group", p.Pays)
	for i, g := range p.Pays {
		at := strictjson.Join(path+".pays", i)
		switch {
		case !c.SheetID(at, g):
		case g == p.Group:
			c.Add(at, "%q is the pool's own group; pays names other groups", g)
		case !n.isGroup(g):
			c.Add(at, "no pool declares the group %q", g)
		}
	}
	if p.Group == "" && p.Level == nil {
		c.Add(path+".pays", "a pool that pays for other groups needs a level or a group to give it one")
	}
}

// checkTrack checks a plain track (a bounded integer) or a wound track (levels or
// boxes, marked with kinds).
func (c *checker) checkTrack(t *Track, path string) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.SheetID(at("id"), t.ID)
	c.Label(at("label"), t.Label)
	if t.Levels != nil {
		c.Count(at("levels"), len(t.Levels), 1, maxTrackLevels)
		for i, l := range t.Levels {
			lp := fmt.Sprintf("%s.levels[%d]", path, i)
			c.Label(lp+".label", l.Label)
			c.Between(lp+".penalty", float64(l.Penalty), -1000, 0)
			if i > 0 && l.Penalty > t.Levels[i-1].Penalty {
				c.Add(lp+".penalty", "a wound track's levels run best first, so a level is never kinder than the one above it")
			}
		}
	}
	if t.Kinds != nil {
		c.Count(at("kinds"), len(t.Kinds), 1, maxTrackKinds)
		c.Unique(at("kinds"), "wound kind", len(t.Kinds), func(i int) string { return t.Kinds[i].ID })
		seen := map[int]bool{}
		for i, k := range t.Kinds {
			kp := fmt.Sprintf("%s.kinds[%d]", path, i)
			c.SheetID(kp+".id", k.ID)
			c.PromptText(kp+".label", k.Label, 16)
			c.Between(kp+".severity", float64(k.Severity), -100, 100)
			if seen[k.Severity] {
				c.Add(kp+".severity", "duplicate severity %d", k.Severity)
			}
			seen[k.Severity] = true
		}
	}
	if b := t.Boxes; b != nil {
		c.OneOf(at("boxes.penalty.by"), b.Penalty.By, "filled", "remaining")
		c.StepTable(at("boxes.penalty.table"), b.Penalty.Table, 40)
		for i, step := range b.Penalty.Table {
			sp := fmt.Sprintf("%s.boxes.penalty.table[%d][1]", path, i)
			if step[1] != float64(int(step[1])) {
				c.Add(sp, "expected an integer, got %s", rules.Num(step[1]))
			} else {
				c.Between(sp, step[1], -1000, 0)
			}
		}
	}
	if t.Fill != "" {
		c.OneOf(at("fill"), t.Fill, "sequential", "indexed")
	}
	if t.OnFull != "" {
		c.OneOf(at("onFull"), t.OnFull, "upgrade", "refuse")
	}
	if !t.IsWound() {
		c.checkPlainTrack(t, path)
		return
	}
	c.checkWoundTrack(t, path)
}

func (c *checker) checkPlainTrack(t *Track, path string) {
	at := func(k string) string { return strictjson.Join(path, k) }
	if t.Kinds != nil {
		c.Add(at("kinds"), "kinds needs levels or boxes beside it: there is nothing to mark")
	}
	for _, k := range []struct {
		key string
		on  bool
	}{{"fill", t.Fill != ""}, {"onFull", t.OnFull != ""}, {"extra", t.Extra != nil}} {
		if k.on {
			c.Add(at(k.key), "%s is for a wound track, which has levels or boxes", k.key)
		}
	}
	c.hideWhen(at("hideWhen"), t.HideWhen)
	if t.MaxRef != nil {
		c.valueRef(t.MaxRef, at("max"), refRules{allDerived: true, noLive: true})
		if t.Default != nil && *t.Default < t.Min {
			c.Add(at("default"), "default is below min")
		}
		return
	}
	if t.MaxNumber == nil {
		return
	}
	if t.Min > *t.MaxNumber {
		c.Add(at("min"), "min is above max")
	}
	if t.Default != nil && (*t.Default < t.Min || *t.Default > *t.MaxNumber) {
		c.Add(at("default"), "default %d is outside %d..%d", *t.Default, t.Min, *t.MaxNumber)
	}
}

func (c *checker) checkWoundTrack(t *Track, path string) {
	at := func(k string) string { return strictjson.Join(path, k) }
	if t.Levels != nil && t.Boxes != nil {
		c.Add(at("boxes"), "a wound track has levels or boxes, not both")
	}
	if t.Kinds == nil {
		key := "levels"
		if t.Levels == nil {
			key = "boxes"
		}
		c.Add(at(key), "a track with %s needs kinds beside it: a mark has to be of something", key)
	}
	if t.Fill == "indexed" && t.OnFull != "refuse" {
		c.Add(at("onFull"), "an indexed track refuses a mark it has no box for, so its onFull is \"refuse\"")
	}
	if t.Min != 0 {
		c.Add(at("min"), "a wound track starts unmarked, so its min is 0")
	}
	if t.Boxes != nil {
		if t.Extra != nil {
			c.Add(at("extra"), "a box track's length is its max; extra levels are for named levels")
		}
		if t.MaxNumber != nil && (*t.MaxNumber < 0 || *t.MaxNumber > maxWoundBoxes) {
			c.Add(at("max"), "a box track has from 0 to %d boxes", maxWoundBoxes)
		}
		if t.MaxRef != nil {
			c.valueRef(t.MaxRef, at("max"), refRules{allDerived: true, noLive: true})
		}
	} else if t.MaxNumber == nil || *t.MaxNumber != len(t.Levels) {
		c.Add(at("max"), "a wound track holds one mark per level, so its max is %d", len(t.Levels))
	}
	if x := t.Extra; x != nil {
		l := c.names.list(x.List)
		if c.Known(at("extra.list"), "list", x.List, l != nil) {
			c.columnMust(at("extra.countColumn"), l, x.CountColumn, "number")
			c.columnMust(at("extra.penaltyColumn"), l, x.PenaltyColumn, "number")
		}
	}
	if t.HideWhen != nil {
		c.Add(at("hideWhen"), "a wound track is read by rolls and fights, so it cannot be hidden")
	}
	if t.Default != nil && *t.Default != 0 {
		c.Add(at("default"), "a wound track starts unmarked, so it declares no default")
	}
}

// checkState checks a live state: two to forty distinct prompt-safe values (never a
// double quote: the sheet command quotes them), labels and a default among them.
func (c *checker) checkState(s *State, path string) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.SheetID(at("id"), s.ID)
	c.Label(at("label"), s.Label)
	c.Count(at("values"), len(s.Values), 2, 40)
	for i, v := range s.Values {
		vp := strictjson.Join(at("values"), i)
		c.PromptText(vp, v, 80)
		if strings.Contains(v, `"`) {
			c.Add(vp, "a state's value cannot contain a double quote: the sheet command quotes it")
		}
	}
	c.UniqueStrings(at("values"), "value", s.Values)
	for k, v := range s.ValueLabels {
		c.Label(strictjson.Join(at("valueLabels"), k), v)
		if !contains(s.Values, k) {
			c.Add(strictjson.Join(at("valueLabels"), k), "%q is not one of the values", rules.Clip(k))
		}
	}
	if s.Default != nil {
		c.MaxLen(at("default"), *s.Default, 80)
		if !contains(s.Values, *s.Default) {
			c.Add(at("default"), "default %q is not one of the values", rules.Clip(*s.Default))
		}
	}
	c.hideWhen(at("hideWhen"), s.HideWhen)
}
