package main

import (
	"fmt"
	"io"
)

func init() {
	commands["run"] = command{"run the Discord bot (needs DISCORD_TOKEN)", cmdRun}
}

// noTokenMessage is the one line `run` prints without a token: how to set one, and
// what runs without one.
const noTokenMessage = "sheetkeeper run: no Discord token: set DISCORD_TOKEN (or SHEETKEEPER_DISCORD_TOKEN, or discord-token in a --config file); `sheetkeeper console` runs without one"

func cmdRun(args []string, _ io.Reader, _, stderr io.Writer) int {
	cfg, _, status := loadConfig("run", []string{"db", "discord-token", "discord-api", "discord-guild", "log-level"}, args, stderr)
	if status >= 0 {
		return status
	}
	if cfg.DiscordToken == "" {
		fmt.Fprintln(stderr, noTokenMessage)
		return 2
	}
	fmt.Fprintln(stderr, "sheetkeeper run: the Discord front end is not in this build yet; `sheetkeeper ruleset check` works today")
	return 1
}
