package storagetest

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"sheetkeeper/storage"
)

// Fill writes records of every kind to s through its Tx: rulesets in the shared and a
// guild's namespace, a guild's system, a campaign, library and game cards, replies out
// of order with a message id each and an allocated seq past them, a tombstone, a hint
// mark, a schedule, a shop and a trade offer.
func Fill(t testing.TB, s storage.Store) {
	t.Helper()
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		for _, r := range []*storage.RulesetRecord{
			{ID: "low-vell", Version: 1, Name: "Low Vell", Digest: "a", File: []byte(`{}`), InstalledAt: When},
			{Guild: "g1", ID: "local/ember", Version: 2, Name: "Ember", Digest: "b", Files: map[string][]byte{"manifest.json": []byte(`{}`)}, InstalledAt: When},
		} {
			if err := tx.PutRuleset(r); err != nil {
				return err
			}
		}
		if err := tx.PutSystem(&storage.SystemRecord{Guild: "g1", ID: "saltmarch", Version: 1, Name: "Saltmarch", Digest: "c", File: []byte(`{}`), InstalledAt: When}); err != nil {
			return err
		}
		if err := tx.PutCampaign(&storage.Campaign{ChannelID: "ch1", GuildID: "g1", GMs: []storage.GM{{Kind: "user", ID: "u1"}}, CreatedAt: When}); err != nil {
			return err
		}
		if err := tx.PutLibraryCard(Card("u1", "Mira", 3)); err != nil {
			return err
		}
		if err := tx.PutGameCard("ch1", Card("u1", "Mira", 7)); err != nil {
			return err
		}
		for _, seq := range []int64{2, 1, 3} {
			if err := tx.PutReply(&storage.Reply{ChannelID: "ch1", Seq: seq, MessageID: "m" + string(rune('0'+seq)),
				AuthorID: "u1", Text: "[sheet: op=\"damage\"]", Status: storage.ReplyLive, Posted: storage.PostIDs{"p1", "p2"},
				CreatedAt: When, UpdatedAt: When}); err != nil {
				return err
			}
		}
		if _, err := tx.NextReplySeq("ch1"); err != nil { // 4, with no reply
			return err
		}
		if err := tx.PutTombstone(&storage.Tombstone{ChannelID: "ch1", MessageID: "m9", At: When}); err != nil {
			return err
		}
		if _, err := tx.MarkHinted("ch2"); err != nil {
			return err
		}
		stock := int64(3)
		if err := tx.PutShop(&storage.ShopRecord{ChannelID: "ch1", Name: "Eel", Open: true, SellRate: 50,
			Listings: []storage.ShopListing{{Item: "Rope", Stock: &stock}}, UpdatedAt: When}); err != nil {
			return err
		}
		if err := tx.PutTrade(&storage.TradeRecord{ChannelID: "ch1", ID: "t1", From: "Mira", To: "Tam",
			Give: []storage.TradeItem{{Item: "Rope", Qty: 1}}, Expires: When, CreatedAt: When}); err != nil {
			return err
		}
		return tx.PutSchedule(&storage.Schedule{ID: "s1", ChannelID: "ch1", Rest: "long", Cron: "0 0 * * *", CreatedAt: When})
	})
	if err != nil {
		t.Fatalf("fill: %v", err)
	}
}

// Export returns every record of s, sorted by kind and key.
func Export(t testing.TB, s storage.Store) []storage.Record {
	t.Helper()
	p, ok := s.(storage.Porter)
	if !ok {
		t.Fatalf("%T is not a storage.Porter", s)
	}
	var recs []storage.Record
	if err := p.Export(context.Background(), func(r storage.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatalf("Export: %v", err)
	}
	slices.SortFunc(recs, func(a, b storage.Record) int {
		return strings.Compare(string(a.Kind)+"\x00"+a.Key, string(b.Kind)+"\x00"+b.Key)
	})
	return recs
}

// testExportImport exports a filled store, imports it into an empty one, and finds the
// same records there, read back through Tx too (the rebuilt indexes answer).
func testExportImport(t *testing.T, open func(t *testing.T) storage.Store) {
	src, dst := open(t), open(t)
	defer src.Close()
	defer dst.Close()
	Fill(t, src)
	recs := Export(t, src)
	kinds := map[storage.RecordKind]int{}
	for _, r := range recs {
		kinds[r.Kind]++
	}
	for _, k := range storage.RecordKinds {
		if kinds[k] == 0 {
			t.Errorf("export has no %s record", k)
		}
	}
	if err := dst.(storage.Porter).Import(context.Background(), recs); err != nil {
		t.Fatalf("Import: %v", err)
	}
	got := Export(t, dst)
	if len(got) != len(recs) {
		t.Fatalf("imported store exports %d records, want %d", len(got), len(recs))
	}
	for i := range got {
		if got[i].Kind != recs[i].Kind || got[i].Key != recs[i].Key || !bytes.Equal(got[i].Value, recs[i].Value) {
			t.Errorf("record %d: %s %q %q, want %s %q %q", i, got[i].Kind, got[i].Key, got[i].Value, recs[i].Kind, recs[i].Key, recs[i].Value)
		}
	}
	update(t, dst, func(tx storage.Tx) error {
		if r, err := tx.ReplyByMessage("ch1", "m2"); err != nil || r.Seq != 2 {
			t.Errorf("ReplyByMessage m2: %v, %v", r, err)
		}
		if r, err := tx.LastReply("ch1"); err != nil || r.Seq != 3 {
			t.Errorf("LastReply: %v, %v", r, err)
		}
		if rs, err := tx.Replies("ch1", 0, 0); err != nil || len(rs) != 3 {
			t.Errorf("Replies: %d, %v", len(rs), err)
		}
		if seq, err := tx.NextReplySeq("ch1"); err != nil || seq != 5 {
			t.Errorf("NextReplySeq: %d, %v (want 5)", seq, err)
		}
		if _, err := tx.Tombstone("ch1", "m9"); err != nil {
			t.Errorf("Tombstone: %v", err)
		}
		if first, err := tx.MarkHinted("ch2"); err != nil || first {
			t.Errorf("MarkHinted ch2: first %v, %v", first, err)
		}
		return nil
	})
	// The replies alone, without their channel's counter, then (in a later call, as
	// migrate's chunks come) a counter behind them: the next seq still passes every
	// imported reply, so no command is handed a seq a reply holds.
	lone := open(t)
	defer lone.Close()
	var replies, seqs []storage.Record
	for _, r := range recs {
		switch {
		case r.Kind == storage.ReplyRecords && strings.HasPrefix(r.Key, "ch1\x00"):
			replies = append(replies, r)
		case r.Kind == storage.SeqRecords && r.Key == "ch1":
			seqs = append(seqs, storage.Record{Kind: r.Kind, Key: r.Key, Value: []byte{0, 0, 0, 0, 0, 0, 0, 1}})
		}
	}
	for _, chunk := range [][]storage.Record{replies, seqs} {
		if err := lone.(storage.Porter).Import(context.Background(), chunk); err != nil {
			t.Fatalf("Import of %d %s records: %v", len(chunk), chunk[0].Kind, err)
		}
	}
	update(t, lone, func(tx storage.Tx) error {
		if seq, err := tx.NextReplySeq("ch1"); err != nil || seq != 4 {
			t.Errorf("NextReplySeq after importing replies 1–3 and a counter of 1: %d, %v (want 4)", seq, err)
		}
		return nil
	})
	bad := []storage.Record{{Kind: storage.CampaignRecords, Key: "ch9", Value: []byte(`{"channelId":"ch9"}`)},
		{Kind: "nonsense", Key: "x", Value: []byte(`{}`)}}
	if err := dst.(storage.Porter).Import(context.Background(), bad); storage.KindOf(err) != storage.Invalid {
		t.Errorf("import of an unknown kind: %v, want kind Invalid", err)
	}
	if err := dst.View(context.Background(), func(tx storage.Tx) error { _, err := tx.Campaign("ch9"); return err }); storage.KindOf(err) != storage.NotFound {
		t.Errorf("a refused import wrote: %v", err)
	}
}
