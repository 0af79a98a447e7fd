package worker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"sheetkeeper/panel"
	"sheetkeeper/panel/worker"
)

// childEnv makes this test binary a worker: TestMain serves jobs instead of testing.
const childEnv = "SHEETKEEPER_PANEL_WORKER_TEST"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "flood" {
		// A broken worker: one answer line over the parent's bound, then nothing, never
		// reading its stdin again (so closing it does not end the child).
		os.Stdout.Write(bytes.Repeat([]byte("x"), 8<<20))
		os.Stdout.Write([]byte("\n"))
		time.Sleep(time.Hour)
	}
	if os.Getenv(childEnv) == "1" {
		if err := worker.LimitAddressSpace(worker.DefaultMemory); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := worker.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func newWorker(t *testing.T) *worker.Worker {
	t.Helper()
	w := worker.New([]string{os.Args[0], "-test.run=^$"}, childEnv+"=1")
	t.Cleanup(func() { w.Close() })
	return w
}

func gm(script string) *panel.Job {
	return &panel.Job{Panel: panel.Panel{ID: "probe", Slot: panel.SlotGMPlayer, HTML: "<script>" + script + "</script>"}, Budget: panel.MaxBudget}
}

// fine is a job that works: what every test runs after the hostile one.
func fine(t *testing.T, w *worker.Worker) {
	t.Helper()
	r, err := w.Run(context.Background(), gm(`PackRat.on("compute", s => ({ chips: [s.character.name] }))`+"\n"+
		`// `+time.Now().String()))
	if err != nil {
		t.Fatalf("a good job after the hostile one: %v", err)
	}
	if !slices.Equal(r.Chips, []string{""}) {
		t.Fatalf("chips %v", r.Chips)
	}
}

// Panels that allocate without bound stop at the worker's cap, as a memory error; the
// worker is started again and the next job runs, and this process never held the
// memory.
func TestAllocationWithoutBound(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's shadow memory does not fit under an address-space cap")
	}
	w := newWorker(t)
	fine(t, w)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, script := range []string{
		`"x".repeat(1e9)`,
		`const a = []; for (;;) a.push("x".repeat(1e6) + a.length)`,
		`let s = "xy"; for (;;) s = s + s`,
		`const a = []; for (;;) a.push({ n: a.length, list: [1, 2, 3] })`,
	} {
		_, err := w.Run(context.Background(), gm(script))
		if k := panel.KindOf(err); k != panel.KindMemory && k != panel.KindTimeout {
			t.Errorf("%s: %v (kind %q), want memory (or, for a slow grower, timeout)", script, err, k)
		}
		t.Logf("%s: %v", script, err)
		fine(t, w)
	}
	runtime.ReadMemStats(&after)
	if grew := int64(after.Sys) - int64(before.Sys); grew > 64<<20 {
		t.Errorf("this process's memory grew by %d MB", grew>>20)
	}
}

// A panel that loops forever is interrupted inside the worker, which stays up.
func TestLoopInWorker(t *testing.T) {
	w := newWorker(t)
	j := gm(`for (;;) {}`)
	j.Budget = 50 * time.Millisecond
	_, err := w.Run(context.Background(), j)
	if k := panel.KindOf(err); k != panel.KindTimeout {
		t.Fatalf("%v: kind %q, want timeout", err, k)
	}
	fine(t, w)
}

// A worker that cannot start is an error with a kind, every time, not a hang.
func TestNoWorker(t *testing.T) {
	w := worker.New([]string{"/nonexistent/sheetkeeper", worker.Subcommand})
	defer w.Close()
	for range 2 {
		if _, err := w.Run(context.Background(), gm(`1`)); panel.KindOf(err) != panel.KindCrashed {
			t.Fatalf("%v, want crashed", err)
		}
	}
}

// A worker killed from outside is restarted for the next job.
func TestWorkerKilledFromOutside(t *testing.T) {
	w := newWorker(t)
	_, err := w.Run(context.Background(), gm(`PackRat.on("compute", () => ({}))`))
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	fine(t, w)
}

// A panel that hijacks Object.prototype.toJSON to hand back 87,000 empty requests (a
// result under panel.MaxResultBytes whose answer would be megabytes of dropped-request
// text) does not wedge the worker: its answer is bounded, and the next job runs.
func TestHijackedResultDoesNotWedge(t *testing.T) {
	w := newWorker(t)
	j := gm(`Object.prototype.toJSON = function () { if (this.requests) { const r = JSON.parse("[" + "{},".repeat(86999) + "{}]"); delete Object.prototype.toJSON; return { requests: r }; } return this; };`)
	done := make(chan error, 1)
	go func() {
		r, err := w.Run(context.Background(), j)
		if err == nil && len(r.Requests)+len(r.Dropped) > panel.MaxRequests+1 {
			err = fmt.Errorf("%d requests and %d dropped", len(r.Requests), len(r.Dropped))
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("worker.Run still blocked after 10 s")
	}
	fine(t, w)
}

// A worker whose answer line is over the parent's bound, and which then blocks writing
// the rest, is killed (not waited on for ever): the call is a crashed error in bounded
// time.
func TestFloodingWorkerIsKilled(t *testing.T) {
	w := worker.New([]string{os.Args[0], "-test.run=^$"}, childEnv+"=flood")
	defer w.Close()
	done := make(chan error, 1)
	go func() { _, err := w.Run(context.Background(), gm(`1`)); done <- err }()
	select {
	case err := <-done:
		if k := panel.KindOf(err); k != panel.KindCrashed {
			t.Fatalf("%v: kind %q, want crashed", err, k)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("worker.Run still blocked after 10 s")
	}
}

// Serve never writes an answer over its bound: one that would be (here an error naming
// a panel whose id is megabytes long) is answered with a bad-result error instead.
func TestServeBoundsItsAnswer(t *testing.T) {
	req, err := json.Marshal(map[string]any{"id": 7, "job": panel.Job{Panel: panel.Panel{ID: strings.Repeat("p", 5<<20), Slot: "nowhere"}}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := worker.Serve(bytes.NewReader(append(req, '\n')), &out); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 64<<10 {
		t.Fatalf("an answer of %d bytes", out.Len())
	}
	var resp struct {
		ID    uint64       `json:"id"`
		Error *panel.Error `json:"error"`
	}
	if err := json.NewDecoder(io.Reader(&out)).Decode(&resp); err != nil {
		t.Fatal(err)
	}
	if resp.ID != 7 || resp.Error == nil || resp.Error.Kind != panel.KindResult {
		t.Fatalf("answer %+v, want id 7 and a bad-result error", resp)
	}
}

// A caller whose context ends while every worker is busy with a slow panel gives up at
// its own deadline, with the context's error, and kills nobody: the slow panels end as
// their own timeouts, and the next job runs.
func TestBusyWorkersHonourTheContext(t *testing.T) {
	w := newWorker(t)
	slow := make(chan error, worker.Processes)
	for range worker.Processes {
		go func() { _, err := w.Run(context.Background(), gm(`for (;;) {}`)); slow <- err }()
	}
	time.Sleep(500 * time.Millisecond) // the slow jobs hold every worker
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := w.Run(ctx, gm(`1`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the waiting call: %v, want the context's deadline", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the waiting call returned after %v, its context allowed 200ms", took)
	}
	for range worker.Processes {
		if err := <-slow; panel.KindOf(err) != panel.KindTimeout {
			t.Errorf("a slow job: %v, want its own timeout", err)
		}
	}
	fine(t, w)
}

// A panel that runs out its budget breakAfter times in a row is skipped for a while,
// at once and without a child, as a skipped error; other panels still run.
func TestSlowPanelIsSkipped(t *testing.T) {
	w := newWorker(t)
	slow := gm(`for (;;) {}`)
	slow.Budget = 50 * time.Millisecond
	for range 3 {
		if _, err := w.Run(context.Background(), slow); panel.KindOf(err) != panel.KindTimeout {
			t.Fatalf("%v, want timeout", err)
		}
	}
	start := time.Now()
	_, err := w.Run(context.Background(), slow)
	if k := panel.KindOf(err); k != panel.KindSkipped {
		t.Fatalf("the fourth run: %v (kind %q), want skipped", err, k)
	}
	if took := time.Since(start); took > slow.Budget {
		t.Errorf("the skipped run took %v", took)
	}
	fine(t, w)
}

// BenchmarkWorkerCompute is one gm-player compute through the worker, as the bot calls
// it: the job written to the pipe, run in the child (compiled once, then cached), the
// answer read back.
func BenchmarkWorkerCompute(b *testing.B) {
	w := worker.New([]string{os.Args[0], "-test.run=^$"}, childEnv+"=1")
	defer w.Close()
	j := gm(`PackRat.on("compute", s => ({ stats: s.items.map(x => ({ label: x.name, value: x.qty })), chips: [s.character.name] }))`)
	j.State = panel.State{Character: panel.Character{Name: "Mira"}, Items: []panel.Item{{Name: "Rope", Qty: 1}, {Name: "Torch", Qty: 5}}}
	if _, err := w.Run(context.Background(), j); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Run(context.Background(), j); err != nil {
			b.Fatal(err)
		}
	}
}
