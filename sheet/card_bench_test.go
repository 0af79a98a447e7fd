package sheet

import (
	"fmt"
	"testing"
)

// benchCard is a built character whose JSON is about 2 KB, the shape storage/bolt's
// benchmarks store (storage/bolt/bench_test.go's benchCard) plus a few skills and saves:
// storage's card memo clones one like it on every read and encodes it on every write.
func benchCard() *Card {
	c := NewCard("Mira", "lowvell", 1, 1)
	c.Build.Fields = map[string]any{"gold": 1e6}
	for i := range 40 {
		c.Build.Fields[fmt.Sprintf("field-%02d", i)] = float64(i * 7)
	}
	c.Build.Abilities = map[string]float64{"str": 10, "dex": 14, "con": 12, "int": 8, "wis": 13, "cha": 15}
	c.Build.Skills = map[string]string{"arcana": "proficient", "stealth": "expertise", "history": "proficient"}
	c.Build.Saves = map[string]string{"int": "proficient", "wis": "proficient"}
	c.Live.Pools = map[string]PoolValue{"hp": {Value: 31}, "slots-1": {Value: 2}, "slots-2": {Value: 1}}
	c.Live.Conditions = []string{"blessed"}
	c.Build.Lists = map[string][]Row{"spells": {
		{"name": "Fire Bolt", "level": 0.0}, {"name": "Shield", "level": 1.0}, {"name": "Misty Step", "level": 2.0},
		{"name": "Magic Missile", "level": 1.0}, {"name": "Counterspell", "level": 3.0}}}
	return c
}

// BenchmarkCardClone: the deep copy storage's card memo makes on every read.
func BenchmarkCardClone(b *testing.B) {
	c := benchCard()
	b.ReportAllocs()
	for b.Loop() {
		if d := c.Clone(); d.Name != c.Name {
			b.Fatal("bad clone")
		}
	}
}

// BenchmarkCardAppendJSON: the encoding storage makes on every write, into a reused
// buffer as a store does.
func BenchmarkCardAppendJSON(b *testing.B) {
	c := benchCard()
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = c.AppendJSON(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
