package schedule

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"sheetkeeper/storage"
)

// Firer is what a firing does; the bot implements it.
type Firer interface {
	// Fire applies s's rest as of at, the firing's scheduled time in s's zone, through
	// the same path as a GM's rest tag. In ONE storage transaction it calls
	// Claim(tx, s.ID, at) and, only when Claim says the firing is new, applies the rest
	// and records the reply (Source "schedule:<id>", MessageID FiringID(s.ID, at)); after
	// the commit it posts the results to s.ChannelID. Because the claim commits with
	// the rest, one firing is never applied twice, whatever crashes or retries.
	// An error is logged; that firing is not retried.
	Fire(ctx context.Context, s storage.Schedule, at time.Time) error
	// Missed tells s's channel that firings fell while the bot was offline ("the 06:00
	// long rest did not run while I was offline"). It must not apply them: a missed
	// rest is never replayed. Each is reported once (see Scheduler.Start).
	Missed(ctx context.Context, s storage.Schedule, m Missed) error
}

// Missed describes the firings of one schedule that fell while the bot was offline.
type Missed struct {
	First, Last time.Time // in the schedule's zone
	// Count is how many, counted up to MaxMissed: MaxMissed means at least that many.
	Count int
}

// MaxMissed caps Missed.Count.
const MaxMissed = 1000

// MaxAdvance caps the firings one Advance may run: a larger jump is refused, so a typo
// in `!clock` cannot apply ten thousand rests.
const MaxAdvance = 1000

// Claim marks the firing of schedule id at time at as run, inside the caller's
// transaction, and reports whether it is new. A firing at or before the schedule's
// LastRun is not: the caller must then apply nothing. A deleted schedule gives a
// storage.NotFound error. Firer.Fire calls it in the transaction that applies the rest.
func Claim(tx storage.Tx, id string, at time.Time) (bool, error) {
	s, err := tx.Schedule(id)
	if err != nil {
		return false, err
	}
	if !at.After(s.LastRun) {
		return false, nil
	}
	s.LastRun = at
	return true, tx.PutSchedule(s)
}

// FiringID is the deterministic id of one firing, "schedule:<id>:<unix seconds>": the
// message id its reply is recorded under.
func FiringID(id string, at time.Time) string {
	return "schedule:" + id + ":" + strconv.FormatInt(at.Unix(), 10)
}

// Listing is a stored schedule and its next firing.
type Listing struct {
	storage.Schedule
	// Next is the next firing after the clock's now, in the schedule's zone; zero if it
	// never fires again or its expression is no longer valid.
	Next time.Time
}

// Option configures a Scheduler.
type Option func(*Scheduler)

// WithClock sets the clock the scheduler reads (default Wall). A *ManualClock drives it
// by hand: robfig/cron's timers never start and only Advance fires schedules.
func WithClock(c Clock) Option {
	return func(s *Scheduler) {
		s.clock = c
		s.manual, _ = c.(*ManualClock)
	}
}

// WithLogger sets the logger (default: none).
func WithLogger(l *slog.Logger) Option {
	return func(s *Scheduler) { s.log = l }
}

// Scheduler runs stored rest schedules on robfig/cron. Create it with New, Start it
// once the bot can fire, Stop it before the database closes. Its methods are safe for
// concurrent use.
type Scheduler struct {
	store  storage.Store
	firer  Firer
	clock  Clock
	manual *ManualClock // nil: wall time and robfig's own timers
	// advanced is, on a manual clock, the time firings have been fired up to: Start's
	// now, then each Advance's. A running clock moves on between Advances, and a rest
	// due meanwhile still fires at the next.
	advanced time.Time
	log      *slog.Logger
	cron     *cron.Cron

	mu      sync.Mutex
	ctx     context.Context // Start's, given to every firing
	state   int
	entries map[string]*entry // by schedule id
	// leading is whether this scheduler fires: from Start on, or, under StartLeading,
	// while its Leader says it leads. A follower registers nothing and fires nothing.
	leading  bool
	settled  bool               // leading, and activate has registered and reported
	stopLead context.CancelFunc // StartLeading's: ends the campaign
	led      chan struct{}      // closed when StartLeading's campaign loop has ended

	advancing sync.Mutex     // one Advance at a time
	firings   sync.WaitGroup // firings Advance started
}

// Scheduler states.
const (
	stateNew = iota
	stateStarted
	stateStopped
)

// entry is one registered schedule.
type entry struct {
	cronID  cron.EntryID
	sched   cron.Schedule
	job     *job
	wrapped cron.Job // job as the Cron's chain wrapped it: what runs, in either mode
}

// New returns a scheduler over store that fires through f. Its robfig Cron wraps every
// job in SkipIfStillRunning then Recover, in that order: a panic is recovered inside
// the skip guard, which therefore gets its token back and lets the next firing run.
// (The other order would disable the job forever after one panic.)
func New(store storage.Store, f Firer, opts ...Option) *Scheduler {
	s := &Scheduler{store: store, firer: f, clock: Wall{}, entries: map[string]*entry{}}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	l := cronLogger{s.log}
	s.cron = cron.New(
		cron.WithLocation(time.UTC),
		cron.WithLogger(l),
		cron.WithChain(cron.SkipIfStillRunning(l), cron.Recover(l)),
	)
	return s
}

// Start registers every stored schedule and starts firing them (on wall time, or by
// Advance with a manual clock). It then reports, through Firer.Missed, the firings each
// schedule missed while the bot was down — those after its creation, its last run and
// the last missed firing already reported, up to now — once: the report is recorded in
// MissedReported, so the next start says nothing of them. A missed firing is never
// applied. A stored schedule whose expression no longer parses is logged and skipped.
// ctx is given to every firing; Start (or StartLeading) may be called once.
func (s *Scheduler) Start(ctx context.Context) error {
	stored, err := s.stored(ctx)
	if err != nil {
		return fmt.Errorf("schedule: loading schedules: %w", err)
	}
	if err := s.begin(ctx, nil, nil); err != nil {
		return err
	}
	s.activate(ctx, stored)
	return nil
}

// begin moves a new scheduler to started, with ctx as its firings' context, and, under
// StartLeading, what Stop ends its campaign with and waits for (nil for Start): set in
// the same critical section, so a Stop right after always finds them.
func (s *Scheduler) begin(ctx context.Context, stopLead context.CancelFunc, led chan struct{}) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateNew {
		return errors.New("schedule: Start called twice or after Stop")
	}
	s.ctx = ctx
	s.state = stateStarted
	s.stopLead, s.led = stopLead, led
	return nil
}

// activate registers stored and starts firing them from now on, then reports what each
// missed (Start's work once the schedules are loaded). It does nothing after Stop.
func (s *Scheduler) activate(ctx context.Context, stored []*storage.Schedule) {
	s.mu.Lock()
	if s.state != stateStarted {
		s.mu.Unlock()
		return
	}
	s.leading = true
	now := s.clock.Now()
	s.advanced = now
	check := s.registerAll(stored, now, false)
	if s.manual == nil {
		s.cron.Start()
	}
	s.mu.Unlock()
	for _, p := range check {
		s.reportMissed(ctx, p.sc, p.sched, now)
	}
	s.mu.Lock()
	s.settled = s.leading
	s.mu.Unlock()
}

// pending is a schedule just registered, whose missed firings are to be reported.
type pending struct {
	sc    *storage.Schedule
	sched cron.Schedule
}

// registerAll registers stored (only those not registered yet, with onlyNew) and
// returns them; the caller holds s.mu. One whose expression no longer parses is logged
// (unless onlyNew: it was when the leadership began) and skipped.
func (s *Scheduler) registerAll(stored []*storage.Schedule, now time.Time, onlyNew bool) []pending {
	var out []pending
	for _, sc := range stored {
		if onlyNew && s.entries[sc.ID] != nil {
			continue
		}
		sched, err := Parse(sc.Cron, sc.TimeZone)
		if err != nil {
			if !onlyNew {
				s.log.Error("schedule: a stored schedule no longer parses; it will not run", "id", sc.ID, "channel", sc.ChannelID, "err", err)
			}
			continue
		}
		s.register(sc.ID, sched, now)
		out = append(out, pending{sc, sched})
	}
	return out
}

// register adds a schedule to the Cron; the caller holds s.mu. Its job's first firing
// is the first after now.
func (s *Scheduler) register(id string, sched cron.Schedule, now time.Time) {
	if old := s.entries[id]; old != nil {
		s.cron.Remove(old.cronID)
	}
	j := &job{s: s, id: id, sched: sched, seed: now}
	cronID := s.cron.Schedule(sched, j)
	s.entries[id] = &entry{cronID: cronID, sched: sched, job: j, wrapped: s.cron.Entry(cronID).WrappedJob}
}

// reportMissed reports sc's firings in (its last known point, now] once. The report is
// claimed before it is posted, as a firing is (the claim is the fence): the store is read
// again in the transaction that records MissedReported, so a firing another process
// committed meanwhile, or a report another leader already claimed, is never reported.
// A post that then fails is logged, not retried: a missed-firing report is told at most
// once.
func (s *Scheduler) reportMissed(ctx context.Context, sc *storage.Schedule, sched cron.Schedule, now time.Time) {
	var m Missed
	err := s.store.Update(ctx, func(tx storage.Tx) error {
		m = Missed{}
		cur, err := tx.Schedule(sc.ID)
		if storage.KindOf(err) == storage.NotFound {
			return nil
		}
		if err != nil {
			return err
		}
		since := latest(cur.CreatedAt, cur.LastRun, cur.MissedReported)
		if since.IsZero() {
			return nil
		}
		got, ok := missedBetween(sched, since, now)
		if !ok {
			return nil
		}
		m = got
		cur.MissedReported = m.Last
		return tx.PutSchedule(cur)
	})
	if err != nil {
		s.log.Error("schedule: recording a missed-firing report failed; the next start reports them", "id", sc.ID, "err", err)
		return
	}
	if m.Count == 0 {
		return
	}
	loc := zoneOf(sched)
	m.First, m.Last = m.First.In(loc), m.Last.In(loc)
	if err := s.firer.Missed(ctx, *sc, m); err != nil {
		s.log.Error("schedule: posting a missed-firing report failed (it is recorded as reported)", "id", sc.ID, "err", err)
	}
}

// missedBetween counts sched's firings in (since, now].
func missedBetween(sched cron.Schedule, since, now time.Time) (Missed, bool) {
	first := sched.Next(since)
	if first.IsZero() || first.After(now) {
		return Missed{}, false
	}
	m := Missed{First: first, Last: first, Count: 1}
	for m.Count < MaxMissed {
		t := sched.Next(m.Last)
		if t.IsZero() || t.After(now) {
			return m, true
		}
		m.Last = t
		m.Count++
	}
	// Too many to walk: find the last by looking back from now in growing windows.
	for w := time.Hour; ; w *= 2 {
		from := now.Add(-w)
		if !from.After(m.Last) {
			from = m.Last
		}
		last := time.Time{}
		for t := sched.Next(from); !t.IsZero() && !t.After(now); t = sched.Next(t) {
			last = t
		}
		if !last.IsZero() {
			m.Last = last
			return m, true
		}
		if from.Equal(m.Last) {
			return m, true
		}
	}
}

// Add validates sc, gives it an id when it has none (eight characters of a-z and 2-7),
// stores it and, once the scheduler has started, registers it. Its first firing is the
// first after the clock's now. CreatedAt defaults to now; LastRun and MissedReported
// start empty. A refused expression or zone is a *SpecError.
func (s *Scheduler) Add(ctx context.Context, sc storage.Schedule) (storage.Schedule, error) {
	sched, err := Parse(sc.Cron, sc.TimeZone)
	if err != nil {
		return storage.Schedule{}, err
	}
	if sc.ChannelID == "" || sc.Rest == "" {
		return storage.Schedule{}, errors.New("schedule: a schedule needs a channel and a rest")
	}
	if sc.TimeZone == "" {
		if loc := zoneOf(sched); loc != time.UTC {
			sc.TimeZone = loc.String()
		}
	}
	now := s.clock.Now()
	if sc.CreatedAt.IsZero() {
		sc.CreatedAt = now
	}
	sc.LastRun, sc.MissedReported = time.Time{}, time.Time{}
	s.mu.Lock()
	stopped := s.state == stateStopped
	s.mu.Unlock()
	if stopped {
		return storage.Schedule{}, errors.New("schedule: Add after Stop")
	}
	generate := sc.ID == ""
	errTaken := errors.New("taken")
	for tries := 0; ; tries++ {
		if generate {
			sc.ID = newID()
		}
		err = s.store.Update(ctx, func(tx storage.Tx) error {
			if _, err := tx.Schedule(sc.ID); err == nil {
				return errTaken
			} else if storage.KindOf(err) != storage.NotFound {
				return err
			}
			rec := sc
			return tx.PutSchedule(&rec)
		})
		if errors.Is(err, errTaken) && generate && tries < 5 {
			continue
		}
		if errors.Is(err, errTaken) {
			return storage.Schedule{}, fmt.Errorf("schedule: id %q is taken", sc.ID)
		}
		if err != nil {
			return storage.Schedule{}, fmt.Errorf("schedule: storing: %w", err)
		}
		break
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateStarted && s.leading {
		s.register(sc.ID, sched, now)
	}
	return sc, nil
}

// newID returns a short random URL-safe id.
func newID() string {
	var b [5]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))
}

// Remove unregisters and deletes schedule id. With channelID set, a schedule of
// another channel is a storage.NotFound error, as is one that does not exist. A firing
// already running finishes, but applies nothing (its Claim finds no schedule).
func (s *Scheduler) Remove(ctx context.Context, channelID, id string) error {
	err := s.store.Update(ctx, func(tx storage.Tx) error {
		sc, err := tx.Schedule(id)
		if err != nil {
			return err
		}
		if channelID != "" && sc.ChannelID != channelID {
			return &storage.Error{Kind: storage.NotFound}
		}
		return tx.DeleteSchedule(id)
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.entries[id]; e != nil {
		s.cron.Remove(e.cronID)
		delete(s.entries, id)
	}
	return nil
}

// stored reads every stored schedule.
func (s *Scheduler) stored(ctx context.Context) ([]*storage.Schedule, error) {
	var out []*storage.Schedule
	err := s.store.View(ctx, func(tx storage.Tx) error {
		var err error
		out, err = tx.Schedules()
		return err
	})
	return out, err
}

// List returns the stored schedules of channelID ("" for all), each with its next
// firing in its zone, soonest first (never-firing ones last, then by id).
func (s *Scheduler) List(ctx context.Context, channelID string) ([]Listing, error) {
	stored, err := s.stored(ctx)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var out []Listing
	for _, sc := range stored {
		if channelID != "" && sc.ChannelID != channelID {
			continue
		}
		l := Listing{Schedule: *sc}
		if sched, err := Parse(sc.Cron, sc.TimeZone); err == nil {
			if next := sched.Next(now); !next.IsZero() {
				l.Next = next.In(zoneOf(sched))
			}
		}
		out = append(out, l)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Next, out[j].Next
		switch {
		case a.IsZero() != b.IsZero():
			return b.IsZero()
		case !a.Equal(b):
			return a.Before(b)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Advance moves a manual clock to `to`, firing on the way every registered schedule's
// firings in (from, to] — from being where the last Advance left the clock, or Start's
// now — in time order (schedules due at the same instant by id). For
// each it sets the clock to the firing's time and runs the job through the Cron's own
// chain, so SkipIfStillRunning and Recover apply as on wall time, and waits for it to
// finish before the next: after Advance returns, every rest it fired is applied. If
// ctx ends while a firing runs, Advance returns ctx's error with the clock at that
// firing; the firing keeps running (Stop waits for it) and a later Advance goes on from
// there. Moving the clock back fires nothing. A jump that would fire more than
// MaxAdvance times is refused and moves nothing. Under a Leader, a leading scheduler
// first registers the schedules other processes stored (resync).
func (s *Scheduler) Advance(ctx context.Context, to time.Time) error {
	if s.manual == nil {
		return errors.New("schedule: Advance needs a manual clock (WithClock); this scheduler runs on wall time")
	}
	s.advancing.Lock()
	defer s.advancing.Unlock()
	s.mu.Lock()
	led := s.stopLead != nil
	s.mu.Unlock()
	if led {
		s.resync(ctx)
	}
	s.mu.Lock()
	if s.state != stateStarted {
		s.mu.Unlock()
		return errors.New("schedule: Advance before Start or after Stop")
	}
	type firing struct {
		at time.Time
		id string
		e  *entry
	}
	var due []firing
	from := s.advanced
	for id, e := range s.entries {
		for t := e.sched.Next(from); !t.IsZero() && !t.After(to); t = e.sched.Next(t) {
			if len(due) == MaxAdvance {
				s.mu.Unlock()
				return fmt.Errorf("schedule: moving the clock from %s to %s would fire more than %d rests; move it in smaller steps",
					from.Format(time.RFC3339), to.Format(time.RFC3339), MaxAdvance)
			}
			due = append(due, firing{t, id, e})
		}
	}
	s.mu.Unlock()
	sort.Slice(due, func(i, j int) bool {
		if !due[i].at.Equal(due[j].at) {
			return due[i].at.Before(due[j].at)
		}
		return due[i].id < due[j].id
	})
	for _, f := range due {
		s.setAdvanced(f.at)
		if err := s.runOnce(ctx, f.e); err != nil {
			return err
		}
	}
	s.setAdvanced(to)
	return nil
}

// setAdvanced moves the manual clock, and the mark of what has fired, to t.
func (s *Scheduler) setAdvanced(t time.Time) {
	s.mu.Lock()
	s.advanced = t
	s.mu.Unlock()
	s.manual.Set(t)
}

// runOnce runs e's wrapped job in a goroutine, as robfig's timer loop does, and waits
// for it (or ctx). The job reads the clock first thing; runOnce waits for that read
// (or for the chain to skip the job) before anything can move the clock.
func (s *Scheduler) runOnce(ctx context.Context, e *entry) error {
	s.mu.Lock()
	if s.state != stateStarted {
		s.mu.Unlock()
		return errors.New("schedule: stopped while advancing the clock")
	}
	if !s.leading { // leadership went while advancing: the leader fires it
		s.mu.Unlock()
		return nil
	}
	s.firings.Add(1) // under s.mu, so never after Stop began waiting
	s.mu.Unlock()
	read := make(chan struct{})
	e.job.mu.Lock()
	e.job.read = read
	e.job.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer s.firings.Done()
		defer close(done)
		e.wrapped.Run()
	}()
	select {
	case <-read:
	case <-done: // skipped: the previous firing still runs
	}
	e.job.mu.Lock()
	e.job.read = nil
	e.job.mu.Unlock()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait waits for the firings Advance started to finish, those it left running when its
// ctx ended included. Call it when no Advance is in progress.
func (s *Scheduler) Wait() { s.firings.Wait() }

// Stop stops firing and waits for running firings to finish, so the database can be
// closed after it returns. A firing blocked forever blocks Stop: cancel Start's ctx to
// end them. Stop may be called more than once.
func (s *Scheduler) Stop() {
	s.mu.Lock()
	if s.state == stateStopped {
		s.mu.Unlock()
		return
	}
	s.state = stateStopped
	s.leading, s.settled = false, false
	stopLead, led := s.stopLead, s.led
	s.mu.Unlock()
	if stopLead != nil {
		stopLead()
		<-led
	}
	<-s.cron.Stop().Done()
	s.firings.Wait()
}

// job is what the Cron runs for one schedule.
type job struct {
	s     *Scheduler
	id    string
	sched cron.Schedule

	mu   sync.Mutex
	seed time.Time     // firings at or before it are done, skipped or before registration
	read chan struct{} // Advance's: closed once Run has read the clock
}

// Run fires the schedule for its latest firing due by the clock's now: the one that
// woke robfig's timer (on wall time) or the one Advance set the clock to. A firing the
// process slept through (a suspended host) is folded into the latest.
func (j *job) Run() {
	now := j.s.clock.Now()
	j.mu.Lock()
	if j.read != nil {
		close(j.read)
		j.read = nil
	}
	var at time.Time
	for t := j.sched.Next(j.seed); !t.IsZero() && !t.After(now); t = j.sched.Next(t) {
		at = t
	}
	if !at.IsZero() {
		j.seed = at
	}
	j.mu.Unlock()
	if !at.IsZero() {
		j.s.fire(j.id, at.In(zoneOf(j.sched)))
	}
}

// fire applies one firing through the Firer unless it already ran, then records
// LastRun (which Fire's Claim normally did already, in its own transaction).
func (s *Scheduler) fire(id string, at time.Time) {
	ctx := s.ctx
	var sc *storage.Schedule
	err := s.store.View(ctx, func(tx storage.Tx) error {
		var err error
		sc, err = tx.Schedule(id)
		return err
	})
	if storage.KindOf(err) == storage.NotFound {
		return // removed
	}
	if err != nil {
		s.log.Error("schedule: reading a schedule to fire it", "id", id, "at", at, "err", err)
		return
	}
	if !at.After(sc.LastRun) {
		s.log.Info("schedule: firing already ran", "id", id, "at", at, "lastRun", sc.LastRun)
		return
	}
	if err := s.firer.Fire(ctx, *sc, at); err != nil {
		s.log.Error("schedule: firing failed", "id", id, "at", at, "err", err)
		return
	}
	err = s.store.Update(ctx, func(tx storage.Tx) error {
		_, err := Claim(tx, id, at)
		if storage.KindOf(err) == storage.NotFound {
			return nil
		}
		return err
	})
	if err != nil {
		s.log.Error("schedule: recording a firing's last run", "id", id, "at", at, "err", err)
	}
}

// zoneOf is the zone Parse gave the schedule.
func zoneOf(sched cron.Schedule) *time.Location {
	if ss, ok := sched.(*cron.SpecSchedule); ok && ss.Location != nil {
		return ss.Location
	}
	return time.UTC
}

func latest(ts ...time.Time) time.Time {
	var l time.Time
	for _, t := range ts {
		if t.After(l) {
			l = t
		}
	}
	return l
}

// cronLogger passes robfig's log lines to slog: its routine lines at debug level, a
// skipped firing as a warning, a recovered panic as an error.
type cronLogger struct{ l *slog.Logger }

func (c cronLogger) Info(msg string, kv ...any) {
	if msg == "skip" {
		c.l.Warn("schedule: a firing was skipped: the schedule's previous firing is still running")
		return
	}
	c.l.Debug("cron: "+msg, kv...)
}

func (c cronLogger) Error(err error, msg string, kv ...any) {
	c.l.Error("cron: "+msg, append([]any{"err", err}, kv...)...)
}
