package inventory

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// checker checks a decoded system's meaning, reporting into one rules.Report so the
// problems of every part come out together.
type checker struct {
	rules.Report
	s         *System
	templates map[string]*Template // the file's templates by id
	groups    map[string]bool
	features  map[string]*Feature // core and the system's
	states    map[string]bool
	// fieldCache keeps fieldsFor's answer per template: a 5,000-item catalog asks it for
	// every item.
	fieldCache map[*Template]map[string]*Field
}

var (
	keyPattern     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,39}$`)
	coinKeyPattern = regexp.MustCompile(`^[a-z][a-z0-9]{0,7}$`)
)

func (c *checker) check() {
	s := c.s
	if s.Packrat != "system" {
		c.Add("packrat", "must be \"system\", got %q", rules.Clip(s.Packrat))
	}
	c.id("id", s.ID)
	c.optText("name", s.Name, maxLabelLen)
	c.optText("description", s.Description, MaxTextBytes)
	if s.Version < 0 {
		c.Add("version", "must not be negative")
	}
	c.counts()
	c.indexes()
	c.checkFeatures()
	c.checkFields("commonFields", s.CommonFields)
	c.checkStates()
	c.checkTemplates("templates", s.Templates, true)
	c.checkTemplates("starterTemplates", s.StarterTemplates, false)
	c.checkGroups()
	c.checkValues()
	c.checkCharacter()
	c.checkCurrency()
	c.checkPanels()
	c.checkCatalog()
	c.checkPacks()
	c.checkTables()
	c.checkSlots()
}

// counts bounds every list, with the Limit kind: an over-long list is a file too big to
// use, not a mistake in one entry.
func (c *checker) counts() {
	s := c.s
	limit := func(path string, n, max int) {
		if n > max {
			c.Problems.AddKind(strictjson.Limit, path, fmt.Sprintf("has %d items, at most %d allowed", n, max))
		}
	}
	limit("templates", len(s.Templates), MaxTemplates)
	limit("starterTemplates", len(s.StarterTemplates), MaxTemplates)
	limit("groups", len(s.Groups), MaxTemplates)
	limit("features", len(s.Features), MaxFeatures)
	limit("commonFields", len(s.CommonFields), MaxFields)
	limit("states", len(s.States), MaxStates)
	limit("values", len(s.Values), MaxValues)
	limit("stats", len(s.Stats), MaxStats)
	limit("panels", len(s.Panels), MaxPanels)
	limit("catalog", len(s.RawCatalog), MaxCatalog)
	limit("tables", len(s.Tables), MaxTables)
	limit("glossary", len(s.Glossary), MaxGlossary)
	limit("slots", len(s.Slots), MaxSlots)
	if s.Currency != nil {
		limit("currency.coins", len(s.Currency.Coins), MaxCoins)
	}
	if len(s.PanelLib) > MaxPanelBytes {
		c.Problems.AddKind(strictjson.Limit, "panelLib", fmt.Sprintf("is %d bytes, at most %d allowed", len(s.PanelLib), MaxPanelBytes))
	}
}

// indexes gathers the names the other checks resolve, reporting repeats.
func (c *checker) indexes() {
	s := c.s
	c.templates = map[string]*Template{}
	for i := range s.Templates {
		t := &s.Templates[i]
		if _, dup := c.templates[t.ID]; dup && t.ID != "" {
			c.Add(rules.PathOf("templates", i, "id"), "duplicate template id %q", rules.Clip(t.ID))
		}
		c.templates[t.ID] = t
	}
	c.groups = map[string]bool{}
	for i, g := range s.Groups {
		if c.groups[g.ID] {
			c.Add(rules.PathOf("groups", i, "id"), "duplicate group id %q", rules.Clip(g.ID))
		}
		c.groups[g.ID] = true
	}
	c.features = map[string]*Feature{}
	for i := range coreFeatures {
		c.features[coreFeatures[i].Key] = &coreFeatures[i]
	}
	for i := range s.Features {
		f := &s.Features[i]
		if _, dup := c.features[f.Key]; dup {
			if isCoreFeature(f.Key) {
				c.Add(rules.PathOf("features", i, "key"), "%q is a core feature; a system's own needs a key of its own", f.Key)
			} else {
				c.Add(rules.PathOf("features", i, "key"), "duplicate feature key %q", rules.Clip(f.Key))
			}
			continue
		}
		c.features[f.Key] = f
	}
	c.states = map[string]bool{}
	for i, st := range s.States {
		if c.states[st.Key] {
			c.Add(rules.PathOf("states", i, "key"), "duplicate state key %q", rules.Clip(st.Key))
		}
		c.states[st.Key] = true
	}
}

// id checks an id: not empty, at most 80 characters, no spaces or control characters.
func (c *checker) id(path, id string) bool {
	switch {
	case id == "":
		c.Add(path, "must not be empty")
	case len(id) > maxIDLen:
		c.Add(path, "id %q is longer than %d characters", rules.Clip(id), maxIDLen)
	case strings.IndexFunc(id, func(r rune) bool { return r <= ' ' || r == 0x7F }) >= 0:
		c.Add(path, "id %q must not contain spaces or control characters", rules.Clip(id))
	default:
		return true
	}
	return false
}

// key checks a field, feature, state or value key: a letter, then letters, digits and
// underscores, at most 40 characters (panels and rules address them as item.<key>).
func (c *checker) key(path, k string) bool {
	if !keyPattern.MatchString(k) {
		c.Add(path, "key %q must be a letter, then letters, digits and underscores, at most 40 characters", rules.Clip(k))
		return false
	}
	return true
}

// label checks required one-line text.
func (c *checker) label(path, s string) {
	if s == "" {
		c.Add(path, "must not be empty")
		return
	}
	c.CatalogText(path, s, maxLabelLen)
}

// optText checks optional text of at most max bytes (descriptions may hold line breaks).
func (c *checker) optText(path, s string, max int) {
	if len(s) > max {
		c.Add(path, "is %d bytes long, at most %d allowed", len(s), max)
	}
}

func (c *checker) checkFeatures() {
	for i, f := range c.s.Features {
		p := rules.PathOf("features", i)
		c.key(rules.PathOf(p, "key"), f.Key)
		c.label(rules.PathOf(p, "label"), f.Label)
		c.optText(rules.PathOf(p, "hint"), f.Hint, MaxTextBytes)
		if f.Equip != "" {
			c.OneOf(rules.PathOf(p, "equip"), f.Equip, "wielded", "worn")
		}
		if f.Flag != "" {
			c.key(rules.PathOf(p, "flag"), f.Flag)
		}
		if f.Excludes != "" {
			c.knownFeature(rules.PathOf(p, "excludes"), f.Excludes)
		}
		c.checkFields(rules.PathOf(p, "fields"), f.Fields)
	}
}

func (c *checker) knownFeature(path, key string) bool {
	if _, ok := c.features[key]; !ok {
		c.Add(path, "unknown feature %q", rules.Clip(key))
		return false
	}
	return true
}

func (c *checker) checkFields(path string, fs []Field) {
	if len(fs) > MaxFields {
		c.Problems.AddKind(strictjson.Limit, path, fmt.Sprintf("has %d items, at most %d allowed", len(fs), MaxFields))
		return
	}
	seen := map[string]bool{}
	for i, f := range fs {
		p := rules.PathOf(path, i)
		if c.key(rules.PathOf(p, "key"), f.Key) && seen[f.Key] {
			c.Add(rules.PathOf(p, "key"), "duplicate field key %q", f.Key)
		}
		seen[f.Key] = true
		if itemKeys[f.Key] {
			c.Add(rules.PathOf(p, "key"), "%q is a field every item has already", f.Key)
		}
		c.label(rules.PathOf(p, "label"), f.Label)
		c.OneOf(rules.PathOf(p, "kind"), f.Kind, fieldKinds...)
		switch {
		case f.Kind == "select" && len(f.Options) == 0:
			c.Add(rules.PathOf(p, "options"), "a select needs options")
		case f.Kind != "select" && (f.Options != nil || f.Labels != nil || f.Segmented):
			c.Add(rules.PathOf(p, "options"), "only a select has options, labels or segmented")
		case f.Kind != "tags" && f.Suggestions != nil:
			c.Add(rules.PathOf(p, "suggestions"), "only tags have suggestions")
		}
		if len(f.Options) > MaxOptions || len(f.Suggestions) > MaxOptions {
			c.Problems.AddKind(strictjson.Limit, p, fmt.Sprintf("at most %d options or suggestions allowed", MaxOptions))
		}
		for k := range f.Labels {
			if !slices.Contains(f.Options, k) {
				c.Add(rules.PathOf(p, "labels", k), "labels an option %q the field does not have", rules.Clip(k))
			}
		}
		if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
			c.Add(rules.PathOf(p, "min"), "min %s is above max %s", rules.Num(*f.Min), rules.Num(*f.Max))
		}
		switch st := f.Step.(type) {
		case nil:
		case float64:
			if st <= 0 {
				c.Add(rules.PathOf(p, "step"), "must be above 0")
			}
		case string:
			if st != "any" {
				c.Add(rules.PathOf(p, "step"), "must be a number or \"any\"")
			}
		default:
			c.Add(rules.PathOf(p, "step"), "must be a number or \"any\"")
		}
	}
}

func (c *checker) checkStates() {
	for i, st := range c.s.States {
		p := rules.PathOf("states", i)
		c.key(rules.PathOf(p, "key"), st.Key)
		c.label(rules.PathOf(p, "label"), st.Label)
		if st.Who != "" {
			c.OneOf(rules.PathOf(p, "who"), st.Who, "player", "gm")
		}
		if st.Requires != "" {
			c.knownFeature(rules.PathOf(p, "requires"), st.Requires)
		}
		c.CatalogText(rules.PathOf(p, "requiresProperty"), st.RequiresProperty, maxLabelLen)
		if l := st.Limit; l != nil {
			lp := rules.PathOf(p, "limit")
			if l.Value == "" && l.GMValue == "" && l.Default == nil {
				c.Add(lp, "a limit needs a value, a gmValue or a default")
			}
			if l.Value != "" {
				c.key(rules.PathOf(lp, "value"), l.Value)
			}
			if l.GMValue != "" && !strings.HasPrefix(l.GMValue, "gm_") {
				c.Add(rules.PathOf(lp, "gmValue"), "an older limit's value is named gm_<name>")
			}
			if l.Default != nil && (*l.Default < 0 || *l.Default != float64(int64(*l.Default))) {
				c.Add(rules.PathOf(lp, "default"), "must be a whole number, 0 or more")
			}
			if l.Mode != "" {
				c.OneOf(rules.PathOf(lp, "mode"), l.Mode, "warn", "block")
			}
			c.CatalogText(rules.PathOf(lp, "text"), l.Text, maxLabelLen)
			c.CatalogText(rules.PathOf(lp, "label"), l.Label, maxLabelLen)
		}
	}
}
