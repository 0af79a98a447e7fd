package console

import (
	"context"
	"log/slog"
	"time"

	"sheetkeeper/bot"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// KindStartup is the kind of the event, numbered 0, that shows what the bot said on its
// own when the session started: scheduled rests missed while nothing ran.
const KindStartup = "startup"

// Start opens a console session over store: a core on the session's clock, a manual
// one, so its scheduled rests (SPEC 9) fire only when `!clock` moves it — when a line
// says the time has come, never behind the typist's back — and whose
// own posts are shown under the `!clock` event that fired them. The scheduler starts at
// once, so a firing missed while no bot ran is reported (never applied) before the first
// line; Run shows that report as event 0.
//
// Close the core (core.Close) before the store.
func Start(ctx context.Context, store storage.Store, opts Options, log *slog.Logger) (*Console, *bot.Core, error) {
	if opts.Clock == nil {
		opts.Clock = schedule.NewRunningClock(nil)
	}
	outbox := &bot.Outbox{}
	core := bot.New(store, bot.Options{Clock: opts.Clock, Log: log, Post: outbox.Post, Dice: opts.Dice, Panels: opts.Panels})
	opts.OnClock = func(ctx context.Context, _, now time.Time) ([]bot.Action, error) {
		err := core.Advance(ctx, now)
		return outbox.Take(), err
	}
	opts.Posted = outbox.Take
	if err := core.Start(ctx); err != nil {
		core.Close()
		return nil, nil, err
	}
	c := New(core, opts)
	c.startup = outbox.Take()
	return c, core, nil
}

// Startup returns the event of what the bot said when the session started, or nil when
// it said nothing. Run shows it first; it is returned once.
func (c *Console) Startup(ctx context.Context) *Event {
	if len(c.startup) == 0 {
		return nil
	}
	ev := &Event{Kind: KindStartup, Channel: c.channel, Tags: []Tag{}, Posts: []Post{}}
	c.actions(ctx, ev, c.startup)
	c.startup = nil
	return ev
}
