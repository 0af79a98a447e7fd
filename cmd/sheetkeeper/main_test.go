package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// runWant runs the command line, wants exit status want, and returns what it printed
// (standard output, then standard error).
func runWant(t *testing.T, want int, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, "", args...)
	if code != want {
		t.Fatalf("%q: exit %d, want %d\n%s%s", args, code, want, out, errOut)
	}
	return out + errOut
}

func TestRunWithoutTokenExits2WithOneLine(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	t.Setenv("SHEETKEEPER_DISCORD_TOKEN", "")
	t.Setenv("SHEETKEEPER_CONFIG", "")
	code, _, stderr := runCLI(t, "", "run")
	if code != 2 {
		t.Fatalf("exit %d", code)
	}
	if stderr != noTokenMessage+"\n" || !strings.Contains(stderr, "DISCORD_TOKEN") || !strings.Contains(stderr, "sheetkeeper console") {
		t.Fatalf("stderr %q", stderr)
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, stderr := runCLI(t, "", "frobnicate")
	if code != 2 || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	code, out, _ := runCLI(t, "", "help")
	if code != 0 || !strings.Contains(out, "run") {
		t.Fatalf("help: %d %q", code, out)
	}
}
