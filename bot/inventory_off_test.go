package bot

import (
	"strings"
	"testing"
)

// TestInventoryCommandsNotEnabled: on a campaign without inventories (a ruleset with no
// items, no system named) every command that needs them is refused in the one wording,
// saying what is missing and why.
func TestInventoryCommandsNotEnabled(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "dnd5e-srd")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")
	const why = "it names no game system and its ruleset has no items"
	for _, c := range []struct {
		u       User
		name    string
		opts    []string
		missing string
	}{
		{ana, "inventory", nil, "nothing to show"},
		{gmUser, "coins add", []string{"name", "Mira", "amount", "2 gp"}, "no purses"},
		{gmUser, "shop open", []string{"name", "The Eel"}, "no shop"},
		{ana, "trade offer", []string{"to", "Mira", "give", "Rope"}, "nothing to trade"},
	} {
		r := m.run(c.u, c.name, c.opts...)
		if want := "this campaign has no inventories, so " + c.missing + ": " + why; !r.Ephemeral || !strings.Contains(r.Content, want) {
			t.Errorf("/%s: %q, want %q", c.name, r.Content, want)
		}
	}
}
