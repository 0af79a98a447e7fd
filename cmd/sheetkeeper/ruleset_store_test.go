package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/storage"
)

func TestRulesetImportExport(t *testing.T) {
	db := storeEnv(t)
	ember := corpus + "ember-roads.json"
	out := runWant(t, 0, "ruleset", "import", "--db", db, ember)
	if !strings.HasPrefix(out, ember+": Installed Ember Roads as local/ember-roads v1: ") {
		t.Errorf("import: %q", out)
	}
	if out := runWant(t, 0, "ruleset", "import", "--db", db, ember); !strings.Contains(out, "is installed already, with this same content") {
		t.Errorf("again: %q", out)
	}
	// Other content at the same version is refused, as in Discord, and changes nothing.
	changed := filepath.Join(t.TempDir(), "ember-roads.json")
	os.WriteFile(changed, bytes.Replace(readFile(t, ember), []byte(`"name": "Ember Roads"`), []byte(`"name": "Ember Roads Revised"`), 1), 0o644)
	if out := runWant(t, 1, "ruleset", "import", "--db", db, changed); !strings.Contains(out, "raise version") {
		t.Errorf("same version, other content: %q", out)
	}
	// A file with mistakes: each with its path, nothing stored.
	broken := filepath.Join(t.TempDir(), "broken.json")
	os.WriteFile(broken, bytes.Replace(readFile(t, ember), []byte(`"schemaVersion": 1`), []byte(`"schemaVersion": 1, "sheeet": {}`), 1), 0o644)
	if out := runWant(t, 1, "ruleset", "import", "--db", db, broken); !strings.Contains(out, broken+": sheeet: ") {
		t.Errorf("broken: %q", out)
	}
	// A package folder whose catalog file has a mistake installs, saying so.
	out = runWant(t, 0, "ruleset", "import", "--db", db, "--guild", "g1", corpus+"5e-2014")
	if !strings.Contains(out, "The picker will show mistakes instead of entries for catalog features (catalogs/features.json):\nentries[159]") ||
		!strings.Contains(out, "as local/5e-2014 v") {
		t.Errorf("package: %q", out)
	}
	inStore(t, db, func(tx storage.Tx) error {
		if rec, err := tx.Ruleset("", "local/ember-roads", 1); err != nil || !bytes.Equal(rec.File, readFile(t, ember)) {
			t.Errorf("ember-roads v1: %v", err)
		}
		if ids, err := tx.RulesetIDs(""); err != nil || len(ids) != 1 {
			t.Errorf("shared namespace: %q %v", ids, err)
		}
		if ids, err := tx.RulesetIDs("g1"); err != nil || len(ids) != 1 || ids[0] != "local/5e-2014" {
			t.Errorf("g1: %q %v", ids, err)
		}
		return nil
	})

	// Export: the file as imported, a package as a .zip, a built-in's own file.
	v1 := filepath.Join(t.TempDir(), "v1.json")
	runWant(t, 0, "ruleset", "export", "--db", db, "--version", "1", "--out", v1, "ember-roads")
	sameFile(t, v1, ember)
	t.Chdir(t.TempDir())
	runWant(t, 0, "ruleset", "export", "--db", db, "--guild", "g1", "5e-2014")
	zips, _ := filepath.Glob("5e-2014-v*.zip")
	if len(zips) != 1 {
		t.Fatalf("package export wrote %q", zips)
	}
	zr, err := zip.OpenReader(zips[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) == 0 || zr.File[0].Name != "manifest.json" {
		t.Errorf("the package's first file: %v", zr.File)
	}
	zr.Close()
	runWant(t, 0, "ruleset", "export", "--db", db, "low-vell")
	if lv, _ := filepath.Glob("low-vell-v*.json"); len(lv) != 1 {
		t.Errorf("built-in export wrote %q", lv)
	}
	if out := runWant(t, 1, "ruleset", "export", "--db", db, "--version", "7", "ember-roads"); !strings.Contains(out, "local/ember-roads v7 is not installed") {
		t.Errorf("missing version: %q", out)
	}
	runWant(t, 1, "ruleset", "export", "--db", db, "--guild", "g2", "5e-2014") // another server's
	runWant(t, 2, "ruleset", "export", "--db", db, "--version", "-1", "ember-roads")
	runWant(t, 2, "ruleset", "import", "--db", db)
}
