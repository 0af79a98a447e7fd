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

// checkCommand is the frame `ruleset check` and `system check` share: a flag set with
// --json, and each path's result printed as one JSON object or as lines.
type checkCommand struct {
	fs     *flag.FlagSet
	asJSON *bool
}

func newCheckCommand(name, usage string, stderr io.Writer) *checkCommand {
	c := &checkCommand{fs: flag.NewFlagSet(name, flag.ContinueOnError)}
	c.fs.SetOutput(stderr)
	c.asJSON = c.fs.Bool("json", false, "print one JSON object per path instead of lines")
	c.fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sheetkeeper "+usage)
		c.fs.PrintDefaults()
	}
	return c
}

// parse reads the flags; it returns -1, or the exit status to stop with.
func (c *checkCommand) parse(args []string) int {
	if err := c.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}

// print writes one path's result r (the path, whether it is clean, the line that says
// so after the path, its problems when it is not) and reports whether it is clean.
func (c *checkCommand) print(w io.Writer, r any, path string, ok bool, summary string, ps []problemResult) bool {
	switch {
	case *c.asJSON:
		b, _ := json.Marshal(r)
		fmt.Fprintln(w, string(b))
	case ok:
		fmt.Fprintf(w, "%s: %s\n", path, summary)
	default:
		printProblems(w, path, ps)
	}
	return ok
}

// printProblems writes each problem on its own line after the file's path.
func printProblems(w io.Writer, path string, ps []problemResult) {
	for _, p := range ps {
		if p.Path == "" {
			fmt.Fprintf(w, "%s: %s\n", path, p.Message)
		} else {
			fmt.Fprintf(w, "%s: %s: %s\n", path, p.Path, p.Message)
		}
	}
}

func cmdRulesetCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newCheckCommand("ruleset check", "ruleset check [--json] PATH...\n\nEach PATH is a ruleset .json file, a package folder (with manifest.json) or a package .zip.\nPrints `ok <id> v<version>: <N> catalogs, <M> entries`, or every problem with its JSON path.\nExit status 0 only when every path is clean.", stderr)
	builtin := c.fs.Bool("builtin", false, "also check every built-in ruleset (named builtin:<id>)")
	if status := c.parse(args); status >= 0 {
		return status
	}
	if c.fs.NArg() == 0 && !*builtin {
		c.fs.Usage()
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
	for _, path := range c.fs.Args() {
		results = append(results, checkLoaded(path, func() (*ruleset.Loaded, func(), error) { return loadPath(path) }))
	}
	status := 0
	for _, r := range results {
		summary := fmt.Sprintf("ok %s v%d: %d catalogs, %d entries", r.ID, r.Version, r.Catalogs, r.Entries)
		if !c.print(stdout, r, r.Path, r.OK, summary, r.Problems) {
			status = 1
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
