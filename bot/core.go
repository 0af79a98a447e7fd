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
	"sync/atomic"
	"time"

	"sheetkeeper/check"
	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// Options configure a Core.
type Options struct {
	// Clock is the bot's one clock: what it records is stamped with it and scheduled
	// rests fire by it. Nil is the wall clock (schedule.Wall), on which robfig/cron's
	// timers fire the rests. A *schedule.ManualClock (tests, the console's !clock) moves
	// only when told: rests fire only when Advance moves it.
	Clock schedule.Clock
	// Log receives what users are not shown (internal errors, ignored events).
	Log *slog.Logger
	// Post receives what the bot says on its own, not in answer to an event: a scheduled
	// rest's results and the report of rests missed while it was offline (schedule.go).
	// The front end posts each action as it posts OnMessage's (and reports a post's id
	// with RecordPost when ReplySeq is set). It is called from the scheduler's goroutines,
	// possibly at once for different schedules. Nil: such actions are logged and dropped.
	Post func(ctx context.Context, a Action)
	// Dice throws every die the bot rolls (checks, free rolls: SPEC 3.6), one per
	// process. Nil is check.NewSource(), seeded from crypto/rand so no face can be
	// predicted; tests and the console's --seed give check.Seeded(n).
	Dice check.Source
	// Observe is told what the operator's metrics count (observe.go). Nil counts
	// nothing.
	Observe Observer
	// Panels runs game systems' panels (inventory_sheet_panels.go): a panel/worker's Run,
	// one worker per process, which the caller starts and closes. Nil runs none.
	Panels PanelRunner
}

// Core is the bot. It is safe for concurrent use: events for different channels run in
// parallel, and storage serialises what must not interleave.
type Core struct {
	store storage.Store
	clock schedule.Clock
	log   *slog.Logger
	dice  check.Source
	// observe is Options.Observe, never nil.
	observe Observer
	panels  PanelRunner

	// loaded caches parsed rulesets by namespace, id and version: a stored ruleset is
	// parsed once per process, not once per message.
	mu     sync.Mutex
	loaded map[rulesetKey]*ruleset.Loaded
	// systems caches parsed inventory systems the same way (systems.go), at most
	// maxCachedSystems of them (cache.go).
	systems *lru[systemKey, *inventory.System]
	// builtinSystems lists the built-in systems, read once: listing reads every file
	// (the 5e one is a megabyte), and /system's completer asks on every keystroke.
	builtinSystems func() ([]content.System, error)

	// pickers caches each loaded ruleset's catalog index (package catalog), built once
	// per loaded ruleset: *ruleset.Loaded → *catalog.Index (cmd_pick.go, catalogs).
	pickers sync.Map
	// builds keeps, per loaded ruleset, what its cards' builds yield from one message to
	// the next: *ruleset.Loaded → *sheet.Builds (messages.go, sheetBuilds).
	builds sync.Map
	// gmSeen remembers the authors last found GMs of a channel (gmKey → struct{}), at
	// most maxSeenGMs, so their messages skip the read that turns players away; the
	// write checks again (messages.go, onMessage).
	gmSeen      sync.Map
	gmSeenCount atomic.Int64

	// post and sched are the scheduled rests' (schedule.go): where the bot's own posts
	// go, and the scheduler, created by New, run by Start, stopped by Close.
	post  func(ctx context.Context, a Action)
	sched *schedule.Scheduler

	// played caches each campaign system built, by its playedKey (inventory.go): a
	// campaign's states over a parsed system, or a ruleset's items block bridged; at
	// most maxCachedPlayed of them (cache.go).
	played *lru[playedKey, *played]

	// itemRules runs the campaigns' inventory rules (rules.go, rules_store.go): after
	// every change, and on its clock, which Start runs.
	itemRules *Rules
	rulesStop func() // stops the rules clock Start runs (nil: none running)
	rulesDone chan struct{}

	// router holds the commands and the component handlers, built by New and only read
	// afterwards (commands.go).
	router *router
}

// rulesetKey names one stored ruleset: its namespace (storage.RulesetHome), id and
// version. local/x of two guilds are two entries.
type rulesetKey struct {
	guild   string
	id      string
	version int
}

// New returns a core over store.
func New(store storage.Store, opts Options) *Core {
	c := &Core{store: store, clock: opts.Clock, log: opts.Log, dice: opts.Dice, loaded: map[rulesetKey]*ruleset.Loaded{},
		systems: newLRU[systemKey, *inventory.System](maxCachedSystems), played: newLRU[playedKey, *played](maxCachedPlayed)}
	c.router = newRouter()
	c.builtinSystems = sync.OnceValues(content.Systems)
	if c.clock == nil {
		c.clock = schedule.Wall{}
	}
	if c.dice == nil {
		c.dice = check.NewSource()
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.observe, c.panels = opts.Observe, opts.Panels
	if c.observe == nil {
		c.observe = noObserver{}
	}
	c.initSchedule(opts)
	c.itemRules = NewRules(storeRules{c}, c.clock, c.deliverRules)
	return c
}

// Now is the core's clock.
func (c *Core) Now() time.Time { return c.clock.Now() }

// The event entry points. Each is implemented in its own file:
//
//	OnMessage, OnEdit, OnDelete, RecordPost   messages.go  (SPEC 3, 6)
//	OnCommand, Commands                       commands.go  (SPEC 8.1, the router)
//	OnComponent                               components.go
//	OnAutocomplete                            autocomplete.go
//	Start, Close, Advance, Fire, Missed       schedule.go  (SPEC 9)
