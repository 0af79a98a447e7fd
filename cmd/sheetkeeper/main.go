// Command sheetkeeper keeps tabletop character sheets honest while a Game Master
// narrates in Discord. See README.md; `sheetkeeper help` lists the commands.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"sheetkeeper/config"
)

// command is one subcommand: what it does in a line, and how it runs. run returns the
// process exit status: 0 done, 1 failed, 2 misused.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// subcommands is the table of subcommands by name; a two-word command (`ruleset check`)
// is keyed with its space. Each runs from its own file.
func subcommands() map[string]command {
	return map[string]command{
		"backup":         {"write a consistent copy of the database to PATH", cmdBackup},
		"console":        {"the bot in a terminal: one local channel, no token, no network", cmdConsole},
		"db":             {"db check|salvage PATH: what is readable in a damaged database; copy it out", cmdDB},
		"panel-worker":   {"(the bot starts it) run game systems' panels under a memory cap", cmdPanelWorker},
		"migrate":        {"copy every record from one store to an empty other (bbolt file ↔ etcd), verified", cmdMigrate},
		"ruleset check":  {"validate rulesets: files, package folders or .zip packages", cmdRulesetCheck},
		"ruleset export": {"ruleset export ID: write an installed ruleset's file (--version N, --out FILE)", cmdRulesetExport},
		"ruleset import": {"ruleset import PATH: install a ruleset into the store, as /ruleset import does", cmdRulesetImport},
		"system check":   {"validate Pack Rat game system files", cmdSystemCheck},
		"system export":  {"system export ID: write a game system's file (--version N, --out FILE)", cmdSystemExport},
		"system import":  {"system import PATH: import a game system into the store, as /system import does", cmdSystemImport},
		"run":            {"run the Discord bot (needs DISCORD_TOKEN)", cmdRun},
		"tags":           {"show the tags the bot would read in a message (stdin)", cmdTags},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	commands := subcommands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, commands)
		return 0
	}
	name := args[0]
	// Two-word commands (`ruleset check`) are registered with their space.
	if len(args) > 1 {
		if c, ok := commands[name+" "+args[1]]; ok {
			return c.run(args[2:], stdin, stdout, stderr)
		}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "sheetkeeper: unknown command %q; `sheetkeeper help` lists them\n", strings.Join(args[:min(2, len(args))], " "))
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer, commands map[string]command) {
	fmt.Fprintln(w, "sheetkeeper keeps tabletop character sheets honest while a Game Master narrates in Discord.")
	fmt.Fprintln(w, "\nusage: sheetkeeper COMMAND [flags]; each command takes --help\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].summary)
	}
}

// loadConfig parses a command's flags and settings. It returns the exit status to use
// when the command must stop (help asked, or a bad setting), else -1.
func loadConfig(name string, use []string, args []string, stderr io.Writer) (*config.Config, []string, int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, rest, err := config.Load(fs, use, args, os.Getenv)
	switch {
	case err == config.ErrHelp:
		return nil, nil, 0
	case err != nil:
		fmt.Fprintf(stderr, "sheetkeeper %s: %v\n", name, err)
		return nil, nil, 2
	}
	return cfg, rest, -1
}
