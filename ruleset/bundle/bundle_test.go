package bundle

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"sheetkeeper/strictjson"
)

// checkReference asserts b is the real 5e package, every catalog verified.
func checkReference(t *testing.T, b *Bundle) {
	t.Helper()
	files := refPkg(t)
	if b.Manifest().ID != "ruleset-5e-2014" || b.API() != (Version{1, 340}) {
		t.Errorf("manifest %s, API %s", b.Manifest().ID, b.API())
	}
	if !bytes.Equal(b.Ruleset(), files["ruleset.json"]) {
		t.Error("Ruleset() differs from ruleset.json")
	}
	if got := strings.Join(b.CatalogIDs(), ","); got != "spells,features,creatures" {
		t.Errorf("CatalogIDs = %s", got)
	}
	for _, id := range b.CatalogIDs() {
		data, err := b.Catalog(id)
		if err != nil {
			t.Fatalf("Catalog(%s): %v", id, err)
		}
		if !bytes.Equal(data, files["catalogs/"+id+".json"]) {
			t.Errorf("Catalog(%s) differs", id)
		}
	}
	_, err := b.Catalog("items")
	wantProblems(t, err, "catalogs/items.json: the package has no such catalog file")
	wantKind(t, err, strictjson.Malformed)
}

func TestOpenReferenceFolder(t *testing.T) {
	b, err := openDir(t, refDir)
	if err != nil {
		t.Fatalf("the real 5e package is refused:\n%v", err)
	}
	defer b.Close()
	checkReference(t, b)
}

func TestOpenReferenceZip(t *testing.T) {
	files := refPkg(t)
	for _, prefix := range []string{"", "5e-2014/"} {
		t.Run("prefix "+prefix, func(t *testing.T) {
			data := zipBytes(t, prefix, files)
			b, err := Read(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("Read refused:\n%v", err)
			}
			checkReference(t, b)

			fsys, err := ZipFS(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("ZipFS refused:\n%v", err)
			}
			b, err = FromFS(fsys)
			if err != nil {
				t.Fatalf("the archive's package root refused:\n%v", err)
			}
			checkReference(t, b)
		})
	}
	// Detected by content, whatever the name; by name, whatever the content.
	data := zipBytes(t, "", files)
	if !IsZip("upload.bin", data[:4]) || !IsZip("5e.ZIP", nil) || !IsZip("empty", []byte("PK\x05\x06")) {
		t.Error("a zip archive not told")
	}
	if IsZip("notes.txt", []byte("hello")) || IsZip("ruleset.json", []byte("PK")) {
		t.Error("a plain file taken for a zip archive")
	}
}

func TestFromFiles(t *testing.T) {
	all := smallPkg().all(t)
	b, err := FromFiles(all)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Catalog("knacks"); err != nil {
		t.Fatal(err)
	}
	delete(all, "catalogs/knacks.json")
	_, err = FromFiles(all)
	wantProblems(t, err, "catalogs/knacks.json: listed in the manifest but missing from the package")
	if !errors.Is(err, strictjson.Integrity) {
		t.Error("not Integrity")
	}
}

func TestFromFS(t *testing.T) {
	p := smallPkg()
	m := fstest.MapFS{}
	for k, v := range p.all(t) {
		m[k] = &fstest.MapFile{Data: v}
	}
	b, err := FromFS(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Catalog("knacks"); err != nil {
		t.Fatal(err)
	}
}

func TestCatalogConcurrentAndClosed(t *testing.T) {
	b, err := openDir(t, refDir)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := b.Catalog("spells"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b.Close()
	if _, err := b.Catalog("spells"); err != nil {
		t.Errorf("a catalog read before Close: %v", err)
	}
	_, err = b.Catalog("creatures")
	wantProblems(t, err, "catalogs/creatures.json: cannot be read: the package is closed")
	wantKind(t, err, strictjson.Archive)
}

// TestBrokenPackages breaks one file at a time and opens the package both as
// a folder and as a zip.
func TestBrokenPackages(t *testing.T) {
	cases := []struct {
		name string
		edit func(p *pkg)
		open []string // problems from Open
		cat  []string // problems from Catalog("spells"), when Open succeeds
		kind strictjson.Kind
	}{
		{name: "ruleset sha256 mismatch", edit: func(p *pkg) { p.files["ruleset.json"] = []byte(`{"id":"tinx"}`) },
			open: []string{"ruleset.json: sha256 is " + sum([]byte(`{"id":"tinx"}`)) + "; the manifest declares " + sum([]byte(`{"id":"tiny"}`))},
			kind: strictjson.Integrity},
		{name: "ruleset size mismatch", edit: func(p *pkg) { p.files["ruleset.json"] = []byte(`{"id":"tiny" }`) },
			open: []string{"ruleset.json: is 14 bytes; the manifest declares 13"}, kind: strictjson.Integrity},
		{name: "ruleset missing", edit: func(p *pkg) { delete(p.files, "ruleset.json") },
			open: []string{"ruleset.json: listed in the manifest but missing from the package"}, kind: strictjson.Integrity},
		{name: "catalogs missing", edit: func(p *pkg) { delete(p.files, "catalogs/spells.json"); delete(p.files, "catalogs/knacks.json") },
			open: []string{"catalogs/spells.json: listed in the manifest but missing from the package",
				"catalogs/knacks.json: listed in the manifest but missing from the package"}, kind: strictjson.Integrity},
		{name: "catalog sha256 mismatch", edit: func(p *pkg) {
			p.files["catalogs/spells.json"] = []byte(`{"schemaVersion":1,"catalog":"spells","entries":{}}`)
		}, cat: []string{"catalogs/spells.json: sha256 is " + sum([]byte(`{"schemaVersion":1,"catalog":"spells","entries":{}}`)) +
			"; the manifest declares " + sum([]byte(`{"schemaVersion":1,"catalog":"spells","entries":[]}`))}, kind: strictjson.Integrity},
		{name: "catalog size mismatch", edit: func(p *pkg) { p.files["catalogs/spells.json"] = []byte(`{}`) },
			cat: []string{"catalogs/spells.json: is 2 bytes; the manifest declares 51"}, kind: strictjson.Integrity},
		{name: "extra listed path", edit: func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "catalogs/extra.json")) },
			open: []string{`contributions.assets.paths[3]: "catalogs/extra.json" is not listed in files with its sha256 and bytes`}, kind: strictjson.Malformed},
		{name: "too new", edit: func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 341} },
			open: []string{"capabilityApi: the package requires Capability API 1.341; this engine implements 1.340"}, kind: strictjson.TooNew},
		{name: "unlisted extra file is ignored", edit: func(p *pkg) { p.files["README.md"] = []byte("hi") }},
	}
	for _, c := range cases {
		for _, form := range []string{"folder", "zip"} {
			t.Run(c.name+"/"+form, func(t *testing.T) {
				p := smallPkg()
				c.edit(p)
				var b *Bundle
				var err error
				if form == "folder" {
					b, err = openDir(t, writeDir(t, p.all(t)))
				} else {
					data := zipBytes(t, "", p.all(t))
					b, err = Read(bytes.NewReader(data), int64(len(data)))
				}
				if c.open != nil {
					wantProblems(t, err, c.open...)
					if !errors.Is(err, c.kind) {
						t.Errorf("not %v", c.kind)
					}
					return
				}
				if err != nil {
					t.Fatalf("refused:\n%v", err)
				}
				defer b.Close()
				_, err = b.Catalog("spells")
				if c.cat != nil {
					wantProblems(t, err, c.cat...)
					if !errors.Is(err, c.kind) {
						t.Errorf("not %v", c.kind)
					}
					// The other catalog is still readable, and the failure is remembered.
					if _, err := b.Catalog("knacks"); err != nil {
						t.Errorf("knacks: %v", err)
					}
					_, again := b.Catalog("spells")
					if again == nil || again.Error() != err.Error() {
						t.Errorf("second ask: %v", again)
					}
				} else if err != nil {
					t.Errorf("Catalog: %v", err)
				}
			})
		}
	}
}

func TestFolderLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.json")
	p := smallPkg()
	if err := os.WriteFile(outside, p.files["ruleset.json"], 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("ruleset links outside", func(t *testing.T) {
		all := p.all(t)
		delete(all, "ruleset.json")
		dir := writeDir(t, all)
		if err := os.Symlink(outside, filepath.Join(dir, "ruleset.json")); err != nil {
			t.Skip("no symlinks:", err)
		}
		_, err := openDir(t, dir)
		wantProblems(t, err, "ruleset.json: is a link leading outside the package")
		if !errors.Is(err, strictjson.Unsafe) {
			t.Error("not strictjson.Unsafe")
		}
	})
	t.Run("catalogs folder links outside", func(t *testing.T) {
		all := p.all(t)
		elsewhere := writeDir(t, map[string][]byte{"spells.json": p.files["catalogs/spells.json"], "knacks.json": p.files["catalogs/knacks.json"]})
		delete(all, "catalogs/spells.json")
		delete(all, "catalogs/knacks.json")
		dir := writeDir(t, all)
		if err := os.Symlink(elsewhere, filepath.Join(dir, "catalogs")); err != nil {
			t.Skip("no symlinks:", err)
		}
		_, err := openDir(t, dir)
		wantProblems(t, err,
			"catalogs/spells.json: is a link leading outside the package",
			"catalogs/knacks.json: is a link leading outside the package")
		wantKind(t, err, strictjson.Unsafe)
	})
	t.Run("link inside the package is followed", func(t *testing.T) {
		all := p.all(t)
		all["spare/spells.json"] = all["catalogs/spells.json"]
		delete(all, "catalogs/spells.json")
		dir := writeDir(t, all)
		if err := os.Symlink("../spare/spells.json", filepath.Join(dir, "catalogs", "spells.json")); err != nil {
			t.Skip("no symlinks:", err)
		}
		b, err := openDir(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if _, err := b.Catalog("spells"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a folder where a file should be", func(t *testing.T) {
		all := p.all(t)
		delete(all, "catalogs/knacks.json")
		all["catalogs/knacks.json/x"] = []byte("x")
		_, err := openDir(t, writeDir(t, all))
		wantProblems(t, err, "catalogs/knacks.json: is not a plain file")
		wantKind(t, err, strictjson.Unsafe)
	})
	t.Run("no manifest", func(t *testing.T) {
		all := p.all(t)
		delete(all, "manifest.json")
		_, err := openDir(t, writeDir(t, all))
		wantProblems(t, err, "manifest.json: not found at the top of the package")
		wantKind(t, err, strictjson.Malformed)
	})
}

// rawZip writes entries whose headers and data the test controls.
type rawEntry struct {
	hdr  zip.FileHeader
	data []byte // already compressed when hdr.Method is Deflate
}

func buildRawZip(t testing.TB, entries []rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := e.hdr
		w, err := zw.CreateRaw(&h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var (
	bombOnce sync.Once
	bombData []byte
)

// bomb is a deflate stream of 64 MiB of zeros (about 64 KB compressed).
func bomb(t testing.TB) []byte {
	bombOnce.Do(func() {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		zeros := make([]byte, 1<<20)
		for i := 0; i < 64; i++ {
			w.Write(zeros)
		}
		w.Close()
		bombData = buf.Bytes()
	})
	return bombData
}

func stored(name string, data []byte) rawEntry {
	return rawEntry{hdr: zip.FileHeader{Name: name, Method: zip.Store, CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(data))}, data: data}
}

// entriesOf is a valid package as stored zip entries, in a fixed order.
func entriesOf(t testing.TB, p *pkg) []rawEntry {
	all := p.all(t)
	var out []rawEntry
	for _, n := range []string{"manifest.json", "ruleset.json", "catalogs/spells.json", "catalogs/knacks.json"} {
		out = append(out, stored(n, all[n]))
	}
	return out
}

// bounded runs f and fails when it takes long or allocates much.
func bounded(t *testing.T, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
	if elapsed > 3*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func TestHostileZips(t *testing.T) {
	p := smallPkg()
	good := entriesOf(t, p)
	rulesetLen := uint64(len(p.files["ruleset.json"]))

	cases := []struct {
		name string
		zip  func() []byte
		want []string
		kind strictjson.Kind
	}{
		{"bomb under an honest-looking header", func() []byte {
			e := good[1]
			e.hdr = zip.FileHeader{Name: "ruleset.json", Method: zip.Deflate, CompressedSize64: uint64(len(bomb(t))), UncompressedSize64: rulesetLen}
			e.data = bomb(t)
			return buildRawZip(t, []rawEntry{good[0], e, good[2], good[3]})
		}, []string{"ruleset.json: inflates past the size its archive entry claims"}, strictjson.Unsafe},
		{"bomb whose header admits it", func() []byte {
			e := rawEntry{hdr: zip.FileHeader{Name: "ruleset.json", Method: zip.Deflate, CompressedSize64: uint64(len(bomb(t))), UncompressedSize64: 64 << 20}, data: bomb(t)}
			return buildRawZip(t, []rawEntry{good[0], e, good[2], good[3]})
		}, []string{"ruleset.json: is 67108864 bytes; the manifest declares 13"}, strictjson.Integrity},
		{"manifest bomb", func() []byte {
			e := rawEntry{hdr: zip.FileHeader{Name: "manifest.json", Method: zip.Deflate, CompressedSize64: uint64(len(bomb(t))), UncompressedSize64: 1000}, data: bomb(t)}
			return buildRawZip(t, append([]rawEntry{e}, good[1:]...))
		}, []string{"manifest.json: inflates past the size its archive entry claims"}, strictjson.Unsafe},
		{"manifest too big", func() []byte {
			e := rawEntry{hdr: zip.FileHeader{Name: "manifest.json", Method: zip.Deflate, CompressedSize64: uint64(len(bomb(t))), UncompressedSize64: 64 << 20}, data: bomb(t)}
			return buildRawZip(t, append([]rawEntry{e}, good[1:]...))
		}, []string{"manifest.json: is 67108864 bytes, over the 65536-byte limit"}, strictjson.Limit},
		{"catalog bomb is caught when asked for", nil, nil, 0},
		{"too many entries", func() []byte {
			entries := append([]rawEntry{}, good...)
			for i := 0; i < 300; i++ {
				entries = append(entries, stored(fmt.Sprintf("junk/%d.txt", i), nil))
			}
			return buildRawZip(t, entries)
		}, []string{"archive: holds 304 entries, more than the 256 allowed"}, strictjson.Limit},
		{"too many entries behind a lying count", func() []byte {
			entries := append([]rawEntry{}, good...)
			for i := 0; i < 5000; i++ {
				entries = append(entries, stored(fmt.Sprintf("j%d", i), nil))
			}
			data := buildRawZip(t, entries)
			eocd := len(data) - eocdLen
			binary.LittleEndian.PutUint16(data[eocd+8:], 4)
			binary.LittleEndian.PutUint16(data[eocd+10:], 4)
			return data
		}, []string{"archive: holds more than the 256 entries allowed"}, strictjson.Limit},
		{"escaping entry", func() []byte { return buildRawZip(t, append(good, stored("../evil.json", []byte("x")))) },
			[]string{`zip entry "../evil.json": escapes the package`}, strictjson.Unsafe},
		{"absolute entry", func() []byte { return buildRawZip(t, append(good, stored("/etc/cron.d/x", []byte("x")))) },
			[]string{`zip entry "/etc/cron.d/x": is absolute`}, strictjson.Unsafe},
		{"backslash entry", func() []byte { return buildRawZip(t, append(good, stored(`..\evil.json`, []byte("x")))) },
			[]string{`zip entry "..\\evil.json": uses a backslash; package paths use /`}, strictjson.Unsafe},
		{"duplicate entry", func() []byte {
			return buildRawZip(t, append(good, stored("ruleset.json", []byte(`{"id":"evil"}`))))
		}, []string{`zip entry "ruleset.json": appears more than once`}, strictjson.Unsafe},
		{"symlink entry", func() []byte {
			e := stored("link", []byte("/etc/passwd"))
			e.hdr.SetMode(fs.ModeSymlink | 0o777)
			return buildRawZip(t, append(good, e))
		}, []string{`zip entry "link": is a link or special file; a package holds only plain files`}, strictjson.Unsafe},
		{"no manifest", func() []byte { return buildRawZip(t, good[1:]) },
			[]string{"manifest.json: not found at the top of the archive or of its one top-level folder"}, strictjson.Malformed},
		{"two packages", func() []byte {
			a, b := good[0], good[0]
			a.hdr.Name, b.hdr.Name = "a/manifest.json", "b/manifest.json"
			return buildRawZip(t, []rawEntry{a, b})
		}, []string{"manifest.json: found in 2 top-level folders; which package is meant is unclear"}, strictjson.Malformed},
		{"not a zip", func() []byte { return []byte("this is plainly not a zip archive, just some text") },
			[]string{"archive: is not a zip archive"}, strictjson.Archive},
		{"truncated zip", func() []byte {
			data := buildRawZip(t, good)
			return data[:len(data)-30]
		}, []string{"archive: is not a zip archive"}, strictjson.Archive},
	}
	for _, c := range cases {
		if c.zip == nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			data := c.zip()
			var err error
			bounded(t, func() { _, err = Read(bytes.NewReader(data), int64(len(data))) })
			wantProblems(t, err, c.want...)
			if !errors.Is(err, c.kind) {
				t.Errorf("not %v", c.kind)
			}
		})
	}

	t.Run("catalog bomb is caught when asked for", func(t *testing.T) {
		e := rawEntry{hdr: zip.FileHeader{Name: "catalogs/spells.json", Method: zip.Deflate, CompressedSize64: uint64(len(bomb(t))), UncompressedSize64: 51}, data: bomb(t)}
		data := buildRawZip(t, []rawEntry{good[0], good[1], e, good[3]})
		b, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		bounded(t, func() { _, err = b.Catalog("spells") })
		wantProblems(t, err, "catalogs/spells.json: inflates past the size its archive entry claims")
	})
	t.Run("archive over the size limit", func(t *testing.T) {
		_, err := Read(bytes.NewReader(nil), MaxArchiveBytes+1)
		wantProblems(t, err, "archive: is 33554433 bytes, over the 33554432-byte archive limit")
	})
	t.Run("directory entries are fine", func(t *testing.T) {
		entries := append([]rawEntry{stored("catalogs/", nil)}, good...)
		data := buildRawZip(t, entries)
		if _, err := Read(bytes.NewReader(data), int64(len(data))); err != nil {
			t.Fatal(err)
		}
	})
}

func BenchmarkOpen5e(b *testing.B) {
	files := refPkg(b)
	data := zipBytes(b, "", files)
	root, err := os.OpenRoot(refDir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	b.Run("folder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bd, err := FromFS(root.FS())
			if err != nil {
				b.Fatal(err)
			}
			bd.Close()
		}
	})
	b.Run("folder+catalogs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bd, err := FromFS(root.FS())
			if err != nil {
				b.Fatal(err)
			}
			for _, id := range bd.CatalogIDs() {
				if _, err := bd.Catalog(id); err != nil {
					b.Fatal(err)
				}
			}
			bd.Close()
		}
	})
	b.Run("zip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Read(bytes.NewReader(data), int64(len(data))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("zip+catalogs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bd, err := Read(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				b.Fatal(err)
			}
			for _, id := range bd.CatalogIDs() {
				if _, err := bd.Catalog(id); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
