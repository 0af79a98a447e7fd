package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"sheetkeeper/config"
	"sheetkeeper/storage/bolt"
)

const dbUsage = `usage: sheetkeeper db check PATH
       sheetkeeper db salvage PATH [--to NEW]

PATH is a bbolt file (or bolt:PATH); an etcd store is refused: etcd checks its own data.

check reads the database at PATH without changing it and prints what is readable,
bucket by bucket, and every problem found. Exit status 0 only when it is intact.

salvage copies every readable record of the database at PATH (which it leaves as it
is) into the new file NEW (default PATH.salvaged, which must not exist) and prints what
it copied and where records were lost. Open the copy (sheetkeeper console --db NEW) and,
once satisfied, put it in place of PATH.

While a sheetkeeper process holds PATH, both wait 5 seconds for it and give up: stop it,
or check a copy made with sheetkeeper backup.
`

// cmdDB is `sheetkeeper db check|salvage PATH`: what to do with a database sheetkeeper
// refuses to open as damaged (storage/bolt's Check and Salvage).
func cmdDB(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "check" && args[0] != "salvage") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprint(stdout, dbUsage)
			return 0
		}
		fmt.Fprint(stderr, dbUsage)
		return 2
	}
	op := args[0]
	fs := flag.NewFlagSet("db "+op, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, dbUsage) }
	var to *string
	if op == "salvage" {
		to = fs.String("to", "", "the new file to copy into (default PATH.salvaged)")
	}
	rest, err := parseInterspersed(fs, args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		return 2
	case len(rest) != 1:
		fmt.Fprint(stderr, dbUsage)
		return 2
	}
	path, err := boltPath(rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper db %s: %v\n", op, err)
		return 2
	}
	if op == "check" {
		return dbCheck(path, stdout, stderr)
	}
	if *to == "" {
		*to = path + ".salvaged"
	}
	return dbSalvage(path, *to, stdout, stderr)
}

// boltPath is the file arg names: a path, or a store setting (bolt:PATH); an etcd
// store is refused, as check and salvage read bbolt's pages.
func boltPath(arg string) (string, error) {
	if !strings.HasPrefix(arg, "bolt:") && !strings.HasPrefix(arg, "etcd://") {
		return arg, nil
	}
	at, err := config.ParseStore(arg)
	if err != nil {
		return "", err
	}
	if at.Backend != config.Bolt {
		return "", errBoltOnly("db check and db salvage", at)
	}
	return at.Path, nil
}

// parseInterspersed parses fs's flags wherever they stand among the arguments (flag
// stops at the first that is not a flag) and returns the others in order; after "--"
// every argument is one of the others.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

func dbCheck(path string, stdout, stderr io.Writer) int {
	rep, err := bolt.Check(path, bolt.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper db check: %v\n", err)
		return 1
	}
	printReport(stdout, rep, "")
	if rep.Damaged() {
		fmt.Fprintf(stdout, "%s is damaged: restore it from a backup, or run `sheetkeeper db salvage %s` to copy every intact record into a new file\n", path, path)
		return 1
	}
	fmt.Fprintf(stdout, "%s is intact\n", path)
	return 0
}

func dbSalvage(path, to string, stdout, stderr io.Writer) int {
	rep, err := bolt.Salvage(path, to, bolt.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper db salvage: %v\n", err)
		return 1
	}
	printReport(stdout, rep, " copied")
	fmt.Fprintf(stdout, "salvaged %s into %s", path, to)
	if rep.Damaged() {
		fmt.Fprint(stdout, " (records where the problems above are were lost)")
	}
	fmt.Fprintf(stdout, "; try it with `sheetkeeper console --db %s` and, once satisfied, put it in place of %s\n", to, path)
	return 0
}

// printReport writes a Check or Salvage report: the file, each bucket's records (what
// follows their count), the notes, and the problems.
func printReport(w io.Writer, rep *bolt.Report, what string) {
	schema := "no readable schema version"
	if rep.Schema > 0 {
		schema = fmt.Sprintf("schema %d", rep.Schema)
	}
	fmt.Fprintf(w, "%s: %d bytes, %d pages of %d bytes, %s\n", rep.Path, rep.Size, rep.Pages, rep.PageSize, schema)
	for _, b := range rep.Buckets {
		noun := "records"
		if b.Records == 1 {
			noun = "record"
		}
		fmt.Fprintf(w, "  bucket %s: %d %s%s\n", b.Name, b.Records, noun, what)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
	if rep.MoreProblems > 0 {
		fmt.Fprintf(w, "problem: and %d more\n", rep.MoreProblems)
	}
}
