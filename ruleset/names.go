package ruleset

// sheetNames indexes the sheet's names once, so every check and every region resolves
// a name in one map lookup. Built by checkCore before anything reads it; on a
// duplicated id the first declaration wins (the duplicate is reported on its own).
type sheetNames struct {
	sheet      *Sheet
	fields     map[string]*Field
	lists      map[string]*List
	pools      map[string]*LivePool
	groups     map[string][]*LivePool
	abilities  map[string]*Ability
	skills     map[string]*Skill
	saves      map[string]*Skill
	conditions map[string]*Condition
	tracks     map[string]*Track
	states     map[string]*State
	text       map[string]*LiveText
	tiers      map[string]*ProficiencyTier
	sections   map[string]*Section
	// derivedIndex is each derived value's position; derivedReads what it depends on,
	// memoised once derivedDone (after the derived values are decoded).
	derivedIndex map[string]int
	derivedReads []refReads
	derivedDone  []bool
	// bonus is the proficiency bonus every skill and save number includes.
	bonus *ValueRef
}

func index[T any](items []T, id func(*T) string) map[string]*T {
	m := make(map[string]*T, len(items))
	for i := range items {
		k := id(&items[i])
		if _, dup := m[k]; !dup {
			m[k] = &items[i]
		}
	}
	return m
}

func newSheetNames(rs *Ruleset) *sheetNames {
	s := &rs.Sheet
	n := &sheetNames{
		sheet:        s,
		fields:       index(s.Fields, func(f *Field) string { return f.ID }),
		lists:        index(s.Lists, func(l *List) string { return l.ID }),
		pools:        index(s.Live.Pools, func(p *LivePool) string { return p.ID }),
		groups:       map[string][]*LivePool{},
		abilities:    index(s.Abilities, func(a *Ability) string { return a.ID }),
		skills:       index(s.Skills, func(k *Skill) string { return k.ID }),
		saves:        index(s.Saves, func(k *Skill) string { return k.ID }),
		conditions:   index(s.Live.Conditions, func(k *Condition) string { return k.ID }),
		tracks:       index(s.Live.Tracks, func(t *Track) string { return t.ID }),
		states:       index(s.Live.States, func(t *State) string { return t.ID }),
		text:         index(s.Live.Text, func(t *LiveText) string { return t.ID }),
		tiers:        index(rs.Resolution.ProficiencyTiers, func(t *ProficiencyTier) string { return t.ID }),
		sections:     index(s.Sections, func(t *Section) string { return t.ID }),
		derivedIndex: make(map[string]int, len(s.Derived)),
		derivedReads: make([]refReads, len(s.Derived)),
		derivedDone:  make([]bool, len(s.Derived)),
	}
	if p := rs.Resolution.Proficiency; p != nil {
		n.bonus = &p.Bonus
	}
	for i := range s.Live.Pools {
		if p := &s.Live.Pools[i]; p.Group != "" {
			n.groups[p.Group] = append(n.groups[p.Group], p)
		}
	}
	for i, d := range s.Derived {
		if _, dup := n.derivedIndex[d.ID]; !dup {
			n.derivedIndex[d.ID] = i
		}
	}
	return n
}

// field returns the sheet field id, or nil.
func (n *sheetNames) field(id string) *Field { return n.fields[id] }

// list returns the list id, or nil; List.Column finds its columns.
func (n *sheetNames) list(id string) *List { return n.lists[id] }

// pool returns the live pool id, or nil.
func (n *sheetNames) pool(id string) *LivePool { return n.pools[id] }

// isGroup reports whether id names a pool group.
func (n *sheetNames) isGroup(id string) bool { return len(n.groups[id]) > 0 }

func (n *sheetNames) ability(id string) *Ability      { return n.abilities[id] }
func (n *sheetNames) skill(id string) *Skill          { return n.skills[id] }
func (n *sheetNames) save(id string) *Skill           { return n.saves[id] }
func (n *sheetNames) condition(id string) *Condition  { return n.conditions[id] }
func (n *sheetNames) track(id string) *Track          { return n.tracks[id] }
func (n *sheetNames) state(id string) *State          { return n.states[id] }
func (n *sheetNames) liveText(id string) *LiveText    { return n.text[id] }
func (n *sheetNames) tier(id string) *ProficiencyTier { return n.tiers[id] }
func (n *sheetNames) section(id string) *Section      { return n.sections[id] }

// derived returns the derived value id, or nil.
func (n *sheetNames) derived(id string) *Derived {
	if i, ok := n.derivedIndex[id]; ok {
		return &n.sheet.Derived[i]
	}
	return nil
}
