package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/parser"
	"sheetkeeper/schedule"
)

// This file is the glue between the bot and inventory rules (SPEC 7): the bot calls
// Rules.Changed after every inventory change (a command, a tag, a trade) and runs
// Rules.Clock for the while rules and moving values. It is written against RuleStore,
// not against storage, so where inventories are stored stays the storage's business.

// RuleHolding is one character's inventory as rules see it, as stored.
type RuleHolding struct {
	Character string // the character's id, unique in its campaign
	Player    string // who the character's messages go to
	World     *inventory.World
	// At is when World's values were as of: values moving catch up from it.
	At time.Time
	// Events are what the store found happened to the entries since rules last ran
	// (inventory.Held.Events): run with the events a change passes, on a tick too.
	Events []inventory.Event
}

// RuleStore is what rules need of stored inventories.
type RuleStore interface {
	// UpdateRules runs fn in one store transaction over the campaign's inventory rules
	// (nil: it has no inventory) and its characters' holdings, and saves the holdings
	// fn returns, recorded with the rest of that transaction, so what rules did
	// survives a restart. A store that retries a transaction may run fn again.
	UpdateRules(ctx context.Context, campaign string, fn func(c *inventory.Campaign, hs []RuleHolding) ([]RuleHolding, error)) error
}

// RuleNote is a message rules send: to a player (a DM or the channel, as the campaign
// says), or with no Player to the GM (rules held back, a chain cut short).
type RuleNote struct {
	Campaign, Player, Text string
}

// Rule messages are limited to ruleNotesPerMinute a player a minute; the rest are
// summarised.
const ruleNotesPerMinute = 6

// Rules runs campaigns' inventory rules. It is safe for concurrent use: runs are one at
// a time (the store serialises writes anyway).
type Rules struct {
	store   RuleStore
	clock   schedule.Clock
	deliver func(ctx context.Context, notes []RuleNote)
	eval    inventory.Eval
	ticker  *schedule.RulesClock

	mu      sync.Mutex                         // one run at a time: the runners and the limiter are not shared
	runners map[string]map[string]cachedRunner // campaign → character → runner
	limit   *inventory.Limiter
}

// cachedRunner is a character's runner (its while rules' timings), for one parsed
// campaign: a system imported again gets a fresh one.
type cachedRunner struct {
	camp *inventory.Campaign
	r    *inventory.Runner
}

// NewRules returns the rules of store's campaigns on clock; deliver gets what ticks
// say (Changed returns its notes instead, for the reply).
func NewRules(store RuleStore, clock schedule.Clock, deliver func(ctx context.Context, notes []RuleNote)) *Rules {
	fs := &parser.Formulas{}
	r := &Rules{store: store, clock: clock, deliver: deliver, eval: fs.Eval,
		runners: map[string]map[string]cachedRunner{}, limit: inventory.NewLimiter(ruleNotesPerMinute, time.Minute)}
	r.ticker = schedule.NewRulesClock(clock, schedule.MinRulesTick, r.tick)
	return r
}

// Clock is the clock ticking the campaigns with timed rules: Run it on wall time, or
// Tick it after moving a manual clock.
func (r *Rules) Clock() *schedule.RulesClock { return r.ticker }

// Changed runs a campaign's rules after a change, events by character: values moving
// are caught up to now first, so this is also what the bot calls for each campaign as
// it starts. It saves what rules did, registers the campaign with the clock while it
// has timed rules, and returns the notes to send.
func (r *Rules) Changed(ctx context.Context, campaign string, events map[string][]inventory.Event) ([]RuleNote, error) {
	notes, timed, err := r.run(ctx, campaign, false, events)
	if err != nil {
		return nil, err
	}
	if timed {
		r.ticker.Register(campaign)
	} else {
		r.ticker.Unregister(campaign)
	}
	return notes, nil
}

// tick is the clock's callback: it runs the campaign's timed rules and delivers what
// they say; it keeps the campaign on the clock while it has timed rules. Time moves by
// what passed since each holding was saved, so the clock's elapsed is not needed.
func (r *Rules) tick(ctx context.Context, campaign string, _ time.Duration) bool {
	notes, timed, err := r.run(ctx, campaign, true, nil)
	if err != nil {
		notes = append(notes, RuleNote{Campaign: campaign, Text: "Inventory rules stopped: " + err.Error()})
		timed = false
	}
	if len(notes) > 0 && r.deliver != nil {
		r.deliver(ctx, notes)
	}
	return timed
}

// run runs the rules of every character of campaign in one transaction, on a tick or
// after a change (with its events), time moved on from each holding's At.
func (r *Rules) run(ctx context.Context, campaign string, onTick bool, events map[string][]inventory.Event) ([]RuleNote, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now()
	var said []RuleNote
	timed := false
	err := r.store.UpdateRules(ctx, campaign, func(camp *inventory.Campaign, hs []RuleHolding) ([]RuleHolding, error) {
		said, timed = nil, false // a retried transaction starts again
		if camp == nil {
			return nil, nil
		}
		r.forget(campaign, hs)
		var changed []RuleHolding
		for _, h := range hs {
			res, isTimed, err := r.runOne(camp, campaign, h, now, onTick, append(slices.Clone(events[h.Character]), h.Events...))
			if err != nil {
				return nil, fmt.Errorf("%s's inventory rules: %w", h.Character, err)
			}
			said = append(said, r.notes(campaign, h, res)...)
			timed = timed || isTimed
			if h.At.IsZero() && len(h.World.Moving) == 0 && !camp.HasRules(h.World.Inv) {
				continue // no rules, nothing moving, none kept: nothing to keep
			}
			h.At, h.Events = now, nil
			changed = append(changed, h)
		}
		return changed, nil
	})
	if err != nil {
		return nil, false, err
	}
	return r.limited(campaign, now, said), timed, nil
}

// runOne runs one character's rules: moves time on since the holding was saved (values
// moving, while rules), then, after a change or with events, runs the rules for them.
func (r *Rules) runOne(camp *inventory.Campaign, campaign string, h RuleHolding, now time.Time, onTick bool, events []inventory.Event) (inventory.Result, bool, error) {
	run := r.runnerOf(camp, campaign, h.Character)
	w := h.World
	// Time moves on by what passed since the holding was saved — not by the clock's
	// elapsed, which a change run meanwhile has already counted in part.
	var res inventory.Result
	if !h.At.IsZero() && now.After(h.At) {
		var err error
		if res, err = run.Tick(w, now.Sub(h.At).Seconds()); err != nil {
			return res, false, err
		}
	}
	if !onTick || len(events) > 0 {
		more, err := run.After(w, events)
		if err != nil {
			return res, false, err
		}
		res.Add(more)
	}
	return res, run.Timed(w), nil
}

// forget drops the runners of the campaign's characters no longer in hs.
func (r *Rules) forget(campaign string, hs []RuleHolding) {
	for ch := range r.runners[campaign] {
		if !slices.ContainsFunc(hs, func(h RuleHolding) bool { return h.Character == ch }) {
			delete(r.runners[campaign], ch)
		}
	}
}

func (r *Rules) runnerOf(camp *inventory.Campaign, campaign, character string) *inventory.Runner {
	if cr, ok := r.runners[campaign][character]; ok && cr.camp == camp {
		return cr.r
	}
	if r.runners[campaign] == nil {
		r.runners[campaign] = map[string]cachedRunner{}
	}
	run := camp.NewRunner(r.eval)
	r.runners[campaign][character] = cachedRunner{camp, run}
	return run
}

// notes turns a run's result into notes: its messages for the player, each after the
// name of the item that said it (as Pack Rat shows them), what was held back or cut
// short for the GM.
func (r *Rules) notes(campaign string, h RuleHolding, res inventory.Result) []RuleNote {
	var out []RuleNote
	for i, m := range res.Messages {
		out = append(out, RuleNote{Campaign: campaign, Player: h.Player, Text: res.From[i] + ": " + m})
	}
	for i := 0; i < len(res.Held); {
		j, nums := i, []string{}
		for ; j < len(res.Held) && res.Held[j].UID == res.Held[i].UID; j++ {
			nums = append(nums, strconv.Itoa(res.Held[j].Rule+1))
		}
		which := "rule " + nums[0]
		if len(nums) > 1 {
			which = "rules " + strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1]
		}
		out = append(out, RuleNote{Campaign: campaign, Text: fmt.Sprintf(
			"%s's %s: %s kept firing, undoing each other, so they were held back.", h.Character, res.Held[i].Item, which)})
		i = j
	}
	if res.Stopped {
		out = append(out, RuleNote{Campaign: campaign, Text: fmt.Sprintf(
			"%s's items: a chain of rules stopped after %d steps.", h.Character, inventory.MaxChain)})
	}
	return out
}

// limited passes notes through the limiter, each recipient's in order, with the
// summaries now due of earlier ones.
func (r *Rules) limited(campaign string, now time.Time, notes []RuleNote) []RuleNote {
	var out []RuleNote
	for _, n := range r.limit.Flush(now) {
		out = append(out, RuleNote{Campaign: n.To.Campaign, Player: n.To.Player, Text: n.Text})
	}
	var order []inventory.Recipient
	by := map[inventory.Recipient][]string{}
	for _, n := range notes {
		who := inventory.Recipient{Campaign: n.Campaign, Player: n.Player}
		if _, ok := by[who]; !ok {
			order = append(order, who)
		}
		by[who] = append(by[who], n.Text)
	}
	for _, who := range order {
		for _, text := range r.limit.Send(who, now, by[who]) {
			out = append(out, RuleNote{Campaign: campaign, Player: who.Player, Text: text})
		}
	}
	return out
}
