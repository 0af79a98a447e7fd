package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sheetkeeper/strictjson"
)

// FuzzParseManifest: any input is refused with a strictjson.Problems or accepted; an
// accepted manifest passes Validate and survives a round trip.
func FuzzParseManifest(f *testing.F) {
	p := smallPkg()
	f.Add(p.manifestBytes(f))
	if data, err := os.ReadFile(filepath.Join(refDir, "manifest.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"schemaVersion":2,"files":[{"path":"../x","sha256":"","bytes":1e400}]}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err != nil {
			var perr strictjson.Problems
			if !errors.As(err, &perr) || len(perr) == 0 || len(perr) > maxProblems+1 {
				t.Fatalf("error %T %v", err, err)
			}
			if m != nil {
				t.Fatal("manifest with error")
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted, then Validate refuses: %v", err)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseManifest(again); err != nil {
			t.Fatalf("round trip refused: %v\n%s", err, again)
		}
	})
}

// FuzzRead: any bytes are refused with a strictjson.Problems or read; catalogs of a read
// package can be asked for without a panic.
func FuzzRead(f *testing.F) {
	p := smallPkg()
	good := zipBytes(f, "", p.all(f))
	f.Add(good)
	f.Add(zipBytes(f, "pkg/", p.all(f)))
	f.Add(good[:len(good)/2])
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			var perr strictjson.Problems
			if !errors.As(err, &perr) || len(perr) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if b.Ruleset() == nil {
			t.Fatal("no ruleset")
		}
		for _, id := range b.CatalogIDs() {
			if _, err := b.Catalog(id); err != nil {
				var perr strictjson.Problems
				if !errors.As(err, &perr) {
					t.Fatalf("catalog error %T %v", err, err)
				}
			}
		}
	})
}

// TestWriteFuzzSeeds regenerates the committed seed corpus under
// testdata/fuzz when SHEETKEEPER_WRITE_FUZZ_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("SHEETKEEPER_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set SHEETKEEPER_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz")
	}
	write := func(target, name string, data []byte) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ref, err := os.ReadFile(filepath.Join(refDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	write("FuzzParseManifest", "reference-5e", ref)
	p := smallPkg()
	write("FuzzParseManifest", "small", p.manifestBytes(t))
	p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 341}
	p.setAssetPaths(append(p.assetPaths(), "../escape.json", `catalogs\x.json`))
	p.file(0)["bytes"] = 5_000_000_000
	write("FuzzParseManifest", "broken", p.manifestBytes(t))
	write("FuzzParseManifest", "deep", []byte(`{"a":[[[[[[[[[[[[[[[[[[[[{}]]]]]]]]]]]]]]]]]]]]}`))

	p = smallPkg()
	write("FuzzRead", "small", zipBytes(t, "", p.all(t)))
	write("FuzzRead", "small-in-folder", zipBytes(t, "pkg/", p.all(t)))
	good := entriesOf(t, p)
	write("FuzzRead", "duplicate", buildRawZip(t, append(good, stored("ruleset.json", []byte("{}")))))
	write("FuzzRead", "escape", buildRawZip(t, append(good, stored("../x", []byte("x")))))
}
