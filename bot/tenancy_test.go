package bot

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// Tenancy (tenancy.go): what a server installs is that server's, and installing needs
// Manage Server there or being a GM of one of its campaigns.

// in runs a command as u in channel of guild, with options given as name, value pairs
// and the attachment, if any, as option file.
func (m *cmdTable) in(guild, channel string, u User, att *Attachment, name string, opts ...string) Response {
	m.t.Helper()
	cmd := Command{Name: name, User: u, ChannelID: channel, GuildID: guild}
	for i := 0; i+1 < len(opts); i += 2 {
		cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
	}
	if att != nil {
		cmd.Options = append(cmd.Options, Option{Name: "file", Attachment: att})
	}
	return m.core.OnCommand(context.Background(), cmd)
}

func manager(u User) User {
	u.CanManageGuild = true
	return u
}

// renamed is ember-roads.json with another name at the same version: other content.
func renamed(t *testing.T, name string) *Attachment {
	t.Helper()
	att := corpusFile(t, "ember-roads.json")
	data := bytes.Replace(att.Data, []byte(`"name": "Ember Roads"`), []byte(`"name": "`+name+`"`), 1)
	if bytes.Equal(data, att.Data) {
		t.Fatal("the test's edit did not apply")
	}
	return &Attachment{Name: att.Name, Data: data}
}

// TestTenancyTwoGuildsOneID: two guilds importing the same id and version with other
// content each get their own ruleset (no "raise version"); campaigns, /ruleset list,
// export, autocomplete, /campaign create and /campaign upgrade each see their own
// guild's, and a third guild sees neither. The built-ins are everyone's.
func TestTenancyTwoGuildsOneID(t *testing.T) {
	m := newCmdTable(t)
	a, b := renamed(t, "Ember of A"), renamed(t, "Ember of B")
	wantPrefix := func(what string, r Response, prefix string) {
		t.Helper()
		if !strings.HasPrefix(r.Content, prefix) {
			t.Fatalf("%s: %q, want it to start %q", what, r.Content, prefix)
		}
	}
	wantPrefix("import in A", m.in("gA", "a1", manager(ana), a, "ruleset import"), "Installed **Ember of A** as local/ember-roads v1")
	wantPrefix("import in B", m.in("gB", "b1", manager(bo), b, "ruleset import"), "Installed **Ember of B** as local/ember-roads v1")
	wantPrefix("import B's again in B", m.in("gB", "b1", manager(bo), b, "ruleset import"), "local/ember-roads v1 (Ember of B) is installed already, with this same content.")

	m.view(func(tx storage.Tx) error {
		for guild, name := range map[string]string{"gA": "Ember of A", "gB": "Ember of B"} {
			rec, err := tx.Ruleset(guild, "local/ember-roads", 1)
			if err != nil {
				return err
			}
			if rec.Name != name || rec.Guild != guild {
				t.Errorf("%s's record: %q in %q", guild, rec.Name, rec.Guild)
			}
		}
		if _, err := tx.Ruleset("", "local/ember-roads", 1); storage.KindOf(err) != storage.NotFound {
			t.Errorf("the shared namespace holds a guild's import: %v", err)
		}
		return nil
	})

	wantPrefix("campaign in A", m.in("gA", "a1", ana, nil, "campaign create", "ruleset", "ember-roads"), "This channel now plays **Ember of A** (local/ember-roads v1)")
	wantPrefix("campaign in B", m.in("gB", "b1", bo, nil, "campaign create", "ruleset", "local/ember-roads"), "This channel now plays **Ember of B** (local/ember-roads v1)")
	wantPrefix("campaign in C", m.in("gC", "c1", gmUser, nil, "campaign create", "ruleset", "ember-roads"), `no ruleset "ember-roads" is installed`)
	wantPrefix("built-in in C", m.in("gC", "c1", gmUser, nil, "campaign create", "ruleset", "low-vell"), "This channel now plays")
	wantPrefix("show in B", m.in("gB", "b1", bo, nil, "campaign show"), "**Campaign in this channel**\nRuleset: Ember of B (local/ember-roads v1)")

	for guild, want := range map[string]string{"gA": "Ember of A", "gB": "Ember of B"} {
		list := m.in(guild, "x", ana, nil, "ruleset list").Content
		if !strings.Contains(list, "`local/ember-roads` — "+want+", v1") || strings.Count(list, "local/ember-roads") != 1 {
			t.Errorf("/ruleset list in %s:\n%s", guild, list)
		}
		r := m.in(guild, "x", ana, nil, "ruleset export", "id", "ember-roads")
		if len(r.Files) != 1 || !bytes.Contains(r.Files[0].Data, []byte(`"name": "`+want+`"`)) {
			t.Errorf("/ruleset export in %s: %q", guild, r.Content)
		}
		choices := m.core.OnAutocomplete(context.Background(), Autocomplete{Command: "campaign create", Focused: "ruleset",
			Options: []Option{{Name: "ruleset", Value: "ember"}}, User: ana, ChannelID: "x", GuildID: guild})
		if len(choices) != 1 || choices[0].Value != "local/ember-roads" || !strings.HasPrefix(choices[0].Name, want+" (") {
			t.Errorf("ruleset choices in %s: %+v", guild, choices)
		}
	}
	if list := m.in("gC", "x", ana, nil, "ruleset list").Content; strings.Contains(list, "local/") || !strings.Contains(list, "low-vell") {
		t.Errorf("/ruleset list in a guild that imported nothing:\n%s", list)
	}
	if r := m.in("gC", "x", ana, nil, "ruleset export", "id", "local/ember-roads"); len(r.Files) != 0 {
		t.Errorf("another guild's ruleset exported: %q", r.Content)
	}

	// A's v2 is A's: B's campaign has nothing to upgrade to, A's moves.
	v2 := &Attachment{Name: a.Name, Data: bytes.Replace(a.Data, []byte(`"version": 1`), []byte(`"version": 2`), 1)}
	wantPrefix("v2 in A", m.in("gA", "a1", manager(ana), v2, "ruleset import"), "Installed **Ember of A** as local/ember-roads v2: 3 abilities, 4 skills, 2 pools, 2 catalogs (11 entries), 1 layer.\nOlder versions stay in use by 1 campaign")
	wantPrefix("upgrade in B", m.in("gB", "b1", bo, nil, "campaign upgrade"), "This campaign already plays the newest installed version")
	wantPrefix("upgrade in A", m.in("gA", "a1", ana, nil, "campaign upgrade"), "This campaign now plays **Ember of A** (local/ember-roads v1 → v2)")

	// A library card built on A's ruleset, read in C: a clear refusal, not an internal error.
	m.in("gA", "a2", ana, nil, "character create", "name", "Wren", "ruleset", "ember-roads")
	wantResponse(t, "a library card on another server's ruleset", m.in("gC", "c2", ana, nil, "sheet", "name", "Wren"),
		"local/ember-roads v2 is not installed here: a ruleset imported in a server is that server's (/ruleset list shows what this one has)", true)
	wantPrefix("the same card in A", m.in("gA", "a2", ana, nil, "sheet", "name", "Wren"), "**Wren** — Ember of A v2")
}

// TestInstallNeedsManageServer: /ruleset import is refused, as not-allowed and before
// anything is stored, to a member without Manage Server who is no GM of a campaign in
// the server — also one who is GM in another server — and to anyone in a direct
// message; a GM of one of the server's campaigns may. /ruleset check installs nothing
// and stays open to everyone.
func TestInstallNeedsManageServer(t *testing.T) {
	m := newCmdTable(t)
	att := corpusFile(t, "ember-roads.json")
	imp := func(guild string, u User) error {
		t.Helper()
		_, err := m.core.cmdRulesetImport(context.Background(), Command{Name: "ruleset import", User: u, ChannelID: "x", GuildID: guild,
			Options: []Option{{Name: "file", Attachment: att}}})
		return err
	}
	refused := func(what string, err error) {
		t.Helper()
		if refusal.Of(err) != refusal.NotAllowed {
			t.Fatalf("%s: %v, want a not-allowed refusal", what, err)
		}
	}
	refused("a member without Manage Server", imp("gA", ana))
	wantText(t, "the words", m.in("gA", "x", ana, att, "ruleset import").Content,
		"installing a ruleset in this server needs the Manage Server permission")
	m.ok(ana, "campaign create", "ruleset", "low-vell") // ana is GM in "guild"
	refused("a GM of another server's campaign", imp("gA", ana))
	refused("a direct message", imp("", ana))
	refused("a direct message, as a GM", imp("", gmUser))
	m.view(func(tx storage.Tx) error {
		for _, guild := range []string{"", "gA", "guild"} {
			if vs, err := tx.RulesetVersions(guild, "local/ember-roads"); err != nil || len(vs) > 0 {
				t.Errorf("a refused import stored versions %v in %q (%v)", vs, guild, err)
			}
		}
		return nil
	})
	if r := m.in("gA", "x", ana, att, "ruleset check"); !strings.HasPrefix(r.Content, "**Ember Roads** v1 is valid") {
		t.Errorf("/ruleset check without Manage Server: %q", r.Content)
	}
	// Being a GM is not enough: anyone may create a campaign and so become one.
	refused("a GM of one of the server's campaigns", imp("guild", ana))
	if err := imp("gA", manager(bo)); err != nil {
		t.Fatalf("a member with Manage Server: %v", err)
	}
}
