// Package bot is sheetkeeper's transport-free core: campaigns bound to channels, who may
// do what, the command router, and the path from a GM's message to the engine and back:
// message → tags → engine → one storage transaction → actions for the front end.
//
// Handlers return responses as data (text, embeds, components, the ephemeral flag), so
// every command is tested without a network; the Discord adapter (bot/discord) and the
// console (bot/console) only render them and turn their events into calls here.
package bot

import (
	"log/slog"
	"sync"
	"time"

	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// Options configure a Core.
type Options struct {
	// Clock tells the time; nil is time.Now. Tests and the console's !clock move it.
	Clock func() time.Time
	// Log receives what users are not shown (internal errors, ignored events).
	Log *slog.Logger
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
}

type rulesetKey struct {
	id      string
	version int
}

// New returns a core over store.
func New(store storage.Store, opts Options) *Core {
	c := &Core{store: store, clock: opts.Clock, log: opts.Log, loaded: map[rulesetKey]*ruleset.Loaded{}}
	if c.clock == nil {
		c.clock = time.Now
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
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
