package bot

import (
	"context"
	"strings"
	"testing"
)

// TestRedoKeepsActor: a redone /item acts as whoever ran it did. The GM's override of a
// cursed binding, undone and redone, overrides again (it is not refused locked as a
// GM message's tag would be), and the reply records who it acted as.
func TestRedoKeepsActor(t *testing.T) {
	m := fenlightTable(t)
	m.card(ana.ID, "Wren", nil)
	item := func(u User, op string, opts ...string) Response {
		t.Helper()
		cmd := Command{Name: "item " + op, User: u, ChannelID: m.ch}
		for i := 0; i+1 < len(opts); i += 2 {
			cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
		}
		resp, err := itemHandler(op)(m.core, context.Background(), cmd)
		if err != nil {
			t.Fatalf("/item %s %v: %v", op, opts, err)
		}
		return resp
	}
	item(gmUser, "add", "name", "Wren", "item", "Hollow Ring")
	item(ana, "state", "item", "Hollow Ring", "key", "bound", "state", "on")
	resp := item(gmUser, "state", "name", "Wren", "item", "Hollow Ring", "key", "bound", "state", "off")
	r := m.lastReply()
	if r.Source != "command:state:gm" {
		t.Errorf("the GM's /item is recorded as %q", r.Source)
	}
	press := func(id string) Response {
		return m.core.OnComponent(context.Background(), Component{CustomID: id, User: gmUser, ChannelID: m.ch})
	}
	undo := resp.Components[0].Buttons[0].CustomID
	press(undo)
	if got := m.holdings("Wren"); strings.Contains(got, `"gm":{"bound":false}`) {
		t.Fatalf("undone, Wren still holds the override: %s", got)
	}
	redo := press(redoID.encode(strings.TrimPrefix(undo, undoID.name+":")))
	if got := m.holdings("Wren"); !strings.Contains(got, `"gm":{"bound":false}`) {
		t.Errorf("redone, the GM's override is gone: %s (%q)", got, redo.Content)
	}
	if strings.Contains(redo.Content, `reason="locked"`) {
		t.Errorf("redone, the GM's override is refused locked: %q", redo.Content)
	}
	if r := m.lastReply(); len(r.Changes) == 0 || r.Source != "command:state:gm" {
		t.Errorf("redone reply: source %q, %d changes", r.Source, len(r.Changes))
	}
}

// TestSourceActor: each actor a command acts as reads back from the Source it records;
// a GM message's reply, a schedule's and a market command's act as a GM's tag.
func TestSourceActor(t *testing.T) {
	for _, a := range []actor{actorTag, actorPlayer, actorGM} {
		if got := sourceActor(commandSource("give", a)); got != a {
			t.Errorf("%q reads as %v, want %v", commandSource("give", a), got, a)
		}
	}
	for _, s := range []string{"", "command:use", "schedule:s1", "market:coins add", "command:give:nobody"} {
		if got := sourceActor(s); got != actorTag {
			t.Errorf("%q reads as %v", s, got)
		}
	}
}
