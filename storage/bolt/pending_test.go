package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
	"pgregory.net/rapid"

	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// TestPendingReadsAsModel: whatever bbolt holds and whatever writes are pending over it,
// a function reads exactly what a map holding both, pending last, would give — get,
// ascend from any key within any prefix, last within any prefix — and taking a
// function's writes back restores what was pending before it.
func TestPendingReadsAsModel(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "p.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := []byte("b")
	// Keys over a small alphabet, so prefixes, neighbours and 0xff carry all occur.
	key := rapid.SliceOfN(rapid.SampledFrom([]byte{0x00, 0x01, 'a', 'b', 0xff}), 1, 4)
	rapid.Check(t, func(rt *rapid.T) {
		model := map[string]string{}
		err := db.Update(func(btx *bolt.Tx) error {
			_ = btx.DeleteBucket(name)
			b, err := btx.CreateBucket(name)
			if err != nil {
				return err
			}
			for i, k := range rapid.SliceOfN(key, 0, 20).Draw(rt, "committed") {
				v := fmt.Sprint("c", i)
				model[string(k)] = v
				if err := b.Put(k, []byte(v)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			rt.Fatal(err)
		}
		rtx, err := db.Begin(false)
		if err != nil {
			rt.Fatal(err)
		}
		defer rtx.Rollback()
		var p pending
		apply := func(batch uint64, label string) *pendingKV {
			view := &pendingKV{rtx: rtx, p: &p, batch: batch}
			for i := range rapid.IntRange(0, 15).Draw(rt, label+" writes") {
				k := key.Draw(rt, label+" key")
				if rapid.Bool().Draw(rt, label+" delete") {
					delete(model, string(k))
					must(rt, view.del(name, k))
				} else {
					v := fmt.Sprint(label, i)
					model[string(k)] = v
					must(rt, view.put(name, k, []byte(v)))
				}
			}
			return view
		}
		apply(1, "p")
		before := cloneModel(model)
		failed := apply(2, "f")
		if rapid.Bool().Draw(rt, "take back") {
			failed.takeBack()
			model = before
		}
		view := &pendingKV{rtx: rtx, p: &p, batch: 3}
		keys := make([]string, 0, len(model))
		for k := range model {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for range 10 {
			k := key.Draw(rt, "get")
			got, err := view.get(name, k)
			must(rt, err)
			if want, ok := model[string(k)]; (got != nil) != ok || string(got) != want {
				rt.Fatalf("get %x: %q, want %q (%v)", k, got, want, ok)
			}
			pfx := k[:rapid.IntRange(0, len(k)).Draw(rt, "prefix length")]
			from := key.Draw(rt, "from")
			var gotKeys, wantKeys []string
			must(rt, view.ascend(name, from, pfx, func(k, v []byte) (bool, error) {
				if model[string(k)] != string(v) {
					rt.Fatalf("ascend: %x = %q, want %q", k, v, model[string(k)])
				}
				gotKeys = append(gotKeys, string(k))
				return true, nil
			}))
			for _, k := range keys {
				if k >= string(from) && bytes.HasPrefix([]byte(k), pfx) {
					wantKeys = append(wantKeys, k)
				}
			}
			if !slices.Equal(gotKeys, wantKeys) {
				rt.Fatalf("ascend from %x in %x: %x, want %x", from, pfx, gotKeys, wantKeys)
			}
			lk, lv, err := view.last(name, pfx)
			must(rt, err)
			var wantLast string
			for _, k := range keys {
				if bytes.HasPrefix([]byte(k), pfx) {
					wantLast = k
				}
			}
			if string(lk) != wantLast || (lk != nil && string(lv) != model[wantLast]) {
				rt.Fatalf("last in %x: %x, want %x", pfx, lk, wantLast)
			}
		}
	})
}

func must(t interface{ Fatal(...any) }, err error) {
	if err != nil {
		t.Fatal(err)
	}
}

func cloneModel(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestFailedCommitFailsWhatReadIt: while a batch commits, the next one runs over its
// writes; when the commit fails, both batches' callers get the error, neither batch's
// writes stay, and the store goes on from what is durable.
func TestFailedCommitFailsWhatReadIt(t *testing.T) {
	s, err := open(filepath.Join(t.TempDir(), "f.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u", "Mira", 10)) }); err != nil {
		t.Fatal(err)
	}
	errDisk := errors.New("disk on fire")
	committing, release := make(chan uint64), make(chan error)
	s.beforeCommit = func(id uint64) error {
		committing <- id
		return <-release
	}
	spend := func(want float64) func(storage.Tx) error {
		return func(tx storage.Tx) error {
			c, err := tx.GameCard("ch", "Mira")
			if err != nil {
				return err
			}
			if storagetest.Gold(c) != want {
				return fmt.Errorf("gold %v, want %v", storagetest.Gold(c), want)
			}
			c.Card.Build.Fields["gold"] = want - 1
			return tx.PutGameCard("ch", c)
		}
	}
	first, second, ran := make(chan error), make(chan error), make(chan struct{})
	go func() { first <- s.Update(ctx, spend(10)) }()
	<-committing // the first batch is being committed
	go func() {  // runs over the first's writes
		second <- s.Update(ctx, func(tx storage.Tx) error {
			defer close(ran)
			return spend(9)(tx)
		})
	}()
	// Its Update adds it to the open batch before letting go of the run lock, which the
	// committer takes to handle the failure.
	<-ran
	release <- errDisk
	if err := <-first; !errors.Is(err, errDisk) {
		t.Fatalf("first: %v", err)
	}
	if err := <-second; !errors.Is(err, errDisk) {
		t.Fatalf("second, which read the first's writes: %v", err)
	}
	s.beforeCommit = nil
	if err := s.Update(ctx, spend(10)); err != nil {
		t.Fatalf("after the failure the store reads what is durable: %v", err)
	}
}
