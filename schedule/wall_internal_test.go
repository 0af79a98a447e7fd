package schedule

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/robfig/cron/v3"

	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

type countingFirer struct {
	store storage.Store
	mu    sync.Mutex
	at    []time.Time
}

func (f *countingFirer) Fire(ctx context.Context, s storage.Schedule, at time.Time) error {
	return f.store.Update(ctx, func(tx storage.Tx) error {
		ok, err := Claim(tx, s.ID, at)
		if err == nil && ok {
			f.mu.Lock()
			f.at = append(f.at, at)
			f.mu.Unlock()
		}
		return err
	})
}

func (f *countingFirer) Missed(context.Context, storage.Schedule, Missed) error { return nil }

// On wall time robfig's own timer loop runs the job. Parse accepts nothing finer than
// a minute, so the test swaps in a one-second robfig schedule for a stored one.
func TestWallTimeFiresThroughRobfigTimers(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "db"), bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f := &countingFirer{store: st}
	s := New(st, f)
	ctx := context.Background()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	sc, err := s.Add(ctx, storage.Schedule{ChannelID: "table", Rest: "long", Cron: "@yearly"})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.register(sc.ID, cron.Every(time.Second), time.Now())
	s.mu.Unlock()

	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		n := len(f.at)
		f.mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d firings in 10s of a one-second schedule", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.Stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, at := range f.at {
		if at.Nanosecond() != 0 || (i > 0 && !at.After(f.at[i-1])) {
			t.Fatalf("firing times %v: want whole seconds, increasing", f.at)
		}
	}
	var stored *storage.Schedule
	if err := st.View(ctx, func(tx storage.Tx) error { stored, err = tx.Schedule(sc.ID); return err }); err != nil {
		t.Fatal(err)
	}
	if !stored.LastRun.Equal(f.at[len(f.at)-1]) {
		t.Fatalf("LastRun %v, last firing %v", stored.LastRun, f.at[len(f.at)-1])
	}
}

// termLeader grants leadership when the test sends a term: the channel closed to end it.
type termLeader chan chan struct{}

func (l termLeader) Lead(ctx context.Context) (<-chan struct{}, error) {
	select {
	case lost := <-l:
		return lost, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// On wall time a scheduler that loses its leadership stops robfig's timers, and one that
// leads again restarts them.
func TestWallTimeStopsWhileNotLeading(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "db"), bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f := &countingFirer{store: st}
	s := New(st, f)
	ctx := context.Background()
	sc, err := s.Add(ctx, storage.Schedule{ChannelID: "table", Rest: "long", Cron: "@yearly"})
	if err != nil {
		t.Fatal(err)
	}
	leader := termLeader(make(chan chan struct{}))
	if err := s.StartLeading(ctx, leader); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	fired := func() int {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.at)
	}
	// lead grants a term, swaps in a one-second schedule, and waits for a firing.
	lead := func() chan struct{} {
		t.Helper()
		lost := make(chan struct{})
		leader <- lost
		for !s.Leading() {
			time.Sleep(10 * time.Millisecond)
		}
		s.mu.Lock()
		s.register(sc.ID, cron.Every(time.Second), time.Now())
		s.mu.Unlock()
		for n, deadline := fired(), time.Now().Add(10*time.Second); fired() == n; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("no firing in 10s of a one-second schedule")
			}
		}
		return lost
	}
	close(lead())
	for stopped := false; !stopped; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		stopped = len(s.entries) == 0 // deactivate drops them once the Cron has stopped
		s.mu.Unlock()
	}
	if s.Leading() {
		t.Fatal("leading after the term ended")
	}
	n := fired()
	time.Sleep(1500 * time.Millisecond)
	if fired() != n {
		t.Fatal("a scheduler that lost its leadership fired")
	}
	lead()
}
