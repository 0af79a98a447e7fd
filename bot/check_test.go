package bot

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sheetkeeper/check"
	"sheetkeeper/storage"
)

// checkTable is a Low Vell table with Wren (ana's: Knack 3, trained in Sneak) whose
// dice throw faces, in order, then fail the test: every face a test sees is one it chose.
func checkTable(t *testing.T, faces ...int) *msgTable {
	m := newMsgTable(t, "low-vell")
	m.card(ana.ID, "Wren", nil)
	m.update(func(tx storage.Tx) error {
		r, err := gameCard(tx, m.ch, "Wren")
		if err != nil {
			return err
		}
		r.Card.Build.Abilities = map[string]float64{"knack": 3}
		r.Card.Build.Skills = map[string]string{"sneak": "trained"}
		return tx.PutGameCard(m.ch, r)
	})
	m.core.dice = check.NewReplay(faces, noMoreDice{t})
	return m
}

// noMoreDice fails a test that throws more dice than it gave.
type noMoreDice struct{ t *testing.T }

func (n noMoreDice) Roll(int) int {
	n.t.Helper()
	n.t.Fatal("a die was thrown the test did not give")
	return 1
}

const sneak = `[skill_check: who="Wren" skill="Sneak" dc="9" mode="advantage"]`

// TestCheckInReply: a GM's check is thrown with the card's numbers and written back with
// every face and number; the reply stores the faces it threw, keyed by the tag.
func TestCheckInReply(t *testing.T) {
	m := checkTable(t, 3, 8, 5, 6)
	id, acts := m.say(gmUser, "Wren edges along. "+sneak+" The eel: [dice: 2d6]")
	post := onePost(t, acts, id)
	want := `[skill_check: who="Wren" skill="Sneak" dc="9" mode="advantage" dice="1d12" rolls="3|8" used="8" modifier="4" total="12" result="success"]` +
		"\n[dice: 2d6 = 11 (5, 6)]"
	if post.Content != want {
		t.Fatalf("write-back:\n got %s\nwant %s", post.Content, want)
	}
	if got := post.Embeds[0].Description; got != "✓ Wren — Sneak (advantage) 3 | **8** + 4 = **12** vs DC 9 — success" {
		t.Errorf("embed line %q", got)
	}
	if o := post.Outcomes[0]; o.Result != "success" || o.Who != "Wren" || o.Op != "skill" {
		t.Errorf("outcome %+v", o)
	}
	r := m.lastReply()
	wantRolls := []storage.Roll{{Tag: sneak, Faces: []int{3, 8}}, {Tag: "[dice: 2d6]", Faces: []int{5, 6}}}
	if !slices.EqualFunc(r.Rolls, wantRolls, func(a, b storage.Roll) bool { return a.Tag == b.Tag && slices.Equal(a.Faces, b.Faces) }) {
		t.Errorf("stored rolls %+v, want %+v", r.Rolls, wantRolls)
	}
}

// TestRegenerateKeepsFaces: editing the narration around a check keeps its faces (no
// fishing for a better roll); a check the edit changed, or adds, rolls anew; continuing
// shows the earlier checks with the rolls they threw.
func TestRegenerateKeepsFaces(t *testing.T) {
	m := checkTable(t, 2, 3, 12, 1)
	id, _ := m.say(gmUser, "Wren edges along. "+sneak)
	acts := m.edit(id, gmUser, "Wren creeps along the slick ledge. "+sneak)
	if got := acts[0].Content; !strings.Contains(got, `rolls="2|3"`) || !strings.Contains(got, `result="failure"`) {
		t.Fatalf("regenerate rolled again: %s", got)
	}
	changed := strings.Replace(sneak, `dc="9"`, `dc="5"`, 1)
	acts = m.edit(id, gmUser, "Wren creeps along. "+changed)
	if got := acts[0].Content; !strings.Contains(got, `rolls="12|1"`) {
		t.Fatalf("a changed check keeps the old faces: %s", got)
	}
	// The changed check's faces first; the old check's kept after them, unused.
	if r := m.lastReply(); len(r.Rolls) != 2 || r.Rolls[0].Tag != changed || !slices.Equal(r.Rolls[0].Faces, []int{12, 1}) ||
		r.Rolls[1].Tag != sneak || !slices.Equal(r.Rolls[1].Faces, []int{2, 3}) {
		t.Fatalf("stored rolls after the change: %+v", r.Rolls)
	}
	// Changing it back cannot fish either: the check throws what it threw.
	m.core.dice = noMoreDice{t}
	acts = m.edit(id, gmUser, "Wren creeps along. "+sneak)
	if got := acts[0].Content; !strings.Contains(got, `rolls="2|3"`) || !strings.Contains(got, `result="failure"`) {
		t.Fatalf("changed back, the check rolled anew: %s", got)
	}
	m.core.dice = check.NewReplay([]int{7}, noMoreDice{t})
	acts = m.edit(id, gmUser, "Wren creeps along. "+sneak+" [dice: d12]")
	if got := acts[0].Content; !strings.Contains(got, `rolls="2|3"`) || !strings.Contains(got, "[dice: 1d12 = 7]") {
		t.Fatalf("continue: %s", got)
	}
	// The text's own rolls in its order, then the faces it left unused, as a regenerate
	// stores them.
	if r := m.lastReply(); len(r.Rolls) != 3 || r.Rolls[0].Tag != sneak || r.Rolls[1].Tag != "[dice: 1d12]" || r.Rolls[2].Tag != changed {
		t.Fatalf("continue stores %+v", r.Rolls)
	}
}

// TestContinueKeepsFaces: a check edited out of a reply and written back after the old
// text — a continue, not a regenerate — throws the faces it threw, so no pair of edits
// can fish for a better roll.
func TestContinueKeepsFaces(t *testing.T) {
	m := checkTable(t, 2, 3)
	id, _ := m.say(gmUser, "Wren edges along. "+sneak)
	m.core.dice = noMoreDice{t}
	m.edit(id, gmUser, "Wren edges along.") // a regenerate: the check's faces are kept
	acts := m.edit(id, gmUser, "Wren edges along. "+sneak)
	if len(acts) == 0 || !strings.Contains(acts[0].Content, `rolls="2|3"`) || !strings.Contains(acts[0].Content, `result="failure"`) {
		t.Fatalf("written back on a continue, the check rolled anew: %+v", acts)
	}
	if r := m.lastReply(); len(r.Rolls) != 1 || r.Rolls[0].Tag != sneak {
		t.Fatalf("stored rolls %+v, want the one check's", r.Rolls)
	}
}

// TestCheckRefusals: a check the engine cannot roll is refused with a reason that says
// why, throws nothing, and stores no faces.
func TestCheckRefusals(t *testing.T) {
	m := checkTable(t)
	for tag, reason := range map[string]string{
		`[skill_check: who="Wren" skill="Juggling"]`: "unknown-skill",
		`[skill_check: who="Wren" save="Juggling"]`:  "unknown-save",
		`[skill_check: who="party" skill="Sneak"]`:   "who-required",
		`[skill_check: who="Bram" skill="Sneak"]`:    "unknown-character",
		`[skill_check: who="Wren"]`:                  "malformed",
		`[dice: 101d6]`:                              "malformed",
	} {
		id, acts := m.say(gmUser, "Try: "+tag)
		post := onePost(t, acts, id)
		if o := post.Outcomes[0]; o.Result != "refused" || o.Reason != reason {
			t.Errorf("%s: %+v, want refused %s", tag, o, reason)
		}
		if r := m.lastReply(); len(r.Rolls) != 0 {
			t.Errorf("%s: stored rolls %+v", tag, r.Rolls)
		}
	}
}

// TestPlayerCheckAndRoll: /check rolls the invoker's own card, /roll a notation; both are
// answered in the channel and recorded as replies with their faces.
func TestPlayerCheckAndRoll(t *testing.T) {
	m := checkTable(t, 9, 4, 2)
	run := func(u User, name string, opts ...string) Response {
		cmd := Command{Name: name, User: u, ChannelID: m.ch}
		for i := 0; i < len(opts); i += 2 {
			cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
		}
		return m.core.OnCommand(context.Background(), cmd)
	}
	got := run(ana, "check", "skill", "sneak", "dc", "9")
	if got.Ephemeral || got.Content != `[skill_check: who="Wren" skill="Sneak" dc="9" dice="1d12" rolls="9" used="9" modifier="4" total="13" result="success"]` {
		t.Fatalf("/check: %+v", got)
	}
	r := m.lastReply()
	if r.AuthorID != ana.ID || len(r.Rolls) != 1 || !slices.Equal(r.Rolls[0].Faces, []int{9}) {
		t.Errorf("/check recorded as %+v", r)
	}
	if got := run(ana, "roll", "dice", "2d6+1"); got.Content != "[dice: 2d6+1 = 7 (4, 2 +1)]" {
		t.Errorf("/roll: %+v", got)
	}
	for _, tc := range []struct {
		u    User
		opts []string
		want string
	}{
		{bo, []string{"skill", "sneak"}, "you have no character in this campaign"},
		{bo, []string{"skill", "sneak", "name", "Wren"}, "Wren is not your character"},
		{ana, nil, "say what to roll"},
		{ana, []string{"skill", "sneak", "dc", "hard"}, "dc is a whole number"},
		{ana, []string{"skill", "juggling"}, "Wren cannot roll juggling"},
	} {
		got := run(tc.u, "check", tc.opts...)
		if !got.Ephemeral || !strings.Contains(got.Content, tc.want) {
			t.Errorf("/check %q as %s: %+v, want %q", tc.opts, tc.u.ID, got, tc.want)
		}
	}
	if got := run(ana, "roll", "dice", "2d"); !got.Ephemeral {
		t.Errorf("/roll 2d: %+v", got)
	}
	choices := m.core.OnAutocomplete(context.Background(), Autocomplete{Command: "check", ChannelID: m.ch, User: ana,
		Focused: "skill", Options: []Option{{Name: "skill", Value: "sne"}}})
	if len(choices) == 0 || choices[0].Name != "Sneak +4" || choices[0].Value != "Sneak" {
		t.Errorf("skill choices %+v", choices)
	}
}

// TestRedoReplaysFaces: an Undo button's Redo applies the reply's text again through
// table.reapply: it throws the faces the reply threw, not new ones, and pays its
// spends again.
func TestRedoReplaysFaces(t *testing.T) {
	m := checkTable(t, 5, 11, 2, 2)
	_, acts := m.say(gmUser, "Wren edges along. "+sneak+" [dice: 2d4]")
	first, seq := acts[0].Content, acts[0].ReplySeq
	press := func(kind componentKind) Response {
		t.Helper()
		return m.core.OnComponent(context.Background(), Component{
			CustomID: kind.encode(strconv.FormatInt(seq, 10)), User: gmUser, ChannelID: m.ch})
	}
	if r := press(undoID); !strings.HasPrefix(r.Content, "↩ Undone") {
		t.Fatalf("undo: %q", r.Content)
	}
	m.core.dice = noMoreDice{t} // Redo must throw nothing
	r := press(redoID)
	if _, again, ok := strings.Cut(r.Content, ":\n"); !ok || again != first {
		t.Errorf("redo:\n got %s\nwant ↪ Redone by …:\n%s", r.Content, first)
	}
	m.update(func(tx storage.Tx) error {
		rec, err := tx.Reply(m.ch, seq)
		if err != nil {
			return err
		}
		if rec.Status != storage.ReplyLive || len(rec.Rolls) != 2 || !slices.Equal(rec.Rolls[0].Faces, []int{5, 11}) {
			t.Errorf("redone reply: %s with rolls %+v", rec.Status, rec.Rolls)
		}
		return nil
	})
}

// TestUndoPlayerCheckSpend: a player's /check answer carries Undo like a GM's reply;
// only a GM may press it (the player is refused and nothing changes); Undo gives back
// the Resolve the check's spend took, and Redo pays it again with the faces it threw.
func TestUndoPlayerCheckSpend(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "gravewatch.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec := &storage.RulesetRecord{ID: "local/gravewatch", Version: 1, File: data}
	l, err := loadRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	m := newMsgTableOn(t, rec, l)
	m.card(ana.ID, "Wren", nil)
	full := m.pool("Wren", "resolve")
	m.core.dice = check.NewReplay([]int{2, 3, 3, 9, 8}, noMoreDice{t})
	ans := m.core.OnCommand(context.Background(), Command{Name: "check", User: ana, ChannelID: m.ch,
		Options: []Option{{Name: "skill", Value: "Ward"}, {Name: "dc", Value: "3"}, {Name: "spend", Value: "resolve:2"}}})
	seq := m.lastReply().Seq
	if ans.Ephemeral || !strings.Contains(ans.Content, `spend="resolve:2"`) || !reflect.DeepEqual(ans.Components, undoRow(seq)) {
		t.Fatalf("/check with a spend: %+v", ans)
	}
	first, spent := ans.Content, m.pool("Wren", "resolve")
	if spent != "2/4" || full != "4/4" {
		t.Fatalf("Resolve %s after the spend, %s before: want 2/4 of 4/4", spent, full)
	}
	press := func(u User, kind componentKind) Response {
		t.Helper()
		return m.core.OnComponent(context.Background(), Component{
			CustomID: kind.encode(strconv.FormatInt(seq, 10)), User: u, ChannelID: m.ch})
	}
	if r := press(ana, undoID); !r.Ephemeral || !strings.Contains(r.Content, "Only the GM") {
		t.Fatalf("the player's own Undo: %+v", r)
	}
	if got := m.pool("Wren", "resolve"); got != spent {
		t.Fatalf("a refused Undo changed Resolve: %s", got)
	}
	if r := press(gmUser, undoID); !r.Update || !strings.HasPrefix(r.Content, "↩ Undone by gm") || !reflect.DeepEqual(r.Components, redoRow(seq)) {
		t.Fatalf("undo: %+v", r)
	}
	if got := m.pool("Wren", "resolve"); got != full {
		t.Fatalf("Resolve after Undo: %s, want %s", got, full)
	}
	m.core.dice = noMoreDice{t} // Redo throws nothing: it replays the faces
	r := press(gmUser, redoID)
	if _, again, ok := strings.Cut(r.Content, ":\n"); !ok || again != first {
		t.Errorf("redo:\n got %s\nwant ↪ Redone by …:\n%s", r.Content, first)
	}
	if got := m.pool("Wren", "resolve"); got != spent {
		t.Fatalf("Resolve after Redo: %s, want %s", got, spent)
	}
}
