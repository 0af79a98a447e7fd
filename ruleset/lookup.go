package ruleset

import "slices"

// Lookups by id on the model, so a reader asks for "the sheet's field hp" rather than
// walking a slice. Each returns the first declaration with the id (a duplicate is
// reported by the checks on its own) or nil. They walk the slice: a sheet declares a few
// dozen of each, and the checks that look names up in bulk use sheetNames's maps. ByName
// looks up what a person typed instead: an id first, else a label.

func byID[T any](items []T, id string, key func(*T) string) *T {
	for i := range items {
		if key(&items[i]) == id {
			return &items[i]
		}
	}
	return nil
}

// Field returns the sheet's field id, or nil.
func (s *Sheet) Field(id string) *Field {
	return byID(s.Fields, id, func(f *Field) string { return f.ID })
}

// List returns the sheet's list id, or nil.
func (s *Sheet) List(id string) *List { return byID(s.Lists, id, func(l *List) string { return l.ID }) }

// DerivedValue returns the sheet's derived value id, or nil.
func (s *Sheet) DerivedValue(id string) *Derived {
	return byID(s.Derived, id, func(d *Derived) string { return d.ID })
}

// Section returns the sheet's section id, or nil.
func (s *Sheet) Section(id string) *Section {
	return byID(s.Sections, id, func(t *Section) string { return t.ID })
}

// Ability returns the sheet's ability id, or nil.
func (s *Sheet) Ability(id string) *Ability {
	return byID(s.Abilities, id, func(a *Ability) string { return a.ID })
}

// Skill returns the sheet's skill id, or nil.
func (s *Sheet) Skill(id string) *Skill {
	return byID(s.Skills, id, func(k *Skill) string { return k.ID })
}

// Save returns the sheet's save id, or nil.
func (s *Sheet) Save(id string) *Skill {
	return byID(s.Saves, id, func(k *Skill) string { return k.ID })
}

// Pool returns the live pool id, or nil.
func (l *Live) Pool(id string) *LivePool {
	return byID(l.Pools, id, func(p *LivePool) string { return p.ID })
}

// Track returns the live track id, or nil.
func (l *Live) Track(id string) *Track {
	return byID(l.Tracks, id, func(t *Track) string { return t.ID })
}

// State returns the live state id, or nil.
func (l *Live) State(id string) *State {
	return byID(l.States, id, func(t *State) string { return t.ID })
}

// Condition returns the live condition id, or nil.
func (l *Live) Condition(id string) *Condition {
	return byID(l.Conditions, id, func(k *Condition) string { return k.ID })
}

// Rest returns the ruleset's rest id, or nil.
func (rs *Ruleset) Rest(id string) *Rest {
	return byID(rs.Rests, id, func(r *Rest) string { return r.ID })
}

// Catalog returns the catalog id, or nil.
func (rs *Ruleset) Catalog(id string) *Catalog {
	return byID(rs.Catalogs, id, func(c *Catalog) string { return c.ID })
}

// Layer returns the ruleset's layer id, or nil.
func (rs *Ruleset) Layer(id string) *Layer {
	return byID(rs.Layers, id, func(l *Layer) string { return l.ID })
}

// Filter returns the catalog's filter id, or nil.
func (cat *Catalog) Filter(id string) *CatalogFilter {
	return byID(cat.Filters, id, func(f *CatalogFilter) string { return f.ID })
}

// Column returns the list's column id, or nil.
func (l *List) Column(id string) *Column {
	return byID(l.Columns, id, func(c *Column) string { return c.ID })
}

// ByName finds the item a person named: the first whose id folds (FoldName) to name's
// fold, else the first whose other names (names(item)[1:]: a label, a short form) do.
// Ids win over labels, so an id can never be shadowed by another item's label. An empty
// name finds nothing.
func ByName[T any](items []T, name string, names func(*T) []string) *T {
	want := FoldName(name)
	if want == "" {
		return nil
	}
	for pass := range 2 {
		for i := range items {
			ns := names(&items[i])
			if pass == 0 && FoldName(ns[0]) == want {
				return &items[i]
			}
			if pass == 1 && slices.ContainsFunc(ns[1:], func(n string) bool { return n != "" && FoldName(n) == want }) {
				return &items[i]
			}
		}
	}
	return nil
}
