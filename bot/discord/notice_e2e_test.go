package discord

import (
	"strings"
	"testing"

	"sheetkeeper/internal/fakediscord"
)

// TestVersionNoticeReachesCampaignChannel: /ruleset import run in one channel answers
// there, and the notice of the newer version (bot.Response.Posts) arrives as the bot's
// own message in the campaign's channel, naming the character whose rows would update.
// Another server's campaign on its own ember-roads hears nothing.
func TestVersionNoticeReachesCampaignChannel(t *testing.T) {
	h := newHarness(t)
	const camp = "100000000000000003"
	// The other server's channel id sorts before camp: the store lists campaigns in key
	// order, so a notice wrongly sent there would be sent before camp's.
	const guild2, channel2 = "200000000000000001", "100000000000000000"
	run := func(channel, guild string, u fakediscord.User, name string, opts ...fakediscord.CommandOption) string {
		t.Helper()
		r := h.respond(h.fake.Command(channel, guild, u, name, opts...))
		if r.Message == nil {
			t.Fatalf("/%s: answer without a message: %+v", name, r)
		}
		return r.Message.Content
	}
	imp := func(channel, guild string, version int) string {
		t.Helper()
		return run(channel, guild, h.gm, "ruleset", fakediscord.SubCommand("import", fakediscord.AttachmentOption("file", emberRoads(t, version))))
	}
	imp(h.channel, h.guild, 1)
	imp(channel2, guild2, 1)
	run(camp, h.guild, h.gm, "campaign", fakediscord.SubCommand("create", fakediscord.String("ruleset", "ember-roads")))
	run(channel2, guild2, h.gm, "campaign", fakediscord.SubCommand("create", fakediscord.String("ruleset", "ember-roads")))
	run(camp, h.guild, h.player, "character", fakediscord.SubCommand("create", fakediscord.String("name", "Mira")))
	run(camp, h.guild, h.player, "character", fakediscord.SubCommand("join", fakediscord.String("name", "Mira")))
	run(camp, h.guild, h.player, "pick", fakediscord.String("name", "Mira"), fakediscord.String("catalog", "knacks"), fakediscord.String("entry", "road-sense"))

	if got := imp(h.channel, h.guild, 2); !strings.Contains(got, "Older versions stay in use by 1 campaign") {
		t.Fatalf("import v2 answered %q", got)
	}
	var notice fakediscord.Message
	if !h.fake.WaitFor(func() bool {
		for _, m := range h.fake.Messages(camp) {
			if m.ByBot && m.InteractionID == "" {
				notice = m
				return true
			}
		}
		return false
	}, wait) {
		t.Fatal("no notice in the campaign's channel")
	}
	for _, want := range []string{"**Ember Roads** v2 is installed; this campaign plays v1", "**Mira** 1 row (Knacks 1)"} {
		if !strings.Contains(notice.Content, want) {
			t.Errorf("notice %q lacks %q", notice.Content, want)
		}
	}
	// The notices are sent one after another, in the store's order: one for channel2 or
	// the importing channel would have come first.
	for _, ch := range []string{h.channel, channel2} {
		for _, m := range h.fake.Messages(ch) {
			if m.ByBot && m.InteractionID == "" {
				t.Errorf("a notice in %s: %q", ch, m.Content)
			}
		}
	}
}
