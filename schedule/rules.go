package schedule

import (
	"context"
	"slices"
	"sync"
	"time"
)

// MinRulesTick is the shortest period of the rules clock: items' rules are ticked at
// most 4 times a second (SPEC 7; Pack Rat's game tick), however often Tick is called.
const MinRulesTick = 250 * time.Millisecond

// RulesTick is what the rules clock calls for each campaign due a tick: elapsed is the
// time since that campaign's last tick (or its registration), so a tick that comes late
// carries the whole gap. It returns whether the campaign still needs the clock (it still
// has while rules or values moving); false unregisters it.
type RulesTick func(ctx context.Context, campaign string, elapsed time.Duration) (keep bool)

// RulesClock ticks the inventory rules of the campaigns registered as having timed
// rules (while rules, values moving), and only while they are registered: a campaign
// without them costs nothing. It reads the time from the bot's Clock, so a test moves a
// ManualClock and calls Tick; on wall time Run calls Tick on a real ticker.
//
// A tick never piles up behind a slow one: a Tick called while another is still running
// its callbacks returns at once, and the next tick's elapsed covers the time missed.
type RulesClock struct {
	clock Clock
	every time.Duration
	tick  RulesTick

	mu   sync.Mutex
	last map[string]time.Time // registered campaign → when it was last ticked

	ticking sync.Mutex // held by the Tick running callbacks
	due     []string   // the running Tick's campaigns, kept to tick without allocating
}

// NewRulesClock returns a rules clock ticking every `every` (at least MinRulesTick)
// by clock, calling tick for each registered campaign due.
func NewRulesClock(clock Clock, every time.Duration, tick RulesTick) *RulesClock {
	return &RulesClock{clock: clock, every: max(every, MinRulesTick), tick: tick, last: map[string]time.Time{}}
}

// Register starts ticking a campaign, its first tick a period from now; registering one
// already registered changes nothing (its time keeps running).
func (rc *RulesClock) Register(campaign string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, ok := rc.last[campaign]; !ok {
		rc.last[campaign] = rc.clock.Now()
	}
}

// Unregister stops ticking a campaign (its last timed rule is gone).
func (rc *RulesClock) Unregister(campaign string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	delete(rc.last, campaign)
}

// Registered lists the campaigns being ticked, sorted.
func (rc *RulesClock) Registered() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := make([]string, 0, len(rc.last))
	for c := range rc.last {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// Tick ticks, at the clock's now, every registered campaign whose last tick is at least
// a period ago, in campaign order, and reports how many it ticked. It returns 0 at once
// when another Tick is still running (a slow callback) or ctx is done.
func (rc *RulesClock) Tick(ctx context.Context) int {
	if !rc.ticking.TryLock() {
		return 0
	}
	defer rc.ticking.Unlock()
	now := rc.clock.Now()
	rc.mu.Lock()
	rc.due = rc.due[:0]
	for c, at := range rc.last {
		if now.Sub(at) >= rc.every {
			rc.due = append(rc.due, c)
		}
	}
	rc.mu.Unlock()
	slices.Sort(rc.due)
	n := 0
	for _, c := range rc.due {
		if ctx.Err() != nil {
			break
		}
		rc.mu.Lock()
		at, ok := rc.last[c]
		rc.mu.Unlock()
		if !ok { // unregistered by an earlier callback of this tick
			continue
		}
		keep := rc.tick(ctx, c, now.Sub(at))
		n++
		rc.mu.Lock()
		if _, still := rc.last[c]; still {
			if keep {
				rc.last[c] = now
			} else {
				delete(rc.last, c)
			}
		}
		rc.mu.Unlock()
	}
	return n
}

// Run calls Tick every period on a real ticker until ctx is done. A Go ticker drops
// the ticks its reader is too slow for, so a slow tick delays the next rather than
// queueing them.
func (rc *RulesClock) Run(ctx context.Context) {
	t := time.NewTicker(rc.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			rc.Tick(ctx)
		}
	}
}
