package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math/bits"
)

// A reader of bbolt's file format that trusts nothing in the file.
//
// bbolt trusts its file: a page id past the end is read through the memory map (a
// SIGSEGV or SIGBUS, which no recover catches), a bad page type is a panic, and on open
// (we open with NoFreelistSync, so bbolt rebuilds the freelist by walking every page)
// that walk runs in a goroutine of bbolt's own, where a panic kills the process. So the
// file is read here first, with ReadAt and bounds checks only, under the file lock
// (verify.go), and bbolt is handed only a file whose every reachable page is in bounds
// and well formed. The same walk, told to go on past what it cannot read, is salvage.
//
// The layout is bbolt v1.5.0's (go.etcd.io/bbolt/internal/common), native byte order
// (little-endian on every platform sheetkeeper is built for): a page is a 16-byte header
// (id u64, flags u16, count u16, overflow u32) and then its elements; a meta page's meta
// follows its header.

const (
	pageHeaderSize   = 16
	elementSize      = 16 // branch (pos u32, ksize u32, pgid u64) and leaf (flags, pos, ksize, vsize u32)
	bucketHeaderSize = 16 // root pgid u64, sequence u64
	metaSize         = 64

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagMeta     = 0x04
	flagFreelist = 0x10
	leafIsBucket = 0x01

	boltMagic   = 0xED0CDAED
	boltVersion = 2
	noFreelist  = ^uint64(0)

	// maxDepth bounds the walk: bbolt's trees are a few levels deep and sheetkeeper nests
	// no buckets, so a deeper path is a damaged (perhaps cyclic) file.
	maxDepth = 64
)

var le = binary.LittleEndian

// boltMeta is a meta page's contents.
type boltMeta struct {
	pageSize           uint32
	root, seq          uint64
	freelist, hwm, txn uint64
}

// parseMeta reads the meta after a page header at b[0:]; it returns ok false when the
// magic, version or checksum is wrong (how bbolt tells a torn or foreign meta page).
func parseMeta(b []byte) (m boltMeta, magic, ok bool) {
	if len(b) < pageHeaderSize+4 {
		return m, false, false
	}
	b = b[pageHeaderSize:]
	magic = le.Uint32(b[0:]) == boltMagic
	if len(b) < metaSize {
		return m, magic, false // cut short: still a bbolt file's start
	}
	h := fnv.New64a()
	h.Write(b[:56])
	ok = magic && le.Uint32(b[4:]) == boltVersion && le.Uint64(b[56:]) == h.Sum64()
	m = boltMeta{pageSize: le.Uint32(b[8:]), root: le.Uint64(b[16:]), seq: le.Uint64(b[24:]),
		freelist: le.Uint64(b[32:]), hwm: le.Uint64(b[40:]), txn: le.Uint64(b[48:])}
	return m, magic, ok
}

// pageFile reads pages of one file by id.
type pageFile struct {
	r        io.ReaderAt
	size     int64
	pageSize int64
	hwm      uint64 // pages below it are the database's
}

// page reads page id and its overflow pages: it must lie within the high water mark and
// the file, past the meta pages, and name itself in its header.
func (f *pageFile) page(id uint64) ([]byte, error) {
	span, err := f.span(id)
	if err != nil {
		return nil, err
	}
	return f.read(id, span)
}

// span reads only page id's header and returns how many pages it spans (1 and its
// overflow), checked against the high water mark and the file; so a caller can refuse a
// page it has seen before reading what may be megabytes of overflow.
func (f *pageFile) span(id uint64) (uint64, error) {
	if id < 2 || id >= f.hwm {
		return 0, fmt.Errorf("page %d is out of bounds (the database has %d pages)", id, f.hwm)
	}
	if id >= uint64(f.size/f.pageSize) {
		return 0, fmt.Errorf("page %d lies past the end of the file (%d bytes: truncated?)", id, f.size)
	}
	var h [pageHeaderSize]byte
	if _, err := f.r.ReadAt(h[:], int64(id)*f.pageSize); err != nil {
		return 0, fmt.Errorf("page %d: %w", id, err)
	}
	if got := le.Uint64(h[0:]); got != id {
		return 0, fmt.Errorf("page %d is overwritten (its header names page %d)", id, got)
	}
	span := uint64(le.Uint32(h[12:])) + 1
	if id+span > f.hwm || id+span > uint64(f.size/f.pageSize) {
		return 0, fmt.Errorf("page %d: its %d overflow pages run past the end of the database", id, span-1)
	}
	return span, nil
}

// read reads the span pages from page id on, whose header span checked.
func (f *pageFile) read(id, span uint64) ([]byte, error) {
	b := make([]byte, int64(span)*f.pageSize)
	if _, err := f.r.ReadAt(b, int64(id)*f.pageSize); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	return b, nil
}

// element is one entry of a branch or leaf page.
type element struct {
	key, value []byte // value: a leaf's
	child      uint64 // a branch's
	bucket     bool   // a leaf entry holding a bucket header (and maybe an inline page)
}

// elements parses a branch or leaf page held in b (a tree page or an inline bucket's),
// checking every offset against b.
func elements(b []byte) (branch bool, es []element, err error) {
	if len(b) < pageHeaderSize {
		return false, nil, fmt.Errorf("page shorter than its header")
	}
	flags, count := le.Uint16(b[8:]), int(le.Uint16(b[10:]))
	switch flags {
	case flagBranch:
		branch = true
		if count == 0 {
			return true, nil, fmt.Errorf("branch page with no entries")
		}
	case flagLeaf:
	default:
		return false, nil, fmt.Errorf("not a branch or leaf page (flags %#x)", flags)
	}
	if pageHeaderSize+count*elementSize > len(b) {
		return branch, nil, fmt.Errorf("%d entries do not fit the page", count)
	}
	es = make([]element, count)
	for i := range es {
		at := pageHeaderSize + i*elementSize
		e := b[at : at+elementSize]
		var pos, ksize, vsize uint64
		if branch {
			pos, ksize = uint64(le.Uint32(e[0:])), uint64(le.Uint32(e[4:]))
			es[i].child = le.Uint64(e[8:])
		} else {
			es[i].bucket = le.Uint32(e[0:])&leafIsBucket != 0
			pos, ksize, vsize = uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
		}
		start := uint64(at) + pos
		if end := start + ksize + vsize; end > uint64(len(b)) {
			return branch, nil, fmt.Errorf("entry %d runs past the page", i)
		}
		es[i].key = b[start : start+ksize]
		es[i].value = b[start+ksize : start+ksize+vsize]
		if es[i].bucket && vsize < bucketHeaderSize {
			return branch, nil, fmt.Errorf("entry %d: bucket header cut short", i)
		}
	}
	return branch, es, nil
}

// walker walks a database's buckets from a meta page: each record to onRecord, each
// bucket to onBucket, each part it cannot read to onProblem (and it goes on with the
// rest). A page reached twice is a problem too, so a damaged file cannot send it round
// in circles.
type walker struct {
	f         *pageFile
	seen      map[uint64]bool
	onBucket  func(path [][]byte, seq uint64)
	onRecord  func(path [][]byte, key, value []byte)
	onProblem func(path [][]byte, err error)
}

func newWalker(f *pageFile) *walker {
	return &walker{f: f, seen: map[uint64]bool{},
		onBucket: func([][]byte, uint64) {}, onRecord: func([][]byte, []byte, []byte) {}}
}

// bucket walks the bucket at path whose header (and inline page) is hdr.
func (w *walker) bucket(path [][]byte, hdr []byte) {
	root, seq := le.Uint64(hdr[0:]), le.Uint64(hdr[8:])
	w.onBucket(path, seq)
	if len(path) > maxDepth {
		w.onProblem(path, fmt.Errorf("buckets nested deeper than %d", maxDepth))
		return
	}
	if root == 0 { // inline: the bucket's one leaf page follows its header
		w.leafOrBranch(path, hdr[bucketHeaderSize:], 0, nil, nil, len(path))
		return
	}
	w.tree(path, root, nil, nil, len(path))
}

// tree walks page id of the bucket at path, whose keys must be in [lo, hi) (nil: open),
// and returns its greatest key.
func (w *walker) tree(path [][]byte, id uint64, lo, hi []byte, depth int) []byte {
	if depth > maxDepth {
		w.onProblem(path, fmt.Errorf("page %d: the tree is deeper than %d levels", id, maxDepth))
		return nil
	}
	// Seen pages are refused before their overflow is read: else a file whose branch
	// entries all name one large overflow page costs entries × its size to refuse.
	if w.seen[id] {
		w.onProblem(path, fmt.Errorf("page %d is referenced twice", id))
		return nil
	}
	span, err := w.f.span(id)
	if err != nil {
		w.onProblem(path, err)
		return nil
	}
	for i := id; i < id+span; i++ {
		if w.seen[i] {
			w.onProblem(path, fmt.Errorf("page %d is referenced twice", i))
			return nil
		}
		w.seen[i] = true
	}
	b, err := w.f.read(id, span)
	if err != nil {
		w.onProblem(path, err)
		return nil
	}
	return w.leafOrBranch(path, b, id, lo, hi, depth)
}

// leafOrBranch walks page b (id 0: inline), keys in [lo, hi), like bbolt's key-order
// check: each key after the one before, a branch's first key not below lo.
func (w *walker) leafOrBranch(path [][]byte, b []byte, id uint64, lo, hi []byte, depth int) []byte {
	branch, es, err := elements(b)
	if err != nil {
		w.onProblem(path, fmt.Errorf("page %d: %w", id, err))
		return nil
	}
	prev := lo
	for i, e := range es {
		if (i == 0 && prev != nil && bytes.Compare(prev, e.key) > 0) || (i > 0 && bytes.Compare(prev, e.key) >= 0) ||
			(hi != nil && bytes.Compare(e.key, hi) >= 0) {
			w.onProblem(path, fmt.Errorf("page %d: entry %d is out of key order", id, i))
			return nil
		}
		switch {
		case branch:
			next := hi
			if i+1 < len(es) {
				next = es[i+1].key
			}
			prev = w.tree(path, e.child, e.key, next, depth+1)
			if prev == nil {
				prev = e.key
			}
		case e.bucket:
			w.bucket(append(path[:len(path):len(path)], e.key), e.value)
			prev = e.key
		default:
			w.onRecord(path, e.key, e.value)
			prev = e.key
		}
	}
	return prev
}

// freelist reads a synced freelist page (another program's file, or one bbolt wrote
// without NoFreelistSync) as bbolt's freelist.Read would: ids sorted, unique, in bounds.
func (f *pageFile) freelist(id uint64) (map[uint64]bool, error) {
	b, err := f.page(id)
	if err != nil {
		return nil, fmt.Errorf("freelist: %w", err)
	}
	if le.Uint16(b[8:]) != flagFreelist {
		return nil, fmt.Errorf("freelist page %d is not a freelist page", id)
	}
	count, at := uint64(le.Uint16(b[10:])), uint64(pageHeaderSize)
	if count == 0xFFFF { // the real count is the first id
		if len(b) < pageHeaderSize+8 {
			return nil, fmt.Errorf("freelist page %d cut short", id)
		}
		count, at = le.Uint64(b[pageHeaderSize:]), at+8
	}
	if hi, lo := bits.Mul64(count, 8); hi != 0 || lo > uint64(len(b))-at {
		return nil, fmt.Errorf("freelist page %d: %d ids do not fit", id, count)
	}
	free := make(map[uint64]bool, count)
	var last uint64
	for i := range count {
		p := le.Uint64(b[at+8*i:])
		if p < 2 || p >= f.hwm || (i > 0 && p <= last) {
			return nil, fmt.Errorf("freelist page %d: free page %d out of order or bounds", id, p)
		}
		free[p], last = true, p
	}
	return free, nil
}
