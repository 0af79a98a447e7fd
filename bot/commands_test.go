package bot

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sheetkeeper/content"
	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// The command tests drive Core.OnCommand against a real bbolt file, in channel "room",
// the way a front end does: a command name, options, a user.

var cmdTime = time.Date(2026, 4, 2, 19, 30, 0, 0, time.UTC)

type cmdTable struct {
	t     testing.TB
	store storage.Store
	core  *Core
	ch    string
}

func newCmdTable(t testing.TB) *cmdTable {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &cmdTable{t: t, store: st, core: New(st, Options{Clock: schedule.NewManualClock(cmdTime)}), ch: "room"}
}

// run runs a command as u with options given as name, value pairs.
func (m *cmdTable) run(u User, name string, opts ...string) Response {
	m.t.Helper()
	if len(opts)%2 != 0 {
		m.t.Fatalf("odd options %q", opts)
	}
	cmd := Command{Name: name, User: u, ChannelID: m.ch, GuildID: "guild"}
	for i := 0; i < len(opts); i += 2 {
		cmd.Options = append(cmd.Options, Option{Name: opts[i], Value: opts[i+1]})
	}
	return m.core.OnCommand(context.Background(), cmd)
}

// runFile runs a command whose option file is att, in the guild run uses, as u with the
// Manage Server permission there: the import tests are about what gets installed;
// tenancy_test.go is about who may install.
func (m *cmdTable) runFile(u User, name string, att *Attachment) Response {
	m.t.Helper()
	u.CanManageGuild = true
	return m.core.OnCommand(context.Background(), Command{Name: name, User: u, ChannelID: m.ch, GuildID: "guild",
		Options: []Option{{Name: "file", Attachment: att}}})
}

// ok runs a command that must succeed (no refusal, no internal error) and returns its text.
func (m *cmdTable) ok(u User, name string, opts ...string) string {
	m.t.Helper()
	r := m.run(u, name, opts...)
	if r.Ephemeral && looksRefused(r.Content) {
		m.t.Fatalf("/%s %q refused: %s", name, opts, r.Content)
	}
	return r.Content
}

// looksRefused tells a refusal or failure from an answer, for ok.
func looksRefused(s string) bool {
	for _, p := range []string{"Internal error", "only a GM", "no character", "no campaign", "not your", "There is no command", " needs "} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func (m *cmdTable) update(fn func(tx storage.Tx) error) {
	m.t.Helper()
	if err := m.store.Update(context.Background(), fn); err != nil {
		m.t.Fatal(err)
	}
}

// builtinRules loads a built-in ruleset.
func builtinRules(t testing.TB, id string) *ruleset.Loaded {
	t.Helper()
	b, ok, err := content.Lookup(id)
	if err != nil || !ok {
		t.Fatalf("built-in %s: %v %v", id, ok, err)
	}
	l, err := loadBuiltin(b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (m *cmdTable) view(fn func(tx storage.Tx) error) {
	m.t.Helper()
	if err := m.store.View(context.Background(), fn); err != nil {
		m.t.Fatal(err)
	}
}

func (m *cmdTable) campaignRecord() *storage.Campaign {
	m.t.Helper()
	var camp *storage.Campaign
	m.view(func(tx storage.Tx) error {
		var err error
		camp, err = tx.Campaign(m.ch)
		return err
	})
	return camp
}

func (m *cmdTable) gameRecord(name string) *storage.CardRecord {
	m.t.Helper()
	var rec *storage.CardRecord
	m.view(func(tx storage.Tx) error {
		var err error
		rec, err = tx.GameCard(m.ch, name)
		return err
	})
	return rec
}

func (m *cmdTable) libraryRecord(owner, name string) *storage.CardRecord {
	m.t.Helper()
	var rec *storage.CardRecord
	m.view(func(tx storage.Tx) error {
		var err error
		rec, err = tx.LibraryCard(owner, name)
		return err
	})
	return rec
}

func wantText(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func wantResponse(t *testing.T, what string, got Response, content string, ephemeral bool) {
	t.Helper()
	if got.Content != content || got.Ephemeral != ephemeral {
		t.Errorf("%s:\n got %q (ephemeral %v)\nwant %q (ephemeral %v)", what, got.Content, got.Ephemeral, content, ephemeral)
	}
}

func TestCommandSet(t *testing.T) {
	specs := New(nil, Options{}).Commands()
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
		if s.Description == "" || len(s.Description) > 100 {
			t.Errorf("/%s: description %q (Discord wants 1 to 100 characters)", s.Name, s.Description)
		}
		for _, o := range s.Options {
			if o.Description == "" || len(o.Description) > 100 {
				t.Errorf("/%s %s: description %q", s.Name, o.Name, o.Description)
			}
			if !slices.Contains([]string{"string", "integer", "boolean", "user", "attachment"}, o.Type) {
				t.Errorf("/%s %s: type %q", s.Name, o.Name, o.Type)
			}
			if (o.Name == "name" || o.Name == "catalog" || o.Name == "entry") && o.Type == "string" && !o.Autocomplete &&
				s.Name != "character create" && s.Name != "shop open" {
				t.Errorf("/%s %s: a name-like option should autocomplete", s.Name, o.Name)
			}
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("commands not sorted: %q", names)
	}
	// SPEC 8.1 with the inventory commands.
	for _, want := range []string{
		"campaign create", "campaign gm add", "campaign gm remove", "campaign show", "campaign upgrade",
		"ruleset import", "ruleset list", "ruleset check", "ruleset export",
		"character create", "character join", "character set", "character row add", "character row edit", "character row remove",
		"sheet", "pick", "catalog search", "refresh", "refresh update", "use", "rest", "gm brief", "demo",
		"schedule rest", "schedule list", "schedule remove", "check", "roll", "inventory",
		"item add", "item remove", "item equip", "item unequip", "item state", "item give",
		"shop", "shop open", "shop close", "shop stock", "buy", "sell", "coins add", "coins remove", "coins convert", "trade offer", "trade accept",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("no /%s", want)
		}
	}
	for _, s := range specs {
		gmOnly := slices.Contains([]string{"campaign gm add", "campaign gm remove", "campaign set", "campaign upgrade", "rest", "gm brief",
			"schedule rest", "schedule remove", "demo reset", "shop open", "shop close", "shop stock"}, s.Name)
		if s.GMOnly != gmOnly {
			t.Errorf("/%s GMOnly = %v, want %v", s.Name, s.GMOnly, gmOnly)
		}
	}
}

func TestRouter(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "unknown command", m.run(gmUser, "teleport"), "There is no command /teleport.", true)
	wantResponse(t, "a typo of a command", m.run(gmUser, "pik"), "There is no command /pik — did you mean /pick?", true)
	wantResponse(t, "a typo of a subcommand", m.run(gmUser, "campaign craete"), "There is no command /campaign craete — did you mean /campaign create?", true)
	wantResponse(t, "missing option", m.run(gmUser, "character set", "name", "Mira"), "/character set needs value:.", true)
	wantResponse(t, "missing attachment", m.run(gmUser, "ruleset import"), "/ruleset import needs file:.", true)
	wantResponse(t, "GM-only without a campaign", m.run(gmUser, "campaign gm add", "user", "bo"),
		"this channel has no campaign: a GM starts one with /campaign create", true)
	m.ok(gmUser, "campaign create", "ruleset", "low-vell")
	wantResponse(t, "GM-only for a player", m.run(ana, "campaign gm add", "user", "bo"),
		"/campaign gm add is for the campaign's GMs", true)
	// Names match ignoring case and spacing.
	wantResponse(t, "spacing", m.run(gmUser, "  Campaign   GM add", "user", "bo"),
		"<@bo> is now a GM of this campaign: their sheet tags are applied.", false)
}

func TestInternalErrorIsNotShown(t *testing.T) {
	m := newCmdTable(t)
	m.store.Close()
	got := m.run(gmUser, "campaign show")
	wantResponse(t, "closed store", got, "Internal error", true)
}

func TestPanickingHandlerIsAnInternalError(t *testing.T) {
	m := newCmdTable(t)
	m.core.router.command(CommandSpec{Name: "test panic", Description: "panics"}, func(*Core, context.Context, Command) (Response, error) {
		panic("boom")
	})
	wantResponse(t, "panic", m.run(ana, "test panic"), "Internal error", true)
}
