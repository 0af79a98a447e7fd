package etcd_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
	"sheetkeeper/storage/storagetest"
)

// benchCard is a card whose JSON is about 2 KB, like a built character (the bolt
// benchmarks' card).
func benchCard(name string) *storage.CardRecord {
	c := storagetest.Card("u1", name, 1e6)
	for i := range 40 {
		c.Card.Build.Fields[fmt.Sprintf("field-%02d", i)] = float64(i * 7)
	}
	c.Card.Build.Abilities = map[string]float64{"str": 10, "dex": 14, "con": 12, "int": 8, "wis": 13, "cha": 15}
	c.Card.Live.Pools = map[string]sheet.PoolValue{"hp": {Value: 31}, "slots-1": {Value: 2}, "slots-2": {Value: 1}}
	c.Card.Live.Conditions = []string{"blessed"}
	c.Card.Build.Lists = map[string][]sheet.Row{"spells": {
		{"name": "Fire Bolt", "level": 0.0}, {"name": "Shield", "level": 1.0}, {"name": "Misty Step", "level": 2.0},
		{"name": "Magic Missile", "level": 1.0}, {"name": "Counterspell", "level": 3.0}}}
	return c
}

// applyReply is one 3-tag reply's reads and writes, as the bolt benchmark's: check the
// message id was not applied, read the channel's cards, spend from one three times,
// rewrite it, allocate the seq, record the reply with its three changes.
func applyReply(tx storage.Tx, ch, msg string) error {
	if _, err := tx.ReplyByMessage(ch, msg); storage.KindOf(err) != storage.NotFound {
		return fmt.Errorf("message %s: %v", msg, err)
	}
	cards, err := tx.GameCards(ch)
	if err != nil {
		return err
	}
	c := cards[0]
	changes := make([]sheet.Change, 3)
	for i := range changes {
		g := storagetest.Gold(c)
		c.Card.Build.Fields["gold"] = g - 1
		changes[i] = sheet.Change{Card: "Mira", Path: "build.fields.gold", Before: g, After: g - 1}
	}
	if err := tx.PutGameCard(ch, c); err != nil {
		return err
	}
	seq, err := tx.NextReplySeq(ch)
	if err != nil {
		return err
	}
	return tx.PutReply(&storage.Reply{ChannelID: ch, Seq: seq, MessageID: msg, AuthorID: "gm",
		Text:   `The acid hisses. [sheet: who="Mira" op="spend" pool="gold" amount="1"] ×3`,
		Status: storage.ReplyLive, Changes: changes, CreatedAt: storagetest.When, UpdatedAt: storagetest.When})
}

// BenchmarkSustained applies 3-tag replies from 64 channels at once through 1 and 3
// store clients (as 1 and 3 processes would) on the embedded etcd, each channel a
// goroutine sending its next reply as soon as the last one committed, and reports
// replies per second and the 99th-percentile latency of one Update. Goal: ≥ 2,000
// replies/s on a 2-core machine (the server shares the cores with the clients).
func BenchmarkSustained(b *testing.B) {
	const channels = 64
	for _, clients := range []int{1, 3} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			p := newPrefix()
			stores := make([]storage.Store, clients)
			for i := range stores {
				stores[i] = openAt(b, p, etcd.Options{})
			}
			if err := stores[0].Update(context.Background(), func(tx storage.Tx) error {
				for c := range channels {
					if err := tx.PutGameCard(fmt.Sprint("ch", c), benchCard("Mira")); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			lat := make([][]time.Duration, channels)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for c := range channels {
				wg.Go(func() {
					ch, s := fmt.Sprint("ch", c), stores[c%clients]
					for n := next.Add(1); n <= int64(b.N); n = next.Add(1) {
						msg := fmt.Sprint(1_300_000_000_000_000_000 + n)
						t0 := time.Now()
						if err := s.Update(context.Background(), func(tx storage.Tx) error { return applyReply(tx, ch, msg) }); err != nil {
							b.Error(err)
							return
						}
						lat[c] = append(lat[c], time.Since(t0))
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			all := slices.Concat(lat...)
			slices.Sort(all)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "replies/s")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
