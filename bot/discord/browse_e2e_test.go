package discord

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage"
)

// actionsRow is row n of a message's components.
func actionsRow(t *testing.T, m *discordgo.Message, n int) *discordgo.ActionsRow {
	t.Helper()
	if n >= len(m.Components) {
		t.Fatalf("the message has %d rows of components, not %d", len(m.Components), n+1)
	}
	return m.Components[n].(*discordgo.ActionsRow)
}

// browseButton is the button labelled label in the message's components.
func browseButton(t *testing.T, m *discordgo.Message, label string) *discordgo.Button {
	t.Helper()
	for _, row := range m.Components {
		for _, c := range row.(*discordgo.ActionsRow).Components {
			if b, ok := c.(*discordgo.Button); ok && b.Label == label {
				return b
			}
		}
	}
	t.Fatalf("no button %q", label)
	return nil
}

// TestCatalogSearchNextAndPick pages a 27-entry /catalog search with Next and picks an
// entry of page 2 from its menu, each click updating the same private message (type 7);
// then /sheet's Lists button shows the picked row.
func TestCatalogSearchNextAndPick(t *testing.T) {
	h := newHarness(t)
	h.command(h.gm, "campaign", fakediscord.SubCommand("create", fakediscord.String("ruleset", "dnd5e-srd")))
	h.command(h.player, "character", fakediscord.SubCommand("create", fakediscord.String("name", "Mira")))
	h.command(h.player, "character", fakediscord.SubCommand("join", fakediscord.String("name", "Mira")))
	for _, set := range [][2]string{{"class", "Wizard"}, {"spellcasting_ability", "int"}} {
		h.command(h.player, "character", fakediscord.SubCommand("set", fakediscord.String("name", "Mira"),
			fakediscord.String("field", set[0]), fakediscord.String("value", set[1])))
	}

	r, _ := h.command(h.player, "catalog", fakediscord.SubCommand("search", fakediscord.String("catalog", "spells"),
		fakediscord.String("name", "Mira"), fakediscord.String("filter", "level=1")))
	if r.Message.Flags&discordgo.MessageFlagsEphemeral == 0 || len(r.Message.Embeds) != 1 {
		t.Fatalf("search: %+v", r.Message)
	}
	if f := r.Message.Embeds[0].Footer; f == nil || !strings.Contains(f.Text, "page 1 of 3") {
		t.Fatalf("first page footer: %+v", r.Message.Embeds[0].Footer)
	}
	listing := r.MessageID
	if !browseButton(t, r.Message, "Previous").Disabled {
		t.Error("Previous is enabled on page 1")
	}

	id := h.fake.Button(h.channel, h.guild, h.player, listing, browseButton(t, r.Message, "Next").CustomID)
	r = h.respond(id)
	if r.Type != 7 || !strings.Contains(r.Message.Embeds[0].Footer.Text, "page 2 of 3") {
		t.Fatalf("Next: type %d %s", r.Type, embedText(r.Message))
	}
	if !strings.Contains(r.Message.Embeds[0].Description, "**Identify**") {
		t.Fatalf("page 2 without Identify: %s", embedText(r.Message))
	}
	sel := actionsRow(t, r.Message, 0).Components[0].(*discordgo.SelectMenu)
	if len(sel.Options) == 0 || len(sel.Options) > 10 || sel.Placeholder != "Pick onto Mira" {
		t.Fatalf("menu: %+v", sel)
	}

	id = h.fake.Select(h.channel, h.guild, h.player, listing, sel.CustomID, "identify")
	r = h.respond(id)
	if r.Type != 7 || !strings.Contains(r.Message.Content, "**Mira** picked **Identify** from Spells") {
		t.Fatalf("pick: type %d %q", r.Type, r.Message.Content)
	}
	if !strings.Contains(r.Message.Embeds[0].Description, "**Identify** ✓ on Mira's sheet") {
		t.Errorf("the page after the pick: %s", embedText(r.Message))
	}
	var rows int
	err := h.store.View(context.Background(), func(tx storage.Tx) error {
		cards, err := tx.GameCards(h.channel)
		for _, c := range cards {
			if c.Card != nil && c.Card.Name == "Mira" {
				rows = len(c.Card.Build.Lists["spells"])
			}
		}
		return err
	})
	if err != nil || rows != 1 {
		t.Fatalf("Mira's spells: %d rows, %v", rows, err)
	}

	// /sheet's Lists button: the picked spell, on the same message.
	r, _ = h.command(h.player, "sheet", fakediscord.String("name", "Mira"))
	sheetMsg := r.MessageID
	id = h.fake.Button(h.channel, h.guild, h.player, sheetMsg, browseButton(t, r.Message, "Lists").CustomID)
	r = h.respond(id)
	if r.Type != 7 || !strings.Contains(r.Message.Content, "Identify") || strings.Contains(r.Message.Content, "__Now__") {
		t.Fatalf("Lists: type %d %q", r.Type, r.Message.Content)
	}
	if !browseButton(t, r.Message, "Lists").Disabled {
		t.Error("the Lists page does not disable its button")
	}
}
