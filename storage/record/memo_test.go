package record

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// TestKeepIsDecoding: a written record the memo keeps without decoding reads back
// exactly (reflect.DeepEqual) as decoding the written bytes gives, and records that
// would not read back as themselves are decoded instead (no spare copy kept).
func TestKeepIsDecoding(t *testing.T) {
	local := time.FixedZone("here", 3600)
	keep := func(r *storage.CardRecord) (m *CardMemo, raw []byte, want *storage.CardRecord) {
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		want = new(storage.CardRecord)
		if err := json.Unmarshal(raw, want); err != nil {
			t.Fatal(err)
		}
		m = new(CardMemo)
		m.Keep("k", raw, CloneCard(r))
		return m, raw, want
	}
	for i, r := range []*storage.CardRecord{
		benchCard("Mira"),
		{OwnerID: "u", Card: benchCard("Bo").Card, UpdatedAt: time.Now()}, // in UTC here, with a monotonic reading
		{OwnerID: "u", Card: benchCard("Bo").Card, UpdatedAt: time.Now().UTC(), From: "lib"},
		{OwnerID: "u", Card: benchCard("Zed").Card},
	} {
		if _, off := r.UpdatedAt.Zone(); off != 0 {
			continue // a machine whose zone has an offset: decoded (as below)
		}
		m, raw, want := keep(r)
		if m.memo.m["k"].spare == nil {
			t.Fatalf("record %d: decoded, not kept", i)
		}
		if got := m.Lookup("k", raw); !reflect.DeepEqual(got, want) {
			t.Fatalf("record %d: kept\n%#v\ndecoded\n%#v", i, got, want)
		}
	}
	for i, r := range []*storage.CardRecord{
		{OwnerID: "u", Card: benchCard("Bo").Card, UpdatedAt: time.Now().In(local)},
		{OwnerID: "bad\xff", Card: benchCard("Bo").Card},
		{OwnerID: "u", Card: &sheet.Card{Name: "Ash", Build: sheet.Build{Fields: map[string]any{"n": 3}}}},
	} {
		m, raw, want := keep(r)
		if m.memo.m["k"].spare != nil {
			t.Errorf("record %d would not read back as itself, yet is kept", i)
		}
		if got := m.Lookup("k", raw); !reflect.DeepEqual(got, want) {
			t.Errorf("record %d: read back\n%#v\ndecoded\n%#v", i, got, want)
		}
	}
}

// TestKeepHandsOutCopies: a kept card reads back as the decoding of its bytes, each
// reader with a copy of its own — the spare made as it was kept, then fresh ones — and
// a reader's changes reach neither the memo nor the next reader.
func TestKeepHandsOutCopies(t *testing.T) {
	var m CardMemo
	r := benchCard("Mira")
	raw, err := Encode(r, AppendCard)
	if err != nil {
		t.Fatal(err)
	}
	var want storage.CardRecord
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	m.Keep("k", raw, CloneCard(r))
	if m.memo.m["k"].spare == nil {
		t.Fatal("kept without a spare: the card does not round-trip")
	}
	seen := map[*storage.CardRecord]bool{}
	for i := range 3 {
		got := m.Lookup("k", raw)
		if got == nil || seen[got] || !reflect.DeepEqual(got, &want) {
			t.Fatalf("read %d: %p (seen %v)\n%#v\nwant\n%#v", i, got, seen[got], got, &want)
		}
		seen[got] = true
		got.Card.Build.Fields["gold"] = -1.0
		got.Card.Live.Pools["hp"] = sheet.PoolValue{Value: -1}
	}
	if m.Lookup("k", append(raw[:len(raw):len(raw)], ' ')) != nil {
		t.Fatal("a hit for other bytes")
	}
}
