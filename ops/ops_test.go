package ops

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"sheetkeeper/bot"
)

// Metrics is the core's observer.
var _ bot.Observer = (*Metrics)(nil)

var quiet = slog.New(slog.DiscardHandler)

// scrape GETs base's /metrics and parses it with the Prometheus text parser.
func scrape(t testing.TB, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("/metrics is not the Prometheus text format: %v", err)
	}
	return families
}

// find is the metric of family name whose labels are exactly labels (name=value pairs).
func find(t testing.TB, families map[string]*dto.MetricFamily, name string, labels ...string) *dto.Metric {
	t.Helper()
	f, ok := families[name]
	if !ok {
		t.Fatalf("no metric family %s", name)
	}
	for _, m := range f.Metric {
		if len(m.Label)*2 != len(labels) {
			continue
		}
		match := true
		for i, l := range m.Label {
			if l.GetName() != labels[2*i] || l.GetValue() != labels[2*i+1] {
				match = false
			}
		}
		if match {
			return m
		}
	}
	t.Fatalf("%s has no series %v", name, labels)
	return nil
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestMetricsScraped reports through every hook, scrapes /metrics over HTTP and reads
// each metric back through the Prometheus text parser.
func TestMetricsScraped(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	m.TagApplied("ok", "")
	m.TagApplied("ok", "")
	m.TagApplied("refused", "insufficient")
	m.CommandTook("demo", 30*time.Millisecond)
	m.CommandTook("demo", 2*time.Second)
	m.AutocompleteTook("sheet", 2*time.Millisecond)
	m.OnUpdate(3*time.Millisecond, 0, nil)
	m.OnUpdate(40*time.Millisecond, 2, nil)
	m.OnUpdate(time.Millisecond, 1, errors.New("refused by its function"))
	m.OnSync(300 * time.Microsecond)
	m.Reconnected()
	m.ScheduleFired()
	m.ScheduleMissed(4)
	m.RulesetsCached(2)

	srv, err := Listen("127.0.0.1:0", Handler(reg, nil, quiet), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	fams := scrape(t, "http://"+srv.Addr())

	counter := func(name string, labels ...string) float64 {
		return find(t, fams, name, labels...).GetCounter().GetValue()
	}
	if got := counter("sheetkeeper_reply_tags_total", "reason", "", "result", "ok"); got != 2 {
		t.Errorf("applied tags %v, want 2", got)
	}
	if got := counter("sheetkeeper_reply_tags_total", "reason", "insufficient", "result", "refused"); got != 1 {
		t.Errorf("refused tags %v, want 1", got)
	}
	demo := find(t, fams, "sheetkeeper_command_duration_seconds", "command", "demo").GetHistogram()
	if demo.GetSampleCount() != 2 || demo.GetSampleSum() < 2.03 || demo.GetSampleSum() > 2.031 {
		t.Errorf("/demo histogram: count %d sum %v", demo.GetSampleCount(), demo.GetSampleSum())
	}
	for _, b := range demo.Bucket {
		want := uint64(0)
		switch {
		case b.GetUpperBound() >= 2:
			want = 2
		case b.GetUpperBound() >= 0.03:
			want = 1
		}
		if b.GetCumulativeCount() != want {
			t.Errorf("/demo bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
		}
	}
	if h := find(t, fams, "sheetkeeper_autocomplete_duration_seconds", "command", "sheet").GetHistogram(); h.GetSampleCount() != 1 {
		t.Errorf("autocomplete count %d", h.GetSampleCount())
	}
	if h := find(t, fams, "sheetkeeper_store_commit_duration_seconds").GetHistogram(); h.GetSampleCount() != 2 {
		t.Errorf("commits %d, want 2 (the failed Update is no commit)", h.GetSampleCount())
	}
	if h := find(t, fams, "sheetkeeper_store_sync_duration_seconds").GetHistogram(); h.GetSampleCount() != 1 || h.GetSampleSum() != 0.0003 {
		t.Errorf("syncs: count %d sum %v, want 1 and 0.0003", h.GetSampleCount(), h.GetSampleSum())
	}
	if got := counter("sheetkeeper_store_conflicts_total"); got != 3 {
		t.Errorf("conflicts %v, want 3", got)
	}
	if got := counter("sheetkeeper_gateway_reconnects_total"); got != 1 {
		t.Errorf("reconnects %v", got)
	}
	if got := counter("sheetkeeper_schedule_firings_total"); got != 1 {
		t.Errorf("firings %v", got)
	}
	if got := counter("sheetkeeper_schedule_missed_total"); got != 4 {
		t.Errorf("missed %v", got)
	}
	if got := find(t, fams, "sheetkeeper_rulesets_cached").GetGauge().GetValue(); got != 2 {
		t.Errorf("rulesets cached %v", got)
	}
	if fams["sheetkeeper_reply_tags_total"].GetType() != dto.MetricType_COUNTER ||
		fams["sheetkeeper_command_duration_seconds"].GetType() != dto.MetricType_HISTOGRAM {
		t.Error("wrong metric types")
	}
}

// TestMetricsRegisterOnce: a second set of metrics on one registry is refused, not
// silently merged.
func TestMetricsRegisterOnce(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := NewMetrics(reg); err != nil {
		t.Fatal(err)
	}
	var are prometheus.AlreadyRegisteredError
	if _, err := NewMetrics(reg); !errors.As(err, &are) {
		t.Fatalf("second registration: %v, want AlreadyRegisteredError", err)
	}
}

// TestHealthAndReadiness: /healthz answers while the process is up; /readyz is 503 and
// names every check that fails, 200 when all hold; other paths and methods are refused.
func TestHealthAndReadiness(t *testing.T) {
	storeDown := errors.New("etcd did not answer")
	var storeErr error = storeDown
	connected := false
	checks := []Check{
		{Name: "store", Ready: func(context.Context) error { return storeErr }},
		{Name: "discord", Ready: func(context.Context) error {
			if !connected {
				return errors.New("the gateway is not connected")
			}
			return nil
		}},
	}
	srv, err := Listen("127.0.0.1:0", Handler(prometheus.NewRegistry(), checks, quiet), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := "http://" + srv.Addr()

	if code, body := get(t, base+"/healthz"); code != 200 || body != "ok\n" {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	code, body := get(t, base+"/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "store: etcd did not answer") || !strings.Contains(body, "discord: the gateway is not connected") {
		t.Fatalf("/readyz with both down: %d %q", code, body)
	}
	storeErr, connected = nil, true
	if code, body := get(t, base+"/readyz"); code != 200 || body != "ready\n" {
		t.Fatalf("/readyz when ready: %d %q", code, body)
	}
	if code, _ := get(t, base+"/debug/pprof/"); code != http.StatusNotFound {
		t.Fatalf("an unknown path: %d", code)
	}
	resp, err := http.Post(base+"/metrics", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /metrics: %s", resp.Status)
	}
}

// TestListenRefusesABusyAddress: a port already taken is an error naming the address,
// not a server silently elsewhere.
func TestListenRefusesABusyAddress(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", http.NotFoundHandler(), quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := Listen(srv.Addr(), http.NotFoundHandler(), quiet); err == nil || !strings.Contains(err.Error(), srv.Addr()) {
		t.Fatalf("second listen on %s: %v", srv.Addr(), err)
	}
}
