package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// damagedDB writes a database with a card in channel ch, then overwrites the root page
// of its newest transaction with noise, and returns the healthy copy's path, the damaged
// one's and the damaged bytes. (bbolt's meta page: a 16-byte page header, then magic,
// version, page size and flags, u32 each, the root page id u64 at 16, the transaction
// id u64 at 48.)
func damagedDB(t *testing.T) (good, bad string, badBytes []byte) {
	dir, good, s := openLive(t)
	for gold := range 3 {
		must := s.Update(context.Background(), func(tx storage.Tx) error {
			return tx.PutGameCard("ch", storagetest.Card("u1", "Mira", float64(10+gold)))
		})
		if must == nil { // a backup has bbolt take the Update at once: one bbolt commit each, as the damage below assumes
			_, must = s.Backup(io.Discard)
		}
		if must != nil {
			t.Fatal(must)
		}
	}
	s.Close()
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Clone(b)
	const ps = 4096
	meta := b[16:]
	if m1 := b[ps+16:]; binary.LittleEndian.Uint64(m1[48:]) > binary.LittleEndian.Uint64(meta[48:]) {
		meta = m1
	}
	root := int(binary.LittleEndian.Uint64(meta[16:]))
	for i := root * ps; i < (root+1)*ps; i++ {
		b[i] = byte(i*7 + 3)
	}
	bad = filepath.Join(dir, "damaged.db")
	if err := os.WriteFile(bad, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return good, bad, b
}

// TestDamagedDatabaseCommands: run, console and backup refuse a damaged database with
// one clear error that names it and says what to do, exit 1, and leave it as it was;
// db check says what is readable and exits 1; db salvage copies what it can into a new
// file sheetkeeper opens.
func TestDamagedDatabaseCommands(t *testing.T) {
	good, bad, badBytes := damagedDB(t)
	t.Setenv("DISCORD_TOKEN", "a-token")
	script := filepath.Join(t.TempDir(), "script.txt")
	if err := os.WriteFile(script, []byte("gm: /sheet name:Mira\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--db", bad},
		{"console", "--db", bad, "--script", script},
		{"backup", filepath.Join(t.TempDir(), "copy.db"), "--db", bad},
	} {
		code, _, errOut := runCLI(t, "", args...)
		if code != 1 || !strings.Contains(errOut, bad+" is damaged") || !strings.Contains(errOut, "sheetkeeper db salvage "+bad) ||
			strings.Contains(errOut, "goroutine") || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%s: exit %d, %q", args[0], code, errOut)
		}
	}
	if after, _ := os.ReadFile(bad); !bytes.Equal(after, badBytes) {
		t.Fatal("the damaged file changed")
	}

	code, out, errOut := runCLI(t, "", "db", "check", good)
	if code != 0 || !strings.Contains(out, good+" is intact") || !strings.Contains(out, "bucket \"game\": 1 record\n") {
		t.Fatalf("check a good file: exit %d, %q, %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "db", "check", bad)
	if code != 1 || !strings.Contains(out, "problem: ") || !strings.Contains(out, "sheetkeeper db salvage "+bad) {
		t.Fatalf("check a damaged file: exit %d, %q, %q", code, out, errOut)
	}

	to := filepath.Join(t.TempDir(), "salvaged.db")
	code, out, errOut = runCLI(t, "", "db", "salvage", bad, "--to", to)
	if code != 0 || !strings.Contains(out, "salvaged "+bad+" into "+to) {
		t.Fatalf("salvage: exit %d, %q, %q", code, out, errOut)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if code, out, errOut := runCLI(t, "", "backup", copyPath, "--db", to); code != 0 || !strings.Contains(out, "backed up "+to) {
		t.Fatalf("backup PATH --db DB: exit %d, %q, %q", code, out, errOut)
	}
	if gold := goldIn(t, to); gold < 10 || gold > 12 {
		t.Errorf("the salvaged copy holds %v gold", gold)
	}
	if after, _ := os.ReadFile(bad); !bytes.Equal(after, badBytes) {
		t.Fatal("salvage changed the damaged file")
	}
	code, _, errOut = runCLI(t, "", "db", "salvage", bad, "--to", to)
	if code != 1 || !strings.Contains(errOut, to) {
		t.Fatalf("salvage over an existing file: exit %d, %q", code, errOut)
	}
	code, _, _ = runCLI(t, "", "db", "mend", bad)
	if code != 2 {
		t.Fatalf("db mend: exit %d", code)
	}
}

func TestParseInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	to := fs.String("to", "", "")
	v := fs.Bool("v", false, "")
	rest, err := parseInterspersed(fs, []string{"a", "--to", "x", "b", "-v", "--", "-c"})
	if err != nil || *to != "x" || !*v || !slices.Equal(rest, []string{"a", "b", "-c"}) {
		t.Fatalf("%q %v %q %v", rest, err, *to, *v)
	}
}

func TestFlagsFirst(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"p", "--db", "d"}, []string{"--db", "d", "--", "p"}},
		{[]string{"--db=d", "p", "-h"}, []string{"--db=d", "-h", "--", "p"}},
		{[]string{"p", "--", "--db"}, []string{"--", "p", "--db"}},
	} {
		if got := flagsFirst(c.in); !slices.Equal(got, c.want) {
			t.Errorf("flagsFirst(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
