package bolt

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// Group commit, pipelined, through a journal.
//
// An fsynced bbolt commit costs ~0.5–2 ms however little it writes (bbolt syncs twice:
// the pages, then the meta page), so one commit per command caps a store at ~1,000
// commands a second. Updates are therefore committed in batches, and a batch is made
// durable by one record of the journal (journal.go), one fdatasync, before bbolt takes
// it:
//
//   - Each caller runs its own function, on its own goroutine, holding the run lock, so
//     functions run one at a time, numbered in the order they take it. A function reads
//     through a read transaction of what bbolt holds with the writes of the batches it
//     does not hold yet laid over it (pendingKV), so it sees what every function before
//     it wrote, exactly as if each had its own transaction in that order. What it writes
//     joins the open batch, and its caller waits for that batch to be durable.
//   - One committer goroutine writes a closed batch as the journal's next record, syncs
//     it, hands it to the applier and answers the batch's callers. A lone writer — its
//     function the whole batch, the committer free, no one waiting — commits its batch
//     on its own goroutine instead (alone), sparing the hand-over both ways.
//   - One applier goroutine has bbolt take the journalled batches, all those waiting in
//     one commit, every applyEvery or at once when someone waits for bbolt: a Backup
//     or Export, a journal file to be started again, a failed commit. A View reads
//     the journalled batches over bbolt instead (store.beginDurable).
//
// Two locks, so the committer never waits behind the callers. The run lock is held for
// a whole function, and up to every channel's caller queues for it; the committer and
// the applier never take it. The hand-over lock guards only the open batch, whether the
// committer has one, the batches journalled and what the commits and the applier
// published (the last function whose batch bbolt holds, the failures counted); it is
// held for a few field changes, never for a function, a commit or a sync. Only a holder
// of the run lock touches the pending writes: before its function runs it catches up
// with what was published — it drops the writes bbolt now holds (settle), or all of them
// after a failure (reset) — and it then runs its function over the result. (bbolt itself
// still makes a commit that grows its memory map wait for the read transaction of the
// function running, and of the one just run until its caller ends it, which it does
// before it waits: bbolt remaps under its mmap lock.)
//
// The open batch goes to the committer as soon as both are ready: a function joining
// an empty batch while the committer is free hands it over at once, and the committer,
// when it finishes a commit, takes the open batch on the spot if anything joined it
// meanwhile, else is free. So while one batch is written and synced, the next is being
// run: the disk and the CPU work at once, the disk is never idle while a batch waits, a
// lone caller waits for no one (no timer, unlike bbolt's DB.Batch, and no other
// goroutine to run its function), and under load a batch grows by itself to whatever
// ran during the last commit, so busy channels share one fsync.
//
// A panic in a function (or t.FailNow) happens on its caller's goroutine, as it would
// without group commit. A function that fails, panics or exits leaves no trace: its
// writes are taken back out of the pending writes (pendingKV.takeBack) before the lock
// is let go, and never reach a batch. When a commit fails, its callers get the error,
// and so do the callers of the batch run after it and the function running as it fails
// (they may have read what failed to commit): a function joining a batch checks that no
// commit failed since it caught up. The committer first waits for bbolt to take every
// batch journalled before the failed one, so the next function, which drops the pending
// writes, reads them from bbolt. When bbolt fails to take journalled batches, the store
// is broken (store.broken): every later Update and View fails, saying so, since their
// writes are in the journal only, and the next open replays them.
//
// Every caller returns after its writes (and everything it read) are durable, or with
// the commit's error. A function that wrote nothing while nothing it may have read is
// not yet durable returns at once.

// batch is the functions that joined since the last hand-over, and what they wrote.
type batch struct {
	id     uint64
	last   uint64       // the number of the last function to join (see store.runs)
	record uint64       // its journal record, once durable
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
			s.run.Unlock()
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	failures, durableRun, broken := s.catchUp()
	if broken != nil {
		return broken // the pending writes may hold what bbolt never took
	}
	rtx, err := s.db.Begin(false)
	if err != nil {
		return fmt.Errorf("storage: begin transaction: %w", err)
	}
	s.runs++
	view := s.newView(rtx)
	t := &tx{kv: view, cards: &s.cards, camps: &s.camps, lateCards: true}
	returned := false
	defer func() {
		if !returned { // fn panicked or exited its goroutine
			t.done = true
			_ = rtx.Rollback()
			view.takeBack()
		}
	}()
	err = fn(t)
	if err == nil {
		err = t.encodeCards(nil)
	}
	returned = true
	t.done = true
	if err != nil {
		_ = rtx.Rollback()
		view.takeBack()
		return err
	}
	if len(view.writes) == 0 && (s.pending.empty() || durableRun >= s.runs-1) {
		_ = rtx.Rollback()
		return nil // read only what is durable, wrote nothing
	}
	done := make(chan error, 1)
	alone, err := s.join(view, failures, done)
	if err != nil {
		_ = rtx.Rollback()
		view.takeBack()
		return err
	}
	s.spare.keep(view)
	s.run.Unlock()
	locked = false
	// The read transaction ends off the lock: bbolt's removeTx takes the meta lock,
	// which a commit holds while it writes its meta page. It must end before the
	// wait, though: a commit that grows the memory map waits for every reader.
	_ = rtx.Rollback()
	return s.await(alone, t.written, done)
}

// await is the rest of an Update once its function joined a batch and let go of the
// run lock: keep what it wrote in the memo while the batch commits — after committing
// it here when it is alone — and wait for the commit. The caller first yields: letting
// go of the run lock made the next caller runnable on this core, and it runs now, not
// after remember (a card's spare copy, ~8 µs, every reply's wait for the lock under load:
// the median gap between one holder and the next 7 → 1 µs with 64 channels).
func (s *store) await(alone *batch, written []writtenCard, done chan error) error {
	if alone == nil {
		runtime.Gosched()
		s.remember(written)
		return <-done
	}
	if next := s.commit(alone); next != nil {
		s.batches <- next // never waits: the committer is free, the buffer empty
	}
	// After the commit, on this goroutine: remembering on another while this one
	// committed cost more than it saved — starting it and waking a thread for it added
	// ~40 µs to a lone reply (reply − bare Update 110–130 → 70–77 µs with the fsync on
	// tmpfs), the copy itself ~5.
	s.remember(written)
	return <-done
}

// views is a function's lists (pendingKV's), kept from one function to the next under
// the run lock: made afresh they were a tenth of what a reply allocated, and every
// kilobyte allocated brings the next collection, and the assists that slow the
// function holding the lock, sooner.
type views struct {
	writes []write
	undo   []undoEntry
	opened []openBucket
}

// newView is the view of a function about to run over rtx (under the run lock), with
// the lists the last one used.
func (s *store) newView(rtx *bolt.Tx) *pendingKV {
	v := &pendingKV{rtx: rtx, p: &s.pending, run: s.runs, writes: s.spare.writes, undo: s.spare.undo, opened: s.spare.opened}
	s.spare = views{}
	if v.writes == nil {
		v.writes, v.undo, v.opened = make([]write, 0, 8), make([]undoEntry, 0, 8), make([]openBucket, 0, 8)
	}
	return v
}

// keep takes v's lists, emptied, once its writes are in a batch (join copies them).
func (sp *views) keep(v *pendingKV) {
	clear(v.writes)
	clear(v.undo)
	clear(v.opened)
	*sp = views{v.writes[:0], v.undo[:0], v.opened[:0]}
	v.writes, v.undo, v.opened = nil, nil, nil
}

// newBatch is the open batch after the one numbered id. (A committed batch's list of
// writes is not kept for the next: a View may still read it, see beginDurable.)
func (s *store) newBatch(id uint64) *batch { return &batch{id: id + 1} }

// catchUp brings the pending writes up to what the commits have published, for the
// function about to run (under the run lock): after a failed commit it drops them all
// (what ran after the failed batch failed with it, and bbolt holds every batch before
// it: see commit), else it drops those of the functions whose batches bbolt now holds.
// It returns the failures counted, for join, and the last function whose batch is
// durable — or, once the store is broken, why, and touches nothing.
func (s *store) catchUp() (failures, durableRun uint64, broken error) {
	s.hand.Lock()
	committed, failures, durableRun, broken := s.committed, s.failures, s.durableRun, s.broken
	s.hand.Unlock()
	if broken != nil {
		return 0, 0, broken
	}
	switch {
	case failures != s.resets:
		s.pending.reset()
		s.resets = failures
	case committed != s.settled:
		s.pending.settle(committed)
	}
	s.settled = committed
	return failures, durableRun, nil
}

// join adds a function that ran (view, its caller answered on done) to the open batch,
// unless a commit failed since it caught up (failures then): it may have read what
// failed, so it fails with that commit's error. A function joining while the committer
// is free has the batch to itself (the committer takes every batch that is not empty
// as it finishes): join hands it over at once — to the committer, or, when no one waits
// for the run lock, to its caller to commit alone. A lone writer so starts its commit at
// once: handed to the committer, the batch waited for the caller to remember its cards
// (the committer, woken on the caller's core, did not start before it was free: ~50 µs)
// and the caller for its wake-up after the commit (~25 µs), a third of a reply's time
// above the commit. Callers that come while it commits make the next batch, which goes
// to the committer.
func (s *store) join(view *pendingKV, failures uint64, done chan error) (alone *batch, err error) {
	s.hand.Lock()
	defer s.hand.Unlock()
	switch {
	case s.broken != nil:
		return nil, s.broken
	case s.failures != failures:
		return nil, s.failErr
	}
	b := s.open
	b.done = append(b.done, done)
	b.writes = append(b.writes, view.writes...)
	b.last = view.run
	if s.committing {
		return nil, nil
	}
	s.open = s.newBatch(b.id)
	s.committing = true
	if s.waiting.Load() == 0 {
		return b, nil
	}
	s.batches <- b // never waits: the committer is free only once it has taken the last
	return nil, nil
}

// remember keeps the cards a function wrote in the memo, so the next command to read
// them finds them decoded (see record.CardMemo): the last bytes of each with the record
// they encode — checked again when encoded before the function returned (early).
func (s *store) remember(written []writtenCard) {
	for i, w := range slices.Backward(written) {
		switch {
		case slices.ContainsFunc(written[i+1:], func(o writtenCard) bool { return o.key == w.key }):
		case w.early:
			s.cards.Remember(w.key, w.raw, w.rec)
		default:
			s.cards.Keep(w.key, w.raw, w.rec)
		}
	}
}

// commitLoop is the committer: it commits each batch handed to it, and the open batch
// after it for as long as one is ready when it finishes.
func (s *store) commitLoop() {
	defer close(s.stopped)
	for b := range s.batches {
		for b != nil {
			b = s.commit(b)
		}
	}
}

// commit is the committer's work on batch b, on the committer's goroutine or on a lone
// caller's (alone): journal it, publish the outcome, hand it to the applier, answer its
// callers (and on a failure those of the open batch), and return the open batch when
// something joined it during the commit — the committer's next — or nil, the committer
// then free.
func (s *store) commit(b *batch) (next *batch) {
	var err error
	if s.beforeCommit != nil {
		err = s.beforeCommit(b.id)
	}
	var number uint64
	if err == nil && len(b.writes) > 0 {
		number, err = s.journal.write(b.writes, s.awaitApplied)
	}
	s.hand.Lock()
	var failed *batch
	switch {
	case err != nil:
		// The next function drops every pending write (catchUp), those of the batches
		// journalled before this one too: bbolt must hold them first.
		durable := s.durable
		s.hand.Unlock()
		_ = s.awaitApplied(durable)
		s.hand.Lock()
		s.failures++
		s.failErr = err
		failed, s.open = s.open, s.newBatch(s.open.id)
	case number == 0: // only reads, of what the batches before made durable
		s.durableRun = b.last
	default:
		s.durable, s.durableRun = number, b.last
		b.record = number
		s.journalled = append(s.journalled, b)
		select {
		case s.kick <- struct{}{}:
		default: // the applier has a kick it has not taken: it will see b
		}
	}
	if len(s.open.done) > 0 {
		next, s.open = s.open, s.newBatch(s.open.id)
	} else {
		s.committing = false
	}
	s.hand.Unlock()
	for _, d := range b.done {
		d <- err
	}
	if failed != nil {
		for _, d := range failed.done {
			d <- err
		}
	}
	return next
}

// awaitApplied returns once bbolt holds every journal record up to n, or with the
// error that stopped it taking them.
func (s *store) awaitApplied(n uint64) error {
	s.hand.Lock()
	defer s.hand.Unlock()
	if s.applied < n {
		select {
		case s.urge <- struct{}{}:
		default: // urged already
		}
	}
	for s.applied < n && s.broken == nil {
		s.caught.Wait()
	}
	return s.broken
}

// caughtUp returns once bbolt holds every batch journalled so far, so a reader of bbolt
// sees every write whose Update has returned (Backup, Export).
func (s *store) caughtUp() error {
	s.hand.Lock()
	n := s.durable
	s.hand.Unlock()
	return s.awaitApplied(n)
}

// applyEvery is how long journalled batches gather before bbolt takes them, unless
// someone waits for bbolt (awaitApplied urges the applier): fewer, larger commits write
// each card once for many replies. With 64 channels at 5,000 replies/s, bbolt taking
// each batch at once wrote 2.2–2.6 pages a reply and every 50 ms 0.3, and the median
// reply waited 1.3–1.8 ms and now 0.5–1.0 (BenchmarkOffered); every 10, 20 or 100 ms
// did no better, every second worse (p99 56–75 ms: each commit then took long).
const applyEvery = 50 * time.Millisecond

// applyLoop is the applier: kicked by a journalled batch, it lets others gather for
// applyEvery, or until urged, then has bbolt take every one waiting in one commit; once
// the store closes (after the last commit) it takes what is left and ends. Once bbolt
// fails to take them the store is broken: they are durable in the journal, and the next
// open replays them, but this process can neither write nor read past them.
func (s *store) applyLoop() {
	defer close(s.applierStopped)
	var groups [][]write
	for closing := false; !closing; {
		select {
		case <-s.kick:
			t := time.NewTimer(applyEvery)
			select {
			case <-t.C:
			case <-s.urge:
			case <-s.closing:
				closing = true
			}
			t.Stop()
		case <-s.urge:
		case <-s.closing:
			closing = true
		}
		groups = s.applyJournalled(groups)
	}
}

// applyJournalled has bbolt take every journalled batch in one commit, and publishes
// the outcome. groups is a list to reuse.
func (s *store) applyJournalled(groups [][]write) [][]write {
	s.hand.Lock()
	todo := s.journalled
	if s.broken != nil {
		todo = nil
	}
	s.journalled = nil
	if len(todo) > 0 {
		s.applying = todo
		s.applyStarts++
	}
	s.hand.Unlock()
	if len(todo) == 0 {
		return groups
	}
	groups = groups[:0]
	for _, b := range todo {
		groups = append(groups, b.writes)
	}
	var err error
	if s.beforeApply != nil {
		err = s.beforeApply()
	}
	if err == nil {
		err = s.apply(groups, todo[len(todo)-1].record)
	}
	clear(groups)
	s.hand.Lock()
	defer s.hand.Unlock()
	if err != nil {
		s.broken = fmt.Errorf("%w (the batches journalled since are safe: restart sheetkeeper to have them replayed)", err)
	} else {
		last := todo[len(todo)-1]
		s.applied, s.committed = last.record, last.last
		s.applying = nil
	}
	s.caught.Broadcast()
	return groups
}

// apply has bbolt take groups of writes, each a journal record's in order, the last
// numbered number, in one transaction that records number as the last taken.
func (s *store) apply(groups [][]write, number uint64) error {
	btx, err := s.db.Begin(true)
	if err != nil {
		return fmt.Errorf("storage: begin transaction: %w", err)
	}
	n := 0
	for _, writes := range groups {
		for _, w := range writes {
			// Every 64 writes the applier lets the goroutines waiting for its core run:
			// a commit's ~1,300 puts held it ~1 ms, and the channels' goroutines, woken
			// late behind it, offered their replies late (BenchmarkOffered, three rounds
			// each: offered-late-p99-ms 2.9–3.5 → 2.3–2.5, p99 6.1–7.5 → 5.5–6.6 ms).
			if n++; n%64 == 0 {
				runtime.Gosched()
			}
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
	}
	if err := btx.Bucket(bucketMeta).Put(keyJournal, be64(number)); err != nil {
		_ = btx.Rollback()
		return fmt.Errorf("storage: write %s: %w", bucketMeta, err)
	}
	if err := btx.Commit(); err != nil {
		return fmt.Errorf("storage: commit: %w", err)
	}
	return nil
}
