// Package bolt is the bbolt backend of storage.Store: one file, every record JSON in a
// bucket (the key layout is in keys.go), a stored schema version migrated on open, and
// group commit through a journal so many channels' commands share one fsync
// (commit.go, journal.go).
package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"sheetkeeper/storage"
	"sheetkeeper/storage/record"
)

// Options tune Open.
type Options struct {
	// Timeout is how long Open waits for another process to let go of the file
	// (DefaultTimeout when 0). bbolt would otherwise wait forever.
	Timeout time.Duration
	// OnUpdate, when set, is told of every Update as it returns: how long it took
	// (waiting for the run lock and the commit included), its conflicts (always 0 here:
	// bbolt has one writer, so no Update ever runs again) and its error. It is the
	// operator's store commit metrics (SPEC 12); it must not block.
	OnUpdate func(took time.Duration, conflicts int, err error)
	// OnSync, when set, is told how long each journal record's sync took: the disk's
	// part of every commit, one record a batch of Updates (journal.go). A commit slower
	// than its syncs waited for the CPUs or for the batch before it; one as slow as
	// them waited for the disk. It is the operator's disk metric; it must not block.
	OnSync func(took time.Duration)
}

// DefaultTimeout is the lock wait when Options.Timeout is 0.
const DefaultTimeout = 5 * time.Second

// errClosed is what a Store used after Close returns. Every error this package makes is
// a *storage.Error with a kind (storage.KindOf): Open's say Locked, Damaged, Foreign or
// Newer and name the file.
var errClosed = &storage.Error{Op: "storage", Kind: storage.Closed}

// errNotFound is a lookup's miss, before the lookup says what it looked for.
var errNotFound = &storage.Error{Kind: storage.NotFound}

// Open opens (creating it and its folder when missing) the database at path, waits at
// most opts.Timeout for another process holding it, brings its schema up to date and
// has bbolt take the batches its journal holds and bbolt does not (journal.go; the
// journal is two files beside the database, path.journal0 and path.journal1, which go
// with it wherever it is copied while sheetkeeper is stopped). A database written by a
// newer sheetkeeper is refused untouched, and so is a damaged one (kind Damaged, the
// error saying what to do: see Check and Salvage), one whose journal is damaged, or one
// that is not sheetkeeper's (Foreign).
func Open(path string, opts Options) (storage.Store, error) {
	return open(path, opts)
}

func open(path string, opts Options) (*store, error) {
	timeout := timeoutOf(opts)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("open database: %w", err)
		}
	}
	// The file is locked and verified (verify.go) before bbolt reads it: bbolt trusts
	// its file, and a damaged one would crash the process instead of failing Open.
	openFile := func(name string, flag int, mode os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, mode)
		if err != nil {
			return nil, err
		}
		if err = lockFile(f, true, timeout); err == nil {
			err = verify(f, path)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoFreelistSync: true, FreelistType: bolt.FreelistMapType, OpenFile: openFile})
	switch {
	case storage.KindOf(err) != storage.Other:
		return nil, err
	case errors.Is(err, berrors.ErrTimeout):
		return nil, storage.Errorf(storage.Locked, "database %s is in use by another sheetkeeper process (waited %s for it)", path, timeout)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return nil, storage.Errorf(storage.Foreign, "%s is not a sheetkeeper database (or is damaged): %v", path, err)
	case err != nil:
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// The journal is read inside the transaction that migrates: refused, it leaves the
	// file as it was (a new one still new, so refused again next time).
	var j *journal
	var replay []journalRecord
	err = db.Update(func(btx *bolt.Tx) error {
		v, err := schemaOf(btx)
		fresh := err == nil && v == 0
		if err := migrate(btx, path); err != nil {
			return err
		}
		applied, err := journalOf(btx.Bucket(bucketMeta).Get(keyJournal))
		if err != nil {
			return storage.Errorf(storage.Damaged, "database %s is damaged: %v", path, err)
		}
		j, replay, err = openJournal(path, applied, fresh)
		return err
	})
	if err != nil {
		if j != nil { // the commit failed
			j.close()
		}
		db.Close()
		return nil, err
	}
	s := &store{db: db, journal: j, batches: make(chan *batch, 1), stopped: make(chan struct{}),
		kick: make(chan struct{}, 1), urge: make(chan struct{}, 1), closing: make(chan struct{}), applierStopped: make(chan struct{}), open: &batch{id: 1}, onUpdate: opts.OnUpdate}
	s.caught.L = &s.hand
	j.onSync = opts.OnSync
	if len(replay) > 0 {
		groups := make([][]write, len(replay))
		for i, r := range replay {
			groups[i] = r.writes
		}
		if err := s.apply(groups, replay[len(replay)-1].number); err != nil {
			j.close()
			db.Close()
			return nil, fmt.Errorf("database %s: replay its journal: %w", path, err)
		}
	}
	s.applied = j.next - 1
	s.durable = s.applied
	go s.commitLoop()
	go s.applyLoop()
	return s, nil
}

// ---- schema ----

// SchemaVersion is the schema this sheetkeeper writes: len(migrations).
const SchemaVersion = 9

// migrations[n] takes a database from schema version n to n+1, inside the one
// transaction that opens it, so a migration happens whole or not at all.
var migrations = [SchemaVersion]func(*bolt.Tx) error{
	0: func(btx *bolt.Tx) error { // an empty file: create schema 1's buckets
		for _, name := range schema1Buckets {
			if _, err := btx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	},
	1: migrateReplyLog,
	2: migrateReplyChain,
	3: migrateTombstones,
	4: migrateRulesetTenancy, // migrate_tenancy.go
	5: migrateHints,          // hints.go
	6: migrateSystems,        // system.go
	7: migrateShops,          // shop.go
	// Schema 9 has the journal (journal.go): a file of schema 8 has taken no record of
	// one, so its number is absent (0), and an older sheetkeeper, which would not read
	// the journal, refuses the file (Newer) instead of opening it without its last batches.
	8: func(*bolt.Tx) error { return nil },
}

// migrateReplyLog moves schema 1's replies (one range per channel) into the reply log,
// in key order, so each channel's replies keep their order there, and indexes each by
// channel and seq. The message index (message → seq) is unchanged.
func migrateReplyLog(btx *bolt.Tx) error {
	old := btx.Bucket(bucketRepliesV1)
	if old == nil {
		return storage.Errorf(storage.Damaged, "bucket %q missing", bucketRepliesV1)
	}
	log, err := btx.CreateBucket(bucketReplyLog)
	if err != nil {
		return err
	}
	idx, err := btx.CreateBucket(bucketReplyIdxV2)
	if err != nil {
		return err
	}
	log.FillPercent, idx.FillPercent = 1.0, 1.0 // written in order
	err = old.ForEach(func(k, v []byte) error {
		id, err := log.NextSequence()
		if err != nil {
			return err
		}
		if err := log.Put(be64(id), bytes.Clone(v)); err != nil {
			return err
		}
		return idx.Put(bytes.Clone(k), be64(id))
	})
	if err != nil {
		return err
	}
	return btx.DeleteBucket(bucketRepliesV1)
}

// migrateReplyChain turns schema 2's per-channel index (channel, seq → log id) into the
// reply chain (see tx.go): each reply's chain record links it to the channel's reply
// before it, each channel's seqs record gains its newest reply's log id, and the message
// index points at log ids instead of seqs (an entry naming a seq with no reply, which
// schema 2 never wrote, is dropped rather than left to block the file).
func migrateReplyChain(btx *bolt.Tx) error {
	idx, seqs, msgs := btx.Bucket(bucketReplyIdxV2), btx.Bucket(bucketSeqs), btx.Bucket(bucketMessages)
	if idx == nil || seqs == nil || msgs == nil {
		return storage.Errorf(storage.Damaged, "a schema 2 bucket is missing")
	}
	chain, err := btx.CreateBucket(bucketReplyChain)
	if err != nil {
		return err
	}
	type head struct{ seq, newest uint64 }
	heads := map[string]head{}
	var channel []byte
	var prev uint64
	err = idx.ForEach(func(k, v []byte) error {
		n := len(k) - 9
		if n < 1 || k[n] != sep || len(v) != 8 {
			return storage.Errorf(storage.Damaged, "reply index entry %q damaged", k)
		}
		seq, id := binary.BigEndian.Uint64(k[n+1:]), binary.BigEndian.Uint64(v)
		if !bytes.Equal(k[:n], channel) {
			channel, prev = bytes.Clone(k[:n]), 0
		}
		if err := chain.Put(be64(id), be128(seq, prev)); err != nil {
			return err
		}
		prev = id
		heads[string(channel)] = head{seq, id}
		return nil
	})
	if err != nil {
		return err
	}
	err = seqs.ForEach(func(k, v []byte) error {
		if len(v) != 8 {
			return storage.Errorf(storage.Damaged, "seqs record %q damaged", k)
		}
		h := heads[string(k)]
		heads[string(k)] = head{max(h.seq, binary.BigEndian.Uint64(v)), h.newest}
		return nil
	})
	if err != nil {
		return err
	}
	for ch, h := range heads {
		if err := seqs.Put([]byte(ch), be128(h.seq, h.newest)); err != nil {
			return err
		}
	}
	var moved [][2][]byte
	err = msgs.ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, sep)
		if i < 1 || len(v) != 8 {
			return storage.Errorf(storage.Damaged, "message index entry %q damaged", k)
		}
		// An entry naming no reply guards nothing: it goes (moved with a nil id).
		id := idx.Get(append(append(bytes.Clone(k[i+1:]), sep), v...))
		moved = append(moved, [2][]byte{bytes.Clone(k), bytes.Clone(id)})
		return nil
	})
	if err != nil {
		return err
	}
	for _, m := range moved {
		if m[1] == nil {
			err = msgs.Delete(m[0])
		} else {
			err = msgs.Put(m[0], m[1])
		}
		if err != nil {
			return err
		}
	}
	return btx.DeleteBucket(bucketReplyIdxV2)
}

// schemaOf reads the stored schema version: 0 for a file never initialised.
func schemaOf(btx *bolt.Tx) (uint64, error) {
	meta := btx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	v := meta.Get(keySchema)
	if len(v) != 8 {
		return 0, errors.New("schema version unreadable")
	}
	return binary.BigEndian.Uint64(v), nil
}

func migrate(btx *bolt.Tx, path string) error {
	v, err := schemaOf(btx)
	if err != nil {
		return storage.Errorf(storage.Foreign, "%s is not a sheetkeeper database: %v", path, err)
	}
	if v > SchemaVersion {
		return storage.Errorf(storage.Newer, "database %s was written by a newer sheetkeeper (schema version %d; this one knows up to %d): upgrade sheetkeeper to open it", path, v, SchemaVersion)
	}
	if v == 0 {
		// A bbolt file with buckets but no version is someone else's database.
		if k, _ := btx.Cursor().First(); k != nil {
			return storage.Errorf(storage.Foreign, "%s is not a sheetkeeper database: it holds other buckets and no sheetkeeper schema version", path)
		}
	}
	for ; v < SchemaVersion; v++ {
		if err := migrations[v](btx); err != nil {
			return fmt.Errorf("database %s: migrate schema %d → %d: %w", path, v, v+1, err)
		}
		meta, err := btx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if err := meta.Put(keySchema, be64(v+1)); err != nil {
			return err
		}
	}
	for _, name := range allBuckets {
		if btx.Bucket(name) == nil {
			return storage.Errorf(storage.Damaged, "database %s is damaged: bucket %q missing", path, name)
		}
	}
	return nil
}

// ---- the store ----

type store struct {
	db *bolt.DB

	mu      sync.RWMutex // guards counting an Update in against Close
	closed  atomic.Bool
	updates sync.WaitGroup // Updates under way: Close waits for them

	// run is the run lock (see commit.go); it guards the fields up to hand. waiting
	// counts the callers waiting for it.
	run     sync.Mutex
	waiting atomic.Int32
	pending pending
	runs    uint64 // the functions run so far: the last one's number
	settled uint64 // pending holds no write of a function up to this number
	resets  uint64 // the failures counted when pending was last reset
	spare   views  // the lists of the last function's view, for the next (see newView)

	// hand is the hand-over lock (see commit.go); it guards the fields after it.
	hand        sync.Mutex
	open        *batch    // the functions joined since the last hand-over
	committing  bool      // the committer has a batch
	committed   uint64    // the number of the last function whose batch bbolt holds
	failures    uint64    // the commits failed so far
	failErr     error     // the last failed commit's error
	durable     uint64    // the last journal record written
	durableRun  uint64    // the number of the last function whose batch is durable
	journalled  []*batch  // the durable batches bbolt does not hold yet, for the applier
	applying    []*batch  // the batches the applier is committing to bbolt
	applyStarts uint64    // the applier's commits begun so far (see beginDurable)
	applied     uint64    // the last journal record bbolt holds
	broken      error     // why bbolt cannot take the journalled batches: every later call fails
	caught      sync.Cond // (on hand) broadcast when applied or broken changes

	journal        *journal      // written by whoever commits a batch (see commit.go)
	batches        chan *batch   // to the committer; holds one
	stopped        chan struct{} // closed when the committer has finished
	kick           chan struct{} // to the applier: journalled grew; holds one
	urge           chan struct{} // to the applier: someone waits for bbolt; holds one
	closing        chan struct{} // closed once the committer has finished
	applierStopped chan struct{} // closed when the applier has finished

	cards record.CardMemo
	camps campaignMemo

	// beforeCommit, when a test sets it, runs before each batch is written; its error
	// fails the batch as a failed commit would. beforeApply runs before bbolt takes the
	// journalled batches; its error is one bbolt's commit returned.
	beforeCommit func(batch uint64) error
	beforeApply  func() error
	// beforeBegin, when a test sets it, runs in beginDurable between taking the list of
	// journalled batches and beginning the read transaction.
	beforeBegin func()

	onUpdate func(time.Duration, int, error) // Options.OnUpdate
}

// View runs fn over what is durable: a read transaction of bbolt with the batches
// journalled but not yet in bbolt laid over it (journalView), so it sees every write
// whose Update has returned without waiting for bbolt to take it (BenchmarkViewUnderLoad:
// a View's p50 0.33–0.35 ms beside 64 channels flat out; waiting cost it 3.8–4.2).
func (s *store) View(ctx context.Context, fn func(storage.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return errClosed
	}
	btx, journalled, err := s.beginDurable()
	if err != nil {
		return err
	}
	defer btx.Rollback()
	t := &tx{kv: &journalView{boltKV: boltKV{btx}, batches: journalled}, cards: &s.cards, camps: &s.camps}
	defer func() { t.done = true }()
	return fn(t)
}

// beginDurable begins a read transaction of bbolt and returns it with the batches
// journalled that it may not hold, oldest first: those waiting for the applier and
// those it is applying (which bbolt holds once its commit is over, with the same
// values). When the applier starts another commit between the two, the transaction may
// hold batches newer than the list, so it begins again. The read transaction begins
// off the hand-over lock: a commit that grows bbolt's memory map waits for every
// reader, and a function joining its batch holds its read transaction while it takes
// that lock.
func (s *store) beginDurable() (*bolt.Tx, []*batch, error) {
	for {
		s.hand.Lock()
		if err := s.broken; err != nil {
			s.hand.Unlock()
			return nil, nil, err
		}
		starts := s.applyStarts
		journalled := slices.Concat(s.applying, s.journalled)
		s.hand.Unlock()
		if s.beforeBegin != nil {
			s.beforeBegin()
		}
		btx, err := s.db.Begin(false)
		if err != nil {
			return nil, nil, fmt.Errorf("storage: begin transaction: %w", err)
		}
		s.hand.Lock()
		again := s.applyStarts != starts
		s.hand.Unlock()
		if !again {
			return btx, journalled, nil
		}
		_ = btx.Rollback()
	}
}

func (s *store) Backup(w io.Writer) (int64, error) {
	if s.closed.Load() {
		return 0, errClosed
	}
	var n int64
	err := s.viewBolt(func(btx *bolt.Tx) error {
		var err error
		n, err = btx.WriteTo(w)
		return err
	})
	return n, err
}

// viewBolt runs fn over a read transaction of bbolt once it holds every batch
// journalled so far (see journal.go): what every Update that has returned wrote.
func (s *store) viewBolt(fn func(*bolt.Tx) error) error {
	if err := s.caughtUp(); err != nil {
		return err
	}
	return s.db.View(fn)
}

// Close waits for every Update under way to finish, then closes the file.
func (s *store) Close() error {
	s.mu.Lock()
	if s.closed.Load() {
		s.mu.Unlock()
		return errClosed
	}
	s.closed.Store(true)
	s.mu.Unlock()
	s.updates.Wait()
	close(s.batches)
	<-s.stopped
	close(s.closing)
	<-s.applierStopped
	s.hand.Lock()
	broken := s.broken
	s.hand.Unlock()
	return errors.Join(broken, s.journal.abandon(), s.journal.close(), s.db.Close())
}
