package record

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// TestRoundTripIsDecoding: the copy of a written record the memo keeps without decoding
// is exactly (reflect.DeepEqual) what decoding the written bytes gives, and records that
// would not read back as themselves are decoded instead.
func TestRoundTripIsDecoding(t *testing.T) {
	local := time.FixedZone("here", 3600)
	for i, r := range []*storage.CardRecord{
		benchCard("Mira"),
		{OwnerID: "u", Card: benchCard("Bo").Card, UpdatedAt: time.Now()},
		{OwnerID: "u", Card: benchCard("Bo").Card, UpdatedAt: time.Now().UTC(), From: "lib"},
		{OwnerID: "u", Card: benchCard("Zed").Card},
	} {
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, off := r.UpdatedAt.Zone(); off != 0 {
			continue // time.Now in a zone with an offset: decoded (checked below)
		}
		got := RoundTrip(r)
		if got == nil {
			t.Fatalf("record %d: no round trip", i)
		}
		var want storage.CardRecord
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("record %d: kept\n%#v\ndecoded\n%#v", i, got, &want)
		}
	}
	for i, r := range []*storage.CardRecord{
		{OwnerID: "u", Card: benchCard("Bo").Card, UpdatedAt: time.Now().In(local)},
		{OwnerID: "bad\xff", Card: benchCard("Bo").Card},
		{OwnerID: "u", Card: &sheet.Card{Name: "Ash", Build: sheet.Build{Fields: map[string]any{"n": 3}}}},
	} {
		if RoundTrip(r) != nil {
			t.Errorf("record %d would not read back as itself, yet is kept", i)
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
