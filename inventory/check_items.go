package inventory

import (
	"fmt"
	"math"
	"slices"

	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// checkCatalog reads every catalog item into an Item, reporting what is wrong with each.
func (c *checker) checkCatalog() {
	seen := map[string]bool{}
	for i, raw := range c.s.RawCatalog {
		p := rules.PathOf("catalog", i)
		it := c.readItem(p, raw)
		if it.ID != "" && seen[it.ID] {
			c.Add(rules.PathOf(p, "id"), "duplicate item id %q", rules.Clip(it.ID))
		}
		seen[it.ID] = true
		c.s.Catalog = append(c.s.Catalog, it)
	}
}

// readItem reads one item: the keys every item has, typed; the rest must be fields its
// template, a feature or the system's common fields define, of their kind.
func (c *checker) readItem(path string, raw map[string]any) *Item {
	it := &Item{}
	if len(raw) > MaxItemFields {
		c.Problems.AddKind(strictjson.Limit, path, fmt.Sprintf("has %d keys, at most %d allowed", len(raw), MaxItemFields))
		return it
	}
	r := itemReader{c: c, path: path, raw: raw}
	it.ID = r.str("id", true)
	c.id(rules.PathOf(path, "id"), it.ID)
	it.Type = r.str("type", true)
	t := c.templates[it.Type]
	switch {
	case it.Type == "":
	case t == nil:
		c.Add(rules.PathOf(path, "type"), "unknown template %q", rules.Clip(it.Type))
	case t.Abstract:
		c.Add(rules.PathOf(path, "type"), "template %q is abstract: nothing is made with it", rules.Clip(it.Type))
	}
	it.Template = r.str("template", false)
	if _, ok := c.templates[it.Template]; it.Template != "" && !ok {
		c.Add(rules.PathOf(path, "template"), "unknown template %q", rules.Clip(it.Template))
	}
	it.Name = r.str("name", true)
	c.label(rules.PathOf(path, "name"), it.Name)
	it.Icon = r.str("icon", false)
	it.Image = r.str("image", false)
	it.Description = r.str("description", false)
	c.optText(rules.PathOf(path, "description"), it.Description, MaxTextBytes)
	it.Source = r.str("source", false)
	// A category need not be one of the template's: they are its sub-filters, and Pack
	// Rat's own D&D 5e catalog files gear under categories its template does not list.
	it.Category = r.str("category", false)
	c.CatalogText(rules.PathOf(path, "category"), it.Category, maxLabelLen)
	if v, ok := r.cost("cost", raw["cost"]); ok {
		it.Cost = v
	}
	if v, ok := r.weight("weight", raw["weight"]); ok {
		it.Weight = v
	}
	it.Features = r.features("features", raw["features"])
	it.Slot = r.str("slot", false)
	if v, ok := raw["noStack"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			c.Add(rules.PathOf(path, "noStack"), "expected true or false")
		}
		it.NoStack = b
	}
	if v, ok := raw["slotSize"]; ok {
		it.SlotSize = r.count("slotSize", v)
	}
	if v, ok := raw["triggers"]; ok {
		if l, isList := v.([]any); !isList {
			c.Add(rules.PathOf(path, "triggers"), "expected an array")
		} else {
			it.Rules = c.readRules(rules.PathOf(path, "triggers"), l)
		}
	}
	fields := c.fieldsFor(t)
	for _, k := range rules.SortedKeys(raw) {
		if itemKeys[k] {
			continue
		}
		f, ok := fields[k]
		if !ok {
			c.Add(rules.PathOf(path, k), "unknown field: not one of every item's, the template's, a feature's or the system's common fields")
			continue
		}
		if c.fieldValue(rules.PathOf(path, k), f, raw[k]) {
			if it.Fields == nil {
				it.Fields = map[string]any{}
			}
			it.Fields[k] = raw[k]
		}
	}
	if lv, ok := raw["layers"]; ok {
		it.Layers = c.readLayers(rules.PathOf(path, "layers"), lv, fields)
	}
	return it
}

// fieldsFor returns the fields an item of template t may carry beyond every item's: the
// system's common fields, every feature's fields and flags, and the fields of t and the
// templates it is under.
func (c *checker) fieldsFor(t *Template) map[string]*Field {
	if f, ok := c.fieldCache[t]; ok {
		return f
	}
	if c.fieldCache == nil {
		c.fieldCache = map[*Template]map[string]*Field{}
	}
	out := map[string]*Field{}
	c.fieldCache[t] = out
	add := func(fs []Field) {
		for i := range fs {
			if _, ok := out[fs[i].Key]; !ok {
				out[fs[i].Key] = &fs[i]
			}
		}
	}
	for depth := 0; t != nil && depth < MaxTemplateDepth; depth++ {
		add(t.Fields)
		t = c.templates[t.Parent]
	}
	add(c.s.CommonFields)
	for _, f := range c.features {
		add(f.Fields)
		if f.Flag != "" {
			if _, ok := out[f.Flag]; !ok {
				out[f.Flag] = &Field{Key: f.Flag, Kind: "checkbox"}
			}
		}
	}
	return out
}

// fieldValue checks a value against its field's kind.
func (c *checker) fieldValue(path string, f *Field, v any) bool {
	switch f.Kind {
	case "number":
		if n, ok := v.(float64); !ok {
			c.Add(path, "expected a number")
		} else if f.Min != nil && n < *f.Min || f.Max != nil && n > *f.Max {
			c.Add(path, "%s is out of the field's range", rules.Num(n))
		} else {
			return true
		}
	case "checkbox":
		if _, ok := v.(bool); ok {
			return true
		}
		c.Add(path, "expected true or false")
	case "select":
		if s, ok := v.(string); !ok {
			c.Add(path, "expected a string")
		} else if !slices.Contains(f.Options, s) {
			c.Add(path, "%q is not one of the field's options", rules.Clip(s))
		} else {
			return true
		}
	case "tags":
		l, ok := v.([]any)
		if !ok || len(l) > MaxOptions {
			c.Add(path, "expected a list of at most %d strings", MaxOptions)
			return false
		}
		for i, x := range l {
			if _, ok := x.(string); !ok {
				c.Add(rules.PathOf(path, i), "expected a string")
				return false
			}
		}
		return true
	case "allows":
		return c.allows(path, v)
	case "pieces":
		return c.pieces(path, v)
	case "packContents":
		return c.packContents(path, v)
	case "compartments":
		return c.compartments(path, v)
	case "actions":
		if l, ok := v.([]any); !ok || len(l) > MaxOptions*10 {
			c.Add(path, "expected a list of at most %d entries", MaxOptions*10)
			return false
		}
		return true
	default: // text, textarea, dice, markdown, picture
		if s, ok := v.(string); !ok {
			c.Add(path, "expected a string")
		} else if len(s) > MaxTextBytes*5 {
			c.Add(path, "is %d bytes long, at most %d allowed", len(s), MaxTextBytes*5)
		} else {
			return true
		}
	}
	return false
}

// templateLayer reads one of a template's layers: what every item made with it becomes
// in that state, unless the item has a layer of its own for it.
func (c *checker) templateLayer(path string, t *Template, state string) {
	if t.layers == nil {
		t.layers = map[string]*Layer{}
	}
	t.layers[state] = c.readLayer(path, state, t.Layers[state], c.fieldsFor(t))
}

func (c *checker) readLayers(path string, v any, fields map[string]*Field) map[string]*Layer {
	m, ok := v.(map[string]any)
	if !ok {
		c.Add(path, "expected an object")
		return nil
	}
	out := make(map[string]*Layer, len(m))
	for _, k := range rules.SortedKeys(m) {
		lm, ok := m[k].(map[string]any)
		if !ok {
			c.Add(rules.PathOf(path, k), "expected an object")
			continue
		}
		if l := c.readLayer(rules.PathOf(path, k), k, lm, fields); l != nil {
			out[k] = l
		}
	}
	return out
}

// readLayer reads a layer: what the item becomes while state is on. fields, when not
// nil, are the item's fields a layer may change; a template's layer is checked only for
// its shape (nil). A value "" or null changes nothing, as in Pack Rat.
func (c *checker) readLayer(path, state string, m map[string]any, fields map[string]*Field) *Layer {
	if !c.states[state] {
		c.Add(path, "unknown state %q", rules.Clip(state))
	}
	l := &Layer{}
	r := itemReader{c: c, path: path, raw: m}
	for _, k := range rules.SortedKeys(m) {
		v := m[k]
		if v == nil || v == "" {
			continue
		}
		p := rules.PathOf(path, k)
		switch k {
		case "id", "type", "template", "layers", "triggers":
			c.Add(p, "a layer cannot change an item's %s", k)
		case "locks":
			l.Locks = r.stateList(k, v)
		case "features":
			l.Features = r.features(k, v)
		case "name", "icon", "description", "category", "image", "source":
			s := r.str(k, false)
			switch k {
			case "name":
				l.Name = &s
			case "icon":
				l.Icon = &s
			case "description":
				l.Description = &s
			case "category":
				l.Category = &s
			}
		case "cost":
			if n, ok := r.cost(k, v); ok {
				l.Cost = &n
			}
		case "weight":
			if n, ok := r.weight(k, v); ok {
				l.Weight = &n
			}
		case "slot":
			sl := r.str(k, false)
			l.Slot = &sl
		case "slotSize":
			n := r.count(k, v)
			l.SlotSize = &n
		default:
			if fields == nil {
				if l.Fields == nil {
					l.Fields = map[string]any{}
				}
				l.Fields[k] = v
				continue
			}
			f, ok := fields[k]
			if !ok {
				c.Add(p, "unknown field: not one of the item's")
				continue
			}
			if c.fieldValue(p, f, v) {
				if l.Fields == nil {
					l.Fields = map[string]any{}
				}
				l.Fields[k] = v
			}
		}
	}
	return l
}

// itemReader reads the typed keys of an item or a layer from its generic JSON.
type itemReader struct {
	c    *checker
	path string
	raw  map[string]any
}

func (r itemReader) str(key string, required bool) string {
	v, ok := r.raw[key]
	if !ok {
		if required {
			r.c.Add(rules.PathOf(r.path, key), "required")
		}
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		r.c.Add(rules.PathOf(r.path, key), "expected a string")
	}
	return s
}

func (r itemReader) cost(key string, v any) (int64, bool) {
	if v == nil {
		return 0, false
	}
	n, ok := v.(float64)
	if !ok || n < 0 || n != math.Trunc(n) || n > maxMoney {
		r.c.Add(rules.PathOf(r.path, key), "a cost is a whole number of the smallest coin, 0 up to %d", int64(maxMoney))
		return 0, false
	}
	return int64(n), true
}

func (r itemReader) weight(key string, v any) (float64, bool) {
	if v == nil {
		return 0, false
	}
	n, ok := v.(float64)
	if !ok || n < 0 || n > maxWeight {
		r.c.Add(rules.PathOf(r.path, key), "a weight is a number, 0 up to %d", int64(maxWeight))
		return 0, false
	}
	return n, true
}

func (r itemReader) count(key string, v any) int {
	n, ok := v.(float64)
	if !ok || n < 1 || n > 100 || n != math.Trunc(n) {
		r.c.Add(rules.PathOf(r.path, key), "expected a whole number, 1 up to 100")
		return 0
	}
	return int(n)
}

func (r itemReader) features(key string, v any) map[string]bool {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		r.c.Add(rules.PathOf(r.path, key), "expected an object")
		return nil
	}
	out := make(map[string]bool, len(m))
	for _, k := range rules.SortedKeys(m) {
		p := rules.PathOf(r.path, key, k)
		if !r.c.knownFeature(p, k) {
			continue
		}
		b, ok := m[k].(bool)
		if !ok {
			r.c.Add(p, "expected true or false")
			continue
		}
		out[k] = b
	}
	return out
}

func (r itemReader) stateList(key string, v any) []string {
	l, ok := v.([]any)
	if !ok {
		r.c.Add(rules.PathOf(r.path, key), "expected a list of state keys")
		return nil
	}
	var out []string
	for i, x := range l {
		s, ok := x.(string)
		if !ok || !r.c.states[s] {
			r.c.Add(rules.PathOf(r.path, key, i), "unknown state %v", x)
			continue
		}
		out = append(out, s)
	}
	return out
}

// checkTables: each entry's id is a catalog item; rolls are unique.
func (c *checker) checkTables() {
	items := map[string]bool{}
	for _, it := range c.s.Catalog {
		items[it.ID] = true
	}
	seen := map[string]bool{}
	for i, t := range c.s.Tables {
		p := rules.PathOf("tables", i)
		if c.id(rules.PathOf(p, "id"), t.ID) && seen[t.ID] {
			c.Add(rules.PathOf(p, "id"), "duplicate table id %q", rules.Clip(t.ID))
		}
		seen[t.ID] = true
		c.label(rules.PathOf(p, "name"), t.Name)
		c.CatalogText(rules.PathOf(p, "book"), t.Book, maxLabelLen)
		if t.Die != "" && !diePattern.MatchString(t.Die) {
			c.Add(rules.PathOf(p, "die"), "%q is not a die like d20 or 2d6", rules.Clip(t.Die))
		}
		if len(t.Entries) > MaxTableEntries {
			c.Problems.AddKind(strictjson.Limit, rules.PathOf(p, "entries"), fmt.Sprintf("has %d items, at most %d allowed", len(t.Entries), MaxTableEntries))
			continue
		}
		rolls := map[int]bool{}
		for j, e := range t.Entries {
			ep := rules.PathOf(p, "entries", j)
			if rolls[e.Roll] {
				c.Add(rules.PathOf(ep, "roll"), "roll %d is listed twice", e.Roll)
			}
			rolls[e.Roll] = true
			if !items[e.ID] {
				c.Add(rules.PathOf(ep, "id"), "unknown catalog item %q", rules.Clip(e.ID))
			}
		}
	}
}

// checkSlots: keys unique, counts at least 1, rules naming known templates, features,
// states and items, sizes between 1 and the slot's count.
func (c *checker) checkSlots() {
	items := map[string]bool{}
	for _, it := range c.s.Catalog {
		items[it.ID] = true
	}
	seen := map[string]bool{}
	for i, sl := range c.s.Slots {
		p := rules.PathOf("slots", i)
		if c.key(rules.PathOf(p, "key"), sl.Key) && (seen[sl.Key] || sl.Key == "none") {
			c.Add(rules.PathOf(p, "key"), "slot key %q is taken", sl.Key)
		}
		seen[sl.Key] = true
		c.label(rules.PathOf(p, "label"), sl.Label)
		if sl.Count < 1 || sl.Count > 100 {
			c.Add(rules.PathOf(p, "count"), "must be 1 up to 100")
		}
		if len(sl.Rules) > MaxSlotRules {
			c.Problems.AddKind(strictjson.Limit, rules.PathOf(p, "rules"), fmt.Sprintf("has %d items, at most %d allowed", len(sl.Rules), MaxSlotRules))
			continue
		}
		for j, ru := range sl.Rules {
			c.checkSlotRule(rules.PathOf(p, "rules", j), ru, sl.Count, items)
		}
	}
	for i, it := range c.s.Catalog {
		if it.Slot != "" && it.Slot != "none" && !seen[it.Slot] {
			c.Add(rules.PathOf("catalog", i, "slot"), "unknown slot %q", rules.Clip(it.Slot))
		}
		for _, st := range rules.SortedKeys(it.Layers) {
			if l := it.Layers[st]; l.Slot != nil && *l.Slot != "" && *l.Slot != "none" && !seen[*l.Slot] {
				c.Add(rules.PathOf("catalog", i, "layers", st, "slot"), "unknown slot %q", rules.Clip(*l.Slot))
			}
		}
	}
}

func (c *checker) checkSlotRule(p string, ru SlotRule, count int, items map[string]bool) {
	ids, ok := oneOrList(ru.Item)
	if !ok {
		c.Add(rules.PathOf(p, "item"), "expected an item's id or a list of them")
	}
	for _, id := range ids {
		if !items[id] {
			c.Add(rules.PathOf(p, "item"), "unknown catalog item %q", rules.Clip(id))
		}
	}
	if ru.Group != "" && !c.groups[ru.Group] && c.templates[c.s.TemplateAlias(ru.Group)] == nil {
		c.Add(rules.PathOf(p, "group"), "unknown group %q", rules.Clip(ru.Group))
	}
	if ru.Template != "" {
		if _, ok := c.templates[ru.Template]; !ok && !c.groups[ru.Template] {
			c.Add(rules.PathOf(p, "template"), "unknown template %q", rules.Clip(ru.Template))
		}
	}
	if ru.Feature != "" {
		c.knownFeature(rules.PathOf(p, "feature"), ru.Feature)
	}
	if ru.State != "" && !c.states[ru.State] {
		c.Add(rules.PathOf(p, "state"), "unknown state %q", rules.Clip(ru.State))
	}
	if _, ok := oneOrList(ru.Category); !ok {
		c.Add(rules.PathOf(p, "category"), "expected a category or a list of categories")
	}
	if ru.Size != 0 && (ru.Size < 1 || ru.Size > count) {
		c.Add(rules.PathOf(p, "size"), "must be 1 up to the slot's count (%d)", count)
	}
	if ru.Item == nil && ru.Group == "" && ru.Template == "" && ru.Category == nil && ru.Feature == "" && ru.Property == "" && ru.Name == "" {
		c.Add(p, "a rule needs something to match: item, group, template, category, feature, property or name")
	}
}

// oneOrList reads a rule's category or item: one, or a list.
func oneOrList(v any) ([]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		return []string{v}, true
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}
