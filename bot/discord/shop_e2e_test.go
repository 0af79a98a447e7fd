package discord

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// shopTable makes a D&D 5e campaign with its SRD system in the harness's channel, with
// Wren (the harness's player's) and Oskar (a second player's) holding 60 gp each, and
// returns the second player.
func shopTable(t *testing.T, h *harness) fakediscord.User {
	t.Helper()
	ben := h.fake.NewUser("ben")
	h.command(h.gm, "campaign", fakediscord.SubCommand("create", fakediscord.String("ruleset", "dnd5e-srd"), fakediscord.String("system", "dnd5e-srd")))
	for _, p := range []struct {
		u    fakediscord.User
		name string
	}{{h.player, "Wren"}, {ben, "Oskar"}} {
		h.command(p.u, "character", fakediscord.SubCommand("create", fakediscord.String("name", p.name)))
		if r, _ := h.command(p.u, "character", fakediscord.SubCommand("join", fakediscord.String("name", p.name))); !strings.Contains(r.Message.Content, "joins the game") {
			t.Fatalf("%s joins: %q", p.name, r.Message.Content)
		}
		if r, _ := h.command(h.gm, "coins", fakediscord.SubCommand("add", fakediscord.String("amount", "60 gp"), fakediscord.String("name", p.name))); !strings.Contains(r.Message.Content, "receives 60 gp") {
			t.Fatalf("coins for %s: %q", p.name, r.Message.Content)
		}
	}
	return ben
}

// TestBuyButtonRace: the shop has one potion and two players press its Buy button at
// the same moment: exactly one gets it, the other is told privately it is out of stock,
// and keeps their coins.
func TestBuyButtonRace(t *testing.T) {
	h := newHarness(t)
	ben := shopTable(t, h)
	h.command(h.gm, "shop", fakediscord.SubCommand("open", fakediscord.String("name", "Mother Hesk's")))
	if r, _ := h.command(h.gm, "shop", fakediscord.SubCommand("stock", fakediscord.String("item", "Potion of Healing"), fakediscord.String("price", "50 gp"))); !strings.Contains(r.Message.Content, "1 on the shelf") {
		t.Fatalf("/shop stock: %q", r.Message.Content)
	}
	shop, _ := h.command(h.player, "shop", fakediscord.SubCommand("show"))
	buy := firstButton(shop.Message.Components)
	if buy == nil || buy.Label != "Buy Potion of Healing" {
		t.Fatalf("the shop has no Buy button: %+v", shop.Message.Components)
	}
	a := h.fake.Button(h.channel, h.guild, h.player, shop.MessageID, buy.CustomID)
	b := h.fake.Button(h.channel, h.guild, ben, shop.MessageID, buy.CustomID)
	got := []fakediscord.InteractionResponse{h.respond(a), h.respond(b)}
	bought, refused := 0, 0
	for _, r := range got {
		switch {
		case r.Message != nil && strings.Contains(r.Message.Content, "buys 1 Potion of Healing"):
			bought++
		case r.Message != nil && r.Message.Flags&discordgo.MessageFlagsEphemeral != 0 && strings.Contains(r.Message.Content, "out of stock"):
			refused++
		default:
			t.Errorf("an answer that is neither: %+v", r.Message)
		}
	}
	if bought != 1 || refused != 1 {
		t.Fatalf("%d bought and %d refused, want one of each", bought, refused)
	}
	potions := 0
	for _, name := range []string{"Wren", "Oskar"} {
		r, _ := h.command(h.gm, "inventory", fakediscord.String("name", name), fakediscord.String("format", "json"))
		if strings.Contains(r.Message.Content, `"name":"Potion of Healing"`) {
			potions++
			if !strings.Contains(r.Message.Content, `"purse":{"gp":10}`) {
				t.Errorf("the buyer's purse: %s", r.Message.Content)
			}
		} else if !strings.Contains(r.Message.Content, `"purse":{"gp":60}`) {
			t.Errorf("the refused buyer paid: %s", r.Message.Content)
		}
	}
	if potions != 1 {
		t.Errorf("%d potions held, want 1", potions)
	}
}

// TestTradeAcceptedThroughButtons: Wren offers Oskar coins for his lamp (want:
// completes from Oskar's holdings); Wren's own
// press of Accept is refused, Oskar's swaps them and updates the offer in place.
func TestTradeAcceptedThroughButtons(t *testing.T) {
	h := newHarness(t)
	ben := shopTable(t, h)
	h.postContaining(h.say(h.gm, `[inventory: action="add" item="Lamp" who="Oskar"]`), `now="Lamp ×1"`)
	choices := h.complete(h.player, "trade", fakediscord.SubCommand("offer", fakediscord.String("to", "Oskar"), fakediscord.Focused(fakediscord.String("want", "la"))))
	if names := choiceValues(choices); len(names) != 1 || names[0] != "Lamp=Lamp" {
		t.Errorf("/trade offer want: offers %q", names)
	}
	offer, _ := h.command(h.player, "trade", fakediscord.SubCommand("offer", fakediscord.String("to", "Oskar"),
		fakediscord.String("give_coins", "5 gp"), fakediscord.String("want", "Lamp")))
	accept := firstButton(offer.Message.Components)
	if accept == nil || accept.Label != "Accept" {
		t.Fatalf("the offer has no Accept: %q %+v", offer.Message.Content, offer.Message.Components)
	}
	if r := h.respond(h.fake.Button(h.channel, h.guild, h.player, offer.MessageID, accept.CustomID)); r.Message == nil || r.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("Wren's own Accept: %+v", r)
	}
	r := h.respond(h.fake.Button(h.channel, h.guild, ben, offer.MessageID, accept.CustomID))
	if r.Type != 7 || r.Message == nil || !strings.Contains(r.Message.Content, "Wren and Oskar trade") {
		t.Fatalf("Oskar's Accept: type %d %+v", r.Type, r.Message)
	}
	w, _ := h.command(h.gm, "inventory", fakediscord.String("name", "Wren"), fakediscord.String("format", "json"))
	o, _ := h.command(h.gm, "inventory", fakediscord.String("name", "Oskar"), fakediscord.String("format", "json"))
	if !strings.Contains(w.Message.Content, `"name":"Lamp"`) || !strings.Contains(w.Message.Content, `"gp":55`) {
		t.Errorf("Wren after the trade: %s", w.Message.Content)
	}
	if strings.Contains(o.Message.Content, `"name":"Lamp"`) || !strings.Contains(o.Message.Content, `"gp":65`) {
		t.Errorf("Oskar after the trade: %s", o.Message.Content)
	}
}
