package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"sheetkeeper/bot/console"
	"sheetkeeper/check"
	"sheetkeeper/config"
	"sheetkeeper/storage"
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
	seed := fs.String("seed", "", "throw reproducible dice from this seed (a whole number), for tests and ruleset authors; without it dice are seeded from crypto/rand")
	cfg, rest, err := config.Load(fs, append([]string{"log-level", "log-format"}, config.StoreSettings...), args, os.Getenv)
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
	dice, err := consoleDice(*seed)
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 2
	}
	log := newLogger(cfg.LogLevel, cfg.LogFormat, stderr)

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

	at := cfg.StoreAt()
	store, err := openStore(cfg, at, nil)
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 1
	}
	// Signals are caught before the socket exists, so no signal can find a socket and no
	// handler (one that arrives meanwhile waits in the channel).
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	// `sheetkeeper backup` asks a running console for a copy, as it asks a running bot.
	stopControl := func() {}
	if at.Backend == config.Bolt {
		if stopControl, err = serveControl(at.Path, store, log); err != nil {
			log.Warn("no backups while the console runs", "err", err)
			stopControl = func() {}
		}
	}
	release := cleanUpOnSignal(sigs, stopControl, store)
	err = runConsole(store, console.Options{Dir: dir, Out: dir, Dice: dice}, in, stdout, log,
		console.RunOptions{JSON: *asJSON, Prompt: prompt}, *script == "" && !*asJSON)
	release()
	stopControl()
	if cerr := store.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("closing %s: %w", at, cerr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper console: %v\n", err)
		return 1
	}
	return 0
}

// consoleDice is the dice --seed asks for: reproducible from a whole number, or (no seed)
// nil, which the core seeds from crypto/rand.
func consoleDice(seed string) (check.Source, error) {
	if seed == "" {
		return nil, nil
	}
	n, err := strconv.ParseUint(seed, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("--seed %q: a seed is a whole number from 0 to %d", seed, uint64(math.MaxUint64))
	}
	return check.Seeded(n), nil
}

// runConsole plays one console session on store; a person at it (banner) first hears what
// the database holds, so a second run goes on from the first, and how to start.
func runConsole(store storage.Store, opts console.Options, in io.Reader, out io.Writer, log *slog.Logger, run console.RunOptions, banner bool) error {
	ctx := context.Background()
	panels := newPanelWorker(log)
	defer closePanelWorker(panels, log)
	opts.Panels = panelRunner(panels)
	con, core, err := console.Start(ctx, store, opts, log)
	if err != nil {
		return err
	}
	defer core.Close()
	if banner {
		if h, err := core.Holdings(ctx, ""); err != nil {
			log.Warn("the database's contents cannot be summarised", "err", err)
		} else {
			fmt.Fprint(out, console.Banner(h))
		}
		fmt.Fprint(out, consoleGuide)
	}
	return con.Run(ctx, in, out, run)
}

// cleanUpOnSignal makes SIGINT and SIGTERM end the console cleanly, which ending its
// input cannot when it waits on a terminal: the control socket is removed and the
// database closed (Close lets an Update under way finish), then the process exits with
// 128 + the signal's number, as a shell reports a process the signal ended. The returned
// release stops listening, for the console's own way out. sigs is already notified of
// both signals.
func cleanUpOnSignal(sigs chan os.Signal, stopControl func(), store storage.Store) (release func()) {
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			stopControl()
			store.Close()
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}
