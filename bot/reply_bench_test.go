package bot

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// replyBenchText is a 3-tag GM message on a 5e card: damage, a cast, a restore.
const replyBenchText = `The ghoul rakes Mira. [sheet: who="Mira" op="damage" pool="hp" amount="7"] She answers with force. [sheet: who="Mira" op="cast" spell="Magic Missile"] [sheet: who="Mira" op="restore" pool="1st-level slots" amount="1"]`

func replyBenchTable(b *testing.B) *msgTable {
	m := newMsgTable(b, "dnd5e-srd")
	m.card(ana.ID, "Mira", map[string]any{"caster_level": 5.0, "spellcasting_ability": "int", "hp_max": 1e6}, "spells/magic-missile")
	return m
}

func replyOnce(b *testing.B, m *msgTable, id string) {
	if acts := m.core.OnMessage(context.Background(), Message{ChannelID: m.ch, ID: id, Author: gmUser, Content: replyBenchText}); len(acts) != 1 {
		b.Fatalf("%+v", acts)
	}
}

// BenchmarkReply is a 3-tag reply end to end through the core: the GM check, parsing,
// the engine, the store's fsynced commit and the post.
func BenchmarkReply(b *testing.B) {
	m := replyBenchTable(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		replyOnce(b, m, "b"+strconv.Itoa(i))
	}
}

// BenchmarkReplyVsBare sets BenchmarkReply's reply next to its floor: a bare bbolt Update
// (its own file, the store's bbolt options) writing the same bytes — the card and the
// reply record as the store holds them after a reply, and the three small records a
// reply adds to its indexes (seqs 16 bytes, chain 16, message 8). The two alternate, one
// each per iteration, so the disk's drift from minute to minute weighs on both alike.
// It reports each one's mean and reply/bare (goal, issue 19: ≤ 1.2).
func BenchmarkReplyVsBare(b *testing.B) {
	m := replyBenchTable(b)
	replyVsBare(b, m, func(id string) { replyOnce(b, m, id) })
}

// replyVsBare times once (a reply by message id) against a bare bbolt Update writing
// what the reply wrote, as BenchmarkReplyVsBare says.
func replyVsBare(b *testing.B, m *msgTable, once func(id string)) {
	once("warm-up")
	var card, reply []byte
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		c, err := tx.GameCard(m.ch, "Mira")
		if err != nil {
			return err
		}
		r, err := tx.LastReply(m.ch)
		if err != nil {
			return err
		}
		if card, err = json.Marshal(c); err != nil {
			return err
		}
		reply, err = json.Marshal(r)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	db, err := bbolt.Open(filepath.Join(b.TempDir(), "bare.db"), 0o600, &bbolt.Options{NoFreelistSync: true, FreelistType: bbolt.FreelistMapType})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	buckets := [][]byte{[]byte("cards"), []byte("replies"), []byte("seqs"), []byte("chain"), []byte("messages")}
	err = db.Update(func(btx *bbolt.Tx) error {
		for _, name := range buckets {
			if _, err := btx.CreateBucket(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	be := func(vs ...uint64) []byte {
		var out []byte
		for _, v := range vs {
			out = binary.BigEndian.AppendUint64(out, v)
		}
		return out
	}
	var inCore, bare time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		once("b" + strconv.Itoa(i))
		t1 := time.Now()
		id := uint64(i + 1)
		err := db.Update(func(btx *bbolt.Tx) error {
			for j, kv := range [][2][]byte{
				{[]byte("Mira"), card},
				{be(id), reply},
				{[]byte(m.ch), be(id, id)},
				{be(id), be(id, id-1)},
				{[]byte("13000000000" + strconv.Itoa(i) + "\x00" + m.ch), be(id)},
			} {
				if err := btx.Bucket(buckets[j]).Put(kv[0], kv[1]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		bare += time.Since(t1)
		inCore += t1.Sub(t0)
	}
	b.ReportMetric(float64(inCore.Microseconds())/float64(b.N), "reply-µs")
	b.ReportMetric(float64(bare.Microseconds())/float64(b.N), "bare-µs")
	b.ReportMetric(float64(inCore)/float64(bare), "reply/bare")
}
