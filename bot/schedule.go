package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// Scheduled rests (SPEC 9), the core's side: the Core is the schedule.Firer of its own
// scheduler. A firing is a reply of the scheduler: it applies the rest exactly as a GM's
// [sheet: op="rest"] tag is applied (table.apply), in ONE transaction that also claims
// the firing (schedule.Claim, so one firing is never applied twice, by two processes or
// after a crash) and records the reply under the firing's id, then posts the write-back
// and the per-character summary (render) to the channel through Options.Post.
//
// A fired rest is a live reply like a GM's, in the channel's reply log, so it is a point
// later replies build on: once it has fired, a GM message before it is an earlier reply
// (an edit of it applies nothing and says so, a delete of it waits, SPEC 6). It has no
// message a GM could edit or delete (its id is the firing's, schedule:<id>:<unix>, not a
// Discord message): its post carries the Undo button every outcome post has (undo.go).
//
// A rest that changes nothing — everyone already rested, every outcome applied — posts
// nothing: a nightly schedule would otherwise fill the channel with no-news. It is
// still recorded (the firing claimed, the reply in the log), and a note of firings a
// clock change swallowed is still posted, alone. A refused rest is posted, so a schedule
// that no longer works is heard of.
//
// The front end hands the core's own posts on: Options.Post is called with each, from
// the scheduler's goroutines. The Discord adapter posts them; the console collects them
// in an Outbox and shows them under the `!clock` event whose Advance fired them.

// initSchedule creates the core's scheduler (New calls it), on the core's clock: by hand
// when it is a *schedule.ManualClock, else on robfig/cron's timers. Nothing runs before
// Start.
func (c *Core) initSchedule(opts Options) {
	c.post = opts.Post
	c.sched = schedule.New(c.store, c, schedule.WithLogger(c.log), schedule.WithClock(c.clock))
}

// Start starts the scheduled rests: every stored schedule is registered and fires from
// now on (on wall time, or when Advance moves a manual clock), and the firings each one
// missed while the bot was down are reported once through Options.Post, never applied.
// Call it once, when the front end can post; ctx is given to every firing.
func (c *Core) Start(ctx context.Context) error {
	if err := c.sched.Start(ctx); err != nil {
		return err
	}
	c.startRules(ctx) // inventory rules: their clock runs with the schedules
	return nil
}

// StartLeading starts the scheduled rests as Start does, but they run only while l
// elects this process (schedule.Scheduler.StartLeading): several processes may share an
// etcd store, and one runs the schedules. It returns at once.
func (c *Core) StartLeading(ctx context.Context, l schedule.Leader) error {
	if err := c.sched.StartLeading(ctx, l); err != nil {
		return err
	}
	c.startRules(ctx)
	return nil
}

// Close stops the scheduled rests and the inventory rules' clock, and waits for a
// firing or a rules run in progress to commit: call it before closing the store. It may be called more than once, and without Start.
func (c *Core) Close() {
	c.stopRules()
	c.sched.Stop()
}

// Advance moves the manual clock (Options.Clock) to `to`, firing on the
// way every rest that comes due, in time order; when it returns, each is applied and its
// post handed to Options.Post. The console's `!clock TIME` calls it. On wall time it is
// an error. The inventory rules' clock then ticks once at `to`.
func (c *Core) Advance(ctx context.Context, to time.Time) error {
	if err := c.sched.Advance(ctx, to); err != nil {
		return err
	}
	c.tickRules(ctx)
	return nil
}

// Fire applies one firing of s at `at` (its scheduled time, schedule.Firer): claim,
// apply, record and render in one transaction, then post. A firing already claimed (it
// ran, in this process or another) or of a schedule removed meanwhile does nothing.
func (c *Core) Fire(ctx context.Context, s storage.Schedule, at time.Time) error {
	var post Action
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		post = Action{}
		claimed, err := schedule.Claim(tx, s.ID, at)
		if storage.KindOf(err) == storage.NotFound {
			return skip("schedule removed")
		}
		if err != nil {
			return err
		}
		if !claimed {
			return skip("firing already ran")
		}
		camp, err := tx.Campaign(s.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			post = Action{Kind: Post, ChannelID: s.ChannelID, Content: fmt.Sprintf(
				"⏰ The rest scheduled at %s (%s) did not run: this channel has no campaign any more. /schedule remove id:%s stops it.",
				clockOf(at, s), zoneName(s), s.ID)}
			return nil // the claim commits: this firing is done
		}
		if err != nil {
			return err
		}
		t, err := c.openTable(tx, camp)
		if err != nil {
			return err
		}
		tag := restTag(s)
		done := t.apply([]parser.Tag{tag}, "")
		seq, err := tx.NextReplySeq(s.ChannelID)
		if err != nil {
			return err
		}
		r := &storage.Reply{
			ChannelID: s.ChannelID, Seq: seq, MessageID: schedule.FiringID(s.ID, at), AuthorID: s.CreatedBy,
			Text: tag.Canonical(), Status: storage.ReplyLive, Changes: changesOf(done),
			Source: "schedule:" + s.ID, CreatedAt: at, UpdatedAt: at,
		}
		if err := t.save(tx, at); err != nil {
			return err
		}
		if err := tx.PutReply(r); err != nil {
			return err
		}
		post = firedPost(t, s, at, seq, done)
		return nil
	})
	var sk *skipped
	switch {
	case errors.As(err, &sk):
		c.log.Debug("scheduled rest not applied", "schedule", s.ID, "at", at, "why", sk.why)
		return nil
	case err != nil:
		if ctx.Err() == nil { // shutting down: there is no one to tell
			c.deliver(ctx, Action{Kind: Post, ChannelID: s.ChannelID, Content: fmt.Sprintf(
				"Internal error: the rest scheduled at %s (%s) was not applied.", clockOf(at, s), zoneName(s))})
		}
		return fmt.Errorf("firing schedule %s at %s: %w", s.ID, at.Format(time.RFC3339), err)
	}
	c.observe.ScheduleFired()
	if post.Kind != "" {
		c.deliver(ctx, post)
	}
	return nil
}

// firedPost is the post of s's firing at `at`, recorded as reply seq: the header, the
// write-back and the summary, with Undo; for a quiet rest nothing (Kind ""), or only
// the note of firings a clock change swallowed.
func firedPost(t *table, s storage.Schedule, at time.Time, seq int64, done []applied) Action {
	gaps := skippedByGap(s, at)
	if quiet(done) {
		if len(gaps) == 0 {
			return Action{}
		}
		return Action{Kind: Post, ChannelID: s.ChannelID, Content: "⏰ " + gapNote(gaps)}
	}
	content, embeds, outs := renderReply(t.rules.Ruleset, nil, t.cards, done)
	head := firedHeader(s, restLabel(t.rules.Ruleset, s.Rest), at)
	if len(gaps) > 0 {
		head += "\n" + gapNote(gaps)
	}
	return Action{Kind: Post, ChannelID: s.ChannelID, Content: head + "\n" + content, Embeds: embeds, Outcomes: outs,
		Components: undoRow(seq), ReplySeq: seq}
}

// quiet reports whether a fired rest's outcomes say nothing worth a post: every one
// applied, and nothing changed.
func quiet(done []applied) bool {
	for _, a := range done {
		if !a.res.Outcome.OK() {
			return false
		}
		for _, cr := range a.res.Cards {
			if !cr.Outcome.OK() {
				return false
			}
		}
	}
	return len(changesOf(done)) == 0
}

// Missed tells s's channel that its rest did not run while the bot was offline
// (schedule.Firer): "the 06:00 rest "Moor until dawn" did not run while I was offline",
// with the count when more than one. Nothing is applied, now or later.
func (c *Core) Missed(ctx context.Context, s storage.Schedule, m schedule.Missed) error {
	label := s.Rest
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := tx.Campaign(s.ChannelID)
		if err != nil {
			return err
		}
		l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
		if err != nil {
			return err
		}
		label = restLabel(l.Ruleset, s.Rest)
		return nil
	})
	if err != nil && storage.KindOf(err) != storage.NotFound {
		c.log.Warn("missed rests: reading the rest's label", "schedule", s.ID, "err", err)
	}
	c.observe.ScheduleMissed(m.Count)
	c.deliver(ctx, Action{Kind: Post, ChannelID: s.ChannelID, Content: missedText(s, label, m)})
	return nil
}

// deliver hands one of the bot's own posts to the front end.
func (c *Core) deliver(ctx context.Context, a Action) {
	if c.post == nil {
		c.log.Info("no front end to post to", "channel", a.ChannelID, "content", a.Content)
		return
	}
	c.post(ctx, a)
}

// restTag is the tag a GM would write for s's rest: for s.Who, or the party.
func restTag(s storage.Schedule) parser.Tag {
	who := strings.TrimSpace(s.Who)
	if who == "" {
		who = "party"
	}
	return parser.Tag{Kind: parser.Sheet, Op: "rest", Who: who, Attrs: []parser.Attr{{Key: "rest", Value: s.Rest}}}
}

// restLabel is the label of the rest named id (by id or label), or id itself when the
// ruleset has no such rest any more.
func restLabel(rs *ruleset.Ruleset, id string) string {
	if r, err := sheet.FindRest(rs, id); err == nil {
		return r.Label
	}
	return id
}

// firedHeader is the first line of a fired rest's post: what ran, for whom, when.
func firedHeader(s storage.Schedule, label string, at time.Time) string {
	return fmt.Sprintf("⏰ Scheduled rest %q for %s, %s (%s):", label, whoWords(s.Who), clockOf(at, s), zoneName(s))
}

// whoWords says whom a schedule rests.
func whoWords(who string) string {
	if who = strings.TrimSpace(who); who == "" || sheet.IsParty(who) {
		return "the party"
	}
	return who
}

// missedText is the report of missed firings, times in the schedule's zone.
func missedText(s storage.Schedule, label string, m schedule.Missed) string {
	loc := zoneOf(s)
	first, last := m.First.In(loc), m.Last.In(loc)
	zone := zoneName(s)
	if m.Count <= 1 {
		return fmt.Sprintf("⏰ The %s rest %q did not run while I was offline (%s, %s). It was not applied late: /rest gives it now if %s should have it.",
			first.Format("15:04"), label, first.Format(dayLayout), zone, whoWords(s.Who))
	}
	times := fmt.Sprintf("%d times", m.Count)
	if m.Count >= schedule.MaxMissed {
		times = fmt.Sprintf("at least %d times", m.Count)
	}
	what, span := fmt.Sprintf("The %s rest %q", first.Format("15:04"), label), first.Format(dayLayout)+" to "+last.Format(dayLayout)
	if first.Format("15:04") != last.Format("15:04") {
		what, span = fmt.Sprintf("The rest %q", label), first.Format(dayLayout+" 15:04")+" to "+last.Format(dayLayout+" 15:04")
	}
	return fmt.Sprintf("⏰ %s did not run %s while I was offline (%s, %s). None was applied late: /rest gives it now if %s should have it.",
		what, times, span, zone, whoWords(s.Who))
}

// dayLayout shows a firing's day.
const dayLayout = "Mon 2 Jan 2006"

// zoneOf is s's zone (UTC when it names none or one no longer known).
func zoneOf(s storage.Schedule) *time.Location {
	loc, err := schedule.LoadZone(s.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// zoneName is s's zone as the GM gave it, UTC when none.
func zoneName(s storage.Schedule) string {
	if s.TimeZone == "" {
		return "UTC"
	}
	return s.TimeZone
}

// clockOf is t's time of day on s's wall clock: "06:00".
func clockOf(t time.Time, s storage.Schedule) string { return t.In(zoneOf(s)).Format("15:04") }

// skippedByGap returns the times s would have fired between its last run (or creation,
// or last missed report) and at, had its zone no daylight saving time, that do not exist
// on the zone's wall clock: firings a spring-forward gap swallowed. Cron skips them
// (SPEC 9, DESIGN: a job inside the gap does not run); the post of the next firing says
// so, as nothing was applied that night.
func skippedByGap(s storage.Schedule, at time.Time) []time.Time {
	var since time.Time
	for _, t := range []time.Time{s.CreatedAt, s.LastRun, s.MissedReported} {
		if t.After(since) {
			since = t
		}
	}
	if since.IsZero() || s.TimeZone == "" {
		return nil
	}
	loc := zoneOf(s)
	naive, err := schedule.Parse(bareCron(s.Cron), "")
	if err != nil {
		return nil
	}
	from, to := wallAsUTC(since.In(loc)), wallAsUTC(at.In(loc))
	var out []time.Time
	steps := 0
	for n := naive.Next(from); !n.IsZero() && n.Before(to) && steps < 10000 && len(out) < 3; n = naive.Next(n) {
		steps++
		real := time.Date(n.Year(), n.Month(), n.Day(), n.Hour(), n.Minute(), 0, 0, loc)
		if !wallAsUTC(real).Equal(n) {
			out = append(out, n)
		}
	}
	return out
}

// bareCron is a cron expression without its CRON_TZ= (or TZ=) prefix.
func bareCron(spec string) string {
	spec = strings.TrimSpace(spec)
	if strings.HasPrefix(spec, "CRON_TZ=") || strings.HasPrefix(spec, "TZ=") {
		if _, rest, ok := strings.Cut(spec, " "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return spec
}

// wallAsUTC is t's wall clock reading as a UTC time: the same date and time of day.
func wallAsUTC(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// gapNote says which firings a spring-forward gap swallowed (times as wall readings).
func gapNote(gaps []time.Time) string {
	days := make([]string, len(gaps))
	for i, g := range gaps {
		days[i] = g.Format("15:04 on " + dayLayout)
	}
	return "(The rest of " + strings.Join(days, ", ") + " did not run: the clocks went forward over that time, which did not exist that night, and nothing was applied.)"
}

// Outbox collects the core's own posts for a front end that shows them at its own pace:
// its Post is an Options.Post, and Take hands over what came since the last Take. The
// console shows what a `!clock` fired under that event (Advance returns only after every
// firing posted). It is safe for concurrent use.
type Outbox struct {
	mu   sync.Mutex
	acts []Action
}

// Post keeps a for the next Take.
func (o *Outbox) Post(_ context.Context, a Action) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.acts = append(o.acts, a)
}

// Take returns the actions posted since the last Take, oldest first.
func (o *Outbox) Take() []Action {
	o.mu.Lock()
	defer o.mu.Unlock()
	acts := o.acts
	o.acts = nil
	return acts
}
