package bolt

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sheetkeeper/storage"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n int64
}

func (c *countingReader) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.n += int64(n)
	return n, err
}

// sharedOverflowFile is a crafted database: a root branch page of 240 entries that all
// name page 3, an empty leaf with 63 overflow pages (256 KiB).
func sharedOverflowFile() []byte {
	const ps, overflow, entries = 4096, 63, 240
	hwm := 3 + overflow + 1
	b := make([]byte, hwm*ps)
	for m := range 2 {
		p := b[m*ps:]
		le.PutUint64(p[0:], uint64(m))
		le.PutUint16(p[8:], flagMeta)
		meta := p[pageHeaderSize:]
		le.PutUint32(meta[0:], boltMagic)
		le.PutUint32(meta[4:], boltVersion)
		le.PutUint32(meta[8:], ps)
		le.PutUint64(meta[16:], 2) // root
		le.PutUint64(meta[32:], noFreelist)
		le.PutUint64(meta[40:], uint64(hwm))
		le.PutUint64(meta[48:], uint64(m+1)) // txn
		resum(p)
	}
	branch := b[2*ps : 3*ps]
	le.PutUint64(branch[0:], 2)
	le.PutUint16(branch[8:], flagBranch)
	le.PutUint16(branch[10:], entries)
	for i := range entries {
		e := branch[pageHeaderSize+i*elementSize:]
		keyAt := pageHeaderSize + entries*elementSize + i
		le.PutUint32(e[0:], uint32(keyAt-(pageHeaderSize+i*elementSize)))
		le.PutUint32(e[4:], 1)
		le.PutUint64(e[8:], 3)
		branch[keyAt] = byte(i)
	}
	leaf := b[3*ps:]
	le.PutUint64(leaf[0:], 3)
	le.PutUint16(leaf[8:], flagLeaf)
	le.PutUint32(leaf[12:], overflow)
	return b
}

// TestSharedOverflowRefusedCheaply: many branch entries naming one large overflow page
// are refused as damage after reading the file about once, not once per entry (which
// made Open, `db check` and `db salvage` quadratic in a hostile file).
func TestSharedOverflowRefusedCheaply(t *testing.T) {
	file := sharedOverflowFile()
	cr := &countingReader{r: bytes.NewReader(file)}
	rep := &Report{}
	if err := survey(cr, int64(len(file)), rep, false, nil, nil); err != nil {
		t.Fatal(err)
	}
	if !rep.Damaged() || !strings.Contains(rep.Problems[0], "referenced twice") {
		t.Fatalf("report: %+v", rep)
	}
	if cr.n > 2*int64(len(file)) {
		t.Fatalf("read %d bytes of a %d-byte file", cr.n, len(file))
	}
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	must(t, os.WriteFile(path, file, 0o600))
	if s, err := Open(path, Options{Timeout: time.Second}); storage.KindOf(err) != storage.Damaged {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open: %v", err)
	}
}
