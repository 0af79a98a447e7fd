package suggest

import (
	"slices"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	for _, c := range []struct {
		typed string
		names []string
		want  []string
	}{
		{"ember dat", []string{"Last Ember", "Ember Ward", "Ember Dart", "Kindle Wick"}, []string{"Ember Dart"}},
		{"soaked", []string{"Shaken", "Pinned"}, nil},
		{"stelth", []string{"Athletics", "Stealth", "Strength", "Insight"}, []string{"Stealth"}},
		{"mria", []string{"Bram", "Mira", "Ash"}, []string{"Mira"}},
		{"hpp", []string{"hp", "Hit Points", "ki"}, []string{"hp"}},
		{"hq", []string{"hp", "Hit Points", "ki"}, []string{"hp"}},
		{"reset", []string{"pick", "rest", "refresh", "sheet"}, []string{"rest"}},
		// a word's start finds it, after every name a typo away
		{"fire", []string{"Fire Bolt", "Wall of Fire", "Fury", "Spark", "Fir"}, []string{"Fir", "Fire Bolt", "Wall of Fire"}},
		// at most Most, nearest first, each folded name once
		{"slot", []string{"slots_1", "Slots_1", "slots_2", "slots_3", "slots_4"}, []string{"slots_1", "slots_2", "slots_3"}},
		// nothing close, nothing typed, too long, or the very name
		{"xyzzy", []string{"Stealth", "Mira"}, nil},
		{"  ", []string{"Stealth"}, nil},
		{strings.Repeat("a", 65), []string{strings.Repeat("a", 64)}, nil},
		{"MIRA ", []string{"Mira"}, nil},
	} {
		got := Closest(c.typed, c.names)
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("Closest(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		typed string
		names []string
		want  string
	}{
		{"mria", []string{"Mira"}, " — did you mean Mira?"},
		{"ember dat", []string{"Ember Dart", "Ember Darts"}, " — did you mean Ember Dart or Ember Darts?"},
		{"slot", []string{"slots_1", "slots_2", "slots_3"}, " — did you mean slots_1, slots_2 or slots_3?"},
		{"xyzzy", []string{"Mira"}, ""},
	} {
		if got := DidYouMean(c.typed, c.names); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.typed, got, c.want)
		}
	}
}

// BenchmarkClosest is a miss against a big catalog's names: the cost a refusal pays.
func BenchmarkClosest(b *testing.B) {
	names := make([]string, 2000)
	for i := range names {
		names[i] = "Entry number " + strings.Repeat("x", i%20)
	}
	b.ReportAllocs()
	for b.Loop() {
		Closest("entry numbr xxxxx", names)
	}
}

func TestClosestOf(t *testing.T) {
	type ability struct{ id, label, short string }
	abilities := []ability{{"glow", "Glow", "GLW"}, {"nerve", "Nerve", "NRV"}, {"wit", "Wit", "WIT"}}
	names := func(a *ability) []string { return []string{a.label, a.id, a.short} }
	for typed, want := range map[string][]string{
		"glwo":  {"Glow"}, // one per thing, though GLW is as close
		"nrve":  {"Nerve"},
		"NRV":   nil, // the very name of a thing is no typo
		"xyzzy": nil,
	} {
		if got := ClosestOf(typed, abilities, names); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("ClosestOf(%q) = %q, want %q", typed, got, want)
		}
	}
	if got := DidYouMeanOf("glwo", abilities, names); got != " — did you mean Glow?" {
		t.Errorf("DidYouMeanOf = %q", got)
	}
}
