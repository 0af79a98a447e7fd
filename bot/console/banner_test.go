package console

import (
	"testing"

	"sheetkeeper/bot"
	"sheetkeeper/sheet"
)

// TestBanner: nothing for an empty database; a campaign's characters past those named
// and campaigns past those shown are counted; a ruleset the core cannot read now is
// said so, not hidden.
func TestBanner(t *testing.T) {
	if got := Banner(bot.Holdings{}); got != "" {
		t.Errorf("empty database: %q", got)
	}
	h := bot.Holdings{
		Campaigns: 12,
		Shown: []bot.HeldCampaign{
			{ChannelID: "table", Ruleset: sheet.RulesetRef{ID: "low-vell", Version: 1}, Name: "Low Vell", Characters: []string{"Bram", "Mira"}, Cards: 13},
			{ChannelID: "hut", Ruleset: sheet.RulesetRef{ID: "local/gone", Version: 2}},
		},
		LibraryCards: 1, Owners: []string{"ana"},
		Rulesets: []bot.HeldRuleset{{ID: "local/saltmarsh", Name: "Saltmarsh Wardens", Versions: []int{1, 2}}},
	}
	want := "This database already holds:\n" +
		"  #table — Low Vell (low-vell v1): Bram, Mira and 11 more\n" +
		"  #hut — a ruleset it cannot read now (local/gone v2): no characters yet\n" +
		"  and 10 more campaigns\n" +
		"  1 library card, of ana\n" +
		"  ruleset local/saltmarsh — Saltmarsh Wardens, v1, v2\n" +
		"Play on where you left off (!channel NAME goes to a campaign's channel), or start one over there: its GM types /demo reset.\n"
	if got := Banner(h); got != want {
		t.Errorf("banner:\n%s\nwant\n%s", got, want)
	}
}
