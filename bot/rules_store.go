package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// The core's side of inventory rules: its RuleStore over the real store, the runs after
// a change, and where rules' messages go. A run reads the campaign's holdings from the
// card records and writes what rules did back into them (inventory.Stored.Rules with
// the entries' states and charges), in one transaction per campaign and run, so a
// restart carries on from the last run and a value moving while the bot was down
// catches up from the time it was stored as of.

// storeRules is the RuleStore over the core's store.
type storeRules struct{ c *Core }

// UpdateRules opens the campaign's holdings, runs fn over them and saves what it
// changed, in one transaction. A campaign without an inventory, or gone, is fn(nil,
// nil); a character whose stored holdings no longer fit the system is left out (the
// tags that open them say why).
func (s storeRules) UpdateRules(ctx context.Context, campaign string, fn func(*inventory.Campaign, []RuleHolding) ([]RuleHolding, error)) error {
	// A read first: a campaign none of whose holdings have rules costs no write.
	needed := false
	err := s.c.store.View(ctx, func(tx storage.Tx) error {
		p, records, err := s.c.ruleCampaign(tx, campaign)
		needed = false
		for _, r := range records {
			needed = needed || p.camp.StoredNeedsRules(r.Inventory)
		}
		return err
	})
	if err != nil || !needed {
		if err == nil {
			_, err = fn(nil, nil)
		}
		return err
	}
	return s.c.store.Update(ctx, func(tx storage.Tx) error {
		p, records, err := s.c.ruleCampaign(tx, campaign)
		if err != nil {
			return err
		}
		if p == nil {
			_, err := fn(nil, nil)
			return err
		}
		held := map[string]*inventory.Held{}
		recs := map[string]*storage.CardRecord{}
		var hs []RuleHolding
		for _, r := range records {
			if r.Inventory == nil {
				continue // holds nothing: no item, no rule
			}
			h, ps := p.camp.Restore(r.Inventory)
			if len(ps) > 0 {
				s.c.log.Warn("inventory rules: stored holdings do not fit the system", "campaign", campaign, "character", r.Card.Name, "problem", ps.Head(1))
				continue
			}
			w, at := p.camp.World(h)
			held[r.Card.Name], recs[r.Card.Name] = h, r
			hs = append(hs, RuleHolding{Character: r.Card.Name, Player: r.OwnerID, World: w, At: at, Events: h.Events()})
		}
		changed, err := fn(p.camp, hs)
		if err != nil {
			return err
		}
		for _, ch := range changed {
			h, r := held[ch.Character], recs[ch.Character]
			if h == nil {
				return fmt.Errorf("inventory rules: %q is no character of the run", ch.Character)
			}
			h.KeepWorld(ch.World, ch.At)
			st, err := p.camp.Keep(h)
			if err != nil {
				return err
			}
			r.Inventory = st
			if err := tx.PutGameCard(campaign, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// ruleCampaign is the system campaign's inventory plays on and its game cards; nil
// when it has none (no campaign any more, no system, or one that cannot be read) or
// when no card holds anything rules could act on — known from the cards alone, so a
// campaign whose cards hold nothing costs no ruleset load (the catch-up as the bot
// starts visits every campaign).
func (c *Core) ruleCampaign(tx storage.Tx, campaign string) (*played, []*storage.CardRecord, error) {
	camp, err := tx.Campaign(campaign)
	if storage.KindOf(err) == storage.NotFound {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	records, err := tx.GameCards(campaign)
	if err != nil {
		return nil, nil, err
	}
	records = cardRecords(records)
	if !slices.ContainsFunc(records, func(r *storage.CardRecord) bool { return r.Inventory.MayNeedRules() }) {
		return nil, nil, nil
	}
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, nil, err
	}
	p, err := c.playedSystem(tx, camp, l)
	if refusal.Of(err) != "" {
		return nil, nil, nil
	}
	if err != nil || p == nil {
		return nil, nil, err
	}
	return p, records, nil
}

// rulesAfter runs campaign's inventory rules after a change to it and returns the posts
// of what they said. A failure is logged and told to the channel: the change itself
// stands.
func (c *Core) rulesAfter(ctx context.Context, campaign string) []Action {
	notes, err := c.itemRules.Changed(ctx, campaign, nil)
	if err != nil {
		c.log.Error("inventory rules after a change", "campaign", campaign, "err", err)
		return []Action{{Kind: Post, ChannelID: campaign, Content: "Internal error: the inventory rules did not run after this change."}}
	}
	return c.ruleActions(ctx, notes)
}

// withRules is a command's answer after an inventory change it made in channel (err
// nil): what the campaign's rules then said follows as posts.
func (c *Core) withRules(ctx context.Context, channel string, resp Response, err error) (Response, error) {
	if err == nil {
		resp.Posts = append(resp.Posts, c.rulesAfter(ctx, channel)...)
	}
	return resp, err
}

// rulesCatchUp runs every campaign's rules once, as the bot starts (or takes over the
// schedules): values moving catch up on the time the bot was down, and campaigns with
// timed rules join the rules clock. What they say is posted.
func (c *Core) rulesCatchUp(ctx context.Context) {
	var ids []string
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camps, err := tx.Campaigns()
		ids = ids[:0]
		for _, camp := range camps {
			ids = append(ids, camp.ChannelID)
		}
		return err
	})
	if err != nil {
		c.log.Error("inventory rules: listing the campaigns to catch up", "err", err)
		return
	}
	for _, id := range ids {
		for _, a := range c.rulesAfter(ctx, id) {
			c.deliver(ctx, a)
		}
	}
}

// deliverRules posts what a tick of the rules clock said.
func (c *Core) deliverRules(ctx context.Context, notes []RuleNote) {
	for _, a := range c.ruleActions(ctx, notes) {
		c.deliver(ctx, a)
	}
}

// ruleActions are the posts of rules' notes: per campaign one in the channel, a line a
// note, each player's addressed to them and the GM's marked for the GM; a player's of a
// campaign sending them directly in one direct message to that player instead.
func (c *Core) ruleActions(ctx context.Context, notes []RuleNote) []Action {
	if len(notes) == 0 {
		return nil
	}
	to := c.rulesTo(ctx, notes)
	var out []Action
	at := map[[2]string]int{}
	for _, n := range notes {
		key, line := [2]string{n.Campaign, ""}, "🎒 "+mention(n.Player)+" "+n.Text
		switch {
		case n.Player == "":
			line = "🎒 (for the GM) " + n.Text
		case to[n.Campaign] == rulesToDM:
			key, line = [2]string{n.Campaign, n.Player}, "🎒 <#"+n.Campaign+"> "+n.Text
		}
		i, ok := at[key]
		if !ok {
			i, at[key] = len(out), len(out)
			out = append(out, Action{Kind: Post, ChannelID: n.Campaign, DM: key[1]})
		}
		out[i].Content = strings.TrimPrefix(out[i].Content+"\n"+line, "\n")
	}
	return out
}

// startRules starts the rules clock for Start: on wall time a ticker ticks it (at most
// MinRulesTick apart) while this process runs the schedules — with etcd, while it
// leads, catching every campaign up each time it takes over; on a manual clock Advance
// ticks it, and the catch-up runs here, before Start returns, so what it says is the
// session's first post.
func (c *Core) startRules(ctx context.Context) {
	if _, manual := c.clock.(*schedule.ManualClock); manual {
		c.rulesCatchUp(ctx)
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	c.mu.Lock()
	c.rulesStop, c.rulesDone = cancel, done
	c.mu.Unlock()
	go func() {
		defer close(done)
		t := time.NewTicker(schedule.MinRulesTick)
		defer t.Stop()
		leading := false
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			now := c.sched.Leading()
			if now && !leading {
				c.rulesCatchUp(ctx)
			}
			if leading = now; leading {
				c.itemRules.Clock().Tick(ctx)
			}
		}
	}()
}

// stopRules stops the rules clock startRules started and waits for a run in progress.
func (c *Core) stopRules() {
	c.mu.Lock()
	stop, done := c.rulesStop, c.rulesDone
	c.rulesStop, c.rulesDone = nil, nil
	c.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// tickRules ticks the rules clock after Advance moved a manual clock, while this
// process runs the schedules.
func (c *Core) tickRules(ctx context.Context) {
	if c.sched.Leading() {
		c.itemRules.Clock().Tick(ctx)
	}
}
