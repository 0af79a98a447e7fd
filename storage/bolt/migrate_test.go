package bolt

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// replyKeyV1 is schema 1's reply key (and schema 2's index key): channelID 0x00 BE(seq).
func replyKeyV1(channelID string, seq int64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(channelID), sep), uint64(seq))
}

// TestMigrateReplyLog: a schema 1 database with replies in three channels (written as
// schema 1 wrote them: one key range per channel, the message index, the seq counters)
// opens as the current schema (through schema 2's reply log and index, then schema 3's
// reply chain) with every reply findable by seq and by message id, each channel's
// replies in order, and the next seq following on — also past a seq handed out but
// never stored, and in a channel that has a counter and no reply; a message index entry
// naming no reply is dropped.
func TestMigrateReplyLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	channels := []string{"chan-b", "chan-a", "chan-c"}
	const perChannel = 300 // several leaf pages each
	msgID := func(c, seq int) string { return fmt.Sprint(1_300_000_000_000_000_000 + seq*10 + c) }
	want := map[string][]*storage.Reply{}
	rawAt(t, path, 1, func(btx *bolt.Tx) error {
		for seq := 1; seq <= perChannel; seq++ {
			for c, ch := range channels {
				r := &storage.Reply{ChannelID: ch, Seq: int64(seq), MessageID: msgID(c, seq), AuthorID: "gm",
					Text: fmt.Sprintf("reply %d in %s", seq, ch), Status: storage.ReplyLive,
					Changes:   []sheet.Change{{Card: "Mira", Path: "build.fields.gold", Before: float64(seq), After: float64(seq - 1)}},
					CreatedAt: storagetest.When, UpdatedAt: storagetest.When}
				if seq%7 == 0 {
					r.Status = storage.ReplyReverted
				}
				want[ch] = append(want[ch], r)
				data, err := json.Marshal(r)
				if err != nil {
					return err
				}
				k := replyKeyV1(ch, int64(seq))
				if err := btx.Bucket(bucketRepliesV1).Put(k, data); err != nil {
					return err
				}
				mk, _ := messageKey(ch, r.MessageID)
				if err := btx.Bucket(bucketMessages).Put(mk, be64(uint64(seq))); err != nil {
					return err
				}
				if err := btx.Bucket(bucketSeqs).Put([]byte(ch), be64(uint64(seq))); err != nil {
					return err
				}
			}
		}
		if err := btx.Bucket(bucketSeqs).Put([]byte("chan-c"), be64(perChannel+2)); err != nil {
			return err
		}
		// A message index entry naming a reply that is not there.
		if mk, _ := messageKey("chan-a", "1999999999999999999"); btx.Bucket(bucketMessages).Put(mk, be64(9999)) != nil {
			t.Fatal("put")
		}
		return btx.Bucket(bucketSeqs).Put([]byte("chan-empty"), be64(4))
	})

	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := func() uint64 { s.Close(); return rawSchema(t, path) }(); v != SchemaVersion {
		t.Fatalf("schema %d after opening, want %d", v, SchemaVersion)
	}
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	same := func(got, want *storage.Reply) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Fatalf("got  %s\nwant %s", g, w)
		}
	}
	s.(*store).viewBolt(func(btx *bolt.Tx) error {
		if btx.Bucket(bucketRepliesV1) != nil {
			t.Error("schema 1 replies bucket still there")
		}
		if btx.Bucket(bucketReplyIdxV2) != nil {
			t.Error("schema 2 reply index still there")
		}
		return nil
	})
	err = s.View(context.Background(), func(tx storage.Tx) error {
		for c, ch := range channels {
			for i, w := range want[ch] {
				r, err := tx.Reply(ch, w.Seq)
				if err != nil {
					return err
				}
				same(r, w)
				r, err = tx.ReplyByMessage(ch, msgID(c, i+1))
				if err != nil {
					return err
				}
				same(r, w)
			}
			all, err := tx.Replies(ch, 0, 0)
			if err != nil {
				return err
			}
			if len(all) != perChannel {
				t.Fatalf("%s: %d replies, want %d", ch, len(all), perChannel)
			}
			for i := range all {
				same(all[i], want[ch][i])
			}
			page, err := tx.Replies(ch, 100, 5)
			if err != nil {
				return err
			}
			if len(page) != 5 || page[0].Seq != 101 || page[4].Seq != 105 {
				t.Fatalf("%s: Replies(after 100, 5) gave %d from %d", ch, len(page), page[0].Seq)
			}
			last, err := tx.LastReply(ch)
			if err != nil {
				return err
			}
			same(last, want[ch][perChannel-1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// New replies follow on after the migrated ones.
	err = s.Update(context.Background(), func(tx storage.Tx) error {
		for ch, want := range map[string]int64{"chan-c": perChannel + 3, "chan-empty": 5} {
			if seq, err := tx.NextReplySeq(ch); err != nil || seq != want {
				t.Errorf("%s: next seq %d (%v), want %d", ch, seq, err, want)
			}
		}
		if _, err := tx.LastReply("chan-empty"); storage.KindOf(err) != storage.NotFound {
			t.Errorf("chan-empty's last reply: %v", err)
		}
		if _, err := tx.ReplyByMessage("chan-a", "1999999999999999999"); storage.KindOf(err) != storage.NotFound {
			t.Errorf("a message index entry naming no reply: %v", err)
		}
		seq, err := tx.NextReplySeq("chan-a")
		if err != nil {
			return err
		}
		if seq != perChannel+1 {
			t.Errorf("next seq %d, want %d", seq, perChannel+1)
		}
		return tx.PutReply(&storage.Reply{ChannelID: "chan-a", Seq: seq, MessageID: "1400000000000000000", Status: storage.ReplyLive})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(context.Background(), func(tx storage.Tx) error {
		last, err := tx.LastReply("chan-a")
		if err != nil {
			return err
		}
		if last.Seq != perChannel+1 {
			t.Errorf("last reply %d, want %d", last.Seq, perChannel+1)
		}
		all, err := tx.Replies("chan-a", perChannel-1, 0)
		if err != nil {
			return err
		}
		if len(all) != 2 || all[0].Seq != perChannel || all[1].Seq != perChannel+1 {
			t.Errorf("replies after %d: %d", perChannel-1, len(all))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
