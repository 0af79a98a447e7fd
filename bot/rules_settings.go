package bot

import (
	"context"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// /campaign set rules-messages:channel|dm says where inventory rules' messages to a
// player go (SPEC 7): the campaign's channel, where the table sees the lantern heat, or
// the player's direct messages, where a curse's whisper stays theirs. The GM's notes
// (rules held back, a chain cut short) always go to the channel.

// Where rules' messages go: the option's values.
const (
	rulesToChannel = "channel"
	rulesToDM      = storage.RulesMessagesDM
)

// campaignSetCommand adds /campaign set.
func campaignSetCommand(r *router) {
	r.command(CommandSpec{
		Name:        "campaign set",
		Description: "Change a setting of this channel's campaign",
		Options: []OptionSpec{
			{Name: "rules-messages", Description: "Where inventory rules' messages to a player go: the channel (default) or a DM",
				Type: "string", Required: true, Choices: []Choice{{Name: "the channel", Value: rulesToChannel}, {Name: "a direct message", Value: rulesToDM}}},
		},
		GMOnly: true,
	}, (*Core).cmdCampaignSet)
}

func (c *Core) cmdCampaignSet(ctx context.Context, cmd Command) (Response, error) {
	to := cmd.Get("rules-messages")
	if to != rulesToChannel && to != rulesToDM {
		return Response{}, refusal.New(refusal.Malformed, "rules-messages is %q: say channel or dm", clip(to))
	}
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd) // again here: a GM removed since the router's check is refused
		if err != nil {
			return err
		}
		camp.RulesMessages = ""
		if to == rulesToDM {
			camp.RulesMessages = rulesToDM
		}
		return tx.PutCampaign(camp)
	})
	if err != nil {
		return Response{}, err
	}
	if to == rulesToDM {
		return Response{Content: "Inventory rules' messages to a player now go to them in a direct message; the GM's notes stay in this channel."}, nil
	}
	return Response{Content: "Inventory rules' messages to a player now go to this channel."}, nil
}

// rulesTo reads where each campaign of notes sends its players' messages.
func (c *Core) rulesTo(ctx context.Context, notes []RuleNote) map[string]string {
	to := map[string]string{}
	err := c.store.View(ctx, func(tx storage.Tx) error {
		for _, n := range notes {
			if _, ok := to[n.Campaign]; ok || n.Player == "" {
				continue
			}
			camp, err := tx.Campaign(n.Campaign)
			if storage.KindOf(err) == storage.NotFound {
				to[n.Campaign] = ""
				continue
			}
			if err != nil {
				return err
			}
			to[n.Campaign] = camp.RulesMessages
		}
		return nil
	})
	if err != nil {
		c.log.Warn("inventory rules: reading where messages go; sending them to the channel", "err", err)
	}
	return to
}
