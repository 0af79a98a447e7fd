package fakediscord

import "strconv"

// Member permissions: Discord sends, with every interaction in a guild, the invoking
// member's permission bits in the channel as a decimal string (member.permissions, and
// the same for members resolved in options). The fake sends every permission unless a
// test gives the user fewer, so a bot's permission checks can be tested both ways.

// WithPermissions returns u with exactly the permission bits perms (discordgo's
// Permission* constants, or-ed) in the interactions it causes.
func (u User) WithPermissions(perms int64) User {
	u.Permissions = &perms
	return u
}

// memberPermissions is member.permissions for u.
func memberPermissions(u User) string {
	if u.Permissions == nil {
		return permissionsAll
	}
	return strconv.FormatInt(*u.Permissions, 10)
}
