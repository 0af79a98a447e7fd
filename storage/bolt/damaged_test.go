package bolt

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// damageFixture writes a sheetkeeper database big enough to have branch pages (cards of
// 8 channels, 300 replies) and returns its path and bytes.
func damageFixture(t *testing.T) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(context.Background(), func(tx storage.Tx) error {
		for i := range 8 {
			if err := tx.PutGameCard(fmt.Sprint("ch", i), benchCard("Mira")); err != nil {
				return err
			}
		}
		return nil
	})
	must(t, err)
	for i := range 300 {
		must(t, s.Update(context.Background(), func(tx storage.Tx) error { return applyReply(tx, fmt.Sprint("ch", i%8)) }))
		must(t, s.(*store).caughtUp()) // one bbolt commit each, as the damage done to it assumes
	}
	must(t, s.Close())
	b, err := os.ReadFile(path)
	must(t, err)
	return path, b
}

// pagesOf lists the in-use pages of the database at path by bbolt's page type, and the
// meta fields the table needs: page size and high water mark.
func pagesOf(t *testing.T, path string) (types map[string][]int, pageSize int, hwm int) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true, Timeout: time.Second})
	must(t, err)
	defer db.Close()
	types = map[string][]int{}
	must(t, db.View(func(btx *bolt.Tx) error {
		hwm = int(btx.Size()) / db.Info().PageSize
		for id := 2; id < hwm; id++ {
			info, err := btx.Page(id)
			if err != nil || info == nil {
				continue
			}
			types[info.Type] = append(types[info.Type], id)
			id += info.OverflowCount
		}
		return nil
	}))
	return types, db.Info().PageSize, hwm
}

// TestDamagedDatabase is the damaged-database table: each file is refused with an error
// of the kind it names, the process does not crash (a panic in bbolt's own goroutine, or
// a fault reading its memory map, would end the test binary), and the file is left
// byte for byte as it was.
func TestDamagedDatabase(t *testing.T) {
	_, good := damageFixture(t)
	dir := t.TempDir()
	goodPath := filepath.Join(dir, "good.db")
	must(t, os.WriteFile(goodPath, good, 0o600))
	types, ps, hwm := pagesOf(t, goodPath)
	if len(types["branch"]) == 0 || len(types["leaf"]) < 2 {
		t.Fatalf("fixture too small: %v", types)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	overwrite := func(pages ...int) func([]byte) []byte {
		return func(b []byte) []byte {
			for _, p := range pages {
				copy(b[p*ps:], noise(ps))
			}
			return b
		}
	}
	cut := func(n int) func([]byte) []byte { return func(b []byte) []byte { return b[:n] } }
	lastLeaf := types["leaf"][len(types["leaf"])-1]
	cases := []struct {
		name   string
		damage func([]byte) []byte
		want   storage.Kind
	}{
		{"truncated to 30 bytes", cut(30), storage.Damaged},
		{"truncated to 100 bytes", cut(100), storage.Damaged},
		{"truncated inside meta page 1", cut(ps + ps/2), storage.Damaged},
		{"truncated after the meta pages", cut(2 * ps), storage.Damaged},
		{"truncated to half", cut(hwm * ps / 2), storage.Damaged},
		{"truncated by one byte", cut(hwm*ps - 1), storage.Damaged},
		{"random bytes over both meta pages", overwrite(0, 1), storage.Damaged},
		{"random bytes over a branch page", overwrite(types["branch"][0]), storage.Damaged},
		{"random bytes over a leaf page", overwrite(types["leaf"][0]), storage.Damaged},
		{"random bytes over the last leaf page", overwrite(lastLeaf), storage.Damaged},
		{"zeros over a leaf page", func(b []byte) []byte { clear(b[lastLeaf*ps : (lastLeaf+1)*ps]); return b }, storage.Damaged},
		{"meta pages naming a root past the file", func(b []byte) []byte {
			for _, m := range []int{0, ps} {
				le.PutUint64(b[m+pageHeaderSize+16:], uint64(hwm+1000))
				resum(b[m:])
			}
			return b
		}, storage.Damaged},
		{"a branch entry naming a page past the file", func(b []byte) []byte {
			at := types["branch"][0]*ps + pageHeaderSize + 8 // the first entry's child
			le.PutUint64(b[at:], 1<<40)
			return b
		}, storage.Damaged},
		{"another program's bbolt file", func([]byte) []byte { return foreignBolt(t) }, storage.Foreign},
		{"random bytes", func([]byte) []byte { return noise(5 * ps) }, storage.Foreign},
		{"a text file", func([]byte) []byte { return []byte(strings.Repeat("not a database\n", 1000)) }, storage.Foreign},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sheetkeeper.db")
			before := c.damage(bytes.Clone(good))
			must(t, os.WriteFile(path, before, 0o600))
			s, err := Open(path, Options{Timeout: time.Second})
			if err == nil {
				s.Close()
				t.Fatal("opened")
			}
			if k := storage.KindOf(err); k != c.want {
				t.Fatalf("kind %v, want %v: %v", k, c.want, err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error does not name the file: %v", err)
			}
			if c.want == storage.Damaged && !strings.Contains(err.Error(), "sheetkeeper db salvage") {
				t.Errorf("error does not say what to do: %v", err)
			}
			rep, cerr := Check(path, Options{Timeout: time.Second})
			if cerr == nil && !rep.Damaged() && c.want == storage.Damaged {
				t.Errorf("Check finds nothing wrong")
			}
			after, rerr := os.ReadFile(path)
			must(t, rerr)
			if !bytes.Equal(before, after) {
				t.Fatal("the file changed")
			}
		})
	}
}

// resum recomputes the checksum of the meta page at b (as bbolt writes it).
func resum(b []byte) {
	m := b[pageHeaderSize:]
	h := fnv.New64a()
	h.Write(m[:56])
	le.PutUint64(m[56:], h.Sum64())
}

// foreignBolt is another program's database: bbolt's defaults (a synced freelist), its
// own buckets.
func foreignBolt(t *testing.T) []byte {
	path := filepath.Join(t.TempDir(), "other.db")
	rawWrite(t, path, func(btx *bolt.Tx) error {
		b, err := btx.CreateBucket([]byte("widgets"))
		if err != nil {
			return err
		}
		for i := range 500 {
			if err := b.Put(fmt.Appendf(nil, "w%04d", i), bytes.Repeat([]byte("x"), 100)); err != nil {
				return err
			}
		}
		return nil
	})
	b, err := os.ReadFile(path)
	must(t, err)
	return b
}

// TestTornMetaPageOpens: one meta page unreadable is what a crash during a commit can
// leave, and bbolt's answer, the other meta page, stands: Check notes it without
// calling it damage, and that the journal holds the batch the torn commit took, and the
// database opens with everything in it, that batch replayed.
func TestTornMetaPageOpens(t *testing.T) {
	path, good := damageFixture(t)
	ps := int(le.Uint32(good[pageHeaderSize+8:]))
	m0, _, _ := parseMeta(good)
	m1, _, _ := parseMeta(good[ps:])
	newest := 0
	if m1.txn > m0.txn {
		newest = ps
	}
	copy(good[newest+pageHeaderSize:], bytes.Repeat([]byte{0xAB}, metaSize))
	must(t, os.WriteFile(path, good, 0o600))
	rep, err := Check(path, Options{})
	if err != nil || rep.Damaged() || len(rep.Notes) != 2 || !strings.Contains(rep.Notes[1], "holds 1 batch the file does not") {
		t.Fatalf("Check: %v, %+v", err, rep)
	}
	s, err := Open(path, Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	must(t, s.View(context.Background(), func(tx storage.Tx) error {
		cards, err := tx.GameCards("ch3")
		if err == nil && len(cards) != 1 {
			err = fmt.Errorf("%d cards", len(cards))
		}
		var replies []*storage.Reply
		if err == nil {
			replies, err = tx.Replies("ch3", 0, 0)
		}
		if err == nil && len(replies) != 38 { // the last reply, i = 299, is ch3's
			err = fmt.Errorf("ch3 has %d replies, want 38", len(replies))
		}
		return err
	}))
}

// records reads every record of a (healthy) bbolt file: bucket → key → value.
func records(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	must(t, err)
	defer db.Close()
	all := map[string]map[string]string{}
	must(t, db.View(func(btx *bolt.Tx) error {
		return btx.ForEach(func(name []byte, b *bolt.Bucket) error {
			m := map[string]string{}
			all[string(name)] = m
			return b.ForEach(func(k, v []byte) error { m[string(k)] = string(v); return nil })
		})
	}))
	return all
}

// TestSalvage: a copy with a leaf page overwritten, and one with its end cut off as
// well, are salvaged into new files that sheetkeeper opens. Every record copied is one
// the database held, byte for byte (with the end cut off, the newest transaction's root
// page is gone and salvage reads the transaction before: its records, or the newest
// ones' where those pages stand); the report counts what each bucket kept and names the
// lost pages; the damaged file is unchanged.
func TestSalvage(t *testing.T) {
	path, _ := damageFixture(t)
	types, ps, _ := pagesOf(t, path) // the pages of the transaction before the last
	before := records(t, path)
	s, err := Open(path, Options{Timeout: time.Second})
	must(t, err)
	must(t, s.Update(context.Background(), func(tx storage.Tx) error { return applyReply(tx, "ch3") }))
	must(t, s.(*store).caughtUp())
	must(t, s.Close())
	last := records(t, path)
	good, err := os.ReadFile(path)
	must(t, err)
	now, _, hwm := pagesOf(t, path)
	// The leaf overwritten is one both trees use, whichever pages the last commit wrote
	// anew (that turns on how the fixture's commits were grouped, which timing decides):
	// a leaf the newest tree no longer used left nothing to salvage.
	var both []int
	for _, id := range types["leaf"] {
		if slices.Contains(now["leaf"], id) {
			both = append(both, id)
		}
	}
	if len(both) < 2 {
		t.Fatalf("the two trees share %d leaves: %v, %v", len(both), types["leaf"], now["leaf"])
	}

	for _, cutEnd := range []bool{false, true} {
		t.Run(fmt.Sprint("cut end ", cutEnd), func(t *testing.T) {
			bad := bytes.Clone(good)
			copy(bad[both[1]*ps:], bytes.Repeat([]byte{0x5A}, ps))
			if cutEnd {
				bad = bad[:(hwm-1)*ps]
			}
			damagedPath := filepath.Join(t.TempDir(), "damaged.db")
			must(t, os.WriteFile(damagedPath, bad, 0o600))
			dest := filepath.Join(t.TempDir(), "salvaged.db")
			rep, err := Salvage(damagedPath, dest, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Damaged() || rep.Schema != SchemaVersion {
				t.Fatalf("report: %+v", rep)
			}
			checkSalvaged(t, rep, records(t, dest), before, last)
			if after, _ := os.ReadFile(damagedPath); !bytes.Equal(after, bad) {
				t.Fatal("salvage changed the damaged file")
			}
			s, err := Open(dest, Options{Timeout: time.Second})
			if err != nil {
				t.Fatalf("the salvaged copy does not open: %v", err)
			}
			s.Close()
			if _, err := Salvage(damagedPath, dest, Options{}); err == nil {
				t.Fatal("salvaged over an existing file")
			}
		})
	}
}

// checkSalvaged: the copy is one tree's readable records: every record in got is
// byte for byte the tree's the report says it took (the older meta page's: before;
// else the newest: last), some of that tree's are lost, and the report's counts are
// got's.
func checkSalvaged(t *testing.T, rep *Report, got, before, last map[string]map[string]string) {
	t.Helper()
	from, tree := last, "the newest tree"
	if slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "salvaged from it") }) {
		from, tree = before, "the older tree"
	}
	lost := 0
	for bucket, m := range from {
		for k := range m {
			if _, ok := got[bucket][k]; !ok {
				lost++
			}
		}
	}
	for bucket, m := range got {
		for k, v := range m {
			if w, ok := from[bucket][k]; !ok || w != v {
				t.Fatalf("bucket %s key %q: not %s's record", bucket, k, tree)
			}
		}
	}
	copied := 0
	for _, b := range rep.Buckets {
		copied += b.Records
		if name := strings.Trim(b.Name, `"`); b.Records != len(got[name]) {
			t.Errorf("report says %s kept %d, the copy holds %d", b.Name, b.Records, len(got[name]))
		}
	}
	if lost == 0 || copied == 0 {
		t.Fatalf("lost %d, copied %d: %+v", lost, copied, rep)
	}
}

// TestSalvageHealthyKeepsDeletes: a healthy file whose last transaction deleted half a
// bucket is copied as its newest transaction left it, though the older meta page's
// tree holds more records: deleted records do not come back.
func TestSalvageHealthyKeepsDeletes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	name := []byte("widgets")
	rawWrite(t, path, func(btx *bolt.Tx) error {
		b, err := btx.CreateBucket(name)
		for i := 0; err == nil && i < 100; i++ {
			err = b.Put(fmt.Appendf(nil, "w%03d", i), []byte("x"))
		}
		return err
	})
	rawWrite(t, path, func(btx *bolt.Tx) error {
		b, err := btx.Bucket(name), error(nil)
		for i := 0; err == nil && i < 100; i += 2 {
			err = b.Delete(fmt.Appendf(nil, "w%03d", i))
		}
		return err
	})
	want := records(t, path)
	dest := filepath.Join(t.TempDir(), "salvaged.db")
	rep, err := Salvage(path, dest, Options{})
	if err != nil || rep.Damaged() {
		t.Fatalf("Salvage: %v, %+v", err, rep)
	}
	if got := records(t, dest); len(got["widgets"]) != 50 || !maps.Equal(got["widgets"], want["widgets"]) {
		t.Fatalf("copied %d records, want the newest tree's 50", len(got["widgets"]))
	}
}

// TestSchemaBuckets: schemaBuckets(v) is the buckets the migrations make up to schema
// v, for every v it answers.
func TestSchemaBuckets(t *testing.T) {
	for v := uint64(3); v <= SchemaVersion; v++ {
		path := filepath.Join(t.TempDir(), "sheetkeeper.db")
		var made []string
		rawWrite(t, path, func(btx *bolt.Tx) error {
			for _, m := range migrations[:v] {
				if err := m(btx); err != nil {
					return err
				}
			}
			return btx.ForEach(func(name []byte, _ *bolt.Bucket) error { made = append(made, string(name)); return nil })
		})
		var want []string
		for _, name := range schemaBuckets(v) {
			want = append(want, string(name))
		}
		slices.Sort(want)
		if !slices.Equal(made, want) {
			t.Errorf("schema %d: schemaBuckets says %q, the migrations make %q", v, want, made)
		}
	}
}

// TestSalvageOlderSchema: a schema 4 file that lost a bucket whole is salvaged into a
// copy with that bucket made again, and the copy opens (migrating to SchemaVersion).
func TestSalvageOlderSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	rawWrite(t, path, func(btx *bolt.Tx) error {
		for _, m := range migrations[:4] {
			if err := m(btx); err != nil {
				return err
			}
		}
		if err := btx.Bucket(bucketMeta).Put(keySchema, be64(4)); err != nil {
			return err
		}
		return btx.DeleteBucket(bucketLibrary)
	})
	dest := filepath.Join(t.TempDir(), "salvaged.db")
	rep, err := Salvage(path, dest, Options{})
	if err != nil || rep.Schema != 4 {
		t.Fatalf("Salvage: %v, %+v", err, rep)
	}
	s, err := Open(dest, Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("the salvaged copy does not open: %v", err)
	}
	must(t, s.Close())
}

// TestRandomDamage: a few hundred copies of the fixture, each with a random run of
// bytes changed somewhere in its pages (half of them near a page's start), are each refused (Damaged or Foreign) or opened
// and read whole, record by record, through bbolt: the process never crashes.
func TestRandomDamage(t *testing.T) {
	_, good := damageFixture(t)
	rng := rand.New(rand.NewPCG(3, 4))
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	trials := 300
	if testing.Short() {
		trials = 50
	}
	opened := 0
	for range trials {
		b := bytes.Clone(good)
		at, n := rng.IntN(len(b)), 1+rng.IntN(64)
		if rng.IntN(2) == 0 { // a page's header and first entries, where damage is felt
			at = rng.IntN(len(b)/4096)*4096 + rng.IntN(256)
		}
		for i := at; i < min(at+n, len(b)); i++ {
			b[i] = byte(rng.Uint32())
		}
		must(t, os.WriteFile(path, b, 0o600))
		s, err := Open(path, Options{Timeout: time.Second})
		if err != nil {
			if k := storage.KindOf(err); k != storage.Damaged && k != storage.Foreign {
				t.Fatalf("damage at %d+%d: kind %v: %v", at, n, k, err)
			}
			continue
		}
		opened++
		err = s.(*store).viewBolt(func(btx *bolt.Tx) error {
			return btx.ForEach(func(_ []byte, bk *bolt.Bucket) error {
				return bk.ForEach(func(k, v []byte) error { return nil })
			})
		})
		must(t, err)
		must(t, s.Close())
	}
	t.Logf("%d of %d damaged copies opened (the damage in free pages or record bytes)", opened, trials)
}

// FuzzSurvey: whatever the bytes, reading them as a database file returns (an error or
// a report) and never panics (survey recovers, and says so in its error).
func FuzzSurvey(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed.db")
	s, err := Open(path, Options{})
	if err != nil {
		f.Fatal(err)
	}
	s.Close()
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:5000])
	f.Add([]byte("not a database"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, older := range []bool{false, true} {
			err := survey(bytes.NewReader(b), int64(len(b)), &Report{}, older, nil, nil)
			if err != nil && strings.Contains(err.Error(), "unreadable (") {
				t.Fatalf("survey panicked: %v", err) // recovered, but a bug
			}
		}
	})
}

// TestCheckWhileHeld: Check waits for the process holding the database and then says
// Locked rather than read a file being written.
func TestCheckWhileHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	s, err := Open(path, Options{})
	must(t, err)
	defer s.Close()
	if _, err := Check(path, Options{Timeout: 100 * time.Millisecond}); storage.KindOf(err) != storage.Locked {
		t.Fatalf("Check of a held database: %v", err)
	}
}

// TestOverwrittenMetasAtLargerPageSize: a file bbolt wrote with 16 KiB pages (its page
// size on Apple Silicon) whose both meta pages are overwritten is a damaged database,
// not another program's file: its pages past the metas still name themselves.
func TestOverwrittenMetasAtLargerPageSize(t *testing.T) {
	const ps = 16384
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: ps, Timeout: time.Second})
	must(t, err)
	must(t, db.Update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		for i := range 200 {
			if err := b.Put(fmt.Appendf(nil, "k%04d", i), bytes.Repeat([]byte("v"), 100)); err != nil {
				return err
			}
		}
		return nil
	}))
	must(t, db.Close())
	b, err := os.ReadFile(path)
	must(t, err)
	if got := le.Uint32(b[pageHeaderSize+8:]); got != ps {
		t.Fatalf("page size %d, want %d", got, ps)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 2 * ps {
		b[i] = byte(rng.Uint32())
	}
	must(t, os.WriteFile(path, b, 0o600))
	s, err := Open(path, Options{Timeout: time.Second})
	if err == nil {
		s.Close()
		t.Fatal("opened")
	}
	if k := storage.KindOf(err); k != storage.Damaged {
		t.Fatalf("kind %v, want Damaged: %v", k, err)
	}
}
