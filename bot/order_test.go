package bot

import (
	"context"
	"testing"
	"time"

	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// Events out of order (SPEC 6: Discord may deliver an event twice or out of order). The
// console shows every event as it is typed, so it cannot deliver a message's create
// after its edit or delete: these core tests do; bot/discord's e2e tests do the same
// through the fake Discord.

// onClock gives the table a core on a clock the test moves.
func onClock(m *msgTable) *schedule.ManualClock {
	clock := schedule.NewManualClock(msgTime)
	m.core = New(m.store, Options{Clock: clock})
	return clock
}

// gmMessage is a GM's message "late" in the table, sent at msgTime.
func gmMessage(m *msgTable, text string) Message {
	return Message{ChannelID: m.ch, ID: "late", Author: gmUser, Content: text, Sent: msgTime}
}

func (m *msgTable) tombstone(channelID, id string) *storage.Tombstone {
	m.t.Helper()
	var ts *storage.Tombstone
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		ts, err = tx.Tombstone(channelID, id)
		if storage.KindOf(err) == storage.NotFound {
			return nil
		}
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return ts
}

// A delete that arrives before its create leaves a tombstone: the late create, a second
// delivery of it, and an edit after it apply nothing.
func TestDeleteBeforeCreate(t *testing.T) {
	m := lowVell(t)
	ctx := context.Background()
	msg := gmMessage(m, spendTag("3"))
	if acts := m.delete(msg.ID); acts != nil {
		t.Errorf("delete of a message not seen: %+v", acts)
	}
	if ts := m.tombstone(m.ch, msg.ID); ts == nil || !ts.At.Equal(msgTime) {
		t.Fatalf("tombstone %+v", ts)
	}
	for range 2 {
		if acts := m.core.OnMessage(ctx, msg); acts != nil {
			t.Errorf("late create answered: %+v", acts)
		}
	}
	if acts := m.edit(msg.ID, gmUser, spendTag("4")); acts != nil {
		t.Errorf("edit after the tombstone answered: %+v", acts)
	}
	if acts := m.core.OnEdit(ctx, gmMessage(m, spendTag("5"))); acts != nil {
		t.Errorf("edit (with its time) after the tombstone answered: %+v", acts)
	}
	if acts := m.delete(msg.ID); acts != nil {
		t.Errorf("second delete: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "8/8")
	if r := m.lastReply(); r != nil {
		t.Errorf("the deleted message became reply %+v", r)
	}
	// Other messages are applied as ever, and the next is reply 1.
	id, acts := m.say(gmUser, spendTag("1"))
	if post := onePost(t, acts, id); post.ReplySeq != 1 {
		t.Errorf("next reply %d", post.ReplySeq)
	}
	wantPool(t, m, "Mira", "breath", "7/8")

	// Without a campaign there is nothing a late create could apply: no tombstone.
	if acts := m.core.OnDelete(ctx, Deletion{ChannelID: "hall", ID: "h1"}); acts != nil {
		t.Errorf("delete in a channel without a campaign: %+v", acts)
	}
	if ts := m.tombstone("hall", "h1"); ts != nil {
		t.Errorf("tombstone without a campaign: %+v", ts)
	}
}

// Tombstones expire: a create later than any Discord delivers is applied.
func TestTombstoneExpires(t *testing.T) {
	m := lowVell(t)
	clock := onClock(m)
	m.delete("late")
	clock.Set(msgTime.Add(storage.TombstoneLife))
	if acts := m.core.OnMessage(context.Background(), gmMessage(m, spendTag("1"))); acts != nil {
		t.Errorf("create within the tombstone's life: %+v", acts)
	}
	clock.Set(msgTime.Add(storage.TombstoneLife + time.Second))
	msg := gmMessage(m, spendTag("2"))
	msg.Sent = clock.Now()
	onePost(t, m.core.OnMessage(context.Background(), msg), "late")
	wantPool(t, m, "Mira", "breath", "6/8")
}

// An edit that arrives before its create is applied as the message (its text is the
// newest); the late create is then a message already applied. Later edits are ordinary
// edits, and a delete undoes it.
func TestUpdateBeforeCreate(t *testing.T) {
	m := lowVell(t)
	ctx := context.Background()
	created := gmMessage(m, "Mira runs. "+spendTag("1"))
	edited := gmMessage(m, "Mira sprints. "+spendTag("3"))
	post := onePost(t, m.core.OnEdit(ctx, edited), "late")
	if post.ReplySeq != 1 {
		t.Errorf("ReplySeq %d", post.ReplySeq)
	}
	wantLines(t, post.Content, `[sheet: who="Mira" op="spend" pool="breath" amount="3" result="ok" now="5/8"]`)
	wantPool(t, m, "Mira", "breath", "5/8")
	if r := m.reply(1); r.MessageID != "late" || r.Text != edited.Content || r.Status != storage.ReplyLive {
		t.Errorf("reply %+v", r)
	}
	for range 2 {
		if acts := m.core.OnMessage(ctx, created); acts != nil {
			t.Errorf("late create answered: %+v", acts)
		}
	}
	wantPool(t, m, "Mira", "breath", "5/8")
	m.posted(1, "p1")

	// A second edit continues it (the old text is a prefix)…
	edited.Content += " And on. " + spendTag("1")
	oneEdit(t, m.core.OnEdit(ctx, edited), "p1")
	wantPool(t, m, "Mira", "breath", "4/8")
	// …or regenerates it, from before the reply.
	edited.Content = "Mira walks. " + spendTag("2")
	oneEdit(t, m.core.OnEdit(ctx, edited), "p1")
	wantPool(t, m, "Mira", "breath", "6/8")
	if r := m.lastReply(); r.Seq != 1 || len(r.Changes) != 1 {
		t.Errorf("after the edits: %+v", r)
	}
	// Once a later reply stands, an edit of it is an edit of an earlier reply.
	m.say(gmUser, spendTag("1"))
	edited.Content = spendTag("7")
	if p := onePost(t, m.core.OnEdit(ctx, edited), "late"); p.Content != earlierEdit {
		t.Errorf("said %q", p.Content)
	}
	wantPool(t, m, "Mira", "breath", "5/8")

	// Deleted, it is undone as any reply; its late create still applies nothing.
	m.delete("m1")
	m.delete("late")
	wantPool(t, m, "Mira", "breath", "8/8")
	wantStatus(t, m, 1, storage.ReplyReverted)
	if acts := m.core.OnMessage(ctx, created); acts != nil {
		t.Errorf("late create after the delete answered: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "8/8")
}

// An edit of a message never applied whose create is not on the way does nothing: a
// player's, one whose time is unknown, one sent before the campaign or longer ago than
// an event is ever late — and one in a channel without a campaign.
func TestEditOfMessageNeverAReply(t *testing.T) {
	m := lowVell(t)
	clock := onClock(m)
	ctx := context.Background()
	player := gmMessage(m, spendTag("1"))
	player.Author = ana
	unknown := gmMessage(m, spendTag("1"))
	unknown.Sent = time.Time{}
	before := gmMessage(m, spendTag("1"))
	before.Sent = msgTime.Add(-time.Minute)
	hall := gmMessage(m, spendTag("1"))
	hall.ChannelID = "hall"
	for what, msg := range map[string]Message{"a player's": player, "time unknown": unknown, "before the campaign": before, "no campaign": hall} {
		if acts := m.core.OnEdit(ctx, msg); acts != nil {
			t.Errorf("%s: %+v", what, acts)
		}
	}
	clock.Set(msgTime.Add(storage.TombstoneLife + time.Second))
	if acts := m.core.OnEdit(ctx, gmMessage(m, spendTag("1"))); acts != nil {
		t.Errorf("too old: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "8/8")
	if r := m.lastReply(); r != nil {
		t.Errorf("reply %+v", r)
	}
}
