package discord

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// firstButton is the first button of a message's components, or nil.
func firstButton(comps []discordgo.MessageComponent) *discordgo.Button {
	if len(comps) == 0 {
		return nil
	}
	row, ok := comps[0].(*discordgo.ActionsRow)
	if !ok || len(row.Components) == 0 {
		return nil
	}
	b, _ := row.Components[0].(*discordgo.Button)
	return b
}

// TestUndoRedoButtons: a GM message's outcome post carries Undo; a player who presses it
// is told privately that only the GM can, and nothing changes; the GM's press updates
// the post in place to say who undid it, with Redo, and Redo applies the reply again.
func TestUndoRedoButtons(t *testing.T) {
	h := newHarness(t)
	h.demo()
	id := h.say(h.gm, `Bram flicks a coal at the eel. [sheet: who="Bram" op="cast" spell="Ember Dart"]`)
	post := h.postContaining(id, `now="Spark charges 2/3"`)
	undo := firstButton(post.Components)
	if undo == nil || undo.Label != "Undo" {
		t.Fatalf("the post has no Undo button: %+v", post.Components)
	}

	// A player's press: an ephemeral refusal, the post as it was.
	r := h.respond(h.fake.Button(h.channel, h.guild, h.player, post.ID, undo.CustomID))
	if r.Type != 4 || r.Message == nil || r.Message.Flags&discordgo.MessageFlagsEphemeral == 0 || r.Message.Content != "Only the GM can undo." {
		t.Fatalf("a player's press: type %d %+v", r.Type, r.Message)
	}
	if m, _ := h.fake.Message(h.channel, post.ID); !strings.Contains(m.Content, `now="Spark charges 2/3"`) {
		t.Errorf("a player's press changed the post: %q", m.Content)
	}

	// The GM's press: the post is updated in place (type 7) and offers Redo.
	r = h.respond(h.fake.Button(h.channel, h.guild, h.gm, post.ID, undo.CustomID))
	if r.Type != 7 || r.Message == nil || !strings.HasPrefix(r.Message.Content, "↩ Undone by") || !strings.Contains(embedText(r.Message), "Spark charges 3/3") {
		t.Fatalf("undo: type %d %+v", r.Type, r.Message)
	}
	m, _ := h.fake.Message(h.channel, post.ID)
	redo := firstButton(m.Components)
	if redo == nil || redo.Label != "Redo" || !strings.HasPrefix(m.Content, "↩ Undone by") {
		t.Fatalf("the post after Undo: %q %+v", m.Content, m.Components)
	}

	// Redo: the reply's text applies again; the post shows it with Undo.
	r = h.respond(h.fake.Button(h.channel, h.guild, h.gm, post.ID, redo.CustomID))
	if r.Type != 7 || r.Message == nil || !strings.Contains(r.Message.Content, `now="Spark charges 2/3"`) {
		t.Fatalf("redo: type %d %+v", r.Type, r.Message)
	}
	m, _ = h.fake.Message(h.channel, post.ID)
	if b := firstButton(m.Components); b == nil || b.Label != "Undo" {
		t.Errorf("the post after Redo: %+v", m.Components)
	}
	// The sheet agrees: the next spend starts from 2 Spark.
	next := h.say(h.gm, `[sheet: who="Bram" op="spend" pool="spark" amount="1"]`)
	h.postContaining(next, `now="1/3"`)
}

// TestUseAnswerCarriesUndo: a player's /use answer has the Undo button too; the player
// cannot press it, the GM can.
func TestUseAnswerCarriesUndo(t *testing.T) {
	h := newHarness(t)
	h.demo()
	r, _ := h.command(h.gm, "use", fakediscord.String("name", "Bram"), fakediscord.String("entry", "Ember Dart"))
	undo := firstButton(r.Message.Components)
	if undo == nil || undo.Label != "Undo" {
		t.Fatalf("/use answer has no Undo: %+v", r.Message)
	}
	got := h.respond(h.fake.Button(h.channel, h.guild, h.player, r.MessageID, undo.CustomID))
	if got.Message == nil || got.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("a player's press: %+v", got)
	}
	got = h.respond(h.fake.Button(h.channel, h.guild, h.gm, r.MessageID, undo.CustomID))
	if got.Type != 7 || !strings.Contains(embedText(got.Message), "Spark charges 3/3") {
		t.Fatalf("the GM's press: type %d %+v", got.Type, got.Message)
	}
}
