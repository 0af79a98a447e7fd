package bundle

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"sheetkeeper/strictjson"
)

// Archive limits.
const (
	// MaxArchiveBytes is the largest .zip read: room for ruleset.json and twelve
	// catalog files at their raised limits, stored without compression.
	MaxArchiveBytes = 32 << 20
	// MaxZipEntries is how many entries (files and folders) a .zip may hold.
	MaxZipEntries = 256
	// maxCentralDirectory bounds the zip's central directory, which is read
	// whole before any entry is looked at.
	maxCentralDirectory = 256 << 10
)

const (
	eocdLen       = 22
	eocdSignature = 0x06054b50
	cdSignature   = 0x02014b50
	cdHeaderLen   = 46
)

// zipSource is a package inside a .zip. Entries are indexed by their path
// below the package root (the archive's top, or its one top-level folder).
type zipSource struct {
	files map[string]*zip.File
}

// preflightZip reads the end-of-central-directory record and walks the
// central directory by hand, so that archive/zip is only handed an archive
// whose directory is small and whose entries number at most MaxZipEntries:
// archive/zip allocates a File for every directory header it finds before
// anyone can count them.
func preflightZip(r io.ReaderAt, size int64) strictjson.Problems {
	if size < eocdLen {
		return fail(strictjson.Archive, "archive", "is not a zip archive")
	}
	var buf []byte
	eocd := int64(-1)
	for i, n := range []int64{1024, 65 * 1024} {
		n = min(n, size)
		buf = make([]byte, n)
		if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return fail(strictjson.Archive, "archive", "cannot be read: "+err.Error())
		}
		if p := findEOCD(buf); p >= 0 {
			buf = buf[p:]
			eocd = size - n + int64(p)
			break
		}
		if i == 1 || n == size {
			return fail(strictjson.Archive, "archive", "is not a zip archive")
		}
	}
	records := binary.LittleEndian.Uint16(buf[10:])
	dirSize := binary.LittleEndian.Uint32(buf[12:])
	dirOffset := binary.LittleEndian.Uint32(buf[16:])
	if records == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff {
		return fail(strictjson.Archive, "archive", "is a zip64 archive, which a ruleset package never needs")
	}
	if int64(dirOffset)+int64(dirSize) != eocd {
		return fail(strictjson.Archive, "archive", "is not a well-formed zip archive (its central directory is not where it says)")
	}
	// The directory's size first: its count of entries is 16 bits, and an archive of
	// 100,000 entries may say 34,464.
	if dirSize > maxCentralDirectory {
		return fail(strictjson.Limit, "archive", "has a "+strconv.FormatUint(uint64(dirSize), 10)+"-byte directory, more than the "+strconv.Itoa(maxCentralDirectory)+" bytes allowed")
	}
	if records > MaxZipEntries {
		return fail(strictjson.Limit, "archive", "holds "+strconv.Itoa(int(records))+" entries, more than the "+strconv.Itoa(MaxZipEntries)+" allowed")
	}
	dir := make([]byte, dirSize)
	if _, err := r.ReadAt(dir, int64(dirOffset)); err != nil && err != io.EOF {
		return fail(strictjson.Archive, "archive", "cannot be read: "+err.Error())
	}
	n := 0
	for off := 0; off+cdHeaderLen <= len(dir); n++ {
		if binary.LittleEndian.Uint32(dir[off:]) != cdSignature {
			break
		}
		if n >= MaxZipEntries {
			return fail(strictjson.Limit, "archive", "holds more than the "+strconv.Itoa(MaxZipEntries)+" entries allowed")
		}
		nameLen := int(binary.LittleEndian.Uint16(dir[off+28:]))
		extraLen := int(binary.LittleEndian.Uint16(dir[off+30:]))
		commentLen := int(binary.LittleEndian.Uint16(dir[off+32:]))
		off += cdHeaderLen + nameLen + extraLen + commentLen
	}
	return nil
}

// findEOCD finds the end-of-central-directory signature the way archive/zip
// does: the last one whose comment fits in the block.
func findEOCD(b []byte) int {
	for i := len(b) - eocdLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(b[i:]) == eocdSignature {
			n := int(binary.LittleEndian.Uint16(b[i+eocdLen-2:]))
			if n+eocdLen+i > len(b) {
				return -1
			}
			return i
		}
	}
	return -1
}

// newZipSource indexes a zip archive below its package root.
func newZipSource(r io.ReaderAt, size int64) (*zipSource, strictjson.Problems) {
	zr, prefix, ps := openZip(r, size)
	if ps != nil {
		return nil, ps
	}
	src := &zipSource{files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		if rel, ok := strings.CutPrefix(f.Name, prefix); ok && rel != "" && !strings.HasSuffix(rel, "/") {
			src.files[rel] = f
		}
	}
	return src, nil
}

// ZipFS opens a package archive as a file system rooted at the package root:
// the archive's top, or its one top-level folder holding manifest.json. The
// archive is vetted as Read vets it; r must stay readable while the file
// system is used.
func ZipFS(r io.ReaderAt, size int64) (fs.FS, error) {
	zr, prefix, ps := openZip(r, size)
	if ps != nil {
		return nil, ps
	}
	if prefix == "" {
		return zr, nil
	}
	return fs.Sub(zr, strings.TrimSuffix(prefix, "/"))
}

// openZip reads a zip archive's directory, refusing unsafe, duplicate and
// linked entries whether or not the manifest lists them, and finds the
// package root: prefix is "" or the top-level folder's name with its slash.
func openZip(r io.ReaderAt, size int64) (zr *zip.Reader, prefix string, _ strictjson.Problems) {
	if size > MaxArchiveBytes {
		return nil, "", fail(strictjson.Limit, "archive", "is "+strconv.FormatInt(size, 10)+" bytes, over the "+strconv.Itoa(MaxArchiveBytes)+"-byte archive limit")
	}
	if e := preflightZip(r, size); e != nil {
		return nil, "", e
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, "", fail(strictjson.Archive, "archive", "is not a readable zip archive: "+err.Error())
	}
	if len(zr.File) > MaxZipEntries {
		return nil, "", fail(strictjson.Limit, "archive", "holds "+strconv.Itoa(len(zr.File))+" entries, more than the "+strconv.Itoa(MaxZipEntries)+" allowed")
	}
	var ps problems
	seen := make(map[string]bool, len(zr.File))
	var roots []string
	for _, f := range zr.File {
		name := f.Name
		isDir := strings.HasSuffix(name, "/")
		clean := strings.TrimSuffix(name, "/")
		if msg := checkPath(clean); msg != "" {
			ps.add(strictjson.Unsafe, "zip entry "+strconv.Quote(name), strings.TrimPrefix(msg, strconv.Quote(clean)+" "))
			continue
		}
		if seen[clean] {
			ps.add(strictjson.Unsafe, "zip entry "+strconv.Quote(name), "appears more than once")
			continue
		}
		seen[clean] = true
		if m := f.Mode(); m&fs.ModeSymlink != 0 || (!isDir && m&fs.ModeType != 0) {
			ps.add(strictjson.Unsafe, "zip entry "+strconv.Quote(name), "is a link or special file; a package holds only plain files")
			continue
		}
		if !isDir && (clean == "manifest.json" || strings.Count(clean, "/") == 1 && strings.HasSuffix(clean, "/manifest.json")) {
			roots = append(roots, strings.TrimSuffix(clean, "manifest.json"))
		}
	}
	if err := ps.err(); err != nil {
		return nil, "", err.(strictjson.Problems)
	}
	switch {
	case contains(roots, ""):
		return zr, "", nil
	case len(roots) == 1:
		return zr, roots[0], nil
	case len(roots) == 0:
		return nil, "", fail(strictjson.Malformed, "manifest.json", "not found at the top of the archive or of its one top-level folder")
	default:
		return nil, "", fail(strictjson.Malformed, "manifest.json", "found in "+strconv.Itoa(len(roots))+" top-level folders; which package is meant is unclear")
	}
}

func (z *zipSource) stat(p string) (int64, *strictjson.Problem) {
	f, ok := z.files[p]
	if !ok {
		return 0, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "listed in the manifest but missing from the package"}
	}
	if f.UncompressedSize64 > math.MaxInt64 {
		return math.MaxInt64, nil
	}
	return int64(f.UncompressedSize64), nil
}

func (z *zipSource) open(p string) (io.ReadCloser, *strictjson.Problem) {
	f, ok := z.files[p]
	if !ok {
		return nil, &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "listed in the manifest but missing from the package"}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &strictjson.Problem{Kind: strictjson.Archive, Path: p, Msg: "cannot be read from the archive: " + err.Error()}
	}
	return rc, nil
}

// readError turns an error met while inflating an entry into a Problem.
func (z *zipSource) readError(p string, err error) *strictjson.Problem {
	switch {
	case errors.Is(err, zip.ErrFormat):
		return &strictjson.Problem{Kind: strictjson.Unsafe, Path: p, Msg: "inflates past the size its archive entry claims"}
	case errors.Is(err, zip.ErrChecksum):
		return &strictjson.Problem{Kind: strictjson.Integrity, Path: p, Msg: "fails its archive checksum"}
	}
	return &strictjson.Problem{Kind: strictjson.Archive, Path: p, Msg: "cannot be read from the archive: " + err.Error()}
}
