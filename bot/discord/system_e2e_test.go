package discord

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/content"
	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage"
)

// TestSystemImportExport: through Discord, a member without Manage Server is refused
// /system import; a manager's upload is stored in this server's namespace, and /system
// export sends back its exact bytes as the answer's file.
func TestSystemImportExport(t *testing.T) {
	h := newHarness(t)
	b, _, err := content.LookupSystem("saltmarch")
	if err != nil {
		t.Fatal(err)
	}
	att := fakediscord.Attachment{Filename: "my-march.json", ContentType: "application/json",
		Data: bytes.Replace(b.File, []byte(`"id": "saltmarch"`), []byte(`"id": "my-march"`), 1)}
	imp := func(u fakediscord.User) string {
		t.Helper()
		id := h.fake.Command(h.channel, h.guild, u, "system", fakediscord.SubCommand("import", fakediscord.AttachmentOption("file", att)))
		r := h.respond(id)
		if r.Message == nil {
			t.Fatalf("/system import: answer without a message: %+v", r)
		}
		return r.Message.Content
	}
	player := h.player.WithPermissions(discordgo.PermissionSendMessages | discordgo.PermissionViewChannel | discordgo.PermissionUseApplicationCommands)
	if got := imp(player); !strings.Contains(got, "needs the Manage Server permission") {
		t.Fatalf("a member without Manage Server: %q", got)
	}
	if got := imp(h.gm); !strings.HasPrefix(got, "Imported **Saltmarch** as my-march v1: ") {
		t.Fatalf("a manager: %q", got)
	}
	err = h.store.View(context.Background(), func(tx storage.Tx) error {
		vs, err := tx.SystemVersions(h.guild, "my-march")
		if err == nil && len(vs) != 1 {
			t.Errorf("versions in the server: %v", vs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	id := h.fake.Command(h.channel, h.guild, h.gm, "system", fakediscord.SubCommand("export", fakediscord.String("id", "my-march")))
	r := h.respond(id)
	if len(r.Files) != 1 || r.Files[0].Filename != "my-march-v1.json" || !bytes.Equal(r.Files[0].Data, att.Data) {
		t.Fatalf("export: %d files %+v", len(r.Files), r.Message)
	}
}
