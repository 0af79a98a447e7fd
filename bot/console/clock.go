package console

import (
	"sync"
	"time"
)

// Clock is the console's clock: wall time (or, in tests, any time source) moved by
// `!clock TIME`. The core reads it through Func; whatever must react when the clock is set
// (due schedules firing) hooks in through Options.OnClock, which the console calls after
// every Set it makes, with the time before and after.
//
// A set clock keeps running from where it was set: Set records the offset from the
// source, so a REPL session on wall time stays on a moving clock, and a test's frozen
// source stays frozen at the time set.
type Clock struct {
	mu     sync.Mutex
	source func() time.Time
	offset time.Duration
}

// NewClock returns a clock reading source; nil is time.Now.
func NewClock(source func() time.Time) *Clock {
	if source == nil {
		source = time.Now
	}
	return &Clock{source: source}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.source().Add(c.offset)
}

// Set moves the clock to t (forward or back) and returns the time it showed before.
func (c *Clock) Set(t time.Time) (before time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.source()
	before = now.Add(c.offset)
	c.offset = t.Sub(now)
	return before
}

// Func is the clock as the core takes it (bot.Options.Clock).
func (c *Clock) Func() func() time.Time { return c.Now }
