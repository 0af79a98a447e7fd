package bot

import (
	"reflect"
	"testing"

	"sheetkeeper/storage"
)

// TestReplyGMNoLongerGM: a GM's messages skip the read that turns players away once
// the GM is known (gmSeen), but the write checks again: a GM taken off the campaign, or
// one whose campaign is gone, is answered exactly as anyone else then, and one made GM
// again is applied again.
func TestReplyGMNoLongerGM(t *testing.T) {
	m := lowVell(t)
	tag := `[sheet: who="Mira" op="spend" pool="breath" amount="2"]`
	setGMs := func(gms ...storage.GM) {
		m.update(func(tx storage.Tx) error {
			c, err := tx.Campaign(m.ch)
			if err != nil {
				return err
			}
			c.GMs = gms
			return tx.PutCampaign(c)
		})
	}
	if _, acts := m.say(gmUser, tag); len(acts) != 1 || acts[0].Kind != Post {
		t.Fatalf("the GM's tag: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "6/8")

	setGMs(storage.GM{Kind: "user", ID: bo.ID})
	id, acts := m.say(gmUser, tag)
	want := []Action{{Kind: React, ChannelID: m.ch, MessageID: id, Emoji: notApplied}, {Kind: Post, ChannelID: m.ch, MessageID: id, Content: onlyGMsNote}}
	if !reflect.DeepEqual(acts, want) {
		t.Errorf("a GM no longer GM:\n got %+v\nwant %+v", acts, want)
	}
	wantPool(t, m, "Mira", "breath", "6/8")
	if r := m.lastReply(); r == nil || r.MessageID == id {
		t.Errorf("the message of a GM no longer GM recorded as reply %+v", r)
	}

	setGMs(storage.GM{Kind: "user", ID: gmUser.ID})
	if _, acts := m.say(gmUser, tag); len(acts) != 1 || acts[0].Kind != Post {
		t.Fatalf("the GM's tag once GM again: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "4/8")

	m.update(func(tx storage.Tx) error { return tx.DeleteCampaign(m.ch) })
	id, acts = m.say(gmUser, tag)
	if want := []Action{{Kind: Post, ChannelID: m.ch, MessageID: id, Content: noCampaignHint}}; !reflect.DeepEqual(acts, want) {
		t.Errorf("the GM's tag after the campaign was deleted:\n got %+v\nwant %+v", acts, want)
	}
}
