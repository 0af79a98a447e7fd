package bot

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"sheetkeeper/storage"
)

// spendTag is a GM tag spending n Breath of Mira's.
func spendTag(n string) string {
	return `[sheet: who="Mira" op="spend" pool="breath" amount="` + n + `"]`
}

// posted records the bot's post of reply seq as "p<seq>", as a front end does.
func (m *msgTable) posted(seq int64, id string) {
	m.t.Helper()
	if err := m.core.RecordPost(context.Background(), m.ch, seq, []string{id}); err != nil {
		m.t.Fatal(err)
	}
}

func wantStatus(t *testing.T, m *msgTable, seq int64, want string) {
	t.Helper()
	if got := m.reply(seq).Status; got != want {
		t.Errorf("reply %d is %s, want %s", seq, got, want)
	}
}

func oneEdit(t *testing.T, acts []Action, post string) Action {
	t.Helper()
	if len(acts) != 1 || acts[0].Kind != Edit || !slices.Equal(acts[0].Posted, []string{post}) || acts[0].ChannelID != "table" {
		t.Fatalf("want one edit of %s, got %+v", post, acts)
	}
	wantOutcomesOfText(t, acts[0])
	return acts[0]
}

// Regenerate: the reply's changes are reverted before the new text applies, so the
// regenerated reply starts from before it and can never spend twice.
func TestRegenerateCannotSpendTwice(t *testing.T) {
	m := lowVell(t)
	id, _ := m.say(gmUser, "Mira runs. "+spendTag("6"))
	m.posted(1, "p1")
	wantPool(t, m, "Mira", "breath", "2/8")

	// 7 more would be refused on 2 left; from before the reply it is 7 of 8.
	edit := oneEdit(t, m.edit(id, gmUser, "Mira sprints. "+spendTag("7")), "p1")
	wantLines(t, edit.Content, `[sheet: who="Mira" op="spend" pool="breath" amount="7" result="ok" now="1/8"]`)
	wantPool(t, m, "Mira", "breath", "1/8")
	r := m.reply(1)
	if r.Text != "Mira sprints. "+spendTag("7") || len(r.Changes) != 1 || r.Changes[0].Before != nil {
		t.Errorf("regenerated reply %+v", r)
	}
	// Again, smaller; and the same edit delivered twice changes nothing more.
	for range 2 {
		m.edit(id, gmUser, "Mira walks. "+spendTag("1"))
		wantPool(t, m, "Mira", "breath", "7/8")
	}
	// Regenerated to ask for nothing: its changes are undone.
	edit = oneEdit(t, m.edit(id, gmUser, "Mira rests her legs."), "p1")
	if edit.Content != noTagsLeft || len(edit.Embeds) != 0 {
		t.Errorf("edit to no tags: %+v", edit)
	}
	wantPool(t, m, "Mira", "breath", "8/8")
	if r := m.reply(1); r.Status != storage.ReplyLive || len(r.Changes) != 0 {
		t.Errorf("reply %+v", r)
	}
}

// Continue: text that starts with the old applies only what it adds, joining the same
// reply; the post is edited to show every tag.
func TestContinue(t *testing.T) {
	m := lowVell(t)
	first := "Mira climbs. " + spendTag("1")
	id, _ := m.say(gmUser, first)
	wantPool(t, m, "Mira", "breath", "7/8")
	// Not yet posted: the continuation is posted rather than edited.
	acts := m.edit(id, gmUser, first+" And higher. "+spendTag("2"))
	post := onePost(t, acts, id)
	if post.ReplySeq != 1 {
		t.Errorf("ReplySeq %d", post.ReplySeq)
	}
	wantLines(t, post.Content,
		`[sheet: who="Mira" op="spend" pool="breath" amount="1" result="ok" now="7/8"]`,
		`[sheet: who="Mira" op="spend" pool="breath" amount="2" result="ok" now="5/8"]`)
	wantPool(t, m, "Mira", "breath", "5/8")
	m.posted(1, "p1")
	// Narration added with no tag: nothing applied, the post stays.
	text := first + " And higher. " + spendTag("2") + " She stops."
	if acts := m.edit(id, gmUser, text); acts != nil {
		t.Errorf("narration added: %+v", acts)
	}
	// A quoted outcome added: nothing applied (SPEC 3.4).
	if acts := m.edit(id, gmUser, text+"\n> [sheet: who=\"Mira\" op=\"spend\" pool=\"breath\" amount=\"2\" result=\"ok\" now=\"5/8\"]"); acts != nil {
		t.Errorf("quote added: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "5/8")
	if r := m.reply(1); len(r.Changes) != 2 {
		t.Errorf("continued reply %+v", r)
	}
	// Deleting it undoes all of it.
	m.delete(id)
	wantPool(t, m, "Mira", "breath", "8/8")
}

// An edit of a reply that is not the latest applies nothing, and the bot says so.
func TestEditOfEarlierReply(t *testing.T) {
	m := lowVell(t)
	id1, _ := m.say(gmUser, spendTag("1"))
	m.say(gmUser, spendTag("2"))
	acts := m.edit(id1, gmUser, spendTag("5"))
	if post := onePost(t, acts, id1); post.Content != earlierEdit {
		t.Errorf("said %q", post.Content)
	}
	wantPool(t, m, "Mira", "breath", "5/8")
	if r := m.reply(1); r.Text != spendTag("1") {
		t.Errorf("earlier reply changed: %+v", r)
	}
	// An edit of a message never applied, or that changes no text: nothing.
	if acts := m.edit("never-seen", gmUser, spendTag("3")); acts != nil {
		t.Errorf("edit of an unknown message: %+v", acts)
	}
	if acts := m.edit(id1, gmUser, spendTag("1")); acts != nil {
		t.Errorf("edit with the same text: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "5/8")
}

// Delete: the latest live reply is reverted, then the deleted replies before it back to
// the previous live one, newest first; an earlier reply waits.
func TestDeleteCascade(t *testing.T) {
	m := lowVell(t)
	id1, _ := m.say(gmUser, spendTag("1"))
	id2, _ := m.say(gmUser, spendTag("2")+` [sheet: who="Bram" op="spend" pool="spark" amount="1"]`)
	id3, _ := m.say(gmUser, spendTag("3"))
	for seq := int64(1); seq <= 3; seq++ {
		m.posted(seq, "p"+string(rune('0'+seq)))
	}
	wantPool(t, m, "Mira", "breath", "2/8")

	if acts := m.delete(id2); acts != nil {
		t.Errorf("delete of an earlier reply: %+v", acts)
	}
	wantStatus(t, m, 2, storage.ReplyDeleted)
	wantPool(t, m, "Mira", "breath", "2/8")
	wantPool(t, m, "Bram", "spark", "3/4")
	if acts := m.delete(id2); acts != nil {
		t.Errorf("second delete: %+v", acts)
	}

	acts := m.delete(id3)
	wantPool(t, m, "Mira", "breath", "7/8")
	wantPool(t, m, "Bram", "spark", "4/4")
	wantStatus(t, m, 1, storage.ReplyLive)
	wantStatus(t, m, 2, storage.ReplyReverted)
	wantStatus(t, m, 3, storage.ReplyReverted)
	// Each undone post says what is left now, after the whole cascade.
	undone := "↩ Undone: the GM's message was deleted, so its changes were reverted."
	want := []Action{
		{Kind: Edit, ChannelID: "table", Posted: []string{"p3"}, Content: undone,
			Embeds:     []Embed{{Title: "Mira", Description: "↩ pools put back", Color: colorUndone, Fields: []EmbedField{{Name: "Left", Value: "Breath 7/8"}}}},
			Components: redoRow(3), ReplySeq: 3},
		{Kind: Edit, ChannelID: "table", Posted: []string{"p2"}, Content: undone,
			Embeds: []Embed{
				{Title: "Bram", Description: "↩ pools put back", Color: colorUndone, Fields: []EmbedField{{Name: "Left", Value: "Spark charges 4/4"}}},
				{Title: "Mira", Description: "↩ pools put back", Color: colorUndone, Fields: []EmbedField{{Name: "Left", Value: "Breath 7/8"}}},
			},
			Components: redoRow(2), ReplySeq: 2},
	}
	if !reflect.DeepEqual(acts, want) {
		t.Errorf("delete of the latest:\n got %+v\nwant %+v", acts, want)
	}
	// A later reply is live again after the cascade: regenerating it is allowed, and it
	// is the latest.
	id4, _ := m.say(gmUser, spendTag("4"))
	wantPool(t, m, "Mira", "breath", "3/8")
	m.edit(id1, gmUser, spendTag("2"))
	wantPool(t, m, "Mira", "breath", "3/8")
	m.delete(id4)
	m.edit(id1, gmUser, spendTag("2"))
	wantPool(t, m, "Mira", "breath", "6/8")
	// Deleting the first reply, then a delete never seen: back to the start.
	m.delete(id1)
	if acts := m.delete("never-seen"); acts != nil {
		t.Errorf("delete of an unknown message: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "8/8")
}

// A revert puts back only what still holds the value the reply left: a player's later
// edit survives, and an unrelated edit never blocks undoing an XP award.
func TestRevertKeepsLaterEdits(t *testing.T) {
	m := lowVell(t)
	id, _ := m.say(gmUser, spendTag("3")+` [sheet: who="Mira" op="note" field="errand" value="Find the key"] [sheet: who="Mira" op="advance" field="xp" by="2"] [sheet: who="Mira" op="condition" condition="soaked"]`)
	if got := m.field("Mira", "xp"); got != 2.0 {
		t.Fatalf("xp %v", got)
	}
	// The player edits the card afterwards: Breath by hand, and an unrelated field.
	m.update(func(tx storage.Tx) error {
		r, err := gameCard(tx, m.ch, "Mira")
		if err != nil {
			return err
		}
		if err := r.Card.Set("live.pools.breath", map[string]any{"value": 4.0}); err != nil {
			return err
		}
		r.Card.Build.Fields["oath"] = "Keep the lamps"
		return tx.PutGameCard(m.ch, r)
	})
	m.delete(id)
	c := m.stored("Mira")
	wantPool(t, m, "Mira", "breath", "4/8")
	if _, ok := c.Build.Fields["xp"]; ok {
		t.Errorf("xp not undone: %v", c.Build.Fields)
	}
	if c.Build.Fields["oath"] != "Keep the lamps" || c.Live.Text["errand"] != "" || len(c.Live.Conditions) != 0 {
		t.Errorf("card after the revert: %+v", c)
	}
}

// Regenerating an XP award that a player's edit followed: the award is undone and given
// again, the edit kept.
func TestRegenerateAdvance(t *testing.T) {
	m := lowVell(t)
	id, _ := m.say(gmUser, `[sheet: who="Mira" op="advance" field="xp" by="3"]`)
	m.update(func(tx storage.Tx) error {
		r, err := gameCard(tx, m.ch, "Mira")
		if err != nil {
			return err
		}
		r.Card.Build.Fields["oath"] = "Keep the lamps"
		return tx.PutGameCard(m.ch, r)
	})
	m.edit(id, gmUser, `[sheet: who="Mira" op="advance" field="xp" by="5"]`)
	if got, oath := m.field("Mira", "xp"), m.field("Mira", "oath"); got != 5.0 || oath != "Keep the lamps" {
		t.Errorf("xp %v oath %v", got, oath)
	}
}

// TestDeleteRevertsPastANarration: a delete of the latest live reply reverts the deleted
// replies before it back to the previous live reply that changed anything — a narration
// between them, which changed nothing, holds none back (as it holds back no edit).
func TestDeleteRevertsPastANarration(t *testing.T) {
	m := lowVell(t)
	m.say(gmUser, spendTag("1"))
	id2, _ := m.say(gmUser, spendTag("2"))
	m.say(gmUser, "Mira catches her breath.")
	id4, _ := m.say(gmUser, spendTag("3"))
	m.delete(id2) // an earlier reply: it waits
	wantPool(t, m, "Mira", "breath", "2/8")
	wantStatus(t, m, 2, storage.ReplyDeleted)
	m.delete(id4) // the latest: it and reply 2 are reverted
	wantPool(t, m, "Mira", "breath", "7/8")
	wantStatus(t, m, 2, storage.ReplyReverted)
	wantStatus(t, m, 3, storage.ReplyLive)
}

// TestContinueIntoACodeSpanRegenerates: added text that puts an earlier tag in a code
// span (where a tag is not applied) makes the edit a regenerate, so the card is what the
// new text alone makes it, not the old tag's change and the new one's.
func TestContinueIntoACodeSpanRegenerates(t *testing.T) {
	m := lowVell(t)
	first := "Note: `" + spendTag("3")
	id, _ := m.say(gmUser, first)
	wantPool(t, m, "Mira", "breath", "5/8")
	m.edit(id, gmUser, first+"` is how you write it. "+spendTag("1"))
	wantPool(t, m, "Mira", "breath", "7/8")
	m.edit(id, gmUser, first+"` is how you write it. "+spendTag("1")+" "+spendTag("2")) // a continue
	wantPool(t, m, "Mira", "breath", "5/8")
}
