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
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// crash lets go of s's files without closing it, as a kill would: bbolt takes nothing
// more, and the journal keeps what it holds.
func crash(s *store) {
	s.journal.close()
	s.db.Close()
}

// openT opens the store at path, to be closed (or crashed) by the test.
func openT(t *testing.T, path string) *store {
	t.Helper()
	s, err := open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// reopen opens the database at path again, closing it when the test ends.
func reopen(t *testing.T, path string) storage.Store {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

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
	s := openT(t, path)
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
	readOnly := s.Update(context.Background(), func(tx storage.Tx) error { _, err := tx.GameCards("ch"); return err })
	if !errors.Is(readOnly, errDiskGone) {
		t.Errorf("an Update that only reads, after bbolt failed: %v, want %v", readOnly, errDiskGone)
	}
	if err := putGold(s, "ch", "Bo", 1); !errors.Is(err, errDiskGone) || !strings.Contains(err.Error(), "restart") {
		t.Errorf("an Update after bbolt failed: %v, want %v saying to restart", err, errDiskGone)
	}
	if _, err := goldOf(t, s, "ch", "Mira"); !errors.Is(err, errDiskGone) {
		t.Errorf("a View after bbolt failed: %v, want %v", err, errDiskGone)
	}
	if err := s.Close(); !errors.Is(err, errDiskGone) {
		t.Fatalf("Close of the broken store: %v, want %v", err, errDiskGone)
	}
	if inBbolt(t, path, "ch", "Mira") {
		t.Fatal("bbolt holds the card: the test would not show the replay")
	}
	s2 := reopen(t, path)
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
	recs, err := readJournal(f, i, f.Name(), 0)
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
	s := openT(t, path)
	s.beforeApply = func() error { select {} } // bbolt never takes anything
	for i := 1; i <= n; i++ {
		must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
	}
	crash(s)
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
	for i := 1; i <= 4; i++ {
		g, err := goldOf(t, s, "ch", fmt.Sprint("card", i))
		switch {
		case i < 4 && (err != nil || g != float64(i)):
			t.Errorf("card%d: %v gold, %v; want %d", i, g, err, i)
		case i == 4 && storage.KindOf(err) != storage.NotFound:
			t.Errorf("card4, whose record was cut: %v, want NotFound", err)
		}
	}
	// Writing goes on where the cut record was, under its number, where the next open
	// reads it.
	st := s.(*store)
	st.beforeApply = func() error { select {} }
	must(t, putGold(s, "ch", "card5", 5))
	if st.durable != 4 {
		t.Errorf("the next record is number %d, want 4", st.durable)
	}
	crash(st)
	s2 := reopen(t, path)
	if g, err := goldOf(t, s2, "ch", "card5"); err != nil || g != 5 {
		t.Errorf("card5, written over the cut record: %v gold, %v; want 5", g, err)
	}
}

// TestJournalDamaged: a record damaged in the middle of the journal (its checksum or
// its header, with whole records after it), or a record missing, is damage: Open
// refuses the database (kind Damaged), naming the journal, and changes nothing.
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
		s := openT(t, path)
		s.beforeApply = func() error { select {} } // bbolt never takes anything
		s.journal.limit = 1                        // each record in the other file
		for i := 1; i <= 2; i++ {
			must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
		}
		crash(s)
		if r := journalRecords(t, path, 1); len(r) != 1 || r[0].number != 2 {
			t.Fatalf("journal 1 holds %+v, want record 2", r)
		}
		must(t, os.Remove(journalPath(path, 0)))
		_, err := Open(path, Options{})
		if storage.KindOf(err) != storage.Damaged || !strings.Contains(err.Error(), "record 2 follows record 0") {
			t.Fatalf("Open without record 1: %v, want Damaged saying record 2 follows record 0", err)
		}
		if rep, err := Check(path, Options{}); err != nil || !rep.Damaged() || !strings.Contains(strings.Join(rep.Problems, "\n"), "record 2 follows record 0") {
			t.Fatalf("Check without record 1: %v, problems %q; want record 2 following record 0", err, rep.Problems)
		}
	})
	t.Run("applied", func(t *testing.T) { // a record bbolt holds is an old one: no damage
		path := filepath.Join(t.TempDir(), "j.db")
		s, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 3; i++ {
			must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
		}
		must(t, s.Close())
		recs := journalRecords(t, path, 0)
		flipByte(t, journalPath(path, 0), recs[1].end-1)
		s, err = Open(path, Options{})
		if err != nil {
			t.Fatalf("Open with an old record damaged: %v", err)
		}
		defer s.Close()
		if g, err := goldOf(t, s, "ch", "card3"); err != nil || g != 3 {
			t.Errorf("card3: %v gold, %v; want 3", g, err)
		}
	})
	// A damaged header ends the reading as a crash's cut does; the whole records after
	// it, which bbolt does not hold, are still found.
	for _, h := range []struct {
		name string
		at   int64 // the byte of record 2's header flipped
		want string
	}{
		{"length", 0, "record 2 at byte"},
		{"number", 15, "the record at byte"},
	} {
		t.Run("header's "+h.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j.db")
			journalOnly(t, path, 4)
			recs := journalRecords(t, path, 0)
			flipByte(t, journalPath(path, 0), recs[0].end+h.at)
			_, err := Open(path, Options{})
			if storage.KindOf(err) != storage.Damaged || !strings.Contains(err.Error(), h.want) || !strings.Contains(err.Error(), fmt.Sprintf("record 3 at byte %d", recs[1].end)) {
				t.Fatalf("Open with record 2's %s damaged: %v, want Damaged naming %q and record 3", h.name, err, h.want)
			}
		})
	}
	t.Run("another database's", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.db")
		journalOnly(t, path, 2)
		must(t, os.Remove(path))
		for try := 1; try <= 2; try++ { // the refusal leaves the new file new
			_, err := Open(path, Options{})
			if storage.KindOf(err) != storage.Foreign || !strings.Contains(err.Error(), "holds 2 batches of another database") {
				t.Fatalf("Open %d of a new database beside a journal: %v, want Foreign", try, err)
			}
		}
	})
	t.Run("old record hiding new ones", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "j.db")
		s := openT(t, path)
		for i := 1; i <= 5; i++ {
			if i == 4 { // bbolt holds 1–3; 4 and 5 are the journal's alone
				must(t, s.caughtUp())
				s.beforeApply = func() error { select {} }
			}
			must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
		}
		crash(s)
		recs := journalRecords(t, path, 0)
		flipByte(t, journalPath(path, 0), recs[1].end-1)
		_, err := Open(path, Options{})
		if storage.KindOf(err) != storage.Damaged || !strings.Contains(err.Error(), "record 2 at byte") || !strings.Contains(err.Error(), "record 4 at byte") {
			t.Fatalf("Open with record 2 damaged before records 4 and 5: %v, want Damaged naming both", err)
		}
	})
}

// TestJournalAfterFileMovedAside: with the journal file holding the newest records
// moved aside (all of them in bbolt), the next records go where the next open reads
// them.
func TestJournalAfterFileMovedAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s := openT(t, path)
	s.journal.limit = 1
	for i := 1; i <= 3; i++ { // records 1 and 3 in file 0, 2 in file 1
		must(t, putGold(s, "ch", fmt.Sprint("card", i), float64(i)))
	}
	if s.journal.cur != 0 {
		t.Fatalf("record 3 is in file %d, want 0", s.journal.cur)
	}
	must(t, s.Close())
	must(t, os.Remove(journalPath(path, 0)))
	s = openT(t, path)
	s.beforeApply = func() error { select {} }
	must(t, putGold(s, "ch", "card4", 4))
	crash(s)
	s2 := reopen(t, path)
	if g, err := goldOf(t, s2, "ch", "card4"); err != nil || g != 4 {
		t.Errorf("card4: %v gold, %v; want 4", g, err)
	}
}

// TestViewSeesJournalledWrites: a View begun after Updates returned sees their writes
// while bbolt has not taken them — some in the batches the applier is committing, some
// in those waiting for it: a card written twice (the newest wins, read alone and in its
// channel's list), a card put, and a card bbolt holds deleted — and cannot write.
func TestViewSeesJournalledWrites(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "j.db"))
	must(t, putGold(s, "ch", "Bo", 1))
	must(t, s.caughtUp()) // bbolt holds Bo
	release := make(chan struct{})
	s.beforeApply = func() error { <-release; return nil }
	defer func() { close(release); must(t, s.Close()) }()
	must(t, putGold(s, "ch", "Mira", 3))
	must(t, s.Update(context.Background(), func(tx storage.Tx) error { return tx.DeleteGameCard("ch", "Bo") }))
	s.hand.Lock()
	starts := s.applyStarts
	s.hand.Unlock()
	go func() { _ = s.caughtUp() }() // the applier takes both batches and waits in beforeApply
	for applying := false; !applying; {
		time.Sleep(time.Millisecond)
		s.hand.Lock()
		applying = s.applyStarts != starts && len(s.applying) == 2
		s.hand.Unlock()
	}
	must(t, putGold(s, "ch", "Mira", 4)) // waiting for the applier
	must(t, putGold(s, "ch", "Ann", 5))
	err := s.View(context.Background(), func(tx storage.Tx) error {
		c, err := tx.GameCard("ch", "Mira")
		if err != nil || storagetest.Gold(c) != 4 {
			return fmt.Errorf("Mira: %v, %v; want 4 gold", c, err)
		}
		cards, err := tx.GameCards("ch")
		if err != nil || len(cards) != 2 || cards[0].Card.Name != "Ann" || cards[1].Card.Name != "Mira" || storagetest.Gold(cards[1]) != 4 {
			return fmt.Errorf("the channel's cards: %d, %v; want Ann and Mira with 4 gold", len(cards), err)
		}
		if _, err := tx.GameCard("ch", "Bo"); storage.KindOf(err) != storage.NotFound {
			return fmt.Errorf("Bo, deleted: %v, want NotFound", err)
		}
		if err := tx.PutGameCard("ch", storagetest.Card("u1", "Zed", 0)); storage.KindOf(err) != storage.ReadOnly {
			return fmt.Errorf("a write in a View: %v, want ReadOnly", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.hand.Lock()
	defer s.hand.Unlock()
	if s.applied != 1 {
		t.Fatalf("bbolt took record %d: the View may have read bbolt alone", s.applied)
	}
}

// TestViewSnapshotWhileApplied: Views run while writers' batches are journalled and
// taken by bbolt underneath them. Each writer sets card A then, in the next Update, card
// B to the same gold, so B ≤ A ≤ B+1 at every moment; each View sees one moment, never
// one before a write whose Update had returned when it began, and no View sees a
// channel's gold go back.
func TestViewSnapshotWhileApplied(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "j.db"))
	defer s.Close()
	const channels, updates = 4, 300
	var returned [channels]atomic.Int64 // the gold of each channel's A whose Update returned
	var wg sync.WaitGroup
	for c := range channels {
		wg.Go(func() {
			ch := fmt.Sprint("ch", c)
			for g := 1; g <= updates; g++ {
				for _, name := range []string{"A", "B"} {
					if err := putGold(s, ch, name, float64(g)); err != nil {
						t.Error(err)
						return
					}
					if name == "A" {
						returned[c].Store(int64(g))
					}
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	seen := make([]float64, channels)
	s.hand.Lock()
	starts, views := s.applyStarts, 0
	s.hand.Unlock()
	for finished := false; !finished; views++ {
		select {
		case <-done:
			finished = true
		default:
		}
		c := views % channels
		least := float64(returned[c].Load())
		err := s.View(context.Background(), func(tx storage.Tx) error {
			cards, err := tx.GameCards(fmt.Sprint("ch", c))
			if err != nil || len(cards) == 0 {
				return err
			}
			a := storagetest.Gold(cards[0])
			b := 0.0
			if len(cards) == 2 {
				b = storagetest.Gold(cards[1])
			}
			switch {
			case b > a || a > b+1:
				return fmt.Errorf("ch%d: A %v beside B %v, two moments", c, a, b)
			case a < least:
				return fmt.Errorf("ch%d: A %v, though its Update to %v had returned", c, a, least)
			case a < seen[c]:
				return fmt.Errorf("ch%d: A %v after %v", c, a, seen[c])
			}
			seen[c] = a
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	s.hand.Lock()
	applies := s.applyStarts - starts
	s.hand.Unlock()
	t.Logf("%d Views over %d bbolt commits", views, applies)
	if applies < 2 {
		t.Errorf("bbolt committed %d times under the Views: the test showed nothing", applies)
	}
}

// TestJournalStartsAgain: with a journal file limit of one record, writing alternates
// between the files, each started again once bbolt holds its records, under writers on
// eight channels; then records bbolt does not take go into both files, and after a
// crash every write is there.
func TestJournalStartsAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	s := openT(t, path)
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
	// Then records bbolt never takes, until both files hold some, and a crash.
	must(t, s.caughtUp())
	applied := s.applied
	s.beforeApply = func() error { select {} }
	late := 0
	for s.journal.last[0] <= applied || s.journal.last[1] <= applied {
		late++
		must(t, putGold(s, "late", fmt.Sprint("card", late), float64(late)))
	}
	// A file is started again only once bbolt holds its records: the next record, for
	// the file with one bbolt does not hold, waits.
	blocked := make(chan error, 1)
	go func() { blocked <- putGold(s, "late", "waiting", 1) }()
	select {
	case err := <-blocked:
		t.Fatalf("a record went over one bbolt does not hold (%v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	crash(s)
	s2 := reopen(t, path)
	if _, err := goldOf(t, s2, "late", "waiting"); storage.KindOf(err) != storage.NotFound {
		t.Errorf("the waiting record's card: %v, want NotFound", err)
	}
	for c := range 8 {
		if g, err := goldOf(t, s2, fmt.Sprint("ch", c), "Mira"); err != nil || g != 24 {
			t.Errorf("ch%d: %v gold, %v; want 24", c, g, err)
		}
	}
	for i := 1; i <= late; i++ {
		if g, err := goldOf(t, s2, "late", fmt.Sprint("card", i)); err != nil || g != float64(i) {
			t.Errorf("late card%d: %v gold, %v; want %d", i, g, err, i)
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

// TestViewBeginsAgainAfterApply: when bbolt takes batches newer than a View's list of
// journalled ones before the View's read transaction begins, the View begins again: it
// never reads the newer batch's keys from bbolt beside the older batch's from the list.
func TestViewBeginsAgainAfterApply(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "j.db"))
	defer s.Close()
	set := func(g float64, names ...string) {
		t.Helper()
		must(t, s.Update(context.Background(), func(tx storage.Tx) error {
			for _, n := range names {
				if err := tx.PutGameCard("ch", storagetest.Card("u1", n, g)); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	hold := make(chan struct{})
	s.beforeApply = func() error { <-hold; return nil } // bbolt takes nothing before the View's list
	set(1, "A", "B")                                    // journalled, in the View's list
	once := false
	s.beforeBegin = func() {
		if !once {
			once = true
			close(hold)
			set(2, "A", "B", "C") // journalled after the list was taken…
			must(t, s.caughtUp()) // …and taken by bbolt before the View begins
		}
	}
	err := s.View(context.Background(), func(tx storage.Tx) error {
		cards, err := tx.GameCards("ch")
		if err != nil {
			return err
		}
		for _, c := range cards {
			if storagetest.Gold(c) != 2 {
				return fmt.Errorf("%s has %v gold beside C's 2: a View of two moments", c.Card.Name, storagetest.Gold(c))
			}
		}
		if len(cards) != 3 {
			return fmt.Errorf("%d cards, want A, B and C", len(cards))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !once {
		t.Fatal("the View never began")
	}
}

// TestJournalAbandon: a record whose sync failed, left where it was written when the
// store closes, is unwritten: the next open does not find it.
func TestJournalAbandon(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	j, _, err := openJournal(path, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	w := []write{{bucket: bucketGame, key: []byte("k"), value: []byte("v")}}
	if _, err := j.write(w, func(uint64) error { return nil }); err != nil {
		t.Fatal(err)
	}
	j.failed, j.off, j.next = true, 0, 1 // as if the sync of record 1 had failed
	must(t, j.abandon())
	if recs := journalRecords(t, path, 0); len(recs) != 0 {
		t.Fatalf("after abandon the journal holds %d records, want none", len(recs))
	}
}
