package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sheetkeeper/schedule"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// The scheduled-rest tests drive a real bbolt file through the core, with a manual
// schedule clock: the GM plays /demo (Mira and Bram on Low Vell) in channel "table",
// spends, schedules a rest, and the test moves the clock with Core.Advance, reading what
// the core posted (an Outbox as Options.Post) and the cards as stored.

type schedTable struct {
	t     *testing.T
	path  string
	store storage.Store
	clock *schedule.ManualClock
	out   *Outbox
	core  *Core
	next  int
	obs   Observer // Options.Observe of every core opened
}

// newSchedTable opens a fresh database with a started core whose clock stands at start.
func newSchedTable(t *testing.T, start time.Time) *schedTable {
	t.Helper()
	m := &schedTable{t: t, path: filepath.Join(t.TempDir(), "sheetkeeper.db")}
	m.open(start)
	return m
}

// open opens the database and starts a core on it, its clock at now.
func (m *schedTable) open(now time.Time) {
	m.t.Helper()
	st, err := bolt.Open(m.path, bolt.Options{})
	if err != nil {
		m.t.Fatal(err)
	}
	m.store, m.clock, m.out = st, schedule.NewManualClock(now), &Outbox{}
	m.core = New(st, Options{Clock: m.clock, Post: m.out.Post, Observe: m.obs})
	if err := m.core.Start(context.Background()); err != nil {
		m.t.Fatal(err)
	}
	m.t.Cleanup(m.close)
}

// close stops the core, then closes the store: the order a front end must keep.
func (m *schedTable) close() {
	if m.core == nil {
		return
	}
	m.core.Close()
	m.store.Close()
	m.core = nil
}

// restart is the bot going down and coming back at now on the same file.
func (m *schedTable) restart(now time.Time) {
	m.t.Helper()
	m.close()
	m.open(now)
}

func (m *schedTable) cmd(u User, name string, opts ...string) Response {
	m.t.Helper()
	cmd := Command{Name: name, User: u, ChannelID: "table"}
	for i := 0; i+1 < len(opts); i += 2 {
		cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
	}
	return m.core.OnCommand(context.Background(), cmd)
}

// demo sets up the demo game: gm is the GM of Mira and Bram.
func (m *schedTable) demo() {
	m.t.Helper()
	if r := m.cmd(gmUser, "demo"); r.Ephemeral {
		m.t.Fatalf("/demo: %s", r.Content)
	}
}

// gmSays posts a GM message and returns its id.
func (m *schedTable) gmSays(text string) string {
	m.t.Helper()
	m.next++
	id := fmt.Sprintf("m%d", m.next)
	acts := m.core.OnMessage(context.Background(), Message{ChannelID: "table", ID: id, Author: gmUser, Content: text})
	if len(acts) != 1 || strings.Contains(acts[0].Content, "refused") {
		m.t.Fatalf("GM message %q: %+v", text, acts)
	}
	return id
}

// schedule adds a schedule with /schedule rest and returns its id.
func (m *schedTable) schedule(opts ...string) string {
	m.t.Helper()
	r := m.cmd(gmUser, "schedule rest", opts...)
	if r.Ephemeral {
		m.t.Fatalf("/schedule rest %q: %s", opts, r.Content)
	}
	_, id, ok := strings.Cut(r.Content, "Its id is `")
	if !ok {
		m.t.Fatalf("/schedule rest: no id in %q", r.Content)
	}
	id, _, _ = strings.Cut(id, "`")
	return id
}

// advance moves the clock to t and returns what the core posted meanwhile.
func (m *schedTable) advance(t time.Time) []Action {
	m.t.Helper()
	if err := m.core.Advance(context.Background(), t); err != nil {
		m.t.Fatal(err)
	}
	return m.out.Take()
}

// card reads a game card as stored.
func (m *schedTable) card(name string) *sheet.Card {
	m.t.Helper()
	var c *sheet.Card
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		r, err := gameCard(tx, "table", name)
		if err != nil {
			return err
		}
		c = r.Card
		return nil
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return c
}

// pool is a pool of a stored game card as "value/max".
func (m *schedTable) pool(card, key string) string {
	m.t.Helper()
	c := m.card(card)
	p := sheet.Evaluate(builtinRules(m.t, "low-vell").Ruleset, c, nil).Live.Pool(key)
	if p == nil {
		m.t.Fatalf("%s has no pool %s", card, key)
	}
	return sheet.PoolNow(p, p.Value, p.Temp)
}

// replies are the channel's replies, oldest first.
func (m *schedTable) replies() []*storage.Reply {
	m.t.Helper()
	var out []*storage.Reply
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		out, err = tx.Replies("table", 0, 0)
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return out
}

func (m *schedTable) stored(id string) *storage.Schedule {
	m.t.Helper()
	var s *storage.Schedule
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		s, err = tx.Schedule(id)
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return s
}

// contents are the actions' texts.
func contents(acts []Action) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.Content
	}
	return out
}

func wantPosts(t *testing.T, what string, got []Action, want ...string) {
	t.Helper()
	g := contents(got)
	if len(g) != len(want) {
		t.Fatalf("%s: %d posts, want %d:\n%s", what, len(g), len(want), strings.Join(g, "\n---\n"))
	}
	for i := range want {
		if g[i] != want[i] {
			t.Errorf("%s, post %d:\n got %q\nwant %q", what, i+1, g[i], want[i])
		}
	}
}

func (m *schedTable) wantPool(card, key, want string) {
	m.t.Helper()
	if got := m.pool(card, key); got != want {
		m.t.Errorf("%s %s = %s, want %s", card, key, got, want)
	}
}

// TestDailyRestFiresAtLocalTime: a rest at 06:00 Europe/Berlin fires at 04:00Z in
// summer time, through the GM's rest path (the write-back and the per-character
// summary), claimed and recorded as a reply of the scheduler in one transaction.
func TestDailyRestFiresAtLocalTime(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.gmSays(`The eel bites. [sheet: who="Mira" op="damage" pool="breath" amount="5"] [sheet: who="Mira" op="spend" pool="spark" amount="2"] [sheet: who="Bram" op="spend" pool="breath" amount="2"]`)
	id := m.schedule("rest", "Moor until dawn", "cron", "0 6 * * *", "tz", "Europe/Berlin")

	wantPosts(t, "05:59 in Berlin", m.advance(time.Date(2026, 4, 3, 3, 59, 0, 0, time.UTC)))
	m.wantPool("Mira", "breath", "5/10")
	m.wantPool("Mira", "spark", "1/3")
	m.wantPool("Bram", "breath", "7/9")

	at := time.Date(2026, 4, 3, 4, 0, 0, 0, time.UTC)
	acts := m.advance(at)
	wantPosts(t, "06:00 in Berlin", acts, "⏰ Scheduled rest \"Moor until dawn\" for the party, 06:00 (Europe/Berlin):\n"+
		`[sheet: who="party" op="rest" rest="mooring" result="ok" now="Bram Moor until dawn: Breath 9/9; Mira Moor until dawn: Breath 10/10, Spark charges 3/3"]`)
	if a := acts[0]; a.Kind != Post || a.ChannelID != "table" || a.MessageID != "" || a.ReplySeq != 2 || len(a.Embeds) != 2 ||
		a.Embeds[1].Title != "Mira" || a.Embeds[1].Description != "✓ rest mooring → Moor until dawn: Breath 10/10, Spark charges 3/3" ||
		a.Embeds[1].Fields[0].Value != "Breath 10/10 · Spark charges 3/3" {
		t.Errorf("post %+v", a)
	}
	m.wantPool("Mira", "breath", "10/10")
	m.wantPool("Mira", "spark", "3/3")
	m.wantPool("Bram", "breath", "9/9")

	// The reply of the scheduler, under the firing's id, and the claim, committed together.
	rs := m.replies()
	if len(rs) != 2 {
		t.Fatalf("%d replies, want the GM's and the scheduler's", len(rs))
	}
	r := rs[1]
	if r.Seq != 2 || r.Source != "schedule:"+id || r.MessageID != schedule.FiringID(id, at) || r.MessageID != fmt.Sprintf("schedule:%s:%d", id, at.Unix()) ||
		r.Status != storage.ReplyLive || r.AuthorID != "gm" || r.Text != `[sheet: who="party" op="rest" rest="mooring"]` ||
		!r.CreatedAt.Equal(at) || len(r.Changes) != 3 {
		t.Errorf("reply %+v", r)
	}
	if s := m.stored(id); !s.LastRun.Equal(at) {
		t.Errorf("last run %v, want %v", s.LastRun, at)
	}
	// The front end reports its post's id, as for a GM's reply.
	if err := m.core.RecordPost(context.Background(), "table", acts[0].ReplySeq, []string{"p1"}); err != nil {
		t.Fatal(err)
	}

	// The next morning, again: one firing per day.
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="4"]`)
	acts = m.advance(time.Date(2026, 4, 4, 12, 0, 0, 0, time.UTC))
	if len(acts) != 1 || !strings.Contains(acts[0].Content, "Breath 9/9") {
		t.Fatalf("second morning: %q", contents(acts))
	}
	m.wantPool("Bram", "breath", "9/9")
	if n := len(m.replies()); n != 4 {
		t.Errorf("%d replies, want 4", n)
	}
}

// TestSpringForwardGap: a 02:30 rest in Europe/Berlin does not run on 29 March 2026,
// when the clocks jump from 02:00 to 03:00 — nothing is applied that night — and the
// next night's post says so.
func TestSpringForwardGap(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 3, 27, 12, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "mooring", "cron", "30 2 * * *", "tz", "Europe/Berlin", "who", "Mira")

	m.gmSays(`[sheet: who="Mira" op="damage" pool="breath" amount="1"]`) // a rest that changes something posts
	acts := m.advance(time.Date(2026, 3, 28, 1, 30, 0, 0, time.UTC))     // 02:30 CET
	wantPosts(t, "28 March", acts, "⏰ Scheduled rest \"Moor until dawn\" for Mira, 02:30 (Europe/Berlin):\n"+
		`[sheet: who="Mira" op="rest" rest="mooring" result="ok" now="Moor until dawn: Breath 10/10"]`)

	m.gmSays(`[sheet: who="Mira" op="damage" pool="breath" amount="4"]`)
	wantPosts(t, "the night of the jump", m.advance(time.Date(2026, 3, 29, 12, 0, 0, 0, time.UTC)))
	m.wantPool("Mira", "breath", "6/10")
	if n := len(m.replies()); n != 3 {
		t.Errorf("%d replies after the night of the jump, want 3", n)
	}

	acts = m.advance(time.Date(2026, 3, 30, 0, 30, 0, 0, time.UTC)) // 02:30 CEST
	wantPosts(t, "30 March", acts, "⏰ Scheduled rest \"Moor until dawn\" for Mira, 02:30 (Europe/Berlin):\n"+
		"(The rest of 02:30 on Sun 29 Mar 2026 did not run: the clocks went forward over that time, which did not exist that night, and nothing was applied.)\n"+
		`[sheet: who="Mira" op="rest" rest="mooring" result="ok" now="Moor until dawn: Breath 10/10"]`)
	m.wantPool("Mira", "breath", "10/10")
}

// TestScheduleSurvivesRestart: a schedule is stored, so a new core on the same file
// fires it.
func TestScheduleSurvivesRestart(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	id := m.schedule("rest", "breather", "cron", "@hourly", "who", "Bram")
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="4"]`)

	m.restart(time.Date(2026, 4, 2, 18, 30, 0, 0, time.UTC))
	wantPosts(t, "restart", m.out.Take())
	if got := m.cmd(ana, "schedule list").Content; !strings.Contains(got, "`"+id+"` rest \"Catch your breath\" for Bram at `@hourly` (UTC): next Thu 2 Apr 2026 19:00 UTC") {
		t.Errorf("list after restart: %q", got)
	}
	acts := m.advance(time.Date(2026, 4, 2, 19, 0, 0, 0, time.UTC))
	wantPosts(t, "19:00", acts, "⏰ Scheduled rest \"Catch your breath\" for Bram, 19:00 (UTC):\n"+
		`[sheet: who="Bram" op="rest" rest="breather" result="ok" now="Catch your breath: Breath 8/9"]`)
	m.wantPool("Bram", "breath", "8/9")
}

// TestMissedFiringReportedOnce: firings that fell while the bot was down are reported
// once, in the schedule's zone, and never applied — not at start, not later.
func TestMissedFiringReportedOnce(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "mooring", "cron", "0 6 * * *", "tz", "Europe/Berlin")
	m.gmSays(`[sheet: who="Mira" op="damage" pool="breath" amount="5"]`)

	// Down from Thursday evening to Sunday noon: three mornings missed.
	m.restart(time.Date(2026, 4, 5, 12, 0, 0, 0, time.UTC))
	wantPosts(t, "back on Sunday", m.out.Take(),
		"⏰ The 06:00 rest \"Moor until dawn\" did not run 3 times while I was offline (Fri 3 Apr 2026 to Sun 5 Apr 2026, Europe/Berlin). None was applied late: /rest gives it now if the party should have it.")
	m.wantPool("Mira", "breath", "5/10")
	if n := len(m.replies()); n != 1 {
		t.Errorf("%d replies, want only the GM's", n)
	}
	// Reported once: the next start says nothing of them, and moving on applies none.
	m.restart(time.Date(2026, 4, 5, 13, 0, 0, 0, time.UTC))
	wantPosts(t, "second start", m.out.Take())
	acts := m.advance(time.Date(2026, 4, 6, 3, 0, 0, 0, time.UTC))
	wantPosts(t, "Sunday night", acts)
	m.wantPool("Mira", "breath", "5/10")

	// Monday's runs as scheduled.
	acts = m.advance(time.Date(2026, 4, 6, 4, 0, 0, 0, time.UTC))
	if len(acts) != 1 || !strings.Contains(acts[0].Content, "Breath 10/10") {
		t.Fatalf("Monday: %q", contents(acts))
	}
	m.wantPool("Mira", "breath", "10/10")

	// One missed morning says when, without a count.
	m.restart(time.Date(2026, 4, 7, 5, 0, 0, 0, time.UTC))
	wantPosts(t, "back on Tuesday", m.out.Take(),
		"⏰ The 06:00 rest \"Moor until dawn\" did not run while I was offline (Tue 7 Apr 2026, Europe/Berlin). It was not applied late: /rest gives it now if the party should have it.")
	if n := len(m.replies()); n != 2 {
		t.Errorf("%d replies, want the GM's and Monday's", n)
	}
}

// TestOverlappingFiringsRunOnce: one firing delivered twice at once — two cores on one
// database (two processes, or a retry), or Fire called again while it runs — applies
// once: the claim commits with the rest.
func TestOverlappingFiringsRunOnce(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	id := m.schedule("rest", "breather", "cron", "0 6 * * *", "who", "Bram")
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="6"]`)

	// A second core on the same store, started on its own clock.
	clock2, out2 := schedule.NewManualClock(m.clock.Now()), &Outbox{}
	core2 := New(m.store, Options{Clock: clock2, Post: out2.Post})
	if err := core2.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer core2.Close()
	at := time.Date(2026, 4, 3, 6, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for _, c := range []*Core{m.core, core2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Advance(context.Background(), at); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if posts := append(m.out.Take(), out2.Take()...); len(posts) != 1 {
		t.Fatalf("%d posts, want 1: %q", len(posts), contents(posts))
	}
	m.wantPool("Bram", "breath", "6/9") // 3/9, then a quarter of 9 rounded up, once

	// The same firing again, eight times at once: nothing more.
	s := m.stored(id)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := m.core.Fire(context.Background(), *s, at); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	wantPosts(t, "the firing again", m.out.Take())
	m.wantPool("Bram", "breath", "6/9")
	if n := len(m.replies()); n != 2 {
		t.Errorf("%d replies, want 2", n)
	}
}

// panicStore panics in Update while armed: a firing that panics half-way.
type panicStore struct {
	storage.Store
	armed atomic.Bool
}

func (p *panicStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if p.armed.CompareAndSwap(true, false) {
		panic("disk on fire")
	}
	return p.Store.Update(ctx, fn)
}

// TestPanickingFiringKeepsSchedule: a firing that panics — inside its transaction, or
// in the front end's Post after the commit — is recovered, and the schedule fires the
// next day as always.
func TestPanickingFiringKeepsSchedule(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "breather", "cron", "0 6 * * *", "who", "Bram")
	m.close()

	st, err := bolt.Open(m.path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ps := &panicStore{Store: st}
	clock := schedule.NewManualClock(time.Date(2026, 4, 2, 19, 0, 0, 0, time.UTC))
	var posts []string
	var panicPost atomic.Bool
	core := New(ps, Options{Clock: clock, Post: func(_ context.Context, a Action) {
		if panicPost.CompareAndSwap(true, false) {
			panic("front end on fire")
		}
		posts = append(posts, a.Content)
	}})
	if err := core.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	m.store, m.core = ps, core
	defer func() { m.core = nil }()
	m.gmSays(`[sheet: who="Bram" op="spend" pool="breath" amount="6"]`)

	// Friday: the transaction panics. Nothing is applied, nothing posted.
	ps.armed.Store(true)
	if err := core.Advance(context.Background(), time.Date(2026, 4, 3, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if len(posts) != 0 || ps.armed.Load() {
		t.Fatalf("Friday: posts %q, armed %v", posts, ps.armed.Load())
	}
	m.wantPool("Bram", "breath", "3/9")

	// Saturday: applied, then the front end panics on the post.
	panicPost.Store(true)
	if err := core.Advance(context.Background(), time.Date(2026, 4, 4, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if len(posts) != 0 || panicPost.Load() {
		t.Fatalf("Saturday: posts %q", posts)
	}
	m.wantPool("Bram", "breath", "6/9")

	// Sunday: as always.
	if err := core.Advance(context.Background(), time.Date(2026, 4, 5, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if len(posts) != 1 || !strings.Contains(posts[0], "Breath 9/9") {
		t.Fatalf("Sunday: posts %q", posts)
	}
	m.wantPool("Bram", "breath", "9/9")
}

// TestFiredRestIsALaterReply: a fired rest is a live reply of the scheduler. It cannot be
// edited or deleted (it has no message), and GM messages before it are earlier replies
// from then on: an edit applies nothing and says so, a delete waits.
func TestFiredRestIsALaterReply(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.schedule("rest", "breather", "cron", "0 6 * * *")
	soaked := m.gmSays(`The canal rises. [sheet: who="Mira" op="condition" condition="soaked"] [sheet: who="Mira" op="spend" pool="breath" amount="1"]`)
	if acts := m.advance(time.Date(2026, 4, 3, 6, 0, 0, 0, time.UTC)); len(acts) != 1 {
		t.Fatalf("rest: %q", contents(acts))
	}

	acts := m.core.OnEdit(context.Background(), Message{ChannelID: "table", ID: soaked, Author: gmUser, Content: `The canal rises. [sheet: who="Bram" op="condition" condition="soaked"]`})
	wantPosts(t, "edit before the rest", acts, earlierEdit)
	if acts := m.core.OnDelete(context.Background(), Deletion{ChannelID: "table", ID: soaked}); len(acts) != 0 {
		t.Errorf("delete before the rest: %q", contents(acts))
	}
	if !slices.Contains(m.card("Mira").Live.Conditions, "soaked") {
		t.Errorf("Mira's soaked was undone under a later reply")
	}
	rs := m.replies()
	if len(rs) != 2 || rs[0].Status != storage.ReplyDeleted || rs[1].Status != storage.ReplyLive {
		t.Errorf("replies %+v", rs)
	}
}

// TestFireInternalError: a firing the store cannot take is logged, returned to the
// scheduler, and the channel is told in plain words that nothing was applied.
func TestFireInternalError(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	s := *m.stored(m.schedule("rest", "breather", "cron", "0 6 * * *", "tz", "Europe/Berlin"))
	m.store.Close()
	if err := m.core.Fire(context.Background(), s, time.Date(2026, 4, 3, 4, 0, 0, 0, time.UTC)); storage.KindOf(err) != storage.Closed {
		t.Fatalf("a closed store: %v, want a database closed error", err)
	}
	wantPosts(t, "closed store", m.out.Take(), "Internal error: the rest scheduled at 06:00 (Europe/Berlin) was not applied.")
}
