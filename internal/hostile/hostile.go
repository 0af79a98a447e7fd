// Package hostile builds the hostile uploads every ruleset loader must refuse cheaply
// (issue 12): each case is made by code, never committed as a file, so the table shows
// what it holds. It is test support, shared by the core's table and benchmark and the
// Discord end-to-end test, as internal/fakediscord is.
package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
)

// Case is one hostile upload: a file's bytes (Data, named Name) or a folder's files
// (Folder), and the problem kind a loader must refuse it with (a strictjson.Kind's
// name: "limit", "unsafe", "malformed", "integrity", "archive").
type Case struct {
	Name   string
	Data   []byte
	Folder fstest.MapFS
	Want   string
}

// Cases builds every case from the corpus folder (the ember-roads ruleset the packages
// are made of).
func Cases(corpus string) ([]Case, error) {
	ember, err := os.ReadFile(filepath.Join(corpus, "ember-roads.json"))
	if err != nil {
		return nil, err
	}
	rs, catID, err := asPackageRuleset(ember)
	if err != nil {
		return nil, err
	}
	emptyObjects := catalogFile(catID, strings.Repeat("{},", 699_000-1)+"{}")
	pkg699k := packageFiles(rs, catID, emptyObjects)
	var out []Case
	add := func(name, want string, data []byte, folder fstest.MapFS) {
		out = append(out, Case{Name: name, Data: data, Folder: folder, Want: want})
	}
	add("knacks.json of 699,000 {} zipped", "limit", zipOf(pkg699k), nil)
	add("knacks.json of 699,000 {} as a folder", "limit", nil, mapFS(pkg699k))
	add("12 catalog files of 699,000 {} each, zipped", "limit", zipOf(twelveCatalogs(ember, emptyObjects, catID)), nil)
	nested := strings.Repeat(`{"rows":[`+strings.Repeat("{},", 1999)+`{}]},`, 348) + `{}`
	add("knacks.json of 348 entries of 2,000 {} rows", "limit", zipOf(packageFiles(rs, catID, catalogFile(catID, nested))), nil)
	add("2,001 invalid entries inline", "limit", singleFile(ember, strings.Repeat(`{"x":1},`, 2000)+`{"x":1}`), nil)
	add("512 KB of 253,000 bad entries", "limit", singleFile(ember, strings.Repeat("0,", 253_000)+"0"), nil)
	add("512 KB of bad entries within the entry limit", "malformed", manyBadEntries(ember), nil)
	add("100,000-deep nesting", "malformed", []byte(`{"id":`+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)+"}"), nil)
	add("invalid UTF-8", "malformed", bytes.Replace(ember, []byte(`"Ember Roads`), []byte("\"Ember \xff\xfeRoads"), 1), nil)
	add("zip bomb: a 64 MB manifest", "limit", zipBomb(), nil)
	add("zip with forged sizes", "unsafe", forgedSizes(rs), nil)
	add("zip of 100,000 entries", "limit", manyEntries(100_000), nil)
	return out, nil
}

// asPackageRuleset turns ember-roads' first catalog into a standalone file's reference
// and returns the ruleset document and that catalog's id.
func asPackageRuleset(ember []byte) ([]byte, string, error) {
	var doc map[string]any
	if err := json.Unmarshal(ember, &doc); err != nil {
		return nil, "", err
	}
	cat := doc["catalogs"].([]any)[0].(map[string]any)
	id := cat["id"].(string)
	delete(cat, "entries")
	cat["asset"] = "catalogs/" + id + ".json"
	rs, err := json.Marshal(doc)
	return rs, id, err
}

func catalogFile(id, entries string) []byte {
	return []byte(`{"schemaVersion":1,"catalog":"` + id + `","entries":[` + entries + `]}`)
}

// singleFile is ember-roads with its first catalog's entries replaced.
func singleFile(ember []byte, entries string) []byte {
	var doc map[string]any
	json.Unmarshal(ember, &doc)
	doc["catalogs"].([]any)[0].(map[string]any)["entries"] = json.RawMessage("[" + entries + "]")
	out, _ := json.Marshal(doc)
	return out
}

// manyBadEntries is a single file near 512 KB whose catalogs stay within 2,000 entries
// each, every entry with several mistakes: hundreds of thousands of problems.
func manyBadEntries(ember []byte) []byte {
	var doc map[string]any
	json.Unmarshal(ember, &doc)
	cats := doc["catalogs"].([]any)
	tmpl := cats[0].(map[string]any)
	cats = cats[:0]
	for i := range 12 {
		c := map[string]any{}
		for k, v := range tmpl {
			c[k] = v
		}
		c["id"] = fmt.Sprintf("bad%d", i)
		c["entries"] = json.RawMessage("[" + strings.Repeat(`{"a":0,"b":0,"c":0},`, 1999) + `{"a":0,"b":0,"c":0}]`)
		cats = append(cats, c)
	}
	doc["catalogs"] = cats
	out, _ := json.Marshal(doc)
	return out
}

// twelveCatalogs is a package of ember-roads with twelve catalogs, the most a ruleset
// may have, each a standalone file of 699,000 {} (2 MB, the most a file may hold): 25 MB
// inflated from some 30 KB.
func twelveCatalogs(ember, entries []byte, firstID string) map[string][]byte {
	var doc map[string]any
	json.Unmarshal(ember, &doc)
	tmpl := doc["catalogs"].([]any)[0].(map[string]any)
	delete(tmpl, "entries")
	files := map[string][]byte{}
	var cats []any
	order := []string{"ruleset.json"}
	for i := range 12 {
		id := fmt.Sprintf("more%d", i)
		if i == 0 {
			id = firstID // the layer of ember-roads names it
		}
		c := map[string]any{}
		for k, v := range tmpl {
			c[k] = v
		}
		c["id"], c["asset"] = id, "catalogs/"+id+".json"
		cats = append(cats, c)
		p := "catalogs/" + id + ".json"
		files[p] = bytes.Replace(entries, []byte(`"catalog":"`+firstID+`"`), []byte(`"catalog":"`+id+`"`), 1)
		order = append(order, p)
	}
	doc["catalogs"] = cats
	files["ruleset.json"], _ = json.Marshal(doc)
	files["manifest.json"] = manifest(order, files)
	return files
}

// packageFiles is a package of ruleset.json and one catalog file, with its manifest.
func packageFiles(rs []byte, catID string, cat []byte) map[string][]byte {
	files := map[string][]byte{"ruleset.json": rs, "catalogs/" + catID + ".json": cat}
	files["manifest.json"] = manifest([]string{"ruleset.json", "catalogs/" + catID + ".json"}, files)
	return files
}

func manifest(order []string, files map[string][]byte) []byte {
	var list, paths []any
	for _, p := range order {
		s := sha256.Sum256(files[p])
		list = append(list, map[string]any{"path": p, "sha256": hex.EncodeToString(s[:]), "bytes": len(files[p])})
		paths = append(paths, p)
	}
	m, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"capabilityApi": map[string]any{"major": 1, "minor": 340},
		"builtAgainst":  map[string]any{"engineVersion": "2.4.6", "engineCommit": "e931f956c59a4569c08fcd0260d792cd78d4a97c"},
		"id":            "ruleset-hostile", "name": "Hostile", "version": "1.0.0",
		"engine":          map[string]any{"min": "2.4.6", "maxExclusive": "4.0.0"},
		"kind":            []any{"ruleset"},
		"entrypoints":     map[string]any{},
		"contributions":   map[string]any{"assets": map[string]any{"paths": paths}},
		"files":           list,
		"permissions":     []any{},
		"restartRequired": false,
	})
	return m
}

func mapFS(files map[string][]byte) fstest.MapFS {
	out := fstest.MapFS{}
	for p, data := range files {
		out[p] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return out
}

// zipOf deflates files into a .zip, manifest.json first.
func zipOf(files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	write := func(name string) {
		w, _ := zw.Create(name)
		w.Write(files[name])
	}
	write("manifest.json")
	for name := range files {
		if name != "manifest.json" {
			write(name)
		}
	}
	zw.Close()
	return buf.Bytes()
}

// zeros64MB is 64 MB of zeros deflated (about 64 KB), with its CRC-32.
func zeros64MB() ([]byte, uint32, uint64) {
	const n = 64 << 20
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	block := make([]byte, 1<<20)
	crc := crc32.NewIEEE()
	for range n / len(block) {
		fw.Write(block)
		crc.Write(block)
	}
	fw.Close()
	return buf.Bytes(), crc.Sum32(), n
}

// zipBomb is an archive whose manifest.json inflates to 64 MB, its header honest.
func zipBomb() []byte {
	data, crc, n := zeros64MB()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "manifest.json", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: n})
	w.Write(data)
	zw.Close()
	return buf.Bytes()
}

// forgedSizes is a valid package whose ruleset.json entry claims the size the manifest
// declares but inflates to 64 MB.
func forgedSizes(rs []byte) []byte {
	files := map[string][]byte{"ruleset.json": rs}
	m := manifest([]string{"ruleset.json"}, files)
	data, crc, _ := zeros64MB()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("manifest.json")
	w.Write(m)
	w, _ = zw.CreateRaw(&zip.FileHeader{Name: "ruleset.json", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(rs))})
	w.Write(data)
	zw.Close()
	return buf.Bytes()
}

// manyEntries is an archive of n empty stored entries, written by hand: archive/zip
// would switch to zip64 past 65,535, and a hostile archive need not.
func manyEntries(n int) []byte {
	var local, dir bytes.Buffer
	le := binary.LittleEndian
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		off := local.Len()
		local.Write(le.AppendUint32(nil, 0x04034b50))
		local.Write(make([]byte, 22)) // version, flags, method, time, date, crc, sizes
		local.Write(le.AppendUint16(nil, uint16(len(name))))
		local.Write([]byte{0, 0})
		local.WriteString(name)
		dir.Write(le.AppendUint32(nil, 0x02014b50))
		dir.Write(make([]byte, 24)) // versions, flags, method, time, date, crc, sizes
		dir.Write(le.AppendUint16(nil, uint16(len(name))))
		dir.Write(make([]byte, 12)) // extra, comment, disk, attributes
		dir.Write(le.AppendUint32(nil, uint32(off)))
		dir.WriteString(name)
	}
	out := append(local.Bytes(), dir.Bytes()...)
	eocd := le.AppendUint32(nil, 0x06054b50)
	eocd = append(eocd, 0, 0, 0, 0)
	eocd = le.AppendUint16(eocd, uint16(n)) // the count wraps, as a forged one may
	eocd = le.AppendUint16(eocd, uint16(n))
	eocd = le.AppendUint32(eocd, uint32(dir.Len()))
	eocd = le.AppendUint32(eocd, uint32(local.Len()))
	eocd = append(eocd, 0, 0)
	return append(out, eocd...)
}
