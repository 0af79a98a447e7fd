package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/table.golden")

func parseFile(t *testing.T, name string) results {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := parse(f, module)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestParseRecorded: the recorded output of every run (testdata/bench.txt, from
// `go test -bench` with -quick's benchtimes, and the RSS child) gives every key the rows
// read but the inventory's, with the metrics they use.
func TestParseRecorded(t *testing.T) {
	res := parseFile(t, "bench.txt")
	for _, r := range rows {
		for _, k := range r.keys {
			if _, ok := res[k]; !ok && k != kItem {
				t.Errorf("no result %q", k)
			}
		}
	}
	want := result{N: 50, Values: map[string]float64{"ns/op": 6673199, "bare-µs": 3102, "reply-µs": 3570, "reply/bare": 1.151}}
	if got := res[kReply]; !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %+v, want %+v", kReply, got, want)
	}
	if got := res[kSustained].Values["replies/s"]; got != 8808 {
		t.Errorf("sustained, 64 channels: %v replies/s, want 8808", got)
	}
	if _, ok := res["storage/bolt BenchmarkSustained/channels=8"]; !ok {
		t.Error("the 8-channel sub-benchmark is missing")
	}
}

// TestParseNoise: logs, names printed alone, odd pairs, values that are not numbers and
// FAIL lines are skipped; the -P suffix goes, whether or not it is there; the pkg line
// keys what follows; of a benchmark reported twice the faster line stays.
func TestParseNoise(t *testing.T) {
	res := parseFile(t, "noise.txt")
	want := results{
		"storage/bolt BenchmarkLogs":            {N: 100, Values: map[string]float64{"ns/op": 1000, "p99-ms": 2.5}},
		"storage/bolt BenchmarkGOMAXPROCS1":     {N: 100, Values: map[string]float64{"ns/op": 5}},
		"storage/bolt BenchmarkSub/channels=64": {N: 100, Values: map[string]float64{"ns/op": 7}},
		"bot/discord BenchmarkLogs":             {N: 3, Values: map[string]float64{"ns/op": 3000}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("got  %+v\nwant %+v", res, want)
	}
}

// TestTable renders the recorded results as the report prints them (testdata/table.golden;
// -update rewrites it), with the inventory's benchmark not built yet.
func TestTable(t *testing.T) {
	lines := evaluate(rows, parseFile(t, "bench.txt"), nil)
	var buf bytes.Buffer
	if err := render(&buf, lines); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "table.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if buf.String() != string(want) {
		t.Errorf("table:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestRows checks the figures, ratios and verdicts behind the table, row by row.
func TestRows(t *testing.T) {
	res := parseFile(t, "bench.txt")
	delete(res, kCheck) // as when its run fails
	byWhat := map[string]line{}
	for _, l := range evaluate(rows, res, map[string]bool{"check": true}) {
		byWhat[l.What] = l
	}
	for _, c := range []struct {
		what, figure, met string
		ratio             float64
	}{
		{"reply, 3 tags, fsynced", "3.57 ms", "yes", 1.151},
		{"reply, 5 inventory tags, 200 items, fsynced", "10.6 ms", "NO", 2.68},
		{"tags read, 4 KB / 10 tags", "71.8 µs, 603 allocs", "NO", 71786.0 / 3870},
		{"no tag, 4 KB", "87.2 ns", "yes", 87.18 / 85.08},
		{"5e package validated, 1.2 MB", "42.1 ms", "yes", 42138977.0 / 19303887},
		{"check resolved", "failed (see above)", "", 0},
		{"item as now, 200 items", "not built yet", "", 0},
		{"autocomplete p99, 319 spells (core)", "148 µs", "yes", 0},
		{"5,000 replies/s offered, 64 channels", "p50 3.52 ms, p99 9.22 ms", "NO", 9.222 / 4.890},
		{"autocomplete p99, 319 spells (Discord adapter)", "107 µs", "yes", 0},
		{"journal syncs under the offered load", "p50 412 µs, p99 2.23 ms", "", 0},
		{"replies flat out, 64 channels", "8,808/s, p99 15.1 ms", "NO", 14136.0 / 8808},
		{"idle RSS, 5e package loaded", "15.3 MB", "", 0},
	} {
		l, ok := byWhat[c.what]
		if !ok {
			t.Errorf("no row %q", c.what)
			continue
		}
		if l.Figure != c.figure || l.Met != c.met || l.Ratio != c.ratio {
			t.Errorf("%s: %q met %q ratio %v, want %q met %q ratio %v", c.what, l.Figure, l.Met, l.Ratio, c.figure, c.met, c.ratio)
		}
	}
}

// TestMissingMetric: a benchmark that stops reporting a metric a row reads fails the
// goal ("?" in the figure) rather than meeting it.
func TestMissingMetric(t *testing.T) {
	res := results{kCheck: {N: 1, Values: map[string]float64{"ns/op": 100}}}
	l := evaluate(rowsNamed("check resolved"), res, nil)[0]
	if l.Figure != "100 ns, ? allocs" || l.Met != "NO" {
		t.Errorf("%+v", l)
	}
}

func TestJSON(t *testing.T) {
	lines := evaluate(rows, parseFile(t, "bench.txt"), nil)
	var buf bytes.Buffer
	if err := renderJSON(&buf, lines); err != nil {
		t.Fatal(err)
	}
	var back []line
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, lines) {
		t.Errorf("JSON round trip:\n%s", buf.String())
	}
}

// TestQuickCheckRow runs one real row, the check's, with -quick's benchtime: the
// subprocess, the module root and the parse end to end. (The idle-RSS child is this
// program's binary, not the test's, so it is not run here; TestRSSChild runs its work.)
func TestQuickCheckRow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the check package and a child process")
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	var check []run
	for _, r := range runs {
		if r.pkg == "check" {
			check = append(check, r)
		}
	}
	res, failed := measure(root, check, true, &log)
	if len(failed) > 0 {
		t.Fatalf("failed %v:\n%s", failed, log.String())
	}
	l := evaluate(rowsNamed("check resolved"), res, failed)[0]
	if !strings.HasSuffix(l.Figure, " allocs") || l.Met == "" {
		t.Errorf("check row %+v", l)
	}
}

// TestRSSChild does the child's work in the test's process: the package loads through the
// bot and the line it prints parses into the row's result.
func TestRSSChild(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the 5e package through a bolt store and the core")
	}
	var buf bytes.Buffer
	if err := rssChild(&buf); err != nil {
		t.Fatal(err)
	}
	res, err := parse(&buf, module)
	if err != nil {
		t.Fatal(err)
	}
	if v := res[kRSS].Values; v["rss-MB"] <= 0 || v["heap-MB"] <= 0 {
		t.Errorf("%q parsed to %+v", buf.String(), res)
	}
}

func rowsNamed(what string) []row {
	for _, r := range rows {
		if r.what == what {
			return []row{r}
		}
	}
	return nil
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{dur(87.18), "87.2 ns"}, {dur(999), "999 ns"}, {dur(1000), "1.00 µs"}, {dur(5409e6), "5.41 s"},
		{dur(math.NaN()), "?"}, {count(1788), "1,788"}, {count(15000000), "15,000,000"}, {count(12), "12"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// TestCollectRounds: rounds merge keeping each benchmark's fastest, and a package found
// by name is keyed by the name wherever it lives.
func TestCollectRounds(t *testing.T) {
	all := results{}
	for _, ns := range []string{"300", "100", "200"} {
		out := "pkg: sheetkeeper/sheet/inventory\nBenchmarkItemAsNow200-2 \t 10 \t " + ns + " ns/op \t 7 allocs/op\n"
		if err := collect(all, []byte(out), "sheet/inventory", "inventory"); err != nil {
			t.Fatal(err)
		}
	}
	want := results{kItem: {N: 10, Values: map[string]float64{"ns/op": 100, "allocs/op": 7}}}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("%+v", all)
	}
}
