// Package fightfixture is the fight fixture the fight and creature tests both break one
// thing at a time: where it is, how a JSON edit is made on it, the dice-pool variant and
// the creature paths problems name. It imports no ruleset package, so a test of
// either package can use it.
package fightfixture

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Edit changes the fight fixture in one place: {path, value}, value being JSON text set
// at path, or "" to delete the key or element there. A pair rather than a struct, so
// the hundreds of table cases stay one short literal each.
type Edit [2]string

// Path is where the edit is made.
func (e Edit) Path() string { return e[0] }

// Value is the JSON text set there, "" to delete.
func (e Edit) Value() string { return e[1] }

// segment matches one step of an edit path: a key, optionally with an index.
var segment = regexp.MustCompile(`^([^.\[]*)((?:\[\d+\])*)$`)

// apply makes one edit on a generic JSON document.
func apply(t testing.TB, doc any, e Edit) any {
	t.Helper()
	var steps []any
	for _, part := range strings.Split(e.Path(), ".") {
		m := segment.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("bad path %q", e.Path())
		}
		if m[1] != "" {
			steps = append(steps, m[1])
		}
		for _, ix := range regexp.MustCompile(`\d+`).FindAllString(m[2], -1) {
			n, _ := strconv.Atoi(ix)
			steps = append(steps, n)
		}
	}
	var val any
	if e.Value() != "" {
		if err := json.Unmarshal([]byte(e.Value()), &val); err != nil {
			t.Fatalf("bad value %q: %v", e.Value(), err)
		}
	}
	var set func(node any, steps []any) any
	set = func(node any, steps []any) any {
		switch k := steps[0].(type) {
		case string:
			m, ok := node.(map[string]any)
			if !ok {
				t.Fatalf("%s: %q is not inside an object", e.Path(), k)
			}
			switch {
			case len(steps) > 1:
				m[k] = set(m[k], steps[1:])
			case e.Value() == "":
				delete(m, k)
			default:
				m[k] = val
			}
			return m
		default:
			i := k.(int)
			a, ok := node.([]any)
			if !ok || i > len(a) {
				t.Fatalf("%s: no element %d", e.Path(), i)
			}
			switch {
			case len(steps) > 1:
				a[i] = set(a[i], steps[1:])
			case e.Value() == "":
				a = append(a[:i], a[i+1:]...)
			case i == len(a):
				a = append(a, val)
			default:
				a[i] = val
			}
			return a
		}
	}
	return set(doc, steps)
}

// Edited reads the fixture at path (testdata/fight/base.json, relative to the test),
// makes the edits in order and returns the JSON to parse.
func Edited(t testing.TB, path string, edits ...Edit) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		doc = apply(t, doc, e)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Creature paths in the fixture, as problems name them: the bare path an edit takes, and
// the path a problem carries with its catalog/entry.
const (
	Jackal   = "catalogs[1].entries[0].creature"
	JackalAt = "catalogs[1].entries[0] (trouble/jackal).creature"
	Warden   = "catalogs[1].entries[1].creature"
	WardenAt = "catalogs[1].entries[1] (trouble/warden).creature"
	// Ghoul is the one creature of the Pooled variant.
	Ghoul   = "catalogs[1].entries[0].creature"
	GhoulAt = "catalogs[1].entries[0] (trouble/ghoul).creature"
)

// Pooled turns the fixture into a dice-pool ruleset whose fights throw d10 pools
// on a wound track, with initiative as a number attacks move and one d10 creature.
var Pooled = []Edit{
	{"resolution", `{"kind":"dice-pool","die":{"sides":10},"abilityModifier":{"op":"identity"},
		"proficiencyTiers":[{"id":"untrained","label":"Untrained"},{"id":"trained","label":"Trained","flat":2}],
		"target":{"default":7,"min":6,"max":8},"difficultyLadder":[{"label":"Hard","successes":2}]}`},
	{"combat.kind", `"dice-pool"`},
	{"combat.attackRoll", ``},
	{"combat.conditions[0].modifiers[1]", ``},
	{"combat.health", `{"track":"harm"}`},
	{"combat.damageKinds", `{"default":"knock","byType":{"cut":"gash"},"marks":"per-point"}`},
	{"combat.pool", `{"advantage":true,"damageTarget":6,"soak":{"roll":true,"byKind":{"knock":{"abilityMod":"brawn"}}},"hardness":{"const":1}}`},
	{"combat.initiative", `{"pool":{"abilityMod":"wits"},"plus":1,"resource":{"base":3,
		"styles":[{"id":"press","label":"Press","takes":{"gain":1}},{"id":"tell","label":"Telling","spends":{"onMiss":[[0,1],[6,2]]}}],
		"crash":{"at":0,"condition":"down","bonus":2,"recoverAfter":2}}}`},
	{"catalogs[1].entries", `[{"id":"ghoul","label":"Ghoul","creature":{"health":9,"defense":2,"initiativeModifier":3,"tier":"pack",
		"soak":{"all":1,"byKind":{"gash":2}},"hardness":2,
		"actions":[{"id":"claw","name":"Claw","budget":"act","toHit":4,"damage":{"dice":"2d10","type":"cut","plus":[{"dice":"1d10"}]}}],
		"riders":[{"id":"rot","name":"Rot","on":"hit","oncePer":"round","amount":{"dice":"1d10"}}]}}]`},
}
