package etcd_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
	"sheetkeeper/storage/storagetest"
)

// spend is one command spending a unit of Mira's gold in channel ch: it reads the pool,
// refuses at 0 (Insufficient), and records its reply (a seq and its message id) in the
// same transaction, as the bot does.
func spend(tx storage.Tx, ch, msg string) error {
	c, err := tx.GameCard(ch, "Mira")
	if err != nil {
		return err
	}
	if storagetest.Gold(c) < 1 {
		return refusal.New(refusal.Insufficient, "no gold left")
	}
	c.Card.Build.Fields["gold"] = storagetest.Gold(c) - 1
	if err := tx.PutGameCard(ch, c); err != nil {
		return err
	}
	seq, err := tx.NextReplySeq(ch)
	if err != nil {
		return err
	}
	return tx.PutReply(&storage.Reply{ChannelID: ch, Seq: seq, MessageID: msg, AuthorID: "gm", Text: "spend",
		Status: storage.ReplyLive, CreatedAt: storagetest.When, UpdatedAt: storagetest.When})
}

// TestThreeProcessesSpendOnePool: three Stores on one etcd (as three processes would
// have, each its own client), 64 writers spending one pool of 6. Exactly 6 succeed, the
// rest are refused Insufficient, and nothing is lost: the pool ends at 0 and the
// channel holds exactly the 6 successful writers' replies, numbered 1 to 6.
func TestThreeProcessesSpendOnePool(t *testing.T) {
	p := fmt.Sprintf("test/three-%d/", time.Now().UnixNano())
	stores := []storage.Store{openAt(t, p, etcd.Options{}), openAt(t, p, etcd.Options{}), openAt(t, p, etcd.Options{})}
	ctx := context.Background()
	if err := stores[0].Update(ctx, func(tx storage.Tx) error {
		return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", 6))
	}); err != nil {
		t.Fatal(err)
	}
	var refused atomic.Int32
	var mu sync.Mutex
	var spent []string
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 64 {
		wg.Go(func() {
			<-start
			msg := fmt.Sprint("m", i)
			err := stores[i%3].Update(ctx, func(tx storage.Tx) error { return spend(tx, "ch", msg) })
			switch {
			case err == nil:
				mu.Lock()
				spent = append(spent, msg)
				mu.Unlock()
			case refusal.Of(err) == refusal.Insufficient:
				refused.Add(1)
			default:
				t.Errorf("writer %d: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(spent) != 6 || refused.Load() != 58 {
		t.Fatalf("%d spent, %d refused; want 6 and 58", len(spent), refused.Load())
	}
	for _, s := range stores { // every process reads the same
		if err := s.View(ctx, func(tx storage.Tx) error {
			c, err := tx.GameCard("ch", "Mira")
			if err != nil {
				return err
			}
			if storagetest.Gold(c) != 0 {
				t.Fatalf("pool ends at %v", storagetest.Gold(c))
			}
			rs, err := tx.Replies("ch", 0, 0)
			if err != nil {
				return err
			}
			var msgs []string
			for j, r := range rs {
				if r.Seq != int64(j+1) {
					t.Fatalf("reply %d has seq %d", j+1, r.Seq)
				}
				msgs = append(msgs, r.MessageID)
			}
			sort.Strings(msgs)
			sort.Strings(spent)
			if !slices.Equal(msgs, spent) {
				t.Fatalf("replies of %q, want the successful writers' %q", msgs, spent)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
