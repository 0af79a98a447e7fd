package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"sheetkeeper/bot"
	"sheetkeeper/config"
	"sheetkeeper/storage"
)

// The subcommands that import into and export from the configured store (`ruleset
// import|export`, `system import|export`) share this: their flags, opening the store, a
// bot core over it (the same code as the slash commands, so the command line and Discord
// install alike), and writing an exported file.

// cliUser is who the command line installs as: its operator, who may change what any
// server has, as the console's user may.
func cliUser() bot.User { return bot.User{ID: "cli", Name: "sheetkeeper", CanManageGuild: true} }

// storeCommand is one store subcommand's flags and settings.
type storeCommand struct {
	name    string // "ruleset import", for messages
	fs      *flag.FlagSet
	guild   *string
	version *int // export's --version, nil for import
	out     *string
	stderr  io.Writer
}

// newStoreCommand makes the flags of a store subcommand; export adds --version and --out.
func newStoreCommand(name, usage string, export bool, stderr io.Writer) *storeCommand {
	c := &storeCommand{name: name, fs: flag.NewFlagSet(name, flag.ContinueOnError), stderr: stderr}
	c.fs.SetOutput(stderr)
	c.guild = c.fs.String("guild", "", "the Discord server (guild id) whose imports to use; empty: the console's, which has no server")
	if export {
		c.version = c.fs.Int("version", 0, "the version to export (0: the newest)")
		c.out = c.fs.String("out", "", "the file to write (default: the file's own name in the working directory; - for standard output)")
	}
	c.fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sheetkeeper "+usage)
		c.fs.PrintDefaults()
	}
	return c
}

// parse reads the flags and settings; it returns the one argument, the store's settings
// and -1, or the exit status to stop with.
func (c *storeCommand) parse(args []string) (string, *config.Config, int) {
	cfg, rest, err := config.Load(c.fs, append([]string{"log-level"}, config.StoreSettings...), flagsFirst(args), os.Getenv)
	switch {
	case err == config.ErrHelp:
		return "", nil, 0
	case err != nil:
		fmt.Fprintf(c.stderr, "sheetkeeper %s: %v\n", c.name, err)
		return "", nil, 2
	case len(rest) != 1:
		c.fs.Usage()
		return "", nil, 2
	case c.version != nil && *c.version < 0:
		fmt.Fprintf(c.stderr, "sheetkeeper %s: --version %d: versions are whole numbers from 1 (0: the newest)\n", c.name, *c.version)
		return "", nil, 2
	}
	return rest[0], cfg, -1
}

// fail reports err and returns the failure status.
func (c *storeCommand) fail(err error) int {
	fmt.Fprintf(c.stderr, "sheetkeeper %s: %v\n", c.name, err)
	return 1
}

// withCore opens the configured store and runs fn with a bot core over it.
func withCore(cfg *config.Config, fn func(ctx context.Context, store storage.Store, core *bot.Core) error) error {
	store, err := openStore(cfg, cfg.StoreAt(), nil)
	if err != nil {
		return err
	}
	core := bot.New(store, bot.Options{})
	err = fn(context.Background(), store, core)
	core.Close()
	if cerr := store.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return err
}

// writeExport writes an exported file: to out, to standard output for "-", or by its own
// name in the working directory. It never writes over a file holding other bytes: an
// export must not destroy a copy someone edited.
func writeExport(f bot.File, out string, stdout io.Writer) (string, error) {
	if out == "-" {
		_, err := stdout.Write(f.Data)
		return "standard output", err
	}
	if out == "" {
		out = filepath.Base(f.Name)
	}
	w, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if old, rerr := os.ReadFile(out); rerr == nil && bytes.Equal(old, f.Data) {
			return out, nil
		}
		return "", fmt.Errorf("%s exists with other content: give --out another file", out)
	}
	if err != nil {
		return "", err
	}
	if _, err := w.Write(f.Data); err != nil {
		w.Close()
		os.Remove(out)
		return "", err
	}
	if err := w.Close(); err != nil {
		os.Remove(out)
		return "", err
	}
	return out, nil
}
