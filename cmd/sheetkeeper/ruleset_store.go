package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sheetkeeper/bot"
	"sheetkeeper/bot/console"
	"sheetkeeper/storage"
)

// `sheetkeeper ruleset import|export` on the configured store. They run the slash
// commands /ruleset import and /ruleset export through the bot core, so a ruleset
// installed from the command line is stored exactly as one installed in Discord (the
// same record, version rules and notices); the file is checked here first, as `ruleset
// check` checks it, so its mistakes print one per line with their paths. A package whose catalog file has
// mistakes installs, as in Discord (the picker shows them): the answer says so, and
// when it is too long for a chat message the whole list, which the core sends as a
// file, goes to standard error.

func cmdRulesetImport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newStoreCommand("ruleset import", "ruleset import [--guild ID] [--db FILE | --store STORE] PATH\n\nInstalls a ruleset (.json file, package folder or .zip) into the store, as /ruleset import\ndoes: local/<id> at the file's version. Every problem is printed with its JSON path.", false, stderr)
	path, cfg, status := c.parse(args)
	if status >= 0 {
		return status
	}
	l, release, err := loadPath(path)
	if err != nil {
		printProblems(stdout, path, problemsOf(err, ""))
		return 1
	}
	id, version, digest := "local/"+l.ID, l.Version, l.Digest
	release()
	att, err := console.Attach(path)
	if err != nil {
		return c.fail(err)
	}
	var resp bot.Response
	installed := false
	err = withCore(cfg, func(ctx context.Context, store storage.Store, core *bot.Core) error {
		resp = core.OnCommand(ctx, bot.Command{Name: "ruleset import", User: cliUser(), GuildID: *c.guild,
			Options: []bot.Option{{Name: "file", Attachment: att}}})
		// The answer is words for a chat; whether it installed is what the store holds.
		return store.View(ctx, func(tx storage.Tx) error {
			rec, err := tx.Ruleset(storage.RulesetHome(*c.guild, id), id, version)
			installed = err == nil && rec.Digest == digest
			if storage.KindOf(err) == storage.NotFound {
				return nil
			}
			return err
		})
	})
	if err != nil {
		return c.fail(err)
	}
	if !installed {
		return c.fail(fmt.Errorf("%s", resp.Content))
	}
	fmt.Fprintf(stdout, "%s: %s\n", path, strings.ReplaceAll(resp.Content, "**", ""))
	for _, f := range resp.Files {
		stderr.Write(f.Data)
	}
	return 0
}

func cmdRulesetExport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newStoreCommand("ruleset export", "ruleset export [--guild ID] [--version N] [--out FILE] [--db FILE | --store STORE] ID\n\nWrites an installed ruleset as it was imported (a package as a .zip), or a built-in's file.", true, stderr)
	id, cfg, status := c.parse(args)
	if status >= 0 {
		return status
	}
	opts := []bot.Option{{Name: "id", Value: id}}
	if *c.version != 0 {
		opts = append(opts, bot.Option{Name: "version", Value: strconv.Itoa(*c.version)})
	}
	var resp bot.Response
	err := withCore(cfg, func(ctx context.Context, _ storage.Store, core *bot.Core) error {
		resp = core.OnCommand(ctx, bot.Command{Name: "ruleset export", User: cliUser(), GuildID: *c.guild, Options: opts})
		return nil
	})
	if err != nil {
		return c.fail(err)
	}
	if len(resp.Files) != 1 {
		return c.fail(fmt.Errorf("%s", resp.Content))
	}
	where, err := writeExport(resp.Files[0], *c.out, stdout)
	if err != nil {
		return c.fail(err)
	}
	if *c.out != "-" {
		what := strings.TrimSuffix(strings.ReplaceAll(resp.Content, "**", ""), ".")
		fmt.Fprintf(stdout, "%s: %d bytes written to %s\n", what, len(resp.Files[0].Data), where)
	}
	return 0
}
