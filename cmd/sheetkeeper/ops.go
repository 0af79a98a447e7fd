package main

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"sheetkeeper/bot/discord"
	"sheetkeeper/ops"
	"sheetkeeper/storage"
)

// The operator's view of `run` (SPEC 12): one registry per Main, the metrics on it, and
// the endpoints serving them where --http says (nowhere when it is empty).

// newLogger is the logger of `run` and `console`: slog at level (config validated it; a
// hand-built Config may not have, so anything else is info) in format, "json" for one
// JSON object a line, else text.
func newLogger(level, format string, w io.Writer) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// newMetrics gives m its registry (with the Go runtime's and the process's collectors)
// and sheetkeeper's metrics on it, before anything that reports to them is made.
func (m *Main) newMetrics() error {
	m.Registry = prometheus.NewRegistry()
	m.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	var err error
	m.Metrics, err = ops.NewMetrics(m.Registry)
	return err
}

// serveOps starts the operator's endpoints when --http is set. Ready means the store
// answers a View and the gateway is connected.
func (m *Main) serveOps(store storage.Store, front *discord.Bot) error {
	if m.Config.HTTP == "" {
		return nil
	}
	checks := []ops.Check{
		{Name: "store", Ready: storeReady(store)},
		{Name: "discord", Ready: func(context.Context) error {
			if !front.Connected() {
				return errors.New("the gateway is not connected")
			}
			return nil
		}},
	}
	srv, err := ops.Listen(m.Config.HTTP, ops.Handler(m.Registry, checks, m.Log), m.Log)
	if err != nil {
		return err
	}
	m.HTTP = srv
	m.Log.Info("operator endpoints serving", "addr", srv.Addr(), "paths", "/healthz /readyz /metrics")
	return nil
}

// storeReady is the store's readiness: a View that reads one key. It must read: etcd's
// View asks the cluster nothing until its first read, so an empty one would call a lost
// cluster ready.
func storeReady(store storage.Store) func(context.Context) error {
	return func(ctx context.Context) error {
		return store.View(ctx, func(tx storage.Tx) error {
			_, err := tx.Campaign("readyz")
			if storage.KindOf(err) == storage.NotFound {
				return nil
			}
			return err
		})
	}
}

// stopOps stops the operator's endpoints, if they were started.
func (m *Main) stopOps() error {
	if m.HTTP == nil {
		return nil
	}
	return m.HTTP.Close()
}

// opsSettings are the operator's settings `run` takes beside its own.
var opsSettings = []string{"http", "log-format"}
