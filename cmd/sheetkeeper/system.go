package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"sheetkeeper/bot"
	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
)

// `sheetkeeper system check|import|export`: Pack Rat game systems (SPEC 7) from the
// command line, beside `ruleset check|import|export`. check reads files only; import and
// export work on the configured store through the bot core, exactly as /system import
// and /system export do.

// systemResult is what `system check` says of one path.
type systemResult struct {
	Path      string          `json:"path"`
	OK        bool            `json:"ok"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Templates int             `json:"templates"`
	Items     int             `json:"items"`
	Problems  []problemResult `json:"problems,omitempty"`
}

func cmdSystemCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newCheckCommand("system check", "system check [--json] PATH...\n\nEach PATH is a Pack Rat system .json file, checked as /system import would read it\n(a built-in system's id is refused there). Prints `ok <id>: <N> templates, <M> catalog items`,\nor every problem with its JSON path. Exit status 0 only when every path is clean.", stderr)
	if status := c.parse(args); status >= 0 {
		return status
	}
	if c.fs.NArg() == 0 {
		c.fs.Usage()
		return 2
	}
	status := 0
	for _, path := range c.fs.Args() {
		r := checkSystem(path)
		summary := fmt.Sprintf("ok %s: %d templates, %d catalog items", r.ID, r.Templates, r.Items)
		if !c.print(stdout, r, r.Path, r.OK, summary, r.Problems) {
			status = 1
		}
	}
	return status
}

// checkSystem reads one system file as an import would.
func checkSystem(path string) systemResult {
	r := systemResult{Path: path}
	data, err := readSystemFile(path)
	if err != nil {
		r.Problems = problemsOf(err, "")
		return r
	}
	s, ps := inventory.Import(data, content.IsSystem)
	if len(ps) > 0 {
		r.Problems = problemsOf(ps, "")
		return r
	}
	r.OK, r.ID, r.Name, r.Templates, r.Items = true, s.ID, s.Name, len(s.Templates), len(s.Catalog)
	return r
}

// readSystemFile reads a system file, refusing one over the parser's limit by its size
// (the true one) before reading it, and never reading more than the limit past it.
func readSystemFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, fmt.Errorf("%s is a folder: a system is one .json file", path)
	case st.Mode().IsRegular() && st.Size() > inventory.MaxFileBytes:
		return nil, strictjson.Problems{{Kind: strictjson.Limit, Msg: fmt.Sprintf(
			"a system file is at most %d KB; this one is %d KB", inventory.MaxFileBytes/1024, (st.Size()+1023)/1024)}}
	}
	// Anything else over the limit (a pipe) is cut at one byte past it, which Parse refuses.
	return io.ReadAll(io.LimitReader(f, inventory.MaxFileBytes+1))
}

func cmdSystemImport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newStoreCommand("system import", "system import [--guild ID] [--db FILE | --store STORE] PATH\n\nImports a Pack Rat system file into the store, as /system import does: a new id as v1,\nnew content for an id as its next version. Every problem is printed with its JSON path.", false, stderr)
	path, cfg, status := c.parse(args)
	if status >= 0 {
		return status
	}
	data, err := readSystemFile(path)
	if err != nil {
		return c.fail(err)
	}
	var imp bot.SystemImport
	err = withCore(cfg, func(ctx context.Context, _ storage.Store, core *bot.Core) error {
		imp, err = core.ImportSystem(ctx, *c.guild, cliUser().ID, data)
		return err
	})
	var ps strictjson.Problems
	if errors.As(err, &ps) {
		printProblems(stdout, path, problemsOf(ps, ""))
		return 1
	}
	if err != nil {
		return c.fail(err)
	}
	rec := imp.Record
	if imp.Same {
		fmt.Fprintf(stdout, "%s: %s v%d (%s) is imported already, with this same content\n", path, rec.ID, rec.Version, rec.Name)
		return 0
	}
	fmt.Fprintf(stdout, "%s: imported %s v%d (%s)\n", path, rec.ID, rec.Version, rec.Name)
	return 0
}

func cmdSystemExport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	c := newStoreCommand("system export", "system export [--guild ID] [--version N] [--out FILE] [--db FILE | --store STORE] ID\n\nWrites a game system's file: a built-in's, or an imported version as it was imported.", true, stderr)
	id, cfg, status := c.parse(args)
	if status >= 0 {
		return status
	}
	var f bot.File
	var rec *storage.SystemRecord
	err := withCore(cfg, func(ctx context.Context, _ storage.Store, core *bot.Core) error {
		var err error
		f, rec, err = core.SystemFile(ctx, *c.guild, id, *c.version)
		return err
	})
	if err != nil {
		return c.fail(err)
	}
	where, err := writeExport(f, *c.out, stdout)
	if err != nil {
		return c.fail(err)
	}
	if *c.out != "-" {
		fmt.Fprintf(stdout, "%s v%d (%s): %d bytes written to %s\n", rec.ID, rec.Version, rec.Name, len(f.Data), where)
	}
	return 0
}
