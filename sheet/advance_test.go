package sheet

import (
	"strings"
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
)

// advanceTag reads one advance tag.
func advanceTag(t *testing.T, text string) parser.Tag {
	t.Helper()
	m := parser.Read(text)
	if len(m.Tags) != 1 || m.Tags[0].Reason != "" {
		t.Fatalf("%s: %+v", text, m.Tags)
	}
	return m.Tags[0]
}

func TestAdvance(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	for _, tc := range []struct {
		tag    string
		result string
		now    string
		reason refusal.Reason
		bounds string
		path   string // the one build change expected on success
		after  any
	}{
		{tag: `op="advance" field="xp" by="250"`, result: "ok", now: "1450", path: "build.fields.xp", after: 1450.0},
		{tag: `op="advance" field="Experience" to="355000"`, result: "ok", now: "355000", path: "build.fields.xp", after: 355000.0},
		{tag: `op="advance" field="xp" to="355001"`, result: "refused", reason: refusal.BadAmount, bounds: "0..355000"},
		{tag: `op="advance" field="xp" by="-1201"`, result: "refused", reason: refusal.BadAmount, bounds: "0..355000"},
		{tag: `op="advance" field="xp" by="100001"`, result: "refused", reason: refusal.BadAmount, bounds: "-100000..100000"},
		{tag: `op="advance" field="level" to="0"`, result: "refused", reason: refusal.BadAmount, bounds: "1..20"},
		{tag: `op="advance" field="level" to="high"`, result: "refused", reason: refusal.BadAmount, bounds: "1..20"},
		{tag: `op="advance" field="focus" by="2"`, result: "ok", now: "4.5", path: "build.fields.focus", after: 4.5},
		{tag: `op="advance" field="focus" by="8"`, result: "refused", reason: refusal.BadAmount, bounds: "0..10"},
		{tag: `op="advance" field="title" to="Archmage"`, result: "ok", now: "Archmage", path: "build.fields.title", after: "Archmage"},
		{tag: `op="advance" field="title" to="Archmage of the Seven Towers"`, result: "refused", reason: refusal.BadAmount, bounds: "0..20"},
		{tag: `op="advance" field="title" by="1"`, result: "refused", reason: refusal.Malformed},
		// maxLength counts UTF-16 units, as Marinara does: 11 emoji are 22 of title's 20.
		{tag: `op="advance" field="title" to="` + strings.Repeat("\U0001F525", 11) + `"`, result: "refused", reason: refusal.BadAmount, bounds: "0..20"},
		{tag: `op="advance" field="backstory" to="Born in the ash."`, result: "ok", now: "Born in the ash.", path: "build.fields.backstory", after: "Born in the ash."},
		{tag: `op="advance" field="school" to="abjuration"`, result: "refused", reason: refusal.NotAllowed},
		{tag: `op="advance" field="slots_max_1" by="1"`, result: "refused", reason: refusal.NotAllowed},
		{tag: `op="advance" field="charm" by="1"`, result: "refused", reason: refusal.UnknownField},
		{tag: `op="advance" ability="str" by="1"`, result: "ok", now: "13", path: "build.abilities.str", after: 13.0},
		{tag: `op="advance" ability="Strength" to="20"`, result: "ok", now: "20", path: "build.abilities.str", after: 20.0},
		{tag: `op="advance" ability="str" to="21"`, result: "refused", reason: refusal.BadAmount, bounds: "1..20"},
		{tag: `op="advance" ability="wis" by="-10"`, result: "refused", reason: refusal.BadAmount, bounds: "1..20"},
		{tag: `op="advance" ability="luck" by="1"`, result: "refused", reason: refusal.UnknownAbility},
		{tag: `op="advance" skill="stealth" tier="expertise"`, result: "ok", now: "Expertise", path: "build.skills.stealth", after: "expertise"},
		{tag: `op="advance" skill="Insight" tier="PROFICIENT"`, result: "ok", now: "Proficient", path: "build.skills.insight", after: "proficient"},
		{tag: `op="advance" skill="insight" tier="Not proficient"`, result: "ok", now: "Not proficient", path: "build.skills.insight", after: "none"},
		{tag: `op="advance" skill="stealth" tier="master"`, result: "refused", reason: refusal.UnknownTier},
		{tag: `op="advance" skill="climb" tier="expertise"`, result: "refused", reason: refusal.UnknownSkill},
		{tag: `op="advance" save="wis_save" tier="proficient"`, result: "refused", reason: refusal.NotAllowed},
		{tag: `op="advance" save="str_save" tier="proficient"`, result: "refused", reason: refusal.UnknownSave},
	} {
		c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
		c.Build.Fields = map[string]any{"xp": 1200.0, "focus": 2.5}
		c.Build.Abilities = map[string]float64{"str": 12}
		before := c.Clone()
		res := Apply(rs, []*Card{c}, advanceTag(t, "[sheet: who=Mira "+tc.tag+"]"), Options{})
		out := res.Outcome
		if string(out.Result) != tc.result || out.Now != tc.now || out.Reason != tc.reason || out.Bounds != tc.bounds {
			t.Errorf("%s: got %+v\nwant %s now=%q reason=%q bounds=%q", tc.tag, out, tc.result, tc.now, tc.reason, tc.bounds)
			continue
		}
		ch := res.Changes()
		if !out.OK() {
			if len(ch) != 0 || !c.Equal(before) {
				t.Errorf("%s: a refused advance changed the card", tc.tag)
			}
			continue
		}
		if len(ch) != 1 || ch[0].Path != tc.path || ch[0].After != tc.after {
			t.Errorf("%s: changes %+v, want %s → %v", tc.tag, ch, tc.path, tc.after)
		}
		if c.SheetVersion != rs.Sheet.Version {
			t.Errorf("%s: sheet version %d", tc.tag, c.SheetVersion)
		}
	}
}

func TestAdvanceNotEnabled(t *testing.T) {
	rs := useRuleset(t, emberPath)
	c := NewCard("Ash", rs.ID, rs.Version, rs.Sheet.Version)
	for _, tag := range []string{`op="advance" field="toughness" by="1"`, `op="advance" ability="heart" to="2"`,
		`op="advance" skill="nothing" tier="trained"`} {
		res := Apply(rs, []*Card{c}, advanceTag(t, "[sheet: who=Ash "+tag+"]"), Options{})
		if res.Outcome.Reason != refusal.NotEnabled {
			t.Errorf("%s: %+v", tag, res.Outcome)
		}
	}
}

// Advancing what a scaled row reads recomputes it: the level steps Channel Power's uses
// up its table, half the level feeds Left Mark, and Heart feeds Last Ember.
func TestAdvanceRescales(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	pickAll(t, rs, c, "features", "channel", "twin-marks")
	counters := func() []float64 {
		var u []float64
		for _, r := range c.Build.Lists["counters"] {
			u = append(u, r["uses"].(float64))
		}
		return u
	}
	if got := counters(); len(got) != 3 || got[0] != 1 || got[1] != 0 || got[2] != 0 {
		t.Fatalf("picked at level 1: %v", got)
	}
	res := Apply(rs, []*Card{c}, tag(t, `[sheet: op="advance" field="level" to="6"]`), Options{Default: c.Name, Catalogs: inline(rs)})
	out, ch := res.Outcome, res.Changes()
	if !out.OK() || out.Now != "6" {
		t.Fatalf("advance: %+v", out)
	}
	if got := counters(); got[0] != 2 || got[1] != 3 || got[2] != 0 {
		t.Fatalf("after level 6: %v", got)
	}
	want := []Change{
		{Card: "Mira", Path: "build.fields.level", After: 6.0},
		{Card: "Mira", Path: "build.lists.counters[0].uses", Before: 1.0, After: 2.0},
		{Card: "Mira", Path: "build.lists.counters[1].uses", Before: 0.0, After: 3.0},
	}
	if len(ch) != len(want) {
		t.Fatalf("changes %+v", ch)
	}
	for i := range want {
		if ch[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, ch[i], want[i])
		}
	}
	Revert(c, ch)
	if got := counters(); got[0] != 1 || got[1] != 0 {
		t.Fatalf("reverted: %v", got)
	}
}

func TestAdvanceParty(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	var party []*Card
	for name, xp := range map[string]float64{"Mira": 1200, "Bram": 950, "Ash": 354900} {
		c := NewCard(name, rs.ID, rs.Version, rs.Sheet.Version)
		c.Build.Fields = map[string]any{"xp": xp}
		party = append(party, c)
	}
	// Map order is random: put them in a known order.
	order := map[string]int{"Mira": 0, "Bram": 1, "Ash": 2}
	sorted := make([]*Card, 3)
	for _, c := range party {
		sorted[order[c.Name]] = c
	}
	res := Apply(rs, sorted, advanceTag(t, `[sheet: op="advance" field="xp" by="250" who="party"]`), Options{})
	if !res.Outcome.OK() || res.Outcome.Now != "Mira 1450; Bram 1200; Ash refused (bad-amount)" {
		t.Fatalf("party: %+v", res.Outcome)
	}
	if sorted[2].Build.Fields["xp"] != 354900.0 || len(res.Cards[2].Changes) != 0 {
		t.Fatalf("Ash changed: %+v", res.Cards[2])
	}
}
