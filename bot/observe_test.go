package bot

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder is an Observer that writes down what it is told, durations left out.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf(format, args...))
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.events
	r.events = nil
	return out
}

func (r *recorder) TagApplied(result, reason string)            { r.add("tag %s %s", result, reason) }
func (r *recorder) CommandTook(command string, _ time.Duration) { r.add("command %s", command) }
func (r *recorder) AutocompleteTook(command string, _ time.Duration) {
	r.add("autocomplete %s", command)
}
func (r *recorder) ScheduleFired()       { r.add("fired") }
func (r *recorder) ScheduleMissed(n int) { r.add("missed %d", n) }
func (r *recorder) RulesetsCached(n int) { r.add("rulesets %d", n) }

// TestObserverHearsTheCore: the core tells its observer each command by a bounded
// name (one no command has is "unknown"), each autocomplete, each tag of a GM's reply
// with its result and reason, the parsed-ruleset count as it grows, each scheduled
// rest applied and the firings missed while down — and a message applied once is
// counted once, however often it arrives.
func TestObserverHearsTheCore(t *testing.T) {
	obs := &recorder{}
	m := &schedTable{t: t, path: t.TempDir() + "/sheetkeeper.db", obs: obs}
	m.open(time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	if got := obs.take(); !slices.Contains(got, "command demo") {
		t.Fatalf("after /demo: %q", got)
	}
	m.cmd(gmUser, "frobnicate")
	if got := obs.take(); !slices.Equal(got, []string{"command unknown"}) {
		t.Fatalf("an unknown command: %q", got)
	}
	m.core.OnAutocomplete(context.Background(), Autocomplete{Command: "sheet", Focused: "name", ChannelID: "table", User: gmUser,
		Options: []Option{{Name: "name", Value: "Mi"}}})
	if got := obs.take(); !slices.Contains(got, "autocomplete sheet") {
		t.Fatalf("autocomplete: %q", got)
	}

	msg := Message{ChannelID: "table", ID: "m1", Author: gmUser,
		Content: `[sheet: who="Mira" op="damage" pool="breath" amount="2"] [sheet: who="Mira" op="damage" pool="nerve" amount="1"]`}
	m.core.OnMessage(context.Background(), msg)
	got := obs.take()
	if !slices.Contains(got, "tag ok ") || !slices.Contains(got, "tag refused unknown-pool") {
		t.Fatalf("a reply with one tag applied and one refused: %q", got)
	}
	if n := len(slices.DeleteFunc(got, func(e string) bool { return e[:4] != "tag " })); n != 2 {
		t.Fatalf("%d tags heard, want 2: %q", n, got)
	}
	m.core.OnMessage(context.Background(), msg) // Discord delivers it again
	if got := obs.take(); len(got) != 0 {
		t.Fatalf("a message applied once was counted again: %q", got)
	}

	// An edit whose create has not arrived is the message, counted once; the late
	// create and a further edit are not counted again.
	late := Message{ChannelID: "table", ID: "m2", Author: gmUser, Sent: m.clock.Now(), Content: `[sheet: who="Bram" op="damage" pool="breath" amount="1"]`}
	tags := func() []string { return slices.DeleteFunc(obs.take(), func(e string) bool { return e[:4] != "tag " }) }
	m.core.OnEdit(context.Background(), late)
	if got := tags(); !slices.Equal(got, []string{"tag ok "}) {
		t.Fatalf("a message whose edit came first: %q", got)
	}
	m.core.OnMessage(context.Background(), late)
	late.Content += ` [sheet: who="Bram" op="damage" pool="breath" amount="1"]`
	m.core.OnEdit(context.Background(), late)
	if got := tags(); len(got) != 0 {
		t.Fatalf("its late create and a further edit were counted: %q", got)
	}

	m.schedule("rest", "mooring", "cron", "0 6 * * *", "tz", "Europe/Berlin")
	obs.take()
	m.advance(time.Date(2026, 4, 3, 4, 0, 0, 0, time.UTC))
	if got := obs.take(); !slices.Contains(got, "fired") {
		t.Fatalf("a scheduled rest applied: %q", got)
	}
	m.restart(time.Date(2026, 4, 6, 12, 0, 0, 0, time.UTC))
	if got := obs.take(); !slices.Contains(got, "missed 3") {
		t.Fatalf("three mornings missed while down: %q", got)
	}
}

// TestObserverCountsRulesets: the cache's size is reported when it grows.
func TestObserverCountsRulesets(t *testing.T) {
	obs := &recorder{}
	m := &schedTable{t: t, path: t.TempDir() + "/sheetkeeper.db", obs: obs}
	m.open(time.Date(2026, 4, 2, 18, 0, 0, 0, time.UTC))
	m.demo()
	m.gmSays(`[sheet: who="Mira" op="damage" pool="breath" amount="1"]`)
	if got := obs.take(); !slices.Contains(got, "rulesets 1") {
		t.Fatalf("after the first reply: %q", got)
	}
}
