package sheet

import (
	"os"
	"path/filepath"
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
)

// referenceDir is the public Marinara corpus, used where it is.
const referenceDir = "../../shared/reference/marinara"

// referenceFiles are every ruleset of the corpus.
var referenceFiles = []string{
	"ember-roads.json",
	"gravewatch.json",
	"ruleset-5e-2014.example.json",
	"5e-2014/ruleset.json",
}

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

func fixture(t testing.TB, name string) *ruleset.Ruleset {
	return loadRuleset(t, filepath.Join("testdata", "core", name))
}

// fataler is what tag needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// tag reads one sheet tag.
func tag(t fataler, text string) parser.Tag {
	t.Helper()
	m := parser.Read(text)
	if len(m.Tags) != 1 {
		t.Fatalf("%q: %d tags", text, len(m.Tags))
	}
	return m.Tags[0]
}

// newCard is an empty card on rs.
func newCard(rs *ruleset.Ruleset, name string) *Card {
	return NewCard(name, rs.ID, rs.Version, rs.Sheet.Version)
}

// run applies one tag to card (who defaults to it) and returns the outcome.
func run(t testing.TB, rs *ruleset.Ruleset, card *Card, text string) Outcome {
	t.Helper()
	return Apply(rs, []*Card{card}, tag(t, text), Options{Default: card.Name}).Outcome
}

// use applies op="use" of the entry name (pool: the upcast, "" for none) to card through
// Apply, as the bot does, and returns the outcome and the changes.
func use(t fataler, rs *ruleset.Ruleset, card *Card, entries Entries, name, pool string) (Outcome, []Change) {
	t.Helper()
	text := `[sheet: op="use" name="` + name + `"`
	if pool != "" {
		text += ` pool="` + pool + `"`
	}
	res := Apply(rs, []*Card{card}, tag(t, text+`]`), Options{Default: card.Name, Catalogs: entries})
	return res.Outcome, res.Changes()
}

// now is the write-back summary of an outcome: now for ok, "refused <reason>[ bounds]".
func summary(o Outcome) string {
	if o.OK() {
		return o.Now
	}
	s := "refused " + string(o.Reason)
	if o.Bounds != "" {
		s += " " + o.Bounds
	}
	return s
}

// inlineEntries finds entries in a ruleset's inline catalogs. In production package
// catalog's Index is sheet's Entries; catalog imports sheet, so sheet's own tests use this
// plain walk instead.
type inlineEntries struct{ rs *ruleset.Ruleset }

func inline(rs *ruleset.Ruleset) inlineEntries { return inlineEntries{rs} }

func (f inlineEntries) Entry(catalogID, entryID string) (*ruleset.Entry, bool) {
	cat := f.rs.Catalog(catalogID)
	if cat == nil {
		return nil, false
	}
	for i := range cat.Entries {
		if cat.Entries[i].ID == entryID {
			return &cat.Entries[i], true
		}
	}
	return nil, false
}

// entriesFunc is a test's own entry lookup as an Entries.
type entriesFunc func(catalogID, entryID string) (*ruleset.Entry, bool)

func (f entriesFunc) Entry(catalogID, entryID string) (*ruleset.Entry, bool) {
	return f(catalogID, entryID)
}
