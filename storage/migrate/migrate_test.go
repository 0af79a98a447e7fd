package migrate_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
	"sheetkeeper/storage/etcd"
	"sheetkeeper/storage/etcd/etcdtest"
	"sheetkeeper/storage/migrate"
	"sheetkeeper/storage/storagetest"
)

var endpoint string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sheetkeeper-migrate-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e, err := etcdtest.Start(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "embedded etcd:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	endpoint = etcdtest.Endpoint(e)
	code := m.Run()
	e.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

func openBolt(t *testing.T, path string) storage.Porter {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s.(storage.Porter)
}

func openEtcd(t *testing.T, prefix string) storage.Porter {
	t.Helper()
	s, err := etcd.Open(etcd.Options{Endpoints: []string{endpoint}, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(storage.Porter)
}

// fill writes every kind of record, and enough cards that the copy takes many
// transactions (etcd takes 128 operations in one).
func fill(t *testing.T, s storage.Store) {
	storagetest.Fill(t, s)
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		for i := range 300 {
			if err := tx.PutGameCard("ch1", storagetest.Card("u1", fmt.Sprint("extra", i), float64(i))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRoundTrip migrates a bbolt file into etcd and back into a new file, which then
// holds the records of the first, byte for byte.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first := openBolt(t, filepath.Join(dir, "first.db"))
	fill(t, first)
	want := storagetest.Export(t, first)

	mid := openEtcd(t, "roundtrip/")
	sum, err := migrate.Copy(ctx, first, mid)
	if err != nil {
		t.Fatalf("bolt → etcd: %v", err)
	}
	if sum.Records() != len(want) || sum.Counts[storage.GameRecords] != 301 {
		t.Errorf("summary %s: %d records, want %d", sum, sum.Records(), len(want))
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	last := openBolt(t, filepath.Join(dir, "last.db"))
	back, err := migrate.Copy(ctx, mid, last)
	if err != nil {
		t.Fatalf("etcd → bolt: %v", err)
	}
	if back.Digest != sum.Digest {
		t.Errorf("digest %s after the round trip, %s before", back.Digest, sum.Digest)
	}
	if err := last.Close(); err != nil {
		t.Fatal(err)
	}

	reopened := openBolt(t, filepath.Join(dir, "last.db"))
	defer reopened.Close()
	got := storagetest.Export(t, reopened)
	if len(got) != len(want) {
		t.Fatalf("final file holds %d records, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Key != want[i].Key || !bytes.Equal(got[i].Value, want[i].Value) {
			t.Errorf("record %d: %s %q, want %s %q", i, got[i].Kind, got[i].Key, want[i].Kind, want[i].Key)
		}
	}
	err = reopened.View(ctx, func(tx storage.Tx) error {
		c, err := tx.GameCard("ch1", "extra299")
		if err == nil && storagetest.Gold(c) != 299 {
			t.Errorf("extra299 has %v gold", storagetest.Gold(c))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNonEmptyTargetRefused: a target holding one record is refused, kind Conflict,
// and nothing is written to it.
func TestNonEmptyTargetRefused(t *testing.T) {
	ctx := context.Background()
	src := openBolt(t, filepath.Join(t.TempDir(), "src.db"))
	defer src.Close()
	fill(t, src)
	dst := openEtcd(t, "nonempty/")
	err := dst.Update(ctx, func(tx storage.Tx) error { _, err := tx.MarkHinted("ch9"); return err })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrate.Copy(ctx, src, dst); storage.KindOf(err) != storage.Conflict {
		t.Fatalf("copy into a non-empty store: %v, want kind Conflict", err)
	}
	sum, err := migrate.Survey(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records() != 1 {
		t.Errorf("the refused target holds %s", sum)
	}
}

// TestVerifyFindsDifference: two stores differing in one value fail Verify, kind Damaged.
func TestVerifyFindsDifference(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b := openBolt(t, filepath.Join(dir, "a.db")), openBolt(t, filepath.Join(dir, "b.db"))
	defer a.Close()
	defer b.Close()
	storagetest.Fill(t, a)
	storagetest.Fill(t, b)
	if _, err := migrate.Verify(ctx, a, b); err != nil {
		t.Fatalf("equal stores: %v", err)
	}
	err := b.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch1", storagetest.Card("u1", "Mira", 8)) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrate.Verify(ctx, a, b); storage.KindOf(err) != storage.Damaged {
		t.Errorf("stores differing in a card: %v, want kind Damaged", err)
	}
}

// TestNonEmptyBoltTargetRefused: a bbolt file holding one record is refused as a
// target too, kind Conflict, and keeps only that record.
func TestNonEmptyBoltTargetRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := openEtcd(t, "nonempty-bolt-src/")
	storagetest.Fill(t, src)
	dst := openBolt(t, filepath.Join(dir, "dst.db"))
	defer dst.Close()
	err := dst.Update(ctx, func(tx storage.Tx) error { _, err := tx.MarkHinted("ch9"); return err })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrate.Copy(ctx, src, dst); storage.KindOf(err) != storage.Conflict {
		t.Fatalf("copy into a non-empty file: %v, want kind Conflict", err)
	}
	if sum, err := migrate.Survey(ctx, dst); err != nil || sum.Records() != 1 {
		t.Errorf("the refused target holds %s (%v)", sum, err)
	}
}

// TestImportKeepsALiveWrite: migrate finds an etcd target empty once, before its first
// chunk; a record another process writes afterwards under a key the copy carries is
// not overwritten: the chunk is refused, kind Conflict, and writes nothing.
func TestImportKeepsALiveWrite(t *testing.T) {
	ctx := context.Background()
	src := openBolt(t, filepath.Join(t.TempDir(), "src.db"))
	defer src.Close()
	fill(t, src)
	recs := storagetest.Export(t, src)[:10]
	dst := openEtcd(t, "live/")
	live := []byte(`{"live":true}`)
	var taken storage.Record
	for _, r := range recs {
		if r.Kind == storage.CampaignRecords {
			taken = r
		}
	}
	if taken.Key == "" {
		t.Fatalf("no campaign among the first records: %+v", recs)
	}
	if err := dst.Import(ctx, []storage.Record{{Kind: taken.Kind, Key: taken.Key, Value: live}}); err != nil {
		t.Fatal(err)
	}
	if err := dst.Import(ctx, recs); storage.KindOf(err) != storage.Conflict {
		t.Fatalf("import over a live record: %v, want kind Conflict", err)
	}
	got := storagetest.Export(t, dst)
	if len(got) != 1 || !bytes.Equal(got[0].Value, live) {
		t.Errorf("after the refused import the target holds %+v, want only the live record", got)
	}
}
