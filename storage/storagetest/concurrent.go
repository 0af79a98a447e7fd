package storagetest

// The suite's concurrent commands: what group commit (or any backend's own scheme) must
// never get wrong.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// errInsufficient is the engine's refusal, which Update returns as fn returned it.
var errInsufficient = refusal.New(refusal.Insufficient, "no gold left")

// race runs n Updates of s at once, the i-th running fn(i, tx), and counts those that
// commit and those refused for reason; any other error fails t.
func race(t *testing.T, s storage.Store, n int, reason refusal.Reason, fn func(i int, tx storage.Tx) error) (ok, refused int32) {
	var oks, refusals atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			err := s.Update(context.Background(), func(tx storage.Tx) error { return fn(i, tx) })
			switch {
			case err == nil:
				oks.Add(1)
			case refusal.Of(err) == reason:
				refusals.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	close(start)
	wg.Wait()
	return oks.Load(), refusals.Load()
}

// testConcurrentSpend: 64 commands each spend one unit of a pool of 50 in their own
// Update, reading the pool in the transaction and refusing at 0.
func testConcurrentSpend(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error { return tx.PutGameCard("ch", Card("u1", "Mira", 50)) })
	ok, refused := race(t, s, 64, refusal.Insufficient, func(_ int, tx storage.Tx) error {
		c, err := tx.GameCard("ch", "Mira")
		if err != nil {
			return err
		}
		if Gold(c) < 1 {
			return errInsufficient
		}
		c.Card.Build.Fields["gold"] = Gold(c) - 1
		return tx.PutGameCard("ch", c)
	})
	if ok != 50 || refused != 14 {
		t.Fatalf("%d spent, %d refused; want 50 and 14", ok, refused)
	}
	view(t, s, func(tx storage.Tx) error {
		c, err := tx.GameCard("ch", "Mira")
		must(err)
		if Gold(c) != 0 {
			t.Fatalf("pool ends at %v", Gold(c))
		}
		return nil
	})
}

// testConcurrentFailuresIsolated: concurrent commands, every other one failing after
// writing; each failure leaves nothing, each success everything.
func testConcurrentFailuresIsolated(t *testing.T, s storage.Store) {
	const n = 64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			ch := fmt.Sprint("ch", (i/2)%4)
			err := s.Update(context.Background(), func(tx storage.Tx) error {
				seq, err := tx.NextReplySeq(ch)
				if err != nil {
					return err
				}
				if err := tx.PutReply(reply(ch, seq, fmt.Sprint("m", i))); err != nil {
					return err
				}
				if err := tx.PutGameCard(ch, Card("u", fmt.Sprint("card", i), float64(i))); err != nil {
					return err
				}
				if i%2 == 1 {
					return errBoom
				}
				return nil
			})
			if (i%2 == 1 && !errors.Is(err, errBoom)) || (i%2 == 0 && err != nil) {
				t.Errorf("command %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	view(t, s, func(tx storage.Tx) error {
		for c := range 4 {
			ch := fmt.Sprint("ch", c)
			rs, err := tx.Replies(ch, 0, 0)
			must(err)
			if len(rs) != n/8 {
				t.Fatalf("%s: %d replies, want %d", ch, len(rs), n/8)
			}
			for j, r := range rs {
				if r.Seq != int64(j+1) {
					t.Fatalf("%s: reply %d has seq %d (a failed command left a gap or a seq)", ch, j+1, r.Seq)
				}
			}
		}
		for i := range n {
			ch := fmt.Sprint("ch", (i/2)%4)
			_, err := tx.GameCard(ch, fmt.Sprint("card", i))
			_, merr := tx.ReplyByMessage(ch, fmt.Sprint("m", i))
			if i%2 == 1 {
				notFound(t, "failed command's card", err)
				notFound(t, "failed command's reply", merr)
			} else if err != nil || merr != nil {
				t.Fatalf("command %d's writes: %v, %v", i, err, merr)
			}
		}
		return nil
	})
}
