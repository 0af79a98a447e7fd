package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"sheetkeeper/bot/console"
	"sheetkeeper/config"
	"sheetkeeper/storage/bolt"
)

// consoleGuide is what `sheetkeeper console` prints first when a person types at it:
// the three lines that get a newcomer from nothing to a tag applied.
const consoleGuide = `1. Type  gm: /demo  — a game in this channel with two ready characters, Mira and Bram; you (gm) are its GM.
2. Then a GM line with a tag:  gm: The canal water bites. [sheet: who="Mira" op="damage" pool="breath" amount="3"]
3. Then  gm: /sheet name:Mira  shows her card. Each line is "name: text" (a user and what they post); !help lists the rest.
`

// cmdConsole is `sheetkeeper console`: the bot core over a local database, fed by a
// script or by standard input (SPEC 8.2).
func cmdConsole(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	script := fs.String("script", "", "read events from this file instead of standard input (attachment paths are relative to its folder)")
	asJSON := fs.Bool("json", false, `print each event as one JSON line: {"n","kind","author","tags","posts","error"}`)
	cfg, rest, err := config.Load(fs, []string{"db", "log-level"}, args, os.Getenv)
	switch {
	case err == config.ErrHelp:
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 2
	case len(rest) > 0:
		fmt.Fprintf(stderr, "sheetkeeper console: unexpected %q; a script is given with --script FILE\n", rest[0])
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	in, dir, prompt := stdin, ".", false
	if *script != "" {
		f, err := os.Open(*script)
		if err != nil {
			fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
			return 1
		}
		defer f.Close()
		in, dir = f, filepath.Dir(*script)
	} else if f, ok := stdin.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			prompt = true
		}
	}

	store, err := bolt.Open(cfg.DB, bolt.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 1
	}
	ctx := context.Background()
	// `sheetkeeper backup` asks a running console for a copy, as it asks a running bot.
	stopControl, err := serveControl(cfg.DB, store, log)
	if err != nil {
		log.Warn("no backups while the console runs", "err", err)
		stopControl = func() {}
	}
	con, core, err := console.Start(ctx, store, console.Options{Dir: dir}, log)
	if err == nil {
		if *script == "" && !*asJSON {
			fmt.Fprint(stdout, consoleGuide)
		}
		err = con.Run(ctx, in, stdout, console.RunOptions{JSON: *asJSON, Prompt: prompt})
		core.Close()
	}
	stopControl()
	if cerr := store.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing %s: %w", cfg.DB, cerr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 1
	}
	return 0
}
