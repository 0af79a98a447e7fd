package main

import (
	"context"
	"os"
	"slices"
	"testing"

	"sheetkeeper/panel"
	"sheetkeeper/panel/worker"
)

// panelWorkerChild makes this test binary run `sheetkeeper panel-worker` through the
// subcommand table, as the bot's child would.
const panelWorkerChild = "SHEETKEEPER_TEST_PANEL_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(panelWorkerChild) == "1" {
		os.Exit(dispatch([]string{worker.Subcommand}, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The subcommand the worker package starts is the one the table has, and it serves
// jobs under its cap: a good one answers, one that allocates a gigabyte is a memory
// error, and the next good one answers again from a fresh child.
func TestPanelWorkerSubcommand(t *testing.T) {
	if _, ok := subcommands()[worker.Subcommand]; !ok {
		t.Fatalf("the subcommand table has no %q", worker.Subcommand)
	}
	w := worker.New([]string{os.Args[0], "-test.run=^$"}, panelWorkerChild+"=1")
	defer w.Close()
	job := func(script string) *panel.Job {
		return &panel.Job{Panel: panel.Panel{ID: "p", Slot: panel.SlotGMPlayer, HTML: "<script>" + script + "</script>"},
			State: panel.State{Character: panel.Character{Name: "Mira"}}}
	}
	good := job(`PackRat.on("compute", s => ({ chips: [s.character.name] }))`)
	for _, step := range []struct {
		job  *panel.Job
		kind panel.Kind
	}{{good, ""}, {job(`"x".repeat(1e9)`), panel.KindMemory}, {good, ""}} {
		r, err := w.Run(context.Background(), step.job)
		if panel.KindOf(err) != step.kind || (step.kind == "" && err != nil) {
			t.Fatalf("%v: kind %q, want %q", err, panel.KindOf(err), step.kind)
		}
		if step.kind == "" && !slices.Equal(r.Chips, []string{"Mira"}) {
			t.Fatalf("chips %v", r.Chips)
		}
	}
}
