package bolt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// Group commit.
//
// An fsynced bbolt commit costs ~0.5 ms however little it writes, so one commit per
// command caps a store at ~2,000 commands a second. Update therefore queues its call
// for one committer goroutine, which takes every call queued at that moment (up to
// maxBatch), lets them run one after another in a single bbolt transaction, commits it
// with one fsync, and only then answers each caller. While it commits, new callers
// queue up, so the batch grows with the load by itself: a lone caller waits for no one
// (no timer, unlike bbolt's DB.Batch, whose MaxBatchDelay adds up to 10 ms to every
// quiet command), and 64 busy channels share one fsync per batch.
//
// Each function runs on its caller's goroutine: the committer hands the caller the
// transaction and waits for the function to finish, so a panic (or t.FailNow) happens
// where it would without group commit, with its own stack.
//
// A function that fails must leave no trace while its neighbours' writes stand. bbolt
// has no savepoints, so each function's tx keeps an undo log (the previous value of
// every key it writes) and a failed or panicking function's log is played back at once;
// the functions after it never see its writes. So, unlike DB.Batch, a neighbour's error
// never re-runs anyone and every function runs exactly once (storage.Store still allows
// re-running, which another backend may need).
//
// The result is the same as running the functions one by one in queue order, each in
// its own transaction, except that their commits share one fsync: every caller returns
// after its writes (and everything it read) are durable, or with the commit's error.

// maxBatch bounds the functions in one transaction (and the queue's buffer).
const maxBatch = 256

// request states: a request is taken by the committer or abandoned by its caller, once.
const (
	queued int32 = iota
	taken
	abandoned
)

type request struct {
	state    atomic.Int32
	turn     chan *tx   // the committer hands the transaction to the caller
	finished chan error // the caller's function is done: its error, or errAborted
	done     chan error // buffered: the commit's outcome for a function that succeeded
}

// errAborted reports a function that panicked or exited its goroutine.
var errAborted = errors.New("storage: transaction function did not return")

// Update runs fn in a read-write transaction shared with other concurrent callers (see
// above) and returns once what fn wrote is durable. A context cancelled before fn starts
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

func (s *store) commitLoop() {
	defer close(s.stopped)
	batch := make([]*request, 0, maxBatch)
	for first := range s.queue {
		batch = append(batch[:0], first)
	fill:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-s.queue:
				if !ok {
					break fill
				}
				batch = append(batch, r)
			default:
				break fill
			}
		}
		s.commit(batch)
		clear(batch)
	}
}

// commit runs a batch in one transaction and answers each function that succeeded.
func (s *store) commit(batch []*request) {
	var btx *bolt.Tx
	var ok []*request // functions that returned nil
	wrote := false
	for _, r := range batch {
		if !r.state.CompareAndSwap(queued, taken) {
			continue // its caller has gone
		}
		if btx == nil {
			var err error
			if btx, err = s.db.Begin(true); err != nil {
				err = fmt.Errorf("storage: begin transaction: %w", err)
				s.failRest(batch, r, err)
				return
			}
		}
		t := &tx{btx: btx, cards: &s.cards}
		r.turn <- t
		err := <-r.finished
		t.done = true
		if err != nil {
			if uerr := t.rollback(); uerr != nil {
				_ = btx.Rollback()
				for _, o := range ok {
					o.done <- uerr
				}
				s.failRest(batch, nil, uerr)
				return
			}
			continue
		}
		ok = append(ok, r)
		wrote = wrote || len(t.undo) > 0
	}
	if btx == nil {
		return
	}
	var err error
	if wrote {
		if err = btx.Commit(); err != nil {
			err = fmt.Errorf("storage: commit: %w", err)
		}
	} else {
		_ = btx.Rollback() // nothing to make durable
	}
	for _, r := range ok {
		r.done <- err
	}
}

// failRest answers with err every request of the batch still queued, and from (taken,
// not yet run).
func (s *store) failRest(batch []*request, from *request, err error) {
	for _, r := range batch {
		if r == from || r.state.CompareAndSwap(queued, taken) {
			r.turn <- &tx{done: true, failed: err}
		}
	}
}
