package bot

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sheetkeeper/internal/hostile"
	"sheetkeeper/strictjson"
)

// Issue 12: every hostile upload is refused, with its problem's kind, in bounded time and
// memory. Each case is built by internal/hostile; the benchmark reports each one's time
// and memory.

// loadHostile reads an upload as /ruleset import does, every standalone catalog
// included (the import checks them all before it answers), and returns the first
// problem met.
func loadHostile(c hostile.Case) error {
	att := &Attachment{Name: c.Name, Data: c.Data}
	if c.Folder != nil {
		att = &Attachment{Name: c.Name, Folder: c.Folder}
	}
	_, l, err := readUpload(att)
	if err != nil {
		return err
	}
	for _, cat := range l.Catalogs {
		if _, err := l.Entries(cat.ID); err != nil {
			return err
		}
	}
	return nil
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
			if elapsed > time.Second || allocMB > 64 {
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
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/op")
			b.ReportMetric(alloc, "alloc-MB")
			b.ReportMetric(peak, "peak-MB")
		})
	}
}
