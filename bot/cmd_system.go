package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/content"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
)

// /system import, list and export (SPEC 7, 8.1): Pack Rat game systems for campaigns'
// inventories. Importing is the server's (Manage Server), as installing a ruleset is;
// listing and exporting are anyone's.

// systemCommands adds the /system commands.
func systemCommands(r *router) {
	r.command(CommandSpec{
		Name:        "system import",
		Description: "Import a Pack Rat game system (.json) for campaigns' inventories",
		Options: []OptionSpec{
			{Name: "file", Description: "The system file (.json)", Type: "attachment", Required: true},
		},
	}, (*Core).cmdSystemImport)
	r.command(CommandSpec{
		Name:        "system list",
		Description: "List the game systems a campaign can use for inventories, with their versions",
	}, (*Core).cmdSystemList)
	r.command(CommandSpec{
		Name:        "system export",
		Description: "Download a game system's file (a built-in's to start your own from)",
		Options: []OptionSpec{
			{Name: "id", Description: "System id (dnd5e-srd, or one imported here)", Type: "string", Required: true},
			{Name: "version", Description: "Version to export (default: the newest)", Type: "integer"},
		},
	}, (*Core).cmdSystemExport).
		complete("id", (*Core).systemChoices)
}

// mayImportSystem refuses, before the upload is read, a user who may not change what
// the server has: as for rulesets, Manage Server in a server, and nobody in a direct
// message (no server to import into).
func mayImportSystem(cmd Command) error {
	switch {
	case cmd.User.CanManageGuild:
		return nil
	case cmd.GuildID == "":
		return refusal.New(refusal.NotAllowed, "systems are imported in a server, not in a direct message")
	}
	return refusal.New(refusal.NotAllowed, "importing a system in this server needs the Manage Server permission")
}

func (c *Core) cmdSystemImport(ctx context.Context, cmd Command) (Response, error) {
	if err := mayImportSystem(cmd); err != nil {
		return Response{}, err
	}
	att := cmd.File("file")
	if att.Folder != nil {
		return Response{}, refusal.New(refusal.NotAllowed, "a system is one .json file, not a folder")
	}
	imp, err := c.ImportSystem(ctx, cmd.GuildID, cmd.User.ID, att.Data)
	var ps strictjson.Problems
	if errors.As(err, &ps) {
		return problemsResponse("That system cannot be imported:", ps), nil
	}
	if err != nil {
		return Response{}, err
	}
	rec := imp.Record
	if imp.Same {
		return Response{Content: fmt.Sprintf("%s v%d (%s) is imported already, with this same content.", rec.ID, rec.Version, rec.Name), Ephemeral: true}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Imported **%s** as %s v%d: %s.", rec.Name, rec.ID, rec.Version, systemSummary(imp.System))
	if rec.Version > 1 {
		fmt.Fprintf(&b, "\nCampaigns on earlier versions keep theirs.")
	}
	fmt.Fprintf(&b, "\nGive a campaign its inventory with `/campaign create … system:%s`.", rec.ID)
	return Response{Content: b.String()}, nil
}

func (c *Core) cmdSystemList(ctx context.Context, cmd Command) (Response, error) {
	builtins, err := c.builtinSystems()
	if err != nil {
		return Response{}, err
	}
	var lines []string
	for _, b := range builtins {
		lines = append(lines, fmt.Sprintf("`%s` — %s, v%d (built-in)", b.ID, b.Name, BuiltinSystemVersion))
	}
	err = c.store.View(ctx, func(tx storage.Tx) error {
		lines = lines[:len(builtins)]
		imported, err := importedSystems(tx, cmd.GuildID)
		for _, s := range imported {
			lines = append(lines, fmt.Sprintf("`%s` — %s, %s", s.id, s.newest.Name, versionList(s.versions)))
		}
		return err
	})
	if err != nil {
		return Response{}, err
	}
	return Response{Content: "**Game systems**\n" + strings.Join(lines, "\n") +
		"\nGive a campaign its inventory with `/campaign create … system:<id>`; add one with `/system import`.", Ephemeral: true}, nil
}

func (c *Core) cmdSystemExport(ctx context.Context, cmd Command) (Response, error) {
	version := 0
	if v := strings.TrimSpace(cmd.Get("version")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Response{}, refusal.New(refusal.BadAmount, "version must be a whole number from 1")
		}
		version = n
	}
	f, rec, err := c.SystemFile(ctx, cmd.GuildID, cmd.Get("id"), version)
	if err != nil {
		return Response{}, err
	}
	how := "as it was imported"
	if content.IsSystem(rec.ID) {
		how = "built-in: import a copy under an id of your own to change it"
	}
	return Response{Content: fmt.Sprintf("%s v%d (%s), %s.", rec.ID, rec.Version, rec.Name, how), Ephemeral: true,
		Files: []File{f}}, nil
}

// systemChoices offers the built-in systems and the ones imported in the guild.
func (c *Core) systemChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	builtins, err := c.builtinSystems()
	if err != nil {
		return nil, err
	}
	var out []Choice
	for _, b := range builtins {
		out = append(out, choiceOf(b.Name+" ("+b.ID+", built-in)", b.ID))
	}
	imported, err := importedSystems(tx, q.a.GuildID)
	if err != nil {
		return nil, err
	}
	for _, s := range imported {
		name := s.id
		if s.newest.Name != "" {
			name = s.newest.Name + " (" + s.id + ")"
		}
		out = append(out, choiceOf(name+" v"+strconv.Itoa(s.newest.Version), s.id))
	}
	return ranked(q.typed, out), nil
}
