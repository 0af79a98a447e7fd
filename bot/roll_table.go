package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// /roll table: (SPEC 8.1): a roll on one of the campaign system's roll tables (a magic
// item's variants, a trove), thrown by the core's one dice source (check.Source, seeded
// in tests and the console), the result naming the catalog item its entry names. It
// changes nothing, so it is answered to the channel and not recorded.

// tableOption is /roll's table: option, beside dice:.
var tableOption = OptionSpec{Name: "table", Description: "Roll on one of the game system's roll tables instead", Type: "string"}

// rollTable answers /roll table:.
func (c *Core) rollTable(ctx context.Context, cmd Command) (Response, error) {
	if strings.TrimSpace(cmd.Get("dice")) != "" {
		return Response{}, refusal.New(refusal.Malformed, "roll dice: or table:, not both")
	}
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
		if err != nil {
			return err
		}
		p, err := c.playedSystem(tx, camp, l)
		if err != nil {
			return err
		}
		if p == nil || len(p.camp.System.Tables) == 0 {
			return refusal.New(refusal.NotEnabled, "this campaign's game system has no roll tables")
		}
		sys := p.camp.System
		id, err := tableID(sys, strings.TrimSpace(cmd.Get("table")))
		if err != nil {
			return err
		}
		r, err := sys.RollOn(id, c.dice.Roll)
		if err != nil {
			return err
		}
		faces := make([]string, len(r.Faces))
		for i, f := range r.Faces {
			faces[i] = strconv.Itoa(f)
		}
		got := "no entry of the table has that roll"
		if r.Item != nil {
			got = "**" + p.camp.Now(&inventory.Entry{Item: r.Item}).Name + "**"
		}
		resp = Response{Content: fmt.Sprintf("%s rolls on %s: %d (%s) → %s", cmd.User.Name, r.Table.Name, r.Total, strings.Join(faces, ", "), got)}
		return nil
	})
	return resp, err
}

// tableID finds a table of sys by id or name (in any case, else the one name starting
// with it).
func tableID(sys *inventory.System, name string) (string, error) {
	var prefix []string
	for _, t := range sys.Tables {
		if strings.EqualFold(t.ID, name) || strings.EqualFold(t.Name, name) {
			return t.ID, nil
		}
		if strings.HasPrefix(strings.ToLower(t.Name), strings.ToLower(name)) {
			prefix = append(prefix, t.ID)
		}
	}
	if len(prefix) == 1 {
		return prefix[0], nil
	}
	if len(prefix) > 1 {
		return "", refusal.New(refusal.AmbiguousEntry, "%d tables start with %q: say which", len(prefix), name)
	}
	return "", refusal.New(refusal.UnknownEntry, "the game system has no table %q", name)
}

// tableChoices offers the campaign system's roll tables.
func (c *Core) tableChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	p, err := c.quickSystem(tx, q)
	if err != nil || p == nil {
		return nil, nil
	}
	var out []Choice
	for _, t := range p.camp.System.Tables {
		if strings.Contains(strings.ToLower(t.Name), strings.ToLower(q.typed)) && len(out) < maxItemChoices {
			out = append(out, Choice{Name: t.Name, Value: t.ID})
		}
	}
	return out, nil
}
