package ruleset

import (
	"encoding/json"
	"os"
	"testing"
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
