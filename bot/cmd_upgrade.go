package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/storage"
)

// /campaign upgrade (SPEC 4.2): a campaign is tied to the exact ruleset version it was
// created on until a GM moves it, explicitly, to the newest installed version. Its game
// cards then read as the new version reads them — tolerantly: values it no longer knows
// are kept, ones it added take their defaults — and are never rewritten by the move.
// Rows whose catalog entry has newer text are only counted and told to the channel; each
// player reviews theirs with /refresh (the picked copy is the character's, never
// rewritten unasked).

// upgradeCommands adds /campaign upgrade.
func upgradeCommands(r *router) {
	r.command(CommandSpec{
		Name:        "campaign upgrade",
		Description: "Move this campaign to the newest installed version of its ruleset",
		GMOnly:      true,
	}, (*Core).cmdCampaignUpgrade)
}

// cmdCampaignUpgrade moves the campaign and its game cards to the newest version of the
// campaign's ruleset installed in the campaign's guild, in one transaction, and tells the channel which
// characters have rows with newer text. Layers the new version no longer declares are
// switched off (and named).
func (c *Core) cmdCampaignUpgrade(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		from := camp.Ruleset
		old, err := c.rules(tx, camp.GuildID, from)
		if err != nil {
			return err
		}
		to, err := c.newestRuleset(tx, camp.GuildID, from.ID)
		if err != nil {
			return err
		}
		if to.Version <= from.Version {
			resp = Response{Ephemeral: true, Content: fmt.Sprintf("This campaign already plays the newest installed version: %s. Import a newer one with /ruleset import.", versionName(old))}
			return nil
		}
		rules, err := c.rules(tx, camp.GuildID, to)
		if err != nil {
			return err
		}
		if err := keepBuiltin(tx, to, cmd.User.ID, c.Now()); err != nil {
			return err
		}
		var dropped []string
		camp.Layers = slices.DeleteFunc(slices.Clone(camp.Layers), func(id string) bool {
			if layerOf(rules.Ruleset, id) == nil {
				dropped = append(dropped, id)
				return true
			}
			return false
		})
		camp.Ruleset = to
		if err := tx.PutCampaign(camp); err != nil {
			return err
		}
		records, err := tx.GameCards(camp.ChannelID)
		if err != nil {
			return err
		}
		records = cardRecords(records)
		now := c.Now()
		for _, r := range records {
			r.Card.Ruleset = to
			r.UpdatedAt = now
			if err := tx.PutGameCard(camp.ChannelID, r); err != nil {
				return err
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "This campaign now plays **%s** (%s v%d → v%d).", rules.Name, to.ID, from.Version, to.Version)
		if len(dropped) > 0 {
			fmt.Fprintf(&b, " The new version has no layer %s, so it is off.", strings.Join(dropped, ", "))
		}
		if news := c.refreshNews(rules, cardsOf(records)); news != "" {
			fmt.Fprintf(&b, "\nRows with newer text in the ruleset: %s.\nEach player reviews theirs with `/refresh name:<character>`; nothing on a sheet changes until they accept.", news)
		} else if len(records) > 0 {
			b.WriteString("\nNo character's rows have newer text in the ruleset.")
		}
		resp = Response{Content: b.String()}
		return nil
	})
	return resp, err
}
