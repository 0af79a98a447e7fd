package schedule_test

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"sheetkeeper/schedule"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// firing is one call of Fire or Missed the fake firer saw.
type firing struct {
	id      string
	at      time.Time
	applied bool // Claim said the firing was new, and the "rest" committed
}

// firer is the bot's side in miniature: Fire claims the firing in a transaction (the
// rest would be applied in the same one) and notes what it did.
type firer struct {
	store storage.Store
	// hook runs at the start of every Fire: tests block or panic in it.
	hook func(s storage.Schedule, at time.Time)

	mu     sync.Mutex
	fired  []firing
	missed []schedule.Missed
}

func (f *firer) Fire(ctx context.Context, s storage.Schedule, at time.Time) error {
	if f.hook != nil {
		f.hook(s, at)
	}
	var applied bool
	err := f.store.Update(ctx, func(tx storage.Tx) error {
		var err error
		applied, err = schedule.Claim(tx, s.ID, at)
		return err
	})
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fired = append(f.fired, firing{s.ID, at, applied})
	return nil
}

func (f *firer) Missed(_ context.Context, s storage.Schedule, m schedule.Missed) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.missed = append(f.missed, m)
	return nil
}

func (f *firer) firedAt() []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []time.Time
	for _, x := range f.fired {
		if !x.applied {
			continue
		}
		out = append(out, x.at)
	}
	return out
}

func (f *firer) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.fired)
}

func (f *firer) missedCalls() []schedule.Missed {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]schedule.Missed(nil), f.missed...)
}

// bot is one run of the bot: a database, a firer and a started scheduler on a manual
// clock.
type bot struct {
	store storage.Store
	firer *firer
	clock *schedule.ManualClock
	sched *schedule.Scheduler

	stopped bool
}

// start opens the database at path and starts a scheduler with the clock at now.
func start(t *testing.T, path string, now time.Time) *bot {
	t.Helper()
	st, err := bolt.Open(path, bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b := &bot{store: st, firer: &firer{store: st}, clock: schedule.NewManualClock(now)}
	b.sched = schedule.New(st, b.firer, schedule.WithClock(b.clock))
	if err := b.sched.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !b.stopped {
			b.stop(t)
		}
	})
	return b
}

func (b *bot) stop(t *testing.T) {
	t.Helper()
	b.sched.Stop()
	if err := b.store.Close(); err != nil {
		t.Fatal(err)
	}
	b.stopped = true
}

func (b *bot) add(t *testing.T, cron, tz string) storage.Schedule {
	t.Helper()
	s, err := b.sched.Add(context.Background(), storage.Schedule{
		ChannelID: "table", Rest: "long", Cron: cron, TimeZone: tz, Who: "party", CreatedBy: "gm",
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (b *bot) advance(t *testing.T, to string) {
	t.Helper()
	if err := b.sched.Advance(context.Background(), at(t, to)); err != nil {
		t.Fatal(err)
	}
}

func (b *bot) stored(t *testing.T, id string) *storage.Schedule {
	t.Helper()
	var s *storage.Schedule
	err := b.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		s, err = tx.Schedule(id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func dbPath(t *testing.T) string { return filepath.Join(t.TempDir(), "sheetkeeper.db") }

// wantFired checks the applied firings, as instants.
func wantFired(t *testing.T, f *firer, want ...string) {
	t.Helper()
	got := f.firedAt()
	if len(got) != len(want) {
		t.Fatalf("fired at %v, want %v", got, want)
	}
	for i := range want {
		if w := at(t, want[i]); !got[i].Equal(w) {
			t.Fatalf("firing %d at %v, want %v (all: %v)", i, got[i], w, got)
		}
	}
}

func TestDailyRestFiresAtLocalTimeInItsZone(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-01-10T00:00:00Z"))
	s := b.add(t, "0 6 * * *", "Europe/Berlin")

	list, err := b.sched.List(context.Background(), "table")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != s.ID {
		t.Fatalf("List = %+v", list)
	}
	next := list[0].Next
	if got := next.Format("2006-01-02 15:04 MST"); got != "2026-01-10 06:00 CET" {
		t.Fatalf("next firing %s, want 2026-01-10 06:00 CET", got)
	}
	if !next.Equal(at(t, "2026-01-10T05:00:00Z")) {
		t.Fatalf("next firing %v, want 05:00Z", next.UTC())
	}

	b.advance(t, "2026-01-10T04:59:59Z")
	wantFired(t, b.firer)
	b.advance(t, "2026-01-10T05:00:00Z")
	wantFired(t, b.firer, "2026-01-10T05:00:00Z")
	got := b.firer.firedAt()[0]
	if got.Location().String() != "Europe/Berlin" || got.Hour() != 6 {
		t.Fatalf("Fire got %v, want 06:00 in Europe/Berlin", got)
	}
	if !b.clock.Now().Equal(at(t, "2026-01-10T05:00:00Z")) {
		t.Fatalf("clock at %v after Advance", b.clock.Now())
	}
	b.advance(t, "2026-01-12T12:00:00Z")
	wantFired(t, b.firer, "2026-01-10T05:00:00Z", "2026-01-11T05:00:00Z", "2026-01-12T05:00:00Z")
	if lr := b.stored(t, s.ID).LastRun; !lr.Equal(at(t, "2026-01-12T05:00:00Z")) {
		t.Fatalf("LastRun %v", lr)
	}
	// In summer the same rest is 04:00Z.
	b.advance(t, "2026-07-01T00:00:00Z") // 170 days: under MaxAdvance
	b.advance(t, "2026-07-01T04:00:00Z")
	fired := b.firer.firedAt()
	if last := fired[len(fired)-1]; !last.Equal(at(t, "2026-07-01T04:00:00Z")) {
		t.Fatalf("summer firing at %v, want 04:00Z", last.UTC())
	}
}

// A job inside a spring-forward gap does not run that night: Europe/Berlin jumps from
// 02:00 to 03:00 on 29 March 2026, and robfig's schedule has no 02:30 that day.
func TestSpringForwardGapSkipsThatNight(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-03-27T12:00:00Z"))
	b.add(t, "30 2 * * *", "Europe/Berlin")
	b.advance(t, "2026-03-31T00:00:00Z")
	wantFired(t, b.firer,
		"2026-03-28T01:30:00Z", // 02:30 CET
		// 29 March: nothing — 02:30 does not exist.
		"2026-03-30T00:30:00Z", // 02:30 CEST
	)
}

// A job inside the repeated hour of a fall-back night runs twice: 02:30 happens in
// summer time and again in winter time on 25 October 2026.
func TestFallBackRepeatedHourRunsTwice(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-10-24T12:00:00Z"))
	b.add(t, "30 2 * * *", "Europe/Berlin")
	b.advance(t, "2026-10-26T12:00:00Z")
	wantFired(t, b.firer,
		"2026-10-25T00:30:00Z", // 02:30 CEST
		"2026-10-25T01:30:00Z", // 02:30 CET
		"2026-10-26T01:30:00Z",
	)
}

func TestScheduleSurvivesRestart(t *testing.T) {
	path := dbPath(t)
	b := start(t, path, at(t, "2026-01-10T00:00:00Z"))
	s := b.add(t, "0 6 * * *", "America/New_York")
	b.stop(t)

	b2 := start(t, path, at(t, "2026-01-10T01:00:00Z"))
	list, err := b2.sched.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != s.ID || list[0].Cron != "0 6 * * *" || list[0].TimeZone != "America/New_York" {
		t.Fatalf("after restart List = %+v", list)
	}
	b2.advance(t, "2026-01-10T11:00:00Z")
	wantFired(t, b2.firer, "2026-01-10T11:00:00Z") // 06:00 EST
	if len(b2.firer.missedCalls()) != 0 {
		t.Fatalf("nothing was missed, yet: %+v", b2.firer.missedCalls())
	}
}

func TestMissedFiringReportedOnceAcrossRestarts(t *testing.T) {
	path := dbPath(t)
	b := start(t, path, at(t, "2026-01-01T00:00:00Z"))
	s := b.add(t, "0 6 * * *", "")
	b.advance(t, "2026-01-01T06:00:00Z")
	wantFired(t, b.firer, "2026-01-01T06:00:00Z")
	b.stop(t)

	// Offline from 07:00 on the 1st to noon on the 3rd: the 2nd and 3rd are missed.
	b2 := start(t, path, at(t, "2026-01-03T12:00:00Z"))
	m := b2.firer.missedCalls()
	if len(m) != 1 || m[0].Count != 2 || !m[0].First.Equal(at(t, "2026-01-02T06:00:00Z")) || !m[0].Last.Equal(at(t, "2026-01-03T06:00:00Z")) {
		t.Fatalf("missed = %+v, want one report of 2 firings, 2nd and 3rd 06:00", m)
	}
	wantFired(t, b2.firer) // never applied
	if got := b2.stored(t, s.ID); !got.MissedReported.Equal(at(t, "2026-01-03T06:00:00Z")) || !got.LastRun.Equal(at(t, "2026-01-01T06:00:00Z")) {
		t.Fatalf("stored %+v", got)
	}
	b2.stop(t)

	// A second restart says nothing of them.
	b3 := start(t, path, at(t, "2026-01-03T13:00:00Z"))
	if m := b3.firer.missedCalls(); len(m) != 0 {
		t.Fatalf("second restart reported again: %+v", m)
	}
	b3.stop(t)

	// A later firing missed is new, and reported (once).
	b4 := start(t, path, at(t, "2026-01-04T07:00:00Z"))
	if m := b4.firer.missedCalls(); len(m) != 1 || m[0].Count != 1 || !m[0].Last.Equal(at(t, "2026-01-04T06:00:00Z")) {
		t.Fatalf("missed = %+v", m)
	}
	wantFired(t, b4.firer)
	// After the report the schedule runs on as before.
	b4.advance(t, "2026-01-05T06:00:00Z")
	wantFired(t, b4.firer, "2026-01-05T06:00:00Z")
}

func TestMissedCountCapped(t *testing.T) {
	path := dbPath(t)
	b := start(t, path, at(t, "2026-01-01T00:00:00Z"))
	b.add(t, "* * * * *", "")
	b.stop(t)
	b2 := start(t, path, at(t, "2026-01-10T00:00:00Z"))
	m := b2.firer.missedCalls()
	if len(m) != 1 || m[0].Count != schedule.MaxMissed || !m[0].First.Equal(at(t, "2026-01-01T00:01:00Z")) || !m[0].Last.Equal(at(t, "2026-01-10T00:00:00Z")) {
		t.Fatalf("missed = %+v", m)
	}
}

// Two overlapping firings of one schedule run once: the first is still running (its
// Fire blocked) when the clock passes the next, which SkipIfStillRunning skips.
func TestOverlappingFiringsRunOnce(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-01-01T00:00:00Z"))
	entered := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	b.firer.hook = func(_ storage.Schedule, at time.Time) {
		once.Do(func() {
			close(entered)
			<-release
		})
	}
	b.add(t, "0 * * * *", "")

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- b.sched.Advance(ctx, at(t, "2026-01-01T01:00:00Z")) }()
	<-entered
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Advance with its firing blocked: %v, want context.Canceled", err)
	}
	// The 01:00 firing is still running; 02:00 comes due and is skipped.
	b.advance(t, "2026-01-01T02:00:00Z")
	if n := b.firer.calls(); n != 0 {
		t.Fatalf("%d Fire calls finished while the first is blocked", n)
	}
	close(release)
	b.sched.Wait()
	wantFired(t, b.firer, "2026-01-01T01:00:00Z")
	if n := b.firer.calls(); n != 1 {
		t.Fatalf("Fire called %d times, want 1", n)
	}
	// The schedule is not stuck: 03:00 fires.
	b.advance(t, "2026-01-01T03:00:00Z")
	wantFired(t, b.firer, "2026-01-01T01:00:00Z", "2026-01-01T03:00:00Z")
}

func TestPanickingJobDoesNotDisableSchedule(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-01-01T00:00:00Z"))
	panics := 0
	b.firer.hook = func(_ storage.Schedule, at time.Time) {
		if at.Hour() == 1 {
			panics++
			panic("the rest blew up")
		}
	}
	s := b.add(t, "0 * * * *", "")
	b.advance(t, "2026-01-01T01:00:00Z")
	if panics != 1 {
		t.Fatalf("hook panicked %d times", panics)
	}
	wantFired(t, b.firer)
	if lr := b.stored(t, s.ID).LastRun; !lr.IsZero() {
		t.Fatalf("a panicked firing recorded LastRun %v", lr)
	}
	b.advance(t, "2026-01-01T02:00:00Z")
	wantFired(t, b.firer, "2026-01-01T02:00:00Z")
}

func TestFiringNeverAppliedTwice(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-01-01T00:00:00Z"))
	s := b.add(t, "0 6 * * *", "")
	b.advance(t, "2026-01-01T06:00:00Z")
	// The console moves the clock back and forward over the same firing.
	b.advance(t, "2026-01-01T05:00:00Z")
	b.advance(t, "2026-01-01T07:00:00Z")
	wantFired(t, b.firer, "2026-01-01T06:00:00Z")
	if n := b.firer.calls(); n != 1 {
		t.Fatalf("Fire called %d times", n)
	}
	// Claim itself refuses a firing at or before LastRun.
	err := b.store.Update(context.Background(), func(tx storage.Tx) error {
		for _, c := range []struct {
			at   string
			want bool
		}{{"2026-01-01T06:00:00Z", false}, {"2026-01-01T05:00:00Z", false}, {"2026-01-02T06:00:00Z", true}, {"2026-01-02T06:00:00Z", false}} {
			got, err := schedule.Claim(tx, s.ID, at(t, c.at))
			if err != nil {
				return err
			}
			if got != c.want {
				t.Errorf("Claim(%s) = %v, want %v", c.at, got, c.want)
			}
		}
		_, err := schedule.Claim(tx, "nope", at(t, "2026-01-02T06:00:00Z"))
		if storage.KindOf(err) != storage.NotFound {
			t.Errorf("Claim of a missing schedule: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := schedule.FiringID(s.ID, at(t, "2026-01-02T06:00:00Z")); got != "schedule:"+s.ID+":1767333600" {
		t.Fatalf("FiringID = %q", got)
	}
}

func TestAddListRemove(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-01-01T00:00:00Z"))
	s1 := b.add(t, "0 6 * * *", "")
	s2 := b.add(t, "CRON_TZ=Asia/Tokyo 0 6 * * *", "")
	idRE := regexp.MustCompile(`^[a-z2-7]{8}$`)
	if !idRE.MatchString(s1.ID) || !idRE.MatchString(s2.ID) || s1.ID == s2.ID {
		t.Fatalf("ids %q %q", s1.ID, s2.ID)
	}
	if s2.TimeZone != "Asia/Tokyo" || !s1.CreatedAt.Equal(at(t, "2026-01-01T00:00:00Z")) {
		t.Fatalf("stored %+v %+v", s1, s2)
	}
	if _, err := b.sched.Add(context.Background(), storage.Schedule{ChannelID: "table", Rest: "long", Cron: "0 6 * * *", ID: s1.ID}); err == nil {
		t.Fatal("Add reused a taken id")
	}
	if _, err := b.sched.Add(context.Background(), storage.Schedule{ChannelID: "table", Rest: "long", Cron: "61 * * * *"}); err == nil {
		t.Fatal("Add stored an invalid expression")
	} else if _, ok := err.(*schedule.SpecError); !ok {
		t.Fatalf("Add's refusal is %T, want *SpecError", err)
	}

	list, err := b.sched.List(context.Background(), "table")
	if err != nil {
		t.Fatal(err)
	}
	// It is 09:00 on 1 January in Tokyo: UTC's 06:00 comes first, then Tokyo's next
	// 06:00 (21:00Z).
	if len(list) != 2 || list[0].ID != s1.ID || list[1].ID != s2.ID {
		t.Fatalf("List = %+v", list)
	}
	if got := list[1].Next.Format(time.RFC3339); got != "2026-01-02T06:00:00+09:00" {
		t.Fatalf("Tokyo next = %s", got)
	}
	if other, _ := b.sched.List(context.Background(), "elsewhere"); len(other) != 0 {
		t.Fatalf("another channel lists %+v", other)
	}

	if err := b.sched.Remove(context.Background(), "elsewhere", s1.ID); storage.KindOf(err) != storage.NotFound {
		t.Fatalf("Remove from another channel: %v", err)
	}
	if err := b.sched.Remove(context.Background(), "table", s1.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.sched.Remove(context.Background(), "table", s1.ID); storage.KindOf(err) != storage.NotFound {
		t.Fatalf("second Remove: %v", err)
	}
	b.advance(t, "2026-01-01T07:00:00Z")
	wantFired(t, b.firer) // the removed UTC schedule does not fire
	b.advance(t, "2026-01-01T21:00:00Z")
	wantFired(t, b.firer, "2026-01-01T21:00:00Z")
}

func TestAdvanceRefusesHugeJump(t *testing.T) {
	b := start(t, dbPath(t), at(t, "2026-01-01T00:00:00Z"))
	b.add(t, "* * * * *", "")
	err := b.sched.Advance(context.Background(), at(t, "2026-01-02T00:00:00Z"))
	if err == nil {
		t.Fatal("Advance fired 1440 rests")
	}
	if !b.clock.Now().Equal(at(t, "2026-01-01T00:00:00Z")) {
		t.Fatalf("a refused Advance moved the clock to %v", b.clock.Now())
	}
	wantFired(t, b.firer)
}

func TestWallClockSchedulerStartsAndStops(t *testing.T) {
	st, err := bolt.Open(dbPath(t), bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f := &firer{store: st}
	s := schedule.New(st, f)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(context.Background(), storage.Schedule{ChannelID: "table", Rest: "long", Cron: "@daily"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(context.Background(), time.Now()); err == nil {
		t.Fatal("Advance on wall time")
	}
	list, err := s.List(context.Background(), "")
	if err != nil || len(list) != 1 || !list[0].Next.After(time.Now()) {
		t.Fatalf("List = %+v, %v", list, err)
	}
	done := make(chan struct{})
	go func() { s.Stop(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return")
	}
	if err := s.Start(context.Background()); err == nil {
		t.Fatal("Start after Stop")
	}
}

// TestRunningClockFiresOnlyWhenAdvanced: on a running manual clock (the console's on wall
// time) time passes between Advances, yet nothing fires behind the caller's back, and a
// rest that came due meanwhile fires at the next Advance, as the time it was due.
func TestRunningClockFiresOnlyWhenAdvanced(t *testing.T) {
	st, err := bolt.Open(dbPath(t), bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var mu sync.Mutex
	source := at(t, "2026-01-10T05:00:00Z")
	clock := schedule.NewRunningClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return source })
	f := &firer{store: st}
	s := schedule.New(st, f, schedule.WithClock(clock))
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if _, err := s.Add(context.Background(), storage.Schedule{
		ChannelID: "table", Rest: "long", Cron: "0 6 * * *", TimeZone: "UTC", Who: "party", CreatedBy: "gm",
	}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	source = at(t, "2026-01-10T07:00:00Z") // the clock runs past 06:00
	mu.Unlock()
	if got := clock.Now(); !got.Equal(at(t, "2026-01-10T07:00:00Z")) {
		t.Fatalf("running clock reads %v", got)
	}
	wantFired(t, f)
	if err := s.Advance(context.Background(), at(t, "2026-01-10T08:00:00Z")); err != nil {
		t.Fatal(err)
	}
	wantFired(t, f, "2026-01-10T06:00:00Z")
	if got := clock.Now(); !got.Equal(at(t, "2026-01-10T08:00:00Z")) {
		t.Fatalf("after Advance the clock reads %v", got)
	}
}
