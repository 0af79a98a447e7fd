package ruleset

import (
	"fmt"
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

// Layer is a variant of the ruleset a player turns on when a game is created (Low magic,
// Hard winter; API 1.25). Every effect narrows or appends, so a layer never teaches the
// engine a mechanic the ruleset itself could not declare: guidance is appended, enum
// values are taken away, the ladder is swapped for one of the same kind, catalog entries
// are hidden from the picker, and coins are taken out of the currencies.
type Layer struct {
	ID               string           `json:"id"`
	Label            string           `json:"label"`
	Summary          string           `json:"summary,omitempty"`
	Conflicts        []string         `json:"conflicts,omitempty"`
	GM               *LayerGM         `json:"gm,omitempty"`
	Fields           []LayerField     `json:"fields,omitempty"`
	DifficultyLadder []LadderStep     `json:"difficultyLadder,omitempty"`
	Catalogs         []LayerCatalog   `json:"catalogs,omitempty"`
	Currencies       *LayerCurrencies `json:"currencies,omitempty"`
}

// LayerGM is guidance a layer appends to the ruleset's own.
type LayerGM struct {
	Guidance      string `json:"guidance,omitempty"`
	WorldGuidance string `json:"worldGuidance,omitempty"`
}

// LayerField takes values out of an enum field, naming a new default when the field's
// own is among them.
type LayerField struct {
	ID           string   `json:"id"`
	RemoveValues []string `json:"removeValues"`
	Default      *string  `json:"default,omitempty"`
}

// LayerCatalog hides a catalog's entries from the picker by one of its filters.
type LayerCatalog struct {
	ID   string    `json:"id"`
	Hide LayerHide `json:"hide"`
}

// LayerHide is exactly one comparison against a filter the catalog declares: a number
// filter with Above or Below, a word filter with Equals or NotIn.
type LayerHide struct {
	Filter string   `json:"filter"`
	Above  *float64 `json:"above,omitempty"`
	Below  *float64 `json:"below,omitempty"`
	Equals *string  `json:"equals,omitempty"`
	NotIn  []string `json:"notIn,omitempty"`
}

// HidesNumber reports whether the rule hides an entry whose filter holds the number v.
func (h *LayerHide) HidesNumber(v float64) bool {
	return h.Above != nil && v > *h.Above || h.Below != nil && v < *h.Below
}

// HidesWords reports whether the rule hides an entry whose filter holds words. An entry
// whose filter holds no words is never hidden, as Marinara's hides() has it: an empty
// list says no more than a filter the entry does not set, so it is not "not in" notIn.
func (h *LayerHide) HidesWords(words []string) bool {
	if len(words) == 0 {
		return false
	}
	if h.Equals != nil {
		return contains(words, *h.Equals)
	}
	if h.NotIn != nil {
		for _, w := range words {
			if contains(h.NotIn, w) {
				return false
			}
		}
		return true
	}
	return false
}

// LayerCurrencies takes single coins or whole families out of the items block's
// currencies.
type LayerCurrencies struct {
	RemoveUnits    []string `json:"removeUnits,omitempty"`
	RemoveFamilies []string `json:"removeFamilies,omitempty"`
}

// Layer limits: layers per ruleset, and guidance one layer may add in total.
const (
	maxLayers        = 12
	maxLayerGuidance = 4000
)

func (c *checker) checkLayers() {
	layers := c.rs.Layers
	if layers == nil {
		return
	}
	c.Uses("layers", 25, "layers")
	ids := map[string]bool{}
	for _, l := range layers {
		ids[l.ID] = true
	}
	labelledList(c, "layers", "layer", layers, 0, maxLayers, func(_ int, l *Layer, path string) {
		if l.Summary != "" {
			c.PromptText(path+".summary", l.Summary, 300)
		}
		c.Count(path+".conflicts", len(l.Conflicts), 0, maxLayers)
		for j, other := range l.Conflicts {
			at := strictjson.Join(path+".conflicts", j)
			switch {
			case !c.SheetID(at, other):
			case other == l.ID:
				c.Add(at, "a layer cannot conflict with itself")
			case !ids[other]:
				c.Add(at, "unknown layer %q", other)
			}
		}
		if g := l.GM; g != nil {
			if g.Guidance != "" {
				c.PromptText(path+".gm.guidance", g.Guidance, maxLayerGuidance)
			}
			if g.WorldGuidance != "" {
				c.PromptText(path+".gm.worldGuidance", g.WorldGuidance, maxLayerGuidance)
			}
			if total := rules.TextLen(g.Guidance) + rules.TextLen(g.WorldGuidance); total > maxLayerGuidance {
				c.Add(path+".gm", "one layer carries at most %d characters of guidance in total, got %d", maxLayerGuidance, total)
			}
		}
		c.Count(path+".fields", len(l.Fields), 0, 24)
		c.Unique(path+".fields", "narrowed field", len(l.Fields), func(j int) string { return l.Fields[j].ID })
		for j := range l.Fields {
			c.layerField(&l.Fields[j], fmt.Sprintf("%s.fields[%d]", path, j))
		}
		if l.DifficultyLadder != nil {
			c.ladder(path+".difficultyLadder", l.DifficultyLadder)
		}
		c.Count(path+".catalogs", len(l.Catalogs), 0, 24)
		for j := range l.Catalogs {
			c.layerCatalog(&l.Catalogs[j], fmt.Sprintf("%s.catalogs[%d]", path, j))
		}
		if l.Currencies != nil {
			c.layerCurrencies(l.Currencies, path+".currencies")
		}
	})
}

// layerField checks an enum narrowing: the field is an enum, every removed value is one
// of its values and no hideWhen on the sheet watches it, at least one value is left, and
// the default survives or a surviving one is named.
func (c *checker) layerField(e *LayerField, path string) {
	c.Count(path+".removeValues", len(e.RemoveValues), 1, 40)
	for i, v := range e.RemoveValues {
		if v == "" {
			c.Add(strictjson.Join(path+".removeValues", i), "must not be empty")
		}
		c.MaxLen(strictjson.Join(path+".removeValues", i), v, 80)
	}
	if e.Default != nil {
		c.MaxLen(path+".default", *e.Default, 80)
	}
	if !c.SheetID(path+".id", e.ID) {
		return
	}
	f := c.names.field(e.ID)
	switch {
	case f == nil:
		c.Add(path+".id", "unknown field %q", e.ID)
		return
	case f.Type != "enum":
		c.Add(path+".id", "field %q is not an enum field", e.ID)
		return
	}
	watchers := c.hideWatchers(e.ID)
	for i, v := range e.RemoveValues {
		at := strictjson.Join(path+".removeValues", i)
		if !contains(f.Values, v) {
			c.Add(at, "%q is not one of the values of %q", rules.Clip(v), e.ID)
		}
		for _, w := range watchers {
			if !containsScalar(w.rule.Values(), v) {
				continue
			}
			if w.rule.NotEquals != nil {
				c.Add(at, "%q is shown only when %q is %q, so a layer cannot remove that value", w.id, e.ID, v)
			} else {
				c.Add(at, "%q is hidden when %q is %q, so a layer cannot remove that value", w.id, e.ID, v)
			}
			break
		}
	}
	var left []string
	for _, v := range f.Values {
		if !contains(e.RemoveValues, v) {
			left = append(left, v)
		}
	}
	if len(left) == 0 {
		c.Add(path+".removeValues", "a layer must leave %q at least one value", e.ID)
		return
	}
	if e.Default != nil {
		if !contains(left, *e.Default) {
			c.Add(path+".default", "default %q is not one of the values this layer leaves", rules.Clip(*e.Default))
		}
	} else if d, ok := f.Default.(string); ok && !contains(left, d) {
		c.Add(path+".removeValues", "removing %q takes the default of %q away; name a new default", d, e.ID)
	}
}

type hideWatcher struct {
	id   string
	rule *HideWhen
}

// hideWatchers lists what on the sheet shows or hides on field id's value, in the
// order the sheet declares them.
func (c *checker) hideWatchers(id string) []hideWatcher {
	s := &c.rs.Sheet
	var ws []hideWatcher
	add := func(owner string, h *HideWhen) {
		if h != nil && h.Field == id {
			ws = append(ws, hideWatcher{owner, h})
		}
	}
	for i := range s.Fields {
		add(s.Fields[i].ID, s.Fields[i].HideWhen)
	}
	for i := range s.Derived {
		add(s.Derived[i].ID, s.Derived[i].HideWhen)
	}
	for i := range s.Lists {
		add(s.Lists[i].ID, s.Lists[i].HideWhen)
	}
	for i := range s.Live.Pools {
		add(s.Live.Pools[i].ID, s.Live.Pools[i].HideWhen)
	}
	for i := range s.Live.Tracks {
		add(s.Live.Tracks[i].ID, s.Live.Tracks[i].HideWhen)
	}
	for i := range s.Live.States {
		add(s.Live.States[i].ID, s.Live.States[i].HideWhen)
	}
	return ws
}

func containsScalar(vs []any, s string) bool {
	for _, v := range vs {
		if v == any(s) {
			return true
		}
	}
	return false
}

// layerCatalog checks a hide rule: exactly one comparison, against a filter the named
// catalog declares, of the filter's own kind (numbers above/below, words equals/notIn).
func (c *checker) layerCatalog(e *LayerCatalog, path string) {
	h := &e.Hide
	hp := path + ".hide"
	set := 0
	for _, on := range []bool{h.Above != nil, h.Below != nil, h.Equals != nil, h.NotIn != nil} {
		if on {
			set++
		}
	}
	if set != 1 {
		c.Add(hp, "a hide rule names exactly one of: above, below, equals, notIn")
	}
	if h.Equals != nil {
		c.MaxLen(hp+".equals", *h.Equals, 80)
	}
	if h.NotIn != nil {
		c.Count(hp+".notIn", len(h.NotIn), 1, 24)
		for i, v := range h.NotIn {
			c.MaxLen(strictjson.Join(hp+".notIn", i), v, 80)
		}
	}
	idOK := c.SheetID(path+".id", e.ID)
	if !c.SheetID(hp+".filter", h.Filter) || !idOK {
		return
	}
	cat := c.rs.Catalog(e.ID)
	if cat == nil {
		c.Add(path+".id", "unknown catalog %q", e.ID)
		return
	}
	filter := cat.Filter(h.Filter)
	if filter == nil {
		c.Add(hp+".filter", "catalog %q declares no filter %q", e.ID, h.Filter)
		return
	}
	numeric := h.Above != nil || h.Below != nil
	switch {
	case numeric && filter.Type != "number":
		c.Add(hp, "filter %q holds words, so hide uses equals or notIn", filter.ID)
	case !numeric && filter.Type == "number":
		c.Add(hp, "filter %q holds a number, so hide uses above or below", filter.ID)
	}
}

// layerCurrencies checks that removed families and coins exist in the items block, and
// that a family's smallest coin goes only with its whole family.
func (c *checker) layerCurrencies(lc *LayerCurrencies, path string) {
	if lc.RemoveUnits == nil && lc.RemoveFamilies == nil {
		c.Add(path, "a layer's currencies take out coins (removeUnits) or families (removeFamilies)")
	}
	if lc.RemoveUnits != nil {
		c.Count(path+".removeUnits", len(lc.RemoveUnits), 1, 60)
	}
	if lc.RemoveFamilies != nil {
		c.Count(path+".removeFamilies", len(lc.RemoveFamilies), 1, 6)
	}
	var families []CurrencyFamily
	if c.rs.Items != nil {
		families = c.rs.Items.Currencies
	}
	for i, id := range lc.RemoveFamilies {
		at := strictjson.Join(path+".removeFamilies", i)
		found := false
		for _, f := range families {
			found = found || f.ID == id
		}
		if c.SheetID(at, id) && !found {
			c.Add(at, "unknown currency %q", id)
		}
	}
	for i, id := range lc.RemoveUnits {
		at := strictjson.Join(path+".removeUnits", i)
		if !c.SheetID(at, id) {
			continue
		}
		family, unit := findUnit(families, id)
		switch {
		case unit == nil:
			c.Add(at, "unknown currency unit %q", id)
		case unit.Value == 1 && !contains(lc.RemoveFamilies, family.ID):
			c.Add(at, "%q is the smallest coin of %q, which goes only with its whole family", id, family.ID)
		}
	}
}

func findUnit(families []CurrencyFamily, id string) (*CurrencyFamily, *CurrencyUnit) {
	for i := range families {
		for j := range families[i].Units {
			if families[i].Units[j].ID == id {
				return &families[i], &families[i].Units[j]
			}
		}
	}
	return nil, nil
}
