package bot

import (
	"context"
	"errors"
	"slices"

	"sheetkeeper/parser"
	"sheetkeeper/storage"
)

// Tell, don't ignore. Tags the bot will not apply are not passed over in silence, or a
// player writing [sheet: …] in a game channel, or a GM writing tags before the channel
// has a campaign, would think they were applied:
//
//   - a player's message with tags to apply gets a reaction (notApplied) and, the first
//     time that player does it in the campaign, a short note that only GMs' tags apply
//     here (storage.Campaign.Told remembers who was told, in the same transaction);
//   - tags in a channel with no campaign get one hint per channel to run /campaign
//     create (storage.Tx.MarkHinted), whoever wrote them: there is no GM list yet, and
//     whoever creates the campaign becomes its GM.
//
// Only a new message is told: an edit of a player's message tells nothing (no second
// note, no reaction), and a message with no tags, or only quoted results (SPEC 3.4), is
// not told at all. A message delivered twice is reacted to twice, which Discord shows
// once, and noted once.

// notApplied is the reaction on a message whose tags were not applied.
const notApplied = "🚫"

// Words of the note and the hint.
const (
	onlyGMsNote = "🚫 Tags change sheets here only when a GM of this campaign writes them: nothing in your message was applied. " +
		"Your own character plays with `/use`, `/check` and `/roll`; a GM can add you with `/campaign gm add`. (Said once.)"
	noCampaignHint = "No campaign plays in this channel, so these tags change nothing. " +
		"`/campaign create ruleset:<id>` binds it, and whoever runs it becomes its GM; `/ruleset list` shows the rulesets. (Said once.)"
)

// tell answers message m whose author is not a GM of camp, its channel's campaign (nil:
// the channel has none), when it has tags to apply.
func (c *Core) tell(ctx context.Context, m Message, camp *storage.Campaign) []Action {
	if !appliesTags(parser.Read(m.Content)) {
		return nil
	}
	if camp == nil {
		return c.hint(ctx, m)
	}
	react := Action{Kind: React, ChannelID: m.ChannelID, MessageID: m.ID, Emoji: notApplied}
	if !toTell(camp, m.Author.ID) {
		return []Action{react} // read only: no turn at the write lock
	}
	var acts []Action
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		acts = []Action{react}
		camp, err := tx.Campaign(m.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			return skip("the campaign was deleted")
		}
		if err != nil {
			return err
		}
		if isGM(camp, m.Author) || !toTell(camp, m.Author.ID) {
			return nil
		}
		camp.Told = append(camp.Told, m.Author.ID)
		if err := tx.PutCampaign(camp); err != nil {
			return err
		}
		acts = append(acts, Action{Kind: Post, ChannelID: m.ChannelID, MessageID: m.ID, Content: onlyGMsNote})
		return nil
	})
	if err != nil {
		c.tellFailed("a player's tags", m, err)
		return []Action{react}
	}
	return acts
}

// toTell reports whether player has still to be told, in camp, that only GMs' tags apply.
func toTell(camp *storage.Campaign, player string) bool {
	return len(camp.Told) < storage.MaxTold && !slices.Contains(camp.Told, player)
}

// hint answers tags in m's channel, which has no campaign: the channel's first are
// answered with how to make one; later ones with nothing.
func (c *Core) hint(ctx context.Context, m Message) []Action {
	var first bool
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		first = false
		_, err := tx.Campaign(m.ChannelID)
		switch {
		case err == nil:
			return skip("the channel has a campaign now")
		case storage.KindOf(err) != storage.NotFound:
			return err
		}
		first, err = tx.MarkHinted(m.ChannelID)
		return err
	})
	if err != nil {
		c.tellFailed("tags without a campaign", m, err)
		return nil
	}
	if !first {
		return nil
	}
	return []Action{{Kind: Post, ChannelID: m.ChannelID, MessageID: m.ID, Content: noCampaignHint}}
}

// tellFailed logs why telling about what message m wrote did not happen: at debug when
// it was skipped, as an error otherwise (the message is still not applied).
func (c *Core) tellFailed(what string, m Message, err error) {
	var s *skipped
	if errors.As(err, &s) {
		c.log.Debug(what+": not told", "channel", m.ChannelID, "message", m.ID, "why", s.why)
		return
	}
	c.log.Error(what+": telling failed", "channel", m.ChannelID, "message", m.ID, "err", err)
}
