// Command benchreport runs the project's key benchmarks and prints one table: each
// figure beside its yardstick measured in the same run, their ratio, issue 19's goal for
// it and whether it is met.
//
//	go run ./internal/benchreport          # the full report (a few minutes: the disk rows fsync)
//	go run ./internal/benchreport -quick   # short benchtimes: a smoke test, not figures
//	go run ./internal/benchreport -json    # the same lines as JSON
//
// Each package's benchmarks run as `go test -run '^$' -bench <pattern> -benchtime <n>`
// in a subprocess from the module root (found with `go env GOMOD`), so a figure is what
// `go test` itself reports; the idle RSS comes from a child of this binary (rss.go).
// SHEETKEEPER_BENCH_DIR is passed on, so the storage benchmarks can use another disk.
// The exit status is 1 when a run failed, not when a goal is missed: the table says that.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// module is the module path, stripped from package paths in results' keys.
const module = "sheetkeeper"

// run is one `go test` of one package's benchmarks.
type run struct {
	pkg         string // inside the module; with find set, a package name to look for instead
	find        bool
	bench       string // the -bench pattern
	full, quick string // -benchtime for the report and for -quick
	// rounds is how many times the report runs it (once with -quick). Each round runs a
	// benchmark and its yardstick back to back, and the fastest round of each is kept
	// (results.keepFaster), so a burst of load from elsewhere spoils one round, not the
	// ratio. The disk rows run once: ReplyVsBare interleaves its pair itself, and the
	// load rows are long.
	rounds int
}

// runs are every benchmark the rows read. Iteration counts, not durations, where the
// figure is a percentile or a rate, so the sample is the same size from run to run.
var runs = []run{
	{pkg: "parser", bench: "^Benchmark(ReadNarration10Tags|ScanNarration10Tags|ReadNoTag|ContainsNoTag)$", full: "500ms", quick: "200x", rounds: 3},
	{pkg: "ruleset", bench: "^Benchmark(Validate5ePackage|UnmarshalAny5ePackage)$", full: "1s", quick: "3x", rounds: 3},
	{pkg: "check", bench: "^BenchmarkResolveCheck$", full: "500ms", quick: "1000x", rounds: 3},
	{pkg: "inventory", find: true, bench: "^BenchmarkItemAsNow200$", full: "500ms", quick: "100x", rounds: 3},
	{pkg: "bot", bench: "^Benchmark(ReplyVsBare|InventoryReplyVsBare)$", full: "3000x", quick: "50x"},
	{pkg: "bot", bench: "^BenchmarkAutocompleteSpells$", full: "5000x", quick: "200x", rounds: 3},
	{pkg: "bot/discord", bench: "^BenchmarkAutocompleteSpells$", full: "5000x", quick: "200x", rounds: 3},
	{pkg: "storage/bolt", bench: "^BenchmarkOffered$", full: "30000x", quick: "2000x"},
	{pkg: "storage/bolt", bench: "^BenchmarkSustained$/^channels=64$", full: "30000x", quick: "2000x"},
}

func main() {
	quick := flag.Bool("quick", false, "short benchtimes: checks the report runs, its figures mean little")
	asJSON := flag.Bool("json", false, "print the lines as JSON")
	child := flag.Bool("rss-child", false, "internal: be the idle-RSS child (rss.go)")
	flag.Parse()
	if *child {
		if err := rssChild(os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "benchreport -rss-child:", err)
			os.Exit(1)
		}
		return
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	load := loadAverage()
	res, failed := measure(root, runs, *quick, os.Stderr)
	measureRSS(res, failed, os.Stderr)
	lines := evaluate(rows, res, failed)
	if *asJSON {
		err = renderJSON(os.Stdout, lines)
	} else {
		mode := "full benchtimes"
		if *quick {
			mode = "-quick: a smoke test, not figures"
		}
		fmt.Printf("%s %s/%s, %d CPUs%s, %s\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), load, mode)
		err = render(os.Stdout, lines)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
	if len(failed) > 0 {
		os.Exit(1)
	}
}

// moduleRoot is the folder of the go.mod `go env GOMOD` names, checked to be this module's.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a module: run benchreport from the sheetkeeper module")
	}
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	if !bytes.HasPrefix(data, []byte("module "+module+"\n")) {
		return "", fmt.Errorf("%s is not the %s module's", gomod, module)
	}
	return filepath.Dir(gomod), nil
}

// measure does every run, logging each to log, and returns the results and the packages
// whose run failed. A package that find does not find is skipped: its rows say "not
// built yet".
func measure(root string, rs []run, quick bool, log io.Writer) (results, map[string]bool) {
	all := results{}
	failed := map[string]bool{}
	var names map[string]string
	for _, r := range rs {
		pkg := r.pkg
		if r.find {
			if names == nil {
				names = packageNames(root)
			}
			var ok bool
			if pkg, ok = names[r.pkg]; !ok {
				fmt.Fprintf(log, "benchreport: no package named %s yet: its rows are not built yet\n", r.pkg)
				continue
			}
		}
		bt, rounds := r.full, max(r.rounds, 1)
		if quick {
			bt, rounds = r.quick, 1
		}
		for i := range rounds {
			fmt.Fprintf(log, "benchreport: go test ./%s -bench '%s' -benchtime %s (round %d of %d)\n", pkg, r.bench, bt, i+1, rounds)
			cmd := exec.Command("go", "test", "-run", "^$", "-bench", r.bench, "-benchtime", bt, "./"+pkg)
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err == nil {
				err = collect(all, out, pkg, r.pkg)
			}
			if err != nil {
				fmt.Fprintf(log, "benchreport: ./%s: %v\n%s", pkg, err, out)
				failed[r.pkg] = true
				break
			}
		}
	}
	return all, failed
}

// measureRSS starts this binary again as the idle-RSS child (rss.go) and adds its
// result to all, or marks it failed.
func measureRSS(all results, failed map[string]bool, log io.Writer) {
	fmt.Fprintln(log, "benchreport: idle RSS (this binary, -rss-child)")
	self, err := os.Executable()
	var out []byte
	if err == nil {
		out, err = exec.Command(self, "-rss-child").CombinedOutput()
	}
	if err == nil {
		err = collect(all, out, "internal/benchreport", "internal/benchreport")
	}
	if err != nil {
		fmt.Fprintf(log, "benchreport: idle RSS: %v\n%s", err, out)
		failed["internal/benchreport"] = true
	}
}

// collect parses one run's output into all. A package found by name is keyed by that
// name (as: "inventory"), wherever it lives, so its rows need not know the path.
func collect(all results, out []byte, pkg, as string) error {
	res, err := parse(bytes.NewReader(out), module)
	if err != nil {
		return err
	}
	for k, v := range res {
		p, name, _ := strings.Cut(k, " ")
		if p == pkg {
			p = as
		}
		all.keepFaster(p+" "+name, v)
	}
	return nil
}

// packageNames maps each package name in the module to its path inside the module (the
// first, if two share a name).
func packageNames(root string) map[string]string {
	cmd := exec.Command("go", "list", "-e", "-f", "{{.Name}} {{.ImportPath}}", "./...")
	cmd.Dir = root
	// A package that does not build still gets its line (and go list exits 1), so the
	// output is read either way: a broken inventory package is found, and its run fails.
	out, _ := cmd.Output()
	names := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, path, ok := strings.Cut(l, " ")
		if _, seen := names[name]; ok && !seen {
			names[name] = strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		}
	}
	return names
}

// loadAverage is ", load average N" from /proc/loadavg's one-minute figure, or "" where
// there is none: beside the figures, it says how busy the machine was when they began.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return ""
	}
	return ", load average " + f[0] + " at the start"
}
