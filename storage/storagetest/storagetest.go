// Package storagetest is the suite every storage.Store backend must pass: each Tx
// method, the transactional rules (an error rolls back everything, writes are visible
// later in the same transaction, records are copies), the kind of each error a backend
// returns (storage.KindOf), and concurrent commands that never double-spend
// (concurrent.go).
package storagetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// Run runs the suite; open returns a new, empty store for one subtest (the suite closes
// it).
func Run(t *testing.T, open func(t *testing.T) storage.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s storage.Store)
	}{
		{"Rulesets", testRulesets},
		{"GuildRulesets", testGuildRulesets},
		{"Systems", testSystems},
		{"InvalidSystems", testInvalidSystems},
		{"Shops", testShops},
		{"Campaigns", testCampaigns},
		{"LibraryCards", testLibraryCards},
		{"GameCards", testGameCards},
		{"Replies", testReplies},
		{"ReplyMessageIndex", testReplyMessageIndex},
		{"ReplyRolls", testReplyRolls},
		{"Tombstones", testTombstones},
		{"Hints", testHints},
		{"Schedules", testSchedules},
		{"ErrorRollsBack", testErrorRollsBack},
		{"WritesVisibleInTx", testWritesVisibleInTx},
		{"RecordsAreCopies", testRecordsAreCopies},
		{"ViewIsReadOnly", testViewIsReadOnly},
		{"InvalidRecords", testInvalidRecords},
		{"Closed", testClosed},
		{"Context", testContext},
		{"ConcurrentSpend", testConcurrentSpend},
		{"ConcurrentLastLot", testConcurrentLastLot},
		{"ConcurrentFailuresIsolated", testConcurrentFailuresIsolated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			tc.fn(t, s)
		})
	}
	t.Run("ExportImport", func(t *testing.T) { testExportImport(t, open) })
}

// When is a fixed instant (JSON keeps no monotonic clock or zone pointer).
var When = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// Card returns a record for a card called name with a number field "gold".
func Card(owner, name string, gold float64) *storage.CardRecord {
	c := sheet.NewCard(name, "lowvell", 1, 1)
	c.Build.Fields = map[string]any{"gold": gold}
	return &storage.CardRecord{OwnerID: owner, Card: c, UpdatedAt: When}
}

// Gold reads the card's "gold" field.
func Gold(c *storage.CardRecord) float64 {
	g, _ := c.Card.Build.Fields["gold"].(float64)
	return g
}

func update(t *testing.T, s storage.Store, fn func(storage.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func view(t *testing.T, s storage.Store, fn func(storage.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// sameJSON fails unless got and want encode to the same JSON.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g, w) {
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}

func notFound(t *testing.T, what string, err error) {
	t.Helper()
	wantKind(t, what, err, storage.NotFound)
}

// wantKind fails unless err is of kind k.
func wantKind(t *testing.T, what string, err error, k storage.Kind) {
	t.Helper()
	if got := storage.KindOf(err); got != k {
		t.Fatalf("%s: want a %s error, got %v (kind %s)", what, k, err, got)
	}
}

// putRulesets stores recs in one Update and reads each back as it was put.
func putRulesets(t *testing.T, s storage.Store, recs []*storage.RulesetRecord) {
	t.Helper()
	update(t, s, func(tx storage.Tx) error {
		for _, r := range recs {
			if err := tx.PutRuleset(r); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		for _, want := range recs {
			got, err := tx.Ruleset(want.Guild, want.ID, want.Version)
			if err != nil {
				t.Fatalf("Ruleset(%q, %s, %d): %v", want.Guild, want.ID, want.Version, err)
			}
			sameJSON(t, "ruleset", got, want)
		}
		return nil
	})
}

func testRulesets(t *testing.T, s storage.Store) {
	recs := []*storage.RulesetRecord{
		{ID: "lowvell", Version: 2, Name: "Low Vell", Digest: "d2", File: []byte(`{"v":2}`), InstalledAt: When},
		{ID: "lowvell", Version: 10, Name: "Low Vell", Digest: "d10", File: []byte(`{"v":10}`), InstalledAt: When},
		{ID: "lowvell", Version: 1, Name: "Low Vell", Digest: "d1", File: []byte{0, 1, 2, 255}, InstalledAt: When},
		{ID: "local/dnd", Version: 3, Name: "D&D", Files: map[string][]byte{"manifest.json": []byte("{}"), "catalogs/spells.json": []byte("[]")}, InstalledBy: "u1", InstalledAt: When},
		{ID: "lowvell-x", Version: 1, Name: "prefix neighbour", File: []byte("{}"), InstalledAt: When},
	}
	putRulesets(t, s, recs)
	view(t, s, func(tx storage.Tx) error {
		vs, err := tx.RulesetVersions("", "lowvell")
		must(err)
		if !slices.Equal(vs, []int{1, 2, 10}) {
			t.Fatalf("versions %v, want [1 2 10]", vs)
		}
		vs, err = tx.RulesetVersions("", "nope")
		if err != nil || len(vs) != 0 {
			t.Fatalf("versions of an unknown id: %v, %v; want none", vs, err)
		}
		ids, err := tx.RulesetIDs("")
		must(err)
		if !slices.Equal(ids, []string{"local/dnd", "lowvell", "lowvell-x"}) {
			t.Fatalf("ids %q", ids)
		}
		_, err = tx.Ruleset("", "lowvell", 3)
		notFound(t, "missing version", err)
		_, err = tx.Ruleset("", "nope", 1)
		notFound(t, "missing id", err)
		return nil
	})
	// Putting a version again replaces it.
	update(t, s, func(tx storage.Tx) error {
		return tx.PutRuleset(&storage.RulesetRecord{ID: "lowvell", Version: 2, Name: "renamed", File: []byte("{}"), InstalledAt: When})
	})
	view(t, s, func(tx storage.Tx) error {
		r, err := tx.Ruleset("", "lowvell", 2)
		must(err)
		if r.Name != "renamed" {
			t.Fatalf("replaced version: %q", r.Name)
		}
		return nil
	})
}

func testCampaigns(t *testing.T, s storage.Store) {
	c1 := &storage.Campaign{ChannelID: "c1", GuildID: "g", Ruleset: sheet.RulesetRef{ID: "lowvell", Version: 2},
		System: "dnd5e", Layers: []string{"a"}, GMs: []storage.GM{{Kind: "user", ID: "u1"}, {Kind: "webhook", ID: "w"}},
		CreatedBy: "u1", CreatedAt: When, TimeZone: "Europe/Paris", TradeOffers: 7}
	c2 := &storage.Campaign{ChannelID: "c2", Ruleset: sheet.RulesetRef{ID: "x", Version: 1}, GMs: []storage.GM{}, CreatedBy: "u2", CreatedAt: When}
	update(t, s, func(tx storage.Tx) error {
		_, err := tx.Campaign("c1")
		notFound(t, "before put", err)
		must(tx.PutCampaign(c2))
		return tx.PutCampaign(c1)
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.Campaign("c1")
		must(err)
		sameJSON(t, "campaign", got, c1)
		all, err := tx.Campaigns()
		must(err)
		sameJSON(t, "campaigns", all, []*storage.Campaign{c1, c2})
		return nil
	})
	update(t, s, func(tx storage.Tx) error {
		must(tx.DeleteCampaign("c1"))
		notFound(t, "delete missing campaign", tx.DeleteCampaign("c1"))
		_, err := tx.Campaign("c1")
		notFound(t, "deleted campaign", err)
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		all, err := tx.Campaigns()
		must(err)
		sameJSON(t, "campaigns after delete", all, []*storage.Campaign{c2})
		return nil
	})
}

func testLibraryCards(t *testing.T, s storage.Store) {
	mira := Card("u1", "Mira  Vale", 5)
	bo := Card("u1", "Bo", 1)
	other := Card("u2", "Mira Vale", 9)
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutLibraryCard(mira))
		must(tx.PutLibraryCard(bo))
		return tx.PutLibraryCard(other)
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.LibraryCard("u1", "  mira\tVALE ")
		must(err)
		sameJSON(t, "library card by normalised name", got, mira)
		got, err = tx.LibraryCard("u2", "mira vale")
		must(err)
		sameJSON(t, "other owner's card", got, other)
		_, err = tx.LibraryCard("u3", "mira vale")
		notFound(t, "unknown owner", err)
		all, err := tx.LibraryCards("u1")
		must(err)
		sameJSON(t, "u1's cards in name order", all, []*storage.CardRecord{bo, mira})
		none, err := tx.LibraryCards("u")
		must(err)
		if len(none) != 0 {
			t.Fatalf("owner u sees %d cards of u1/u2", len(none))
		}
		// Library and game cards are apart.
		_, err = tx.GameCard("u1", "Bo")
		notFound(t, "library card as game card", err)
		return nil
	})
	// The same name in another spelling replaces the card.
	renamed := Card("u1", "MIRA VALE", 6)
	update(t, s, func(tx storage.Tx) error { return tx.PutLibraryCard(renamed) })
	update(t, s, func(tx storage.Tx) error {
		all, err := tx.LibraryCards("u1")
		must(err)
		sameJSON(t, "after replacing", all, []*storage.CardRecord{bo, renamed})
		must(tx.DeleteLibraryCard("u1", "mira vale"))
		notFound(t, "delete twice", tx.DeleteLibraryCard("u1", "Mira Vale"))
		_, err = tx.LibraryCard("u1", "Mira Vale")
		notFound(t, "deleted card", err)
		return nil
	})
}

func testGameCards(t *testing.T, s storage.Store) {
	a := Card("u1", "Mira", 5)
	a.From = "Mira"
	b := Card("u2", "Zed", 1)
	nb := Card("u2", "Mira", 7) // same name in a neighbouring channel
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutGameCard("ch", a))
		must(tx.PutGameCard("ch", b))
		return tx.PutGameCard("ch2", nb)
	})
	view(t, s, func(tx storage.Tx) error {
		got, err := tx.GameCard("ch", "MIRA")
		must(err)
		sameJSON(t, "game card", got, a)
		all, err := tx.GameCards("ch")
		must(err)
		sameJSON(t, "channel's cards", all, []*storage.CardRecord{a, b})
		all, err = tx.GameCards("ch2")
		must(err)
		sameJSON(t, "neighbour channel's cards", all, []*storage.CardRecord{nb})
		_, err = tx.LibraryCard("u1", "Mira")
		notFound(t, "game card as library card", err)
		return nil
	})
	update(t, s, func(tx storage.Tx) error {
		must(tx.DeleteGameCard("ch", "mira"))
		notFound(t, "delete twice", tx.DeleteGameCard("ch", "mira"))
		all, err := tx.GameCards("ch")
		must(err)
		sameJSON(t, "after delete", all, []*storage.CardRecord{b})
		return nil
	})
}

func reply(ch string, seq int64, msg string, changes ...sheet.Change) *storage.Reply {
	return &storage.Reply{ChannelID: ch, Seq: seq, MessageID: msg, AuthorID: "gm", Text: "text " + msg,
		Status: storage.ReplyLive, Changes: changes, CreatedAt: When, UpdatedAt: When}
}

func testSchedules(t *testing.T, s storage.Store) {
	a := &storage.Schedule{ID: "a", ChannelID: "ch", Rest: "long", Cron: "0 6 * * *", TimeZone: "UTC", Who: "party",
		CreatedBy: "u1", CreatedAt: When, LastRun: When.Add(time.Hour), MissedReported: When}
	b := &storage.Schedule{ID: "b", ChannelID: "ch", Rest: "short", Cron: "@hourly", CreatedBy: "u1", CreatedAt: When}
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutSchedule(b))
		return tx.PutSchedule(a)
	})
	update(t, s, func(tx storage.Tx) error {
		got, err := tx.Schedule("a")
		must(err)
		sameJSON(t, "schedule", got, a)
		all, err := tx.Schedules()
		must(err)
		sameJSON(t, "schedules", all, []*storage.Schedule{a, b})
		must(tx.DeleteSchedule("a"))
		notFound(t, "delete twice", tx.DeleteSchedule("a"))
		_, err = tx.Schedule("a")
		notFound(t, "deleted schedule", err)
		return nil
	})
}

var errBoom = errors.New("boom")

func testErrorRollsBack(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutGameCard("ch", Card("u1", "Mira", 5)))
		must(tx.PutCampaign(&storage.Campaign{ChannelID: "keep", CreatedAt: When}))
		return nil
	})
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		must(tx.PutGameCard("ch", Card("u1", "Mira", 0)))
		must(tx.PutGameCard("ch", Card("u1", "New", 1)))
		must(tx.PutLibraryCard(Card("u1", "Lib", 1)))
		must(tx.DeleteCampaign("keep"))
		must(tx.PutRuleset(&storage.RulesetRecord{ID: "r", Version: 1, File: []byte("{}")}))
		seq, err := tx.NextReplySeq("ch")
		must(err)
		must(tx.PutReply(reply("ch", seq, "m1")))
		must(tx.PutSchedule(&storage.Schedule{ID: "s"}))
		return fmt.Errorf("refused: %w", errBoom)
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	view(t, s, func(tx storage.Tx) error {
		c, err := tx.GameCard("ch", "Mira")
		must(err)
		if Gold(c) != 5 {
			t.Fatalf("rolled-back card has %v gold", Gold(c))
		}
		_, err = tx.GameCard("ch", "New")
		notFound(t, "rolled-back new card", err)
		_, err = tx.LibraryCard("u1", "Lib")
		notFound(t, "rolled-back library card", err)
		_, err = tx.Campaign("keep")
		must(err)
		_, err = tx.Ruleset("", "r", 1)
		notFound(t, "rolled-back ruleset", err)
		_, err = tx.LastReply("ch")
		notFound(t, "rolled-back reply", err)
		_, err = tx.ReplyByMessage("ch", "m1")
		notFound(t, "rolled-back message index", err)
		_, err = tx.Schedule("s")
		notFound(t, "rolled-back schedule", err)
		return nil
	})
	update(t, s, func(tx storage.Tx) error {
		seq, err := tx.NextReplySeq("ch")
		must(err)
		if seq != 1 {
			t.Fatalf("rolled-back seq: next is %d", seq)
		}
		return nil
	})
	// A panic rolls back too, and reaches the caller.
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("panic in fn did not reach the caller")
			}
		}()
		_ = s.Update(context.Background(), func(tx storage.Tx) error {
			must(tx.PutGameCard("ch", Card("u1", "Mira", 99)))
			panic("fn panics")
		})
	}()
	view(t, s, func(tx storage.Tx) error {
		c, err := tx.GameCard("ch", "Mira")
		must(err)
		if Gold(c) != 5 {
			t.Fatalf("card after a panic: %v gold", Gold(c))
		}
		return nil
	})
}

func testWritesVisibleInTx(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutGameCard("ch", Card("u1", "Mira", 5)))
		c, err := tx.GameCard("ch", "mira")
		must(err)
		if Gold(c) != 5 {
			t.Fatalf("own write: %v", Gold(c))
		}
		c.Card.Build.Fields["gold"] = 4.0
		must(tx.PutGameCard("ch", c))
		c, err = tx.GameCard("ch", "mira")
		must(err)
		if Gold(c) != 4 {
			t.Fatalf("second write: %v", Gold(c))
		}
		must(tx.DeleteGameCard("ch", "mira"))
		_, err = tx.GameCard("ch", "mira")
		notFound(t, "own delete", err)
		all, err := tx.GameCards("ch")
		must(err)
		if len(all) != 0 {
			t.Fatalf("list after own delete: %d", len(all))
		}
		return nil
	})
}

func testRecordsAreCopies(t *testing.T, s storage.Store) {
	rs := &storage.RulesetRecord{ID: "r", Version: 1, File: []byte(`{"a":1}`)}
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutGameCard("ch", Card("u1", "Mira", 5)))
		must(tx.PutRuleset(rs))
		// Changing what was Put changes nothing stored (a card record put is the
		// store's: it is never changed).
		rs.File[0] = 'X'
		got, err := tx.GameCard("ch", "Mira")
		must(err)
		if Gold(got) != 5 {
			t.Fatalf("stored card follows the caller's struct: %v", Gold(got))
		}
		// Changing what was read changes nothing stored.
		got.Card.Build.Fields["gold"] = 50.0
		again, err := tx.GameCard("ch", "Mira")
		must(err)
		if Gold(again) != 5 {
			t.Fatalf("stored card follows a read copy: %v", Gold(again))
		}
		return nil
	})
	var kept *storage.RulesetRecord
	view(t, s, func(tx storage.Tx) error {
		r, err := tx.Ruleset("", "r", 1)
		must(err)
		kept = r
		return nil
	})
	// Records stay intact after their transaction ends, even when the store moves on.
	update(t, s, func(tx storage.Tx) error {
		for i := range 50 {
			must(tx.PutRuleset(&storage.RulesetRecord{ID: "r", Version: i + 2, File: bytes.Repeat([]byte("z"), 4000)}))
		}
		return tx.PutRuleset(&storage.RulesetRecord{ID: "r", Version: 1, File: []byte(`{"b":2}`)})
	})
	if string(kept.File) != `{"a":1}` {
		t.Fatalf("record read earlier changed: %q", kept.File)
	}
}

func testViewIsReadOnly(t *testing.T, s storage.Store) {
	err := s.View(context.Background(), func(tx storage.Tx) error {
		return tx.PutCampaign(&storage.Campaign{ChannelID: "c"})
	})
	wantKind(t, "a write in View", err, storage.ReadOnly)
	view(t, s, func(tx storage.Tx) error {
		_, err := tx.Campaign("c")
		notFound(t, "campaign written in View", err)
		return nil
	})
}

// testInvalidRecords: what a store cannot hold as given is refused with kind Invalid,
// and the refusal writes nothing.
func testInvalidRecords(t *testing.T, s storage.Store) {
	noCard := Card("u1", "Mira", 1)
	noCard.Card = nil
	for what, put := range map[string]func(storage.Tx) error{
		"a reply numbered 0":           func(tx storage.Tx) error { return tx.PutReply(reply("ch", 0, "1")) },
		"a reply of no known status":   func(tx storage.Tx) error { r := reply("ch", 1, "1"); r.Status = "lost"; return tx.PutReply(r) },
		"a campaign of no channel":     func(tx storage.Tx) error { return tx.PutCampaign(&storage.Campaign{}) },
		"a card of no owner":           func(tx storage.Tx) error { return tx.PutLibraryCard(Card("", "Mira", 1)) },
		"a card with no name":          func(tx storage.Tx) error { return tx.PutGameCard("ch", Card("u1", "", 1)) },
		"a card record without card":   func(tx storage.Tx) error { return tx.PutGameCard("ch", noCard) },
		"a channel id with a NUL byte": func(tx storage.Tx) error { return tx.PutGameCard("c\x00h", Card("u1", "Mira", 1)) },
		"a card that does not encode":  func(tx storage.Tx) error { return tx.PutGameCard("ch", Card("u1", "Mira", math.NaN())) },
		"a reply that does not encode": func(tx storage.Tx) error {
			return tx.PutReply(reply("ch", 1, "1", sheet.Change{Card: "Mira", Path: "build.fields.gold", After: math.Inf(1)}))
		},
	} {
		wantKind(t, what, s.Update(context.Background(), put), storage.Invalid)
	}
	view(t, s, func(tx storage.Tx) error {
		_, err := tx.LastReply("ch")
		notFound(t, "a reply after the invalid ones", err)
		cards, err := tx.GameCards("ch")
		must(err)
		if len(cards) != 0 {
			t.Fatalf("invalid records left %d cards", len(cards))
		}
		return nil
	})
}

// testClosed: a store used after Close says so by kind.
func testClosed(t *testing.T, s storage.Store) {
	must(s.Close())
	wantKind(t, "Update after Close", s.Update(context.Background(), func(storage.Tx) error { return nil }), storage.Closed)
	wantKind(t, "View after Close", s.View(context.Background(), func(storage.Tx) error { return nil }), storage.Closed)
}

func testContext(t *testing.T, s storage.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := s.Update(ctx, func(storage.Tx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("Update with a cancelled context: %v, ran %v", err, ran)
	}
	if err := s.View(ctx, func(storage.Tx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("View with a cancelled context: %v, ran %v", err, ran)
	}
}
