package discord

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage"
)

// TestImportNeedsManageServer: the member's permissions reach the core from the
// interaction (i.Member.Permissions): a member without Manage Server is refused
// /ruleset import and nothing is stored; one with it installs, into this server's
// namespace; a second server importing the same id gets its own ruleset.
func TestImportNeedsManageServer(t *testing.T) {
	h := newHarness(t)
	player := h.player.WithPermissions(discordgo.PermissionSendMessages | discordgo.PermissionViewChannel | discordgo.PermissionUseApplicationCommands)
	imp := func(guild, channel string, u fakediscord.User, att fakediscord.Attachment) string {
		t.Helper()
		id := h.fake.Command(channel, guild, u, "ruleset", fakediscord.SubCommand("import", fakediscord.AttachmentOption("file", att)))
		r := h.respond(id)
		if r.Message == nil {
			t.Fatalf("/ruleset import: answer without a message: %+v", r)
		}
		return r.Message.Content + embedText(r.Message)
	}
	att := emberRoads(t, 1)
	if got := imp(h.guild, h.channel, player, att); !strings.Contains(got, "needs the Manage Server permission") {
		t.Fatalf("a member without Manage Server: %q", got)
	}
	versions := func(guild string) []int {
		var vs []int
		err := h.store.View(context.Background(), func(tx storage.Tx) error {
			var err error
			vs, err = tx.RulesetVersions(guild, "local/ember-roads")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return vs
	}
	if vs := versions(h.guild); len(vs) != 0 {
		t.Fatalf("a refused import stored versions %v", vs)
	}
	if got := imp(h.guild, h.channel, h.gm, att); !strings.Contains(got, "Installed **Ember Roads** as local/ember-roads v1") {
		t.Fatalf("a member with Manage Server: %q", got)
	}

	// Another server, the same id and version with other content: its own.
	other := att
	other.Data = []byte(strings.Replace(string(att.Data), `"name": "Ember Roads"`, `"name": "Ember of Elsewhere"`, 1))
	if string(other.Data) == string(att.Data) {
		t.Fatal("the test's edit did not apply")
	}
	const guild2, channel2 = "200000000000000001", "200000000000000002"
	if got := imp(guild2, channel2, h.gm, other); !strings.Contains(got, "Installed **Ember of Elsewhere** as local/ember-roads v1") {
		t.Fatalf("the same id in another server: %q", got)
	}
	if len(versions(h.guild)) != 1 || len(versions(guild2)) != 1 || len(versions("")) != 0 {
		t.Fatalf("versions: %v in the first server, %v in the second, %v shared", versions(h.guild), versions(guild2), versions(""))
	}
}

// TestUserOfPermissions: Manage Server, or Administrator (which holds every
// permission), lets a member install; other bits, and a DM's user, do not.
func TestUserOfPermissions(t *testing.T) {
	member := func(perms int64) *discordgo.Interaction {
		return &discordgo.Interaction{Member: &discordgo.Member{User: &discordgo.User{ID: "1"}, Permissions: perms}}
	}
	for _, c := range []struct {
		what string
		i    *discordgo.Interaction
		want bool
	}{
		{"Manage Server", member(discordgo.PermissionManageGuild | discordgo.PermissionSendMessages), true},
		{"Administrator", member(discordgo.PermissionAdministrator), true},
		{"Manage Channels and Messages", member(discordgo.PermissionManageChannels | discordgo.PermissionManageMessages), false},
		{"a direct message", &discordgo.Interaction{User: &discordgo.User{ID: "1"}}, false},
	} {
		if got := userOf(c.i).CanManageGuild; got != c.want {
			t.Errorf("%s: CanManageGuild %v, want %v", c.what, got, c.want)
		}
	}
}
