package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"sheetkeeper/bot"
	"sheetkeeper/bot/discord"
	"sheetkeeper/config"
	"sheetkeeper/ops"
	"sheetkeeper/panel/worker"
	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
)

// noTokenMessage is the one line `run` prints without a token: how to set one, and
// what runs without one.
const noTokenMessage = "sheetkeeper run: no Discord token: set DISCORD_TOKEN (or SHEETKEEPER_DISCORD_TOKEN, or discord-token in a --config file); `sheetkeeper console` runs without one"

func cmdRun(args []string, _ io.Reader, _, stderr io.Writer) int {
	cfg, _, status := loadConfig("run", runSettings(), args, stderr)
	if status >= 0 {
		return status
	}
	if cfg.DiscordToken == "" {
		fmt.Fprintln(stderr, noTokenMessage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runBot(ctx, cfg, stderr)
}

// runSettings are the settings `run` takes.
func runSettings() []string {
	return slices.Concat([]string{"discord-token", "discord-api", "discord-guild", "log-level"}, opsSettings, config.StoreSettings, config.ShardSettings)
}

// runBot runs the bot until ctx is done (a signal), then shuts it down gracefully. It
// returns the exit status.
func runBot(ctx context.Context, cfg *config.Config, stderr io.Writer) int {
	m := NewMain(cfg, stderr)
	if err := m.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "sheetkeeper run: %v\n", err)
		m.Close()
		return 1
	}
	<-ctx.Done()
	m.Log.Info("shutting down: finishing what is in flight")
	if err := m.Close(); err != nil {
		fmt.Fprintf(stderr, "sheetkeeper run: %v\n", err)
		return 1
	}
	return 0
}

// Main is the running bot: the database, the core over it and the Discord front end,
// opened in that order by Run and closed in the reverse order by Close.
type Main struct {
	Config *config.Config
	Log    *slog.Logger

	Store storage.Store
	Core  *bot.Core
	Bot   *discord.Bot
	// Panels runs game systems' panels in a child process (panels.go).
	Panels *worker.Worker

	stopControl func() // the control socket (control.go)

	// ShardTTL is the lease of each shard this process runs with --shards auto on
	// etcd (etcd.DefaultLeaseTTL when 0): how long a dead process's shards go unrun.
	ShardTTL time.Duration
	// IdentifyInterval spaces the IDENTIFYs of the shards this process opens
	// (discord.Options.IdentifyInterval: 5 s when 0, none when negative).
	IdentifyInterval time.Duration
	stopShards       func() // ends the shards' leases and closes their sessions (startShards)

	// The operator's view (ops.go): the metrics' registry, the metrics, and the HTTP
	// endpoints when --http is set.
	Registry *prometheus.Registry
	Metrics  *ops.Metrics
	HTTP     *ops.Server
}

// NewMain returns a Main for cfg that logs to w at cfg's level, in cfg's format.
func NewMain(cfg *config.Config, w io.Writer) *Main {
	return &Main{Config: cfg, Log: newLogger(cfg.LogLevel, cfg.LogFormat, w)}
}

// Run opens the database, starts the core, serves the operator's endpoints (with
// --http: ops.go) and connects to Discord (registering the slash commands). It returns once the bot is running; on an error, Close releases
// whatever was opened.
func (m *Main) Run(ctx context.Context) error {
	if err := m.newMetrics(); err != nil {
		return err
	}
	if err := m.openStore(); err != nil {
		return err
	}
	store := m.Store
	// The core posts scheduled rests through the bot, which is made after it.
	var front *discord.Bot
	post := func(ctx context.Context, a bot.Action) {
		if front != nil {
			front.Post(ctx, a)
		}
	}
	m.Panels = newPanelWorker(m.Log)
	m.Core = bot.New(store, bot.Options{Log: m.Log, Post: post, Observe: m.Metrics, Panels: panelRunner(m.Panels)})
	var err error
	front, err = discord.New(m.Core, discord.Options{
		Token: m.Config.DiscordToken,
		API:   m.Config.DiscordAPI,
		Guild: m.Config.DiscordGuild,
		Log:   m.Log,

		Shard:      m.Config.Shard,
		Shards:     m.Config.Shards,
		ShardsAuto: m.Config.ShardsAuto,
		// Zero: Discord's 5 s.
		IdentifyInterval: m.IdentifyInterval,

		OnReconnect: m.Metrics.Reconnected,
	})
	if err != nil {
		return err
	}
	m.Bot = front
	if err := m.serveOps(store, front); err != nil {
		return err
	}
	openCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := m.Bot.Open(openCtx); err != nil {
		return err
	}
	if m.Config.ShardsAuto {
		if err := m.startShards(ctx); err != nil {
			return err
		}
	}
	// Scheduled rests start once their posts can go out; their firings outlive the
	// signal's context, as Close lets one in progress finish.
	if err := m.startSchedules(context.Background()); err != nil {
		return fmt.Errorf("starting scheduled rests: %w", err)
	}
	m.Log.Info("sheetkeeper is running", "store", m.Config.StoreAt().String())
	return nil
}

// startSchedules starts the scheduled rests with ctx. A bbolt file is held by this
// process alone, so it runs them; an etcd store may be shared by several, and the one
// an etcd election makes leader runs them (another takes over within the lease's TTL
// of its death; Close gives the leadership up at once).
func (m *Main) startSchedules(ctx context.Context) error {
	if m.Config.StoreAt().Backend != config.Etcd {
		return m.Core.Start(ctx)
	}
	el, err := etcd.NewElection(m.Store, 0)
	if err != nil {
		return err
	}
	return m.Core.StartLeading(ctx, el)
}

// startShards runs the shards of --shards auto: as many as Discord recommends, all of
// them in this process on a bbolt file (which no other process shares), else this
// process's share of them, held by etcd leases (etcd.Shards) until Close. Opening
// every shard takes IdentifyInterval each, so ctx (not a minute's) bounds it.
func (m *Main) startShards(ctx context.Context) error {
	askCtx, cancel := context.WithTimeout(ctx, time.Minute)
	n, err := m.Bot.RecommendedShards(askCtx)
	cancel()
	if err != nil {
		return err
	}
	if m.Config.StoreAt().Backend != config.Etcd {
		for k := range n {
			if err := m.Bot.OpenShard(ctx, k, n); err != nil {
				return err
			}
		}
		m.Log.Info("running every shard", "shards", n)
		return nil
	}
	sh, err := etcd.NewShards(m.Store, n, m.ShardTTL, m.Log)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := sh.Run(sctx, m.Bot); err != nil {
			m.Log.Error("the shard leases ended", "err", err)
		}
	}()
	m.stopShards = func() { cancel(); <-done }
	m.Log.Info("sharing the shards through etcd", "shards", n)
	return nil
}

// Close stops the operator's endpoints, then the scheduled rests (a firing in progress
// commits and posts), then the shards' leases (--shards auto), then the bot (no new
// events; the ones in flight finish and answer), then closes the database. It is safe
// after a failed Run.
func (m *Main) Close() error {
	var errs []error
	if err := m.stopOps(); err != nil {
		errs = append(errs, fmt.Errorf("stopping the operator endpoints: %w", err))
	}
	if m.Core != nil {
		m.Core.Close()
	}
	if m.stopShards != nil {
		m.stopShards()
	}
	if m.Bot != nil {
		if err := m.Bot.Close(); err != nil {
			errs = append(errs, fmt.Errorf("closing the Discord session: %w", err))
		}
	}
	closePanelWorker(m.Panels, m.Log)
	if m.stopControl != nil {
		m.stopControl()
	}
	if m.Store != nil {
		if err := m.Store.Close(); err != nil {
			errs = append(errs, fmt.Errorf("closing %s: %w", m.Config.StoreAt(), err))
		}
	}
	return errors.Join(errs...)
}
