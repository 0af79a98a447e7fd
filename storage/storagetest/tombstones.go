package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"sheetkeeper/storage"
)

// testTombstones: a delete that came before its message leaves a tombstone, beside the
// applied message ids and in the same transaction as everything else; one per message,
// never for a message applied, and forgotten once expired, so they stay bounded.
func testTombstones(t *testing.T, s storage.Store) {
	tomb := func(ch, msg string, at time.Time) *storage.Tombstone {
		return &storage.Tombstone{ChannelID: ch, MessageID: msg, At: at}
	}
	view(t, s, func(tx storage.Tx) error {
		_, err := tx.Tombstone("ch", "100")
		notFound(t, "no tombstone yet", err)
		return nil
	})
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutTombstone(tomb("ch", "100", When)))
		got, err := tx.Tombstone("ch", "100") // visible in the same transaction
		must(err)
		sameJSON(t, "tombstone in its transaction", got, tomb("ch", "100", When))
		// A delete delivered twice keeps the first tombstone.
		return tx.PutTombstone(tomb("ch", "100", When.Add(time.Minute)))
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.Tombstone("ch", "100")
		must(err)
		sameJSON(t, "tombstone", got, tomb("ch", "100", When))
		_, err = tx.Tombstone("other", "100")
		notFound(t, "tombstone in another channel", err)
		return nil
	})

	// Rolled back with the transaction that wrote it.
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		must(tx.PutTombstone(tomb("ch", "101", When)))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update: %v", err)
	}
	view(t, s, func(tx storage.Tx) error {
		_, err := tx.Tombstone("ch", "101")
		notFound(t, "tombstone of a rolled-back transaction", err)
		return nil
	})

	// A message applied as a reply cannot have one; a bad record is refused; neither
	// changes anything, even when the function goes on and commits.
	update(t, s, func(tx storage.Tx) error {
		seq, err := tx.NextReplySeq("ch")
		must(err)
		must(tx.PutReply(reply("ch", seq, "200")))
		wantKind(t, "tombstone of an applied message", tx.PutTombstone(tomb("ch", "200", When)), storage.Conflict)
		wantKind(t, "tombstone without a message", tx.PutTombstone(tomb("ch", "", When)), storage.Invalid)
		wantKind(t, "tombstone without a channel", tx.PutTombstone(tomb("", "201", When)), storage.Invalid)
		wantKind(t, "tombstone without a time", tx.PutTombstone(tomb("ch", "202", time.Time{})), storage.Invalid)
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		for _, m := range []string{"200", "202"} {
			_, err := tx.Tombstone("ch", m)
			notFound(t, "refused tombstone "+m, err)
		}
		return nil
	})

	// Expiry: a tombstone stops nothing past its life, and the store forgets it.
	if ts := tomb("ch", "100", When); ts.Expired(When.Add(storage.TombstoneLife)) || !ts.Expired(When.Add(storage.TombstoneLife+time.Nanosecond)) {
		t.Fatalf("a tombstone lives exactly TombstoneLife")
	}
	testTombstonesBounded(t, s, tomb)
}

// testTombstonesBounded: a flood of tombstones is forgotten once expired, by the
// tombstones written after it, oldest first.
func testTombstonesBounded(t *testing.T, s storage.Store, tomb func(ch, msg string, at time.Time) *storage.Tombstone) {
	const flood = 40
	update(t, s, func(tx storage.Tx) error {
		for i := range flood {
			must(tx.PutTombstone(tomb("flood", fmt.Sprint(1000+i), When.Add(time.Duration(i)*time.Second))))
		}
		return nil
	})
	later := When.Add(storage.TombstoneLife + time.Hour)
	// Each tombstone written forgets more expired ones than it adds.
	for i := range flood {
		update(t, s, func(tx storage.Tx) error { return tx.PutTombstone(tomb("ch", fmt.Sprint(5000+i), later)) })
		var left int
		view(t, s, func(tx storage.Tx) error {
			for j := range flood {
				if _, err := tx.Tombstone("flood", fmt.Sprint(1000+j)); err == nil {
					left++
				} else {
					notFound(t, "an expired tombstone", err)
				}
			}
			return nil
		})
		if left >= flood-i {
			t.Fatalf("after %d later tombstones, %d of %d expired ones are kept", i+1, left, flood)
		}
		if left == 0 {
			break
		}
	}
	view(t, s, func(tx storage.Tx) error {
		for _, m := range []string{"100", "1000", fmt.Sprint(1000 + flood - 1)} {
			ch := "flood"
			if m == "100" {
				ch = "ch"
			}
			_, err := tx.Tombstone(ch, m)
			notFound(t, "expired tombstone "+m, err)
		}
		got, err := tx.Tombstone("ch", "5000")
		must(err)
		sameJSON(t, "a live tombstone", got, tomb("ch", "5000", later))
		return nil
	})
}
