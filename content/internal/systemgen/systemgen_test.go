package main

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The data and the committed system, relative to this directory.
const (
	srcDir  = "../../../../shared/data/srd-5.1"
	outFile = "../../systems/dnd5e-srd.json"
)

func generated(t *testing.T) []byte {
	t.Helper()
	if _, err := os.Stat(srcDir); err != nil {
		t.Fatalf("the SRD data is missing (../shared beside the repo): %v", err)
	}
	data, err := generate(srcDir)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The committed system is exactly what the generator makes, so stale output fails.
func TestCommittedSystemIsCurrent(t *testing.T) {
	got, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatalf("%v (run go generate ./content)", err)
	}
	if !bytes.Equal(got, generated(t)) {
		t.Error("systems/dnd5e-srd.json differs from the generator's output (run go generate ./content)")
	}
}

// The same data gives the same bytes.
func TestDeterministic(t *testing.T) {
	if !bytes.Equal(generated(t), generated(t)) {
		t.Error("two runs differ")
	}
}

// window is the length of a run of SRD prose the generated text must not contain.
const window = 40

// No string in the system — descriptions, glossary, hints — copies a 40-character run
// of the SRD's description prose for equipment, magic items or weapon properties.
func TestOwnWords(t *testing.T) {
	runs := map[uint64]bool{}
	for _, file := range []string{"5e-SRD-Equipment.json", "5e-SRD-Magic-Items.json", "5e-SRD-Weapon-Properties.json"} {
		raw, err := os.ReadFile(filepath.Join(srcDir, file))
		if err != nil {
			t.Fatal(err)
		}
		var items []struct {
			Desc []string `json:"desc"`
		}
		if err := json.Unmarshal(raw, &items); err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			for _, d := range it.Desc {
				d = strings.ToLower(d)
				for i := 0; i+window <= len(d); i++ {
					runs[hash(d[i:i+window])] = true
				}
			}
		}
	}
	var doc any
	if err := json.Unmarshal(generated(t), &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case string:
			s := strings.ToLower(x)
			for i := 0; i+window <= len(s); i++ {
				if runs[hash(s[i:i+window])] {
					t.Errorf("%s copies %q from the SRD prose", path, s[i:i+window])
					return
				}
			}
		case []any:
			for _, e := range x {
				walk(path+"[]", e)
			}
		case map[string]any:
			for k, e := range x {
				walk(path+"."+k, e)
			}
		}
	}
	walk("", doc)
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
