package main

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// result is one benchmark's line of `go test -bench` output: its iterations and every
// "value unit" pair it reported (ns/op, allocs/op and each b.ReportMetric).
type result struct {
	N      int
	Values map[string]float64
}

// results are benchmark lines by key: the package's path inside the module, a space and
// the benchmark's name without its -GOMAXPROCS suffix ("bot BenchmarkReplyVsBare",
// "storage/bolt BenchmarkSustained/channels=64").
type results map[string]result

// procsSuffix is the "-2" go test appends to a benchmark's name when GOMAXPROCS > 1.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// parse reads the standard benchmark output of one or more `go test` runs: a "pkg:"
// line names the package of the lines after it, and a line "BenchmarkName[-P] N value
// unit value unit …" is one result. Every other line (goos, PASS, logs) is skipped, and
// so is a Benchmark line that does not have that shape (a name printed before a log).
// A benchmark reported twice keeps its faster line (keepFaster).
func parse(r io.Reader, module string) (results, error) {
	out := results{}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(p), module), "/")
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		res := result{N: n, Values: map[string]float64{}}
		ok := true
		for i := 2; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				ok = false
				break
			}
			res.Values[f[i+1]] = v
		}
		if ok {
			out.keepFaster(pkg+" "+procsSuffix.ReplaceAllString(f[0], ""), res)
		}
	}
	return out, sc.Err()
}

// keepFaster records res under key unless the result there already took fewer ns/op.
// Of repeated measurements of CPU-bound code the fastest is the one least disturbed by
// the rest of the machine, which only ever adds time.
func (rs results) keepFaster(key string, res result) {
	if old, ok := rs[key]; ok && old.Values["ns/op"] <= res.Values["ns/op"] {
		return
	}
	rs[key] = res
}
