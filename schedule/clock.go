package schedule

import (
	"sync"
	"time"
)

// Clock tells the scheduler the time. The wall clock runs robfig/cron's own timers; a
// *ManualClock stops them and lets Scheduler.Advance move time instead.
type Clock interface {
	Now() time.Time
}

// Wall is the real clock.
type Wall struct{}

// Now is time.Now.
func (Wall) Now() time.Time { return time.Now() }

// ManualClock is a clock that moves only when told: tests and the console's
// `!clock TIME` drive schedules with it through Scheduler.Advance. The bot may read the
// same clock for everything else it timestamps. It is safe for concurrent use.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a clock standing at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// Now returns the time the clock stands at.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t without firing anything; Scheduler.Advance moves it and
// fires what comes due.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
