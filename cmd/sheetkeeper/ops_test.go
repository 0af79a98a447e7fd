package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"sheetkeeper/config"
	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// scrape GETs base's /metrics and parses it with the Prometheus text parser.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics is not the Prometheus text format: %v", err)
	}
	return fams
}

// series is the metric of family name with exactly labels (name=value pairs, in label
// name order), or nil.
func series(fams map[string]*dto.MetricFamily, name string, labels ...string) *dto.Metric {
	for _, m := range fams[name].GetMetric() {
		if len(m.Label)*2 != len(labels) {
			continue
		}
		match := true
		for i, l := range m.Label {
			match = match && l.GetName() == labels[2*i] && l.GetValue() == labels[2*i+1]
		}
		if match {
			return m
		}
	}
	return nil
}

func status(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestRunServesTheOperatorsView runs the bot with --http on a free loopback port and
// JSON logs against the fake Discord: /readyz is ready once connected, a command, an
// autocomplete, a GM's reply (one tag applied, one refused) and a dropped gateway show
// in /metrics as parsed by the Prometheus text parser; every log line is JSON; Close
// stops the endpoints.
func TestRunServesTheOperatorsView(t *testing.T) {
	const guild, channel = "200000000000000011", "200000000000000012"
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "ops-token",
		Guilds: []fakediscord.Guild{{ID: guild, Channels: []fakediscord.Channel{{ID: channel}}}}})
	cfg := &config.Config{DB: filepath.Join(t.TempDir(), "sheetkeeper.db"), DiscordToken: "ops-token", DiscordAPI: fake.URL(),
		DiscordGuild: guild, LogLevel: "debug", LogFormat: "json", HTTP: "127.0.0.1:0"}
	var logs syncBuffer
	m := NewMain(cfg, &logs)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.Run(ctx); err != nil {
		m.Close()
		t.Fatalf("run: %v\n%s", err, logs.String())
	}
	defer m.Close()
	base := "http://" + m.HTTP.Addr()
	if code, body := status(t, base+"/healthz"); code != 200 {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	if code, body := status(t, base+"/readyz"); code != 200 {
		t.Fatalf("/readyz once connected: %d %q", code, body)
	}

	gm := fake.NewUser("gm")
	demo := fake.Command(channel, guild, gm, "demo")
	if !fake.WaitFor(func() bool { return len(fake.InteractionResponses(demo)) > 0 }, 10*time.Second) {
		t.Fatalf("/demo not answered:\n%s", logs.String())
	}
	ac := fake.Autocomplete(channel, guild, gm, "sheet", fakediscord.Focused(fakediscord.String("name", "Mi")))
	if !fake.WaitFor(func() bool { return len(fake.InteractionResponses(ac)) > 0 }, 10*time.Second) {
		t.Fatalf("autocomplete not answered:\n%s", logs.String())
	}
	msg := fake.MessageCreate(channel, guild, gm, `[sheet: who="Mira" op="damage" pool="breath" amount="2"] [sheet: who="Mira" op="damage" pool="nerve-of-steel" amount="1"]`)
	if !fake.WaitFor(func() bool {
		for _, p := range fake.Messages(channel) {
			if p.ByBot && p.MessageReference != nil && p.MessageReference.MessageID == msg {
				return true
			}
		}
		return false
	}, 10*time.Second) {
		t.Fatalf("the GM's tags were not answered:\n%s", logs.String())
	}

	if !fake.DropConnection() {
		t.Fatal("no gateway connection to drop")
	}
	reconnected := func() bool {
		c := series(scrape(t, base), "sheetkeeper_gateway_reconnects_total")
		return c.GetCounter().GetValue() == 1 && m.Bot.Connected()
	}
	if !fake.WaitFor(reconnected, 15*time.Second) {
		t.Fatalf("the reconnect was not counted:\n%s", logs.String())
	}

	fams := scrape(t, base)
	if got := series(fams, "sheetkeeper_reply_tags_total", "reason", "", "result", "ok").GetCounter().GetValue(); got != 1 {
		t.Errorf("applied tags: %v, want 1", got)
	}
	if got := series(fams, "sheetkeeper_reply_tags_total", "reason", "unknown-pool", "result", "refused").GetCounter().GetValue(); got != 1 {
		t.Errorf("tags refused unknown-pool: %v, want 1", got)
	}
	if got := series(fams, "sheetkeeper_command_duration_seconds", "command", "demo").GetHistogram().GetSampleCount(); got != 1 {
		t.Errorf("/demo latencies: %d, want 1", got)
	}
	if got := series(fams, "sheetkeeper_autocomplete_duration_seconds", "command", "sheet").GetHistogram().GetSampleCount(); got != 1 {
		t.Errorf("/sheet autocomplete latencies: %d, want 1", got)
	}
	if got := series(fams, "sheetkeeper_store_commit_duration_seconds").GetHistogram().GetSampleCount(); got < 2 {
		t.Errorf("store commits: %d, want the demo's and the reply's at least", got)
	}
	if got := series(fams, "sheetkeeper_store_conflicts_total").GetCounter().GetValue(); got != 0 {
		t.Errorf("bbolt conflicts: %v", got)
	}
	if got := series(fams, "sheetkeeper_rulesets_cached").GetGauge().GetValue(); got < 1 {
		t.Errorf("rulesets cached: %v", got)
	}
	if series(fams, "go_goroutines") == nil || series(fams, "sheetkeeper_schedule_firings_total") == nil {
		t.Error("the runtime's or the schedule's metrics are missing")
	}

	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("the endpoints still answer after Close")
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct{ Msg, Level string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Msg == "" || rec.Level == "" {
			t.Fatalf("a log line that is not slog JSON: %q (%v)", line, err)
		}
	}
}

// TestConsoleLogsJSON: the console takes --log-format too; with json every line it
// logs is one slog JSON object.
func TestConsoleLogsJSON(t *testing.T) {
	consoleEnv(t)
	t.Setenv("SHEETKEEPER_LOG_FORMAT", "")
	code, _, stderr := runCLI(t, "ana: hello, is anyone running a game here?\n", "console", "--log-level", "debug", "--log-format", "json")
	if code != 0 || strings.TrimSpace(stderr) == "" {
		t.Fatalf("exit %d, logged %q", code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var rec struct{ Msg, Level string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Msg == "" || rec.Level == "" {
			t.Fatalf("a log line that is not slog JSON: %q (%v)", line, err)
		}
	}
	if code, _, stderr := runCLI(t, "", "console", "--log-format", "yaml"); code != 2 || !strings.Contains(stderr, `log-format: "yaml" is not one of text, json`) {
		t.Fatalf("a bad format: exit %d, %q", code, stderr)
	}
}

// TestStoreReadiness: the store is ready while it answers a read, and not once closed.
func TestStoreReadiness(t *testing.T) {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "r.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ready := storeReady(store)
	if err := ready(context.Background()); err != nil {
		t.Fatalf("an open store: %v", err)
	}
	store.Close()
	if err := ready(context.Background()); storage.KindOf(err) != storage.Closed {
		t.Fatalf("a closed store: %v, want kind Closed", err)
	}
}
