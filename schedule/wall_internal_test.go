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
