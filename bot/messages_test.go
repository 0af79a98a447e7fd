package bot

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sheetkeeper/catalog"
	"sheetkeeper/content"
	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// The test table: a campaign in channel "table" on a built-in ruleset, in a real bbolt
// file, with the user "gm" as its GM.

var (
	gmUser  = User{ID: "gm", Name: "gm"}
	ana     = User{ID: "ana", Name: "ana"}
	bo      = User{ID: "bo", Name: "bo"}
	msgTime = time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
)

type msgTable struct {
	t     testing.TB
	store storage.Store
	core  *Core
	ch    string
	rules *ruleset.Loaded
	next  int
}

func newMsgTable(t testing.TB, rulesetID string, gms ...storage.GM) *msgTable {
	t.Helper()
	b, ok, err := content.Lookup(rulesetID)
	if err != nil || !ok {
		t.Fatalf("built-in %s: %v %v", rulesetID, ok, err)
	}
	l, err := loadBuiltin(b)
	if err != nil {
		t.Fatal(err)
	}
	return newMsgTableOn(t, nil, l, gms...)
}

// newMsgTableOn is a table on an installed ruleset record (rec nil: the built-in l).
func newMsgTableOn(t testing.TB, rec *storage.RulesetRecord, l *ruleset.Loaded, gms ...storage.GM) *msgTable {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := &msgTable{t: t, store: st, core: New(st, Options{Clock: schedule.NewManualClock(msgTime)}), ch: "table", rules: l}
	ref := sheet.RulesetRef{ID: l.ID, Version: l.Version}
	if rec != nil {
		ref = sheet.RulesetRef{ID: rec.ID, Version: rec.Version}
		m.update(func(tx storage.Tx) error { return tx.PutRuleset(rec) })
	}
	camp := &storage.Campaign{ChannelID: m.ch, Ruleset: ref,
		GMs: append([]storage.GM{{Kind: "user", ID: gmUser.ID}}, gms...), CreatedBy: gmUser.ID, CreatedAt: msgTime}
	m.update(func(tx storage.Tx) error { return tx.PutCampaign(camp) })
	return m
}

func (m *msgTable) update(fn func(tx storage.Tx) error) {
	m.t.Helper()
	if err := m.store.Update(context.Background(), fn); err != nil {
		m.t.Fatal(err)
	}
}

// card puts a game card owned by owner into the campaign: fields set, catalog entries
// ("catalog/entry") picked.
func (m *msgTable) card(owner, name string, fields map[string]any, picks ...string) {
	m.t.Helper()
	l := m.rules
	c := sheet.NewCard(name, l.ID, l.Version, l.Sheet.Version)
	c.Build.Fields = fields
	entries := catalog.New(l)
	for _, p := range picks {
		cat, id, _ := strings.Cut(p, "/")
		e, ok := entries.Entry(cat, id)
		if !ok {
			m.t.Fatalf("no entry %s", p)
		}
		if out, _ := sheet.Pick(l.Ruleset, c, cat, e, entries); !out.OK() {
			m.t.Fatalf("pick %s: %+v", p, out)
		}
	}
	m.update(func(tx storage.Tx) error {
		return tx.PutGameCard(m.ch, &storage.CardRecord{OwnerID: owner, Card: c, UpdatedAt: msgTime})
	})
}

// say posts text as u and returns its message id and the bot's actions.
func (m *msgTable) say(u User, text string) (string, []Action) {
	return m.send(Message{Author: u, Content: text})
}

func (m *msgTable) send(msg Message) (string, []Action) {
	m.next++
	msg.ID = fmt.Sprintf("m%d", m.next)
	if msg.ChannelID == "" {
		msg.ChannelID = m.ch
	}
	return msg.ID, m.core.OnMessage(context.Background(), msg)
}

func (m *msgTable) edit(id string, u User, text string) []Action {
	return m.core.OnEdit(context.Background(), Message{ChannelID: m.ch, ID: id, Author: u, Content: text})
}

func (m *msgTable) delete(id string) []Action {
	return m.core.OnDelete(context.Background(), Deletion{ChannelID: m.ch, ID: id})
}

// stored reads a game card as stored.
func (m *msgTable) stored(name string) *sheet.Card {
	m.t.Helper()
	var c *sheet.Card
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		r, err := gameCard(tx, m.ch, name)
		if err != nil {
			return err
		}
		c = r.Card
		return nil
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return c
}

// pool is a card's pool as it stands: "value/max", with " +T temp".
func (m *msgTable) pool(name, key string) string {
	m.t.Helper()
	p := sheet.Evaluate(m.rules.Ruleset, m.stored(name), nil).Live.Pool(key)
	if p == nil {
		return "none"
	}
	return sheet.PoolNow(p, p.Value, p.Temp)
}

// field is a card's build field as stored (nil when unset).
func (m *msgTable) field(name, id string) any {
	return m.stored(name).Build.Fields[id]
}

func (m *msgTable) reply(seq int64) *storage.Reply {
	m.t.Helper()
	var r *storage.Reply
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		r, err = tx.Reply(m.ch, seq)
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return r
}

// lastReply is the channel's newest reply, nil when there is none.
func (m *msgTable) lastReply() *storage.Reply {
	m.t.Helper()
	var r *storage.Reply
	err := m.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		r, err = tx.LastReply(m.ch)
		if storage.KindOf(err) == storage.NotFound {
			return nil
		}
		return err
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return r
}

// onePost checks acts is exactly one post answering message id and returns it.
func onePost(t *testing.T, acts []Action, id string) Action {
	t.Helper()
	if len(acts) != 1 || acts[0].Kind != Post || acts[0].MessageID != id || acts[0].ChannelID != "table" {
		t.Fatalf("want one post answering %s, got %+v", id, acts)
	}
	wantOutcomesOfText(t, acts[0])
	return acts[0]
}

// wantOutcomesOfText checks that a post's outcomes say what its text says: each tag
// the text writes back, read again as a GM model reads it, with the outcome attributes
// (which the reader drops on purpose) taken from the tag's text.
func wantOutcomesOfText(t *testing.T, a Action) {
	t.Helper()
	var want []Outcome
	last := -1
	for _, tag := range parser.Read(a.Content).Tags {
		if tag.Start == last {
			continue // an inventory tag naming several items is one tag in the text
		}
		last = tag.Start
		text := a.Content[tag.Start:tag.End]
		o := Outcome{Tag: text, Op: tag.Op, Who: tag.Who}
		for _, m := range outcomeAttr.FindAllStringSubmatch(text, -1) {
			switch strings.ToLower(m[1]) {
			case "result":
				o.Result = m[2]
			case "now":
				o.Now = m[2]
			case "reason":
				o.Reason = m[2]
			}
		}
		want = append(want, o)
	}
	if !reflect.DeepEqual(a.Outcomes, want) {
		t.Errorf("outcomes:\n got %+v\nwant what the text says %+v", a.Outcomes, want)
	}
}

var outcomeAttr = regexp.MustCompile(`(?i)\b(result|now|reason)="([^"]*)"`)

// TestOutcomesAsData: each tag's outcome travels with the post as data — applied,
// refused, unreadable — as the text writes it back.
func TestOutcomesAsData(t *testing.T) {
	m := newMsgTable(t, "dnd5e-srd")
	m.card(ana.ID, "Mira", map[string]any{"hp_max": 12.0})
	m.card(bo.ID, "Bram", map[string]any{"hp_max": 8.0})
	id, acts := m.say(gmUser, `The acid hisses. [sheet: who="Mira" op="damage" pool="hp" amount="7"] `+
		`[sheet: who="Bram" op="spend" pool="slots_3" amount="1"] [sheet: op=frob]`)
	post := onePost(t, acts, id)
	want := []Outcome{
		{Tag: `[sheet: who="Mira" op="damage" pool="hp" amount="7" result="ok" now="5/12"]`, Op: "damage", Who: "Mira", Result: "ok", Now: "5/12"},
		{Tag: `[sheet: who="Bram" op="spend" pool="slots_3" amount="1" result="refused" reason="unknown-pool"]`, Op: "spend", Who: "Bram", Result: "refused", Reason: "unknown-pool"},
		{Tag: `[sheet: raw="op=frob" result="refused" reason="malformed"]`, Result: "refused", Reason: "malformed"},
	}
	if !reflect.DeepEqual(post.Outcomes, want) {
		t.Errorf("got  %+v\nwant %+v", post.Outcomes, want)
	}
}

func wantLines(t *testing.T, got string, want ...string) {
	t.Helper()
	if w := strings.Join(want, "\n"); got != w {
		t.Errorf("post text:\n got %s\nwant %s", got, w)
	}
}

func wantPool(t *testing.T, m *msgTable, name, key, want string) {
	t.Helper()
	if got := m.pool(name, key); got != want {
		t.Errorf("%s %s = %s, want %s", name, key, got, want)
	}
}

// lowVell is a Low Vell table with Mira (ana's: Breath 8/8, no charges above spark) and
// Bram (bo's: rank 5, Spark 4/4, Flare 2/2).
func lowVell(t *testing.T, gms ...storage.GM) *msgTable {
	m := newMsgTable(t, "low-vell", gms...)
	m.card(ana.ID, "Mira", nil)
	m.card(bo.ID, "Bram", map[string]any{"rank": 5.0})
	return m
}

func TestMessageAppliedAndAnswered(t *testing.T) {
	m := lowVell(t)
	id, acts := m.say(gmUser, `The water rises. [sheet: who="mira " op="damage" pool="Breath" amount="3"] The lamp gutters. [sheet: who="Bram" op="spend" pool="flare" amount="1"] [sheet: who="Bram" op="spend" pool="flare" amount="5"]`)
	post := onePost(t, acts, id)
	wantLines(t, post.Content,
		`[sheet: who="mira" op="damage" pool="Breath" amount="3" result="ok" now="5/8"]`,
		`[sheet: who="Bram" op="spend" pool="flare" amount="1" result="ok" now="1/2"]`,
		`[sheet: who="Bram" op="spend" pool="flare" amount="5" result="refused" reason="insufficient"]`)
	if post.ReplySeq != 1 {
		t.Errorf("ReplySeq = %d, want 1", post.ReplySeq)
	}
	want := []Embed{
		{Title: "Mira", Description: "✓ damage 3 Breath → 5/8", Color: colorOK, Fields: []EmbedField{{Name: "Left", Value: "Breath 5/8"}}},
		{Title: "Bram", Description: "✓ spend 1 flare → 1/2\n✗ spend 5 flare: Flare charges has 1, not 5", Color: colorPartial,
			Fields: []EmbedField{{Name: "Left", Value: "Flare charges 1/2"}}},
	}
	if !reflect.DeepEqual(post.Embeds, want) {
		t.Errorf("embeds:\n got %+v\nwant %+v", post.Embeds, want)
	}
	wantPool(t, m, "Mira", "breath", "5/8")
	wantPool(t, m, "Bram", "flare", "1/2")
	r := m.reply(1)
	if r.MessageID != id || r.AuthorID != gmUser.ID || r.Status != storage.ReplyLive || len(r.Changes) != 2 || !r.CreatedAt.Equal(msgTime) {
		t.Errorf("reply recorded as %+v", r)
	}
	// The reply's post can be found again once the front end reports its id.
	if err := m.core.RecordPost(context.Background(), m.ch, 1, []string{"p1", "p1b"}); err != nil {
		t.Fatal(err)
	}
	if got := m.reply(1).Posted; !slices.Equal(got, []string{"p1", "p1b"}) {
		t.Errorf("Posted = %q", got)
	}
	if err := m.core.RecordPost(context.Background(), m.ch, 9, []string{"p9"}); storage.KindOf(err) != storage.NotFound {
		t.Errorf("RecordPost of a reply that does not exist: %v, want a not found error", err)
	}
}

// Every GM message is a reply (SPEC 6), also one that changes nothing: narration without
// a tag is recorded silently, and a tag that is refused is answered and recorded.
func TestRepliesThatChangeNothing(t *testing.T) {
	m := lowVell(t)
	if _, acts := m.say(gmUser, "The night is quiet. [sheet] [sheet no colon]"); acts != nil {
		t.Errorf("message without tags answered: %+v", acts)
	}
	if r := m.lastReply(); r == nil || r.Seq != 1 || len(r.Changes) != 0 || r.Status != storage.ReplyLive {
		t.Fatalf("message without tags recorded as %+v", r)
	}
	id, acts := m.say(gmUser, `[sheet: who="Mira" op="spend" pool="breath" amount="99"]`)
	wantLines(t, onePost(t, acts, id).Content, `[sheet: who="Mira" op="spend" pool="breath" amount="99" result="refused" reason="insufficient"]`)
	if r := m.lastReply(); r == nil || r.Seq != 2 || len(r.Changes) != 0 || r.Status != storage.ReplyLive {
		t.Errorf("refused reply recorded as %+v", r)
	}
}

// Narration first, tags added by a later edit: the edit continues the reply the
// narration was, and applies the added tags once.
func TestEditAddsTagsToNarration(t *testing.T) {
	m := lowVell(t)
	narration := "The lanterns gutter as the tide comes in."
	id, acts := m.say(gmUser, narration)
	if acts != nil {
		t.Fatalf("narration answered: %+v", acts)
	}
	acts = m.edit(id, gmUser, narration+` [sheet: who="Mira" op="spend" pool="breath" amount="2"]`)
	if len(acts) != 1 || acts[0].Kind != Post ||
		acts[0].Content != `[sheet: who="Mira" op="spend" pool="breath" amount="2" result="ok" now="6/8"]` {
		t.Fatalf("continuing edit: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "6/8")
	if r := m.lastReply(); r.Seq != 1 || len(r.Changes) != 1 {
		t.Errorf("reply %+v", r)
	}
}

func TestDuplicateCreateAppliedOnce(t *testing.T) {
	m := lowVell(t)
	msg := Message{ChannelID: m.ch, ID: "dup", Author: gmUser, Content: `[sheet: who="Mira" op="spend" pool="breath" amount="2"]`}
	if acts := m.core.OnMessage(context.Background(), msg); len(acts) != 1 {
		t.Fatalf("first delivery: %+v", acts)
	}
	if acts := m.core.OnMessage(context.Background(), msg); acts != nil {
		t.Errorf("second delivery answered: %+v", acts)
	}
	wantPool(t, m, "Mira", "breath", "6/8")
	if r := m.lastReply(); r.Seq != 1 {
		t.Errorf("second delivery recorded reply %d", r.Seq)
	}
}

// TestNonGMAndQuotedApplyNothing: a player's tags, an unlisted bot's, a GM's quote of
// results and tags in a channel with no campaign change nothing; the first two and the
// last are told so (tell.go, TestTellDontIgnore), the quote is not.
func TestNonGMAndQuotedApplyNothing(t *testing.T) {
	m := lowVell(t)
	tag := `[sheet: who="Mira" op="spend" pool="breath" amount="2"]`
	if _, acts := m.say(ana, tag); len(acts) != 2 || acts[0].Kind != React || acts[1].Content != onlyGMsNote {
		t.Errorf("player's tag: %+v, want a reaction and the note", acts)
	}
	if _, acts := m.say(User{ID: "other-bot", Bot: true}, tag); len(acts) != 2 || acts[0].Kind != React || acts[1].Content != onlyGMsNote {
		t.Errorf("unlisted bot's tag: %+v, want a reaction and the note", acts)
	}
	// The GM quoting an outcome, on a quote line, in a block quote or in code (SPEC 3.4).
	quote := "As written:\n> [sheet: who=\"Mira\" op=\"spend\" pool=\"breath\" amount=\"2\" result=\"ok\" now=\"6/8\"]\n" +
		"and `[sheet: raw=\"x\" result=\"refused\" reason=\"malformed\"]`\n>>> [sheet: who=\"Mira\" op=\"spend\" pool=\"breath\" amount=\"2\"]"
	if _, acts := m.say(gmUser, quote); acts != nil {
		t.Errorf("quoting message answered: %+v", acts)
	}
	// A channel with no campaign.
	if _, acts := m.send(Message{ChannelID: "elsewhere", Author: gmUser, Content: tag}); len(acts) != 1 || acts[0].Content != noCampaignHint {
		t.Errorf("message in a channel without campaign: %+v, want the hint", acts)
	}
	wantPool(t, m, "Mira", "breath", "8/8")
	// Only the GM's quote is a reply, and it changed nothing.
	if r := m.lastReply(); r == nil || r.Seq != 1 || r.AuthorID != gmUser.ID || len(r.Changes) != 0 {
		t.Errorf("recorded %+v", r)
	}
}

func TestGMsByWebhookBotAndRole(t *testing.T) {
	m := lowVell(t, storage.GM{Kind: "webhook", ID: "hook-1"}, storage.GM{Kind: "role", ID: "role-gm"}, storage.GM{Kind: "webhook", ID: "narrator-bot"})
	cases := []struct {
		who  User
		want string
	}{
		{User{ID: "hook-1", Name: "Narrator", Bot: true, WebhookID: "hook-1"}, "7/8"},
		{User{ID: "narrator-bot", Bot: true}, "6/8"},
		{User{ID: "cara", Roles: []string{"role-player", "role-gm"}}, "5/8"},
		{User{ID: "dan", Roles: []string{"role-player"}}, "5/8"},
		{User{ID: "hook-2", Bot: true, WebhookID: "hook-2"}, "5/8"},
	}
	for _, c := range cases {
		m.say(c.who, `[sheet: who="Mira" op="spend" pool="breath" amount="1"]`)
		wantPool(t, m, "Mira", "breath", c.want)
	}
	if r := m.lastReply(); r.Seq != 3 || r.AuthorID != "cara" {
		t.Errorf("last reply %+v", r)
	}
}

func TestWhoDefaults(t *testing.T) {
	m := lowVell(t, storage.GM{Kind: "user", ID: ana.ID})
	spend := `[sheet: op="spend" pool="breath" amount="1"]`
	// Answering a player's message: that player's card.
	id, acts := m.send(Message{Author: gmUser, Content: spend, ReplyTo: "p-ana", ReplyToAuthor: ana.ID})
	wantLines(t, onePost(t, acts, id).Content, `[sheet: op="spend" pool="breath" amount="1" result="ok" now="7/8"]`)
	id, acts = m.send(Message{Author: gmUser, Content: `[sheet: op="spend" pool="spark" amount="1"]`, ReplyTo: "p-bo", ReplyToAuthor: bo.ID})
	wantLines(t, onePost(t, acts, id).Content, `[sheet: op="spend" pool="spark" amount="1" result="ok" now="3/4"]`)
	// Answering a reply (ana is a GM too): found through the replies of the channel.
	anaID, _ := m.say(ana, `[sheet: who="Bram" op="spend" pool="spark" amount="1"]`)
	m.send(Message{Author: gmUser, Content: spend, ReplyTo: anaID})
	wantPool(t, m, "Mira", "breath", "6/8")
	wantPool(t, m, "Bram", "spark", "2/4")
	// Answering nobody with two cards, or someone with no card: say who.
	for _, msg := range []Message{{Author: gmUser, Content: spend}, {Author: gmUser, Content: spend, ReplyToAuthor: "stranger"}} {
		id, acts = m.send(msg)
		post := onePost(t, acts, id)
		wantLines(t, post.Content, `[sheet: op="spend" pool="breath" amount="1" result="refused" reason="who-required"]`)
		want := []Embed{{Title: unapplied, Description: "✗ spend 1 breath: say which character the command is for", Color: colorRefused}}
		if !reflect.DeepEqual(post.Embeds, want) {
			t.Errorf("embeds %+v", post.Embeds)
		}
	}
	// The campaign's only card.
	solo := newMsgTable(t, "low-vell")
	solo.card(ana.ID, "Mira", nil)
	solo.say(gmUser, spend)
	wantPool(t, solo, "Mira", "breath", "7/8")
}

func TestPartyPartialOutcomes(t *testing.T) {
	m := lowVell(t)
	id, acts := m.say(gmUser, `[sheet: who="Party" op="spend" pool="Flare charges" amount="1"] [sheet: who="party" op="rest" rest="Moor until dawn"]`)
	post := onePost(t, acts, id)
	wantLines(t, post.Content,
		`[sheet: who="Party" op="spend" pool="Flare charges" amount="1" result="ok" now="Bram 1/2; Mira refused (unknown-pool)"]`,
		`[sheet: who="party" op="rest" rest="Moor until dawn" result="ok" now="Bram Moor until dawn: Flare charges 2/2; Mira Moor until dawn"]`)
	want := []Embed{
		{Title: "Bram", Description: "✓ spend 1 Flare charges → 1/2\n✓ rest Moor until dawn → Moor until dawn: Flare charges 2/2", Color: colorOK,
			Fields: []EmbedField{{Name: "Left", Value: "Flare charges 2/2"}}},
		{Title: "Mira", Description: "✗ spend 1 Flare charges: no pool \"Flare charges\" on this sheet\n✓ rest Moor until dawn → Moor until dawn", Color: colorPartial},
	}
	if !reflect.DeepEqual(post.Embeds, want) {
		t.Errorf("embeds:\n got %+v\nwant %+v", post.Embeds, want)
	}
	wantPool(t, m, "Bram", "flare", "2/2")
	if r := m.reply(1); len(r.Changes) != 2 {
		t.Errorf("changes %+v", r.Changes)
	}
}

func TestTooManyAndMalformed(t *testing.T) {
	m := newMsgTable(t, "dnd5e-srd")
	m.card(ana.ID, "Mira", map[string]any{"hp_max": 100.0})
	text := `[sheet: Mira drinks "the" potion] ` + strings.Repeat(`[sheet: op="damage" pool="hp" amount="1"] `, 41) + `[sheet: op="dance"]`
	id, acts := m.say(gmUser, text)
	lines := strings.Split(onePost(t, acts, id).Content, "\n")
	if len(lines) != 43 {
		t.Fatalf("%d lines", len(lines))
	}
	if want := `[sheet: raw="Mira drinks the potion" result="refused" reason="malformed"]`; lines[0] != want {
		t.Errorf("malformed:\n got %s\nwant %s", lines[0], want)
	}
	if want := `[sheet: op="damage" pool="hp" amount="1" result="ok" now="60/100"]`; lines[40] != want {
		t.Errorf("40th command:\n got %s\nwant %s", lines[40], want)
	}
	if want := `[sheet: op="damage" pool="hp" amount="1" result="refused" reason="too-many"]`; lines[41] != want {
		t.Errorf("41st command:\n got %s\nwant %s", lines[41], want)
	}
	if want := `[sheet: raw="op= dance" result="refused" reason="malformed"]`; lines[42] != want {
		t.Errorf("unknown op:\n got %s\nwant %s", lines[42], want)
	}
	wantPool(t, m, "Mira", "hp", "60/100")
}

// use and cast on the 5e SRD: a plain cast, an upcast from a higher slot, pact slots that
// pay for spell slots (level= and targets= on the write-back), a cantrip, a pool that
// cannot pay.
func TestUseUpcastAndPays5e(t *testing.T) {
	m := newMsgTable(t, "dnd5e-srd")
	m.card(ana.ID, "Mira", map[string]any{"caster_level": 5.0, "spellcasting_ability": "int", "pact_slots_max": 2.0, "pact_slot_level": 3.0, "hp_max": 30.0},
		"spells/fireball", "spells/hold-person", "spells/magic-missile", "spells/fire-bolt")
	id, acts := m.say(gmUser, `Mira weaves. [sheet: op="cast" spell="Magic Missile"] [sheet: op="cast" spell="fireball" pool="3rd-level slots"] [sheet: op="cast" spell="Fireball" pool="slots_4"] [sheet: op="cast" spell="Hold Person" pool="Pact Magic slots" level="9" targets="20"] [sheet: op="use" name="Fire Bolt"] [sheet: op="cast" spell="Hold Person" pool="hp"]`)
	post := onePost(t, acts, id)
	wantLines(t, post.Content,
		`[sheet: op="use" name="Magic Missile" result="ok" now="1st-level slots 3/4" level="1"]`,
		`[sheet: op="use" name="fireball" pool="3rd-level slots" result="ok" now="3rd-level slots 1/2" level="3"]`,
		`[sheet: op="use" name="Fireball" pool="slots_4" result="refused" reason="insufficient"]`,
		`[sheet: op="use" name="Hold Person" pool="Pact Magic slots" result="ok" now="Pact Magic slots 1/2" level="3" targets="2"]`,
		`[sheet: op="use" name="Fire Bolt" result="ok" now="no cost"]`,
		`[sheet: op="use" name="Hold Person" pool="hp" result="refused" reason="bad-pool"]`)
	want := "✓ use Magic Missile → 1st-level slots 3/4 (level 1)\n" +
		"✓ use fireball from 3rd-level slots → 3rd-level slots 1/2 (level 3)\n" +
		"✗ use Fireball from slots_4: not enough: 4th-level slots has 0 of 1; 3rd-level slots or Pact Magic slots can pay: add pool=\"3rd-level slots\"\n" +
		"✓ use Hold Person from Pact Magic slots → Pact Magic slots 1/2 (level 3, 2 targets)\n" +
		"✓ use Fire Bolt → no cost\n" +
		"✗ use Hold Person from hp: Hit points cannot pay for 2nd-level slots"
	if len(post.Embeds) != 1 || post.Embeds[0].Description != want || post.Embeds[0].Fields[0].Value != "1st-level slots 3/4 · 3rd-level slots 1/2 · Pact Magic slots 1/2" {
		t.Errorf("embeds %+v", post.Embeds)
	}
	wantPool(t, m, "Mira", "slots_1", "3/4")
	wantPool(t, m, "Mira", "slots_3", "1/2")
	wantPool(t, m, "Mira", "pact_slots", "1/2")
	// The GM quoting the post applies nothing; the bot never sees its own posts (the
	// adapter drops them), and pasted unquoted they would be asked for again.
	if _, acts := m.say(gmUser, "> "+strings.ReplaceAll(post.Content, "\n", "\n> ")); acts != nil {
		t.Errorf("the quoted post applied: %+v", acts)
	}
}

// Rulesets imported from the public corpus, served from their stored records: a single
// file and a package (its files from memory, standalone catalogs read lazily).
func TestImportedRulesets(t *testing.T) {
	const corpus = "../../shared/reference/marinara"
	file, err := os.ReadFile(filepath.Join(corpus, "ember-roads.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	dir := filepath.Join(corpus, "5e-2014")
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		rec        *storage.RulesetRecord
		fields     map[string]any
		pick, tags string
		want       []string
	}{
		{&storage.RulesetRecord{ID: "local/ember-roads", Version: 1, File: file}, nil, "",
			`[sheet: op="spend" pool="Luck" amount="1"] [sheet: op="spend" pool="luck" amount="5"]`,
			[]string{`[sheet: op="spend" pool="Luck" amount="1" result="ok" now="2/3"]`,
				`[sheet: op="spend" pool="luck" amount="5" result="refused" reason="insufficient"]`}},
		{&storage.RulesetRecord{ID: "local/5e-2014", Version: 5, Files: files}, map[string]any{"hp_max": 12.0, "spellcasting_ability": "int", "slots_max_1": 2.0, "slots_max_2": 1.0}, "spells/magic-missile",
			`[sheet: op="damage" pool="hp" amount="5"] [sheet: op="cast" spell="Magic Missile" pool="2nd-level slots"]`,
			[]string{`[sheet: op="damage" pool="hp" amount="5" result="ok" now="7/12"]`,
				`[sheet: op="use" name="Magic Missile" pool="2nd-level slots" result="ok" now="2nd-level slots 0/1" level="2" targets="3"]`}},
	}
	for _, c := range cases {
		t.Run(c.rec.ID, func(t *testing.T) {
			l, err := loadRecord(c.rec)
			if err != nil {
				t.Fatal(err)
			}
			m := newMsgTableOn(t, c.rec, l)
			var picks []string
			if c.pick != "" {
				picks = append(picks, c.pick)
			}
			m.card(ana.ID, "Mira", c.fields, picks...)
			id, acts := m.say(gmUser, c.tags)
			wantLines(t, onePost(t, acts, id).Content, c.want...)
		})
	}
}
