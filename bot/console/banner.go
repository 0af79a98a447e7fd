package console

import (
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/bot"
)

// Banner is what the console says first about the database it opened (h, from
// bot.Core.Holdings), so a second run starts where the first left off: its campaigns
// with their characters, the library cards, the rulesets installed, and how to go on
// or start over. An empty database has no banner ("").
func Banner(h bot.Holdings) string {
	if h.Campaigns == 0 && h.LibraryCards == 0 && len(h.Rulesets) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("This database already holds:\n")
	for _, c := range h.Shown {
		name := c.Name
		if name == "" {
			name = "a ruleset it cannot read now"
		}
		who := "no characters yet"
		if c.Cards > 0 {
			who = strings.Join(c.Characters, ", ")
			if more := c.Cards - len(c.Characters); more > 0 {
				who += fmt.Sprintf(" and %d more", more)
			}
		}
		fmt.Fprintf(&b, "  #%s — %s (%s v%d): %s\n", c.ChannelID, name, c.Ruleset.ID, c.Ruleset.Version, who)
	}
	if more := h.Campaigns - len(h.Shown); more > 0 {
		fmt.Fprintf(&b, "  and %d more %s\n", more, plural(more, "campaign", "campaigns"))
	}
	if h.LibraryCards > 0 {
		fmt.Fprintf(&b, "  %d library %s, of %s\n", h.LibraryCards, plural(h.LibraryCards, "card", "cards"), strings.Join(h.Owners, ", "))
	}
	for _, r := range h.Rulesets {
		vs := make([]string, len(r.Versions))
		for i, v := range r.Versions {
			vs[i] = "v" + strconv.Itoa(v)
		}
		fmt.Fprintf(&b, "  ruleset %s — %s, %s\n", r.ID, r.Name, strings.Join(vs, ", "))
	}
	if h.Campaigns > 0 {
		b.WriteString("Play on where you left off (!channel NAME goes to a campaign's channel), or start one over there: its GM types /demo reset.\n")
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
