package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const corpus = "../../../shared/reference/marinara/"

func TestRulesetCheck(t *testing.T) {
	code, out, _ := runCLI(t, "", "ruleset", "check", corpus+"ember-roads.json", corpus+"gravewatch.json")
	want := corpus + "ember-roads.json: ok ember-roads v1: 2 catalogs, 11 entries\n" +
		corpus + "gravewatch.json: ok gravewatch v1: 1 catalogs, 2 entries\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d\n%s", code, out)
	}

	// A broken file: every problem, one per line, prefixed with the path; exit 1.
	raw, _ := os.ReadFile(corpus + "ember-roads.json")
	var doc map[string]any
	json.Unmarshal(raw, &doc)
	values := doc["catalogs"].([]any)[0].(map[string]any)["entries"].([]any)[3].(map[string]any)["rows"].([]any)[1].(map[string]any)["values"].(map[string]any)
	values["usess"] = values["uses"]
	delete(values, "uses")
	broken, _ := json.Marshal(doc)
	bad := filepath.Join(t.TempDir(), "broken.json")
	os.WriteFile(bad, broken, 0o644)
	code, out, _ = runCLI(t, "", "ruleset", "check", corpus+"gravewatch.json", bad)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, bad+`: catalogs[0].entries[3] (knacks/last-ember).rows[1].values.usess: list "tricks" has no column "usess"`) {
		t.Fatalf("missing the SPEC's example problem:\n%s", out)
	}

	// --json: one object per path.
	code, out, _ = runCLI(t, "", "ruleset", "check", "--json", corpus+"5e-2014")
	var r checkResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if code != 1 || r.OK || r.ID != "5e-2014" || r.Catalogs != 4 || len(r.Problems) != 1 ||
		r.Problems[0].Path != "catalogs/features.json: entries[159] (features/rogue-sneak-attack).mechanics.rider.requires.column" {
		t.Fatalf("exit %d, %+v", code, r)
	}
}

func TestRulesetCheckBuiltin(t *testing.T) {
	code, out, _ := runCLI(t, "", "ruleset", "check", "--builtin")
	if code != 0 || !strings.Contains(out, "builtin:dnd5e-srd: ok dnd5e-srd v1: 3 catalogs, 1060 entries") || !strings.Contains(out, "builtin:low-vell: ok low-vell") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestRulesetCheckUsage(t *testing.T) {
	if code, _, _ := runCLI(t, "", "ruleset", "check"); code != 2 {
		t.Fatalf("no paths: exit %d", code)
	}
	code, out, _ := runCLI(t, "", "ruleset", "check", "/nonexistent.json")
	if code != 1 || !strings.Contains(out, "/nonexistent.json: ") {
		t.Fatalf("exit %d %q", code, out)
	}
}

// A package given as a .zip is read like its folder, told by its content whatever its
// name; a path that is not there says so in the system's words.
func TestRulesetCheckZipAndMissing(t *testing.T) {
	dir := corpus + "5e-2014"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	upload := filepath.Join(t.TempDir(), "upload.bin")
	os.WriteFile(upload, buf.Bytes(), 0o644)
	_, folder, _ := runCLI(t, "", "ruleset", "check", "--json", dir)
	code, out, _ := runCLI(t, "", "ruleset", "check", "--json", upload)
	if code != 1 || strings.Replace(out, upload, dir, 1) != folder {
		t.Fatalf("exit %d: the zip says\n%s\nthe folder\n%s", code, out, folder)
	}

	missing := filepath.Join(t.TempDir(), "nothing.json")
	code, out, _ = runCLI(t, "", "ruleset", "check", missing)
	if code != 1 || out != missing+": stat "+missing+": no such file or directory\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
}
