package bot

import (
	"context"
	"reflect"
	"testing"

	"sheetkeeper/storage"
)

// TestTellDontIgnore: a player's tagged message is reacted to (React) every time and
// noted once per player per campaign — the mark is in the campaign record, so a
// duplicate delivery is not noted again; an edit tells nothing; a message with no
// tags or only quoted results is not told; a channel with no campaign is hinted once,
// and again only after a campaign there came and went.
func TestTellDontIgnore(t *testing.T) {
	m := lowVell(t)
	tag := `[sheet: who="Mira" op="spend" pool="breath" amount="2"]`
	react := func(id string) Action {
		return Action{Kind: React, ChannelID: m.ch, MessageID: id, Emoji: notApplied}
	}
	note := func(id string) Action {
		return Action{Kind: Post, ChannelID: m.ch, MessageID: id, Content: onlyGMsNote}
	}
	want := func(what string, got []Action, want ...Action) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
		}
	}

	id, acts := m.say(ana, "Mira grabs the rope. "+tag)
	want("a player's first tag", acts, react(id), note(id))
	want("the same message delivered again", m.core.OnMessage(context.Background(), Message{ChannelID: m.ch, ID: id, Author: ana, Content: tag}), react(id))
	id, acts = m.say(ana, tag)
	want("the player's second tag", acts, react(id))
	want("an edit of it", m.edit(id, ana, tag+" "+tag))
	id, acts = m.say(bo, tag)
	want("another player's first tag", acts, react(id), note(id))
	_, acts = m.say(ana, "Just talking.")
	want("a message without tags", acts)
	_, acts = m.say(ana, "As the bot said:\n> [sheet: who=\"Mira\" op=\"spend\" pool=\"breath\" amount=\"2\" result=\"ok\" now=\"6/8\"]")
	want("a quote of results", acts)
	// A write-back copied without quoting it is a request like any other (SPEC 3.4).
	id, acts = m.say(ana, `As the bot said: [sheet: who="Mira" op="spend" pool="breath" amount="2" result="ok" now="6/8"]`)
	want("a write-back copied unquoted", acts, react(id))
	wantPool(t, m, "Mira", "breath", "8/8")
	if r := m.lastReply(); r != nil {
		t.Errorf("a player's message recorded as reply %+v", r)
	}
	var told []string
	m.update(func(tx storage.Tx) error {
		c, err := tx.Campaign(m.ch)
		told = c.Told
		return err
	})
	if !reflect.DeepEqual(told, []string{ana.ID, bo.ID}) {
		t.Errorf("told %q", told)
	}

	// A channel with no campaign: one hint, whoever writes the tags.
	hint := func(id string) Action {
		return Action{Kind: Post, ChannelID: "elsewhere", MessageID: id, Content: noCampaignHint}
	}
	id, acts = m.send(Message{ChannelID: "elsewhere", Author: gmUser, Content: tag})
	want("the first tags without a campaign", acts, hint(id))
	_, acts = m.send(Message{ChannelID: "elsewhere", Author: ana, Content: tag})
	want("later tags there", acts)
	m.update(func(tx storage.Tx) error {
		if err := tx.PutCampaign(&storage.Campaign{ChannelID: "elsewhere", Ruleset: m.stored("Mira").Ruleset,
			GMs: []storage.GM{{Kind: "user", ID: bo.ID}}, CreatedBy: bo.ID, CreatedAt: msgTime}); err != nil {
			return err
		}
		return tx.DeleteCampaign("elsewhere")
	})
	id, acts = m.send(Message{ChannelID: "elsewhere", Author: gmUser, Content: tag})
	want("tags after a campaign there came and went", acts, hint(id))
}
