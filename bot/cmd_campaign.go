package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sheetkeeper/content"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /campaign create, /campaign gm add|remove, /campaign show (SPEC 8.1). /campaign upgrade
// lives with the refresh commands.

// campaignCommands adds the /campaign commands but upgrade.
func campaignCommands(r *router) {
	r.command(CommandSpec{
		Name:        "campaign create",
		Description: "Start a game in this channel on a ruleset; you become its GM",
		Options: []OptionSpec{
			{Name: "ruleset", Description: "Ruleset id: a built-in (low-vell, dnd5e-srd) or one imported with /ruleset import", Type: "string", Required: true},
			{Name: "layers", Description: "Optional layers of the ruleset to switch on, by id, separated by commas", Type: "string"},
			{Name: "system", Description: "Optional game system for inventories: built-in (dnd5e-srd, saltmarch) or from /system import", Type: "string"},
			{Name: "tz", Description: "The game's time zone for scheduled rests, e.g. Europe/Berlin (default UTC)", Type: "string"},
		},
	}, (*Core).cmdCampaignCreate).
		complete("ruleset", (*Core).rulesetChoices).
		complete("layers", (*Core).layerChoices)
	gmOptions := []OptionSpec{
		{Name: "user", Description: "A person (or a bot account) whose messages are applied", Type: "user"},
		{Name: "role", Description: "Instead of a person: a role id; everyone holding it is a GM", Type: "string"},
		{Name: "webhook", Description: "Instead of a person: a webhook id an AI GM posts through", Type: "string"},
	}
	r.command(CommandSpec{
		Name:        "campaign gm add",
		Description: "Add a GM to this channel's campaign: a person, a role or a webhook",
		Options:     gmOptions,
		GMOnly:      true,
	}, (*Core).cmdCampaignGMAdd)
	r.command(CommandSpec{
		Name:        "campaign gm remove",
		Description: "Remove a GM from this channel's campaign (the last one stays)",
		Options:     gmOptions,
		GMOnly:      true,
	}, (*Core).cmdCampaignGMRemove)
	r.command(CommandSpec{
		Name:        "campaign show",
		Description: "Show this channel's campaign: ruleset and version, layers, GMs and characters",
	}, (*Core).cmdCampaignShow)
	campaignSetCommand(r)
}

func (c *Core) cmdCampaignCreate(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, l, err := c.createCampaign(tx, cmd, cmd.Get("ruleset"), cmd.Get("layers"))
		if err != nil {
			return err
		}
		resp = Response{Content: fmt.Sprintf(
			"This channel now plays **%s** (%s v%d)%s%s. %s is its GM.\n"+
				"Players: `/character create name:<name>` makes your character, `/character join name:<name>` brings it into this game, `/sheet` shows it.",
			l.Name, camp.Ruleset.ID, camp.Ruleset.Version, layersNote(l, camp.Layers), c.systemNote(tx, camp, l), mention(cmd.User.ID))}
		return nil
	})
	return resp, err
}

// createCampaign binds cmd's channel to the newest installed version of the ruleset
// rulesetID names, with layers (ids separated by commas or spaces) on; the invoker
// becomes its GM. A built-in's bytes are stored with the campaign's version, so the
// campaign keeps its exact ruleset when a later binary ships a newer built-in.
func (c *Core) createCampaign(tx storage.Tx, cmd Command, rulesetID, layers string) (*storage.Campaign, *ruleset.Loaded, error) {
	if _, err := tx.Campaign(cmd.ChannelID); err == nil {
		return nil, nil, refusal.New(refusal.NotAllowed, "this channel already has a campaign (see /campaign show)")
	} else if storage.KindOf(err) != storage.NotFound {
		return nil, nil, err
	}
	ref, err := c.newestRuleset(tx, cmd.GuildID, rulesetID)
	if err != nil {
		return nil, nil, err
	}
	l, err := c.rules(tx, cmd.GuildID, ref)
	if err != nil {
		return nil, nil, err
	}
	ids, err := pickLayers(l.Ruleset, layers)
	if err != nil {
		return nil, nil, err
	}
	zone := strings.TrimSpace(cmd.Get("tz"))
	if zone != "" {
		if _, err := schedule.LoadZone(zone); err != nil {
			return nil, nil, refusal.New(refusal.NotAllowed, "%v", err)
		}
	}
	// A campaign stays on the version of its system it started with (SPEC 7).
	system, sysVersion := strings.TrimSpace(cmd.Get("system")), 0
	if system != "" {
		if _, err := c.namedSystem(tx, cmd.GuildID, system, 0); err != nil {
			return nil, nil, err
		}
		if sysVersion, err = systemVersion(tx, cmd.GuildID, system); err != nil {
			return nil, nil, err
		}
	}
	if err := keepBuiltin(tx, ref, cmd.User.ID, c.Now()); err != nil {
		return nil, nil, err
	}
	camp := &storage.Campaign{
		System:        system,
		SystemVersion: sysVersion,
		ChannelID:     cmd.ChannelID,
		GuildID:       cmd.GuildID,
		Ruleset:       ref,
		Layers:        ids,
		GMs:           []storage.GM{{Kind: "user", ID: cmd.User.ID}},
		CreatedBy:     cmd.User.ID,
		CreatedAt:     c.Now(),
		TimeZone:      zone,
	}
	if err := tx.PutCampaign(camp); err != nil {
		return nil, nil, err
	}
	return camp, l, nil
}

// newestRuleset finds the ruleset a user in guild names and its newest installed
// version. "x" is the built-in x when there is one, else the guild's imported local/x;
// "local/x" is always the imported one, of this guild only (storage.RulesetHome).
// Versions of a built-in kept in the store count too.
func (c *Core) newestRuleset(tx storage.Tx, guild, name string) (sheet.RulesetRef, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return sheet.RulesetRef{}, refusal.New(refusal.NotAllowed, "say which ruleset (ruleset:<id>; /ruleset list shows them)")
	}
	id := name
	newest := 0
	if !storage.Imported(name) {
		b, ok, err := content.Lookup(name)
		if err != nil {
			return sheet.RulesetRef{}, err
		}
		if ok {
			if newest, err = builtinVersion(b); err != nil {
				return sheet.RulesetRef{}, err
			}
		} else {
			id = "local/" + name
		}
	}
	vs, err := installedVersions(tx, guild, id)
	if err != nil {
		return sheet.RulesetRef{}, err
	}
	for _, v := range vs {
		newest = max(newest, v)
	}
	if newest == 0 {
		return sheet.RulesetRef{}, refusal.New(refusal.NotAllowed, "no ruleset %q is installed (/ruleset list shows them; /ruleset import adds one)", name)
	}
	return sheet.RulesetRef{ID: id, Version: newest}, nil
}

// keepBuiltin stores a built-in ruleset's bytes at ref's version when ref is the
// built-in's own version and the store does not hold it yet, in the shared namespace:
// every guild's campaigns pinned to that version read the same bytes.
func keepBuiltin(tx storage.Tx, ref sheet.RulesetRef, by string, now time.Time) error {
	if storage.Imported(ref.ID) {
		return nil
	}
	if _, err := tx.Ruleset("", ref.ID, ref.Version); err == nil {
		return nil
	} else if storage.KindOf(err) != storage.NotFound {
		return err
	}
	b, ok, err := content.Lookup(ref.ID)
	if err != nil || !ok {
		return err
	}
	rec, l, err := builtinRecord(b)
	if err != nil {
		return err
	}
	if l.Version != ref.Version {
		return nil
	}
	rec.InstalledBy, rec.InstalledAt = by, now
	return tx.PutRuleset(rec)
}

// pickLayers reads a layers option (ids or labels, separated by commas)
// against the ruleset's layers: each must exist, none twice, no two in conflict.
func pickLayers(rs *ruleset.Ruleset, option string) ([]string, error) {
	var ids []string
	for _, w := range strings.FieldsFunc(option, func(r rune) bool { return r == ',' || r == ';' }) {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		var found *ruleset.Layer
		for i := range rs.Layers {
			if ruleset.FoldName(rs.Layers[i].ID) == ruleset.FoldName(w) || ruleset.FoldName(rs.Layers[i].Label) == ruleset.FoldName(w) {
				found = &rs.Layers[i]
			}
		}
		if found == nil {
			return nil, refusal.New(refusal.NotAllowed, "%s has no layer %q%s", rs.Name, w, layerChoices(rs))
		}
		if !slices.Contains(ids, found.ID) {
			ids = append(ids, found.ID)
		}
	}
	for _, id := range ids {
		l := layerOf(rs, id)
		for _, other := range l.Conflicts {
			if slices.Contains(ids, other) {
				return nil, refusal.New(refusal.NotAllowed, "layers %s and %s cannot be on together", l.ID, other)
			}
		}
	}
	return ids, nil
}

func layerChoices(rs *ruleset.Ruleset) string {
	if len(rs.Layers) == 0 {
		return " (it has none)"
	}
	ids := make([]string, len(rs.Layers))
	for i := range rs.Layers {
		ids[i] = rs.Layers[i].ID
	}
	return " (it has " + strings.Join(ids, ", ") + ")"
}

func layerOf(rs *ruleset.Ruleset, id string) *ruleset.Layer {
	for i := range rs.Layers {
		if rs.Layers[i].ID == id {
			return &rs.Layers[i]
		}
	}
	return nil
}

// layersNote names the layers switched on, for a sentence: " with Harbour Law".
func layersNote(l *ruleset.Loaded, ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	labels := make([]string, len(ids))
	for i, id := range ids {
		labels[i] = id
		if ly := layerOf(l.Ruleset, id); ly != nil {
			labels[i] = ly.Label
		}
	}
	return " with " + strings.Join(labels, ", ")
}

// mention is how a message names a user: Discord renders <@id> as the user's name.
func mention(id string) string { return "<@" + id + ">" }

// gmNamed reads the one GM a gm add|remove command names.
func gmNamed(cmd Command) (storage.GM, error) {
	var named []storage.GM
	for _, kind := range []string{"user", "role", "webhook"} {
		if v := strings.TrimSpace(cmd.Get(kind)); v != "" {
			named = append(named, storage.GM{Kind: kind, ID: strings.Trim(v, "<@&!>")})
		}
	}
	if len(named) != 1 {
		return storage.GM{}, refusal.New(refusal.NotAllowed, "name exactly one of user:, role: or webhook:")
	}
	return named[0], nil
}

func describeGM(g storage.GM) string {
	switch g.Kind {
	case "role":
		return "role <@&" + g.ID + ">"
	case "webhook":
		return "webhook " + g.ID
	}
	return mention(g.ID)
}

func (c *Core) cmdCampaignGMAdd(ctx context.Context, cmd Command) (Response, error) {
	return c.editGMs(ctx, cmd, func(gms []storage.GM, gm storage.GM, i int) ([]storage.GM, string, error) {
		if i >= 0 {
			return nil, " is a GM here already.", nil
		}
		return append(gms, gm), " is now a GM of this campaign: their sheet tags are applied.", nil
	})
}

func (c *Core) cmdCampaignGMRemove(ctx context.Context, cmd Command) (Response, error) {
	return c.editGMs(ctx, cmd, func(gms []storage.GM, gm storage.GM, i int) ([]storage.GM, string, error) {
		if i < 0 {
			return nil, " is not a GM here.", nil
		}
		if len(gms) == 1 {
			return nil, "", refusal.New(refusal.NotAllowed, "a campaign keeps at least one GM: add another before removing the last")
		}
		return slices.Delete(gms, i, i+1), " is no longer a GM of this campaign.", nil
	})
}

// editGMs changes the GMs of this channel's campaign for /campaign gm add and remove.
// edit is given them, the GM the command names and where it stands among them (-1 if
// nowhere), and returns the new GMs and what the answer says after the GM; no new GMs
// stores nothing and answers only the one who asked.
func (c *Core) editGMs(ctx context.Context, cmd Command, edit func(gms []storage.GM, gm storage.GM, i int) ([]storage.GM, string, error)) (Response, error) {
	gm, err := gmNamed(cmd)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		gms, says, err := edit(camp.GMs, gm, slices.IndexFunc(camp.GMs, func(g storage.GM) bool { return g.ID == gm.ID }))
		if err != nil {
			return err
		}
		if gms == nil {
			resp = Response{Content: upper(describeGM(gm)) + says, Ephemeral: true}
			return nil
		}
		camp.GMs = gms
		if err := tx.PutCampaign(camp); err != nil {
			return err
		}
		resp = Response{Content: upper(describeGM(gm)) + says}
		return nil
	})
	return resp, err
}

func (c *Core) cmdCampaignShow(ctx context.Context, cmd Command) (Response, error) {
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
		var b strings.Builder
		fmt.Fprintf(&b, "**Campaign in this channel**\nRuleset: %s (%s v%d)", l.Name, camp.Ruleset.ID, camp.Ruleset.Version)
		if newest, err := c.newestRuleset(tx, camp.GuildID, camp.Ruleset.ID); err == nil && newest.Version > camp.Ruleset.Version {
			fmt.Fprintf(&b, "; v%d is installed (a GM moves to it with /campaign upgrade)", newest.Version)
		}
		b.WriteString("\n")
		if len(camp.Layers) > 0 {
			b.WriteString("Layers:" + strings.TrimPrefix(layersNote(l, camp.Layers), " with") + "\n")
		}
		if camp.TimeZone != "" {
			b.WriteString("Time zone: " + camp.TimeZone + "\n")
		}
		b.WriteString("Inventory: " + c.inventoryWords(tx, camp, l) + "\n")
		gms := make([]string, len(camp.GMs))
		for i, g := range camp.GMs {
			gms[i] = describeGM(g)
		}
		b.WriteString("GMs: " + strings.Join(gms, ", ") + "\n")
		records, err := tx.GameCards(cmd.ChannelID)
		if err != nil {
			return err
		}
		if len(records) == 0 {
			b.WriteString("Characters: none yet (`/character join name:<name>`)")
		} else {
			names := make([]string, 0, len(records))
			for _, r := range records {
				if r.Card != nil {
					names = append(names, r.Card.Name+" ("+mention(r.OwnerID)+")")
				}
			}
			b.WriteString("Characters: " + strings.Join(names, ", "))
		}
		resp = Response{Content: b.String()}
		return nil
	})
	return resp, err
}

// upper capitalises the first letter of s.
func upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
