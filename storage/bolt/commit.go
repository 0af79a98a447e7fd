package bolt

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"sheetkeeper/storage"
)

// Group commit, pipelined.
//
// An fsynced bbolt commit costs ~0.5–2 ms however little it writes (bbolt syncs twice:
// the pages, then the meta page), so one commit per command caps a store at ~1,000
// commands a second. Updates are therefore committed in batches:
//
//   - Each caller runs its own function, on its own goroutine, holding the run lock, so
//     functions run one at a time. A function reads through a read transaction of what
//     is committed with the writes of the batches not yet committed laid over it
//     (pendingKV), so it sees what every function before it wrote, exactly as if each
//     had its own transaction in the order they took the lock. What it writes joins the
//     open batch, and its caller waits for that batch's commit.
//   - One committer goroutine writes a closed batch into one bbolt transaction and
//     commits it with its fsyncs, then answers the batch's callers. A lone writer — its
//     function the whole batch, the committer free, no one waiting — commits its batch
//     on its own goroutine instead (alone), sparing the hand-over both ways.
//
// The open batch goes to the committer as soon as the committer is free and the callers
// already waiting for the run lock then have run: handed over by the last of them, or by
// the committer itself when it finishes a commit and no one is waiting. So
// while one batch is written and synced, the next is being run: the disk and the CPU
// work at once, a lone caller waits for no one (no timer, unlike bbolt's DB.Batch, and
// no other goroutine to run its function), and under load a batch grows by itself to
// whatever ran during the last commit, so busy channels share one fsync.
//
// A panic in a function (or t.FailNow) happens on its caller's goroutine, as it would
// without group commit. A function that fails, panics or exits leaves no trace: its
// writes are taken back out of the pending writes (pendingKV.takeBack) before the lock
// is let go, and never reach a batch. When a commit fails, its callers get the error,
// and so do the callers of the batch run after it (they may have read what failed to
// commit); the pending writes are dropped and bbolt is read afresh.
//
// Every caller returns after its writes (and everything it read) are durable, or with
// the commit's error. A function that wrote nothing while nothing was pending returns
// at once.

// batch is the functions run since the last hand-over, and what they wrote.
type batch struct {
	id     uint64
	done   []chan error // one per function that wrote or read pending writes
	writes []write
}

// Update runs fn after the functions that took the run lock before it, seeing what they
// wrote (see above), and returns once what fn wrote is durable. A context cancelled
// before fn starts returns ctx.Err(); once fn has started, Update waits for the commit.
// fn must not call View or Update on the same Store (that would wait for itself).
func (s *store) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if s.onUpdate == nil {
		return s.update(ctx, fn)
	}
	start := time.Now()
	err := s.update(ctx, fn)
	s.onUpdate(time.Since(start), 0, err)
	return err
}

// update is Update, unobserved.
func (s *store) update(ctx context.Context, fn func(storage.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	if s.closed.Load() {
		s.mu.RUnlock()
		return errClosed
	}
	s.updates.Add(1)
	s.mu.RUnlock()
	defer s.updates.Done()

	s.waiting.Add(1)
	s.run.Lock()
	s.waiting.Add(-1)
	locked := true
	defer func() {
		if locked {
			s.release()
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	rtx, err := s.db.Begin(false)
	if err != nil {
		return fmt.Errorf("storage: begin transaction: %w", err)
	}
	view := &pendingKV{rtx: rtx, p: &s.pending, batch: s.open.id, writes: make([]write, 0, 8), undo: make([]undoEntry, 0, 8)}
	t := &tx{kv: view, cards: &s.cards, camps: &s.camps}
	returned := false
	defer func() {
		if !returned { // fn panicked or exited its goroutine
			t.done = true
			_ = rtx.Rollback()
			view.takeBack()
		}
	}()
	err = fn(t)
	returned = true
	t.done = true
	_ = rtx.Rollback()
	if err != nil {
		view.takeBack()
		return err
	}
	if len(view.writes) == 0 && s.pending.empty() {
		return nil // read only what is durable, wrote nothing
	}
	done := make(chan error, 1)
	s.open.done = append(s.open.done, done)
	s.open.writes = append(s.open.writes, view.writes...)
	alone := s.alone()
	s.release()
	locked = false

	// While the batch commits, keep what fn wrote in the memo.
	if alone == nil {
		s.remember(t.written)
		return <-done
	}
	var wg sync.WaitGroup
	if len(t.written) > 0 {
		wg.Go(func() { s.remember(t.written) }) // on the other core, while this one commits
	}
	s.commit(alone)
	wg.Wait()
	return <-done
}

// remember keeps the cards a function wrote in the memo, so the next command to read
// them finds them decoded (see record.CardMemo): the last bytes of each.
func (s *store) remember(written []writtenCard) {
	for i, w := range slices.Backward(written) {
		if !slices.ContainsFunc(written[i+1:], func(o writtenCard) bool { return o.key == w.key }) {
			s.cards.Remember(w.key, w.raw, w.rec)
		}
	}
}

// alone takes the open batch for its caller to commit on its own goroutine, when the
// batch is that caller's function alone, the committer is free and no one waits for the
// run lock. A lone writer then starts its commit at once: handed to the committer, the
// batch waited for the caller to remember its cards (the committer, woken on the
// caller's core, did not start before it was free: ~50 µs) and the caller for its wake-up
// after the commit (~25 µs), a third of a reply's time above the commit. Callers that
// come while it commits make the next batch, which goes to the committer as usual.
func (s *store) alone() *batch {
	if s.committing || len(s.open.done) != 1 || s.waiting.Load() > 0 {
		return nil
	}
	b := s.open
	s.open = &batch{id: b.id + 1}
	s.committing = true
	s.hold = -1
	return b
}

// maxBatch is the most functions a batch waits to take in while callers keep arriving.
const maxBatch = 128

// release lets go of the run lock, handing the open batch over first if it is time.
func (s *store) release() {
	s.handOver()
	s.run.Unlock()
}

// handOver sends the open batch to the committer once it is ready — the committer free,
// the batch not empty — and the callers already waiting for the run lock when it became
// ready have run: they join it, so what was queued goes in one commit. Callers that
// come after them do not hold it back, so a stream of them (failing ones never join)
// cannot keep a free committer idle. It runs under the run lock each time the lock is
// let go and when the committer finishes, so a ready batch waits for no one else. The
// send never waits: the committer is free only once it has taken the last batch from
// the buffer.
func (s *store) handOver() {
	if s.committing || len(s.open.done) == 0 {
		s.hold = -1
		return
	}
	switch {
	case s.hold < 0: // ready from now
		s.hold = int(s.waiting.Load())
	case s.hold > 0: // one of those callers has run
		s.hold--
	}
	if s.hold > 0 && s.waiting.Load() > 0 && len(s.open.done) < maxBatch {
		return
	}
	s.hold = -1
	b := s.open
	s.open = &batch{id: b.id + 1}
	s.committing = true
	s.batches <- b
}

// commitLoop is the committer: it writes each batch, answers its callers, and takes the
// next open batch, if anything ran meanwhile.
func (s *store) commitLoop() {
	defer close(s.stopped)
	for b := range s.batches {
		s.commit(b)
	}
}

// commit is the committer's work on batch b, on the committer's goroutine or on a lone
// caller's (alone): write it, answer its callers, then free the committer and hand the
// next batch over if it is ready.
func (s *store) commit(b *batch) {
	var err error
	if s.beforeCommit != nil {
		err = s.beforeCommit(b.id)
	}
	if err == nil {
		err = s.write(b.writes)
	}
	for _, d := range b.done {
		d <- err
	}
	s.run.Lock()
	s.committing = false
	if err != nil {
		for _, d := range s.open.done {
			d <- err
		}
		s.open = &batch{id: s.open.id + 1}
		s.pending.reset()
	} else {
		s.pending.settle(b.id)
	}
	s.handOver()
	s.run.Unlock()
}

// write applies writes, in order, in one transaction and commits it.
func (s *store) write(writes []write) error {
	if len(writes) == 0 {
		return nil // only reads, of what the batches before made durable
	}
	btx, err := s.db.Begin(true)
	if err != nil {
		return fmt.Errorf("storage: begin transaction: %w", err)
	}
	for _, w := range writes {
		bk, err := bucketIn(btx, w.bucket)
		if err == nil {
			switch {
			case w.key == nil:
				if bk.Sequence() < w.seq {
					err = bk.SetSequence(w.seq)
				}
			case w.deleted:
				err = bk.Delete(w.key)
			default:
				err = bk.Put(w.key, w.value)
			}
		}
		if err != nil {
			_ = btx.Rollback()
			return fmt.Errorf("storage: write %s: %w", w.bucket, err)
		}
	}
	if err := btx.Commit(); err != nil {
		return fmt.Errorf("storage: commit: %w", err)
	}
	return nil
}
