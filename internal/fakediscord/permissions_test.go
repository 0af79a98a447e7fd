package fakediscord_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

// TestMemberPermissions: an interaction carries the invoking member's permission bits
// as discordgo reads them (i.Member.Permissions): every bit by default, exactly the
// bits a test gives with WithPermissions otherwise, also for a member resolved in a
// user option.
func TestMemberPermissions(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	admin := fake.NewUser("admin")
	const few = discordgo.PermissionSendMessages | discordgo.PermissionViewChannel
	player := fake.NewUser("player").WithPermissions(few)
	_, rec := open(t, fake, "tok", allIntents)

	fake.Command(channel, guild, admin, "ruleset", fakediscord.SubCommand("list"))
	fake.Command(channel, guild, player, "ruleset", fakediscord.SubCommand("list"), fakediscord.UserOption("for", player))
	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.interactions) }) == 2 }, wait) {
		t.Fatal("no INTERACTION_CREATE")
	}
	a, p := rec.interactions[0], rec.interactions[1]
	if a.Member == nil || a.Member.Permissions&discordgo.PermissionManageGuild == 0 {
		t.Errorf("a member by default: permissions %+v, want every bit", a.Member)
	}
	if p.Member == nil || p.Member.Permissions != few {
		t.Errorf("a member given fewer permissions: %+v, want %d", p.Member, few)
	}
	if m := p.ApplicationCommandData().Resolved.Members[player.ID]; m == nil || m.Permissions != few {
		t.Errorf("the member resolved in an option: %+v, want %d", m, few)
	}
}
