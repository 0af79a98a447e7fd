package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// source is where a package's files come from: a folder or a zip archive.
// Paths are relative to the package root and already vetted by checkPath.
type source interface {
	// stat reports the size of the file at p as the container knows it
	// (an archive entry's header may lie; reading finds out), or a Problem
	// when it is missing or unsafe.
	stat(p string) (int64, *Problem)
	open(p string) (io.ReadCloser, *Problem)
	// readError classifies an error met while reading an opened file.
	readError(p string, err error) *Problem
	close() error
}

// Bundle is an opened, verified ruleset package. The manifest and ruleset.json
// are verified when it is opened; each catalog file is read and verified the
// first time it is asked for. A Bundle is safe for concurrent use. Close it
// when done: it may hold the archive or folder open for the catalog files.
type Bundle struct {
	manifest *Manifest
	ruleset  []byte
	src      source

	mu       sync.Mutex
	closed   bool
	catalogs map[string]*catalogFile
	ids      []string
}

type catalogFile struct {
	file File
	once sync.Once
	data []byte
	err  error
}

// Open reads the package at name: a folder holding manifest.json, the
// manifest.json inside such a folder, or a .zip archive (recognised by its
// content or, failing that, its extension).
func Open(name string) (*Bundle, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, fail(Archive, "", "cannot open "+strconv.Quote(name)+": "+errText(err))
	}
	if !st.IsDir() && filepath.Base(name) == "manifest.json" {
		name = filepath.Dir(name)
		if st, err = os.Stat(name); err != nil {
			return nil, fail(Archive, "", "cannot open "+strconv.Quote(name)+": "+errText(err))
		}
	}
	if st.IsDir() {
		root, err := os.OpenRoot(name)
		if err != nil {
			return nil, fail(Archive, "", "cannot open "+strconv.Quote(name)+": "+errText(err))
		}
		b, err := load(&folderSource{fsys: root.FS(), root: root})
		if err != nil {
			root.Close()
			return nil, err
		}
		return b, nil
	}
	if !st.Mode().IsRegular() {
		return nil, fail(Archive, "", strconv.Quote(name)+" is neither a folder nor a .zip file")
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fail(Archive, "", "cannot open "+strconv.Quote(name)+": "+errText(err))
	}
	var magic [4]byte
	n, _ := f.ReadAt(magic[:], 0)
	isZip := n == 4 && (string(magic[:]) == "PK\x03\x04" || string(magic[:]) == "PK\x05\x06")
	if !isZip && !strings.EqualFold(filepath.Ext(name), ".zip") {
		f.Close()
		return nil, fail(Archive, "", strconv.Quote(name)+" is neither a folder nor a .zip file")
	}
	src, e := newZipSource(f, st.Size())
	if e != nil {
		f.Close()
		return nil, e
	}
	src.closer = f
	b, err := load(src)
	if err != nil {
		f.Close()
		return nil, err
	}
	return b, nil
}

// Read reads a package from the bytes of a .zip archive (an upload, a Discord
// attachment). r must stay readable until the Bundle is closed, since catalog
// files are read from it when first asked for; a *bytes.Reader is the usual r.
func Read(r io.ReaderAt, size int64) (*Bundle, error) {
	src, e := newZipSource(r, size)
	if e != nil {
		return nil, e
	}
	return load(src)
}

// FromFS reads a package from the root of a file system laid out like a
// folder package (an embed.FS of built-in content, an fstest.MapFS).
func FromFS(fsys fs.FS) (*Bundle, error) {
	return load(&folderSource{fsys: fsys})
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// load reads and verifies the manifest and ruleset.json, and checks that every
// file the manifest lists is present.
func load(src source) (*Bundle, error) {
	data, p := readAll(src, "manifest.json", -1, MaxManifestBytes)
	if p != nil {
		if p.Kind == Integrity {
			p = &Problem{Kind: Malformed, Path: "manifest.json", Message: "not found at the top of the package"}
		}
		return nil, &Error{Problems: []Problem{*p}}
	}
	m, err := ParseManifest(data)
	if err != nil {
		return nil, err
	}
	var ps problems
	for _, f := range m.Files {
		if _, p := src.stat(f.Path); p != nil {
			ps.add(p.Kind, p.Path, p.Message)
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	rf, _ := m.File(RulesetPath)
	ruleset, perr := readVerified(src, rf)
	if perr != nil {
		return nil, &Error{Problems: []Problem{*perr}}
	}
	b := &Bundle{manifest: m, ruleset: ruleset, src: src, catalogs: map[string]*catalogFile{}}
	for _, id := range m.CatalogIDs() {
		f, _ := m.File(CatalogPath(id))
		b.catalogs[id] = &catalogFile{file: f}
		b.ids = append(b.ids, id)
	}
	return b, nil
}

// readAll reads the file at p whole, refusing it when it holds more than
// limit bytes. want is the size it must have, or -1 when any size up to limit
// will do. Sizes are checked before reading, from what the container says,
// and again while reading, since that may lie.
func readAll(src source, p string, want, limit int64) ([]byte, *Problem) {
	size, prob := src.stat(p)
	if prob != nil {
		return nil, prob
	}
	if want >= 0 && size != want {
		return nil, &Problem{Kind: Integrity, Path: p, Message: "is " + strconv.FormatInt(size, 10) + " bytes; the manifest declares " + strconv.FormatInt(want, 10)}
	}
	if size > limit {
		return nil, &Problem{Kind: Limit, Path: p, Message: "is " + strconv.FormatInt(size, 10) + " bytes, over the " + strconv.FormatInt(limit, 10) + "-byte limit"}
	}
	rc, prob := src.open(p)
	if prob != nil {
		return nil, prob
	}
	defer rc.Close()
	buf := bytes.NewBuffer(make([]byte, 0, size+1))
	_, err := buf.ReadFrom(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, src.readError(p, err)
	}
	n := int64(buf.Len())
	switch {
	case n > limit && want >= 0:
		return nil, &Problem{Kind: Unsafe, Path: p, Message: "holds more than the " + strconv.FormatInt(want, 10) + " bytes the manifest declares"}
	case n > limit:
		return nil, &Problem{Kind: Limit, Path: p, Message: "holds more than " + strconv.FormatInt(limit, 10) + " bytes, the limit"}
	case want >= 0 && n != want:
		return nil, &Problem{Kind: Integrity, Path: p, Message: "is " + strconv.FormatInt(n, 10) + " bytes; the manifest declares " + strconv.FormatInt(want, 10)}
	}
	return buf.Bytes(), nil
}

// readVerified reads a file the manifest pins and checks its size and sha256.
// The manifest has already held f.Bytes to the file's limit.
func readVerified(src source, f File) ([]byte, *Problem) {
	data, p := readAll(src, f.Path, f.Bytes, f.Bytes)
	if p != nil {
		return nil, p
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
		return nil, &Problem{Kind: Integrity, Path: f.Path, Message: "sha256 is " + got + "; the manifest declares " + f.SHA256}
	}
	return data, nil
}

// Manifest returns the package's manifest. It must not be modified.
func (b *Bundle) Manifest() *Manifest { return b.manifest }

// API returns the Capability API the package declares.
func (b *Bundle) API() Version { return b.manifest.CapabilityAPI }

// Ruleset returns the verified bytes of ruleset.json. They must not be modified.
func (b *Bundle) Ruleset() []byte { return b.ruleset }

// CatalogIDs returns the ids of the package's catalog files, in the order
// contributions.assets.paths lists them.
func (b *Bundle) CatalogIDs() []string { return append([]string(nil), b.ids...) }

// Catalog returns the verified bytes of catalogs/<id>.json, reading and
// checking the file on the first request and remembering the outcome. A
// catalog that fails to verify returns an *Error and leaves the rest of the
// package usable.
func (b *Bundle) Catalog(id string) ([]byte, error) {
	b.mu.Lock()
	c, ok := b.catalogs[id]
	closed := b.closed
	b.mu.Unlock()
	if !ok {
		return nil, fail(Malformed, CatalogPath(id), "the package has no such catalog file")
	}
	c.once.Do(func() {
		if closed {
			c.err = fail(Archive, CatalogPath(id), "cannot be read: the package is closed")
			return
		}
		data, p := readVerified(b.src, c.file)
		if p != nil {
			c.err = &Error{Problems: []Problem{*p}}
			return
		}
		c.data = data
	})
	return c.data, c.err
}

// Close releases the folder or archive. Catalogs already read stay readable.
func (b *Bundle) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	return b.src.close()
}

// folderSource is a package in a folder, or in any fs.FS laid out like one.
// Opened from a path, the fs.FS is an os.Root's, which refuses any path or
// link leading outside the folder.
type folderSource struct {
	fsys fs.FS
	root *os.Root
}

func (s *folderSource) stat(p string) (int64, *Problem) {
	st, err := fs.Stat(s.fsys, p)
	if err != nil {
		if s.leadsOutside(p) {
			return 0, &Problem{Kind: Unsafe, Path: p, Message: "is a link leading outside the package"}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return 0, &Problem{Kind: Integrity, Path: p, Message: "listed in the manifest but missing from the package"}
		}
		return 0, &Problem{Kind: Archive, Path: p, Message: "cannot be read: " + errText(err)}
	}
	if !st.Mode().IsRegular() {
		return 0, &Problem{Kind: Unsafe, Path: p, Message: "is not a plain file"}
	}
	return st.Size(), nil
}

// leadsOutside reports whether some element of p is a link the root refuses
// to follow because it leads out of the folder.
func (s *folderSource) leadsOutside(p string) bool {
	if s.root == nil {
		return false
	}
	for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
		if st, err := s.root.Lstat(q); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			if _, err := s.root.Stat(q); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return true
			}
		}
	}
	return false
}

func (s *folderSource) open(p string) (io.ReadCloser, *Problem) {
	f, err := s.fsys.Open(p)
	if err != nil {
		if s.leadsOutside(p) {
			return nil, &Problem{Kind: Unsafe, Path: p, Message: "is a link leading outside the package"}
		}
		return nil, &Problem{Kind: Archive, Path: p, Message: "cannot be read: " + errText(err)}
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, &Problem{Kind: Unsafe, Path: p, Message: "is not a plain file"}
	}
	return f, nil
}

func (s *folderSource) readError(p string, err error) *Problem {
	return &Problem{Kind: Archive, Path: p, Message: "cannot be read: " + errText(err)}
}

func (s *folderSource) close() error {
	if s.root != nil {
		return s.root.Close()
	}
	return nil
}
