package inventory

import (
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// checkTemplates checks a list of templates. The system's own (own) resolve parents and
// groups among themselves; starter templates may go under any of the system's.
func (c *checker) checkTemplates(path string, ts []Template, own bool) {
	if own && len(ts) == 0 {
		c.Add(path, "a system needs at least one template")
	}
	for i := range ts {
		t := &ts[i]
		p := rules.PathOf(path, i)
		c.id(rules.PathOf(p, "id"), t.ID)
		c.label(rules.PathOf(p, "name"), t.Name)
		c.CatalogText(rules.PathOf(p, "plural"), t.Plural, maxLabelLen)
		c.CatalogText(rules.PathOf(p, "icon"), t.Icon, maxIDLen)
		c.CatalogText(rules.PathOf(p, "categoryLabel"), t.CategoryLabel, maxLabelLen)
		if t.Hue != nil && (*t.Hue < 0 || *t.Hue >= 360) {
			c.Add(rules.PathOf(p, "hue"), "%s is not a hue (0 up to 360)", rules.Num(*t.Hue))
		}
		if t.Parent != "" {
			if _, ok := c.templates[t.Parent]; !ok && !c.groups[t.Parent] {
				c.Add(rules.PathOf(p, "parent"), "unknown template %q", rules.Clip(t.Parent))
			} else if t.Parent == t.ID {
				c.Add(rules.PathOf(p, "parent"), "a template cannot be under itself")
			}
		}
		if _, alias := c.s.LegacyGroups[t.Group]; t.Group != "" && !c.groups[t.Group] && !alias {
			c.Add(rules.PathOf(p, "group"), "unknown group %q (neither a group nor a legacyGroups id)", rules.Clip(t.Group))
		}
		if t.From != "" {
			if _, ok := c.templates[t.From]; !ok {
				c.Add(rules.PathOf(p, "from"), "unknown template %q", rules.Clip(t.From))
			}
		}
		if len(t.Categories) > MaxCategories {
			c.Problems.AddKind(strictjson.Limit, rules.PathOf(p, "categories"), fmt.Sprintf("has %d items, at most %d allowed", len(t.Categories), MaxCategories))
		}
		for j, cat := range t.Categories {
			c.label(rules.PathOf(p, "categories", j), cat)
		}
		c.UniqueStrings(rules.PathOf(p, "categories"), "category", t.Categories)
		c.checkFields(rules.PathOf(p, "fields"), t.Fields)
		for _, k := range rules.SortedKeys(t.Features) {
			fp := rules.PathOf(p, "features", k)
			c.knownFeature(fp, k)
			switch v := t.Features[k].(type) {
			case bool:
			case string:
				if v != "main" {
					c.Add(fp, "must be true, false or \"main\"")
				}
			default:
				c.Add(fp, "must be true, false or \"main\"")
			}
		}
		for j, h := range t.Hide {
			c.OneOf(rules.PathOf(p, "hide", j), h, hideable...)
		}
		c.checkDefaults(rules.PathOf(p, "defaults"), t)
		for _, k := range rules.SortedKeys(t.Layers) {
			c.templateLayer(rules.PathOf(p, "layers", k), t, k)
		}
		t.Rules = c.readRules(rules.PathOf(p, "triggers"), t.Triggers)
	}
	if own {
		c.checkTemplateTree(path, ts)
		c.checkRenamed()
	}
}

// checkDefaults checks a template's defaults: values of its items' fields, each of its
// field's kind.
func (c *checker) checkDefaults(path string, t *Template) {
	d := t.Defaults
	if len(d) > MaxItemFields {
		c.Problems.AddKind(strictjson.Limit, path, fmt.Sprintf("has %d keys, at most %d allowed", len(d), MaxItemFields))
		return
	}
	fields := c.fieldsFor(t)
	for _, k := range rules.SortedKeys(d) {
		p := rules.PathOf(path, k)
		switch f, ok := fields[k]; {
		case ok:
			c.fieldValue(p, f, d[k])
		case k == "cost" || k == "weight" || k == "icon" || k == "description" || k == "source" || k == "category":
			if _, obj := d[k].(map[string]any); obj {
				c.Add(p, "a default is a value, not an object")
			}
		default:
			c.Add(p, "unknown field: not one of the template's items'")
		}
	}
}

// checkTemplateTree reports templates under each other in a ring, or nested deeper than
// MaxTemplateDepth: both would leave a template with no top one.
func (c *checker) checkTemplateTree(path string, ts []Template) {
	for i := range ts {
		seen := map[string]bool{}
		t := &ts[i]
		for depth := 0; t != nil && t.Parent != ""; depth++ {
			if seen[t.ID] {
				c.Add(rules.PathOf(path, i, "parent"), "templates are under each other in a ring")
				break
			}
			if depth >= MaxTemplateDepth {
				c.Add(rules.PathOf(path, i, "parent"), "templates nest at most %d deep", MaxTemplateDepth)
				break
			}
			seen[t.ID] = true
			t = c.templates[t.Parent]
		}
	}
}

func (c *checker) checkRenamed() {
	for _, tid := range rules.SortedKeys(c.s.RenamedCategories) {
		p := rules.PathOf("renamedCategories", tid)
		t, ok := c.templates[tid]
		if !ok {
			c.Add(p, "unknown template %q", rules.Clip(tid))
			continue
		}
		m := c.s.RenamedCategories[tid]
		if len(m) > maxRenamedPerTmpl {
			c.Problems.AddKind(strictjson.Limit, p, fmt.Sprintf("has %d keys, at most %d allowed", len(m), maxRenamedPerTmpl))
		}
		for _, old := range rules.SortedKeys(m) {
			if !slices.Contains(t.Categories, m[old]) {
				c.Add(rules.PathOf(p, old), "renames to %q, which is not one of the template's categories", rules.Clip(m[old]))
			}
		}
	}
}

func (c *checker) checkGroups() {
	for i, g := range c.s.Groups {
		p := rules.PathOf("groups", i)
		c.id(rules.PathOf(p, "id"), g.ID)
		c.label(rules.PathOf(p, "name"), g.Name)
		for j, id := range g.Templates {
			if _, ok := c.templates[id]; !ok {
				c.Add(rules.PathOf(p, "templates", j), "unknown template %q", rules.Clip(id))
			}
		}
	}
	for _, k := range rules.SortedKeys(c.s.LegacyGroups) {
		v := c.s.LegacyGroups[k]
		if _, ok := c.templates[v]; !ok && !c.groups[v] {
			c.Add(rules.PathOf("legacyGroups", k), "unknown template %q", rules.Clip(v))
		}
	}
}

func (c *checker) checkValues() {
	seen := map[string]bool{}
	for i, v := range c.s.Values {
		p := rules.PathOf("values", i)
		if c.key(rules.PathOf(p, "name"), v.Name) && seen[v.Scope+"/"+v.Name] {
			c.Add(rules.PathOf(p, "name"), "duplicate %s value %q", v.Scope, v.Name)
		}
		seen[v.Scope+"/"+v.Name] = true
		c.OneOf(rules.PathOf(p, "scope"), v.Scope, "global", "local")
		c.CatalogText(rules.PathOf(p, "label"), v.Label, maxLabelLen)
		if v.Min != nil && v.Max != nil && *v.Min > *v.Max {
			c.Add(rules.PathOf(p, "min"), "min %s is above max %s", rules.Num(*v.Min), rules.Num(*v.Max))
		}
		if d := v.Default; d != nil && (v.Min != nil && *d < *v.Min || v.Max != nil && *d > *v.Max) {
			c.Add(rules.PathOf(p, "default"), "%s is outside min..max", rules.Num(*d))
		}
		if d := v.Default; d != nil && len(v.Choices) > 0 && (*d < 0 || int(*d) >= len(v.Choices) || *d != float64(int(*d))) {
			c.Add(rules.PathOf(p, "default"), "a value with choices defaults to one of them: 0 up to %d", len(v.Choices)-1)
		}
		if v.Step != nil && *v.Step <= 0 {
			c.Add(rules.PathOf(p, "step"), "must be above 0")
		}
		for j, ch := range v.Choices {
			c.label(rules.PathOf(p, "choices", j), ch)
		}
	}
}

// checkCharacter checks what a system says of characters and words: stats, campaign
// settings, terminology, the weight unit and the glossary.
func (c *checker) checkCharacter() {
	s := c.s
	for _, k := range rules.SortedKeys(s.Stats) {
		p := rules.PathOf("stats", k)
		c.key(p, k)
		switch v := s.Stats[k].(type) {
		case float64, bool:
		case string:
			c.CatalogText(p, v, maxStatStringLen)
		case []any:
			if len(v) > maxStatListLen {
				c.Add(p, "a list stat has at most %d items", maxStatListLen)
			}
			for j, x := range v {
				switch x := x.(type) {
				case float64, bool:
				case string:
					c.CatalogText(rules.PathOf(p, j), x, maxStatStringLen)
				default:
					c.Add(rules.PathOf(p, j), "must be a number, a short string or true/false")
				}
			}
		default:
			c.Add(p, "must be a number, a short string, true/false or a short list")
		}
	}
	for i, k := range s.CampaignSettings {
		c.OneOf(rules.PathOf("campaignSettings", i), k, campaignSettingKeys...)
	}
	for _, k := range rules.SortedKeys(s.Terminology) {
		p := rules.PathOf("terminology", k)
		if _, ok := terms[k]; !ok {
			c.Add(p, "%q is not one of the words a system can change: %s", rules.Clip(k), strings.Join(rules.SortedKeys(terms), ", "))
			continue
		}
		c.label(p, strings.TrimSpace(s.Terminology[k]))
		c.MaxLen(p, s.Terminology[k], maxTermLen)
	}
	if w := s.Weight; w != nil {
		c.label("weight.unit", strings.TrimSpace(w.Unit))
		c.MaxLen("weight.unit", w.Unit, maxWeightUnitLen)
		c.MaxLen("weight.one", w.One, maxWeightUnitLen)
	}
	for _, k := range rules.SortedKeys(s.Glossary) {
		p := rules.PathOf("glossary", k)
		c.CatalogText(p, k, maxLabelLen)
		c.optText(p, s.Glossary[k], MaxTextBytes)
	}
}

// checkCurrency: coins with keys and whole values, strictly largest first, one worth 1;
// change and show name coins; perWeight not negative.
func (c *checker) checkCurrency() {
	cur := c.s.Currency
	if cur == nil {
		return
	}
	keys := map[string]bool{}
	one := false
	for i, coin := range cur.Coins {
		p := rules.PathOf("currency.coins", i)
		if !coinKeyPattern.MatchString(coin.Key) {
			c.Add(rules.PathOf(p, "key"), "coin key %q must be a lowercase letter, then letters and digits, at most %d characters", rules.Clip(coin.Key), maxCoinKeyLen)
		} else if keys[coin.Key] {
			c.Add(rules.PathOf(p, "key"), "duplicate coin %q", coin.Key)
		}
		keys[coin.Key] = true
		c.CatalogText(rules.PathOf(p, "name"), coin.Name, 30)
		c.CatalogText(rules.PathOf(p, "color"), coin.Color, 30)
		switch {
		case coin.Value < 1 || coin.Value > maxCoinValue:
			c.Add(rules.PathOf(p, "value"), "a coin is worth 1 up to %d of the smallest", maxCoinValue)
		case i > 0 && coin.Value >= cur.Coins[i-1].Value:
			c.Add(rules.PathOf(p, "value"), "coins are listed largest first: %s (%d) is not smaller than %s (%d)", coin.Key, coin.Value, cur.Coins[i-1].Key, cur.Coins[i-1].Value)
		}
		one = one || coin.Value == 1
	}
	if len(cur.Coins) == 0 {
		c.Add("currency.coins", "must not be empty")
	} else if !one {
		c.Add("currency.coins", "one coin must be worth 1 (prices are in the smallest coin)")
	}
	for i, k := range cur.Change {
		if !keys[k] {
			c.Add(rules.PathOf("currency.change", i), "unknown coin %q", rules.Clip(k))
		}
	}
	c.UniqueStrings("currency.change", "coin", cur.Change)
	if cur.Show != "" && !keys[cur.Show] {
		c.Add("currency.show", "unknown coin %q", rules.Clip(cur.Show))
	}
	if cur.PerWeight < 0 {
		c.Add("currency.perWeight", "must not be negative")
	}
}

func (c *checker) checkPanels() {
	seen := map[string]bool{}
	for i, p := range c.s.Panels {
		pp := rules.PathOf("panels", i)
		if c.id(rules.PathOf(pp, "id"), p.ID) && seen[p.ID] {
			c.Add(rules.PathOf(pp, "id"), "duplicate panel id %q", rules.Clip(p.ID))
		}
		seen[p.ID] = true
		c.OneOf(rules.PathOf(pp, "slot"), p.Slot, "inventory", "gm-player")
		c.CatalogText(rules.PathOf(pp, "title"), p.Title, maxLabelLen)
		if len(p.HTML) > MaxPanelBytes {
			c.Problems.AddKind(strictjson.Limit, rules.PathOf(pp, "html"), fmt.Sprintf("is %d bytes, at most %d allowed", len(p.HTML), MaxPanelBytes))
		}
	}
}
