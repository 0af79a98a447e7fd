package storagetest

import (
	"testing"

	"sheetkeeper/storage"
)

// testReplyRolls: a reply keeps the faces its checks and free rolls threw, tag by tag
// and in order, so undo, redo and a regenerate can show the same roll; a reply with
// none (every reply written before checks were rolled) reads back with none, and a
// record read is a copy: changing its faces changes nothing stored.
func testReplyRolls(t *testing.T, s storage.Store) {
	rolled := reply("ch", 1, "100")
	rolled.Rolls = []storage.Roll{
		{Tag: `[skill_check: who="Mira" skill="Stealth" dc="15"]`, Faces: []int{7, 16}},
		{Tag: `[dice: 2d6+1]`, Faces: []int{3, 5}},
		{Tag: `[skill_check: who="Mira" skill="Stealth" dc="15"]`, Faces: []int{20}},
	}
	plain := reply("ch", 2, "101")
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutReply(rolled))
		return tx.PutReply(plain)
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.Reply("ch", 1)
		must(err)
		sameJSON(t, "reply with rolls", got, rolled)
		got.Rolls[0].Faces[0] = 1
		again, err := tx.ReplyByMessage("ch", "100")
		must(err)
		if again.Rolls[0].Faces[0] != 7 {
			t.Errorf("a read reply's faces are shared with the store: %v", again.Rolls[0].Faces)
		}
		got, err = tx.Reply("ch", 2)
		must(err)
		if got.Rolls != nil {
			t.Errorf("a reply without rolls reads back with %v", got.Rolls)
		}
		return nil
	})
	// A regenerate that drops every check leaves none behind.
	update(t, s, func(tx storage.Tx) error {
		r, err := tx.Reply("ch", 1)
		must(err)
		r.Rolls = nil
		return tx.PutReply(r)
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.Reply("ch", 1)
		must(err)
		if len(got.Rolls) != 0 {
			t.Errorf("rolls cleared, still read %v", got.Rolls)
		}
		return nil
	})
}
