package bolt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

func openTemp(t *testing.T) storage.Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuite(t *testing.T) {
	storagetest.Run(t, openTemp)
}

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "sheetkeeper.db") // folders created
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(context.Background(), func(tx storage.Tx) error {
		if err := tx.PutGameCard("ch", storagetest.Card("u1", "Mira", 7)); err != nil {
			return err
		}
		seq, err := tx.NextReplySeq("ch")
		if err != nil {
			return err
		}
		return tx.PutReply(&storage.Reply{ChannelID: "ch", Seq: seq, MessageID: "m1", Status: storage.ReplyLive})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(context.Background(), func(storage.Tx) error { return nil }); storage.KindOf(err) != storage.Closed {
		t.Fatalf("Update after Close: %v", err)
	}
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(context.Background(), func(tx storage.Tx) error {
		c, err := tx.GameCard("ch", "mira")
		if err != nil {
			return err
		}
		if storagetest.Gold(c) != 7 {
			t.Errorf("gold %v", storagetest.Gold(c))
		}
		r, err := tx.ReplyByMessage("ch", "m1")
		if err != nil {
			return err
		}
		if r.Seq != 1 {
			t.Errorf("seq %d", r.Seq)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestKeyPartsRefused(t *testing.T) {
	s := openTemp(t)
	defer s.Close()
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		if tx.PutGameCard("a\x00b", storagetest.Card("u", "Mira", 1)) == nil {
			t.Error("a channel id with NUL was stored")
		}
		if tx.PutGameCard("ch", storagetest.Card("u", "   ", 1)) == nil {
			t.Error("a card with a blank name was stored")
		}
		if tx.PutLibraryCard(&storage.CardRecord{OwnerID: "u"}) == nil {
			t.Error("a record without a card was stored")
		}
		if tx.PutCampaign(&storage.Campaign{}) == nil {
			t.Error("a campaign without a channel was stored")
		}
		if tx.PutReply(&storage.Reply{ChannelID: "ch", Seq: 1, Status: "bogus"}) == nil {
			t.Error("a reply with an unknown status was stored")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLockTimeout: a second Open of a file already open (the lock is per open file, so
// this process counts as another) fails within the timeout, naming the file.
func TestLockTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "held.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	s2, err := Open(path, Options{Timeout: 300 * time.Millisecond})
	took := time.Since(start)
	if err == nil {
		s2.Close()
		t.Fatal("a second Open succeeded")
	}
	if storage.KindOf(err) != storage.Locked || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "is in use by another sheetkeeper process") {
		t.Fatalf("error %q", err)
	}
	if took < 200*time.Millisecond || took > 2*time.Second {
		t.Fatalf("gave up after %v, timeout 300ms", took)
	}
	t.Log(err)
}

func TestSchema(t *testing.T) {
	dir := t.TempDir()

	// An empty file is initialised.
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(empty, Options{})
	if err != nil {
		t.Fatalf("empty file: %v", err)
	}
	s.Close()
	if v := rawSchema(t, empty); v != SchemaVersion {
		t.Fatalf("initialised to %d", v)
	}

	// A newer schema is refused, and the file left alone.
	newer := filepath.Join(dir, "newer.db")
	rawWrite(t, newer, func(btx *bolt.Tx) error {
		if err := migrations[0](btx); err != nil {
			return err
		}
		return btx.Bucket(bucketMeta).Put(keySchema, be64(SchemaVersion+1))
	})
	_, err = Open(newer, Options{})
	if storage.KindOf(err) != storage.Newer || !strings.Contains(err.Error(), newer) || !strings.Contains(err.Error(), "upgrade sheetkeeper") {
		t.Fatalf("newer schema: %v", err)
	}
	t.Log(err)
	if v := rawSchema(t, newer); v != SchemaVersion+1 {
		t.Fatalf("refused file changed to %d", v)
	}

	// Another program's bbolt file is not taken over.
	foreign := filepath.Join(dir, "foreign.db")
	rawWrite(t, foreign, func(btx *bolt.Tx) error {
		_, err := btx.CreateBucket([]byte("theirs"))
		return err
	})
	if _, err := Open(foreign, Options{}); storage.KindOf(err) != storage.Foreign {
		t.Fatalf("foreign bbolt file: %v", err)
	}

	// Not a database at all.
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(junk, Options{}); storage.KindOf(err) != storage.Foreign {
		t.Fatalf("junk file: %v", err)
	}
}

// TestMigrationsRunInOrder: each step of the table runs once, in order, in the opening
// transaction, and the stored version follows.
func TestMigrationsRunInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	rawWrite(t, path, func(btx *bolt.Tx) error { return nil })
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(btx *bolt.Tx) error { return migrate(btx, path) })
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(btx *bolt.Tx) error {
		v, err := schemaOf(btx)
		if v != SchemaVersion {
			t.Errorf("version %d", v)
		}
		for _, b := range allBuckets {
			if btx.Bucket(b) == nil {
				t.Errorf("bucket %s missing", b)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Migrating an up-to-date database changes nothing.
	if err := db.Update(func(btx *bolt.Tx) error { return migrate(btx, path) }); err != nil {
		t.Fatal(err)
	}
}

func rawWrite(t *testing.T, path string, fn func(*bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// rawAt writes a database at path as schema from left it: the first from migrations,
// the schema number, then what seed writes.
func rawAt(t *testing.T, path string, from int, seed func(*bolt.Tx) error) {
	t.Helper()
	rawWrite(t, path, func(btx *bolt.Tx) error {
		for v := range from {
			if err := migrations[v](btx); err != nil {
				return err
			}
		}
		if err := btx.Bucket(bucketMeta).Put(keySchema, be64(uint64(from))); err != nil {
			return err
		}
		return seed(btx)
	})
}

// openMigrated opens the database at path, which migrates it, runs fn in an Update,
// closes it, and wants the file at the current schema.
func openMigrated(t *testing.T, path string, fn func(storage.Tx) error) {
	t.Helper()
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if v := rawSchema(t, path); v != SchemaVersion {
		t.Fatalf("schema %d", v)
	}
}

func rawSchema(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v uint64
	if err := db.View(func(btx *bolt.Tx) error { v, err = schemaOf(btx); return err }); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestBackup(t *testing.T) {
	s := openTemp(t)
	defer s.Close()
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", 3))
	})
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	f, err := os.Create(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.Backup(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(copyPath); fi.Size() != n {
		t.Fatalf("wrote %d, file has %d", n, fi.Size())
	}
	c, err := Open(copyPath, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.View(context.Background(), func(tx storage.Tx) error {
		card, err := tx.GameCard("ch", "Mira")
		if err == nil && storagetest.Gold(card) != 3 {
			t.Errorf("copy has %v gold", storagetest.Gold(card))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCardMemo: cards read through the decoding memo are fresh copies, equal to a plain
// decode of the stored bytes, also after the memo was filled by the writer.
func TestCardMemo(t *testing.T) {
	s := openTemp(t)
	defer s.Close()
	ctx := context.Background()
	rec := storagetest.Card("u1", "Mira", 5)
	rec.Card.Build.Lists = map[string][]sheet.Row{"gear": {{"name": "rope", "qty": 1.0}}}
	rec.Card.Build.Extra = map[string]json.RawMessage{"future": json.RawMessage(`{"x":1}`)}
	if err := s.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch", rec) }); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		err := s.Update(ctx, func(tx storage.Tx) error {
			got, err := tx.GameCard("ch", "Mira")
			if err != nil {
				return err
			}
			raw, _ := json.Marshal(got)
			var plain storage.CardRecord
			want, _ := json.Marshal(rec)
			if err := json.Unmarshal(want, &plain); err != nil {
				return err
			}
			want, _ = json.Marshal(&plain)
			if string(raw) != string(want) {
				t.Fatalf("round %d: memo gave\n%s\nwant\n%s", round, raw, want)
			}
			// Scribble on everything the copy shares with nothing.
			got.Card.Build.Fields["gold"] = 999.0
			got.Card.Build.Lists["gear"][0]["qty"] = 99.0
			got.Card.Build.Extra["future"][1] = 'X'
			got.Card.Live.Conditions = append(got.Card.Live.Conditions, "cursed")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	err := s.View(ctx, func(tx storage.Tx) error {
		all, err := tx.GameCards("ch")
		if err != nil {
			return err
		}
		if len(all) != 1 || storagetest.Gold(all[0]) != 5 || all[0].Card.Build.Lists["gear"][0]["qty"] != 1.0 ||
			string(all[0].Card.Build.Extra["future"]) != `{"x":1}` || len(all[0].Card.Live.Conditions) != 0 {
			t.Fatalf("memo entry changed through a copy: %+v", all[0].Card)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCardMemoAfterPut: whatever a function does with a card record it put, the memo
// keeps what was written. A record changed after its Put — which storage.Tx forbids —
// is written as it is when the function returns (an Update encodes its cards then); one
// changed after the function read its cards again, which encoded it then, is written as
// it was at that read, and the memo checks it before keeping it. So does one Put twice,
// and one rolled back.
func TestCardMemoAfterPut(t *testing.T) {
	s := openTemp(t)
	defer s.Close()
	ctx := context.Background()
	if err := s.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", 5)) }); err != nil {
		t.Fatal(err)
	}
	memo := func() *storage.CardRecord { // the second read of a card is a memo hit
		var c *storage.CardRecord
		for range 2 {
			err := s.Update(ctx, func(tx storage.Tx) error {
				var err error
				c, err = tx.GameCard("ch", "Mira")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	disk := func() *storage.CardRecord { // decoded from the bytes bbolt holds
		k, _ := nameKey("", "ch", "Mira")
		c := new(storage.CardRecord)
		err := s.(*store).viewBolt(func(btx *bolt.Tx) error { return json.Unmarshal(btx.Bucket(bucketGame).Get(k), c) })
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	set := func(c *storage.CardRecord, g float64) { c.Card.Build.Fields["gold"] = g }
	for _, step := range []struct {
		fn   func(tx storage.Tx, c *storage.CardRecord) error
		want float64
		cond int // conditions written
	}{
		{func(tx storage.Tx, c *storage.CardRecord) error {
			set(c, 4)
			err := tx.PutGameCard("ch", c)
			set(c, 100) // written: the function has not returned
			c.Card.Live.Conditions = append(c.Card.Live.Conditions, "cursed")
			return err
		}, 100, 1},
		{func(tx storage.Tx, c *storage.CardRecord) error {
			set(c, 7)
			c.Card.Live.Conditions = nil
			if err := tx.PutGameCard("ch", c); err != nil {
				return err
			}
			if _, err := tx.GameCards("ch"); err != nil { // encodes it now
				return err
			}
			set(c, 8) // not written
			c.Card.Live.Conditions = append(c.Card.Live.Conditions, "cursed")
			return nil
		}, 7, 0},
		{func(tx storage.Tx, c *storage.CardRecord) error {
			set(c, 3)
			if err := tx.PutGameCard("ch", c); err != nil {
				return err
			}
			set(c, 2)
			return tx.PutGameCard("ch", c)
		}, 2, 0},
		{func(tx storage.Tx, c *storage.CardRecord) error {
			set(c, 1)
			if err := tx.PutGameCard("ch", c); err != nil {
				return err
			}
			return errors.New("changed my mind")
		}, 2, 0},
	} {
		_ = s.Update(ctx, func(tx storage.Tx) error {
			c, err := tx.GameCard("ch", "Mira")
			if err != nil {
				return err
			}
			return step.fn(tx, c)
		})
		m, d := memo(), disk()
		if storagetest.Gold(m) != step.want || storagetest.Gold(d) != step.want {
			t.Fatalf("gold %v from the memo, %v on disk; want %v", storagetest.Gold(m), storagetest.Gold(d), step.want)
		}
		if len(m.Card.Live.Conditions) != step.cond || len(d.Card.Live.Conditions) != step.cond {
			t.Fatalf("conditions %v from the memo, %v on disk; want %d", m.Card.Live.Conditions, d.Card.Live.Conditions, step.cond)
		}
	}
}

// TestPostedWrittenAsOneString: a database written when a reply's post was one string
// (one id, or the Discord adapter's ids joined by commas) still reads, as a list of ids.
func TestPostedWrittenAsOneString(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	posted := [][]string{{"p1"}, {"p2", "p3"}, nil}
	err = s.Update(context.Background(), func(tx storage.Tx) error {
		for i, ids := range posted {
			r := &storage.Reply{ChannelID: "ch", Seq: int64(i + 1), MessageID: fmt.Sprint("m", i+1), AuthorID: "gm",
				Status: storage.ReplyLive, Posted: ids, CreatedAt: storagetest.When, UpdatedAt: storagetest.When}
			if err := tx.PutReply(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	old := map[string]string{`"posted":["p1"]`: `"posted":"p1"`, `"posted":["p2","p3"]`: `"posted":"p2,p3"`}
	rewritten := 0
	rawWrite(t, path, func(btx *bolt.Tx) error {
		b := btx.Bucket(bucketReplyLog)
		var keys, vals [][]byte
		if err := b.ForEach(func(k, v []byte) error {
			for now, was := range old {
				if bytes.Contains(v, []byte(now)) {
					keys = append(keys, bytes.Clone(k))
					vals = append(vals, bytes.Replace(v, []byte(now), []byte(was), 1))
				}
			}
			return nil
		}); err != nil {
			return err
		}
		for i, k := range keys {
			if err := b.Put(k, vals[i]); err != nil {
				return err
			}
			rewritten++
		}
		return nil
	})
	if rewritten != len(old) {
		t.Fatalf("rewrote %d replies, want %d", rewritten, len(old))
	}
	s, err = Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(context.Background(), func(tx storage.Tx) error {
		for i, want := range posted {
			r, err := tx.Reply("ch", int64(i+1))
			if err != nil {
				return err
			}
			if !slices.Equal(r.Posted, want) {
				t.Errorf("reply %d: posted %q, want %q", i+1, r.Posted, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNotFoundWords: the reply lookups' misses, worded without fmt, read as
// storage.NotFoundf's would and have its kind.
func TestNotFoundWords(t *testing.T) {
	s := openTemp(t)
	err := s.View(context.Background(), func(tx storage.Tx) error {
		for _, c := range []struct {
			err  error
			want error
		}{
			{second(tx.Reply("ch1", 7)), storage.NotFoundf("reply %d in channel %s", 7, "ch1")},
			{second(tx.ReplyByMessage("ch1", "")), storage.NotFoundf("reply to no message in channel %s", "ch1")},
			{second(tx.ReplyByMessage("ch1", "123")), storage.NotFoundf("reply to message %s in channel %s", "123", "ch1")},
			{second(tx.LastReply("ch1")), storage.NotFoundf("last reply in channel %s", "ch1")},
		} {
			if storage.KindOf(c.err) != storage.NotFound || c.err.Error() != c.want.Error() {
				t.Errorf("got %v (%v), want %v (NotFound)", c.err, storage.KindOf(c.err), c.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func second[T any](_ T, err error) error { return err }

// TestUnencodableCardFailsUpdate: an Update encodes its card records once its function
// has returned, or when the function reads their bucket again; a record that does not
// encode fails the Update (kind Invalid, nothing written), even when the function read
// its cards after the put and went on past the read's error.
func TestUnencodableCardFailsUpdate(t *testing.T) {
	s := openTemp(t)
	defer s.Close()
	ctx := context.Background()
	for what, fn := range map[string]func(tx storage.Tx) error{
		"returned": func(tx storage.Tx) error {
			if err := tx.PutGameCard("ch", storagetest.Card("u1", "Mira", math.NaN())); err != nil {
				return err
			}
			return tx.PutGameCard("ch", storagetest.Card("u1", "Tam", 3))
		},
		"read again, error dropped": func(tx storage.Tx) error {
			if err := tx.PutGameCard("ch", storagetest.Card("u1", "Mira", math.NaN())); err != nil {
				return err
			}
			if _, err := tx.GameCards("ch"); storage.KindOf(err) != storage.Invalid {
				t.Errorf("reading the cards after the put: %v, want kind Invalid", err)
			}
			return tx.PutGameCard("ch", storagetest.Card("u1", "Tam", 3))
		},
	} {
		if err := s.Update(ctx, fn); storage.KindOf(err) != storage.Invalid {
			t.Errorf("%s: %v, want kind Invalid", what, err)
		}
	}
	err := s.View(ctx, func(tx storage.Tx) error {
		cards, err := tx.GameCards("ch")
		if len(cards) != 0 {
			t.Errorf("%d cards written", len(cards))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
