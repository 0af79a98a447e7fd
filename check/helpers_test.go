package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// referenceDir is the public Marinara corpus, used where it is.
const referenceDir = "../../shared/reference/marinara"

func loadRuleset(t testing.TB, path string) *ruleset.Ruleset {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rs, ps := ruleset.Parse(data)
	if len(ps) > 0 {
		t.Fatalf("%s: %v", path, ps)
	}
	return rs
}

func reference(t testing.TB, name string) *ruleset.Ruleset {
	return loadRuleset(t, filepath.Join(referenceDir, name))
}

func lowVell(t testing.TB) *ruleset.Ruleset {
	return loadRuleset(t, "../content/rulesets/low-vell.json")
}

// card is a card on rs with the given ability scores and skill or save tiers.
func card(rs *ruleset.Ruleset, abilities map[string]float64, tiers map[string]string) *sheet.Card {
	c := sheet.NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	c.Build.Abilities, c.Build.Skills, c.Build.Saves = map[string]float64{}, map[string]string{}, map[string]string{}
	c.Build.Fields, c.Build.Lists = map[string]any{}, map[string][]sheet.Row{}
	for k, v := range abilities {
		c.Build.Abilities[k] = v
	}
	for k, v := range tiers {
		if findSkillLike(rs.Sheet.Saves, k) != nil {
			c.Build.Saves[k] = v
		} else {
			c.Build.Skills[k] = v
		}
	}
	return c
}

// request reads one [skill_check:] tag.
func request(t testing.TB, text string) Request {
	t.Helper()
	m := parser.Read(text)
	if len(m.Tags) != 1 {
		t.Fatalf("%q: %d tags", text, len(m.Tags))
	}
	r, err := RequestOf(m.Tags[0])
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return r
}

// resolve rolls one check tag for c with a fixed seed and returns the result and its
// write-back.
func resolve(t testing.TB, rs *ruleset.Ruleset, c *sheet.Card, text string, seed uint64) (Result, string) {
	t.Helper()
	var v *sheet.Values
	if c != nil {
		v = sheet.Evaluate(rs, c, nil)
	}
	res, err := Resolve(rs, v, request(t, text), Seeded(seed))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	tag := parser.Read(text).Tags[0]
	return res, tag.WriteRecord(res.Record())
}

// wantRecord checks a write-back, and that it reads again as one check request (its
// numbers dropped: read again, it would be rolled anew).
func wantRecord(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("record\n got %s\nwant %s", got, want)
	}
	if m := parser.Read(got); len(m.Tags) != 1 || m.Tags[0].Kind != parser.SkillCheck || m.Tags[0].Malformed || !strings.HasPrefix(got, "[skill_check:") {
		t.Errorf("record %s does not read back as one check", got)
	}
}

func request2tag(t testing.TB, text string) parser.Tag {
	t.Helper()
	return parser.Read(text).Tags[0]
}
