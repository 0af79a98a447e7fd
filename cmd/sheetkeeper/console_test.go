package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// consoleEnv isolates a test from the caller's settings and returns a database path.
func consoleEnv(t *testing.T) string {
	t.Helper()
	t.Setenv("SHEETKEEPER_CONFIG", "")
	t.Setenv("SHEETKEEPER_LOG_LEVEL", "")
	db := filepath.Join(t.TempDir(), "data", "sheetkeeper.db")
	t.Setenv("SHEETKEEPER_DB", db)
	return db
}

// TestConsoleNoArguments: with no arguments the console prints its three-line guide,
// reads standard input, and keeps its database where SHEETKEEPER_DB says.
func TestConsoleNoArguments(t *testing.T) {
	db := consoleEnv(t)
	code, out, stderr := runCLI(t, "gm: /demo\n"+
		`gm: The canal water bites. [sheet: who="Mira" op="damage" pool="breath" amount="3"]`+"\n", "console")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	guide, rest, _ := strings.Cut(out, "\n1> gm: /demo\n")
	if strings.Count(guide, "\n") != 2 || !strings.Contains(guide, "gm: /demo") || !strings.Contains(guide, "[sheet:") || !strings.Contains(guide, "/sheet name:Mira") {
		t.Fatalf("guide:\n%s", guide)
	}
	if !strings.Contains(rest, `[sheet: who="Mira" op="damage" pool="breath" amount="3" result="ok" now="7/10"]`) {
		t.Fatalf("the guide's tag was not applied:\n%s", rest)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("database: %v", err)
	}

	// A second session on the same database continues the game: its message ids are
	// new, so its first message is applied, not taken for message 2 delivered again.
	code, out, stderr = runCLI(t, `gm: More water. [sheet: who="Mira" op="damage" pool="breath" amount="1"]`+"\n", "console", "--json")
	if code != 0 || strings.Contains(out, "1. Type") {
		t.Fatalf("exit %d: %s\n%s", code, out, stderr)
	}
	var ev struct {
		N    int
		Tags []struct{ Result, Now string }
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil || ev.N != 1 || len(ev.Tags) != 1 || ev.Tags[0].Now != "6/10" {
		t.Fatalf("second session: %v %s", err, out)
	}
}

// TestConsoleScript: --script reads a file (attachments relative to it), --json prints
// one line per event, --db beats the environment.
func TestConsoleScript(t *testing.T) {
	consoleEnv(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "play.script")
	if err := os.WriteFile(script, []byte("# a comment\n\ngm: /ruleset check file:rules.json\n!clock 2026-12-01T06:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.json"), []byte(`{"schemaVersion": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "mine.db")
	code, out, stderr := runCLI(t, "", "console", "--db", db, "--script", script, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"n":1,"kind":"command","author":"gm","tags":[],"posts":[{"kind":"response"`) ||
		lines[1] != `{"n":2,"kind":"clock","author":"","tags":[],"posts":[],"error":""}` {
		t.Fatalf("output:\n%s", out)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("--db: %v", err)
	}
}

func TestConsoleMisuse(t *testing.T) {
	consoleEnv(t)
	if code, _, stderr := runCLI(t, "", "console", "play.script"); code != 2 || !strings.Contains(stderr, "--script FILE") {
		t.Fatalf("a bare argument: %d %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "console", "--script", filepath.Join(t.TempDir(), "missing.script")); code != 1 || !strings.Contains(stderr, "missing.script") {
		t.Fatalf("a missing script: %d %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "", "console", "--help")
	if code != 0 || !strings.Contains(stderr, "-script") || !strings.Contains(stderr, "-json") || !strings.Contains(stderr, "SHEETKEEPER_DB") {
		t.Fatalf("--help: %d %s", code, stderr)
	}
}

// TestConsoleSeed: --seed N makes every roll reproducible — two sessions on fresh
// databases throw the same faces — and a seed that is not a whole number is refused.
func TestConsoleSeed(t *testing.T) {
	script := "gm: /demo\n" + `gm: Mira listens. [skill_check: who="Mira" skill="Sneak" dc="7"] [dice: 3d6]` + "\n"
	play := func(seed string) string {
		db := consoleEnv(t)
		code, out, stderr := runCLI(t, script, "console", "--json", "--db", db, "--seed", seed)
		if code != 0 {
			t.Fatalf("--seed %s: exit %d: %s", seed, code, stderr)
		}
		return out
	}
	first, again := play("42"), play("42")
	if first != again || !strings.Contains(first, `rolls=\"`) || !strings.Contains(first, "[dice: 3d6 = ") {
		t.Fatalf("--seed 42 twice:\n%s\n%s", first, again)
	}
	consoleEnv(t)
	if code, _, stderr := runCLI(t, "", "console", "--seed", "lucky"); code != 2 || !strings.Contains(stderr, "--seed") {
		t.Fatalf("--seed lucky: %d %s", code, stderr)
	}
}
