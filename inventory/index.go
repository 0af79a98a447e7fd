package inventory

import (
	"iter"
	"sync/atomic"

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
	// restored is the catalog item of each entry of the holdings Restore read last
	// (nil where an entry embeds its own): see catalogHint.
	restored atomic.Pointer[[]*Item]
}

// catalogHint is the catalog item entry i of the holdings Restore read last had, when
// that item's id is id; else nil. A card's holdings are restored on every message, and
// finding each of its hundreds of ids in the catalog's map again was most of what
// restoring them cost; comparing an id with the one the entry had last time is a
// fraction of that. Catalog ids are unique, so an item whose id is id is the one
// CatalogItem(id) finds: a hint from another card's holdings is never wrong, only no
// help (and then the map answers).
func catalogHint(hint []*Item, i int, id string) *Item {
	if i < len(hint) && hint[i] != nil && hint[i].ID == id {
		return hint[i]
	}
	return nil
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

// hints is what the last Restore kept for the next (catalogHint); none without an index.
func (ix *index) hints() []*Item {
	if ix == nil {
		return nil
	}
	if p := ix.restored.Load(); p != nil {
		return *p
	}
	return nil
}

// keepRestored makes the catalog items of restored entries the hints the next Restore
// reads (catalogHint).
func (ix *index) keepRestored(slab []Entry) {
	if ix == nil {
		return
	}
	items := make([]*Item, len(slab))
	for i := range slab {
		if it := slab[i].Item; it != nil && it.self == it {
			items[i] = it
		}
	}
	ix.restored.Store(&items)
}
