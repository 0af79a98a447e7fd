package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// poolsOf reads a card's pools as they stand: "Spark charges 3/4, …", in the sheet's
// order.
func (m *cmdTable) poolsOf(name string) string {
	m.t.Helper()
	card := m.pkGet(name)
	camp := m.campaignRecord()
	var l = m.loaded(camp)
	var parts []string
	for _, p := range sheet.Evaluate(l.Ruleset, card, nil).Live.Pools {
		parts = append(parts, p.Label+" "+sheet.PoolNow(&p, p.Value, p.Temp))
	}
	return strings.Join(parts, ", ")
}

func TestUse(t *testing.T) {
	m := newPickTable(t, "low-vell", "")
	m.pkCard("ana", "Mira", map[string]any{"rank": 5.0, "ability.nerve": 14.0},
		"workings/ember-dart", "workings/lantern-chain", "workings/bellows-breath", "workings/kindle-wick")
	const full = "Breath 22/22, Spark charges 4/4, Flare charges 2/2, Blaze charges 1/1, Reserve oil 1/1, Bellows Breath 9/9"
	wantText(t, "full", m.poolsOf("Mira"), full)

	// A group cost pays from the first pool of the group that can afford it, and the answer
	// is the tag a GM would have written, written back, with the summary a reply carries.
	r := m.run(pkAna, "use", "name", "mira", "entry", "Ember Dart")
	wantResponse(t, "use", r, `[sheet: who="Mira" op="use" name="Ember Dart" result="ok" now="Spark charges 3/4" level="1"]`, false)
	if len(r.Embeds) != 1 || r.Embeds[0].Title != "Mira" || r.Embeds[0].Description != "✓ use Ember Dart → Spark charges 3/4 (level 1)" {
		t.Errorf("embed: %+v", r.Embeds)
	}

	// The upcast: a higher pool of the group raises the level and, here, the targets; a
	// pool that pays for the group pays at its own level.
	r = m.run(pkAna, "use", "name", "Mira", "entry", "lantern chain", "pool", "Blaze charges")
	wantResponse(t, "upcast", r, `[sheet: who="Mira" op="use" name="lantern chain" pool="Blaze charges" result="ok" now="Blaze charges 0/1" level="3" targets="2"]`, false)
	r = m.run(pkAna, "use", "name", "Mira", "entry", "Lantern Chain", "pool", "reserve")
	wantResponse(t, "pays", r, `[sheet: who="Mira" op="use" name="Lantern Chain" pool="reserve" result="ok" now="Reserve oil 0/1" level="2" targets="1"]`, false)

	// A counter the entry wrote pays one use; an entry with no cost changes nothing.
	r = m.run(pkAna, "use", "name", "Mira", "entry", "Bellows Breath")
	wantResponse(t, "counter", r, `[sheet: who="Mira" op="use" name="Bellows Breath" result="ok" now="Bellows Breath 8/9"]`, false)
	r = m.run(pkAna, "use", "name", "Mira", "entry", "Kindle Wick")
	wantResponse(t, "no cost", r, `[sheet: who="Mira" op="use" name="Kindle Wick" result="ok" now="no cost"]`, false)
	const after = "Breath 22/22, Spark charges 3/4, Flare charges 2/2, Blaze charges 0/1, Reserve oil 0/1, Bellows Breath 8/9"
	wantText(t, "after", m.poolsOf("Mira"), after)

	// Refusals change nothing and say why in words.
	r = m.run(pkAna, "use", "name", "Mira", "entry", "Ember Dart", "pool", "Breath")
	wantResponse(t, "bad pool", r, "Mira cannot use Ember Dart: Breath cannot pay for charges", true)
	r = m.run(pkAna, "use", "name", "Mira", "entry", "Fireball")
	wantResponse(t, "unknown", r, `Mira cannot use Fireball: nothing on Mira's sheet is called "Fireball"`, true)
	m.run(pkAna, "use", "name", "Mira", "entry", "Lantern Chain")
	m.run(pkAna, "use", "name", "Mira", "entry", "Lantern Chain")
	r = m.run(pkAna, "use", "name", "Mira", "entry", "Lantern Chain")
	wantResponse(t, "insufficient", r, "Mira cannot use Lantern Chain: not enough: Flare charges has 0 of 1", true)
	r = m.run(pkBram, "use", "name", "Mira", "entry", "Ember Dart")
	wantResponse(t, "not yours", r, "Mira is not your character: only its player or a GM may use what is on its sheet", true)
	wantText(t, "unchanged", m.poolsOf("Mira"), "Breath 22/22, Spark charges 3/4, Flare charges 0/2, Blaze charges 0/1, Reserve oil 0/1, Bellows Breath 8/9")

	// A GM may use a player's entry for them.
	r = m.run(pkGM, "use", "name", "Mira", "entry", "Ember Dart")
	wantResponse(t, "GM", r, `[sheet: who="Mira" op="use" name="Ember Dart" result="ok" now="Spark charges 2/4" level="1"]`, false)
}

func TestRest(t *testing.T) {
	m := newPickTable(t, "low-vell", "")
	m.pkCard("ana", "Mira", map[string]any{"rank": 5.0, "ability.nerve": 14.0}, "workings/ember-dart", "workings/bellows-breath")
	m.pkCard("bram", "Osk", map[string]any{"rank": 1.0})
	m.ok(pkAna, "use", "name", "Mira", "entry", "Ember Dart")
	m.ok(pkAna, "use", "name", "Mira", "entry", "Bellows Breath")

	r := m.run(pkAna, "rest", "rest", "mooring")
	wantResponse(t, "players", r, "/rest is for the campaign's GMs", true)
	r = m.run(pkGM, "rest", "rest", "nap")
	wantResponse(t, "unknown rest", r, `the rest was not taken: no rest "nap"`, true)

	r = m.run(pkGM, "rest", "rest", "breather")
	wantResponse(t, "party by default", r, `[sheet: who="party" op="rest" rest="breather" result="ok" now="Mira Catch your breath: Bellows Breath 9/9; Osk Catch your breath"]`, false)
	if len(r.Embeds) != 2 || r.Embeds[0].Title != "Mira" || r.Embeds[1].Title != "Osk" {
		t.Errorf("an embed per character: %+v", r.Embeds)
	}
	r = m.run(pkGM, "rest", "rest", "Moor until dawn", "who", "mira")
	wantResponse(t, "one character", r, `[sheet: who="mira" op="rest" rest="Moor until dawn" result="ok" now="Moor until dawn: Spark charges 4/4"]`, false)
	wantText(t, "rested", m.poolsOf("Mira"), "Breath 22/22, Spark charges 4/4, Flare charges 2/2, Blaze charges 1/1, Reserve oil 1/1, Bellows Breath 9/9")
	r = m.run(pkGM, "rest", "rest", "mooring", "who", "Nobody")
	wantResponse(t, "nobody", r, `the rest was not taken: no character is called "Nobody"`, true)
}

// A /use is recorded in the reply log like a GM's reply, so the GM's earlier reply is no
// longer the latest: editing it regenerates nothing (it could otherwise spend what the
// player's use spent in between), and deleting it waits.
func TestPlayCommandsAreRecordedLikeReplies(t *testing.T) {
	m := newPickTable(t, "low-vell", "")
	m.pkCard("ana", "Mira", map[string]any{"rank": 5.0}, "workings/lantern-chain")
	ctx := context.Background()
	say := func(id, text string) Message {
		return Message{ChannelID: m.ch, ID: id, Author: pkGM, Content: text}
	}
	m.core.OnMessage(ctx, say("m1", `Chains! [sheet: who="Mira" op="use" name="Lantern Chain"]`))
	m.ok(pkAna, "use", "name", "Mira", "entry", "Lantern Chain")
	m.ok(pkGM, "rest", "rest", "breather")
	wantText(t, "spent", m.poolsOf("Mira"), "Breath 8/8, Spark charges 4/4, Flare charges 0/2, Blaze charges 1/1, Reserve oil 1/1")

	acts := m.core.OnEdit(ctx, say("m1", `Chains! [sheet: who="Mira" op="use" name="Lantern Chain" pool="Blaze charges"]`))
	if len(acts) != 1 || acts[0].Content != earlierEdit {
		t.Errorf("an edit of the GM's reply before the command: %+v", acts)
	}
	m.core.OnDelete(ctx, Deletion{ChannelID: m.ch, ID: "m1"})
	wantText(t, "nothing undone", m.poolsOf("Mira"), "Breath 8/8, Spark charges 4/4, Flare charges 0/2, Blaze charges 1/1, Reserve oil 1/1")

	var replies []*storage.Reply
	m.view(func(tx storage.Tx) error {
		var err error
		replies, err = tx.Replies(m.ch, 0, 0)
		return err
	})
	var got []string
	for _, r := range replies {
		var paths []string
		for _, ch := range r.Changes {
			paths = append(paths, ch.Path)
		}
		got = append(got, fmt.Sprintf("%d %s %s %s %s %s [%s]", r.Seq, r.MessageID, r.AuthorID, r.Source, r.Status, r.Text, strings.Join(paths, " ")))
	}
	wantText(t, "replies", strings.Join(got, "\n"), strings.Join([]string{
		`1 m1 gm  deleted Chains! [sheet: who="Mira" op="use" name="Lantern Chain"] [live.pools.flare]`,
		`2 command:2 ana command:use live [sheet: who="Mira" op="use" name="Lantern Chain"] [live.pools.flare]`,
		`3 command:3 gm command:rest live [sheet: who="party" op="rest" rest="breather"] []`,
	}, "\n"))
}
