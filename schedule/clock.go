package schedule

import (
	"sync"
	"time"
)

// Clock tells the time. It is a bot's one clock, passed in (as tailscale's tstime.Clock
// is): the core stamps what it records with it and the scheduler fires by it. The
// scheduler needs nothing else of it: on the wall clock robfig/cron's own timers fire the
// rests, and a *ManualClock stops them and lets Scheduler.Advance move time instead.
type Clock interface {
	Now() time.Time
}

// Wall is the real clock.
type Wall struct{}

// Now is time.Now.
func (Wall) Now() time.Time { return time.Now() }

// ManualClock is a clock moved by hand: tests and the console's `!clock TIME` drive
// schedules with it through Scheduler.Advance, which Sets it to each firing's time. It
// stands where it was set (NewManualClock), or runs on from there (NewRunningClock: the
// console on wall time keeps stamping real times between `!clock` lines, while a rest
// still fires only when a line says its time has come). It is safe for concurrent use.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time // where a standing clock stands
	// source, for a running clock, is what it runs by, and offset how far Set moved it.
	source func() time.Time
	offset time.Duration
}

// NewManualClock returns a clock standing at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// NewRunningClock returns a clock that reads source (nil: time.Now) until it is Set, and
// from then on runs from the time set as source runs.
func NewRunningClock(source func() time.Time) *ManualClock {
	if source == nil {
		source = time.Now
	}
	return &ManualClock{source: source}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.source == nil {
		return c.t
	}
	return c.source().Add(c.offset)
}

// Set moves the clock to t (forward or back) without firing anything; Scheduler.Advance
// moves it and fires what comes due.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.source == nil {
		c.t = t
		return
	}
	c.offset = t.Sub(c.source())
}
