package bot

import "time"

// Observer is told what an operator watches the bot by (SPEC 12): the outcomes of the
// tags GMs' replies apply, how long commands and autocomplete take, scheduled rests fired
// and missed, how many rulesets the core holds parsed. Package ops turns these into
// Prometheus metrics; the core stays free of any metrics library. Its methods are called
// from many goroutines at once and must not block.
type Observer interface {
	// TagApplied is one tag of a new GM reply that committed: result "ok" or "refused",
	// reason the refusal's word (empty when applied).
	TagApplied(result, reason string)
	// CommandTook is one slash command answered: its name (a registered command's, or
	// "unknown") and how long the core took.
	CommandTook(command string, took time.Duration)
	// AutocompleteTook is one autocomplete answered, by command as CommandTook names it.
	AutocompleteTook(command string, took time.Duration)
	// ScheduleFired is one scheduled rest applied and committed.
	ScheduleFired()
	// ScheduleMissed is n firings that did not run while the bot was offline.
	ScheduleMissed(n int)
	// RulesetsCached is the number of parsed rulesets the core now holds.
	RulesetsCached(n int)
}

// noObserver is Options.Observe's nil: nothing is counted.
type noObserver struct{}

func (noObserver) TagApplied(string, string)              {}
func (noObserver) CommandTook(string, time.Duration)      {}
func (noObserver) AutocompleteTook(string, time.Duration) {}
func (noObserver) ScheduleFired()                         {}
func (noObserver) ScheduleMissed(int)                     {}
func (noObserver) RulesetsCached(int)                     {}

// observeTags tells the observer the outcome of every tag acts answer with.
func (c *Core) observeTags(acts []Action) {
	for _, a := range acts {
		for _, o := range a.Outcomes {
			c.observe.TagApplied(o.Result, o.Reason)
		}
	}
}

// commandLabel is name as the metrics call it: a registered command's name, else
// "unknown", so what users type cannot grow the number of series.
func (c *Core) commandLabel(name string) string {
	if r, ok := c.router.routes[normalCommand(name)]; ok {
		return r.spec.Name
	}
	return "unknown"
}
