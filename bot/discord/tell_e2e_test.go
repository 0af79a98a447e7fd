package discord

import (
	"strings"
	"testing"
)

// TestPlayerTagsAreReactedTo: through the real discordgo client and the fake Discord, a
// player's tagged message gets the bot's 🚫 reaction and, the first time, the note that
// only GMs' tags apply; the player's second tagged message gets the reaction only.
func TestPlayerTagsAreReactedTo(t *testing.T) {
	h := newHarness(t)
	h.demo()
	reacted := func(id string) bool {
		m, ok := h.fake.Message(h.channel, id)
		if !ok {
			return false
		}
		for _, r := range m.Reactions {
			if r.Me && r.Count == 1 && r.Emoji != nil && r.Emoji.Name == "🚫" {
				return true
			}
		}
		return false
	}
	first := h.say(h.player, `Mira shrugs it off. [sheet: who="Mira" op="damage" pool="breath" amount="5"]`)
	if !h.fake.WaitFor(func() bool { return reacted(first) }, wait) {
		t.Fatalf("no reaction on the player's message")
	}
	h.postContaining(first, "nothing in your message was applied")
	second := h.say(h.player, `Again. [sheet: who="Mira" op="damage" pool="breath" amount="5"]`)
	if !h.fake.WaitFor(func() bool { return reacted(second) }, wait) {
		t.Fatalf("no reaction on the player's second message")
	}
	// The channel's events are handled in order: once the GM's next tag is answered, a
	// second note would have been posted.
	id := h.say(h.gm, `[sheet: who="Mira" op="damage" pool="breath" amount="1"]`)
	h.postContaining(id, `now="9/10"`)
	if got := h.postsFor(second); len(got) != 0 {
		t.Errorf("the second tagged message was noted again: %q", got[0].Content)
	}
	if got := h.postsFor(first); len(got) != 1 || strings.Count(got[0].Content, "🚫") != 1 {
		t.Errorf("the first tagged message: %d notes", len(got))
	}
}
