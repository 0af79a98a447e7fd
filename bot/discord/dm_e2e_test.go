package discord

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"sheetkeeper/bot"
	"sheetkeeper/internal/fakediscord"
)

// TestRulesMessagesByDM: on a campaign whose rules' messages go to the players' DMs
// (/campaign set rules-messages:dm), an item's rule speaking on the injected clock
// reaches the player in their DM channel — opened through discordgo's UserChannelCreate
// against the fake — and not the campaign's channel; a rule firing over and over is
// held to the limit a minute, the rest summed up as "…and K more", while the GM's note
// stays in the channel; and a player whose DMs are closed to the bot gets theirs in the
// channel, addressed to them, with a note saying why.
func TestRulesMessagesByDM(t *testing.T) {
	h := newHarness(t)
	bo := h.fake.NewUser("bo")
	kiln, err := os.ReadFile("../console/testdata/systems/kiln.json")
	if err != nil {
		t.Fatal(err)
	}
	att := fakediscord.Attachment{Filename: "kiln.json", ContentType: "application/json", Data: kiln}
	if r := h.respond(h.fake.Command(h.channel, h.guild, h.gm, "system", fakediscord.SubCommand("import", fakediscord.AttachmentOption("file", att)))); r.Message == nil || !strings.Contains(r.Message.Content, "Imported **Kiln Yard**") {
		t.Fatalf("/system import: %+v", r.Message)
	}
	h.command(h.gm, "campaign", fakediscord.SubCommand("create", fakediscord.String("ruleset", "low-vell"), fakediscord.String("system", "kiln")))
	for _, p := range []struct {
		u    fakediscord.User
		name string
	}{{h.player, "Mira"}, {bo, "Bram"}} {
		h.command(p.u, "character", fakediscord.SubCommand("create", fakediscord.String("name", p.name)))
		if r, _ := h.command(p.u, "character", fakediscord.SubCommand("join", fakediscord.String("name", p.name))); !strings.Contains(r.Message.Content, "joins the game") {
			t.Fatalf("/character join %s: %q", p.name, r.Message.Content)
		}
	}
	if r, _ := h.command(h.gm, "campaign", fakediscord.SubCommand("set", fakediscord.String("rules-messages", "dm"))); !strings.Contains(r.Message.Content, "direct message") {
		t.Fatalf("/campaign set rules-messages:dm: %q", r.Message.Content)
	}

	// Ember Tongs heat 1 a second while equipped and speak as the heat reaches 3.
	id := h.say(h.gm, `The forge is lit. [inventory: action="add" item="Ember Tongs" who="Mira"] [inventory: action="equip" item="Ember Tongs" who="Mira"]`)
	h.postContaining(id, `now="Ember Tongs equipped"`)
	t0 := h.clock.Now()
	for s := 1; s <= 3; s++ {
		if err := h.core.Advance(context.Background(), t0.Add(time.Duration(s)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	glow := h.dmContaining(h.player, "The tongs glow cherry red.")
	if want := "🎒 <#" + h.channel + "> Ember Tongs: The tongs glow cherry red."; glow.Content != want {
		t.Errorf("the DM: %q, want %q", glow.Content, want)
	}
	if m, ok := h.channelPostContaining("🎒"); ok {
		t.Errorf("a rules message in the channel: %q", m.Content)
	}

	// A coin whose two rules undo each other once it is acquired (its acquired rule
	// turns it to 1: a new entry's becomes rules take it as it stood): the player hears the limit a minute (the
	// glow was one), the rest summed up; the GM's note is the channel's.
	h.say(h.gm, `And a coin. [inventory: action="add" item="Restless Coin" who="Mira"]`)
	coin := h.dmContaining(h.player, "more")
	lines := strings.Split(coin.Content, "\n")
	if len(lines) != 5 || lines[0] != "🎒 <#"+h.channel+"> Restless Coin: Tails." || lines[4] != "🎒 <#"+h.channel+"> …and 2 more" {
		t.Errorf("the rate-limited DM, 4 messages and the rest summed up (with the glow, 6 a minute): %q", lines)
	}
	if gm := h.waitChannelPost("(for the GM) Mira's Restless Coin"); strings.Contains(gm.Content, "<@"+h.player.ID+">") {
		t.Errorf("the player's messages in the GM's note: %q", gm.Content)
	}

	// Bram takes no direct messages from the bot: his come to the channel, to him.
	h.fake.CloseDMs(bo.ID, true)
	h.postContaining(h.say(h.gm, `[inventory: action="add" item="Ember Tongs" who="Bram"]`), `now="Ember Tongs ×1"`)
	h.say(h.gm, `Another. [inventory: action="add" item="Restless Coin" who="Bram"]`)
	fallback := h.waitChannelPost("<@" + bo.ID + "> I could not reach you by direct message")
	lines = strings.Split(fallback.Content, "\n")
	if len(lines) != 7 || lines[1] != "🎒 Restless Coin: Tails." || lines[6] != "🎒 Restless Coin: Heads." {
		t.Errorf("Bram's messages in the channel, the coin's 6 (his limit a minute), without links to it: %q", lines)
	}
	h.waitChannelPost("(for the GM) Bram's Restless Coin")
	// Closed DMs are expected of some players: a warning that says so, with Discord's
	// answer, and no error (an error is a post lost).
	logs := h.logs.String()
	if strings.Contains(logs, "level=ERROR") || !strings.Contains(logs, "a direct message could not be sent") || !strings.Contains(logs, "403") {
		t.Errorf("the log for Bram's closed DMs: %s", logs)
	}
	if ch, ok := h.fake.DMChannel(bo.ID); ok {
		if got := h.fake.Messages(ch); len(got) != 0 {
			t.Errorf("Bram's closed DMs hold %d messages", len(got))
		}
	}
}

// dmContaining waits for the bot's message in u's DM channel containing want.
func (h *harness) dmContaining(u fakediscord.User, want string) fakediscord.Message {
	h.t.Helper()
	var found fakediscord.Message
	ok := h.fake.WaitFor(func() bool {
		ch, ok := h.fake.DMChannel(u.ID)
		if !ok {
			return false
		}
		for _, m := range h.fake.Messages(ch) {
			if m.ByBot && strings.Contains(m.Content, want) {
				found = m
				return true
			}
		}
		return false
	}, wait)
	if !ok {
		h.t.Fatalf("no direct message to %s says %q", u.Username, want)
	}
	return found
}

// channelPostContaining is the bot's first message in the campaign channel containing
// want, if there is one now.
func (h *harness) channelPostContaining(want string) (fakediscord.Message, bool) {
	for _, m := range h.fake.Messages(h.channel) {
		if m.ByBot && strings.Contains(m.Content, want) {
			return m, true
		}
	}
	return fakediscord.Message{}, false
}

// waitChannelPost waits for the bot's message in the campaign channel containing want.
func (h *harness) waitChannelPost(want string) fakediscord.Message {
	h.t.Helper()
	var found fakediscord.Message
	if !h.fake.WaitFor(func() bool { m, ok := h.channelPostContaining(want); found = m; return ok }, wait) {
		for _, m := range h.fake.Messages(h.channel) {
			h.t.Logf("channel: %q", m.Content)
		}
		h.t.Fatalf("the channel never got a post saying %q", want)
	}
	return found
}

// TestDMChannelWillNotOpen: when Discord refuses to open the DM channel itself (a 403 on
// POST /users/@me/channels), a post for the player's DMs still reaches them: in the
// campaign's channel, addressed to them, with the note.
func TestDMChannelWillNotOpen(t *testing.T) {
	h := newHarness(t)
	h.fake.FailNext("POST", "/users/@me/channels", http.StatusForbidden, 0)
	h.bot.Post(context.Background(), bot.Action{Kind: bot.Post, ChannelID: h.channel, DM: h.player.ID,
		Content: "🎒 <#" + h.channel + "> Ember Tongs: The tongs glow cherry red."})
	got := h.waitChannelPost("The tongs glow")
	want := "<@" + h.player.ID + "> I could not reach you by direct message, so this is here instead:\n🎒 Ember Tongs: The tongs glow cherry red."
	if got.Content != want {
		t.Errorf("in the channel: %q, want %q", got.Content, want)
	}
	if _, opened := h.fake.DMChannel(h.player.ID); opened {
		t.Errorf("a DM channel was opened")
	}
}
