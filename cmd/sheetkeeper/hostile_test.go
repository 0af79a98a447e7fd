package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/internal/hostile"
)

// `ruleset check` says an oversized file's true size, read from its stat, not the size
// its reader stopped at; and of a file with thousands of problems it prints the ones the
// loader keeps (strictjson.MaxProblems) and a count of the rest: all an author can use,
// in bounded memory.
func TestRulesetCheckHostile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(`{"id":"`+strings.Repeat("x", 2<<20)+`"}`), 0o644)
	code, out, _ := runCLI(t, "", "ruleset", "check", big)
	want := big + ": a single-file ruleset is at most 512 KB; this one is 2049 KB (ship a package with standalone catalog files)\n"
	if code != 1 || out != want {
		t.Fatalf("exit %d\n%s", code, out)
	}

	cases, err := hostile.Cases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Data == nil {
			continue
		}
		path := filepath.Join(dir, "case.json")
		if strings.HasPrefix(string(c.Data), "PK") {
			path = filepath.Join(dir, "case.zip")
		}
		os.WriteFile(path, c.Data, 0o644)
		code, out, _ := runCLI(t, "", "ruleset", "check", path)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 1 || len(lines) > 1001 {
			t.Errorf("%s: exit %d, %d lines", c.Name, code, len(lines))
		}
		if c.Name != "512 KB of bad entries within the entry limit" {
			continue
		}
		if lines[len(lines)-1] != path+": … and 119,000 more problems" {
			t.Errorf("%s: ends %q", c.Name, lines[len(lines)-1])
		}
		_, out, _ = runCLI(t, "", "ruleset", "check", "--json", path)
		if !strings.HasSuffix(strings.TrimSpace(out), `{"path":"","message":"… and 119,000 more problems","more":119000}]}`) {
			t.Errorf("json: ends %q", out[max(0, len(out)-120):])
		}
	}
}

// TestImportRefusesALinkOutOfTheFolder: a package folder whose catalogs/spells.json is a
// link to a file outside it is refused — by the console's /ruleset import as by
// `ruleset import` and `ruleset check` — as a link leading outside the package, and
// nothing is installed (the console read the folder through an os.DirFS, which followed
// the link).
func TestImportRefusesALinkOutOfTheFolder(t *testing.T) {
	src := corpus + "5e-2014"
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(outside, readFile(t, src+"/catalogs/spells.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(t.TempDir(), "5e-2014")
	for _, p := range []string{"manifest.json", "ruleset.json", "catalogs/features.json", "catalogs/creatures.json"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(pkg, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, p), readFile(t, filepath.Join(src, p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(pkg, "catalogs", "spells.json")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	const refused = "catalogs/spells.json: is a link leading outside the package"
	db := storeEnv(t)
	_, out, errOut := runCLI(t, "ana: /ruleset import file:"+pkg+"\n", "console", "--db", db)
	if strings.Contains(out, "Installed") || !strings.Contains(out+errOut, refused) {
		t.Errorf("the console's /ruleset import:\n%s%s\nwant it refused: %s", out, errOut, refused)
	}
	code, out, errOut := runCLI(t, "", "ruleset", "import", "--db", db, pkg)
	if code == 0 || !strings.Contains(out+errOut, refused) {
		t.Errorf("ruleset import: exit %d\n%s%s\nwant it refused: %s", code, out, errOut, refused)
	}
}
