package fakediscord_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// TestHoldNextDeliversOutOfOrder: a held MESSAGE_CREATE arrives after the update and
// the delete that follow it, numbered in arrival order; a release holds nothing again.
func TestHoldNextDeliversOutOfOrder(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	var mu sync.Mutex
	var got []string
	var seqs []int64
	_, rec := open(t, fake, "tok", allIntents, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, e *discordgo.Event) {
			if e.Type == "MESSAGE_CREATE" || e.Type == "MESSAGE_UPDATE" || e.Type == "MESSAGE_DELETE" {
				mu.Lock()
				got, seqs = append(got, e.Type), append(seqs, e.Sequence)
				mu.Unlock()
			}
		})
	})
	gm := fake.NewUser("gm")
	fake.HoldNext("MESSAGE_CREATE")
	fake.HoldNext("MESSAGE_CREATE")
	first := fake.MessageCreate(channel, guild, gm, "first")
	fake.MessageUpdate(channel, first, "first, edited")
	second := fake.MessageCreate(channel, guild, gm, "second")
	fake.MessageDelete(channel, second)
	if n := fake.ReleaseHeld(); n != 2 {
		t.Fatalf("released %d, want 2", n)
	}
	fake.MessageCreate(channel, guild, gm, "third") // no hold left: in order
	if !fake.WaitFor(func() bool { return len(rec.messages()) == 3 }, wait) {
		t.Fatalf("got %d creates, want 3", len(rec.messages()))
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_CREATE", "MESSAGE_CREATE", "MESSAGE_CREATE"}
	if !slices.Equal(got, want) || !slices.IsSorted(seqs) {
		t.Errorf("arrived %v (seqs %v), want %v in sequence order", got, seqs, want)
	}
	creates := rec.messages()
	if creates[0].ID != first || creates[1].ID != second || creates[0].Content != "first" {
		t.Errorf("held creates %s %q, %s", creates[0].ID, creates[0].Content, creates[1].ID)
	}
	// The update carried the whole stored message: its author and its time.
	var u *discordgo.MessageUpdate
	if n := rec.count(func(r *recorder) int {
		if len(r.updated) > 0 {
			u = r.updated[0]
		}
		return len(r.updated)
	}); n != 1 {
		t.Fatalf("%d updates", n)
	}
	if u.Author == nil || u.Author.ID != gm.ID || u.Timestamp.IsZero() || u.Content != "first, edited" {
		t.Errorf("update %+v", u.Message)
	}
}
