package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sheetkeeper/strictjson"
)

// source is where a package's files come from: a folder, a zip archive or
// files in memory.
// Paths are relative to the package root and already vetted by checkPath.
type source interface {
	// stat reports the size of the file at p as the container knows it
	// (an archive entry's header may lie; reading finds out), or a Problem
	// when it is missing or unsafe.
	stat(p string) (int64, *strictjson.Problem)
	open(p string) (io.ReadCloser, *strictjson.Problem)
	// readError classifies an error met while reading an opened file.
	readError(p string, err error) *strictjson.Problem
}

// Bundle is an opened, verified ruleset package. The manifest and ruleset.json
// are verified when it is opened; each catalog file is read and verified the
// first time it is asked for. A Bundle is safe for concurrent use. It reads
// from what it was given (a file system, an archive's bytes) and never opens
// or closes anything itself.
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
// folder package: an embed.FS of built-in content or, for a folder on disk,
// an os.Root's FS, which refuses any path or link leading outside the folder
// (an os.DirFS would follow it). The caller keeps fsys open until the Bundle
// is closed, and closes it after.
func FromFS(fsys fs.FS) (*Bundle, error) {
	return load(&folderSource{fsys: fsys})
}

// FromFiles reads a package from its files held in memory, keyed by their
// path below the package root ("manifest.json", "catalogs/spells.json"): a
// package as the bot stores it.
func FromFiles(files map[string][]byte) (*Bundle, error) {
	return load(memSource(files))
}

// IsZip reports whether a file is a .zip archive, by its first bytes (a local
// file header, or the end record of an empty archive) or, failing that, by
// its name. head may be shorter than four bytes.
func IsZip(name string, head []byte) bool {
	return bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")) ||
		strings.EqualFold(path.Ext(name), ".zip")
}

// ReadLimited reads r to its end but at most limit+1 bytes, so a huge input
// costs no more than that and a size check after it still sees that it was
// too big. A file that can tell its size (an fs.File) is read into one buffer
// of that size, not into one grown by doubling: a 2 MB catalog costs 2 MB.
func ReadLimited(r io.Reader, limit int64) ([]byte, error) {
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() >= 0 {
			return readSized(r, st.Size(), limit)
		}
	}
	return io.ReadAll(io.LimitReader(r, limit+1))
}

// readSized reads r, said to hold size bytes, to its end but at most limit+1 bytes,
// into a buffer of that size (plus the byte that tells a longer r), growing it only
// when r holds more than it said.
func readSized(r io.Reader, size, limit int64) ([]byte, error) {
	lr := io.LimitReader(r, limit+1)
	buf := make([]byte, 0, min(size, limit)+1)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
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
		if p.Kind == strictjson.Integrity {
			p = &strictjson.Problem{Kind: strictjson.Malformed, Path: "manifest.json", Msg: "not found at the top of the package"}
		}
		return nil, strictjson.Problems{*p}
	}
	m, err := ParseManifest(data)
	if err != nil {
		return nil, err
	}
	var ps problems
	for _, f := range m.Files {
		if _, p := src.stat(f.Path); p != nil {
			ps.add(p.Kind, p.Path, p.Msg)
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	rf, _ := m.File(RulesetPath)
	ruleset, perr := readVerified(src, rf)
	if perr != nil {
		return nil, strictjson.Problems{*perr}
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
func readAll(src source, p string, want, limit int64) ([]byte, *strictjson.Problem) {
	size, prob := src.stat(p)
	if prob != nil {
		return nil, prob
	}
	if want >= 0 && size != want {
		return nil, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "is " + strconv.FormatInt(size, 10) + " bytes; the manifest declares " + strconv.FormatInt(want, 10)}
	}
	if size > limit {
		return nil, &strictjson.Problem{Kind: strictjson.Limit, Path: p, Msg: "is " + strconv.FormatInt(size, 10) + " bytes, over the " + strconv.FormatInt(limit, 10) + "-byte limit"}
	}
	if m, ok := src.(memSource); ok {
		// Held in memory already, at the size stat told: a copy would double what a
		// package costs (twelve 2 MB catalogs are 24 MB).
		return m[p], nil
	}
	rc, prob := src.open(p)
	if prob != nil {
		return nil, prob
	}
	defer rc.Close()
	data, err := readSized(rc, size, limit)
	if err != nil {
		return nil, src.readError(p, err)
	}
	n := int64(len(data))
	switch {
	case n > limit && want >= 0:
		return nil, &strictjson.Problem{Kind: strictjson.Unsafe, Path: p, Msg: "holds more than the " + strconv.FormatInt(want, 10) + " bytes the manifest declares"}
	case n > limit:
		return nil, &strictjson.Problem{Kind: strictjson.Limit, Path: p, Msg: "holds more than " + strconv.FormatInt(limit, 10) + " bytes, the limit"}
	case want >= 0 && n != want:
		return nil, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "is " + strconv.FormatInt(n, 10) + " bytes; the manifest declares " + strconv.FormatInt(want, 10)}
	}
	return data, nil
}

// readVerified reads a file the manifest pins and checks its size and sha256.
// The manifest has already held f.Bytes to the file's limit.
func readVerified(src source, f File) ([]byte, *strictjson.Problem) {
	data, p := readAll(src, f.Path, f.Bytes, f.Bytes)
	if p != nil {
		return nil, p
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
		return nil, &strictjson.Problem{Kind: strictjson.Integrity, Path: f.Path, Msg: "sha256 is " + got + "; the manifest declares " + f.SHA256}
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
// catalog that fails to verify returns an strictjson.Problems and leaves the rest of the
// package usable.
func (b *Bundle) Catalog(id string) ([]byte, error) {
	b.mu.Lock()
	c, ok := b.catalogs[id]
	closed := b.closed
	b.mu.Unlock()
	if !ok {
		return nil, fail(strictjson.Malformed, CatalogPath(id), "the package has no such catalog file")
	}
	c.once.Do(func() {
		if closed {
			c.err = fail(strictjson.Archive, CatalogPath(id), "cannot be read: the package is closed")
			return
		}
		data, p := readVerified(b.src, c.file)
		if p != nil {
			c.err = strictjson.Problems{*p}
			return
		}
		c.data = data
	})
	return c.data, c.err
}

// Close ends the Bundle's reading: a catalog not read yet is refused from now
// on ("the package is closed") rather than read from a file system or archive
// its owner is about to close. Catalogs already read stay readable.
func (b *Bundle) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	return nil
}

// folderSource is a package in a folder, or in any fs.FS laid out like one.
type folderSource struct {
	fsys fs.FS
}

func (s *folderSource) stat(p string) (int64, *strictjson.Problem) {
	st, err := fs.Stat(s.fsys, p)
	if err != nil {
		if s.leadsOutside(p) {
			return 0, &strictjson.Problem{Kind: strictjson.Unsafe, Path: p, Msg: "is a link leading outside the package"}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return 0, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "listed in the manifest but missing from the package"}
		}
		return 0, &strictjson.Problem{Kind: strictjson.Archive, Path: p, Msg: "cannot be read: " + errText(err)}
	}
	if !st.Mode().IsRegular() {
		return 0, &strictjson.Problem{Kind: strictjson.Unsafe, Path: p, Msg: "is not a plain file"}
	}
	return st.Size(), nil
}

// leadsOutside reports whether some element of p is a link the file system
// refuses to follow, as an os.Root's refuses a link leading out of its folder.
// A file system that knows no links (an embed.FS) has none.
func (s *folderSource) leadsOutside(p string) bool {
	for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
		if st, err := fs.Lstat(s.fsys, q); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			if _, err := fs.Stat(s.fsys, q); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return true
			}
		}
	}
	return false
}

func (s *folderSource) open(p string) (io.ReadCloser, *strictjson.Problem) {
	f, err := s.fsys.Open(p)
	if err != nil {
		if s.leadsOutside(p) {
			return nil, &strictjson.Problem{Kind: strictjson.Unsafe, Path: p, Msg: "is a link leading outside the package"}
		}
		return nil, &strictjson.Problem{Kind: strictjson.Archive, Path: p, Msg: "cannot be read: " + errText(err)}
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, &strictjson.Problem{Kind: strictjson.Unsafe, Path: p, Msg: "is not a plain file"}
	}
	return f, nil
}

func (s *folderSource) readError(p string, err error) *strictjson.Problem {
	return &strictjson.Problem{Kind: strictjson.Archive, Path: p, Msg: "cannot be read: " + errText(err)}
}

// memSource is a package's files held in memory.
type memSource map[string][]byte

func (m memSource) stat(p string) (int64, *strictjson.Problem) {
	data, ok := m[p]
	if !ok {
		return 0, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "listed in the manifest but missing from the package"}
	}
	return int64(len(data)), nil
}

func (m memSource) open(p string) (io.ReadCloser, *strictjson.Problem) {
	if _, ok := m[p]; !ok {
		return nil, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "listed in the manifest but missing from the package"}
	}
	return io.NopCloser(bytes.NewReader(m[p])), nil
}

func (m memSource) readError(p string, err error) *strictjson.Problem {
	return &strictjson.Problem{Kind: strictjson.Archive, Path: p, Msg: "cannot be read: " + err.Error()}
}
