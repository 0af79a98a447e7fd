package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"sheetkeeper/storage"
)

// Check reads the database at path without changing it and reports what is readable,
// bucket by bucket, and every problem it meets (pages.go reads the file; bbolt never
// sees it, so damage cannot crash the process). It takes the shared lock, so it waits
// (opts.Timeout) for a process holding the database and then says Locked: check a copy
// made with `sheetkeeper backup` instead. The error is for a file that cannot be read
// at all (missing, locked, no readable meta page, not a bbolt file); damage further in
// is in the report.
func Check(path string, opts Options) (*Report, error) {
	rep := &Report{Path: path}
	err := withFile(path, opts, func(f *os.File, size int64) error { return survey(f, size, rep, false, nil, nil) })
	if err == nil {
		journalNote(rep, "opening the database replays them")
	}
	return rep, err
}

// journalNote tells rep of the batches the journal of its database holds and the file
// does not (journal.go), and of a damaged journal; then says what that means.
func journalNote(rep *Report, then string) {
	var all []journalRecord
	for i := range 2 {
		f, err := os.Open(journalPath(rep.Path, i))
		if os.IsNotExist(err) {
			continue
		}
		var recs []journalRecord
		if err == nil {
			recs, err = readJournal(f, i, f.Name(), rep.Journal)
			f.Close()
		}
		if err != nil {
			rep.Problems = append(rep.Problems, err.Error())
			continue
		}
		all = append(all, recs...)
	}
	todo, err := unapplied(rep.Path, all, rep.Journal)
	switch {
	case err != nil:
		rep.Problems = append(rep.Problems, err.Error())
	case len(todo) == 1:
		rep.Notes = append(rep.Notes, fmt.Sprintf("its journal (%s, %s) holds 1 batch the file does not, record %d: %s", journalPath(rep.Path, 0), journalPath(rep.Path, 1), todo[0].number, then))
	case len(todo) > 1:
		rep.Notes = append(rep.Notes, fmt.Sprintf("its journal (%s, %s) holds %d batches the file does not, records %d–%d: %s",
			journalPath(rep.Path, 0), journalPath(rep.Path, 1), len(todo), todo[0].number, todo[len(todo)-1].number, then))
	}
}

// Salvage copies every readable bucket and record of the database at path (which it
// never changes) into a new database at dest, which must not exist, and reports what it
// copied and what it could not read. A bucket's sequence is copied with it. When the
// schema version was readable and is 3 or later, a sheetkeeper bucket of that schema
// lost whole is made again, empty, so the copy opens (and migrates, when older);
// records the damage took are gone, and the report's problems say where.
//
// It copies the newest transaction's tree. Only when that tree is unreadable or damaged
// does it look at the older meta page's (the newest root is the file's last-written
// page, the first a cut end loses, while the tree before may stand whole), and takes it
// when it holds more readable records: a healthy file whose last transaction deleted
// records is copied as it stands, without them.
//
// The records copied are held in memory, one tree's at a time (the older tree is
// counted first and read again only if it wins): their bytes are at most the file's
// size, as no page is read twice, plus a few dozen bytes of bookkeeping per record.
func Salvage(path, dest string, opts Options) (*Report, error) {
	var best *salvaged
	var newestProblems []string
	err := withFile(path, opts, func(f *os.File, size int64) error {
		newest := &salvaged{rep: &Report{Path: path}}
		err := survey(f, size, newest.rep, false, newest.bucket, newest.record)
		if err == nil && !newest.rep.Damaged() {
			best = newest
			return nil
		}
		counted := &Report{Path: path}
		if survey(f, size, counted, true, nil, nil) != nil || (err == nil && recordsOf(counted) <= len(newest.records)) {
			best = newest
			return err
		}
		newestProblems = newest.rep.Problems // and nothing holds the newest's records from here
		best = &salvaged{rep: &Report{Path: path}, older: true}
		return survey(f, size, best.rep, true, best.bucket, best.record)
	})
	if err != nil {
		return &Report{Path: path}, err
	}
	rep := best.rep
	journalNote(rep, "the copy does not have them (open the database itself, which replays them, then salvage it)")
	if best.older {
		rep.Notes = append(rep.Notes, "the newest transaction's tree is damaged and the older meta page's held more readable records: salvaged from it (the last transaction's changes are not in the copy)")
		for _, p := range newestProblems {
			rep.Notes = append(rep.Notes, "the newest transaction's tree: "+p)
		}
	}
	if err := best.write(dest, timeoutOf(opts)); err != nil {
		return rep, fmt.Errorf("salvage into %s: %w", dest, err)
	}
	return rep, nil
}

// recordsOf is the readable records a report counted.
func recordsOf(rep *Report) int {
	n := 0
	for _, b := range rep.Buckets {
		n += b.Records
	}
	return n
}

// salvaged is what one survey of a damaged file could read.
type salvaged struct {
	rep     *Report
	older   bool
	buckets []salvagedBucket
	records []salvagedRecord
}

type salvagedBucket struct {
	path [][]byte
	seq  uint64
}

type salvagedRecord struct {
	path [][]byte
	k, v []byte
}

func (c *salvaged) bucket(p [][]byte, seq uint64) {
	c.buckets = append(c.buckets, salvagedBucket{clonePath(p), seq})
}

func (c *salvaged) record(p [][]byte, k, v []byte) {
	c.records = append(c.records, salvagedRecord{clonePath(p), bytes.Clone(k), bytes.Clone(v)})
}

// write makes the new database at dest (which must not exist) from what was read,
// removing it again on failure.
func (c *salvaged) write(dest string, timeout time.Duration) error {
	out, err := os.OpenFile(dest, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	out.Close()
	db, err := bolt.Open(dest, 0o600, &bolt.Options{Timeout: timeout, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err == nil {
		err = db.Update(c.copyInto)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.Remove(dest)
	}
	return err
}

func (c *salvaged) copyInto(btx *bolt.Tx) error {
	rep := c.rep
	for _, b := range c.buckets {
		if len(b.path) == 0 {
			continue // the root
		}
		bk, err := createPath(btx, b.path)
		if err != nil {
			rep.problem(b.path, fmt.Errorf("not copied: %w", err))
			continue
		}
		if err := bk.SetSequence(b.seq); err != nil {
			return err
		}
	}
	for _, r := range c.records {
		bk, err := createPath(btx, r.path)
		if err == nil {
			err = bk.Put(r.k, r.v)
		}
		if err != nil {
			rep.problem(r.path, fmt.Errorf("record %q not copied: %w", r.k, err))
		}
	}
	for _, name := range schemaBuckets(rep.Schema) {
		if btx.Bucket(name) == nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("bucket %q was lost whole: the copy has it empty", name))
			if _, err := btx.CreateBucket(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// schemaBuckets lists the buckets a sheetkeeper database of schema v holds, for v from
// 3 (the first whose buckets later migrations only add to, with CreateBucketIfNotExists)
// to SchemaVersion; nil for any other v. TestSchemaBuckets checks it against what the
// migrations make.
func schemaBuckets(v uint64) [][]byte {
	if v < 3 || v > SchemaVersion {
		return nil
	}
	since := map[string]uint64{string(bucketTombstones): 4, string(bucketTombAge): 4, string(bucketHints): 6, string(bucketSystems): 7,
		string(bucketShops): 8, string(bucketTrades): 8}
	var names [][]byte
	for _, name := range allBuckets {
		if since[string(name)] <= v {
			names = append(names, name)
		}
	}
	return names
}

func clonePath(p [][]byte) [][]byte {
	c := make([][]byte, len(p))
	for i := range p {
		c[i] = bytes.Clone(p[i])
	}
	return c
}

// createPath returns the bucket at path, making it and its parents when missing.
func createPath(btx *bolt.Tx, path [][]byte) (*bolt.Bucket, error) {
	b, err := btx.CreateBucketIfNotExists(path[0])
	for _, name := range path[1:] {
		if err != nil {
			return nil, err
		}
		b, err = b.CreateBucketIfNotExists(name)
	}
	return b, err
}

func timeoutOf(opts Options) time.Duration {
	if opts.Timeout <= 0 {
		return DefaultTimeout
	}
	return opts.Timeout
}

// withFile opens path read-only under the shared lock and gives it to fn, naming the
// file in fn's Damaged or Foreign error.
func withFile(path string, opts Options, fn func(*os.File, int64) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer f.Close()
	if err := lockFile(f, false, timeoutOf(opts)); err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return storage.Errorf(storage.Locked, "database %s is in use by another sheetkeeper process (waited %s for it): stop it, or copy it with `sheetkeeper backup` and use the copy", path, timeoutOf(opts))
		}
		return fmt.Errorf("lock database %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open database %s: %w", path, err)
	}
	if info.Size() == 0 {
		return storage.Errorf(storage.Damaged, "database %s is an empty file", path)
	}
	err = fn(f, info.Size())
	switch storage.KindOf(err) {
	case storage.Damaged:
		return storage.Errorf(storage.Damaged, "database %s is damaged: %v", path, err)
	case storage.Foreign:
		return storage.Errorf(storage.Foreign, "%s is not a sheetkeeper database: %v", path, err)
	}
	return err
}
