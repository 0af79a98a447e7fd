package ruleset

import (
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/ruleset/rules"
)

// fightSheet answers the fight checks' questions about the sheet from the checker's name
// indexes, turning the sheet's types into the few facts a fight reads.
type fightSheet struct{ c *checker }

var _ fight.Sheet = fightSheet{}

func (s fightSheet) Declares(kind fight.Name, id string) bool {
	n := s.c.names
	switch kind {
	case fight.Skill:
		return n.skill(id) != nil
	case fight.Save:
		return n.save(id) != nil
	case fight.Condition:
		return n.condition(id) != nil
	case fight.LiveText:
		return n.liveText(id) != nil
	case fight.Derived:
		_, ok := n.derivedIndex[id]
		return ok
	case fight.List:
		return n.list(id) != nil
	case fight.PoolList:
		l := n.list(id)
		return l != nil && l.Pools != nil
	}
	return false
}

func (s fightSheet) Track(id string) (fight.Track, bool) {
	t := s.c.names.track(id)
	if t == nil {
		return fight.Track{}, false
	}
	kinds := make([]string, len(t.Kinds))
	for i, k := range t.Kinds {
		kinds[i] = k.ID
	}
	return fight.Track{Wound: t.IsWound(), Min: t.Min, Max: t.MaxNumber, Hidden: t.HideWhen != nil, Kinds: kinds}, true
}

func (s fightSheet) Pool(id string) (startsFull, ok bool) {
	p := s.c.names.pool(id)
	if p == nil {
		return false, false
	}
	return p.StartsFull(), true
}

func (s fightSheet) ValueRef(ref *rules.ValueRef, path string) { s.c.valueRef(ref, path, readAll()) }

func (s fightSheet) Column(path, list, id, typ string) (fight.Column, bool) {
	f := s.c.columnOfType(path, s.c.names.list(list), id, typ)
	if f == nil {
		return fight.Column{}, false
	}
	return fight.Column{Type: f.Type, Refuses: f.refusesScalar}, true
}

func (s fightSheet) DicePool() (int, bool) {
	r := &s.c.rs.Resolution
	if r.Kind != "dice-pool" {
		return 0, false
	}
	return poolSides(r), true
}

// poolDieSides is the die a dice-pool ruleset throws, 0 for another kind.
func (c *checker) poolDieSides() int {
	sides, _ := fightSheet{c}.DicePool()
	return sides
}
