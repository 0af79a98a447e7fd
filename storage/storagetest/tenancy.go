package storagetest

import (
	"slices"
	"testing"

	"sheetkeeper/storage"
)

// testGuildRulesets: rulesets live in one guild's namespace each (SPEC 8.1 tenancy). The
// same id and version installed by two guilds are two records, each found only in its
// own guild; the shared namespace "" is a namespace like the others (its keys start
// with the separator, so a guild whose id is a prefix of another's, or the empty one,
// never reaches into a neighbour); a guild id holding a NUL byte is refused as Invalid.
func testGuildRulesets(t *testing.T, s storage.Store) {
	recs := []*storage.RulesetRecord{
		{Guild: "g1", ID: "local/ember", Version: 1, Name: "Ember of g1", Digest: "a", File: []byte(`{"g":1}`), InstalledBy: "u1", InstalledAt: When},
		{Guild: "g1", ID: "local/ember", Version: 2, Name: "Ember of g1", Digest: "b", File: []byte(`{"g":1,"v":2}`), InstalledAt: When},
		{Guild: "g10", ID: "local/ember", Version: 1, Name: "Ember of g10", Digest: "c", File: []byte(`{"g":10}`), InstalledAt: When},
		{Guild: "g2", ID: "local/other", Version: 4, Name: "Other", Digest: "d", File: []byte(`{}`), InstalledAt: When},
		{Guild: "", ID: "low-vell", Version: 1, Name: "Low Vell", Digest: "e", File: []byte(`{}`), InstalledAt: When},
		{Guild: "", ID: "local/ember", Version: 1, Name: "Ember of the console", Digest: "f", File: []byte(`{"console":1}`), InstalledAt: When},
	}
	putRulesets(t, s, recs)
	view(t, s, func(tx storage.Tx) error {
		for guild, want := range map[string][]int{"g1": {1, 2}, "g10": {1}, "": {1}, "g2": nil, "g": nil} {
			vs, err := tx.RulesetVersions(guild, "local/ember")
			must(err)
			if !slices.Equal(vs, want) {
				t.Fatalf("versions of local/ember in %q: %v, want %v", guild, vs, want)
			}
		}
		for guild, want := range map[string][]string{"g1": {"local/ember"}, "g2": {"local/other"}, "": {"local/ember", "low-vell"}, "g3": nil} {
			ids, err := tx.RulesetIDs(guild)
			must(err)
			if !slices.Equal(ids, want) {
				t.Fatalf("ids in %q: %q, want %q", guild, ids, want)
			}
		}
		_, err := tx.Ruleset("g2", "local/ember", 1)
		notFound(t, "another guild's ruleset", err)
		_, err = tx.Ruleset("g1", "low-vell", 1)
		notFound(t, "a shared record looked up in a guild's namespace", err)
		_, err = tx.Ruleset("bad\x00guild", "local/ember", 1)
		wantKind(t, "a guild id with a NUL byte", err, storage.Invalid)
		_, err = tx.RulesetIDs("bad\x00guild")
		wantKind(t, "ids of a guild id with a NUL byte", err, storage.Invalid)
		return nil
	})
	update(t, s, func(tx storage.Tx) error {
		err := tx.PutRuleset(&storage.RulesetRecord{Guild: "g\x00", ID: "local/x", Version: 1, File: []byte("{}")})
		wantKind(t, "putting into a guild id with a NUL byte", err, storage.Invalid)
		return nil
	})
}
