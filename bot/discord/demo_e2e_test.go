package discord

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// TestDemoResetOnDiscord: with /demo reset beside it, /demo is registered as /demo show
// (a Discord command with sub-commands cannot run by itself); a second /demo show says
// what the channel has; /demo reset's public question is answered by its button in place
// (type 7), a player's press refused privately, the GM's ending the campaign.
func TestDemoResetOnDiscord(t *testing.T) {
	h := newHarness(t)
	var demo *discordgo.ApplicationCommand
	for _, c := range h.fake.Commands() {
		if c.Name == "demo" {
			demo = c
		}
	}
	if demo == nil || len(demo.Options) != 2 || demo.Options[0].Name != standalone || demo.Options[1].Name != "reset" {
		t.Fatalf("/demo registered as %+v", demo)
	}
	if r, _ := h.command(h.gm, "demo", fakediscord.SubCommand(standalone)); !strings.Contains(r.Message.Content, "Mira and Bram") {
		t.Fatalf("/demo show: %q", r.Message.Content)
	}
	if r, _ := h.command(h.gm, "demo", fakediscord.SubCommand(standalone)); !strings.Contains(r.Message.Content, "already has a campaign") {
		t.Fatalf("/demo show again: %q", r.Message.Content)
	}
	ask, _ := h.command(h.gm, "demo", fakediscord.SubCommand("reset"))
	if ask.Message.Flags&discordgo.MessageFlagsEphemeral != 0 || len(ask.Message.Components) != 1 {
		t.Fatalf("/demo reset: %+v", ask.Message)
	}
	end := ask.Message.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.Button)
	r := h.respond(h.fake.Button(h.channel, h.guild, h.player, ask.MessageID, end.CustomID))
	if r.Type == 7 || r.Message.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(r.Message.Content, "only a GM") {
		t.Fatalf("a player presses End: type %d %+v", r.Type, r.Message)
	}
	r = h.respond(h.fake.Button(h.channel, h.guild, h.gm, ask.MessageID, end.CustomID))
	if r.Type != 7 || !strings.Contains(r.Message.Content, "The campaign has ended") || len(r.Message.Components) != 0 {
		t.Fatalf("the GM presses End: type %d %+v", r.Type, r.Message)
	}
	if r, _ := h.command(h.gm, "campaign", fakediscord.SubCommand("show")); !strings.Contains(r.Message.Content, "no campaign") {
		t.Errorf("/campaign show after the end: %q", r.Message.Content)
	}
}
