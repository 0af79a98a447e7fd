package ruleset

import (
	"os"
	"testing"
)

func TestLookupsByID(t *testing.T) {
	raw, err := os.ReadFile(corpus + "ember-roads.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	s := &l.Sheet
	found := []bool{
		s.Field(s.Fields[0].ID) == &s.Fields[0],
		s.List(s.Lists[0].ID) == &s.Lists[0],
		s.Section(s.Sections[0].ID) == &s.Sections[0],
		s.Ability(s.Abilities[0].ID) == &s.Abilities[0],
		s.DerivedValue(s.Derived[0].ID) == &s.Derived[0],
		s.Live.Pool(s.Live.Pools[0].ID) == &s.Live.Pools[0],
		s.Live.Track(s.Live.Tracks[0].ID) == &s.Live.Tracks[0],
		l.Rest(l.Rests[0].ID) == &l.Rests[0],
		l.Catalog(l.Catalogs[0].ID) == &l.Catalogs[0],
		s.Lists[0].Column(s.Lists[0].Columns[0].ID) == &s.Lists[0].Columns[0],
	}
	for i, ok := range found {
		if !ok {
			t.Errorf("lookup %d: not the declaration", i)
		}
	}
	if s.Field("nope") != nil || s.Live.State("nope") != nil || s.Live.Condition("nope") != nil || l.Catalogs[0].Filter("nope") != nil {
		t.Error("an unknown id found")
	}
}
