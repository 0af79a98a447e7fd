package bolt

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// TestFailedCommitFailsWhatReadIt: while a batch commits, the next one runs over its
// writes; when the commit fails, both batches' callers get the error, neither batch's
// writes stay, and the store goes on from what is durable.
func TestFailedCommitFailsWhatReadIt(t *testing.T) {
	s, err := open(filepath.Join(t.TempDir(), "f.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u", "Mira", 10)) }); err != nil {
		t.Fatal(err)
	}
	errDisk := errors.New("disk on fire")
	committing, release := make(chan uint64), make(chan error)
	s.beforeCommit = func(id uint64) error {
		committing <- id
		return <-release
	}
	spend := func(want float64) func(storage.Tx) error {
		return func(tx storage.Tx) error {
			c, err := tx.GameCard("ch", "Mira")
			if err != nil {
				return err
			}
			if storagetest.Gold(c) != want {
				return fmt.Errorf("gold %v, want %v", storagetest.Gold(c), want)
			}
			c.Card.Build.Fields["gold"] = want - 1
			return tx.PutGameCard("ch", c)
		}
	}
	first, second, ran := make(chan error), make(chan error), make(chan struct{})
	go func() { first <- s.Update(ctx, spend(10)) }()
	<-committing // the first batch is being committed
	go func() {  // runs over the first's writes
		second <- s.Update(ctx, func(tx storage.Tx) error {
			defer close(ran)
			return spend(9)(tx)
		})
	}()
	// Its Update adds it to the open batch before letting go of the run lock, which the
	// committer takes to handle the failure.
	<-ran
	release <- errDisk
	if err := <-first; !errors.Is(err, errDisk) {
		t.Fatalf("first: %v", err)
	}
	if err := <-second; !errors.Is(err, errDisk) {
		t.Fatalf("second, which read the first's writes: %v", err)
	}
	s.beforeCommit = nil
	if err := s.Update(ctx, spend(10)); err != nil {
		t.Fatalf("after the failure the store reads what is durable: %v", err)
	}
}

// TestCommitterDoesNotWaitForRunningFunction: a batch that joined while another
// commits is committed next while a function holds the run lock — the committer never
// takes it — and its caller returns before that function ends.
func TestCommitterDoesNotWaitForRunningFunction(t *testing.T) {
	s, err := open(filepath.Join(t.TempDir(), "r.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	roomToGrow(t, s)
	ctx := context.Background()
	committing, release := make(chan uint64), make(chan error)
	s.beforeCommit = func(id uint64) error {
		committing <- id
		return <-release
	}
	put := func(ch string) func(storage.Tx) error {
		return func(tx storage.Tx) error { return tx.PutGameCard(ch, storagetest.Card("u", "Mira", 10)) }
	}
	first, second, third := make(chan error), make(chan error), make(chan error)
	go func() { first <- s.Update(ctx, put("a")) }()
	firstID := <-committing // alone: committed on its caller's goroutine
	ran := make(chan struct{})
	go func() {
		second <- s.Update(ctx, func(tx storage.Tx) error {
			defer close(ran)
			return put("b")(tx)
		})
	}()
	<-ran // the second joins the open batch before it lets go of the run lock
	running, gate := make(chan struct{}), make(chan struct{})
	gated := true
	defer func() { // let the third go, so Close has nothing to wait for
		if gated {
			close(gate)
		}
		s.beforeCommit = nil
	}()
	go func() {
		third <- s.Update(ctx, func(tx storage.Tx) error {
			close(running)
			<-gate
			return put("c")(tx)
		})
	}()
	<-running // the third function holds the run lock; the second has joined the open batch
	release <- nil
	// All while the third function runs: the first batch answered, the second committed
	// and answered.
	timeout := time.After(20 * time.Second)
	for heard := 0; heard < 3; heard++ {
		select {
		case id := <-committing:
			if id != firstID+1 {
				t.Fatalf("committing batch %d after %d", id, firstID)
			}
			release <- nil
		case err := <-first:
			if err != nil {
				t.Fatal(err)
			}
		case err := <-second:
			if err != nil {
				t.Fatal(err)
			}
		case <-timeout:
			t.Fatal("the committer waited for the running function")
		}
	}
	close(gate)
	gated = false
	<-committing
	release <- nil
	if err := <-third; err != nil {
		t.Fatal(err)
	}
}

// roomToGrow gives s's file free pages, so the commits of a test that holds a function
// running (its read transaction open) need not grow bbolt's map, which waits for every
// read transaction to end.
func roomToGrow(t *testing.T, s *store) {
	t.Helper()
	pad := func(del bool) error {
		return s.db.Update(func(btx *bolt.Tx) error {
			bk := btx.Bucket(bucketMeta)
			for i := range 64 {
				k := fmt.Appendf(nil, "pad-%d", i)
				if del {
					if err := bk.Delete(k); err != nil {
						return err
					}
				} else if err := bk.Put(k, make([]byte, 8<<10)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := pad(false); err != nil {
		t.Fatal(err)
	}
	if err := pad(true); err != nil {
		t.Fatal(err)
	}
}

// TestFailedCommitFailsRunningFunction: a function running over a batch's writes when
// that batch's commit fails gets the commit's error when it returns, though the
// committer published the failure while it ran; the next function reads what is
// durable.
func TestFailedCommitFailsRunningFunction(t *testing.T) {
	s, err := open(filepath.Join(t.TempDir(), "f.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	roomToGrow(t, s)
	ctx := context.Background()
	errDisk := errors.New("disk on fire")
	committing, release := make(chan uint64), make(chan error)
	s.beforeCommit = func(id uint64) error {
		committing <- id
		return <-release
	}
	first, second := make(chan error), make(chan error)
	go func() {
		first <- s.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u", "Mira", 10)) })
	}()
	<-committing
	read, gate := make(chan struct{}), make(chan struct{})
	go func() {
		second <- s.Update(ctx, func(tx storage.Tx) error {
			if _, err := tx.GameCard("ch", "Mira"); err != nil { // the failing batch's write
				return err
			}
			close(read)
			<-gate
			return tx.PutGameCard("ch2", storagetest.Card("u", "Bo", 1))
		})
	}()
	<-read
	release <- errDisk
	if err := <-first; !errors.Is(err, errDisk) {
		t.Fatalf("first: %v", err)
	}
	close(gate)
	if err := <-second; !errors.Is(err, errDisk) {
		t.Fatalf("second, running over the failed writes as they failed: %v", err)
	}
	s.beforeCommit = nil
	err = s.Update(ctx, func(tx storage.Tx) error {
		for _, ch := range []string{"ch", "ch2"} {
			if cards, err := tx.GameCards(ch); err != nil || len(cards) != 0 {
				return fmt.Errorf("channel %s: %d cards, %v", ch, len(cards), err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after the failure the store reads what is durable: %v", err)
	}
}

// TestHandOverDoesNotWaitForLaterCallers: a batch ready while callers wait for the run
// lock waits for those callers, not for the ones that come after them — here failing
// ones, which never join it.
func TestHandOverDoesNotWaitForLaterCallers(t *testing.T) {
	s, err := open(filepath.Join(t.TempDir(), "h.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	waiters := func(n int32) {
		for s.waiting.Load() != n {
			time.Sleep(time.Millisecond)
		}
	}
	errNo := errors.New("no")
	started, goW := make(chan struct{}), make(chan struct{})
	written := make(chan error)
	go func() {
		written <- s.Update(ctx, func(tx storage.Tx) error {
			close(started)
			<-goW
			return tx.PutCampaign(&storage.Campaign{ChannelID: "ch", CreatedAt: storagetest.When})
		})
	}()
	<-started
	gates := make([]chan struct{}, 4)
	opened := 0
	defer func() { // let the failing callers go, so Close has nothing to wait for
		for _, g := range gates[opened:] {
			close(g)
		}
	}()
	for i := range gates {
		gates[i] = make(chan struct{})
		waiters(0) // the caller before holds the run lock: the write, then each failing one
		go func() {
			_ = s.Update(ctx, func(storage.Tx) error { <-gates[i]; return errNo })
		}()
		waiters(1) // the next failing caller waits for it
		if i == 0 {
			close(goW) // the write is ready, with one caller waiting
		} else {
			close(gates[i-1]) // that caller fails; the one after it is already waiting
			opened = i
		}
	}
	select {
	case err := <-written:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the write waited for a caller that came after it was ready")
	}
}

// TestOnUpdateHearsEachUpdate: the OnUpdate hook hears of each Update once, as it
// returns (after its commit), with no conflicts (one writer) and the Update's error —
// a failed commit's too; a View is not an Update.
func TestOnUpdateHearsEachUpdate(t *testing.T) {
	type heard struct {
		conflicts int
		err       error
	}
	var calls []heard
	s, err := open(filepath.Join(t.TempDir(), "o.db"), Options{OnUpdate: func(took time.Duration, conflicts int, err error) {
		if took <= 0 {
			t.Errorf("took %v", took)
		}
		calls = append(calls, heard{conflicts, err})
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	put := func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u", "Mira", 10)) }
	if err := s.Update(ctx, put); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("turned away by its function")
	if err := s.Update(ctx, func(storage.Tx) error { return refused }); err != refused {
		t.Fatalf("Update: %v", err)
	}
	errDisk := errors.New("disk on fire")
	s.beforeCommit = func(uint64) error { return errDisk }
	if err := s.Update(ctx, put); !errors.Is(err, errDisk) {
		t.Fatalf("failed commit: %v", err)
	}
	s.beforeCommit = nil
	if err := s.View(ctx, func(storage.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 || calls[0] != (heard{}) || calls[1].err != refused || !errors.Is(calls[2].err, errDisk) {
		t.Fatalf("OnUpdate heard %+v", calls)
	}
	for _, c := range calls {
		if c.conflicts != 0 {
			t.Fatalf("bbolt reported a conflict: %+v", calls)
		}
	}
}

// TestOnSyncHearsEachRecord: the OnSync hook hears of each journal record's sync — one
// per batch that wrote something — and of nothing else: not a View, not an Update that
// wrote nothing or was turned away by its function.
func TestOnSyncHearsEachRecord(t *testing.T) {
	var syncs []time.Duration
	s, err := open(filepath.Join(t.TempDir(), "s.db"), Options{OnSync: func(took time.Duration) { syncs = append(syncs, took) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for i := range 3 {
		if err := s.Update(ctx, func(tx storage.Tx) error {
			return tx.PutGameCard("ch", storagetest.Card("u", "Mira", float64(10+i)))
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Update(ctx, func(storage.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(storage.Tx) error { return errors.New("turned away") }); err == nil {
		t.Fatal("a function's error was lost")
	}
	if err := s.View(ctx, func(storage.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(syncs) != 3 || s.journal.next-1 != 3 {
		t.Fatalf("OnSync heard %d syncs, the journal holds %d records; want 3 each", len(syncs), s.journal.next-1)
	}
	for _, d := range syncs {
		if d <= 0 {
			t.Fatalf("a sync took %v", d)
		}
	}
}
