package ruleset

import (
	"encoding/json"
	"os"
	"testing"
	"testing/fstest"
)

func readExample(b *testing.B) []byte {
	b.Helper()
	data, err := os.ReadFile("../../shared/reference/marinara/ruleset-5e-2014.example.json")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParse5eExample decodes and fully checks the 5e example ruleset.
func BenchmarkParse5eExample(b *testing.B) {
	data := readExample(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, ps := Parse(data); len(ps) > 0 {
			b.Fatal(ps)
		}
	}
}

// BenchmarkUnmarshalAny5eExample is the yardstick: a plain decode into any, no checks.
func BenchmarkUnmarshalAny5eExample(b *testing.B) {
	data := readExample(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// packageFS reads the reference 5e package into memory, so the benchmarks measure
// decoding and checking, not the disk.
func packageFS(b *testing.B) (fstest.MapFS, [][]byte) {
	b.Helper()
	fsys := fstest.MapFS{}
	var all [][]byte
	for _, name := range []string{"manifest.json", "ruleset.json", "catalogs/spells.json", "catalogs/features.json", "catalogs/creatures.json"} {
		data, err := os.ReadFile(corpus + "5e-2014/" + name)
		if err != nil {
			b.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: data}
		all = append(all, data)
	}
	return fsys, all
}

// BenchmarkValidate5ePackage opens, verifies and checks the whole reference 5e package:
// the manifest, ruleset.json and every standalone catalog (1.2 MB).
func BenchmarkValidate5ePackage(b *testing.B) {
	fsys, all := packageFS(b)
	size := 0
	for _, d := range all {
		size += len(d)
	}
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		l, err := LoadFS(fsys)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range l.Catalogs {
			l.Entries(c.ID) // features.json's one known problem is part of the work
		}
	}
}

// BenchmarkUnmarshalAny5ePackage is the yardstick for the package: the same bytes
// decoded into any, with no verification and no checks.
func BenchmarkUnmarshalAny5ePackage(b *testing.B) {
	_, all := packageFS(b)
	size := 0
	for _, d := range all {
		size += len(d)
	}
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, d := range all {
			var v any
			if err := json.Unmarshal(d, &v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
