package main

import (
	"strings"
	"testing"
)

// TestConsoleBanner: a second interactive run first says what the database holds — its
// campaigns with their characters, library cards, imported rulesets — and how to go on
// or start over, then the guide; the first run, on an empty database, has no banner
// (TestConsoleNoArguments), and --json and --script runs never print one.
func TestConsoleBanner(t *testing.T) {
	consoleEnv(t)
	if code, _, stderr := runCLI(t, "gm: /demo\n!channel hut\ngm: /ruleset import file:../../bot/console/testdata/rulesets/saltmarsh-v1.json\ngm: /campaign create ruleset:saltmarsh\n", "console"); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI(t, "", "console")
	if code != 0 {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	banner, guide, ok := strings.Cut(out, "1. Type")
	want := "This database already holds:\n" +
		"  #hut — Saltmarsh Wardens (local/saltmarsh v1): no characters yet\n" +
		"  #table — Low Vell: Lamplighters of the Drowned City (low-vell v1): Bram, Mira\n" +
		"  2 library cards, of gm\n" +
		"  ruleset local/saltmarsh — Saltmarsh Wardens, v1\n" +
		"Play on where you left off (!channel NAME goes to a campaign's channel), or start one over there: its GM types /demo reset.\n"
	if !ok || banner != want || !strings.Contains(guide, "gm: /demo") {
		t.Fatalf("second run:\n%s\nwant the banner\n%s", out, want)
	}
	if _, out, _ := runCLI(t, "", "console", "--json"); strings.Contains(out, "already holds") {
		t.Errorf("--json printed the banner:\n%s", out)
	}
}
