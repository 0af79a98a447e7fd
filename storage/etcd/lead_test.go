package etcd_test

import (
	"context"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"sheetkeeper/schedule"
	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
)

// applications counts, across processes, the firings applied (claimed in a committed
// transaction, as bot.Core.Fire claims them with the rest) and the missed reports.
type applications struct {
	mu      sync.Mutex
	applied map[string]int // by schedule.FiringID
	missed  []schedule.Missed
}

func (a *applications) count(id string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.applied[id]
}

func (a *applications) reports() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.missed)
}

// firer is one process's schedule.Firer over its own store client.
type firer struct {
	store storage.Store
	apps  *applications
}

func (f firer) Fire(ctx context.Context, s storage.Schedule, at time.Time) error {
	claimed := false
	err := f.store.Update(ctx, func(tx storage.Tx) error {
		var err error
		claimed, err = schedule.Claim(tx, s.ID, at)
		return err
	})
	if err == nil && claimed {
		f.apps.mu.Lock()
		f.apps.applied[schedule.FiringID(s.ID, at)]++
		f.apps.mu.Unlock()
	}
	return err
}

func (f firer) Missed(_ context.Context, _ storage.Schedule, m schedule.Missed) error {
	f.apps.mu.Lock()
	defer f.apps.mu.Unlock()
	f.apps.missed = append(f.apps.missed, m)
	return nil
}

// runner is one process: its store client, manual clock, election and scheduler.
type runner struct {
	clock *schedule.ManualClock
	sched *schedule.Scheduler
}

func startRunner(t *testing.T, prefix string, apps *applications, now time.Time) *runner {
	t.Helper()
	return startRunnerTTL(t, prefix, apps, now, time.Second)
}

func startRunnerTTL(t *testing.T, prefix string, apps *applications, now time.Time, ttl time.Duration) *runner {
	t.Helper()
	st := openAt(t, prefix, etcd.Options{})
	el, err := etcd.NewElection(st, ttl)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{clock: schedule.NewManualClock(now)}
	r.sched = schedule.New(st, firer{st, apps}, schedule.WithClock(r.clock))
	if err := r.sched.StartLeading(context.Background(), el); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.sched.Stop)
	return r
}

// eventually polls cond every 20 ms for up to 10 s (a 1 s lease lapses well within).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("not within 10s: %s", what)
}

// killLeader revokes the lease of the election's leader, as its lapse after the
// process died would: the earliest candidate's key under prefix.
func killLeader(t *testing.T, prefix string) {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx := context.Background()
	resp, err := cli.Get(ctx, prefix+"meta/leader/schedule/", clientv3.WithFirstCreate()...)
	if err != nil || len(resp.Kvs) == 0 {
		t.Fatalf("no leader to kill: %v", err)
	}
	if _, err := cli.Revoke(ctx, clientv3.LeaseID(resp.Kvs[0].Lease)); err != nil {
		t.Fatal(err)
	}
}

// TestFailover: two processes on one store, one leads and fires; its session killed,
// the other takes over and fires the next rest; a firing the old leader applied is not
// applied again (the claim fences it), and missed firings are reported once across
// handovers.
func TestFailover(t *testing.T) {
	prefix := newPrefix()
	apps := &applications{applied: map[string]int{}}
	day := func(d, h int) time.Time { return time.Date(2026, 3, d, h, 0, 0, 0, time.UTC) }

	setup := openAt(t, prefix, etcd.Options{})
	adder := schedule.New(setup, firer{setup, apps}, schedule.WithClock(schedule.NewManualClock(day(1, 5))))
	sc, err := adder.Add(context.Background(), storage.Schedule{ChannelID: "c1", Rest: "long", Cron: "0 6 * * *"})
	if err != nil {
		t.Fatal(err)
	}
	fired := func(d int) string { return schedule.FiringID(sc.ID, day(d, 6)) }

	a := startRunner(t, prefix, apps, day(1, 5))
	eventually(t, "the first runner leads", a.sched.Leading)
	b := startRunner(t, prefix, apps, day(1, 5))
	ctx := context.Background()
	if err := a.sched.Advance(ctx, day(1, 7)); err != nil {
		t.Fatal(err)
	}
	if b.sched.Leading() {
		t.Fatal("both runners lead")
	}
	if n := apps.count(fired(1)); n != 1 {
		t.Fatalf("day 1's rest applied %d times, want 1", n)
	}

	// The leader's session dies; the follower, its clock behind, takes over and walks
	// through day 1's firing again (fenced) to day 2's.
	killLeader(t, prefix)
	eventually(t, "the follower takes over", b.sched.Leading)
	eventually(t, "the old leader stands down", func() bool { return !a.sched.Leading() })
	if err := b.sched.Advance(ctx, day(2, 7)); err != nil {
		t.Fatal(err)
	}
	if err := a.sched.Advance(ctx, day(2, 7)); err != nil {
		t.Fatal(err)
	}
	if n1, n2 := apps.count(fired(1)), apps.count(fired(2)); n1 != 1 || n2 != 1 {
		t.Fatalf("applied day 1 %d times, day 2 %d times; want once each", n1, n2)
	}
	if n := apps.reports(); n != 0 {
		t.Fatalf("%d missed reports; nothing was missed", n)
	}

	// Both are down over days 3 and 4 as far as firing goes: the leader dies with the
	// clocks at day 4 07:00; the one taking over reports the two missed rests, once.
	a.clock.Set(day(4, 7))
	b.clock.Set(day(4, 7))
	killLeader(t, prefix)
	eventually(t, "the first runner leads again", a.sched.Leading)
	if n := apps.reports(); n != 1 || apps.missed[0].Count != 2 {
		t.Fatalf("missed reports %+v, want one of 2 firings", apps.missed)
	}
	eventually(t, "the second runner stands down", func() bool { return !b.sched.Leading() })
	killLeader(t, prefix)
	eventually(t, "the second runner leads again", b.sched.Leading)
	if n := apps.reports(); n != 1 {
		t.Fatalf("missed reports %+v after another handover, want still one", apps.missed)
	}
	for d := 3; d <= 4; d++ {
		if n := apps.count(fired(d)); n != 0 {
			t.Fatalf("missed day %d's rest applied %d times", d, n)
		}
	}

	// A schedule the follower stores is the leader's to fire.
	late, err := a.sched.Add(ctx, storage.Schedule{ChannelID: "c1", Rest: "short", Cron: "0 8 * * *"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*runner{a, b} {
		if err := r.sched.Advance(ctx, day(4, 9)); err != nil {
			t.Fatal(err)
		}
	}
	if n := apps.count(schedule.FiringID(late.ID, time.Date(2026, 3, 4, 8, 0, 0, 0, time.UTC))); n != 1 {
		t.Fatalf("the follower's schedule applied %d times by 09:00, want once (by the leader)", n)
	}
}

// A leader that stops gives the leadership up at once: the follower leads long before
// the stopped one's lease (30 s) would have run out.
func TestStoppedLeaderHandsOver(t *testing.T) {
	prefix := newPrefix()
	apps := &applications{applied: map[string]int{}}
	now := time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)
	a := startRunnerTTL(t, prefix, apps, now, 30*time.Second)
	eventually(t, "the first runner leads", a.sched.Leading)
	b := startRunnerTTL(t, prefix, apps, now, 30*time.Second)
	a.sched.Stop()
	eventually(t, "the follower takes over", b.sched.Leading)
}

func TestElectionRefusals(t *testing.T) {
	if _, err := etcd.NewElection(nil, 0); storage.KindOf(err) != storage.Invalid {
		t.Fatalf("an election on no etcd store: %v, want kind Invalid", err)
	}
	st, err := etcd.Open(etcd.Options{Endpoints: []string{endpoint}, Prefix: newPrefix()})
	if err != nil {
		t.Fatal(err)
	}
	el, err := etcd.NewElection(st, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := el.Lead(context.Background()); storage.KindOf(err) != storage.Closed {
		t.Fatalf("campaigning on a closed store: %v, want kind Closed", err)
	}
}
