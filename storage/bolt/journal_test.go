package bolt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// putGold writes card name of channel ch with gold g in one Update.
func putGold(s storage.Store, ch, name string, g float64) error {
	return s.Update(context.Background(), func(tx storage.Tx) error {
		return tx.PutGameCard(ch, storagetest.Card("u1", name, g))
	})
}

// goldOf reads the gold of card name of channel ch through a View.
func goldOf(t *testing.T, s storage.Store, ch, name string) (float64, error) {
	t.Helper()
	var g float64
	err := s.View(context.Background(), func(tx storage.Tx) error {
		c, err := tx.GameCard(ch, name)
		if err == nil {
			g = storagetest.Gold(c)
		}
		return err
	})
	return g, err
}

// inBbolt reports whether bbolt alone, without the journal, holds card name of ch.
func inBbolt(t *testing.T, path, ch, name string) bool {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, _ := nameKey("", ch, name)
	var found bool
	must(t, db.View(func(btx *bolt.Tx) error { found = btx.Bucket(bucketGame).Get(k) != nil; return nil }))
	return found
}

var errDiskGone = errors.New("disk gone")

// brokenStore opens a store at path whose bbolt takes no journalled batch: its applier
// fails as a full disk would make it.
func brokenStore(t *testing.T, path string) *store {
	t.Helper()
	s, err := open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.beforeApply = func() error { return errDiskGone }
	return s
}

// TestJournalReplayed: an Update returns once its batch is in the journal; when bbolt
// then fails to take it the store says so to every later call (and never reads past
// it), and the next open replays the journal into bbolt.
func TestJournalReplayed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s := brokenStore(t, path)
	if err := putGold(s, "ch", "Mira", 7); err != nil {
		t.Fatalf("the journalled Update: %v", err)
	}
	if err := s.awaitApplied(1); !errors.Is(err, errDiskGone) {
		t.Fatalf("applier: %v, want %v", err, errDiskGone)
	}
	if err := putGold(s, "ch", "Bo", 1); !errors.Is(err, errDiskGone) || !strings.Contains(err.Error(), "restart") {
		t.Errorf("an Update after bbolt failed: %v, want %v saying to restart", err, errDiskGone)
	}
	if _, err := goldOf(t, s, "ch", "Mira"); !errors.Is(err, errDiskGone) {
		t.Errorf("a View after bbolt failed: %v, want %v", err, errDiskGone)
	}
	must(t, s.Close())
	if inBbolt(t, path, "ch", "Mira") {
		t.Fatal("bbolt holds the card: the test would not show the replay")
	}
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if g, err := goldOf(t, s2, "ch", "Mira"); err != nil || g != 7 {
		t.Fatalf("after the replay: %v gold, %v; want 7", g, err)
	}
	if _, err := goldOf(t, s2, "ch", "Bo"); storage.KindOf(err) != storage.NotFound {
		t.Errorf("the refused Update's card: %v, want NotFound", err)
	}
	must(t, s2.Close())
	if !inBbolt(t, path, "ch", "Mira") {
		t.Error("closed after the replay, bbolt does not hold the card")
	}
}

// journalRecords reads journal file i of the database at path.
func journalRecords(t *testing.T, path string, i int) []journalRecord {
	t.Helper()
	f, err := os.Open(journalPath(path, i))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := readJournal(f, i, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// flipByte changes the byte at off of file name.
func flipByte(t *testing.T, name string, off int64) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// journalOnly writes n cards (gold 1..n) into a database at path whose bbolt takes
// none of them, and lets go of its files without closing the store: what a crash leaves
// when bbolt had not taken them yet.
func journalOnly(t *testing.T, path string, n int) {
	t.Helper()
	s, err := open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.beforeApply = func() error { select {} } // bbolt never takes anything
	for i := 1; i <= n; i++ {
		must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
	}
	s.journal.close()
	s.db.Close()
}

// TestJournalCutRecord: a record whose bytes do not match its checksum (a crash cut it
// while it was written, so its caller was never answered) ends the journal; the
// records before it are replayed.
func TestJournalCutRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	journalOnly(t, path, 4)
	recs := journalRecords(t, path, 0)
	if len(recs) != 4 {
		t.Fatalf("%d records in the journal, want 4", len(recs))
	}
	flipByte(t, journalPath(path, 0), recs[3].end-1)
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 1; i <= 4; i++ {
		g, err := goldOf(t, s, "ch", fmt.Sprint("card", i))
		switch {
		case i < 4 && (err != nil || g != float64(i)):
			t.Errorf("card%d: %v gold, %v; want %d", i, g, err, i)
		case i == 4 && storage.KindOf(err) != storage.NotFound:
			t.Errorf("card4, whose record was cut: %v, want NotFound", err)
		}
	}
	// Writing goes on where the cut record was, under its number.
	if err := putGold(s, "ch", "card5", 5); err != nil {
		t.Fatal(err)
	}
	if got := s.(*store).durable; got != 4 {
		t.Errorf("the next record is number %d, want 4", got)
	}
}

// TestJournalDamaged: a record damaged in the middle of the journal (its successor
// whole), or a record missing, is damage: Open refuses the database (kind Damaged),
// naming the journal, and changes nothing.
func TestJournalDamaged(t *testing.T) {
	t.Run("checksum", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.db")
		journalOnly(t, path, 3)
		recs := journalRecords(t, path, 0)
		flipByte(t, journalPath(path, 0), recs[1].end-1)
		_, err := Open(path, Options{})
		if storage.KindOf(err) != storage.Damaged || !strings.Contains(err.Error(), journalPath(path, 0)) || !strings.Contains(err.Error(), "record 2") {
			t.Fatalf("Open: %v, want Damaged naming %s and record 2", err, journalPath(path, 0))
		}
		if inBbolt(t, path, "ch", "card1") {
			t.Error("the refused open wrote the records before the damage into bbolt")
		}
	})
	t.Run("missing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.db")
		s, err := open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.beforeApply = func() error { select {} } // bbolt never takes anything
		s.journal.limit = 1                        // each record in the other file
		for i := 1; i <= 2; i++ {
			must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
		}
		s.journal.close()
		s.db.Close()
		if r := journalRecords(t, path, 1); len(r) != 1 || r[0].number != 2 {
			t.Fatalf("journal 1 holds %+v, want record 2", r)
		}
		must(t, os.Remove(journalPath(path, 0)))
		_, err = Open(path, Options{})
		if storage.KindOf(err) != storage.Damaged || !strings.Contains(err.Error(), "record 2 follows record 0") {
			t.Fatalf("Open without record 1: %v, want Damaged saying record 2 follows record 0", err)
		}
	})
}

// TestViewWaitsForJournalledWrites: a View begun after an Update returned sees its
// write, though bbolt had not taken it yet.
func TestViewWaitsForJournalledWrites(t *testing.T) {
	s, err := open(filepath.Join(t.TempDir(), "j.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	release := make(chan struct{})
	var mu sync.Mutex
	released := false
	s.beforeApply = func() error { <-release; return nil }
	must(t, putGold(s, "ch", "Mira", 3))
	viewed := make(chan error, 1)
	go func() {
		g, err := goldOf(t, s, "ch", "Mira")
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil:
			viewed <- err
		case !released:
			viewed <- errors.New("the View returned before bbolt took the batch")
		case g != 3:
			viewed <- fmt.Errorf("%v gold, want 3", g)
		default:
			viewed <- nil
		}
	}()
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	released = true
	mu.Unlock()
	close(release)
	if err := <-viewed; err != nil {
		t.Fatal(err)
	}
}

// TestJournalStartsAgain: with a journal file limit of one record, writing alternates
// between the files, each started again once bbolt holds its records, under writers on
// eight channels; every write is there after a close and an open.
func TestJournalStartsAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.journal.limit = 1
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			for i := range 25 {
				if err := putGold(s, fmt.Sprint("ch", c), "Mira", float64(i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if s.durable < 20 || s.journal.last[0] == 0 || s.journal.last[1] == 0 {
		t.Fatalf("%d records, the files' last %v: the journal did not alternate", s.durable, s.journal.last)
	}
	must(t, s.Close())
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for c := range 8 {
		if g, err := goldOf(t, s2, fmt.Sprint("ch", c), "Mira"); err != nil || g != 24 {
			t.Errorf("ch%d: %v gold, %v; want 24", c, g, err)
		}
	}
}

// TestCheckTellsOfJournal: Check says how many batches the journal holds that the file
// does not, and counts a damaged journal as damage.
func TestCheckTellsOfJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	journalOnly(t, path, 3)
	rep, err := Check(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Damaged() || !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "holds 3 batches the file does not, records 1–3") }) {
		t.Fatalf("Check: notes %q, problems %q; want a note of 3 batches and no problem", rep.Notes, rep.Problems)
	}
	recs := journalRecords(t, path, 0)
	flipByte(t, journalPath(path, 0), recs[0].end-1)
	if rep, err = Check(path, Options{}); err != nil || !rep.Damaged() || !strings.Contains(strings.Join(rep.Problems, "\n"), "record 1 at byte 0 is damaged") {
		t.Fatalf("Check of a damaged journal: %v, problems %q; want record 1's damage", err, rep.Problems)
	}
}
