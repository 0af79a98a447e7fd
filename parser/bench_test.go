package parser

import (
	"strings"
	"testing"
)

// narration is a 4 KB GM reply: prose with ten tags of the usual kinds.
func narration(withTags bool) string {
	tags := []string{
		`[sheet: who="Mira" op="damage" pool="hp" amount="7"]`,
		`[sheet: who="Mira" op="cast" spell="Fireball" pool="3rd-level slots"]`,
		`[sheet: who="Bram" op="spend" pool="Ki points" amount="2"]`,
		`[sheet: who="Bram" op="condition" condition="poisoned" state="on"]`,
		`[inventory: action="remove" item="Potion of Healing" count="1" who="Bram"]`,
		`[sheet: who="Ash" op="track" track="death_saves" by="1"]`,
		`[sheet: who="Ash" op="note" field="notes" value="Owes the ferryman a favour"]`,
		`[inventory: action="add" item="Rope, Lantern" who="Mira"]`,
		`[sheet: who="party" op="rest" rest="short"]`,
		`[sheet: who="Mira" op="advance" field="xp" by="300"]`,
	}
	prose := "The acid hisses against the flagstones and the smell of scorched stone fills the vault. " +
		"Mira steadies her breath, counts the heartbeats between the drips, and lets the ember in her palm grow. " +
		"Somewhere beyond the arch a chain rattles, slow and patient, as if whatever holds it has all the time in the world. "
	var b strings.Builder
	for i := 0; b.Len() < 4096-len(prose); i++ {
		b.WriteString(prose)
		if withTags && i < len(tags) {
			b.WriteString(tags[i])
			b.WriteByte(' ')
		}
	}
	for b.Len() < 4096 {
		b.WriteByte(' ')
	}
	return b.String()
}

func BenchmarkReadNarration10Tags(b *testing.B) {
	text := narration(true)
	if n := len(Read(text).Tags); n != 11 { // the two-item inventory tag is two requests
		b.Fatalf("setup: %d tags in %d bytes", n, len(text))
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Read(text)
	}
}

func BenchmarkReadNoTag(b *testing.B) {
	text := narration(false)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if len(Read(text).Tags) != 0 {
			b.Fatal("found a tag")
		}
	}
}

// BenchmarkContainsNoTag is the yardstick for BenchmarkReadNoTag: the cheapest test for a
// tag there is. Read on a text with no tag should cost no more than 1.2 times this.
func BenchmarkContainsNoTag(b *testing.B) {
	text := narration(false)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if strings.Contains(text, "[sheet:") {
			b.Fatal("found a tag")
		}
	}
}

// BenchmarkReadUnclosedHeads is a 4 KB reply made of unclosed heads with a ']' just out
// of reach of the first: it must cost about what any 4 KB does, not a rescan per head.
func BenchmarkReadUnclosedHeads(b *testing.B) {
	text := strings.Repeat("[sheet: ", 512) + strings.Repeat("x", MaxBody) + "]"
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Read(text)
	}
}

func BenchmarkWriteBack(b *testing.B) {
	tag := Read(`[sheet: who="Mira" op="cast" spell="Fireball" pool="3rd-level slots"]`).Tags[0]
	b.ReportAllocs()
	for b.Loop() {
		tag.WriteBack(Outcome{Result: ResultOK, Now: "3rd-level slots 1/3"})
	}
}
