package bot

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// press clicks a reply's button (undoRow or redoRow of seq) on message posted, as u.
func (m *schedTable) press(u User, rows []Row, posted string) Response {
	m.t.Helper()
	return m.core.OnComponent(context.Background(), Component{CustomID: rows[0].Buttons[0].CustomID, User: u, ChannelID: "table", MessageID: posted})
}

// record reports the ids of the bot's post of reply seq, as a front end does.
func (m *schedTable) record(seq int64, ids ...string) {
	m.t.Helper()
	if err := m.core.RecordPost(context.Background(), "table", seq, ids); err != nil {
		m.t.Fatal(err)
	}
}

func (m *schedTable) status(seq int64) string {
	m.t.Helper()
	for _, r := range m.replies() {
		if r.Seq == seq {
			return r.Status
		}
	}
	m.t.Fatalf("no reply %d", seq)
	return ""
}

// TestUndoRefusals: each press that must change nothing is refused with its kind, and
// the card stays as it was.
func TestUndoRefusals(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="2"]`)
	m.record(1, "p1")
	ctx := context.Background()
	click := func(u User, kind componentKind, arg string) error {
		run := (*Core).undoClick
		if kind == redoID {
			run = (*Core).redoClick
		}
		_, err := run(m.core, ctx, Component{CustomID: kind.encode(arg), User: u, ChannelID: "table", MessageID: "p1"}, []string{arg})
		return err
	}
	for _, c := range []struct {
		what string
		u    User
		kind componentKind
		arg  string
		want refusal.Reason
	}{
		{"a player's undo", ana, undoID, "1", refusal.NotGM},
		{"a player's redo", ana, redoID, "1", refusal.NotGM},
		{"redo of a live reply", gmUser, redoID, "1", refusal.NotAllowed},
		{"a reply never recorded", gmUser, undoID, "9", refusal.UnknownValue},
		{"no number", gmUser, undoID, "x", refusal.Malformed},
		{"reply 0", gmUser, undoID, "0", refusal.Malformed},
	} {
		if err := click(c.u, c.kind, c.arg); refusal.Of(err) != c.want {
			t.Errorf("%s: %v (%q), want %s", c.what, err, refusal.Of(err), c.want)
		}
	}
	m.wantPool("Bram", "breath", "7/9")
	// The player is told privately, in the words of the issue.
	if r := m.press(ana, undoRow(1), "p1"); !r.Ephemeral || r.Content != "Only the GM can undo." || r.Update {
		t.Errorf("a player's press: %+v", r)
	}

	// Undo, then Undo again (a stale button, or a second GM): the second says so.
	if r := m.press(gmUser, undoRow(1), "p1"); !r.Update || !reflect.DeepEqual(r.Components, redoRow(1)) {
		t.Fatalf("undo: %+v", r)
	}
	m.wantPool("Bram", "breath", "9/9")
	if err := click(gmUser, undoID, "1"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("undo twice: %v", err)
	}
	// A later reply: Redo would run out of order.
	m.gmSays(`[sheet: who="Mira" op="spend" pool="breath" amount="1"]`)
	if err := click(gmUser, redoID, "1"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("redo after a later reply: %v", err)
	}
	// An earlier reply cannot be undone while a later one is live.
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="1"]`)
	if err := click(gmUser, undoID, "2"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("undo of an earlier reply: %v", err)
	}
	m.wantPool("Bram", "breath", "8/9")
	m.wantPool("Mira", "breath", "9/10")
	// A later reply that changed nothing (narration, a quiet rest) holds nothing back.
	if acts := m.core.OnMessage(ctx, Message{ChannelID: "table", ID: "narration", Author: gmUser, Content: "The fog lifts."}); len(acts) != 0 {
		t.Fatalf("narration answered: %+v", acts)
	}
	if n := len(m.replies()); n != 4 {
		t.Fatalf("%d replies, want the narration recorded as the 4th", n)
	}
	if err := click(gmUser, undoID, "3"); err != nil {
		t.Errorf("undo past a reply that changed nothing: %v", err)
	}
	m.wantPool("Bram", "breath", "9/9")
}

// TestUndoIsTheDeletePath: Undo reverts as a delete of the GM's message does — the
// deleted replies before it come back with it, newest first — and the posts of those
// are edited through Options.Post, while the pressed post is updated in place.
func TestUndoIsTheDeletePath(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="1"]`)
	second := m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="2"]`)
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="3"]`)
	m.record(1, "p1")
	m.record(2, "p2")
	m.record(3, "p3")
	// Deleting the earlier message waits for the later reply to go.
	if acts := m.core.OnDelete(context.Background(), Deletion{ChannelID: "table", ID: second}); len(acts) != 0 {
		t.Fatalf("delete of an earlier reply: %+v", acts)
	}
	m.wantPool("Bram", "breath", "3/9")

	r := m.press(gmUser, undoRow(3), "p3")
	if !r.Update || !strings.HasPrefix(r.Content, "↩ Undone by gm:") || !reflect.DeepEqual(r.Components, redoRow(3)) {
		t.Fatalf("undo: %+v", r)
	}
	m.wantPool("Bram", "breath", "8/9")
	if m.status(1) != storage.ReplyLive || m.status(2) != storage.ReplyReverted || m.status(3) != storage.ReplyReverted {
		t.Errorf("statuses %s %s %s", m.status(1), m.status(2), m.status(3))
	}
	edits := m.out.Take()
	if len(edits) != 1 || edits[0].Kind != Edit || edits[0].Posted[0] != "p2" || edits[0].Content != undoneByDelete ||
		!reflect.DeepEqual(edits[0].Components, redoRow(2)) {
		t.Fatalf("edits of the other posts: %+v", edits)
	}
	// Its post offers Redo too; no live reply follows it, so it applies again, and then
	// reply 3 after it: in their order.
	if r := m.press(gmUser, redoRow(2), "p2"); !r.Update || !strings.Contains(r.Content, `result="ok" now="6/9"`) {
		t.Errorf("redo of 2: %+v", r)
	}
	if r := m.press(gmUser, redoRow(3), "p3"); !r.Update || !strings.Contains(r.Content, `result="ok" now="3/9"`) {
		t.Errorf("redo of 3: %+v", r)
	}
	m.wantPool("Bram", "breath", "3/9")
}

// TestUndoAfterRestart: a fired rest's post carries Undo, and the button works after the
// bot restarts — its id names the reply, nothing in memory; Redo applies the rest again.
// A post of several messages is edited whole through Options.Post.
func TestUndoAfterRestart(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "breather", "cron", "0 6 * * *", "who", "Bram")
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="4"]`)
	acts := m.advance(time.Date(2026, 4, 3, 6, 0, 0, 0, time.UTC))
	if len(acts) != 1 || !reflect.DeepEqual(acts[0].Components, undoRow(acts[0].ReplySeq)) {
		t.Fatalf("rest: %+v", acts)
	}
	seq := acts[0].ReplySeq
	m.record(seq, "r1", "r2")
	m.wantPool("Bram", "breath", "8/9")

	m.restart(time.Date(2026, 4, 3, 7, 0, 0, 0, time.UTC))
	if r := m.press(gmUser, undoRow(seq), "r2"); !r.Ephemeral || r.Content != "↩ Undone." {
		t.Fatalf("undo of a two-message post: %+v", r)
	}
	m.wantPool("Bram", "breath", "5/9")
	edits := m.out.Take()
	if len(edits) != 1 || !reflect.DeepEqual(edits[0].Posted, []string{"r1", "r2"}) || !reflect.DeepEqual(edits[0].Components, redoRow(seq)) {
		t.Fatalf("edit of the post: %+v", edits)
	}
	m.record(seq, "r1")
	if r := m.press(gmUser, redoRow(seq), "r1"); !r.Update || !reflect.DeepEqual(r.Components, undoRow(seq)) {
		t.Fatalf("redo: %+v", r)
	}
	m.wantPool("Bram", "breath", "8/9")
	if rs := m.replies(); rs[len(rs)-1].Status != storage.ReplyLive {
		t.Errorf("redone rest %+v", rs[len(rs)-1])
	}
}

// TestQuietRest: a scheduled rest that changes nothing posts nothing, but it is still
// recorded as a reply of the scheduler.
func TestQuietRest(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "breather", "cron", "0 6 * * *", "who", "Bram")
	if acts := m.advance(time.Date(2026, 4, 3, 6, 0, 0, 0, time.UTC)); len(acts) != 0 {
		t.Fatalf("a rest that changed nothing posted %q", contents(acts))
	}
	rs := m.replies()
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Source, "schedule:") || len(rs[0].Changes) != 0 || rs[0].Status != storage.ReplyLive {
		t.Errorf("replies %+v", rs)
	}
}

// TestQuietRestStillNotesAGap: a quiet rest after a night a spring-forward gap swallowed
// posts only the note of the firing that did not run.
func TestQuietRestStillNotesAGap(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 3, 27, 12, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "mooring", "cron", "30 2 * * *", "tz", "Europe/Berlin", "who", "Mira")
	wantPosts(t, "28 March", m.advance(time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC)))
	wantPosts(t, "the night of the jump", m.advance(time.Date(2026, 3, 29, 12, 0, 0, 0, time.UTC)))
	wantPosts(t, "30 March", m.advance(time.Date(2026, 3, 30, 12, 0, 0, 0, time.UTC)),
		"⏰ (The rest of 02:30 on Sun 29 Mar 2026 did not run: the clocks went forward over that time, which did not exist that night, and nothing was applied.)")
	if n := len(m.replies()); n != 2 {
		t.Errorf("%d replies, want 2 (both quiet rests recorded)", n)
	}
}

// TestRedoAppliesTheTextAsEdited: an edit of an undone reply applies nothing, and its
// Redo applies the text as it reads now (undo a misclick, mend the tag, redo).
func TestRedoAppliesTheTextAsEdited(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	id := m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="5"]`)
	m.record(1, "p1")
	m.wantPool("Bram", "breath", "4/9")
	m.press(gmUser, undoRow(1), "p1")
	m.wantPool("Bram", "breath", "9/9")
	if acts := m.core.OnEdit(context.Background(), Message{ChannelID: "table", ID: id, Author: gmUser,
		Content: `[sheet: who="Bram" op="spend" pool="breath" amount="1"]`}); len(acts) != 0 {
		t.Fatalf("the edit of an undone reply answered %+v", acts)
	}
	m.wantPool("Bram", "breath", "9/9")
	m.press(gmUser, redoRow(1), "p1")
	m.wantPool("Bram", "breath", "8/9")
}
