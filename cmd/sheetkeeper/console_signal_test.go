package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"sheetkeeper/storage/bolt"
)

const envConsoleChild = "SHEETKEEPER_CONSOLE_CHILD_DB"

// TestConsoleSignalChild is not a test of its own: it is the console process of
// TestConsoleSignalRemovesSocket, and skips unless started by it.
func TestConsoleSignalChild(t *testing.T) {
	db := os.Getenv(envConsoleChild)
	if db == "" {
		t.Skip("the child process of TestConsoleSignalRemovesSocket")
	}
	os.Exit(dispatch([]string{"console", "--db", db}, os.Stdin, os.Stdout, os.Stderr))
}

// TestConsoleSignalRemovesSocket: a console waiting on its input and sent SIGTERM or
// SIGINT removes its control socket, lets go of the database and exits 128 + the
// signal's number.
func TestConsoleSignalRemovesSocket(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "live.db")
			sock, _ := controlPath(db)
			cmd := exec.Command(os.Args[0], "-test.run=^TestConsoleSignalChild$")
			cmd.Env = append(os.Environ(), envConsoleChild+"="+db, "SHEETKEEPER_CONFIG=", "SHEETKEEPER_DB=")
			in, err := cmd.StdinPipe() // held open: the console waits for a line
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(sock); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the console never served its socket")
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
				t.Fatalf("exit: %v", err)
			}
			if _, err := os.Stat(sock); !os.IsNotExist(err) {
				t.Fatalf("socket left behind: %v", err)
			}
			s, err := bolt.Open(db, bolt.Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
		})
	}
}
