package storagetest

import (
	"errors"
	"testing"

	"sheetkeeper/storage"
)

// testHints: a channel with no campaign is marked hinted once, in the transaction that
// marks it (a rolled-back one marks nothing); a campaign made there forgets the mark,
// so the marks never outlive the channels they are for. A campaign's Told list of
// players noted once round-trips with it.
func testHints(t *testing.T, s storage.Store) {
	mark := func(tx storage.Tx, ch string) bool {
		first, err := tx.MarkHinted(ch)
		must(err)
		return first
	}
	rollback := errors.New("roll back")
	err := s.Update(t.Context(), func(tx storage.Tx) error {
		if !mark(tx, "ch") {
			t.Error("a rolled-back transaction: the first mark is not first")
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("Update: %v", err)
	}
	update(t, s, func(tx storage.Tx) error {
		if !mark(tx, "ch") || mark(tx, "ch") {
			t.Error("marking twice in one transaction: want first, then not")
		}
		if !mark(tx, "other") {
			t.Error("another channel's first mark is not first")
		}
		return nil
	})
	update(t, s, func(tx storage.Tx) error {
		if mark(tx, "ch") {
			t.Error("a committed mark was forgotten")
		}
		return tx.PutCampaign(&storage.Campaign{ChannelID: "ch", GMs: []storage.GM{{Kind: "user", ID: "gm"}},
			CreatedBy: "gm", CreatedAt: When, Told: []string{"ana", "bo"}})
	})
	update(t, s, func(tx storage.Tx) error {
		c, err := tx.Campaign("ch")
		must(err)
		sameJSON(t, "told", c.Told, []string{"ana", "bo"})
		must(tx.DeleteCampaign("ch"))
		if !mark(tx, "ch") {
			t.Error("the campaign did not forget its channel's mark")
		}
		if mark(tx, "other") {
			t.Error("a campaign elsewhere forgot another channel's mark")
		}
		return nil
	})
	err = s.Update(t.Context(), func(tx storage.Tx) error {
		_, err := tx.MarkHinted("")
		return err
	})
	wantKind(t, "an empty channel id", err, storage.Invalid)
}
