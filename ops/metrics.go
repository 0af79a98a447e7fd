// Package ops is the operator's view of a running sheetkeeper (SPEC 12): the Prometheus
// metrics and the HTTP endpoints /healthz, /readyz and /metrics that show them.
//
// Nothing here is global: main builds one prometheus.Registry, NewMetrics registers
// the metrics on it, and the parts report through plain hooks — the core through
// bot.Options.Observe (Metrics satisfies bot.Observer without bot importing a metrics
// library), the store through its Options.OnUpdate (and bbolt's OnSync), the gateway through
// discord.Options.OnReconnect.
package ops

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are sheetkeeper's own metrics. Its methods are the hooks the parts call; all
// are safe for concurrent use and never block.
type Metrics struct {
	tags         *prometheus.CounterVec
	commands     *prometheus.HistogramVec
	autocomplete *prometheus.HistogramVec
	commits      prometheus.Histogram
	syncs        prometheus.Histogram
	conflicts    prometheus.Counter
	reconnects   prometheus.Counter
	fired        prometheus.Counter
	missed       prometheus.Counter
	rulesets     prometheus.Gauge
}

// Buckets (seconds). A command answers within Discord's 3 s or is deferred;
// autocomplete must answer well inside it; a commit is an fsync, milliseconds.
var (
	commandBuckets      = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5, 10}
	autocompleteBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2}
	commitBuckets       = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}
	syncBuckets         = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}
)

// NewMetrics makes the metrics and registers them on reg; registering them twice on one
// registry is an error.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		tags: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sheetkeeper_reply_tags_total",
			Help: "Tags of new GM replies that committed, by result (ok, refused) and refusal reason (empty when applied).",
		}, []string{"result", "reason"}),
		commands: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sheetkeeper_command_duration_seconds",
			Help:    "How long the core took to answer a slash command, by command (unknown for a name that is none).",
			Buckets: commandBuckets,
		}, []string{"command"}),
		autocomplete: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sheetkeeper_autocomplete_duration_seconds",
			Help:    "How long the core took to offer autocomplete choices, by command.",
			Buckets: autocompleteBuckets,
		}, []string{"command"}),
		commits: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sheetkeeper_store_commit_duration_seconds",
			Help:    "How long a store Update that committed took, waiting for the write lock (bbolt) or retrying conflicts (etcd) included.",
			Buckets: commitBuckets,
		}),
		syncs: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sheetkeeper_store_sync_duration_seconds",
			Help:    "How long the disk took to make one batch of store Updates durable: the journal's fdatasync (bbolt only).",
			Buckets: syncBuckets,
		}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sheetkeeper_store_conflicts_total",
			Help: "Store Update attempts that lost their compare-and-swap to another writer and ran again (etcd; always 0 on bbolt).",
		}),
		reconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sheetkeeper_gateway_reconnects_total",
			Help: "Times the Discord gateway connected again after the first connection.",
		}),
		fired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sheetkeeper_schedule_firings_total",
			Help: "Scheduled rests applied and committed.",
		}),
		missed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sheetkeeper_schedule_missed_total",
			Help: "Scheduled rests that did not run while the bot was offline (reported, never applied later).",
		}),
		rulesets: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sheetkeeper_rulesets_cached",
			Help: "Parsed rulesets the core holds in memory (one per namespace, id and version used).",
		}),
	}
	for _, c := range []prometheus.Collector{m.tags, m.commands, m.autocomplete, m.commits, m.syncs, m.conflicts, m.reconnects, m.fired, m.missed, m.rulesets} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// TagApplied counts one tag of a committed GM reply (bot.Observer).
func (m *Metrics) TagApplied(result, reason string) { m.tags.WithLabelValues(result, reason).Inc() }

// CommandTook observes one command's latency (bot.Observer).
func (m *Metrics) CommandTook(command string, took time.Duration) {
	m.commands.WithLabelValues(command).Observe(took.Seconds())
}

// AutocompleteTook observes one autocomplete's latency (bot.Observer).
func (m *Metrics) AutocompleteTook(command string, took time.Duration) {
	m.autocomplete.WithLabelValues(command).Observe(took.Seconds())
}

// ScheduleFired counts one scheduled rest applied (bot.Observer).
func (m *Metrics) ScheduleFired() { m.fired.Inc() }

// ScheduleMissed counts n rests missed while offline (bot.Observer).
func (m *Metrics) ScheduleMissed(n int) { m.missed.Add(float64(n)) }

// RulesetsCached sets the parsed-ruleset count (bot.Observer).
func (m *Metrics) RulesetsCached(n int) { m.rulesets.Set(float64(n)) }

// OnUpdate is the store's hook (bolt.Options.OnUpdate, etcd.Options.OnUpdate): the
// latency of an Update that committed, and every conflict however the Update ended. An
// Update that failed or was turned away by its function is not a commit.
func (m *Metrics) OnUpdate(took time.Duration, conflicts int, err error) {
	m.conflicts.Add(float64(conflicts))
	if err == nil {
		m.commits.Observe(took.Seconds())
	}
}

// OnSync is the bbolt store's disk hook (bolt.Options.OnSync): one journal record's
// sync. Beside the commit latency it tells an operator whether a slow commit waited
// for the disk or for the CPUs.
func (m *Metrics) OnSync(took time.Duration) { m.syncs.Observe(took.Seconds()) }

// Reconnected counts one gateway reconnect (discord.Options.OnReconnect).
func (m *Metrics) Reconnected() { m.reconnects.Inc() }
