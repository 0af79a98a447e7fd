package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
	"sheetkeeper/storage/storagetest"
)

// openLive opens a new database live.db in a temporary folder, with the environment's
// settings cleared, and returns the folder, the path and the store.
func openLive(t *testing.T) (dir, db string, s storage.Store) {
	t.Helper()
	t.Setenv("SHEETKEEPER_CONFIG", "")
	t.Setenv("SHEETKEEPER_DB", "")
	dir = t.TempDir()
	db = filepath.Join(dir, "live.db")
	s, err := bolt.Open(db, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, db, s
}

func TestBackupCommand(t *testing.T) {
	dir, db, s := openLive(t)
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", 12))
	})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}

	dest := filepath.Join(dir, "copies", "backup.db")
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dest, []byte("an older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "backup", "--db", db, dest)
	if code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("exit %d, %q, %q", code, out, errOut)
	}
	entries, _ := os.ReadDir(filepath.Dir(dest))
	if len(entries) != 1 {
		t.Fatalf("left beside the backup: %v", entries)
	}
	if gold := goldIn(t, dest); gold != 12 {
		t.Errorf("backup holds %v gold", gold)
	}
}

// goldIn is the gold of Mira in channel ch of the database at path.
func goldIn(t *testing.T, path string) float64 {
	t.Helper()
	c, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var gold float64
	err = c.View(context.Background(), func(tx storage.Tx) error {
		card, err := tx.GameCard("ch", "mira")
		if err == nil {
			gold = storagetest.Gold(card)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return gold
}

func TestBackupCommandRefuses(t *testing.T) {
	t.Setenv("SHEETKEEPER_CONFIG", "")
	t.Setenv("SHEETKEEPER_DB", "")
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	code, _, errOut := runCLI(t, "", "backup", "--db", missing, filepath.Join(dir, "b.db"))
	if code != 1 || !strings.Contains(errOut, "no database to back up") {
		t.Fatalf("missing database: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("backup created the database it was asked to copy")
	}
	code, _, errOut = runCLI(t, "", "backup", "--db", missing)
	if code != 2 || !strings.Contains(errOut, "usage") {
		t.Fatalf("no PATH: exit %d, %q", code, errOut)
	}
	// A value flag with nothing after it is flag's error, not "--" taken as its value.
	code, _, errOut = runCLI(t, "", "backup", filepath.Join(dir, "b.db"), "--db")
	if code != 2 || !strings.Contains(errOut, "flag needs an argument") {
		t.Fatalf("--db with no value: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "--")); !os.IsNotExist(err) {
		t.Fatal("backup took \"--\" for the database")
	}

	db := filepath.Join(dir, "live.db")
	s, err := bolt.Open(db, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	code, _, errOut = runCLI(t, "", "backup", "--db", db, db)
	if code != 1 || !strings.Contains(errOut, "the database's own file") {
		t.Fatalf("onto itself: exit %d, %q", code, errOut)
	}
	// A PATH in a folder that does not exist fails and leaves nothing.
	code, _, _ = runCLI(t, "", "backup", "--db", db, filepath.Join(dir, "nope", "b.db"))
	if code != 1 {
		t.Fatalf("into a missing folder: exit %d", code)
	}
}

// TestBackupWhileHeld: while a process holds the database (here a store opened in this
// process, serving its control socket as `run` and `console` do) and keeps writing, the
// backup command gets a whole copy from it; a relative PATH is the caller's. Once the
// holder has stopped, a socket it left behind does not stand in the way.
func TestBackupWhileHeld(t *testing.T) {
	dir, db, s := openLive(t)
	stop, err := serveControl(db, s, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	spend := func(gold float64) {
		err := s.Update(ctx, func(tx storage.Tx) error { return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", gold)) })
		if err != nil {
			t.Error(err)
		}
	}
	spend(12)
	writing, stopWriting := make(chan struct{}), make(chan struct{})
	go func() { // the bot goes on writing while the copy is made
		defer close(writing)
		for i := 0; ; i++ {
			select {
			case <-stopWriting:
				return
			default:
				spend(float64(100 + i))
			}
		}
	}()
	t.Chdir(dir)
	code, out, errOut := runCLI(t, "", "backup", "--db", db, "copy.db")
	close(stopWriting)
	<-writing
	if code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("exit %d, %q, %q", code, out, errOut)
	}
	stop()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if gold := goldIn(t, filepath.Join(dir, "copy.db")); gold != 12 && gold < 100 {
		t.Errorf("the copy holds %v gold", gold)
	}

	// A holder killed before it could remove its socket leaves a file no one answers.
	sock, _ := controlPath(db)
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if code, out, errOut := runCLI(t, "", "backup", "--db", db, "again.db"); code != 0 {
		t.Fatalf("with a stale socket: exit %d, %q, %q", code, out, errOut)
	}
}

// TestControlSocketApart: a database whose path is too long for a socket address is
// served from the runtime folder, and only from one no one else may write to.
func TestControlSocketApart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("long-folder-name-", 8))
	db := filepath.Join(dir, "live.db")
	s, err := bolt.Open(db, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	if err := os.Chmod(runtime, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := serveControl(db, s, quiet); err == nil || !strings.Contains(err.Error(), "others may write") {
		t.Fatalf("a socket in a folder others may write to: %v", err)
	}
	if err := os.Chmod(runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	stop, err := serveControl(db, s, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if sock, apart := controlPath(db); !apart || filepath.Dir(sock) != runtime {
		t.Fatalf("socket %s (apart %v)", sock, apart)
	}
	if n, err := askBackup(db, filepath.Join(t.TempDir(), "copy.db")); err != nil || n == 0 {
		t.Fatalf("backup through the runtime folder: %d bytes, %v", n, err)
	}
}

// TestBackupRefusesTheDatabasesOwnFiles: a backup is never written over a file the
// database keeps — a journal holds commits bbolt has not taken yet, so a copy renamed
// over it loses them at the next crash — whether the CLI asks the running process or
// another client asks its socket directly; the journal is left as it was.
func TestBackupRefusesTheDatabasesOwnFiles(t *testing.T) {
	_, db, s := openLive(t)
	stop, err := serveControl(db, s, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { stop(); s.Close() }()
	if err := s.Update(context.Background(), func(tx storage.Tx) error {
		return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", 12))
	}); err != nil {
		t.Fatal(err)
	}
	sock, _ := controlPath(db)
	for _, own := range []string{db, db + ".journal0", db + ".journal1", sock} {
		before, _ := os.Stat(own)
		code, out, errOut := runCLI(t, "", "backup", "--db", db, own)
		if code == 0 || !strings.Contains(errOut, "the database's own file") {
			t.Errorf("backup to %s: exit %d, %q %q; want it refused as the database's own file", own, code, out, errOut)
		}
		if after, _ := os.Stat(own); before != nil && (after == nil || !os.SameFile(before, after)) {
			t.Errorf("%s was replaced", own)
		}
		if _, err := askBackup(db, own); err == nil || !strings.Contains(err.Error(), "the database's own file") {
			t.Errorf("the socket asked for a backup to %s: %v, want it refused", own, err)
		}
	}
}

// TestBackupTrustsOnlyItsUsersSocket: a socket beside the database that another user
// made (a database in a folder others may write to, a sticky /tmp) is not asked for the
// backup, though it would answer "done": backup reads the database itself, and the copy
// is there. Root only: it gives the socket to another user.
func TestBackupTrustsOnlyItsUsersSocket(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the socket to another user")
	}
	_, db, s := openLive(t)
	s.Close()
	sock, apart := controlPath(db)
	if apart {
		t.Skip("the socket is apart from the database here")
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Chown(sock, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			var req controlRequest
			_ = readLine(c, &req)
			c.Write([]byte(`{"bytes":4242}` + "\n"))
			c.Close()
		}
	}()
	dest := filepath.Join(t.TempDir(), "copy.db")
	code, out, errOut := runCLI(t, "", "backup", "--db", db, dest)
	if _, err := os.Stat(dest); code != 0 || err != nil || strings.Contains(out, "4242") {
		t.Fatalf("backup: exit %d, %q %q; the copy: %v", code, out, errOut, err)
	}
}
