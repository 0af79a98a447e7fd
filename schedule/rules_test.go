package schedule

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// ticks records the rules clock's callbacks: campaign → the elapsed times it was given.
type ticks struct {
	mu   sync.Mutex
	got  map[string][]time.Duration
	keep map[string]bool // false: the campaign no longer needs the clock
}

func (tk *ticks) tick(_ context.Context, c string, elapsed time.Duration) bool {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	tk.got[c] = append(tk.got[c], elapsed)
	keep, ok := tk.keep[c]
	return keep || !ok
}

// TestRulesClockOnlyRegistered: only registered campaigns are ticked, at most 4 times a
// second however often Tick is called, each with the time since its last tick.
func TestRulesClockOnlyRegistered(t *testing.T) {
	clock := NewManualClock(t0)
	tk := &ticks{got: map[string][]time.Duration{}}
	rc := NewRulesClock(clock, time.Millisecond, tk.tick) // asked for 1000 a second: gets 4
	rc.Register("lantern")
	rc.Register("lantern") // again: no change
	for i := 1; i <= 10; i++ {
		clock.Set(t0.Add(time.Duration(i) * 100 * time.Millisecond))
		rc.Tick(context.Background())
	}
	got := tk.got["lantern"]
	var sum time.Duration
	for _, e := range got {
		sum += e
		if e < MinRulesTick {
			t.Errorf("a tick after %v: less than %v", e, MinRulesTick)
		}
	}
	if len(got) > 4 || sum != 900*time.Millisecond || len(tk.got) != 1 {
		t.Errorf("one second ticked as %v (sum %v), all %v", got, sum, tk.got)
	}
	if rs := rc.Registered(); len(rs) != 1 || rs[0] != "lantern" {
		t.Errorf("registered: %v", rs)
	}
}

// TestRulesClockUnregister: a campaign is ticked only while it is registered — until
// Unregister, or until its tick says it needs the clock no more.
func TestRulesClockUnregister(t *testing.T) {
	clock := NewManualClock(t0)
	tk := &ticks{got: map[string][]time.Duration{}, keep: map[string]bool{"done": false}}
	rc := NewRulesClock(clock, MinRulesTick, tk.tick)
	rc.Register("done")
	rc.Register("gone")
	rc.Register("stays")
	rc.Unregister("gone")
	for i := 1; i <= 3; i++ {
		clock.Set(t0.Add(time.Duration(i) * time.Second))
		rc.Tick(context.Background())
	}
	if len(tk.got["done"]) != 1 || len(tk.got["gone"]) != 0 || len(tk.got["stays"]) != 3 {
		t.Errorf("ticks: %v", tk.got)
	}
	if rs := rc.Registered(); len(rs) != 1 || rs[0] != "stays" {
		t.Errorf("registered: %v", rs)
	}
}

// TestRulesClockSlowTick: a tick whose callback is slow makes the ticks meant for
// meanwhile return at once, not queue; the next tick carries the whole gap.
func TestRulesClockSlowTick(t *testing.T) {
	clock := NewManualClock(t0)
	entered, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var got []time.Duration
	slow := true
	rc := NewRulesClock(clock, MinRulesTick, func(_ context.Context, _ string, elapsed time.Duration) bool {
		mu.Lock()
		got = append(got, elapsed)
		wait := slow
		slow = false
		mu.Unlock()
		if wait {
			close(entered)
			<-release
		}
		return true
	})
	rc.Register("slow")
	clock.Set(t0.Add(time.Second))
	done := make(chan int)
	go func() { done <- rc.Tick(context.Background()) }()
	<-entered
	for i := 2; i <= 5; i++ {
		clock.Set(t0.Add(time.Duration(i) * time.Second))
		if n := rc.Tick(context.Background()); n != 0 {
			t.Errorf("a tick while one is running ticked %d", n)
		}
	}
	close(release)
	if n := <-done; n != 1 {
		t.Errorf("the slow tick ticked %d", n)
	}
	clock.Set(t0.Add(6 * time.Second))
	rc.Tick(context.Background())
	if len(got) != 2 || got[0] != time.Second || got[1] != 5*time.Second {
		t.Errorf("elapsed: %v; want [1s 5s]", got)
	}
}

// TestRulesClockRun: on wall time Run ticks on a real ticker until its context ends.
func TestRulesClockRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ticked := make(chan struct{}, 1)
	rc := NewRulesClock(Wall{}, MinRulesTick, func(context.Context, string, time.Duration) bool {
		select {
		case ticked <- struct{}{}:
		default:
		}
		return true
	})
	rc.Register("wall")
	stopped := make(chan struct{})
	go func() { rc.Run(ctx); close(stopped) }()
	select {
	case <-ticked:
	case <-time.After(10 * time.Second):
		t.Fatal("no tick in 10 s")
	}
	cancel()
	<-stopped
}

// BenchmarkRulesClockTick: one tick over 100 campaigns with timed rules (the callback
// itself costing nothing: this is the clock's own cost).
func BenchmarkRulesClockTick(b *testing.B) {
	clock := NewManualClock(t0)
	rc := NewRulesClock(clock, MinRulesTick, func(context.Context, string, time.Duration) bool { return true })
	for i := range 100 {
		rc.Register(fmt.Sprintf("campaign-%03d", i))
	}
	ctx := context.Background()
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(MinRulesTick)
		clock.Set(now)
		if n := rc.Tick(ctx); n != 100 {
			b.Fatalf("ticked %d", n)
		}
	}
}
