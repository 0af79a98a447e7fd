package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"sheetkeeper/storage"
)

// Report is what Check and Salvage found in a database file: what is readable, bucket by
// bucket, and every problem (what and where).
type Report struct {
	Path     string
	Size     int64  // bytes in the file
	PageSize int    // bbolt's page size, from the meta page used
	Pages    uint64 // the database's pages (its high water mark)
	Schema   uint64 // sheetkeeper's schema version, 0 when unreadable or absent
	Journal  uint64 // the last journal record the file holds (journal.go), 0 when none
	Buckets  []BucketCount
	// Notes are what a healthy file may show too (a meta page left torn by a crash).
	Notes []string
	// Problems are the damage found, the first maxProblems of them; MoreProblems counts
	// the rest.
	Problems     []string
	MoreProblems int
}

// BucketCount is one bucket's readable records (its path joined by "/" when nested).
type BucketCount struct {
	Name    string
	Records int
}

// Damaged says whether the walk found any damage.
func (r *Report) Damaged() bool { return len(r.Problems) > 0 }

const maxProblems = 20

// errNoOlder is readMetas' answer when the older meta page asked for is unreadable.
var errNoOlder = errors.New("no older meta page")

func (r *Report) problem(path [][]byte, err error) {
	if len(r.Problems) == maxProblems {
		r.MoreProblems++
		return
	}
	where := ""
	if len(path) > 0 {
		where = "bucket " + bucketName(path) + ": "
	}
	r.Problems = append(r.Problems, where+err.Error())
}

func bucketName(path [][]byte) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = strconv.QuoteToGraphic(string(p))
	}
	return strings.Join(parts, "/")
}

// readMetas finds the meta page bbolt would use, as bbolt does (the valid one with the
// higher transaction id, trying meta page 1 when meta page 0 says no page size), and
// checks what bbolt takes from it on trust: the page size, the root and freelist page
// ids and the high water mark against the file's size. With older, it takes the other
// meta page instead, the transaction before (salvage's second try), or errNoOlder.
func readMetas(r io.ReaderAt, size int64, rep *Report, older bool) (*pageFile, boltMeta, error) {
	read := func(off int64) (m boltMeta, magic, ok bool) {
		buf := make([]byte, pageHeaderSize+metaSize)
		n, _ := r.ReadAt(buf, off)
		return parseMeta(buf[:n])
	}
	m0, magic0, ok0 := read(0)
	pageSize, anyMagic := int64(m0.pageSize), magic0
	if !ok0 {
		pageSize = 0
		for i := range 15 {
			m, magic, ok := read(1024 << i)
			anyMagic = anyMagic || magic
			if ok {
				pageSize = int64(m.pageSize)
				break
			}
		}
	}
	if pageSize == 0 {
		if anyMagic || looksLikeBolt(r, size) {
			return nil, m0, storage.Errorf(storage.Damaged, "neither meta page is readable (both overwritten?)")
		}
		return nil, m0, &storage.Error{Kind: storage.Foreign, Err: fmt.Errorf("not a bbolt database file")}
	}
	if pageSize < 1024 || pageSize > 1<<24 || pageSize&(pageSize-1) != 0 {
		return nil, m0, storage.Errorf(storage.Damaged, "meta page says a page is %d bytes", pageSize)
	}
	if size < 2*pageSize {
		return nil, m0, storage.Errorf(storage.Damaged, "the file is %d bytes, shorter than its two %d-byte meta pages (truncated?)", size, pageSize)
	}
	m1, _, ok1 := read(pageSize)
	metas := [2]struct {
		m  boltMeta
		ok bool
		n  int
	}{{m0, ok0, 0}, {m1, ok1, 1}}
	if m1.txn > m0.txn {
		metas[0], metas[1] = metas[1], metas[0]
	}
	var valid []int
	for i, m := range metas {
		if m.ok {
			valid = append(valid, i)
		} else {
			rep.Notes = append(rep.Notes, fmt.Sprintf("meta page %d is unreadable (a write torn by a crash, or damage); meta page %d is used, as bbolt does", m.n, 1-m.n))
		}
	}
	if len(valid) == 0 {
		// Meta page 0 named no page size and a later offset's meta page did, but neither
		// meta page at that size is whole.
		return nil, m0, storage.Errorf(storage.Damaged, "neither meta page is readable")
	}
	if older && len(valid) < 2 {
		return nil, m0, errNoOlder
	}
	use := metas[valid[0]]
	if older {
		use = metas[valid[1]]
	}
	m := use.m
	switch {
	case int64(m.pageSize) != pageSize:
		return nil, m, storage.Errorf(storage.Damaged, "meta page %d says a page is %d bytes, the other %d", use.n, m.pageSize, pageSize)
	case m.hwm < 3 || m.hwm > 1<<48:
		return nil, m, storage.Errorf(storage.Damaged, "meta page %d: %d pages is no database", use.n, m.hwm)
	case m.root < 2 || m.root >= m.hwm:
		return nil, m, storage.Errorf(storage.Damaged, "meta page %d: root page %d is out of bounds", use.n, m.root)
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.hwm):
		return nil, m, storage.Errorf(storage.Damaged, "meta page %d: freelist page %d is out of bounds", use.n, m.freelist)
	}
	if m.hwm > uint64(size/pageSize) {
		// Walk on (salvage keeps what lies before the cut); Open refuses a problem.
		rep.problem(nil, fmt.Errorf("the database should hold %d pages of %d bytes, the file holds %d bytes (truncated?)", m.hwm, pageSize, size))
	}
	rep.Size, rep.PageSize, rep.Pages = size, int(pageSize), m.hwm
	return &pageFile{r: r, size: size, pageSize: pageSize, hwm: m.hwm}, m, nil
}

// looksLikeBolt says whether a file with no readable meta page has bbolt pages after
// them (a page 2, 3 or 4 naming itself, at a page size from 4 KiB to 64 KiB: bbolt's is
// the operating system's, 16 KiB on Apple Silicon and 64 KiB on some arm64 Linux): a
// bbolt file whose metas were overwritten, rather than some other file.
func looksLikeBolt(r io.ReaderAt, size int64) bool {
	for ps := int64(4096); ps <= 64<<10; ps *= 2 {
		for id := int64(2); id <= 4 && (id+1)*ps <= size; id++ {
			var h [pageHeaderSize]byte
			if _, err := r.ReadAt(h[:], id*ps); err != nil {
				break
			}
			if f := le.Uint16(h[8:]); le.Uint64(h[0:]) == uint64(id) && (f == flagBranch || f == flagLeaf || f == flagFreelist) {
				return true
			}
		}
	}
	return false
}

// survey reads the database in r as bbolt would (older: from the older meta page),
// reporting to rep and giving each
// readable record to onRecord and each bucket to onBucket (either may be nil). It
// returns an error only when there is nothing to walk (no usable meta page); damage
// further in is in rep.Problems.
func survey(r io.ReaderAt, size int64, rep *Report, older bool, onBucket func([][]byte, uint64), onRecord func([][]byte, []byte, []byte)) (err error) {
	defer func() {
		// pages.go checks every offset it reads at, so this is for a bug of its own
		// (FuzzSurvey looks for them): a file it cannot make sense of is refused as
		// damaged, never a crash.
		if p := recover(); p != nil {
			err = storage.Errorf(storage.Damaged, "unreadable (%v)", p)
		}
	}()
	f, m, err := readMetas(r, size, rep, older)
	if err != nil {
		return err
	}
	w := newWalker(f)
	w.onProblem = rep.problem
	// Records are counted by their bucket's raw path (its parts joined by 0), looked up
	// through a reused buffer, so a record costs no allocation: every open walks them all.
	index := map[string]int{} // raw path → its bucket's place in rep.Buckets
	var key []byte
	rawPath := func(path [][]byte) []byte {
		key = key[:0]
		for i, p := range path {
			if i > 0 {
				key = append(key, 0)
			}
			key = append(key, p...)
		}
		return key
	}
	w.onBucket = func(path [][]byte, seq uint64) {
		if len(path) > 0 {
			raw := rawPath(path)
			if _, ok := index[string(raw)]; !ok {
				index[string(raw)] = len(rep.Buckets)
				rep.Buckets = append(rep.Buckets, BucketCount{Name: bucketName(path)})
			}
		}
		if onBucket != nil {
			onBucket(path, seq)
		}
	}
	w.onRecord = func(path [][]byte, k, v []byte) {
		if len(path) == 0 {
			rep.problem(path, fmt.Errorf("a record outside any bucket"))
			return
		}
		if i, ok := index[string(rawPath(path))]; ok {
			rep.Buckets[i].Records++
		}
		if len(path) == 1 && bytes.Equal(path[0], bucketMeta) && bytes.Equal(k, keySchema) && len(v) == 8 {
			rep.Schema = binary.BigEndian.Uint64(v)
		}
		if len(path) == 1 && bytes.Equal(path[0], bucketMeta) && bytes.Equal(k, keyJournal) && len(v) == 8 {
			rep.Journal = binary.BigEndian.Uint64(v)
		}
		if onRecord != nil {
			onRecord(path, k, v)
		}
	}
	var free map[uint64]bool
	if m.freelist != noFreelist {
		if free, err = f.freelist(m.freelist); err != nil {
			rep.problem(nil, err)
		}
		b, _ := f.page(m.freelist)
		for i := range uint64(len(b)) / uint64(f.pageSize) {
			w.seen[m.freelist+i] = true
		}
	}
	var root [bucketHeaderSize]byte
	le.PutUint64(root[0:], m.root)
	le.PutUint64(root[8:], m.seq)
	w.bucket(nil, root[:])
	for id, isFree := range free {
		if isFree && w.seen[id] {
			rep.problem(nil, fmt.Errorf("page %d is both free and in use", id))
		}
	}
	return nil
}

// verify is what Open does before bbolt sees the file f (held under the exclusive lock):
// the whole survey, and an error of kind Damaged or Foreign naming the file, and saying
// what to do, at the first sign of damage. An empty file is a new database.
func verify(f *os.File, path string) error {
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open database %s: %w", path, err)
	}
	if info.Size() == 0 {
		return nil
	}
	rep := &Report{Path: path}
	err = survey(f, info.Size(), rep, false, nil, nil)
	if err == nil && rep.Damaged() {
		more := ""
		if n := len(rep.Problems) + rep.MoreProblems - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more problems)", n)
		}
		err = storage.Errorf(storage.Damaged, "%s%s", rep.Problems[0], more)
	}
	switch storage.KindOf(err) {
	case storage.Damaged:
		return storage.Errorf(storage.Damaged, "database %s is damaged: %v. It was left as it is: restore it from a backup, or run `sheetkeeper db check %s` to see what is readable and `sheetkeeper db salvage %s` to copy every intact record into a new file", path, err, path, path)
	case storage.Foreign:
		return storage.Errorf(storage.Foreign, "%s is not a sheetkeeper database: %v", path, err)
	}
	return err
}
