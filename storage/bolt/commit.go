package bolt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"sheetkeeper/storage"
)

// Group commit, pipelined.
//
// An fsynced bbolt commit costs ~0.5–2 ms however little it writes (bbolt syncs twice:
// the pages, then the meta page), so one commit per command caps a store at ~1,000
// commands a second. Updates are therefore committed in batches, by two goroutines:
//
//   - the executor takes each queued call and runs its function at once, one after
//     another, each over a read transaction of what is committed with the writes of the
//     batches not yet committed laid over it (pendingKV), so every function reads what
//     the ones before it wrote, exactly as if each had its own transaction in queue
//     order. What a function writes joins the open batch.
//   - the committer writes a closed batch into one bbolt transaction and commits it with
//     its fsyncs, then answers each caller of the batch.
//
// The executor hands the open batch to the committer as soon as the committer is free,
// having first run every call already queued. So while one batch is being written and
// synced, the next is being run: the disk and the CPU work at once, a lone caller waits
// for no one (no timer, unlike bbolt's DB.Batch), and under load the batch grows by
// itself to whatever arrived during the last commit, so busy channels share one fsync.
//
// Each function runs on its caller's goroutine: the executor hands the caller its tx and
// waits for the function to finish, so a panic (or t.FailNow) happens where it would
// without group commit, with its own stack.
//
// A function that fails leaves no trace: its writes are taken back out of the pending
// writes (pendingKV.takeBack) before the next function runs, and never reach a batch.
// A function runs exactly once. When a commit fails, its callers get the error, and so
// do the callers of the batch run after it (they may have read what failed to commit);
// the pending writes are dropped and bbolt is read afresh.
//
// Every caller returns after its writes (and everything it read) are durable, or with
// the commit's error. A function that wrote nothing while nothing was pending returns
// at once.

// maxBatch bounds the functions in one transaction (and the queue's buffer).
const maxBatch = 256

// request states: a request is taken by the executor or abandoned by its caller, once.
const (
	queued int32 = iota
	taken
	abandoned
)

type request struct {
	state    atomic.Int32
	turn     chan *tx   // the executor hands the transaction to the caller
	finished chan error // the caller's function is done: its error, or errAborted
	done     chan error // buffered: the commit's outcome for a function that succeeded
}

// errAborted reports a function that panicked or exited its goroutine.
var errAborted = errors.New("storage: transaction function did not return")

// Update runs fn after every function queued before it, seeing what they wrote (see
// above), and returns once what fn wrote is durable. A context cancelled before fn starts
// returns ctx.Err(); once fn has started, Update waits for the commit. fn must not call
// View or Update on the same Store (that would wait for itself).
func (s *store) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := &request{turn: make(chan *tx, 1), finished: make(chan error, 1), done: make(chan error, 1)}
	s.mu.RLock()
	if s.closed.Load() {
		s.mu.RUnlock()
		return ErrClosed
	}
	select {
	case s.queue <- req:
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	s.mu.RUnlock()

	var t *tx
	select {
	case t = <-req.turn:
	case <-ctx.Done():
		if req.state.CompareAndSwap(queued, abandoned) {
			return ctx.Err()
		}
		t = <-req.turn
	}
	if t.failed != nil {
		return t.failed
	}
	if err := ctx.Err(); err != nil {
		req.finished <- err
		return err
	}
	returned := false
	defer func() {
		if !returned {
			req.finished <- errAborted
		}
	}()
	err := fn(t)
	returned = true
	written := t.written
	req.finished <- err
	if err != nil {
		return err // rolled back; nothing to wait for
	}
	// While the batch commits, keep what fn wrote in the memo, so the next command to
	// read these cards finds them decoded (see cardCache): the last bytes of each.
	for i, w := range slices.Backward(written) {
		if !slices.ContainsFunc(written[i+1:], func(o writtenCard) bool { return o.key == w.key }) {
			s.cards.remember(w)
		}
	}
	return <-req.done
}

// batch is the functions run since the last hand-over, and what they wrote.
type batch struct {
	id     uint64
	reqs   []*request // functions that succeeded, answered after the commit
	writes []write
}

// committed is the committer's answer for a batch.
type committed struct {
	id  uint64
	err error
}

// execLoop is the executor (see above). It owns the pending writes.
func (s *store) execLoop() {
	defer close(s.stopped)
	batches := make(chan *batch)
	results := make(chan committed)
	go s.commitLoop(batches, results)
	defer close(batches)

	var p pending
	open := &batch{id: 1}
	committing := false
	queue := s.queue
	for {
		if !committing && len(open.reqs) > 0 {
		queued: // run what is already waiting before the batch goes
			for len(open.reqs) < maxBatch {
				select {
				case r, ok := <-queue:
					if !ok {
						queue = nil
						break queued
					}
					s.run(r, &p, open)
				default:
					break queued
				}
			}
			batches <- open
			committing = true
			open = &batch{id: open.id + 1}
		}
		if queue == nil && !committing {
			return // closed, and everything run is committed
		}
		select {
		case r, ok := <-queue:
			if !ok {
				queue = nil
				continue
			}
			s.run(r, &p, open)
		case c := <-results:
			committing = false
			if c.err != nil {
				for _, r := range open.reqs {
					r.done <- c.err
				}
				open.reqs, open.writes = nil, nil
				p.reset()
				continue
			}
			p.settle(c.id)
		}
	}
}

// run runs one queued call's function over the pending writes and adds it to b.
func (s *store) run(r *request, p *pending, b *batch) {
	if !r.state.CompareAndSwap(queued, taken) {
		return // its caller has gone
	}
	rtx, err := s.db.Begin(false)
	if err != nil {
		r.turn <- &tx{done: true, failed: fmt.Errorf("storage: begin transaction: %w", err)}
		return
	}
	view := &pendingKV{rtx: rtx, p: p, batch: b.id, writes: make([]write, 0, 8), undo: make([]undoEntry, 0, 8)}
	t := &tx{kv: view, cards: &s.cards}
	r.turn <- t
	err = <-r.finished
	t.done = true
	_ = rtx.Rollback()
	switch {
	case err != nil:
		view.takeBack()
	case len(view.writes) == 0 && p.empty():
		r.done <- nil // read only what is durable, wrote nothing
	default:
		b.reqs = append(b.reqs, r)
		b.writes = append(b.writes, view.writes...)
	}
}

// commitLoop is the committer: it writes each batch and answers its callers.
func (s *store) commitLoop(batches <-chan *batch, results chan<- committed) {
	for b := range batches {
		var err error
		if s.beforeCommit != nil {
			err = s.beforeCommit(b.id)
		}
		if err == nil {
			err = s.write(b.writes)
		}
		for _, r := range b.reqs {
			r.done <- err
		}
		results <- committed{b.id, err}
	}
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
		bk := btx.Bucket(w.bucket)
		if bk == nil {
			err = fmt.Errorf("bucket %q missing", w.bucket)
		} else {
			bk.FillPercent = fillPercent(w.bucket)
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
