package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"sheetkeeper/content"
	"sheetkeeper/ruleset"
	"sheetkeeper/strictjson"
)

// checkResult is what `ruleset check` says of one path.
type checkResult struct {
	Path     string          `json:"path"`
	OK       bool            `json:"ok"`
	ID       string          `json:"id,omitempty"`
	Version  int             `json:"version,omitempty"`
	Catalogs int             `json:"catalogs"`
	Entries  int             `json:"entries"`
	Problems []problemResult `json:"problems,omitempty"`
}

// problemResult is one problem, or (More > 0) the count of those the loader did not
// keep: a document lists at most strictjson.MaxProblems, so checking a hostile file
// prints a thousand lines and a count, in bounded memory, never a million.
type problemResult struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	More    int    `json:"more,omitempty"`
}

func cmdRulesetCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ruleset check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per path instead of lines")
	builtin := fs.Bool("builtin", false, "also check every built-in ruleset (named builtin:<id>)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sheetkeeper ruleset check [--json] PATH...\n\nEach PATH is a ruleset .json file, a package folder (with manifest.json) or a package .zip.\nPrints `ok <id> v<version>: <N> catalogs, <M> entries`, or every problem with its JSON path.\nExit status 0 only when every path is clean.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 && !*builtin {
		fs.Usage()
		return 2
	}
	var results []checkResult
	if *builtin {
		list, err := content.Builtins()
		if err != nil {
			fmt.Fprintf(stderr, "sheetkeeper ruleset check: built-in content: %v\n", err)
			return 1
		}
		for _, b := range list {
			results = append(results, checkLoaded("builtin:"+b.ID, loadBuiltin(b)))
		}
	}
	for _, path := range fs.Args() {
		results = append(results, checkLoaded(path, func() (*ruleset.Loaded, func(), error) { return loadPath(path) }))
	}
	status := 0
	for _, r := range results {
		if !r.OK {
			status = 1
		}
		if *asJSON {
			b, _ := json.Marshal(r)
			fmt.Fprintln(stdout, string(b))
			continue
		}
		if r.OK {
			fmt.Fprintf(stdout, "%s: ok %s v%d: %d catalogs, %d entries\n", r.Path, r.ID, r.Version, r.Catalogs, r.Entries)
			continue
		}
		for _, p := range r.Problems {
			if p.Path == "" {
				fmt.Fprintf(stdout, "%s: %s\n", r.Path, p.Message)
			} else {
				fmt.Fprintf(stdout, "%s: %s: %s\n", r.Path, p.Path, p.Message)
			}
		}
	}
	return status
}

// loadBuiltin loads an embedded ruleset, a single file or a package; there is nothing to
// release.
func loadBuiltin(b content.Builtin) func() (*ruleset.Loaded, func(), error) {
	return func() (*ruleset.Loaded, func(), error) {
		var l *ruleset.Loaded
		var err error
		if b.IsPackage() {
			l, err = ruleset.LoadFS(b.Package)
		} else {
			l, err = ruleset.LoadFile(b.File)
		}
		return l, func() {}, err
	}
}

// checkLoaded loads one ruleset and, unlike play, reads every standalone catalog at
// once: an author checking a file wants every mistake now. Then it releases what load
// opened.
func checkLoaded(path string, load func() (*ruleset.Loaded, func(), error)) checkResult {
	r := checkResult{Path: path}
	l, release, err := load()
	defer release()
	if err != nil {
		r.Problems = problemsOf(err, "")
		return r
	}
	r.ID, r.Version, r.Catalogs = l.ID, l.Ruleset.Version, len(l.Catalogs)
	for _, c := range l.Catalogs {
		entries, err := l.Entries(c.ID)
		if err != nil {
			r.Problems = append(r.Problems, problemsOf(err, "catalogs/"+c.ID+".json")...)
		}
		r.Entries += len(entries)
	}
	r.OK = len(r.Problems) == 0
	return r
}

// problemsOf lists err's problems, each path under prefix (a catalog file's name).
func problemsOf(err error, prefix string) []problemResult {
	var ps strictjson.Problems
	if !errors.As(err, &ps) {
		return []problemResult{{Path: prefix, Message: err.Error()}}
	}
	out := make([]problemResult, len(ps))
	for i, p := range ps {
		path := p.Path
		if prefix != "" {
			path = prefix + ": " + path
			if p.Path == "" {
				path = prefix
			}
		}
		out[i] = problemResult{Path: path, Message: p.Msg, More: p.More()}
	}
	return out
}
