package bot

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

func TestCampaignCreate(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "create", m.run(gmUser, "campaign create", "ruleset", "low-vell"),
		"This channel now plays **Low Vell: Lamplighters of the Drowned City** (low-vell v1). <@gm> is its GM.\n"+
			"Players: `/character create name:<name>` makes your character, `/character join name:<name>` brings it into this game, `/sheet` shows it.",
		false)
	camp := m.campaignRecord()
	want := &storage.Campaign{ChannelID: "room", GuildID: "guild", Ruleset: sheet.RulesetRef{ID: "low-vell", Version: 1},
		GMs: []storage.GM{{Kind: "user", ID: "gm"}}, CreatedBy: "gm", CreatedAt: cmdTime}
	if !reflect.DeepEqual(camp, want) {
		t.Errorf("campaign:\n got %+v\nwant %+v", camp, want)
	}
	// The built-in's bytes are kept at the campaign's version.
	m.view(func(tx storage.Tx) error {
		rec, err := tx.Ruleset("", "low-vell", 1)
		if err != nil {
			return err
		}
		if rec.File == nil || rec.InstalledBy != "gm" || rec.Name != "Low Vell: Lamplighters of the Drowned City" || rec.Digest == "" {
			t.Errorf("stored built-in: %q by %q", rec.Name, rec.InstalledBy)
		}
		return nil
	})
	wantResponse(t, "twice", m.run(ana, "campaign create", "ruleset", "low-vell"),
		"this channel already has a campaign (see /campaign show)", true)
}

func TestCampaignCreateRefusals(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "unknown ruleset", m.run(gmUser, "campaign create", "ruleset", "ember-roads"),
		`no ruleset "ember-roads" is installed (/ruleset list shows them; /ruleset import adds one)`, true)
	wantResponse(t, "unknown layer", m.run(gmUser, "campaign create", "ruleset", "low-vell", "layers", "harbour_law, curfew"),
		`Low Vell: Lamplighters of the Drowned City has no layer "curfew" (it has harbour_law)`, true)
	if _, err := tx0(m); storage.KindOf(err) != storage.NotFound {
		t.Error("a refused create left a campaign")
	}
	wantResponse(t, "layers by label", m.run(gmUser, "campaign create", "ruleset", "low-vell", "layers", "Harbour Law"),
		"This channel now plays **Low Vell: Lamplighters of the Drowned City** (low-vell v1) with Harbour Law. <@gm> is its GM.\n"+
			"Players: `/character create name:<name>` makes your character, `/character join name:<name>` brings it into this game, `/sheet` shows it.",
		false)
	if got := m.campaignRecord().Layers; !reflect.DeepEqual(got, []string{"harbour_law"}) {
		t.Errorf("layers %q", got)
	}
}

// tx0 reads the channel's campaign, returning the store's error.
func tx0(m *cmdTable) (*storage.Campaign, error) {
	var camp *storage.Campaign
	var err error
	m.view(func(tx storage.Tx) error {
		camp, err = tx.Campaign(m.ch)
		return nil
	})
	return camp, err
}

func TestCampaignGMs(t *testing.T) {
	m := newCmdTable(t)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	wantResponse(t, "player adds", m.run(ana, "campaign gm add", "user", "ana"), "/campaign gm add is for the campaign's GMs", true)
	wantResponse(t, "two at once", m.run(gmUser, "campaign gm add", "user", "ana", "role", "r1"), "name exactly one of user:, role: or webhook:", true)
	wantResponse(t, "add user", m.run(gmUser, "campaign gm add", "user", "<@ana>"), "<@ana> is now a GM of this campaign: their sheet tags are applied.", false)
	wantResponse(t, "add again", m.run(gmUser, "campaign gm add", "user", "ana"), "<@ana> is a GM here already.", true)
	wantResponse(t, "add role", m.run(ana, "campaign gm add", "role", "r1"), "Role <@&r1> is now a GM of this campaign: their sheet tags are applied.", false)
	wantResponse(t, "add webhook", m.run(gmUser, "campaign gm add", "webhook", "w9"), "Webhook w9 is now a GM of this campaign: their sheet tags are applied.", false)
	// A role's holder is a GM.
	wantResponse(t, "role holder", m.run(User{ID: "cy", Roles: []string{"r1"}}, "campaign gm remove", "user", "gm"),
		"<@gm> is no longer a GM of this campaign.", false)
	want := []storage.GM{{Kind: "user", ID: "ana"}, {Kind: "role", ID: "r1"}, {Kind: "webhook", ID: "w9"}}
	if got := m.campaignRecord().GMs; !reflect.DeepEqual(got, want) {
		t.Errorf("GMs %+v, want %+v", got, want)
	}
	wantResponse(t, "removed GM", m.run(gmUser, "campaign gm add", "user", "gm"), "/campaign gm add is for the campaign's GMs", true)
	wantResponse(t, "not a GM", m.run(ana, "campaign gm remove", "user", "bo"), "<@bo> is not a GM here.", true)
	m.ok(ana, "campaign gm remove", "role", "r1")
	m.ok(ana, "campaign gm remove", "webhook", "w9")
	wantResponse(t, "last GM", m.run(ana, "campaign gm remove", "user", "ana"),
		"a campaign keeps at least one GM: add another before removing the last", true)
}

func TestCampaignShow(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "no campaign", m.run(ana, "campaign show"), "this channel has no campaign: a GM starts one with /campaign create", true)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell", "layers", "harbour_law")
	wantResponse(t, "empty", m.run(ana, "campaign show"),
		"**Campaign in this channel**\nRuleset: Low Vell: Lamplighters of the Drowned City (low-vell v1)\nLayers: Harbour Law\nInventory: the ruleset's own items (7 in its catalogs)\nGMs: <@gm>\nCharacters: none yet (`/character join name:<name>`)", false)
	m.ok(gmUser, "campaign gm add", "webhook", "w9")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")
	m.ok(bo, "character create", "name", "Bram")
	m.ok(bo, "character join", "name", "bram")
	wantResponse(t, "full", m.run(ana, "campaign show"),
		"**Campaign in this channel**\nRuleset: Low Vell: Lamplighters of the Drowned City (low-vell v1)\nLayers: Harbour Law\nInventory: the ruleset's own items (7 in its catalogs)\nGMs: <@gm>, webhook w9\nCharacters: Bram (<@bo>), Mira (<@ana>)", false)
}

// TestCampaignSystem: /campaign create system: plays inventories on a built-in system,
// and /campaign show says which; a system that is not installed is refused and creates
// nothing.
func TestCampaignSystem(t *testing.T) {
	m := newCmdTable(t)
	create := func(system string) (Response, error) {
		return m.core.cmdCampaignCreate(context.Background(), Command{Name: "campaign create", User: gmUser, ChannelID: m.ch, GuildID: "guild",
			Options: []Option{{Name: "ruleset", Value: "low-vell"}, {Name: "system", Value: system}}})
	}
	resp, err := create("atlantis")
	if refusal.Of(err) != refusal.NotEnabled || !strings.Contains(plain(err), `no game system "atlantis"`) {
		t.Fatalf("unknown system: %v %v", resp, err)
	}
	wantResponse(t, "nothing created", m.run(ana, "campaign show"), "this channel has no campaign: a GM starts one with /campaign create", true)
	resp, err = create("saltmarch")
	if err != nil || !strings.Contains(resp.Content, "inventories on Saltmarch (built-in system saltmarch v1)") {
		t.Fatalf("create: %q %v", resp.Content, err)
	}
	if resp = m.run(ana, "campaign show"); !strings.Contains(resp.Content, "\nInventory: Saltmarch (built-in system saltmarch v1)\n") {
		t.Fatalf("show: %q", resp.Content)
	}
}

// A campaign's time zone is what scheduled rests default to; an unknown zone is refused
// with what to write instead, and nothing is created.
func TestCampaignCreateTimeZone(t *testing.T) {
	m := newCmdTable(t)
	r := m.run(gmUser, "campaign create", "ruleset", "low-vell", "tz", "Mars/Olympus")
	wantResponse(t, "bad zone", r, `unknown time zone "Mars/Olympus": use an IANA name such as Europe/Berlin or America/New_York`, true)
	if _, err := tx0(m); storage.KindOf(err) != storage.NotFound {
		t.Fatal("a refused create left a campaign")
	}
	m.run(gmUser, "campaign create", "ruleset", "low-vell", "tz", "Europe/Berlin")
	if got := m.campaignRecord().TimeZone; got != "Europe/Berlin" {
		t.Fatalf("time zone %q", got)
	}
	if got := m.run(gmUser, "campaign show").Content; !strings.Contains(got, "Time zone: Europe/Berlin") {
		t.Fatalf("show:\n%s", got)
	}
}
