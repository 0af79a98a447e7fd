package discord

import (
	"strings"
	"testing"
)

// Events out of order, end to end (SPEC 6): the fake Discord holds a message's
// MESSAGE_CREATE back so its delete or its edit arrives first.

// breath is a GM tag damaging Mira's Breath by n.
func breath(n string) string {
	return `[sheet: who="Mira" op="damage" pool="breath" amount="` + n + `"]`
}

// wantLogged fails unless the bot logged want.
func (h *harness) wantLogged(want string) {
	h.t.Helper()
	if !strings.Contains(h.logs.String(), want) {
		h.t.Errorf("the bot never logged %q", want)
	}
}

// A delete before its create leaves a tombstone: the late create applies nothing and
// gets no answer.
func TestDeleteBeforeCreateAppliesNothing(t *testing.T) {
	h := newHarness(t)
	h.demo()
	h.fake.HoldNext("MESSAGE_CREATE")
	id := h.say(h.gm, "The canal water bites. "+breath("3"))
	h.fake.MessageDelete(h.channel, id)
	if n := h.fake.ReleaseHeld(); n != 1 {
		t.Fatalf("released %d dispatches", n)
	}
	// The channel's events are handled in order: once this is answered, the late
	// create has been handled too.
	later := h.say(h.gm, breath("1"))
	h.postContaining(later, `now="9/10"`)
	if posts := h.postsFor(id); len(posts) != 0 {
		t.Errorf("the deleted message was answered: %q", posts[0].Content)
	}
	h.wantLogged("tombstone left")
	h.wantLogged("message deleted before it arrived")
}

// An edit before its create is applied as the message; the late create is ignored, and
// a second edit continues the reply on the same post.
func TestUpdateBeforeCreateIsTheMessage(t *testing.T) {
	h := newHarness(t)
	h.demo()
	h.fake.HoldNext("MESSAGE_CREATE")
	id := h.say(h.gm, "The canal water bites. "+breath("3"))
	edited := "The canal water nips. " + breath("2")
	h.fake.MessageUpdate(h.channel, id, edited)
	post := h.postContaining(id, `amount="2" result="ok" now="8/10"`)
	if n := h.fake.ReleaseHeld(); n != 1 {
		t.Fatalf("released %d dispatches", n)
	}
	h.fake.MessageUpdate(h.channel, id, edited+" And again. "+breath("1"))
	got := h.postContaining(id, `amount="1" result="ok" now="7/10"`)
	if !strings.Contains(got.Content, `amount="2" result="ok" now="8/10"`) || got.ID != post.ID {
		t.Errorf("continued post %s: %q (first post %s)", got.ID, got.Content, post.ID)
	}
	later := h.say(h.gm, breath("1"))
	h.postContaining(later, `now="6/10"`)
	if n := len(h.postsFor(id)); n != 1 {
		t.Errorf("%d posts answer the message", n)
	}
	h.wantLogged("message already applied")
}
