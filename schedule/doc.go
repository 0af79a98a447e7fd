// Package schedule runs scheduled rests (SPEC 9) on robfig/cron/v3, independent of
// Discord and of the bot core, which implements Firer and calls the Scheduler.
//
// # Validation
//
// Parse accepts five-field cron expressions and the descriptors @yearly, @monthly,
// @weekly, @daily and @hourly, in a zone given by IANA name (the zone database is
// embedded with time/tzdata) or by a CRON_TZ= prefix, and refuses anything else with a
// *SpecError that says what is wrong in plain words. robfig's parser runs under
// recover, because some malformed expressions panic it.
//
// # Firing, exactly once
//
// A firing is identified by its schedule and its scheduled time. The bot's Fire calls
// Claim in the transaction that applies the rest: Claim advances the schedule's
// LastRun to the firing's time and refuses a firing at or before it, so the rest and
// the record that it ran commit together and one firing is never applied twice. The
// reply is recorded under FiringID ("schedule:<id>:<unix>"). The scheduler checks
// LastRun before calling Fire and sets it after (in case a Firer did not).
//
// # Missed firings
//
// Start reports, once per schedule, the firings that fell between the schedule's
// creation, last run or last report and now (Firer.Missed), records the report in
// MissedReported, and applies none of them.
//
// # The clock
//
// robfig/cron reads time.Now itself and sleeps on real timers, so it cannot be driven
// by a fake clock. The Scheduler therefore has two modes over the same robfig Cron:
//
//   - Wall time (the default, production): the Cron is started and its timer loop fires
//     jobs. Each schedule's job is registered with Cron.Schedule and wrapped by the
//     Cron's chain, SkipIfStillRunning then Recover.
//   - A manual clock (WithClock(*ManualClock); tests and the console's `!clock TIME`):
//     the Cron is never started, so its timers never run. Advance(to) computes, with
//     the same robfig Schedule.Next, every registered schedule's firings in
//     (from, to] — from being where the last Advance left off (Start's now at first),
//     so a running clock that moved on meanwhile loses no firing — and for each in
//     time order sets the clock to the firing's time and runs the entry's WrappedJob
//     taken from the Cron itself — the very job instance the timer loop would run,
//     chain included — in a goroutine, as the timer loop does, waiting for it to
//     finish before the next.
//
// In both modes the job reads the Clock when it starts and fires for the latest
// scheduled time due by then; Advance waits for that read before it can move the clock
// again, so the time a firing is applied as never depends on goroutine timing.
//
// # Several processes
//
// On a store several processes share (etcd), each runs a Scheduler under StartLeading
// with the same Leader (storage/etcd's Election): only the elected one registers and
// fires; the others store what their Add is given and wait. A new leader loads every
// schedule, reports what was missed since the stored LastRun and MissedReported (so a
// report comes once across handovers), and fires from its own now; while it leads it
// picks up schedules the others stored (resync). A firing is never applied twice even
// when two processes briefly both lead: Claim commits with the rest.
//
// # Daylight saving time
//
// Firings follow the zone's wall clock exactly as robfig/cron computes them: a job
// inside a spring-forward gap does not run that night (a 02:30 rest in Europe/Berlin
// does not fire on 29 March 2026, when clocks jump from 02:00 to 03:00; it fires at
// 02:30 the night before and the night after), and a job inside the repeated hour of a
// fall-back night runs twice (02:30 on 25 October 2026 fires at 00:30Z and at 01:30Z).
package schedule
