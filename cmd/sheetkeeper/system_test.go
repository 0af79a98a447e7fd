package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sheetkeeper/content"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
	"sheetkeeper/strictjson"
)

// storeEnv clears the settings that would point a test at another store.
func storeEnv(t *testing.T) string {
	t.Helper()
	t.Setenv("SHEETKEEPER_CONFIG", "")
	t.Setenv("SHEETKEEPER_DB", "")
	t.Setenv("SHEETKEEPER_STORE", "")
	return filepath.Join(t.TempDir(), "sheetkeeper.db")
}

// inStore reads the bbolt file at db, after the command closed it.
func inStore(t *testing.T, db string, fn func(tx storage.Tx) error) {
	t.Helper()
	s, err := bolt.Open(db, bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// systemFiles writes the built-in Saltmarch under an id of its own (my-march.json), the
// same with another name (revised.json) and one with two mistakes (broken.json).
func systemFiles(t *testing.T) (dir string) {
	t.Helper()
	b, ok, err := content.LookupSystem("saltmarch")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	mine := bytes.Replace(b.File, []byte(`"id": "saltmarch"`), []byte(`"id": "my-march"`), 1)
	revised := bytes.Replace(mine, []byte(`"name": "Saltmarch"`), []byte(`"name": "Saltmarch Revised"`), 1)
	broken := bytes.Replace(mine, []byte(`"packrat": "system"`), []byte(`"packrat": "system", "slotz": 1, "templates": 3`), 1)
	dir = t.TempDir()
	for name, data := range map[string][]byte{"my-march.json": mine, "revised.json": revised, "broken.json": broken, "builtin.json": b.File} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSystemCheck(t *testing.T) {
	dir := systemFiles(t)
	mine, broken := filepath.Join(dir, "my-march.json"), filepath.Join(dir, "broken.json")
	code, out, _ := runCLI(t, "", "system", "check", mine)
	if code != 0 || !strings.HasPrefix(out, mine+": ok my-march: ") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "system", "check", mine, broken, filepath.Join(dir, "builtin.json"), filepath.Join(dir, "missing.json"))
	for _, want := range []string{broken + ": slotz: unknown key", broken + ": templates: ", dir + "/builtin.json: id: \"saltmarch\" is a built-in system's id", "missing.json: open "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit %d with problems", code)
	}
	code, out, _ = runCLI(t, "", "system", "check", "--json", broken)
	if code != 1 || !strings.HasPrefix(out, `{"path":"`+broken+`","ok":false,`) {
		t.Errorf("--json: exit %d %s", code, out)
	}
	if code, _, _ := runCLI(t, "", "system", "check"); code != 2 {
		t.Errorf("no path: exit %d", code)
	}
}

func TestSystemImportExport(t *testing.T) {
	db := storeEnv(t)
	dir := systemFiles(t)
	mine, revised := filepath.Join(dir, "my-march.json"), filepath.Join(dir, "revised.json")
	if out := runWant(t, 0, "system", "import", "--db", db, mine); out != mine+": imported my-march v1 (Saltmarch)\n" {
		t.Errorf("import: %q", out)
	}
	if out := runWant(t, 0, "system", "import", mine, "--db", db); out != mine+": my-march v1 (Saltmarch) is imported already, with this same content\n" {
		t.Errorf("again: %q", out)
	}
	if out := runWant(t, 0, "system", "import", "--db", db, revised); out != revised+": imported my-march v2 (Saltmarch Revised)\n" {
		t.Errorf("new content: %q", out)
	}
	runWant(t, 0, "system", "import", "--db", db, "--guild", "g1", mine)
	out := runWant(t, 1, "system", "import", "--db", db, filepath.Join(dir, "broken.json"))
	if !strings.Contains(out, "broken.json: slotz: unknown key") {
		t.Errorf("broken: %q", out)
	}
	runWant(t, 1, "system", "import", "--db", db, filepath.Join(dir, "builtin.json"))
	inStore(t, db, func(tx storage.Tx) error {
		for _, c := range []struct {
			guild string
			n     int
		}{{"", 2}, {"g1", 1}} {
			if vs, err := tx.SystemVersions(c.guild, "my-march"); err != nil || len(vs) != c.n {
				t.Errorf("versions in %q: %v %v, want %d", c.guild, vs, err, c.n)
			}
		}
		if ids, err := tx.SystemIDs(""); err != nil || len(ids) != 1 {
			t.Errorf("the refused files were stored: %q %v", ids, err)
		}
		return nil
	})

	// Export writes each version as imported; it never writes over other content.
	v1 := filepath.Join(t.TempDir(), "v1.json")
	runWant(t, 0, "system", "export", "--db", db, "--version", "1", "--out", v1, "my-march")
	sameFile(t, v1, mine)
	runWant(t, 0, "system", "export", "--db", db, "--version", "1", "--out", v1, "my-march") // the same bytes: fine
	os.WriteFile(v1, []byte("edited"), 0o644)
	if out := runWant(t, 1, "system", "export", "--db", db, "--out", v1, "my-march"); !strings.Contains(out, "exists with other content") {
		t.Errorf("over an edited file: %q", out)
	}
	if got, _ := os.ReadFile(v1); string(got) != "edited" {
		t.Errorf("the edited file became %q", got)
	}
	code, stdout, _ := runCLI(t, "", "system", "export", "--db", db, "--out", "-", "my-march")
	if want, _ := os.ReadFile(revised); code != 0 || stdout != string(want) {
		t.Errorf("to standard output: exit %d, %d bytes", code, len(stdout))
	}
	t.Chdir(t.TempDir())
	runWant(t, 0, "system", "export", "--db", db, "saltmarch")
	if b, _, _ := content.LookupSystem("saltmarch"); !bytes.Equal(readFile(t, "saltmarch.json"), b.File) {
		t.Error("the built-in's export is not its file")
	}
	runWant(t, 0, "system", "export", "--db", db, "--guild", "g1", "my-march")
	sameFile(t, "my-march-v1.json", mine)
	for _, args := range [][]string{{"nope"}, {"--version", "3", "my-march"}, {"--guild", "g2", "my-march"}} {
		runWant(t, 1, append([]string{"system", "export", "--db", db}, args...)...)
	}
	runWant(t, 2, "system", "export", "--db", db)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sameFile fails unless the files at got and want hold the same bytes.
func sameFile(t *testing.T, got, want string) {
	t.Helper()
	if !bytes.Equal(readFile(t, got), readFile(t, want)) {
		t.Errorf("%s is not a copy of %s", got, want)
	}
}

// TestSystemCheckTooBig: a file over the parser's limit is refused by its true size
// (kind limit), without being read whole.
func TestSystemCheckTooBig(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), 5<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readSystemFile(big)
	var ps strictjson.Problems
	if !errors.As(err, &ps) || ps[0].Kind != strictjson.Limit || !strings.Contains(ps[0].Msg, "this one is 5120 KB") {
		t.Fatalf("%v", err)
	}
	if code, out, _ := runCLI(t, "", "system", "check", big); code != 1 || !strings.Contains(out, "at most 4096 KB; this one is 5120 KB") {
		t.Fatalf("exit %d %s", code, out)
	}
}
