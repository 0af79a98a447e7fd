package ruleset

import (
	"fmt"
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

// decodeSheetUnions decodes the sheet's union members (untrained rules, derived ops,
// track maxima) into their typed fields.
func (c *checker) decodeSheetUnions() {
	s := &c.rs.Sheet
	for i := range s.Sections {
		s.Sections[i].Rule = c.untrained(s.Sections[i].Untrained, fmt.Sprintf("sheet.sections[%d].untrained", i))
	}
	for _, group := range []struct {
		key    string
		skills []Skill
	}{{"skills", s.Skills}, {"saves", s.Saves}} {
		for i := range group.skills {
			k := &group.skills[i]
			k.Rule = c.untrained(k.Untrained, fmt.Sprintf("sheet.%s[%d].untrained", group.key, i))
		}
	}
	for i := range s.Derived {
		c.decodeDerived(&s.Derived[i], fmt.Sprintf("sheet.derived[%d]", i))
	}
	for i := range s.Live.Tracks {
		t := &s.Live.Tracks[i]
		path := fmt.Sprintf("sheet.live.tracks[%d].max", i)
		if rawKind(t.RawMax) == 'o' {
			t.MaxRef = &ValueRef{}
			c.decodeRaw(t.RawMax, t.MaxRef, path)
		} else {
			var n int
			if c.decodeRaw(t.RawMax, &n, path) {
				t.MaxNumber = &n
			}
		}
	}
}

// untrained decodes an untrained rule: "normal", "harder", "refuse" or {"by": n}.
func (c *checker) untrained(raw strictjson.Raw, path string) *UntrainedRule {
	switch rawKind(raw) {
	case 0:
		return nil
	case 'o':
		var v struct {
			By int `json:"by"`
		}
		if c.decodeRaw(raw, &v, path) && c.Between(path+".by", float64(v.By), -20, 20) {
			return &UntrainedRule{Mode: "by", By: v.By}
		}
		return nil
	}
	var mode string
	if !c.decodeRaw(raw, &mode, path) {
		return nil
	}
	if !c.OneOf(path, mode, "normal", "harder", "refuse") {
		return nil
	}
	return &UntrainedRule{Mode: mode}
}

// derivedKeys lists the op-specific keys each derived op takes.
func derivedKeys(op string) []string {
	switch op {
	case "sum", "min", "max":
		return []string{"of"}
	case "scale":
		return []string{"of", "multiplier", "round"}
	case "stepTable":
		return []string{"from", "table"}
	case "enumTable":
		return []string{"from", "table", "default"}
	}
	return nil
}

// decodeDerived decodes a derived value's op-specific members and refuses keys that
// belong to other ops.
func (c *checker) decodeDerived(d *Derived, path string) {
	at := func(k string) string { return strictjson.Join(path, k) }
	if !c.OneOf(at("op"), d.Op, "sum", "stepTable", "scale", "min", "max", "enumTable") {
		return
	}
	present := map[string]bool{"of": d.RawOf != nil, "from": d.RawFrom != nil, "table": d.RawTable != nil,
		"multiplier": d.Multiplier != nil, "round": d.Round != "", "default": d.Default != nil}
	c.keysFor(path, fmt.Sprintf("op %q", d.Op), present, derivedKeys(d.Op), nil)
	switch d.Op {
	case "sum", "min", "max":
		if d.RawOf == nil {
			c.Add(at("of"), "required")
			return
		}
		if c.decodeRaw(d.RawOf, &d.Of, at("of")) {
			lo := 2
			if d.Op == "sum" {
				lo = 1
			}
			c.Count(at("of"), len(d.Of), lo, 12)
		}
	case "scale":
		if d.RawOf == nil {
			c.Add(at("of"), "required")
		} else {
			var ref ValueRef
			if c.decodeRaw(d.RawOf, &ref, at("of")) {
				d.Of = []ValueRef{ref}
			}
		}
		if d.Multiplier == nil {
			c.Add(at("multiplier"), "required")
		}
		c.rounding(at("round"), d.Round)
	case "stepTable":
		if d.RawFrom == nil {
			c.Add(at("from"), "required")
		} else {
			d.From = &ValueRef{}
			if !c.decodeRaw(d.RawFrom, d.From, at("from")) {
				d.From = nil
			}
		}
		if d.RawTable == nil {
			c.Add(at("table"), "required")
		} else if c.decodeRaw(d.RawTable, &d.Steps, at("table")) {
			c.StepTable(at("table"), d.Steps, 100)
		}
	case "enumTable":
		if d.RawFrom == nil {
			c.Add(at("from"), "required")
		} else {
			d.EnumFrom = &EnumSource{}
			if c.decodeRaw(d.RawFrom, d.EnumFrom, at("from")) {
				if (d.EnumFrom.Field == "") == (d.EnumFrom.LiveState == "") {
					c.Add(at("from"), "an enum table reads exactly one of: field, liveState")
				}
			} else {
				d.EnumFrom = nil
			}
		}
		if d.RawTable == nil {
			c.Add(at("table"), "required")
		} else if c.decodeRaw(d.RawTable, &d.EnumTable, at("table")) {
			if n := len(d.EnumTable); n < 1 || n > 40 {
				c.Add(at("table"), "an enum table names from 1 to 40 values")
			}
		}
	}
}

// keysFor refuses every present key that the variant (a field type, a derived op) does
// not take, and reports the required ones it lacks.
func (c *checker) keysFor(path, variant string, present map[string]bool, allowed, required []string) {
	ok := make(map[string]bool, len(allowed))
	for _, k := range allowed {
		ok[k] = true
	}
	for k, on := range present {
		if on && !ok[k] {
			c.Add(strictjson.Join(path, k), "unknown key for %s", variant)
		}
	}
	for _, k := range required {
		if !present[k] {
			c.Add(strictjson.Join(path, k), "required")
		}
	}
}

func (c *checker) checkSheet() {
	s := &c.rs.Sheet
	n := c.names
	if s.Version < 1 {
		c.Add("sheet.version", "version must be 1 or more")
	}
	labelledList(c, "sheet.sections", "section", s.Sections, 0, 20, func(_ int, sec *Section, path string) {
		c.harder(path+".untrained", sec.Rule)
	})

	labelledList(c, "sheet.abilities", "ability", s.Abilities, 0, 20, func(_ int, a *Ability, path string) {
		if a.Short != "" {
			c.PromptText(path+".short", a.Short, 8)
		}
		if a.Min > a.Max {
			c.Add(path+".min", "min is above max")
		}
		if a.Default < a.Min || a.Default > a.Max {
			c.Add(path+".default", "default %d is outside %d..%d", a.Default, a.Min, a.Max)
		}
		c.section(path, a.Section)
	})

	c.checkSkills("skills", s.Skills, 120)
	c.checkSkills("saves", s.Saves, 40)
	for i, sv := range s.Saves {
		if n.skill(sv.ID) != nil {
			c.Add(fmt.Sprintf("sheet.saves[%d].id", i), "%q is already a skill id", sv.ID)
		}
	}
	for _, k := range []struct {
		key   string
		tiers []string
	}{{"skillTiers", s.SkillTiers}, {"saveTiers", s.SaveTiers}} {
		if k.tiers == nil {
			continue
		}
		path := "sheet." + k.key
		c.Count(path, len(k.tiers), 1, 12)
		for i, id := range k.tiers {
			c.Known(strictjson.Join(path, i), "proficiency tier", id, n.tier(id) != nil)
		}
	}
	if b := s.BonusRange; b != nil {
		c.Between("sheet.bonusRange.min", float64(b.Min), -100, 1e15)
		c.Between("sheet.bonusRange.max", float64(b.Max), -1e15, 100)
		if b.Min > b.Max {
			c.Add("sheet.bonusRange.min", "min is above max")
		}
	}

	c.Count("sheet.fields", len(s.Fields), 0, 160)
	c.Unique("sheet.fields", "field", len(s.Fields), func(i int) string { return s.Fields[i].ID })
	for i := range s.Fields {
		c.checkValue(&s.Fields[i], fmt.Sprintf("sheet.fields[%d]", i), false)
	}
	c.checkDerivedList()
	c.checkLists()
	c.checkLive()
}

// checkSkills checks the skills or the saves.
func (c *checker) checkSkills(key string, skills []Skill, max int) {
	labelledList(c, "sheet."+key, key[:len(key)-1], skills, 0, max, func(_ int, k *Skill, path string) {
		if k.Ability != "" {
			c.Known(path+".ability", "ability", k.Ability, c.names.ability(k.Ability) != nil)
		}
		c.section(path, k.Section)
		c.harder(path+".untrained", k.Rule)
		if k.Cap != nil {
			c.feedsSkillNumber(k.Cap, path+".cap", fmt.Sprintf("the cap on %q", k.ID), "a cap")
		}
	})
}

// feedsSkillNumber checks a value that feeds every skill or save number (a cap, the
// proficiency bonus): it may not read a skill or save modifier, nor may the derived
// value it reads or any declared above that one, so evaluation runs once, top to bottom.
func (c *checker) feedsSkillNumber(ref *ValueRef, path, feeds, what string) {
	if ref.SkillMod != "" || ref.SaveMod != "" {
		c.Add(path, "%s cannot read a skill or save modifier", what)
	}
	if ref.Derived == "" {
		return
	}
	end, ok := c.names.derivedIndex[ref.Derived]
	if !ok {
		return
	}
	for i := 0; i <= end; i++ {
		d := &c.rs.Sheet.Derived[i]
		for _, r := range d.Of {
			if r.SkillMod != "" || r.SaveMod != "" {
				c.Add(fmt.Sprintf("sheet.derived[%d]", i), "%q feeds %s and cannot read a skill or save modifier", d.ID, feeds)
				break
			}
		}
		if d.From != nil && (d.From.SkillMod != "" || d.From.SaveMod != "") {
			c.Add(fmt.Sprintf("sheet.derived[%d]", i), "%q feeds %s and cannot read a skill or save modifier", d.ID, feeds)
		}
	}
}

// harder refuses an untrained "harder" rule where it could never change a roll: only a
// dice pool whose per-die target can move has a step harder.
func (c *checker) harder(path string, r *UntrainedRule) {
	if r == nil || r.Mode != "harder" {
		return
	}
	res := &c.rs.Resolution
	switch {
	case res.Kind != "dice-pool":
		c.Add(path, "a %s ruleset has no per-die target, so \"harder\" cannot change a roll", res.Kind)
	case res.Target != nil && res.Target.Min >= res.Target.Max:
		c.Add(path, "this ruleset's per-die target cannot move, so \"harder\" cannot change a roll")
	}
}

// section checks that a named section is declared, so it has a label to show.
func (c *checker) section(path, id string) {
	if id != "" {
		c.Known(path+".section", "section", id, c.names.section(id) != nil)
	}
}

// valueKeys lists the keys each value type takes beyond id, label and type.
func valueKeys(typ string) (allowed, required []string) {
	switch typ {
	case "number":
		return []string{"min", "max", "default", "integer"}, []string{"min", "max"}
	case "text", "longtext":
		return []string{"maxLength", "default"}, []string{"maxLength"}
	case "boolean":
		return []string{"default"}, nil
	case "enum":
		return []string{"values", "valueLabels", "default"}, []string{"values"}
	case "dice":
		return []string{"default", "example"}, nil
	}
	return nil, nil
}

// checkValue checks a sheet field (column false) or a list column (column true): its
// type's keys and bounds, its default, and for a field its section and hideWhen.
func (c *checker) checkValue(f *Field, path string, column bool) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.SheetID(at("id"), f.ID)
	c.Label(at("label"), f.Label)
	if !c.OneOf(at("type"), f.Type, "number", "text", "longtext", "boolean", "enum", "dice") {
		return
	}
	what := "a " + f.Type + " field"
	if column {
		what = "a " + f.Type + " column"
	}
	allowed, required := valueKeys(f.Type)
	if column {
		allowed = append(allowed, "required")
	} else {
		allowed = append(allowed, "section", "hideWhen")
	}
	present := map[string]bool{"min": f.Min != nil, "max": f.Max != nil, "default": f.Default != nil,
		"integer": f.Integer != nil, "maxLength": f.MaxLength != nil, "values": f.Values != nil,
		"valueLabels": f.ValueLabels != nil, "example": f.Example != nil, "required": f.Required != nil,
		"section": f.Section != "", "hideWhen": f.HideWhen != nil}
	c.keysFor(path, what, present, allowed, required)

	switch f.Type {
	case "number":
		if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
			c.Add(at("min"), "min is above max")
		}
		if d, ok := defaultOf(c, f, at("default"), 0.0); ok && f.Min != nil && f.Max != nil && (d < *f.Min || d > *f.Max) {
			c.Add(at("default"), "default %s is outside %s..%s", rules.Num(d), rules.Num(*f.Min), rules.Num(*f.Max))
		}
	case "text", "longtext":
		limit := 500
		if f.Type == "longtext" {
			limit = 4000
		}
		if f.MaxLength != nil {
			c.Between(at("maxLength"), float64(*f.MaxLength), 1, float64(limit))
		}
		if d, ok := defaultOf(c, f, at("default"), ""); ok {
			c.MaxLen(at("default"), d, limit)
			if f.MaxLength != nil && d != "" && rules.TextLen(d) > *f.MaxLength {
				c.Add(at("default"), "default is longer than maxLength")
			}
		}
	case "boolean":
		defaultOf(c, f, at("default"), false)
	case "enum":
		c.enumValues(f, at)
	case "dice":
		if d, ok := defaultOf(c, f, at("default"), ""); ok {
			c.MaxLen(at("default"), d, 40)
		}
		if f.Example != nil {
			c.MaxLen(at("example"), *f.Example, 40)
		}
	}
	if !column {
		c.section(path, f.Section)
		c.hideWhen(at("hideWhen"), f.HideWhen)
	}
}

// enumValues checks an enum field's values, their labels and its default: values
// non-empty and distinct, and every label and the default one of them.
func (c *checker) enumValues(f *Field, at func(string) string) {
	if f.Values != nil {
		c.Count(at("values"), len(f.Values), 1, 40)
		for i, v := range f.Values {
			if v == "" {
				c.Add(strictjson.Join(at("values"), i), "must not be empty")
			}
			c.MaxLen(strictjson.Join(at("values"), i), v, 80)
		}
		c.UniqueStrings(at("values"), "value", f.Values)
	}
	for k, v := range f.ValueLabels {
		c.Label(strictjson.Join(at("valueLabels"), k), v)
		if !contains(f.Values, k) {
			c.Add(strictjson.Join(at("valueLabels"), k), "%q is not one of the values", rules.Clip(k))
		}
	}
	if d, ok := defaultOf(c, f, at("default"), ""); ok {
		c.MaxLen(at("default"), d, 80)
		if !contains(f.Values, d) {
			c.Add(at("default"), "default %q is not one of the values", rules.Clip(d))
		}
	}
}

// defaultOf reads a value's default as the type T its value type holds, reporting a
// default of another type.
func defaultOf[T any](c *checker, f *Field, path string, _ T) (T, bool) {
	var zero T
	if f.Default == nil {
		return zero, false
	}
	v, ok := f.Default.(T)
	if !ok {
		c.Add(path, "expected %s, got %s", jsonKind(zero), jsonKind(f.Default))
	}
	return v, ok
}

func jsonKind(v any) string {
	switch v.(type) {
	case float64:
		return "a number"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return "null"
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// checkDerivedList checks the derived values top to bottom: each reads only those above.
func (c *checker) checkDerivedList() {
	s := &c.rs.Sheet
	n := c.names
	labelledList(c, "sheet.derived", "derived value", s.Derived, 0, 60, func(i int, d *Derived, path string) {
		if n.field(d.ID) != nil {
			c.Add(path+".id", "%q is already a field id", d.ID)
		}
		rules := refRules{derivedAbove: i}
		switch d.Op {
		case "scale":
			if len(d.Of) == 1 {
				c.valueRef(&d.Of[0], path+".of", rules)
			}
		case "sum", "min", "max":
			for j := range d.Of {
				c.valueRef(&d.Of[j], fmt.Sprintf("%s.of[%d]", path, j), rules)
			}
		case "stepTable":
			c.valueRef(d.From, path+".from", rules)
		case "enumTable":
			c.checkEnumTable(d, path)
		}
		c.section(path, d.Section)
		c.hideWhen(path+".hideWhen", d.HideWhen)
	})
}

// checkEnumTable checks what an enum table is keyed on and that it only names values
// that key can hold.
func (c *checker) checkEnumTable(d *Derived, path string) {
	if d.EnumFrom == nil {
		return
	}
	var values []string
	owner := ""
	if id := d.EnumFrom.Field; id != "" {
		owner = id
		if c.SheetID(path+".from.field", id) {
			switch f := c.names.field(id); {
			case f == nil:
				c.Add(path+".from.field", "unknown field %q", id)
			case f.Type != "enum":
				c.Add(path+".from.field", "field %q is not an enum field", id)
			default:
				values = f.Values
			}
		}
	} else {
		owner = d.EnumFrom.LiveState
		st := c.names.state(owner)
		if c.Known(path+".from.liveState", "state", owner, st != nil) {
			values = st.Values
		}
	}
	if values == nil {
		return
	}
	for k := range d.EnumTable {
		if !contains(values, k) {
			c.Add(path+".table."+k, "%q is not one of the values of %q", rules.Clip(k), owner)
		}
	}
}

func (c *checker) checkLists() {
	s := &c.rs.Sheet
	labelledList(c, "sheet.lists", "list", s.Lists, 0, 20, func(_ int, l *List, path string) {
		c.Between(path+".maxItems", float64(l.MaxItems), 1, 500)
		c.Count(path+".columns", len(l.Columns), 1, 12)
		c.Unique(path+".columns", "column", len(l.Columns), func(j int) string { return l.Columns[j].ID })
		for j := range l.Columns {
			c.checkValue(&l.Columns[j], fmt.Sprintf("%s.columns[%d]", path, j), true)
		}
		c.section(path, l.Section)
		c.hideWhen(path+".hideWhen", l.HideWhen)
		if p := l.Pools; p != nil {
			c.columnMust(path+".pools.nameColumn", l, p.NameColumn, "text")
			c.columnMust(path+".pools.maxColumn", l, p.MaxColumn, "number")
			if p.RechargeColumn != "" {
				c.columnMust(path+".pools.rechargeColumn", l, p.RechargeColumn, "enum")
			}
		}
	})
}

// columnMust checks that a list's column id exists and has one of the given types.
func (c *checker) columnMust(path string, l *List, id string, types ...string) {
	if !c.SheetID(path, id) {
		return
	}
	col := l.Column(id)
	if col == nil {
		c.Add(path, "list %q has no column %q", l.ID, id)
		return
	}
	if !contains(types, col.Type) {
		c.Add(path, "must name a %s column; %q is a %s column", joinOr(types), id, col.Type)
	}
}

func joinOr(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	s := words[0]
	for _, w := range words[1 : len(words)-1] {
		s += ", " + w
	}
	return s + " or " + words[len(words)-1]
}
