package fakediscord_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// restError is the Discord error a REST call failed with, or a failed test.
func restError(t *testing.T, err error) *discordgo.RESTError {
	t.Helper()
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil {
		t.Fatalf("want a Discord REST error, got %v", err)
	}
	return re
}

// TestDirectMessages: discordgo's UserChannelCreate opens a user's DM channel — the same
// one each time — and a post to it is recorded as a channel's is; a user with direct
// messages closed gets no post (403, 50007), an unknown user no channel (400, 50033).
func TestDirectMessages(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "tok", NoEcho: true})
	s, err := fake.Session("tok")
	if err != nil {
		t.Fatal(err)
	}
	ana := fake.NewUser("ana")
	ch, err := s.UserChannelCreate(ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Type != discordgo.ChannelTypeDM || len(ch.Recipients) != 1 || ch.Recipients[0].ID != ana.ID || ch.GuildID != "" {
		t.Errorf("a DM channel with ana: %+v", ch)
	}
	if again, err := s.UserChannelCreate(ana.ID); err != nil || again.ID != ch.ID {
		t.Errorf("opened again: %v %v, want the same channel %s", again, err, ch.ID)
	}
	if id, ok := fake.DMChannel(ana.ID); !ok || id != ch.ID {
		t.Errorf("DMChannel: %q %v", id, ok)
	}
	if _, err := s.ChannelMessageSend(ch.ID, "psst"); err != nil {
		t.Fatal(err)
	}
	if got := fake.Messages(ch.ID); len(got) != 1 || got[0].Content != "psst" || !got[0].ByBot || got[0].GuildID != "" {
		t.Errorf("the DM channel's messages: %+v", got)
	}

	fake.CloseDMs(ana.ID, true)
	_, err = s.ChannelMessageSend(ch.ID, "again")
	if re := restError(t, err); re.Response.StatusCode != http.StatusForbidden || re.Message.Code != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("closed DMs: %d %+v", re.Response.StatusCode, re.Message)
	}
	if got := fake.Messages(ch.ID); len(got) != 1 {
		t.Errorf("a refused post is not stored: %d messages", len(got))
	}
	fake.CloseDMs(ana.ID, false)
	if _, err := s.ChannelMessageSend(ch.ID, "open again"); err != nil {
		t.Errorf("DMs opened again: %v", err)
	}

	_, err = s.UserChannelCreate(fake.NewID())
	if re := restError(t, err); re.Response.StatusCode != http.StatusBadRequest || re.Message.Code != discordgo.ErrCodeInvalidRecipients {
		t.Errorf("an unknown user: %d %+v", re.Response.StatusCode, re.Message)
	}
	if _, err := s.UserChannelCreate(""); err == nil {
		t.Errorf("no recipient: no error")
	}
}
