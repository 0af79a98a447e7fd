package bolt

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"sheetkeeper/storage"
)

// The journal: what makes a batch durable before bbolt holds it.
//
// A bbolt commit writes every page a batch touched where it lies in the file and syncs
// twice (the pages, then the meta page): ~2 ms for a batch of 30 replies on the 2-CPU
// virtual machine this project is measured on, and slower still beside a busy CPU. A
// batch is made durable instead by one record written after the last in the journal
// and one fdatasync (~0.5 ms there), and its callers are answered then. bbolt takes the
// journalled batches afterwards, all those waiting in one commit (store.applyLoop), and
// until it holds them the functions read them from the pending writes, as they read a
// batch not yet durable, and a View reads them over bbolt (store.beginDurable), so it
// too sees every write whose Update has returned.
//
// The journal is two files beside the database (path.journal0, path.journal1), written
// in turn: once a record would take the one being written past its limit, writing goes
// on at the start of the other — when bbolt holds every record of the other, else after
// waiting for bbolt to take them. A record is
//
//	uint32 length of the payload, uint32 CRC-32C of the number and the payload,
//	uint64 number (one more than the record before, whichever file that is in), payload
//
// and its payload is the batch's writes in order, each a kind byte ('p' put, 'd'
// delete, 's' raise the bucket's sequence) and uvarint-prefixed bucket, key and value
// (put), bucket and key (delete), or bucket and the uvarint sequence. bbolt's meta
// bucket holds the number of the last record it has taken (keyJournal), written in the
// commit that takes it, so an open replays exactly the records after it. A file is read
// from its start while each record is whole and numbered one after the one before: the
// records a file held before it was started again, after its new ones, are older, so
// never read as new, and a record cut short by a crash — its caller was never answered
// — ends the file. Records after bbolt's number that do not follow one another (one
// missing), or a whole record bbolt does not hold anywhere after where a file's reading
// ended, are damage, and Open says so.
type journal struct {
	files [2]*os.File
	cur   int       // the file being written
	off   int64     // where its next record goes
	next  uint64    // the next record's number
	last  [2]uint64 // each file's last record since it was started (0: none)
	size  [2]int64  // each file's size
	limit int64     // see journalLimit
	// failed is set while a record is written and synced, and stays set when that
	// fails: the next record then goes where it was, even past the limit, so the failed
	// one — which may have reached the disk — is overwritten, never read beside its
	// namesake in the other file.
	failed bool
	onSync func(time.Duration) // Options.OnSync
	buf    []byte              // the record being written, kept for the next
}

// journalLimit is where a journal file is started again: 4 MB is ~3,000 replies, so a
// file is started again every fraction of a second under load, after bbolt took its
// records (it commits every 50 ms, see applyEvery), and reading both on open is quick.
const journalLimit = 4 << 20

// journalGrowth is how much a journal file grows at a time (see write).
const journalGrowth = 1 << 20

const journalHeader = 16

var journalCRC = crc32.MakeTable(crc32.Castagnoli)

// journalPath is the name of journal file i of the database at path.
func journalPath(path string, i int) string { return fmt.Sprintf("%s.journal%d", path, i) }

// Files are the files a database at path keeps: the bbolt file and its journal's two.
// Writing over any of them (a backup's destination, say) would lose commits.
func Files(path string) []string { return []string{path, journalPath(path, 0), journalPath(path, 1)} }

// journalRecord is one journal record as read on open.
type journalRecord struct {
	number uint64
	writes []write
	file   int
	end    int64 // the offset after it in its file
}

// openJournal opens the journal of the database at path (creating its files when
// missing), whose bbolt holds every record up to applied, and returns the records after
// it, in order, for the caller to apply. A database just created (fresh) has no
// journal: records found beside it are another database's.
func openJournal(path string, applied uint64, fresh bool) (*journal, []journalRecord, error) {
	j := &journal{limit: journalLimit}
	var all []journalRecord
	created := false
	for i := range j.files {
		name := journalPath(path, i)
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if os.IsNotExist(err) {
			f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
			created = true
		}
		if err != nil {
			j.close()
			return nil, nil, fmt.Errorf("open journal: %w", err)
		}
		j.files[i] = f
		recs, err := readJournal(f, i, name, applied)
		if err != nil {
			j.close()
			return nil, nil, err
		}
		if len(recs) > 0 {
			j.last[i] = recs[len(recs)-1].number
		}
		if st, err := f.Stat(); err == nil {
			j.size[i] = st.Size()
		}
		all = append(all, recs...)
	}
	if created { // the files must outlive a crash before the first record is synced
		if err := syncDir(filepath.Dir(path)); err != nil {
			j.close()
			return nil, nil, fmt.Errorf("open journal: %w", err)
		}
	}
	if fresh && len(all) > 0 {
		j.close()
		return nil, nil, storage.Errorf(storage.Foreign, "database %s is new, but the journal beside it (%s, %s) holds %d batches of another database: move them aside",
			path, journalPath(path, 0), journalPath(path, 1), len(all))
	}
	todo, err := unapplied(path, all, applied)
	if err != nil {
		j.close()
		return nil, nil, err
	}
	j.next = applied + 1
	if len(all) > 0 && all[len(all)-1].number >= applied {
		newest := all[len(all)-1]
		j.cur, j.off, j.next = newest.file, newest.end, newest.number+1
	} else {
		// No record follows on from bbolt's (a journal moved aside, or none yet): every
		// record there is one bbolt holds, so writing starts again at the first file's
		// start, where the next open reads it.
		j.last = [2]uint64{}
	}
	return j, todo, nil
}

// unapplied sorts all, the records of both journal files of the database at path, and
// returns those after applied, which must follow on from it one by one.
func unapplied(path string, all []journalRecord, applied uint64) ([]journalRecord, error) {
	slices.SortFunc(all, func(a, b journalRecord) int { return cmp.Compare(a.number, b.number) })
	i, _ := slices.BinarySearchFunc(all, applied+1, func(r journalRecord, n uint64) int { return cmp.Compare(r.number, n) })
	todo := all[i:]
	for k, r := range todo {
		if want := applied + 1 + uint64(k); r.number != want {
			return nil, storage.Errorf(storage.Damaged, "database %s: its journal is damaged: record %d follows record %d (%s holds up to %d); move %s and %s aside to open the database without the journal's last %d batches",
				path, r.number, want-1, path, applied, journalPath(path, 0), journalPath(path, 1), len(todo)-k)
		}
	}
	return todo, nil
}

// readJournal reads journal file i (named name) from its start, record by record,
// while each is whole and follows the one before, decoding the writes of those after
// applied (the others, bbolt's already, are not replayed). Where the reading ends —
// the file's zeroed tail, a record a crash cut, or the old records a file holds after
// it was started again — no record bbolt does not hold may lie further on: a crash cuts
// only the last record written, and the old records are ones bbolt holds (see journal).
// One that does (hidden) means a record before it was damaged after it was written,
// its checksum or its header, and the records after it would be lost with it.
func readJournal(f *os.File, i int, name string, applied uint64) ([]journalRecord, error) {
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read journal %s: %w", name, err)
	}
	var recs []journalRecord
	off := 0
	for len(data)-off >= journalHeader {
		number := binary.BigEndian.Uint64(data[off+8:])
		if number == 0 || (len(recs) > 0 && number != recs[len(recs)-1].number+1) {
			break
		}
		payload, ok := wholeAt(data, off)
		if !ok {
			break
		}
		var writes []write
		if number > applied { // only what bbolt does not hold is replayed
			if writes, err = decodeWrites(payload); err != nil { // whole, so written so: not a crash's cut
				return nil, storage.Errorf(storage.Damaged, "journal %s: record %d at byte %d: %v", name, number, off, err)
			}
		}
		off += journalHeader + len(payload)
		recs = append(recs, journalRecord{number: number, writes: writes, file: i, end: int64(off)})
	}
	floor := applied
	if len(recs) > 0 {
		floor = max(floor, recs[len(recs)-1].number)
	}
	if number, at := hidden(data, off, floor); number != 0 {
		damaged := fmt.Sprintf("the record at byte %d", off)
		if n := binary.BigEndian.Uint64(data[off+8:]); n != 0 && n < number && (len(recs) == 0 || n == recs[len(recs)-1].number+1) { // its number still reads
			damaged = fmt.Sprintf("record %d at byte %d", n, off)
		}
		return nil, storage.Errorf(storage.Damaged, "journal %s: %s is damaged (its header or checksum is wrong) and record %d at byte %d after it, which the database does not hold, is whole",
			name, damaged, number, at)
	}
	return recs, nil
}

// hidden looks in data from off, at every byte, for a whole record numbered after
// floor, and returns its number and offset (0: none). Only the numbers a journal file
// could hold after floor count (within 1<<20 of it: a file of journalLimit holds fewer
// records), so a record inside a value a batch wrote is not taken for one: a value's
// bytes would need the zero bytes a card's JSON never has.
func hidden(data []byte, off int, floor uint64) (uint64, int) {
	for ; len(data)-off >= journalHeader; off++ {
		for len(data)-off >= 24 && binary.LittleEndian.Uint64(data[off+8:])|binary.LittleEndian.Uint64(data[off+16:]) == 0 {
			off += 8 // the numbers of the records that could start up to 8 on are 0: a file's zeroed tail is passed quickly
		}
		number := binary.BigEndian.Uint64(data[off+8:])
		if number <= floor || number-floor > 1<<20 {
			continue
		}
		if _, ok := wholeAt(data, off); ok {
			return number, off
		}
	}
	return 0, 0
}

// wholeAt returns the payload of the record at off of data (at least journalHeader
// bytes on) when its length fits in data and its checksum agrees.
func wholeAt(data []byte, off int) (payload []byte, ok bool) {
	h := data[off : off+journalHeader]
	n := int(binary.BigEndian.Uint32(h))
	if n > len(data)-off-journalHeader {
		return nil, false
	}
	payload = data[off+journalHeader : off+journalHeader+n]
	return payload, crc32.Update(crc32.Checksum(h[8:16], journalCRC), journalCRC, payload) == binary.BigEndian.Uint32(h[4:])
}

// write makes writes durable as the journal's next record and returns its number.
// When the record would take the file past its limit it goes at the start of the other
// file, once bbolt holds that file's records: waitApplied(n) returns when bbolt holds
// every record up to n, or with why it never will. A record that fails is written again
// where it was, with its number, by the next write.
func (j *journal) write(writes []write, waitApplied func(uint64) error) (uint64, error) {
	j.buf = encodeWrites(append(j.buf[:0], make([]byte, journalHeader)...), writes)
	h := j.buf[:journalHeader]
	binary.BigEndian.PutUint32(h, uint32(len(j.buf)-journalHeader))
	binary.BigEndian.PutUint64(h[8:], j.next)
	binary.BigEndian.PutUint32(h[4:], crc32.Update(crc32.Checksum(h[8:16], journalCRC), journalCRC, j.buf[journalHeader:]))
	if j.off > 0 && j.off+int64(len(j.buf)) > j.limit && !j.failed {
		other := 1 - j.cur
		if err := waitApplied(j.last[other]); err != nil {
			return 0, err
		}
		j.cur, j.off, j.last[other] = other, 0, 0
	}
	f := j.files[j.cur]
	if end := j.off + int64(len(j.buf)); end > j.size[j.cur] {
		// Written ahead with zeros, a megabyte at a time, so a record's fdatasync rarely
		// has the file's size to sync too (a size goes through the file system's own
		// journal, shared with bbolt's file).
		grown := (end + journalGrowth - 1) / journalGrowth * journalGrowth
		if _, err := f.WriteAt(make([]byte, grown-j.size[j.cur]), j.size[j.cur]); err != nil {
			return 0, fmt.Errorf("storage: write journal: %w", err)
		}
		j.size[j.cur] = grown
	}
	j.failed = true // until it is synced
	if _, err := f.WriteAt(j.buf, j.off); err != nil {
		return 0, fmt.Errorf("storage: write journal: %w", err)
	}
	var start time.Time
	if j.onSync != nil {
		start = time.Now()
	}
	if err := syncData(f); err != nil {
		return 0, fmt.Errorf("storage: sync journal: %w", err)
	}
	if j.onSync != nil {
		j.onSync(time.Since(start))
	}
	j.failed = false
	if len(j.buf) > 1<<20 {
		j.buf = nil // a huge batch's buffer is not kept for the small ones after it
	}
	n := j.next
	j.off += int64(journalHeader + int(binary.BigEndian.Uint32(h)))
	j.last[j.cur] = n
	j.next++
	return n, nil
}

// abandon unwrites a record whose write or sync failed and that no later record
// covered (failed still set), as the store closes: its callers were told it failed, and
// the next open must not find it whole. Its zeroed header reaches the disk if the disk
// lets it.
func (j *journal) abandon() error {
	if !j.failed {
		return nil
	}
	f := j.files[j.cur]
	if _, err := f.WriteAt(make([]byte, journalHeader), j.off); err != nil {
		return fmt.Errorf("storage: unwrite the failed journal record: %w", err)
	}
	if err := syncData(f); err != nil {
		return fmt.Errorf("storage: unwrite the failed journal record: %w", err)
	}
	j.failed = false
	return nil
}

func (j *journal) close() error {
	var first error
	for _, f := range j.files {
		if f != nil {
			if err := f.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// encodeWrites appends the payload of a record of writes to buf.
func encodeWrites(buf []byte, writes []write) []byte {
	for _, w := range writes {
		switch {
		case w.key == nil:
			buf = append(buf, 's')
			buf = appendBytes(buf, w.bucket)
			buf = binary.AppendUvarint(buf, w.seq)
		case w.deleted:
			buf = append(buf, 'd')
			buf = appendBytes(appendBytes(buf, w.bucket), w.key)
		default:
			buf = append(buf, 'p')
			buf = appendBytes(appendBytes(appendBytes(buf, w.bucket), w.key), w.value)
		}
	}
	return buf
}

func appendBytes(buf, b []byte) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(b))), b...)
}

// decodeWrites reads a record's payload; the writes point into it.
func decodeWrites(p []byte) ([]write, error) {
	var writes []write
	for len(p) > 0 {
		kind := p[0]
		p = p[1:]
		var w write
		var ok bool
		if w.bucket, p, ok = cutBytes(p); !ok {
			return nil, fmt.Errorf("write %d: bucket name cut short", len(writes)+1)
		}
		switch kind {
		case 's':
			var n int
			if w.seq, n = binary.Uvarint(p); n <= 0 {
				return nil, fmt.Errorf("write %d: sequence unreadable", len(writes)+1)
			}
			p = p[n:]
		case 'd', 'p':
			if w.key, p, ok = cutBytes(p); !ok || len(w.key) == 0 {
				return nil, fmt.Errorf("write %d: key cut short", len(writes)+1)
			}
			w.deleted = kind == 'd'
			if !w.deleted {
				if w.value, p, ok = cutBytes(p); !ok {
					return nil, fmt.Errorf("write %d: value cut short", len(writes)+1)
				}
			}
		default:
			return nil, fmt.Errorf("write %d: unknown kind %q", len(writes)+1, kind)
		}
		writes = append(writes, w)
	}
	return writes, nil
}

// cutBytes reads one uvarint-prefixed run of bytes off the front of p; a put's empty
// value comes back non-nil, as bbolt's Put needs.
func cutBytes(p []byte) (b, rest []byte, ok bool) {
	n, k := binary.Uvarint(p)
	if k <= 0 || n > uint64(len(p)-k) {
		return nil, nil, false
	}
	return p[k : k+int(n) : k+int(n)], p[k+int(n):], true
}

// syncDir makes the names in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// journalOf reads the number of the last journal record bbolt holds.
func journalOf(v []byte) (uint64, error) {
	switch len(v) {
	case 0:
		return 0, nil
	case 8:
		return binary.BigEndian.Uint64(v), nil
	}
	return 0, fmt.Errorf("journal number of %d bytes", len(v))
}
