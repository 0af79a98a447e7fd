package fakediscord_test

import (
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// TestReactionAdd: the bot's reaction through discordgo's MessageReactionAdd is stored
// on the message once however often it is sent; an unknown message and an emoji that
// is no Unicode emoji are refused with Discord's codes.
func TestReactionAdd(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{NoEcho: true})
	guild, channel := fake.NewID(), fake.NewID()
	fake.AddChannel(channel, guild)
	s, _ := fake.Session("tok")
	theirs := fake.MessageCreate(channel, guild, fake.NewUser("p"), "[sheet: op=\"rest\"]")
	for range 2 {
		if err := s.MessageReactionAdd(channel, theirs, "🚫"); err != nil {
			t.Fatal(err)
		}
	}
	m, ok := fake.Message(channel, theirs)
	if !ok || len(m.Reactions) != 1 || !m.Reactions[0].Me || m.Reactions[0].Count != 1 || m.Reactions[0].Emoji.Name != "🚫" {
		t.Fatalf("reactions %+v", m.Reactions)
	}
	code := func(err error) int {
		var rest *discordgo.RESTError
		if errors.As(err, &rest) && rest.Message != nil {
			return rest.Message.Code
		}
		return 0
	}
	if err := s.MessageReactionAdd(channel, fake.NewID(), "🚫"); code(err) != 10008 {
		t.Errorf("unknown message: %v", err)
	}
	if err := s.MessageReactionAdd(channel, theirs, "no"); code(err) != 10014 {
		t.Errorf("not an emoji: %v", err)
	}
}
