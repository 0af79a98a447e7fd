package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// Starting over (cmd_demo.go's /demo reset): ending a campaign takes everything that
// belongs to it, in one transaction — the campaign, its game cards and its scheduled
// rests — and closes its replies, so an edit or delete of an old GM message can never
// touch a character of a campaign started in the channel later. Library cards are their
// owners' and stay; a new /demo joins them again.

// maxNamed is how many characters a /demo answer names before it says "and N more".
const maxNamed = 10

// demoExisting is /demo's answer in a channel that already has camp: what it has and
// how to start over. It changes nothing.
func (c *Core) demoExisting(tx storage.Tx, camp *storage.Campaign) (Response, error) {
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return Response{}, err
	}
	records, err := tx.GameCards(camp.ChannelID)
	if err != nil {
		return Response{}, err
	}
	gms := make([]string, len(camp.GMs))
	for i, g := range camp.GMs {
		gms[i] = describeGM(g)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "This channel already has a campaign: **%s** (%s v%d), GM %s, with %s.\n",
		l.Name, camp.Ruleset.ID, camp.Ruleset.Version, strings.Join(gms, ", "), characters(cardRecords(records)))
	b.WriteString("Play on — `/campaign show` and `/sheet` show it — or start over: a GM runs `/demo reset`, which ends this campaign after a confirmation, then `/demo` again.")
	return Response{Ephemeral: true, Content: b.String()}, nil
}

// characters names the cards of records, at most maxNamed: "2 characters (Mira, Bram)".
func characters(records []*storage.CardRecord) string {
	if len(records) == 0 {
		return "no characters yet"
	}
	names := make([]string, 0, min(len(records), maxNamed))
	for _, r := range records[:min(len(records), maxNamed)] {
		names = append(names, r.Card.Name)
	}
	s := strings.Join(names, ", ")
	if more := len(records) - len(names); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return plural(len(records), "character", "characters") + " (" + s + ")"
}

// cmdDemoReset asks the GM to confirm ending the channel's campaign, saying what goes
// and what stays. It changes nothing: the button does.
func (c *Core) cmdDemoReset(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		records, err := tx.GameCards(camp.ChannelID)
		if err != nil {
			return err
		}
		scheds, err := channelSchedules(tx, camp.ChannelID)
		if err != nil {
			return err
		}
		resp = Response{
			Content: fmt.Sprintf("End this channel's campaign? Its %s and %s are deleted, and the bot's past answers here stop following edits and deletes of their messages. Library cards stay with their owners; `/demo` or `/campaign create` then starts afresh.",
				characters(cardRecords(records)), plural(len(scheds), "scheduled rest", "scheduled rests")),
			Components: []Row{{Buttons: []Button{
				{CustomID: demoEndID.encode(strconv.FormatInt(camp.CreatedAt.UnixNano(), 10)), Label: "End the campaign", Style: "danger"},
				{CustomID: demoKeepID.encode(), Label: "Keep it", Style: "secondary"},
			}}},
		}
		return nil
	})
	return resp, err
}

// demoEndClick ends the campaign the confirmation was for, if the one who clicks is
// its GM now (the button is public: anyone may press it).
func (c *Core) demoEndClick(ctx context.Context, comp Component, args []string) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, comp.ChannelID)
		if refusal.Of(err) == refusal.NoCampaign || err == nil && strconv.FormatInt(camp.CreatedAt.UnixNano(), 10) != args[0] {
			resp = Response{Update: true, Content: "That campaign has ended already: nothing changed."}
			return nil
		}
		if err != nil {
			return err
		}
		if !isGM(camp, comp.User) {
			return refusal.New(refusal.NotGM, "only a GM of this campaign may end it")
		}
		n, err := endCampaign(tx, camp, c.Now())
		if err != nil {
			return err
		}
		resp = Response{Update: true, Content: fmt.Sprintf("The campaign has ended, and %s with it. `/demo` starts a new one here.", plural(n, "character", "characters"))}
		return nil
	})
	return resp, err
}

// demoKeepClick answers Keep it: the question goes, nothing changes. Only a GM may
// dismiss a GM's question (the button is public).
func (c *Core) demoKeepClick(ctx context.Context, comp Component, _ []string) (Response, error) {
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, comp.ChannelID)
		if err == nil && !isGM(camp, comp.User) {
			return refusal.New(refusal.NotGM, "only a GM of this campaign may answer that")
		}
		if refusal.Of(err) == refusal.NoCampaign {
			return nil
		}
		return err
	})
	if err != nil {
		return Response{}, err
	}
	return Response{Update: true, Content: "The campaign goes on: nothing changed."}, nil
}

// endCampaign deletes camp, its game cards, its schedules, its shop and its pending
// trade offer, and closes its replies (storage.ReplyReverted: an edit or delete of their
// messages changes no card). It returns how many game cards went. A scheduler entry of a deleted schedule stays until the
// process restarts, and does nothing: a firing reads its schedule first.
func endCampaign(tx storage.Tx, camp *storage.Campaign, now time.Time) (int, error) {
	records, err := tx.GameCards(camp.ChannelID)
	if err != nil {
		return 0, err
	}
	for _, r := range records {
		if r.Card == nil {
			continue
		}
		if err := tx.DeleteGameCard(camp.ChannelID, r.Card.Name); err != nil {
			return 0, err
		}
	}
	scheds, err := channelSchedules(tx, camp.ChannelID)
	if err != nil {
		return 0, err
	}
	for _, s := range scheds {
		if err := tx.DeleteSchedule(s.ID); err != nil {
			return 0, err
		}
	}
	if err := closeReplies(tx, camp.ChannelID, now); err != nil {
		return 0, err
	}
	// The shop and a pending offer name the campaign's items and characters: left, a new
	// campaign here would sell the old stock, and the offer's Accept swap its cards.
	for _, del := range []func(string) error{tx.DeleteShop, tx.DeleteTrade} {
		if err := del(camp.ChannelID); err != nil && storage.KindOf(err) != storage.NotFound {
			return 0, err
		}
	}
	return len(cardRecords(records)), tx.DeleteCampaign(camp.ChannelID)
}

// replyPage is how many replies closeReplies reads at a time.
const replyPage = 256

// closeReplies marks every reply of the channel not yet reverted as reverted, a page at
// a time, so a long campaign's history is never all in memory at once.
func closeReplies(tx storage.Tx, channelID string, now time.Time) error {
	for after := int64(0); ; {
		page, err := tx.Replies(channelID, after, replyPage)
		if err != nil {
			return err
		}
		for _, r := range page {
			after = r.Seq
			if r.Status == storage.ReplyReverted {
				continue
			}
			r.Status, r.UpdatedAt = storage.ReplyReverted, now
			if err := tx.PutReply(r); err != nil {
				return err
			}
		}
		if len(page) < replyPage {
			return nil
		}
	}
}

// channelSchedules are the stored schedules of a channel.
func channelSchedules(tx storage.Tx, channelID string) ([]*storage.Schedule, error) {
	all, err := tx.Schedules()
	if err != nil {
		return nil, err
	}
	var out []*storage.Schedule
	for _, s := range all {
		if s.ChannelID == channelID {
			out = append(out, s)
		}
	}
	return out, nil
}
