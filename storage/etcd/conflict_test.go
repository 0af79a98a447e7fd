package etcd_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
	"sheetkeeper/storage/storagetest"
)

// TestConflictsRerun: whatever an Update read — a key, a key found missing, a range, a
// seq — another process changing it between the snapshot and the commit makes the
// commit fail and the function run again on a fresh snapshot, which sees the change.
// The other process (a second Store on the same prefix) writes from inside the first
// attempt, so the interleaving is certain.
func TestConflictsRerun(t *testing.T) {
	for _, c := range []struct {
		name   string
		read   func(tx storage.Tx) (string, error) // what the function saw
		meddle func(tx storage.Tx) error           // the other process's write
		first  string                              // what the first attempt sees
		after  string                              // what the second one sees
	}{
		{"a key read", func(tx storage.Tx) (string, error) {
			c, err := tx.GameCard("ch", "Mira")
			if err != nil {
				return "", err
			}
			return fmt.Sprint(storagetest.Gold(c)), nil
		}, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u", "Mira", 4)) }, "5", "4"},
		{"a key found missing", func(tx storage.Tx) (string, error) {
			if _, err := tx.GameCard("ch", "Zed"); storage.KindOf(err) == storage.NotFound {
				return "missing", nil
			} else if err != nil {
				return "", err
			}
			return "found", nil
		}, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u", "Zed", 1)) }, "missing", "found"},
		{"a range gaining a key", cardNames, func(tx storage.Tx) error {
			return tx.PutGameCard("ch", storagetest.Card("u", "Bo", 1))
		}, "Mira", "Bo Mira"},
		{"a range losing a key", cardNames, func(tx storage.Tx) error { return tx.DeleteGameCard("ch", "Mira") }, "Mira", ""},
		{"a seq", func(tx storage.Tx) (string, error) {
			seq, err := tx.NextReplySeq("ch")
			return fmt.Sprint(seq), err
		}, func(tx storage.Tx) error { _, err := tx.NextReplySeq("ch"); return err }, "1", "2"},
		{"the newest reply", func(tx storage.Tx) (string, error) {
			r, err := tx.LastReply("ch")
			if err != nil {
				return storage.KindOf(err).String(), nil
			}
			return r.MessageID, nil
		}, func(tx storage.Tx) error {
			return tx.PutReply(&storage.Reply{ChannelID: "ch", Seq: 3, MessageID: "m3", Status: storage.ReplyLive})
		}, "not found", "m3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPrefix()
			s, other := openAt(t, p, etcd.Options{}), openAt(t, p, etcd.Options{})
			ctx := context.Background()
			if err := s.Update(ctx, func(tx storage.Tx) error {
				return tx.PutGameCard("ch", storagetest.Card("u", "Mira", 5))
			}); err != nil {
				t.Fatal(err)
			}
			var saw []string
			err := s.Update(ctx, func(tx storage.Tx) error {
				got, err := c.read(tx)
				if err != nil {
					return err
				}
				saw = append(saw, got)
				if len(saw) == 1 {
					if err := other.Update(ctx, c.meddle); err != nil {
						return err
					}
				}
				return tx.PutCampaign(&storage.Campaign{ChannelID: "marker", CreatedBy: got})
			})
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{c.first, c.after}; strings.Join(saw, "|") != strings.Join(want, "|") {
				t.Fatalf("the attempts saw %q, want %q", saw, want)
			}
		})
	}
}

func cardNames(tx storage.Tx) (string, error) {
	cards, err := tx.GameCards("ch")
	var names []string
	for _, c := range cards {
		names = append(names, c.Card.Name)
	}
	return strings.Join(names, " "), err
}

// TestOnUpdateCountsConflicts: the OnUpdate hook hears of each Update once, as it
// returns, with the attempts that lost to another writer, how long it took, and its
// error; a View is not an Update.
func TestOnUpdateCountsConflicts(t *testing.T) {
	type heard struct {
		took      time.Duration
		conflicts int
		err       error
	}
	var calls []heard
	p := newPrefix()
	s := openAt(t, p, etcd.Options{OnUpdate: func(took time.Duration, conflicts int, err error) {
		calls = append(calls, heard{took, conflicts, err})
	}})
	other := openAt(t, p, etcd.Options{})
	ctx := context.Background()
	attempts := 0
	err := s.Update(ctx, func(tx storage.Tx) error {
		if _, err := tx.NextReplySeq("ch"); err != nil {
			return err
		}
		if attempts++; attempts <= 2 {
			if err := other.Update(ctx, func(tx storage.Tx) error { _, err := tx.NextReplySeq("ch"); return err }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	refused := errors.New("turned away by its function")
	if err := s.Update(ctx, func(storage.Tx) error { return refused }); err != refused {
		t.Fatalf("Update: %v", err)
	}
	if err := s.View(ctx, func(storage.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 {
		t.Fatalf("OnUpdate heard %d calls, want 2: %+v", len(calls), calls)
	}
	if c := calls[0]; c.conflicts != 2 || c.err != nil || c.took <= 0 {
		t.Errorf("the contended Update: %+v, want 2 conflicts and no error", c)
	}
	if c := calls[1]; c.conflicts != 0 || c.err != refused {
		t.Errorf("the refused Update: %+v", c)
	}
}
