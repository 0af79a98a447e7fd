package inventory

import (
	"iter"

	"sheetkeeper/ruleset"
)

// index holds a system's lookups, built once by Parse, so the hot paths (the item as it
// is now, a slot, a price) find things without walking lists.
type index struct {
	templates map[string]*Template
	features  map[string]*Feature
	states    map[string]int // key → place in the state order
	catalog   map[string]*Item
	money     *Money
	// ruled: some template or catalog item has rules (most systems' none do).
	ruled bool
}

func buildIndex(s *System) *index {
	ix := &index{
		templates: make(map[string]*Template, len(s.Templates)),
		features:  make(map[string]*Feature, len(coreFeatures)+len(s.Features)),
		states:    make(map[string]int, len(s.States)),
		catalog:   make(map[string]*Item, len(s.Catalog)),
		money:     newMoney(s.Currency),
	}
	for i := range s.Templates {
		ix.templates[s.Templates[i].ID] = &s.Templates[i]
	}
	for i := range coreFeatures {
		ix.features[coreFeatures[i].Key] = &coreFeatures[i]
	}
	for i := range s.Features {
		ix.features[s.Features[i].Key] = &s.Features[i]
	}
	for i, st := range s.States {
		ix.states[st.Key] = i
	}
	for i := range s.Templates {
		ix.ruled = ix.ruled || len(s.Templates[i].Rules) > 0
	}
	for _, it := range s.Catalog {
		ix.catalog[it.ID] = it
		ix.ruled = ix.ruled || len(it.Rules) > 0
	}
	return ix
}

// bind resolves once what the hot paths would otherwise look up per item: each
// template's parent and each catalog item's template.
func (s *System) bind() {
	for i := range s.Templates {
		t := &s.Templates[i]
		if t.Parent != "" {
			t.up = s.resolveTemplate(t.Parent)
		}
	}
	for _, it := range s.Catalog {
		it.tmpl = s.lookupTemplate(it)
		it.sys, it.self = s, it
		it.folded, it.foldedFrom = ruleset.FoldName(it.Name), it.Name
	}
}

// TemplateByID returns a template of the system, or nil.
func (s *System) TemplateByID(id string) *Template { return s.index.templates[id] }

// FeatureByKey returns a core feature or one of the system's, or nil.
func (s *System) FeatureByKey(key string) *Feature { return s.index.features[key] }

// CatalogItem returns a catalog item by id, or nil.
func (s *System) CatalogItem(id string) *Item { return s.index.catalog[id] }

// inCatalog reports whether it is one of the system's catalog items, as
// CatalogItem(it.ID) == it does (catalog ids are unique, so each is its id's) without
// looking it up: Keep asks it of every entry of a holdings on every tag.
func (s *System) inCatalog(it *Item) bool { return it != nil && it.self == it && it.sys == s }

// resolveTemplate finds a template by id, else by what a legacy group id is now (a
// template may share its id with the group it was in, and then it is the one meant).
func (s *System) resolveTemplate(id string) *Template {
	if t := s.index.templates[id]; t != nil {
		return t
	}
	return s.index.templates[s.TemplateAlias(id)]
}

// TemplateAlias returns the template a legacy group id is now, else id itself.
func (s *System) TemplateAlias(id string) string {
	if a, ok := s.LegacyGroups[id]; ok {
		return a
	}
	return id
}

// Lineage returns a template and those it is under, up to its top one.
func (s *System) Lineage(t *Template) []*Template {
	var out []*Template
	for t := range s.lineage(t) {
		out = append(out, t)
	}
	return out
}

// lineage walks a template and those it is under without allocating (the hot paths ask
// it for every item).
func (s *System) lineage(t *Template) iter.Seq[*Template] {
	return func(yield func(*Template) bool) {
		t := t
		for depth := 0; t != nil && depth < MaxTemplateDepth; depth++ {
			if !yield(t) {
				return
			}
			t = t.up
		}
	}
}

// Top returns the top template a template is under (itself when it has no parent).
func (s *System) Top(t *Template) *Template {
	l := s.Lineage(t)
	if len(l) == 0 {
		return t
	}
	return l[len(l)-1]
}

// RenameCategory returns the category a template's item with category c has now: the
// system's renamedCategories for the template or any it is under, else c.
func (s *System) RenameCategory(templateID, c string) string {
	for _, t := range s.Lineage(s.TemplateByID(templateID)) {
		if n, ok := s.RenamedCategories[t.ID][c]; ok {
			return n
		}
	}
	return c
}
