package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/ruleset"
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

// versionNotices are the posts that tell each campaign still on an older version of an
// imported ruleset that rec, just installed, is there (SPEC 8.1): in each such channel
// of rec's guild (tenancy: a guild's imports are its own), how many rows on which
// characters /campaign upgrade and then /refresh would update, counted as
// cmdCampaignUpgrade counts them. Nothing is posted when rec is not the newest version
// installed: an upgrade goes to the newest, whose import told the channels already.
func (c *Core) versionNotices(tx storage.Tx, rec *storage.RulesetRecord, rules *ruleset.Loaded) ([]Action, error) {
	versions, err := tx.RulesetVersions(rec.Guild, rec.ID)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(versions, func(v int) bool { return v > rec.Version }) {
		return nil, nil
	}
	camps, err := tx.Campaigns()
	if err != nil {
		return nil, err
	}
	var posts []Action
	for _, camp := range camps {
		if camp.Ruleset.ID != rec.ID || storage.RulesetHome(camp.GuildID, rec.ID) != rec.Guild || camp.Ruleset.Version >= rec.Version {
			continue
		}
		records, err := tx.GameCards(camp.ChannelID)
		if err != nil {
			return nil, err
		}
		cards := cardsOf(records)
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** v%d is installed; this campaign plays v%d until a GM runs `/campaign upgrade`.", rules.Name, rec.Version, camp.Ruleset.Version)
		switch news := c.refreshNews(rules, cards); {
		case news != "":
			fmt.Fprintf(&b, "\nAfter the upgrade, `/refresh name:<character>` would update: %s.", news)
		case len(cards) == 0:
			b.WriteString("\nIt has no characters yet, so no sheet has rows to update.")
		default:
			b.WriteString("\nNo character's rows have newer text in it.")
		}
		posts = append(posts, Action{Kind: Post, ChannelID: camp.ChannelID, Content: b.String()})
	}
	return posts, nil
}
