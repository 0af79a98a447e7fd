package bolt

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
	"pgregory.net/rapid"
)

// TestPendingReadsAsModel: whatever bbolt holds and whatever writes are pending over it,
// a function reads exactly what a map holding both, pending last, would give — get, and
// ascend from any key within any prefix — and taking a function's writes back restores
// what was pending before it.
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
		apply := func(run uint64, label string) *pendingKV {
			view := &pendingKV{rtx: rtx, p: &p, run: run}
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
		// A function that fails alone leaves nothing pending.
		alone := apply(1, "alone")
		if _, err := alone.nextSequence(name); err != nil {
			rt.Fatal(err)
		}
		alone.takeBack()
		if !p.empty() {
			rt.Fatalf("pending after taking back the only function: %+v", p)
		}
		model = map[string]string{}
		must(rt, rtx.Bucket(name).ForEach(func(k, v []byte) error { model[string(k)] = string(v); return nil }))

		apply(1, "p")
		before := cloneModel(model)
		failed := apply(2, "f")
		if rapid.Bool().Draw(rt, "take back") {
			failed.takeBack()
			model = before
		}
		view := &pendingKV{rtx: rtx, p: &p, run: 3}
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
