package main

import (
	"fmt"
	"math"
	"strings"
)

// row is one line of the report: what is measured, its goal (the figure), the
// benchmark results it reads and how it turns them into a figure beside its yardstick.
type row struct {
	what string
	goal string
	keys []string // the results it reads, by key (see results)
	// eval makes the figure, the yardstick, the ratio of the two (0 for none) and
	// whether the goal is met, from v(key, unit): a value of one of keys.
	eval func(v func(key, unit string) float64) (figure, yardstick string, ratio float64, met bool)
}

// Keys of the results the rows read.
const (
	kReply     = "bot BenchmarkReplyVsBare"
	kInvReply  = "bot BenchmarkInventoryReplyVsBare"
	kRead      = "parser BenchmarkReadNarration10Tags"
	kScan      = "parser BenchmarkScanNarration10Tags"
	kReadNone  = "parser BenchmarkReadNoTag"
	kContains  = "parser BenchmarkContainsNoTag"
	kValidate  = "ruleset BenchmarkValidate5ePackage"
	kUnmarshal = "ruleset BenchmarkUnmarshalAny5ePackage"
	kCheck     = "check BenchmarkResolveCheck"
	kItem      = "inventory BenchmarkItemAsNow200" // the package is found by name, wherever it is
	kComplete  = "bot BenchmarkAutocompleteSpells"
	kCompleteD = "bot/discord BenchmarkAutocompleteSpells"
	kOffered   = "storage/bolt BenchmarkOffered"
	kSustained = "storage/bolt BenchmarkSustained/channels=64"
	kRSS       = "internal/benchreport BenchmarkIdleRSS5e" // measured by a child of this program (rss.go)
)

// rows are the report's lines, in the order printed. The goals are issue 19's but
// where a row says otherwise.
var rows = []row{
	{what: "reply, 3 tags, fsynced", goal: "≤ 1.2×", keys: []string{kReply},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			r := v(kReply, "reply/bare")
			return dur(v(kReply, "reply-µs") * 1e3), "bare bbolt Update " + dur(v(kReply, "bare-µs")*1e3), r, r <= 1.2
		}},
	// Issue 16's goal, beside issue 19's.
	{what: "reply, 5 inventory tags, 200 items, fsynced", goal: "≤ 1.5×", keys: []string{kInvReply},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			r := v(kInvReply, "reply/bare")
			return dur(v(kInvReply, "reply-µs") * 1e3), "bare bbolt Update " + dur(v(kInvReply, "bare-µs")*1e3), r, r <= 1.5
		}},
	{what: "tags read, 4 KB / 10 tags", goal: "≤ 5×, ≤ 15 µs, ≤ 60 allocs", keys: []string{kRead, kScan},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			ns, allocs := v(kRead, "ns/op"), v(kRead, "allocs/op")
			r := ns / v(kScan, "ns/op")
			return dur(ns) + ", " + count(allocs) + " allocs", "byte scan " + dur(v(kScan, "ns/op")), r, r <= 5 && ns <= 15e3 && allocs <= 60
		}},
	{what: "no tag, 4 KB", goal: "≤ 1.2×", keys: []string{kReadNone, kContains},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			r := v(kReadNone, "ns/op") / v(kContains, "ns/op")
			return dur(v(kReadNone, "ns/op")), "strings.Contains " + dur(v(kContains, "ns/op")), r, r <= 1.2
		}},
	{what: "5e package validated, 1.2 MB", goal: "≤ 3×", keys: []string{kValidate, kUnmarshal},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			r := v(kValidate, "ns/op") / v(kUnmarshal, "ns/op")
			return dur(v(kValidate, "ns/op")), "json.Unmarshal " + dur(v(kUnmarshal, "ns/op")), r, r <= 3
		}},
	{what: "check resolved", goal: "≤ 5 µs, ≤ 10 allocs", keys: []string{kCheck},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			ns, allocs := v(kCheck, "ns/op"), v(kCheck, "allocs/op")
			return dur(ns) + ", " + count(allocs) + " allocs", "", 0, ns <= 5e3 && allocs <= 10
		}},
	{what: "item as now, 200 items", goal: "≤ 100 µs", keys: []string{kItem},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			ns := v(kItem, "ns/op")
			return dur(ns), "", 0, ns <= 100e3
		}},
	{what: "autocomplete p99, 319 spells (core)", goal: "≤ 1 ms", keys: []string{kComplete},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			p99 := v(kComplete, "p99-µs") * 1e3
			return dur(p99), "", 0, p99 <= 1e6
		}},
	{what: "autocomplete p99, 319 spells (Discord adapter)", goal: "≤ 1 ms", keys: []string{kCompleteD},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			p99 := v(kCompleteD, "p99-µs") * 1e3
			return dur(p99), "", 0, p99 <= 1e6
		}},
	// The two loads' yardstick is bbolt's floor, measured just after the run: bare bbolt
	// commits of the run's batches one after another (storage/bolt's floor) — for the
	// offered load, the latency of an ideal single writer with those commits; flat out,
	// their rate. The store's journal is not bound by it (one sync a batch), so it can be
	// passed. The ratio is ours over the floor's, time for time.
	{what: "5,000 replies/s offered, 64 channels", goal: "p99 ≤ 5 ms", keys: []string{kOffered},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			p99, floor := v(kOffered, "p99-ms")*1e6, v(kOffered, "floor-p99-ms")*1e6
			return "p50 " + dur(v(kOffered, "p50-ms")*1e6) + ", p99 " + dur(p99),
				"bbolt's floor p50 " + dur(v(kOffered, "floor-p50-ms")*1e6) + ", p99 " + dur(floor), p99 / floor, p99 <= 5e6
		}},
	// The disk's part of the offered load: a reply waits for at most two of these (the
	// one under way as it joins its batch, then its batch's own).
	{what: "journal syncs under the offered load", goal: "", keys: []string{kOffered},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			return "p50 " + dur(v(kOffered, "sync-p50-ms")*1e6) + ", p99 " + dur(v(kOffered, "sync-p99-ms")*1e6), "slowest " + dur(v(kOffered, "sync-max-ms")*1e6), 0, true
		}},
	{what: "replies flat out, 64 channels", goal: "≥ 15,000/s", keys: []string{kSustained},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			rate, floor := v(kSustained, "replies/s"), v(kSustained, "floor-replies/s")
			return count(rate) + "/s, p99 " + dur(v(kSustained, "p99-ms")*1e6), "bbolt's floor " + count(floor) + "/s", floor / rate, rate >= 15000
		}},
	{what: "idle RSS, 5e package loaded", goal: "", keys: []string{kRSS},
		eval: func(v func(k, u string) float64) (string, string, float64, bool) {
			return fmt.Sprintf("%.1f MB", v(kRSS, "rss-MB")), fmt.Sprintf("Go heap %.1f MB", v(kRSS, "heap-MB")), 0, true
		}},
}

// line is one evaluated row, as printed and as -json writes it.
type line struct {
	What      string  `json:"what"`
	Figure    string  `json:"figure"`
	Yardstick string  `json:"yardstick,omitempty"`
	Ratio     float64 `json:"ratio,omitempty"`
	Goal      string  `json:"goal,omitempty"`
	// Met is "yes", "NO", or "" when there is no goal or no figure.
	Met string `json:"met,omitempty"`
	// Values are the raw results the row read, by key and unit.
	Values map[string]map[string]float64 `json:"values,omitempty"`
}

// evaluate turns the results into the report's lines. A row whose results are missing
// says why: its package's run failed, or (no failure) the benchmark does not exist yet.
func evaluate(rs []row, res results, failed map[string]bool) []line {
	var out []line
	for _, r := range rs {
		l := line{What: r.what, Goal: r.goal}
		missing := ""
		for _, k := range r.keys {
			if _, ok := res[k]; !ok {
				missing = k
				break
			}
		}
		if missing != "" {
			pkg, _, _ := strings.Cut(missing, " ")
			l.Figure = "not built yet"
			if failed[pkg] {
				l.Figure = "failed (see above)"
			}
			out = append(out, l)
			continue
		}
		v := func(k, u string) float64 {
			x, ok := res[k].Values[u]
			if !ok {
				return math.NaN() // a renamed metric fails the goal rather than meeting it
			}
			return x
		}
		var met bool
		l.Figure, l.Yardstick, l.Ratio, met = r.eval(v)
		if math.IsNaN(l.Ratio) || math.IsInf(l.Ratio, 0) {
			l.Ratio = 0
		}
		if r.goal != "" {
			l.Met = "NO"
			if met {
				l.Met = "yes"
			}
		}
		l.Values = map[string]map[string]float64{}
		for _, k := range r.keys {
			l.Values[k] = res[k].Values
		}
		out = append(out, l)
	}
	return out
}

// dur formats nanoseconds with three significant figures in ns, µs, ms or s.
func dur(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "?"
	case ns < 1e3:
		return sig3(ns) + " ns"
	case ns < 1e6:
		return sig3(ns/1e3) + " µs"
	case ns < 1e9:
		return sig3(ns/1e6) + " ms"
	default:
		return sig3(ns/1e9) + " s"
	}
}

func sig3(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

// count formats a whole number with thousands separators.
func count(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	s := fmt.Sprintf("%.0f", x)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
