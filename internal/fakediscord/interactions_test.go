package fakediscord_test

// Interactions, their responses and follow-ups, and application commands.

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

func TestInteractionsAndResponses(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	player := fake.NewUser("player")
	s, rec := open(t, fake, "tok", allIntents)

	// A slash command with a sub-command, typed options and an attachment.
	cmd := fake.Command(channel, guild, player, "ruleset",
		fakediscord.SubCommand("import",
			fakediscord.AttachmentOption("file", fakediscord.Attachment{Filename: "vell.json", Data: []byte(`{"id":"vell"}`)}),
			fakediscord.Integer("version", 2),
			fakediscord.Boolean("force", true),
			fakediscord.UserOption("for", player)))
	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.interactions) }) == 1 }, wait) {
		t.Fatal("no INTERACTION_CREATE")
	}
	ic := rec.interactions[0]
	if ic.ID != cmd || ic.Type != discordgo.InteractionApplicationCommand || ic.Member == nil || ic.Member.User.ID != player.ID || ic.GuildID != guild {
		t.Fatalf("interaction = %+v", ic.Interaction)
	}
	data := ic.ApplicationCommandData()
	sub := data.Options[0]
	if data.Name != "ruleset" || sub.Name != "import" || sub.Type != discordgo.ApplicationCommandOptionSubCommand || len(sub.Options) != 4 {
		t.Fatalf("data = %+v", data)
	}
	attID := sub.Options[0].Value.(string)
	att := data.Resolved.Attachments[attID]
	if att == nil || att.Filename != "vell.json" || sub.Options[1].IntValue() != 2 || !sub.Options[2].BoolValue() {
		t.Fatalf("options = %+v resolved = %+v", sub.Options, data.Resolved)
	}
	if u := sub.Options[3].UserValue(nil); u.ID != player.ID || data.Resolved.Users[player.ID] == nil {
		t.Errorf("user option = %+v", u)
	}
	resp, err := http.Get(att.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"id":"vell"}` {
		t.Errorf("attachment served %q", body)
	}

	// Reply ephemerally, edit the original, add a follow-up.
	err = s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "Imported vell v2", Flags: discordgo.MessageFlagsEphemeral},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "again"}}); err == nil {
		t.Error("a second callback was accepted")
	}
	content := "Imported vell v2 (3 rows)"
	if _, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatal(err)
	}
	fu, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "follow-up"})
	if err != nil || fu.ID == "" {
		t.Fatalf("follow-up = %+v, %v", fu, err)
	}
	rs := fake.InteractionResponses(cmd)
	if len(rs) != 4 {
		t.Fatalf("responses = %+v", rs)
	}
	if r := rs[0]; r.Kind != fakediscord.KindCallback || r.Type != 4 || r.Status != 204 || r.Message.Content != "Imported vell v2" || r.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("callback = %+v", r)
	}
	if rs[1].Status != 400 || rs[2].Kind != fakediscord.KindEdit || rs[2].MessageID != rs[0].MessageID || rs[3].Kind != fakediscord.KindFollowup {
		t.Errorf("responses = %+v", rs)
	}
	orig, _ := fake.Message(channel, rs[0].MessageID)
	if orig.Content != content || orig.Flags&discordgo.MessageFlagsEphemeral == 0 || orig.InteractionID != cmd || orig.Type != discordgo.MessageTypeChatInputCommand {
		t.Errorf("original = %+v", orig)
	}

	// Autocomplete.
	ac := fake.Autocomplete(channel, guild, player, "pick", fakediscord.String("name", "Mira"), fakediscord.Focused(fakediscord.String("entry", "la")))
	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.interactions) }) == 2 }, wait) {
		t.Fatal("no autocomplete interaction")
	}
	aci := rec.interactions[1]
	if aci.Type != discordgo.InteractionApplicationCommandAutocomplete || !aci.ApplicationCommandData().Options[1].Focused {
		t.Fatalf("autocomplete = %+v", aci.Interaction)
	}
	err = s.InteractionRespond(aci.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Last Ember", Value: "last-ember"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rs := fake.InteractionResponses(ac); len(rs) != 1 || len(rs[0].Choices) != 1 || rs[0].Choices[0].Value != "last-ember" {
		t.Errorf("autocomplete responses = %+v", rs)
	}

	// A message with a button and a select; click, then update the message.
	posted, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
		Content: "Review",
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Review", CustomID: "review", Style: discordgo.PrimaryButton}}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{CustomID: "rows", MaxValues: 2, Options: []discordgo.SelectMenuOption{{Label: "1", Value: "1"}, {Label: "2", Value: "2"}}}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	btn := fake.Button(channel, guild, player, posted.ID, "review")
	sel := fake.Select(channel, guild, player, posted.ID, "rows", "1", "2")
	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.interactions) }) == 4 }, wait) {
		t.Fatal("no component interactions")
	}
	bi, si := rec.interactions[2], rec.interactions[3]
	if bi.ID != btn || bi.MessageComponentData().CustomID != "review" || bi.Message == nil || bi.Message.ID != posted.ID || len(bi.Message.Components) != 2 {
		t.Errorf("button = %+v", bi.Interaction)
	}
	if si.ID != sel || strings.Join(si.MessageComponentData().Values, ",") != "1,2" {
		t.Errorf("select = %+v", si.Interaction)
	}
	err = s.InteractionRespond(bi.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "Updated 2 rows", Components: []discordgo.MessageComponent{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := fake.Message(channel, posted.ID); m.Content != "Updated 2 rows" || len(m.Components) != 0 {
		t.Errorf("updated message = %+v", m.Message)
	}
	if err := s.InteractionRespond(si.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		t.Error(err)
	}
}

func TestInteractionWindow(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{InteractionTimeout: 20 * time.Millisecond})
	guild, channel := fake.NewID(), fake.NewID()
	s, rec := open(t, fake, "tok", allIntents)
	id := fake.Command(channel, guild, fake.NewUser("slow"), "sheet")
	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.interactions) }) == 1 }, wait) {
		t.Fatal("no interaction")
	}
	fake.WaitFor(func() bool { return false }, 40*time.Millisecond) // let the window pass
	err := s.InteractionRespond(rec.interactions[0].Interaction, &discordgo.InteractionResponse{Type: 5})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 10062 {
		t.Errorf("late answer: %v", err)
	}
	if rs := fake.InteractionResponses(id); len(rs) != 1 || rs[0].Status != 404 {
		t.Errorf("responses = %+v", rs)
	}
}

func TestBulkOverwriteCommands(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	s, _ := fake.Session("tok")
	guild := fake.NewID()
	cmds := []*discordgo.ApplicationCommand{
		{Name: "sheet", Description: "Show a card", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "Character", Autocomplete: true},
		}},
		{Name: "campaign", Description: "Campaigns", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "show", Description: "Show the campaign"},
		}},
	}
	created, err := s.ApplicationCommandBulkOverwrite(fake.ApplicationID(), guild, cmds)
	if err != nil {
		t.Fatal(err)
	}
	if len(created) != 2 || created[0].ID == "" || created[0].GuildID != guild || created[0].ApplicationID != fake.ApplicationID() {
		t.Fatalf("created = %+v", created)
	}
	if _, err := s.ApplicationCommandBulkOverwrite(fake.ApplicationID(), "", cmds[:1]); err != nil {
		t.Fatal(err)
	}
	all := fake.Commands()
	if len(all) != 3 || all[0].GuildID != "" || all[0].Name != "sheet" || all[1].GuildID != guild {
		t.Errorf("Commands() = %+v", all)
	}
	// Overwriting keeps the id of a command with the same name.
	again, err := s.ApplicationCommandBulkOverwrite(fake.ApplicationID(), guild, cmds[:1])
	if err != nil || len(again) != 1 || again[0].ID != created[0].ID {
		t.Errorf("overwrite = %+v, %v", again, err)
	}
	listed, err := s.ApplicationCommands(fake.ApplicationID(), guild)
	if err != nil || len(listed) != 1 || listed[0].Name != "sheet" {
		t.Errorf("GET commands = %+v, %v", listed, err)
	}
	// The command id then appears in interactions.
	if len(fake.Commands()) != 2 {
		t.Errorf("after overwrite: %d commands", len(fake.Commands()))
	}
	// Discord's checks: an upper-case name, a missing description.
	_, err = s.ApplicationCommandBulkOverwrite(fake.ApplicationID(), guild, []*discordgo.ApplicationCommand{{Name: "Sheet"}})
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 50035 ||
		!bytes.Contains(rest.ResponseBody, []byte("APPLICATION_COMMAND_INVALID_NAME")) || !bytes.Contains(rest.ResponseBody, []byte("description")) {
		t.Errorf("invalid command: %v", err)
	}
}

func TestDeferredReplyEchoAndRegisteredCommand(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	s, rec := open(t, fake, "tok", allIntents)
	created, err := s.ApplicationCommandBulkOverwrite(fake.ApplicationID(), guild, []*discordgo.ApplicationCommand{{Name: "rest", Description: "Take a rest"}})
	if err != nil {
		t.Fatal(err)
	}
	gm := fake.NewUser("gm")
	id := fake.Command(channel, guild, gm, "rest")
	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.interactions) }) == 1 }, wait) {
		t.Fatal("no interaction")
	}
	ic := rec.interactions[0]
	if ic.ApplicationCommandData().ID != created[0].ID {
		t.Errorf("command id %s, registered %s", ic.ApplicationCommandData().ID, created[0].ID)
	}
	if err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	orig := fake.InteractionResponses(id)[0].MessageID
	if m, _ := fake.Message(channel, orig); m.Flags&discordgo.MessageFlagsLoading == 0 {
		t.Errorf("deferred message flags %b, want loading", m.Flags)
	}
	content := "Everyone rests."
	if _, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatal(err)
	}
	if m, _ := fake.Message(channel, orig); m.Flags&discordgo.MessageFlagsLoading != 0 || m.Content != content {
		t.Errorf("after the edit: %+v", m.Message)
	}
	got, err := s.InteractionResponse(ic.Interaction)
	if err != nil || got.ID != orig {
		t.Errorf("GET @original = %+v, %v", got, err)
	}

	// A reply to a player's message.
	said := fake.MessageCreate(channel, guild, gm, "[sheet: Mira hp -1]")
	if !fake.WaitFor(func() bool { return len(rec.messages()) >= 2 }, wait) {
		t.Fatal("no message")
	}
	var player *discordgo.Message
	for _, m := range rec.messages() {
		if m.ID == said {
			player = m.Message
		}
	}
	if player == nil {
		t.Fatal("player message not received")
	}
	reply, err := s.ChannelMessageSendReply(channel, "Mira: hp 9", player.Reference())
	if err != nil || reply.MessageReference == nil || reply.MessageReference.MessageID != said || reply.ReferencedMessage == nil {
		t.Fatalf("reply = %+v, %v", reply, err)
	}

	// The bot hears about its own messages, as on Discord: the deferred
	// response's create and update, and the reply.
	if !fake.WaitFor(func() bool {
		return len(rec.messages()) == 3 && rec.count(func(r *recorder) int { return len(r.updated) }) == 1
	}, wait) {
		t.Fatalf("echoes: %d creates, %d updates", len(rec.messages()), len(rec.updated))
	}
	for _, m := range rec.messages() {
		if m.ID != said && m.Author.ID != fake.BotUser().ID {
			t.Errorf("echo author %+v", m.Author)
		}
	}
}
