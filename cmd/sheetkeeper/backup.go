package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"sheetkeeper/config"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// cmdBackup writes a hot copy of the database: a read transaction's view, taken while
// the database stays usable. When a running bot or console holds the database, it is
// asked to write the copy (see control.go); otherwise the database is opened here.
func cmdBackup(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	cfg, rest, status := loadConfig("backup", append([]string{"log-level"}, config.StoreSettings...), flagsFirst(args), stderr)
	if status >= 0 {
		return status
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "usage: sheetkeeper backup [--store bolt:FILE|etcd://HOST:PORT,… | --db FILE] PATH")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "sheetkeeper backup: %v\n", err)
		return 1
	}
	dest, err := filepath.Abs(rest[0])
	if err != nil {
		return fail(err)
	}
	at := cfg.StoreAt()
	fromStore := func() (int64, error) {
		store, err := openStore(cfg, at, nil)
		if err != nil {
			return 0, err
		}
		defer store.Close()
		return writeBackup(store, dest)
	}
	var n int64
	what := at.String()
	if at.Backend == config.Bolt {
		what = at.Path
		if _, serr := os.Stat(at.Path); serr != nil {
			return fail(fmt.Errorf("no database to back up: %w", serr))
		}
		if err := notItsOwn(at.Path, dest); err != nil {
			return fail(err)
		}
		if n, err = askBackup(at.Path, dest); errors.Is(err, errNoControl) {
			n, err = fromStore()
		}
	} else {
		n, err = fromStore()
	}
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", what, dest, n)
	return 0
}

// flagsFirst moves backup's flags before its path, so `backup PATH --db DB` reads as
// `backup --db DB PATH` (flag stops at the first argument that is not a flag). Every
// flag backup has takes a value (--db, --log-level, --config), so one written without
// "=" takes the next argument with it; -h and --help take none; after "--" nothing is
// a flag. A value flag that ends the arguments (`backup out.db --db`) is left last, with
// nothing after it, so flag answers "flag needs an argument" rather than take a "--" or
// the path as its value.
func flagsFirst(args []string) []string {
	var flags, others []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(append(flags, a), append(others, args[i+1:]...)...)
		case len(a) < 2 || a[0] != '-':
			others = append(others, a)
		case a == "-h" || a == "-help" || a == "--help" || strings.Contains(a, "="):
			flags = append(flags, a)
		case i+1 == len(args):
			return append(flags, a)
		default:
			flags = append(flags, a, args[i+1])
			i++
		}
	}
	return append(append(flags, "--"), others...)
}

// notItsOwn refuses a backup destination that is one of the files the database at
// dbPath keeps — the file itself, a journal (holding commits bbolt has not taken yet),
// or its control socket — by name or as the same file under another.
func notItsOwn(dbPath, dest string) error {
	sock, _ := controlPath(dbPath)
	d, derr := os.Stat(dest)
	for _, own := range append(bolt.Files(dbPath), sock) {
		abs, err := filepath.Abs(own)
		if err != nil {
			return err
		}
		if abs == dest {
			return fmt.Errorf("%s is the database's own file: a backup there would lose its commits", dest)
		}
		if o, err := os.Stat(own); err == nil && derr == nil && os.SameFile(o, d) {
			return fmt.Errorf("%s is the database's own file %s: a backup there would lose its commits", dest, own)
		}
	}
	return nil
}

// writeBackup copies store to a temporary file beside dest, syncs it and renames it into
// place, so dest is always either the old file or a whole new copy.
func writeBackup(store storage.Store, dest string) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".tmp-*")
	if err != nil {
		return 0, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := store.Backup(tmp)
	if err != nil {
		return 0, fmt.Errorf("copy the database: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return 0, err
	}
	done = true
	if dir, err := os.Open(filepath.Dir(dest)); err == nil {
		_ = dir.Sync() // make the rename itself durable
		dir.Close()
	}
	return n, nil
}
