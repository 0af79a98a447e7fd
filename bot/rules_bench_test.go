package bot

import (
	"context"
	"fmt"
	"testing"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/schedule"
)

// shelves is a RuleStore of many campaigns in memory.
type shelves map[string]*ruleShelf

func (s shelves) UpdateRules(ctx context.Context, campaign string, fn func(*inventory.Campaign, []RuleHolding) ([]RuleHolding, error)) error {
	return s[campaign].UpdateRules(ctx, campaign, fn)
}

// BenchmarkRulesTick100: one rules-clock tick over 100 campaigns, each with a character
// whose equipped ember wand heats her (a while rule, a becomes rule with a formula, a
// value moving): the clock, the runner and the glue, the store being memory.
func BenchmarkRulesTick100(b *testing.B) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	clock := schedule.NewManualClock(t0)
	store := shelves{}
	rules := NewRules(store, clock, func(context.Context, []RuleNote) {})
	for i := range 100 {
		shelf, _ := wandShelf(b)
		shelf.held[0].World.Moving = map[string]inventory.Moving{"/cold": {Rate: -0.001}}
		name := fmt.Sprintf("campaign-%03d", i)
		store[name] = shelf
		if _, err := rules.Changed(ctx, name, nil); err != nil {
			b.Fatal(err)
		}
	}
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(schedule.MinRulesTick)
		clock.Set(now)
		if n := rules.Clock().Tick(ctx); n != 100 {
			b.Fatalf("ticked %d", n)
		}
	}
}
