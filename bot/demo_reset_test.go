package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
)

// TestDemoAgainAndReset: a second /demo changes nothing and says what the campaign has;
// /demo reset asks with a public button whose press is checked then (a player, or a GM
// removed since the question, is refused NotGM and nothing changes); a GM's press ends
// the campaign in one go — campaign, game cards, this channel's schedules, its replies
// closed — and keeps library cards and other channels' schedules; a press on the button
// after a new campaign began ends nothing.
func TestDemoAgainAndReset(t *testing.T) {
	ctx := context.Background()
	m := newCmdTable(t)
	m.ok(gmUser, "demo")
	if acts := m.core.OnMessage(ctx, Message{ChannelID: m.ch, ID: "m1", Author: gmUser, Content: `[sheet: who="Mira" op="damage" pool="breath" amount="3"]`}); len(acts) != 1 {
		t.Fatalf("GM message: %+v", acts)
	}
	for _, s := range []*storage.Schedule{{ID: "here", ChannelID: m.ch}, {ID: "there", ChannelID: "elsewhere"}} {
		s.Rest, s.Cron, s.CreatedBy, s.CreatedAt = "mooring", "@daily", "gm", cmdTime
		m.update(func(tx storage.Tx) error { return tx.PutSchedule(s) })
	}

	again := m.run(ana, "demo")
	if !again.Ephemeral || !strings.Contains(again.Content, "already has a campaign") || !strings.Contains(again.Content, "2 characters (Bram, Mira)") ||
		!strings.Contains(again.Content, "`/demo reset`") || m.gameRecord("Mira").Card.Live.Pools["breath"].Value != 7 {
		t.Fatalf("second /demo: %q", again.Content)
	}

	wantResponse(t, "a player asks", m.run(ana, "demo reset"), "/demo reset is for the campaign's GMs", true)
	m.ok(gmUser, "campaign gm add", "user", "bo")
	ask := m.run(bo, "demo reset")
	if ask.Ephemeral || len(ask.Components) != 1 || len(ask.Components[0].Buttons) != 2 ||
		!strings.Contains(ask.Content, "2 characters (Bram, Mira) and 1 scheduled rest are deleted") {
		t.Fatalf("/demo reset: %+v", ask)
	}
	end, keep := ask.Components[0].Buttons[0], ask.Components[0].Buttons[1]
	if end.Label != "End the campaign" || keep.Label != "Keep it" {
		t.Fatalf("buttons %+v", ask.Components[0].Buttons)
	}
	press := func(u User, id string) (Response, error) {
		t.Helper()
		args, err := demoEndID.parse(id)
		if err != nil {
			t.Fatal(err)
		}
		return m.core.demoEndClick(ctx, Component{CustomID: id, User: u, ChannelID: m.ch}, args)
	}
	m.ok(gmUser, "campaign gm remove", "user", "bo")
	for _, u := range []User{ana, bo} {
		if _, err := press(u, end.CustomID); refusal.Of(err) != refusal.NotGM {
			t.Errorf("%s presses End: %v, want %s", u.ID, err, refusal.NotGM)
		}
	}
	if _, err := m.core.demoKeepClick(ctx, Component{CustomID: keep.CustomID, User: ana, ChannelID: m.ch}, nil); refusal.Of(err) != refusal.NotGM {
		t.Errorf("ana presses Keep it: %v, want %s", err, refusal.NotGM)
	}
	got := m.core.OnComponent(ctx, Component{CustomID: keep.CustomID, User: gmUser, ChannelID: m.ch})
	wantResponse(t, "keep", got, "The campaign goes on: nothing changed.", false)
	if !got.Update {
		t.Error("Keep it does not replace the question")
	}
	_ = m.campaignRecord() // still there

	got, err := press(gmUser, end.CustomID)
	if err != nil || !got.Update || got.Content != "The campaign has ended, and 2 characters with it. `/demo` starts a new one here." {
		t.Fatalf("End: %+v %v", got, err)
	}
	m.view(func(tx storage.Tx) error {
		if _, err := tx.Campaign(m.ch); storage.KindOf(err) != storage.NotFound {
			t.Errorf("campaign: %v", err)
		}
		if cards, err := tx.GameCards(m.ch); err != nil || len(cards) != 0 {
			t.Errorf("game cards %d, %v", len(cards), err)
		}
		if _, err := tx.Schedule("here"); storage.KindOf(err) != storage.NotFound {
			t.Errorf("this channel's schedule: %v", err)
		}
		if _, err := tx.Schedule("there"); err != nil {
			t.Errorf("another channel's schedule: %v", err)
		}
		if r, err := tx.ReplyByMessage(m.ch, "m1"); err != nil || r.Status != storage.ReplyReverted {
			t.Errorf("reply: %+v %v", r, err)
		}
		for _, name := range []string{"Mira", "Bram"} {
			if _, err := tx.LibraryCard("gm", name); err != nil {
				t.Errorf("library card %s: %v", name, err)
			}
		}
		return nil
	})

	// A new campaign, a minute on (campaigns are told apart by creation time): the old
	// message stays closed, and the old button ends nothing.
	m.core.clock.(*schedule.ManualClock).Set(cmdTime.Add(time.Minute))
	m.ok(gmUser, "demo")
	if acts := m.core.OnEdit(ctx, Message{ChannelID: m.ch, ID: "m1", Author: gmUser, Content: `[sheet: who="Mira" op="damage" pool="breath" amount="9"]`}); len(acts) != 0 {
		t.Errorf("edit of a closed reply: %+v", acts)
	}
	got, err = press(gmUser, end.CustomID)
	if err != nil || got.Content != "That campaign has ended already: nothing changed." {
		t.Errorf("the old button: %+v %v", got, err)
	}
	// The old post's Redo cannot reach the new campaign's cards either.
	r, err := m.core.redoClick(ctx, Component{CustomID: redoID.encode("1"), User: gmUser, ChannelID: m.ch}, []string{"1"})
	if refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("Redo of the ended campaign's post: %+v %v, want %s", r, err, refusal.NotAllowed)
	}
	if cards := m.gameCount(); cards != 2 || len(m.gameRecord("Mira").Card.Live.Pools) != 0 {
		t.Errorf("the new campaign: %d cards, Mira %+v", cards, m.gameRecord("Mira").Card.Live)
	}
}

func (m *cmdTable) gameCount() int {
	n := 0
	m.view(func(tx storage.Tx) error {
		cards, err := tx.GameCards(m.ch)
		n = len(cards)
		return err
	})
	return n
}

// TestEndingACampaignEndsItsShopAndOffer: the campaign's end takes its shop and its
// pending trade offer with it, and a later campaign in the channel names its offers
// apart from the ended one's, so an Accept left on an old offer's message, its number
// counted again from one, answers none of the new campaign's.
func TestEndingACampaignEndsItsShopAndOffer(t *testing.T) {
	ctx := context.Background()
	m, users := shopTable(t, 2)
	old := m.offer(users[0], "to", "C1", "give_coins", "5 gp")
	if err := m.answerTrade(tradeAcceptID, users[1], old.Buttons[0]); err != nil {
		t.Fatal(err)
	}
	m.offer(users[0], "to", "C1", "give_coins", "1 gp") // pending as the campaign ends
	ask := m.run(gmUser, "demo reset")
	end := ask.Components[0].Buttons[0].CustomID
	args, err := demoEndID.parse(end)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.core.demoEndClick(ctx, Component{CustomID: end, User: gmUser, ChannelID: m.ch}, args); err != nil {
		t.Fatal(err)
	}
	m.view(func(tx storage.Tx) error {
		if _, err := tx.Shop(m.ch); storage.KindOf(err) != storage.NotFound {
			t.Errorf("the ended campaign's shop: %v, want NotFound", err)
		}
		if _, err := tx.Trade(m.ch); storage.KindOf(err) != storage.NotFound {
			t.Errorf("the ended campaign's offer: %v, want NotFound", err)
		}
		return nil
	})

	m.core.clock.(*schedule.ManualClock).Set(cmdTime.Add(time.Minute))
	m.ok(gmUser, "campaign create", "ruleset", "dnd5e-srd", "system", "dnd5e-srd")
	for i, u := range users {
		m.ok(u, "character join", "name", fmt.Sprint("C", i))
		m.ok(gmUser, "coins add", "amount", "60 gp", "name", fmt.Sprint("C", i))
	}
	fresh := m.offer(users[0], "to", "C1", "give_coins", "5 gp")
	if fresh.Buttons[0].CustomID == old.Buttons[0].CustomID {
		t.Fatalf("the new campaign's first offer is named as the old one's: %q", old.Buttons[0].CustomID)
	}
	if err := m.answerTrade(tradeAcceptID, users[1], old.Buttons[0]); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("the old offer's Accept: %v, want %s", err, refusal.NotAllowed)
	}
	if err := m.answerTrade(tradeAcceptID, users[1], fresh.Buttons[0]); err != nil {
		t.Errorf("the new offer's own Accept: %v", err)
	}
}
