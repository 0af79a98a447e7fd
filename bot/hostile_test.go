package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"sheetkeeper/internal/hostile"
	"sheetkeeper/strictjson"
)

// Issue 12: every hostile upload is refused, with its problem's kind, in bounded time and
// memory. Each case is built by internal/hostile; the benchmark reports each one's time
// and memory.

// loadHostile reads an upload as /ruleset import does, every standalone catalog
// included (the import checks them all before it answers), and returns the first
// problem met. Storing an upload that installs is the store's cost, not measured here.
func loadHostile(c hostile.Case) error {
	att := &Attachment{Name: c.Name, Data: c.Data}
	if c.Folder != nil {
		att = &Attachment{Name: c.Name, Folder: c.Folder}
	}
	_, l, err := readUpload(att)
	if err != nil {
		return err
	}
	var first error
	for _, cat := range l.Catalogs {
		if _, err := l.Entries(cat.ID); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// hostileCase is the case of that name.
func hostileCase(tb testing.TB, name string) hostile.Case {
	tb.Helper()
	for _, c := range hostileCases(tb) {
		if c.Name == name {
			return c
		}
	}
	tb.Fatalf("no hostile case %q", name)
	return hostile.Case{}
}

func hostileCases(tb testing.TB) []hostile.Case {
	tb.Helper()
	cases, err := hostile.Cases(corpus)
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// measured runs f and reports its time, the bytes it allocated (runtime.MemStats
// TotalAlloc delta: an upper bound of its peak) and the highest live heap seen
// (HeapAlloc sampled every millisecond, above the heap before it ran).
func measured(f func()) (elapsed time.Duration, allocMB, peakMB float64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	f()
	elapsed = time.Since(start)
	close(stop)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	p := max(peak.Load(), after.HeapAlloc)
	const mb = 1 << 20
	return elapsed, float64(after.TotalAlloc-before.TotalAlloc) / mb, float64(int64(p)-int64(before.HeapAlloc)) / mb
}

func TestHostileUploadsAreRefusedCheaply(t *testing.T) {
	for _, c := range hostileCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			var err error
			elapsed, allocMB, peakMB := measured(func() { err = loadHostile(c) })
			t.Logf("%v, %.1f MB allocated, %.1f MB peak", elapsed.Round(time.Millisecond), allocMB, peakMB)
			k, ok := strictjson.KindOf(err)
			if !ok || k.String() != c.Want {
				t.Fatalf("kind %v (%v), want %s: %.300v", k, ok, c.Want, err)
			}
			var ps strictjson.Problems
			errors.As(err, &ps)
			if c.Want == "limit" && len(ps) != 1 {
				t.Errorf("%d problems, want the limit alone: %.300v", len(ps), err)
			}
			if len(ps) > strictjson.MaxProblems+1 {
				t.Errorf("%d problems kept", len(ps))
			}
			if (elapsed > time.Second && !raceEnabled) || allocMB > 64 {
				t.Errorf("refusing it took %v and %.1f MB; the bound is 1 s and 64 MB", elapsed, allocMB)
			}
		})
	}
}

func BenchmarkHostileUpload(b *testing.B) {
	for _, c := range hostileCases(b) {
		b.Run(c.Name, func(b *testing.B) {
			var total time.Duration
			var alloc, peak float64
			for b.Loop() {
				e, a, p := measured(func() { loadHostile(c) })
				total += e
				alloc = max(alloc, a)
				peak = max(peak, p)
			}
			b.ReportMetric(total.Seconds()*1000/float64(b.N), "ms/op")
			b.ReportMetric(alloc, "alloc-MB")
			b.ReportMetric(peak, "peak-MB")
		})
	}
}

// Every hostile upload gets a short answer: what one message holds, the rest of a long
// list of problems as problems.txt beside it.
func TestHostileImportAnswersAreShort(t *testing.T) {
	m := newCmdTable(t)
	for _, c := range hostileCases(t) {
		att := &Attachment{Name: c.Name, Data: c.Data}
		if c.Folder != nil {
			att = &Attachment{Name: c.Name, Folder: c.Folder}
		}
		for _, cmd := range []string{"ruleset check", "ruleset import"} {
			r := m.runFile(ana, cmd, att)
			t.Logf("%s %s:\n%.400s", cmd, c.Name, r.Content)
			if len(r.Content) > maxShownText+60 {
				t.Errorf("%s %s: %d characters", cmd, c.Name, len(r.Content))
			}
			cut := strings.HasSuffix(r.Content, "… (the full list is in problems.txt)")
			if cut != (len(r.Files) == 1) || (cut && r.Files[0].Name != "problems.txt") {
				t.Errorf("%s %s: cut %v with %d files", cmd, c.Name, cut, len(r.Files))
			}
			if cut && strings.Count(string(r.Files[0].Data), "\n") < maxShownProblems {
				t.Errorf("%s %s: the file holds %d lines", cmd, c.Name, strings.Count(string(r.Files[0].Data), "\n"))
			}
		}
	}
	// The package whose catalog is 699,000 {} installs, its catalog's one mistake said.
	r := newCmdTable(t).runFile(ana, "ruleset import", &Attachment{Name: "x.zip", Data: hostileCase(t, "knacks.json of 699,000 {} zipped").Data})
	wantText(t, "699k", r.Content, "Installed **Ember Roads** as local/ember-roads v1: 3 abilities, 4 skills, 2 pools, 2 catalogs (4 entries), 1 layer, package, Capability API 1.340.\n"+
		"Start a game on it with `/campaign create ruleset:ember-roads`.\n"+
		"The picker will show mistakes instead of entries for catalog knacks (catalogs/knacks.json):\n"+
		"entries: has 699,000 items, at most 2,000 allowed")
	// A single file of 24,000 bad entries: 50 problems shown, the rest counted, the
	// loader's whole list (1,000 and a count) in the file.
	r = newCmdTable(t).runFile(ana, "ruleset import", &Attachment{Name: "bad.json", Data: hostileCase(t, "512 KB of bad entries within the entry limit").Data})
	lines := strings.Split(r.Content, "\n")
	shown := len(lines) - 3 // the heading, the count of the rest, where the rest is
	if shown < 10 || shown > maxShownProblems || lines[len(lines)-2] != fmt.Sprintf("… and 119,%03d more problems", 1000-shown) {
		t.Errorf("%d lines, ending %q", len(lines), lines[len(lines)-2:])
	}
	file := strings.Split(strings.TrimSpace(string(r.Files[0].Data)), "\n")
	if len(file) != 1+strictjson.MaxProblems+1 || file[len(file)-1] != "… and 119,000 more problems" {
		t.Errorf("file: %d lines, ending %q", len(file), file[len(file)-1])
	}
}

// A file bigger than its manifest's bytes is refused with its true size, not the
// declared size and one that reading it stopped at.
func TestOversizeFileIsToldItsTrueSize(t *testing.T) {
	folder := fstest.MapFS{}
	for p, f := range hostileCase(t, "knacks.json of 699,000 {} as a folder").Folder {
		folder[p] = f
	}
	var m map[string]any
	json.Unmarshal(folder["manifest.json"].Data, &m)
	files := m["files"].([]any)
	files[0].(map[string]any)["bytes"] = 100 // ruleset.json
	data, _ := json.Marshal(m)
	folder["manifest.json"] = &fstest.MapFile{Data: data}
	r := newCmdTable(t).runFile(ana, "ruleset check", &Attachment{Name: "pkg", Folder: folder})
	wantText(t, "oversize", r.Content, fmt.Sprintf("That ruleset has mistakes:\nruleset.json: is %d bytes; the manifest declares 100", len(folder["ruleset.json"].Data)))
	folder["manifest.json"] = &fstest.MapFile{Data: bytes.Repeat([]byte(" "), 70000)}
	r = newCmdTable(t).runFile(ana, "ruleset check", &Attachment{Name: "pkg", Folder: folder})
	wantText(t, "oversize manifest", r.Content, "That ruleset has mistakes:\nmanifest.json: is 70000 bytes, over the 65536-byte limit")
}
