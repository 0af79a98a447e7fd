package ruleset

import (
	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// ValueRef, ListSum and ItemStat live in rules, where the fight's blocks read them
// too; these names keep the ruleset's own vocabulary whole for its readers.
type (
	ValueRef = rules.ValueRef
	ListSum  = rules.ListSum
	ItemStat = rules.ItemStat
)

// refKeys names the keys of a value reference, for messages.
const refKeys = "const, field, derived, abilityScore, abilityMod, abilityModFromField, skillMod, saveMod, liveTrack, livePool, listSum, itemStat"

// refReads says what a value depends on, directly or through what it reads, to hold a
// reader to the rules of what it may depend on.
type refReads uint8

const (
	// readsLive: a live track, pool or state, or the items a character holds — things
	// that change in play.
	readsLive refReads = 1 << iota
	// readsListSum: a sum over a list's rows.
	readsListSum
)

// refRules says what a reader may read.
type refRules struct {
	// derivedAbove is how many of the sheet's derived values, from the top, the reader
	// may read: a derived value reads only those declared above it, which makes a cycle
	// impossible. allDerived lifts the limit, for every reader outside the derived list.
	derivedAbove int
	allDerived   bool
	// noLive is for a value worked out without the live state (a maximum, the
	// proficiency bonus, a catalog's scaling): it may not read a live track, pool or
	// state, nor items, directly or through a derived value or a skill's cap.
	noLive bool
	// noListSum is for a catalog's scaled column: it may not add up a list, directly or
	// through what it reads.
	noListSum bool
}

// readAll is the rule for readers outside the derived list that may read anything live.
func readAll() refRules { return refRules{allDerived: true} }

// valueRef checks one value reference: exactly one key, every name resolving on the
// sheet (c.names must be built), and nothing the reader may not read. Problems sit at
// the key that is wrong (path.field, path.listSum…). It returns what the reference
// depends on.
func (c *checker) valueRef(ref *ValueRef, path string, opt refRules) refReads {
	if ref == nil {
		return 0
	}
	set := 0
	for _, on := range []bool{ref.Const != nil, ref.Field != "", ref.Derived != "", ref.AbilityScore != "",
		ref.AbilityMod != "", ref.AbilityModFromField != "", ref.SkillMod != "", ref.SaveMod != "",
		ref.LiveTrack != "", ref.LivePool != "", ref.ListSum != nil, ref.ItemStat != nil} {
		if on {
			set++
		}
	}
	if set != 1 {
		c.Add(path, "a value reference names exactly one of: %s", refKeys)
	}
	at := func(key string) string { return strictjson.Join(path, key) }
	if ref.Read != "" {
		if ref.LiveTrack == "" {
			c.Add(at("read"), "read goes only beside liveTrack")
		}
		c.OneOf(at("read"), ref.Read, "value", "filled", "remaining", "penalty")
	}
	n := c.names
	const noLive = "is worked out without the live state, so it cannot read"
	c.valueRefBuild(ref, opt, at)
	if ref.LiveTrack != "" && c.Known(at("liveTrack"), "track", ref.LiveTrack, n.track(ref.LiveTrack) != nil) {
		switch {
		case opt.noLive:
			c.Add(at("liveTrack"), "this value %s a live track", noLive)
		case ref.Read == "penalty" && !n.track(ref.LiveTrack).IsWound():
			c.Add(at("read"), "track %q is not a wound track, so it has no penalty to read", ref.LiveTrack)
		}
	}
	if ref.LivePool != "" && c.Known(at("livePool"), "pool", ref.LivePool, n.pool(ref.LivePool) != nil) && opt.noLive {
		c.Add(at("livePool"), "this value %s a live pool", noLive)
	}
	if ref.ItemStat != nil {
		c.itemStat(at("itemStat"), ref.ItemStat)
		if opt.noLive {
			c.Add(at("itemStat"), "this value %s the items a character holds", noLive)
		}
	}
	if ref.ListSum != nil {
		c.listSum(at("listSum"), ref.ListSum)
		if opt.noListSum {
			c.Add(at("listSum"), "this value cannot add up a list")
		}
	}
	reads := n.reads(ref, 0)
	if opt.noLive && ref.Derived != "" && reads&readsLive != 0 {
		c.Add(at("derived"), "derived value %q reads the live state, which this value cannot", ref.Derived)
	}
	if opt.noLive && ref.SkillMod != "" && n.capReads(n.skill(ref.SkillMod), 0)&readsLive != 0 {
		c.Add(at("skillMod"), "skill %q is capped by the live state, which this value cannot read", ref.SkillMod)
	}
	if opt.noLive && ref.SaveMod != "" && n.capReads(n.save(ref.SaveMod), 0)&readsLive != 0 {
		c.Add(at("saveMod"), "save %q is capped by the live state, which this value cannot read", ref.SaveMod)
	}
	if opt.noListSum && ref.ListSum == nil && reads&readsListSum != 0 {
		c.Add(path, "this value cannot add up a list, and what it reads does")
	}
	return reads
}

// valueRefBuild checks the names a value reference reads from the build: a number
// field, a derived value declared above the reader (unless opt allows any), an ability,
// an enum field of ability ids, a skill or a save.
func (c *checker) valueRefBuild(ref *ValueRef, opt refRules, at func(string) string) {
	n := c.names
	if ref.Field != "" && c.SheetID(at("field"), ref.Field) {
		switch f := n.field(ref.Field); {
		case f == nil:
			c.Add(at("field"), "unknown field %q", ref.Field)
		case f.Type != "number":
			c.Add(at("field"), "field %q is a %s field, not a number", f.ID, f.Type)
		}
	}
	if ref.Derived != "" && c.SheetID(at("derived"), ref.Derived) {
		i, ok := n.derivedIndex[ref.Derived]
		switch {
		case !ok:
			c.Add(at("derived"), "unknown derived value %q", ref.Derived)
		case !opt.allDerived && i >= opt.derivedAbove:
			c.Add(at("derived"), "derived value %q must be declared above the value that reads it", ref.Derived)
		}
	}
	if ref.AbilityScore != "" {
		c.Known(at("abilityScore"), "ability", ref.AbilityScore, n.ability(ref.AbilityScore) != nil)
	}
	if ref.AbilityMod != "" {
		c.Known(at("abilityMod"), "ability", ref.AbilityMod, n.ability(ref.AbilityMod) != nil)
	}
	if ref.AbilityModFromField != "" && c.SheetID(at("abilityModFromField"), ref.AbilityModFromField) {
		switch f := n.field(ref.AbilityModFromField); {
		case f == nil:
			c.Add(at("abilityModFromField"), "unknown field %q", ref.AbilityModFromField)
		case f.Type != "enum":
			c.Add(at("abilityModFromField"), "field %q must be an enum field whose values are ability ids", f.ID)
		}
	}
	if ref.SkillMod != "" {
		c.Known(at("skillMod"), "skill", ref.SkillMod, n.skill(ref.SkillMod) != nil)
	}
	if ref.SaveMod != "" {
		c.Known(at("saveMod"), "save", ref.SaveMod, n.save(ref.SaveMod) != nil)
	}
}

// reads says what a reference depends on, following derived values, skill and save
// caps and the proficiency bonus. Every such chain only reads upward in a valid file;
// depth bounds the walk in one that is not.
func (n *sheetNames) reads(ref *ValueRef, depth int) refReads {
	if ref == nil || depth > 64 {
		return 0
	}
	switch {
	case ref.LiveTrack != "", ref.LivePool != "", ref.ItemStat != nil:
		return readsLive
	case ref.ListSum != nil:
		return readsListSum
	case ref.Derived != "":
		return n.derivedDependsOn(ref.Derived, depth+1)
	case ref.SkillMod != "":
		return n.capReads(n.skill(ref.SkillMod), depth+1)
	case ref.SaveMod != "":
		return n.capReads(n.save(ref.SaveMod), depth+1)
	}
	return 0
}

// capReads says what a skill's or save's number depends on beyond the build: its cap
// and the proficiency bonus.
func (n *sheetNames) capReads(s *Skill, depth int) refReads {
	if s == nil {
		return 0
	}
	r := n.reads(s.Cap, depth)
	if n.bonus != nil {
		r |= n.reads(n.bonus, depth)
	}
	return r
}

// derivedDependsOn says what the derived value id depends on, memoised.
func (n *sheetNames) derivedDependsOn(id string, depth int) refReads {
	i, ok := n.derivedIndex[id]
	if !ok {
		return 0
	}
	if n.derivedDone[i] {
		return n.derivedReads[i]
	}
	d := &n.sheet.Derived[i]
	var r refReads
	if d.EnumFrom != nil && d.EnumFrom.LiveState != "" {
		r |= readsLive
	}
	for j := range d.Of {
		r |= n.reads(&d.Of[j], depth)
	}
	r |= n.reads(d.From, depth)
	if depth <= 64 {
		n.derivedReads[i], n.derivedDone[i] = r, true
	}
	return r
}

func (c *checker) listSum(path string, s *ListSum) {
	l := c.names.list(s.List)
	if !c.Known(strictjson.Join(path, "list"), "list", s.List, l != nil) {
		c.SheetID(strictjson.Join(path, "column"), s.Column)
		if s.OnlyWhen != "" {
			c.SheetID(strictjson.Join(path, "onlyWhen"), s.OnlyWhen)
		}
		return
	}
	c.columnOfType(strictjson.Join(path, "column"), l, s.Column, "number")
	if s.OnlyWhen != "" {
		c.columnOfType(strictjson.Join(path, "onlyWhen"), l, s.OnlyWhen, "boolean")
	}
}

// columnOfType checks that list l has a column id of the given type.
func (c *checker) columnOfType(path string, l *List, id, typ string) *Field {
	if !c.SheetID(path, id) {
		return nil
	}
	col := l.Column(id)
	switch {
	case col == nil:
		c.Add(path, "list %q has no column %q", l.ID, id)
	case typ != "" && col.Type != typ:
		c.Add(path, "column %q of list %q is a %s column, not %s", id, l.ID, col.Type, typ)
		return nil
	}
	return col
}

func (c *checker) itemStat(path string, s *ItemStat) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.OneOf(at("from"), s.From, "worn", "carried", "all")
	c.OneOf(at("pick"), s.Pick, "sum", "max", "min", "count")
	for _, k := range []struct{ key, v string }{{"stat", s.Stat}, {"slot", s.Slot}, {"category", s.Category}, {"tag", s.Tag}} {
		if k.v != "" {
			c.SheetID(at(k.key), k.v)
		}
	}
	if s.Pick != "count" && s.Stat == "" {
		c.Add(at("stat"), "an itemStat names the stat it reads, unless it only counts items")
	}
	c.itemStatNames(path, s)
}

// itemStatNames checks the item words an itemStat names against the items block.
func (c *checker) itemStatNames(path string, s *ItemStat) {
	it := c.rs.Items
	if it == nil {
		c.Add(path, "this ruleset has no items block, so there are no items to read")
		return
	}
	if s.Stat != "" {
		var decl *ItemStatDecl
		for i := range it.Stats {
			if it.Stats[i].ID == s.Stat {
				decl = &it.Stats[i]
			}
		}
		switch {
		case decl == nil:
			c.Add(path+".stat", "unknown item stat %q", s.Stat)
		case s.Pick != "count" && decl.Type != "number":
			c.Add(path+".stat", "item stat %q is not a number", s.Stat)
		}
	}
	words := func(key, id string, ws []ItemWord, what string) {
		if id == "" {
			return
		}
		for _, w := range ws {
			if w.ID == id {
				return
			}
		}
		c.Add(path+"."+key, "unknown %s %q", what, id)
	}
	if s.Slot != "" {
		found := false
		for _, sl := range it.Slots {
			found = found || sl.ID == s.Slot
		}
		if !found {
			c.Add(path+".slot", "unknown slot %q", s.Slot)
		}
	}
	words("category", s.Category, it.Categories, "item category")
	words("tag", s.Tag, it.Tags, "item tag")
}
