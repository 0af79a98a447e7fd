package discord

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// TestInventoryOnDiscord: an [inventory:] tag in a GM's message is applied and written
// back; /inventory shows it privately, as an embed or as JSON; /item add completes
// names from the campaign's catalog; and the post's Undo button takes the tag back.
func TestInventoryOnDiscord(t *testing.T) {
	h := newHarness(t)
	h.demo()
	id := h.say(h.gm, `The chandler's shop. [inventory: action="add" item="Storm Lantern" who="Mira"] [inventory: action="equip" item="Storm Lantern" who="Mira"]`)
	post := h.postContaining(id, `now="Storm Lantern equipped (Hands 1/2)"`)

	r, _ := h.command(h.gm, "inventory", fakediscord.String("name", "Mira"))
	if r.Message.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(embedText(r.Message), "Equipped: • Storm Lantern") {
		t.Errorf("/inventory: %s (flags %d)", embedText(r.Message), r.Message.Flags)
	}
	r, _ = h.command(h.gm, "inventory", fakediscord.String("name", "Mira"), fakediscord.String("format", "json"))
	if !strings.Contains(r.Message.Content, `"id":"chandlery/storm-lantern"`) || !strings.Contains(r.Message.Content, `"equipped":true`) {
		t.Errorf("/inventory format:json: %s", r.Message.Content)
	}

	choices := h.complete(h.gm, "item", fakediscord.SubCommand("add", fakediscord.Focused(fakediscord.String("item", "flask"))))
	if names := choiceValues(choices); len(names) != 1 || names[0] != "Flask of Lamp Oil=Flask of Lamp Oil" {
		t.Errorf("/item add item: offers %q", names)
	}

	undo := firstButton(post.Components)
	if undo == nil || undo.Label != "Undo" {
		t.Fatalf("the post has no Undo: %+v", post.Components)
	}
	if r := h.respond(h.fake.Button(h.channel, h.guild, h.gm, post.ID, undo.CustomID)); r.Type != 7 || !strings.Contains(embedText(r.Message), "inventory put back") {
		t.Fatalf("undo: type %d %+v", r.Type, r.Message)
	}
	r, _ = h.command(h.gm, "inventory", fakediscord.String("name", "Mira"), fakediscord.String("format", "json"))
	if !strings.Contains(r.Message.Content, `"items":[]`) {
		t.Errorf("after Undo: %s", r.Message.Content)
	}
}
