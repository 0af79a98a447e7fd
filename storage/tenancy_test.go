package storage

import "testing"

// TestRulesetHome: an imported id is the guild's own, a built-in's is everyone's.
func TestRulesetHome(t *testing.T) {
	for _, c := range []struct{ guild, id, want string }{
		{"g1", "local/ember", "g1"},
		{"g1", "low-vell", ""},
		{"", "local/ember", ""},
		{"", "dnd5e-srd", ""},
	} {
		if got := RulesetHome(c.guild, c.id); got != c.want {
			t.Errorf("RulesetHome(%q, %q) = %q, want %q", c.guild, c.id, got, c.want)
		}
	}
}
