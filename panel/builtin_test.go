package panel_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/content"
	"sheetkeeper/panel"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from what the panels draw now")

// system is what a system file says about its panels.
type system struct {
	ID       string            `json:"id"`
	Panels   []panel.Panel     `json:"panels"`
	PanelLib string            `json:"panelLib"`
	Glossary map[string]string `json:"glossary"`
}

func builtins(t testing.TB) []system {
	t.Helper()
	list, err := content.Systems()
	if err != nil {
		t.Fatal(err)
	}
	var out []system
	for _, s := range list {
		var sys system
		if err := json.Unmarshal(s.File, &sys); err != nil {
			t.Fatal(err)
		}
		out = append(out, sys)
	}
	return out
}

func loadState(t testing.TB, file string) panel.State {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var st panel.State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return st
}

// The built-in systems' panels, each run for every fixture character of its system
// (testdata/<system>-<who>.state.json), draw what testdata/<system>-<who>-<panel>.golden
// holds: the header open and collapsed and the body for inventory panels, the stats,
// chips and notes for gm-player ones with the card they make — what the embeds show. go test ./panel -run Builtin -update rewrites them.
func TestBuiltinPanelsGolden(t *testing.T) {
	for _, sys := range builtins(t) {
		if len(sys.Panels) == 0 {
			t.Errorf("built-in system %s has no panels", sys.ID)
		}
		states, _ := filepath.Glob(filepath.Join("testdata", sys.ID+"-*.state.json"))
		if len(states) == 0 {
			t.Errorf("no fixture characters for %s", sys.ID)
		}
		for _, file := range states {
			st := loadState(t, file)
			for _, p := range sys.Panels {
				name := strings.TrimSuffix(file, ".state.json") + "-" + p.ID + ".golden"
				t.Run(filepath.Base(name), func(t *testing.T) {
					r, err := panel.Run(&panel.Job{Lib: sys.PanelLib, Panel: p, Glossary: sys.Glossary, State: st, Budget: panel.MaxBudget})
					if err != nil {
						t.Fatal(err)
					}
					got := golden(p, r, st.Totals.CoinsWorth)
					if *update {
						if err := os.WriteFile(name, got, 0o644); err != nil {
							t.Fatal(err)
						}
						return
					}
					want, err := os.ReadFile(name)
					if err != nil {
						t.Fatalf("%v (go test ./panel -run Builtin -update writes it)", err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s differs:\n--- got\n%s--- want\n%s", name, got, want)
					}
				})
			}
		}
	}
}

// golden is a result as a golden file shows it.
func golden(p panel.Panel, r panel.Result, purse string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "panel %s (%s) %q\n", p.ID, p.Slot, p.Title)
	if p.Slot == panel.SlotInventory {
		fmt.Fprintf(&b, "header, open: %s\n", panel.SummaryLine(r.Summary, true, purse))
		fmt.Fprintf(&b, "header, collapsed: %s\n", panel.SummaryLine(r.Summary, false, purse))
		fmt.Fprintf(&b, "body:\n%s\n", r.Body)
	}
	for _, s := range r.Stats {
		fmt.Fprintf(&b, "stat: %s = %s", s.Label, s.Value)
		if s.Sub != "" {
			fmt.Fprintf(&b, " (%s)", s.Sub)
		}
		if s.Warn {
			b.WriteString(" [warn]")
		}
		b.WriteByte('\n')
	}
	for _, c := range r.Chips {
		fmt.Fprintf(&b, "chip: %s\n", c)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if p.Slot == panel.SlotGMPlayer {
		fmt.Fprintf(&b, "card:\n%s\n", panel.Card(r))
	}
	for _, q := range r.Requests {
		fmt.Fprintf(&b, "request: %s %v\n", q.Action, q.Args)
	}
	for _, d := range r.Dropped {
		fmt.Fprintf(&b, "dropped: %s\n", d)
	}
	return b.Bytes()
}

// BenchmarkCompute is one call of the 5e GM card's compute for a character of seven
// items, its scripts compiled once as a caller would keep them: a fresh runtime, the
// prelude, panelLib, the panel, the handler, the result read back.
func BenchmarkCompute(b *testing.B) {
	var job *panel.Job
	for _, sys := range builtins(b) {
		for _, p := range sys.Panels {
			if sys.ID == "dnd5e-srd" && p.Slot == panel.SlotGMPlayer {
				job = &panel.Job{Lib: sys.PanelLib, Panel: p, Glossary: sys.Glossary,
					State: loadState(b, filepath.Join("testdata", "dnd5e-srd-fighter.state.json"))}
			}
		}
	}
	if job == nil {
		b.Fatal("the 5e system has no gm-player panel")
	}
	s, err := panel.Compile(job.Lib, job.Panel)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Run(job); err != nil {
			b.Fatal(err)
		}
	}
}
