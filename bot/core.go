// Package bot is sheetkeeper's transport-free core: campaigns bound to channels, who may
// do what, the command router, and the path from a GM's message to the engine and back:
// message → tags → engine → one storage transaction → actions for the front end.
//
// Handlers return responses as data (text, embeds, components, the ephemeral flag), so
// every command is tested without a network; the Discord adapter (bot/discord) and the
// console (bot/console) only render them and turn their events into calls here.
package bot

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// Options configure a Core.
type Options struct {
	// Clock tells the time; nil is time.Now. Tests and the console's !clock move it.
	Clock func() time.Time
	// Log receives what users are not shown (internal errors, ignored events).
	Log *slog.Logger
	// Post receives what the bot says on its own, not in answer to an event: a scheduled
	// rest's results and the report of rests missed while it was offline (schedule.go).
	// The front end posts each action as it posts OnMessage's (and reports a post's id
	// with RecordPost when ReplySeq is set). It is called from the scheduler's goroutines,
	// possibly at once for different schedules. Nil: such actions are logged and dropped.
	Post func(ctx context.Context, a Action)
	// ScheduleClock drives scheduled rests by hand: they fire only when Advance moves it
	// (tests, the console's !clock). Nil runs them on wall time. When Clock is nil, the
	// core reads this clock too.
	ScheduleClock *schedule.ManualClock
}

// Core is the bot. It is safe for concurrent use: events for different channels run in
// parallel, and storage serialises what must not interleave.
type Core struct {
	store storage.Store
	clock func() time.Time
	log   *slog.Logger

	// loaded caches parsed rulesets by id and version: a stored ruleset is parsed once
	// per process, not once per message.
	mu     sync.Mutex
	loaded map[rulesetKey]*ruleset.Loaded

	// pickers caches each loaded ruleset's catalog index (package catalog), built once
	// per loaded ruleset: *ruleset.Loaded → *catalog.Index (cmd_pick.go, catalogs).
	pickers sync.Map

	// post and sched are the scheduled rests' (schedule.go): where the bot's own posts
	// go, and the scheduler, created by New, run by Start, stopped by Close.
	post  func(ctx context.Context, a Action)
	sched *schedule.Scheduler

	// router holds the commands and the component handlers, built by New and only read
	// afterwards (commands.go).
	router *router
}

type rulesetKey struct {
	id      string
	version int
}

// New returns a core over store.
func New(store storage.Store, opts Options) *Core {
	c := &Core{store: store, clock: opts.Clock, log: opts.Log, loaded: map[rulesetKey]*ruleset.Loaded{}}
	c.router = newRouter()
	if c.clock == nil {
		c.clock = time.Now
		if opts.ScheduleClock != nil {
			c.clock = opts.ScheduleClock.Now
		}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.initSchedule(opts)
	return c
}

// Now is the core's clock.
func (c *Core) Now() time.Time { return c.clock() }

// The event entry points. Each is implemented in its own file:
//
//	OnMessage, OnEdit, OnDelete, RecordPost   messages.go  (SPEC 3, 6)
//	OnCommand, Commands                       commands.go  (SPEC 8.1, the router)
//	OnComponent                               components.go
//	OnAutocomplete                            autocomplete.go
//	Start, Close, Advance, Fire, Missed       schedule.go  (SPEC 9)
