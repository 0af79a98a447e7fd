package schedule

import (
	"context"
	"fmt"
	"time"
)

// Several processes may share one store (etcd): each runs a Scheduler, but only one,
// the leader, runs the cron. Leadership is not what keeps a firing from applying
// twice — the claim is (Claim commits with the rest, so a firing is applied once
// whoever fires it, even when two processes briefly both believe they lead). It is what
// keeps every process from firing, and missing, the same rests at once: one fires and
// reports, the others wait to take over.

// Leader elects the one process that runs the schedules of a shared store.
type Leader interface {
	// Lead blocks until this process leads, or ctx ends (its error then). Leadership
	// lasts until lost is closed (the process's claim lapsed: another may lead now) or
	// ctx ends, which gives it up for the next to take.
	Lead(ctx context.Context) (lost <-chan struct{}, err error)
}

// leadRetry is how long the scheduler waits after a failed campaign (the cluster
// unreachable) before it campaigns again.
const leadRetry = time.Second

// StartLeading starts the scheduler as Start does, but fires only while l says this
// process leads. It returns at once; in the background it campaigns, and once elected
// it loads, registers and fires every stored schedule and reports their missed firings
// (as Start). When the leadership is lost it stops firing — the Cron stops, a firing in
// progress commits whole or not at all — drops its registrations, and campaigns again.
// The missed-firing report stays once across a handover: it is computed from the
// stored LastRun and MissedReported, which the previous leader's firings and report
// have written. Stop ends the campaign and gives the leadership up.
func (s *Scheduler) StartLeading(ctx context.Context, l Leader) error {
	lctx, cancel := context.WithCancel(ctx)
	led := make(chan struct{})
	if err := s.begin(ctx, cancel, led); err != nil {
		cancel()
		return err
	}
	go func() {
		defer close(led)
		s.campaign(lctx, l)
	}()
	return nil
}

// campaign leads, term after term, until ctx ends.
func (s *Scheduler) campaign(ctx context.Context, l Leader) {
	for ctx.Err() == nil {
		if err := s.term(ctx, l); err != nil && ctx.Err() == nil {
			s.log.Warn("schedule: campaigning to run the schedules; trying again", "in", leadRetry, "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(leadRetry):
			}
		}
	}
}

// term waits to lead, fires while it leads, and returns when the leadership is lost or
// ctx ends, having stopped firing.
func (s *Scheduler) term(ctx context.Context, l Leader) error {
	tctx, resign := context.WithCancel(ctx)
	defer resign()
	lost, err := l.Lead(tctx)
	if err != nil {
		return err
	}
	stored, err := s.stored(tctx)
	if err != nil {
		return fmt.Errorf("schedule: loading schedules: %w", err)
	}
	s.log.Info("schedule: leading: this process runs the schedules", "schedules", len(stored))
	s.activate(tctx, stored)
	defer s.deactivate()
	tick := time.NewTicker(resyncEvery)
	defer tick.Stop()
	for {
		select {
		case <-lost:
			s.log.Warn("schedule: leadership lost: another process runs the schedules now")
			return nil
		case <-ctx.Done():
			return nil
		case <-tick.C:
			s.resync(tctx)
		}
	}
}

// resyncEvery is how often a leader on wall time reads the stored schedules again
// (resync); on a manual clock each Advance does.
const resyncEvery = 30 * time.Second

// resync registers the schedules another process stored since this one began to lead
// (its Add stores a schedule, but only the leader registers it) and reports what they
// missed meanwhile, which is nothing unless one fell due before this read. One removed
// by another process stays registered and fires nothing: its firing finds no schedule.
// (Dropping it here could drop one this process's Add registers after the read.)
func (s *Scheduler) resync(ctx context.Context) {
	stored, err := s.stored(ctx)
	if err != nil {
		s.log.Warn("schedule: reading the stored schedules to find new ones", "err", err)
		return
	}
	s.mu.Lock()
	if !s.leading {
		s.mu.Unlock()
		return
	}
	now := s.clock.Now()
	check := s.registerAll(stored, now, true)
	s.mu.Unlock()
	for _, p := range check {
		s.reportMissed(ctx, p.sc, p.sched, now)
	}
}

// deactivate stops firing: the Cron stops, running firings finish (each commits whole
// or not at all), and every registration is dropped, so nothing fires until the next
// activate loads the schedules afresh.
func (s *Scheduler) deactivate() {
	s.mu.Lock()
	s.leading, s.settled = false, false // runOnce starts no firing after this, and Add registers none
	s.mu.Unlock()
	<-s.cron.Stop().Done()
	s.firings.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, e := range s.entries {
		s.cron.Remove(e.cronID)
		delete(s.entries, id)
	}
}

// Leading reports whether this scheduler runs the schedules: it leads (always, from
// Start on, without a Leader), and has registered them and reported what they missed.
func (s *Scheduler) Leading() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settled
}
