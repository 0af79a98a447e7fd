package sheet

import (
	"math"
	"reflect"
	"sync"
	"testing"
)

// TestSameBuild: a copy is the same build; a change to anything evaluation reads is not,
// down to a number's sign and a cell's kind.
func TestSameBuild(t *testing.T) {
	base := benchCard().Build
	base.Lists["feats"] = []Row{} // empty, not nil: "list nil" differs from it only so
	if c := base.clone(); !sameBuild(&base, &c) {
		t.Fatal("a copy is not the same build")
	}
	for name, change := range map[string]func(b *Build){
		"ability":    func(b *Build) { b.Abilities["str"] = 11 },
		"skill tier": func(b *Build) { b.Skills["arcana"] = "expertise" },
		"save added": func(b *Build) { b.Saves["str"] = "proficient" },
		"bonus":      func(b *Build) { b.Bonuses = map[string]float64{"arcana": 1} },
		"field":      func(b *Build) { b.Fields["gold"] = 2e6 },
		"field kind": func(b *Build) { b.Fields["gold"] = "1000000" },
		"minus zero": func(b *Build) { b.Fields["field-00"] = math.Copysign(0, -1) },
		"NaN":        func(b *Build) { b.Fields["field-00"] = math.NaN() },
		"row cell":   func(b *Build) { b.Lists["spells"][1]["level"] = 2.0 },
		"row added":  func(b *Build) { b.Lists["spells"] = append(b.Lists["spells"], Row{"name": "Sleep"}) },
		"list nil":   func(b *Build) { b.Lists["feats"] = nil },
	} {
		c := base.clone()
		change(&c)
		if sameBuild(&base, &c) {
			t.Errorf("%s: still the same build", name)
		}
	}
	nan := base.clone()
	nan.Fields["field-00"] = math.NaN()
	if again := nan.clone(); !sameBuild(&nan, &again) {
		t.Error("a NaN field (same bits) is not the same build as its copy")
	}
}

// TestBuildsConcurrent: messages on many goroutines share one Builds (go test -race) and
// each does exactly what Apply does.
func TestBuildsConcurrent(t *testing.T) {
	rs := reference(t, "ruleset-5e-2014.example.json")
	base := newCard(rs, "Mira")
	base.Build.Fields = casterFields()
	tags := []string{`[sheet: op="damage" pool="hp" amount="7"]`, `[sheet: op="spend" pool="slots_1" amount="1"]`,
		`[sheet: op="advance" field="level" by="1"]`, `[sheet: op="restore" pool="slots_1" amount="1"]`}
	builds := NewBuilds(rs)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			card, want := base.Clone(), base.Clone()
			for i := range 20 {
				text := tags[(g+i)%len(tags)]
				got := builds.Applier().Apply([]*Card{card}, tag(t, text), Options{Default: "Mira"})
				if w := Apply(rs, []*Card{want}, tag(t, text), Options{Default: "Mira"}); !reflect.DeepEqual(got, w) {
					t.Errorf("%s: got %+v, want %+v", text, got, w)
					return
				}
			}
		})
	}
	wg.Wait()
}
