package console

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/bot"
	"sheetkeeper/storage/bolt"
)

// TestExportWritesFile: /ruleset export and /system export write the file they name to
// the Out folder, byte for byte what was imported; a file there with other content is
// kept and the answer says it was not written; without Out nothing is written.
func TestExportWritesFile(t *testing.T) {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	out := t.TempDir()
	con := New(bot.New(store, bot.Options{}), Options{Dir: "testdata", Out: out, Session: "s"})
	ctx := context.Background()
	do := func(line string) *Event {
		t.Helper()
		ev := con.Do(ctx, line)
		if ev.Error != "" {
			t.Fatalf("%s: %s", line, ev.Error)
		}
		return ev
	}
	do("gm: /ruleset import file:rulesets/saltmarsh-v1.json")
	do("gm: /system import file:systems/tinker.json")
	for _, c := range []struct{ line, file, from string }{
		{"gm: /ruleset export id:saltmarsh", "saltmarsh-v1.json", "testdata/rulesets/saltmarsh-v1.json"},
		{"gm: /system export id:tinker", "tinker-v1.json", "testdata/systems/tinker.json"},
	} {
		ev := do(c.line)
		if f := ev.Posts[0].Files; len(f) != 1 || f[0].Name != c.file || !f[0].Written {
			t.Fatalf("%s: files %+v", c.line, f)
		}
		got, err := os.ReadFile(filepath.Join(out, c.file))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(c.from)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s wrote %d bytes, not the %d imported", c.line, len(got), len(want))
		}
		// The same export again finds its own file: written, unchanged.
		if f := do(c.line).Posts[0].Files; !f[0].Written {
			t.Errorf("%s again: %+v", c.line, f)
		}
	}

	edited := filepath.Join(out, "tinker-v1.json")
	if err := os.WriteFile(edited, []byte("my edits"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := do("gm: /system export id:tinker version:1").Posts[0].Files
	if f[0].Written || !strings.Contains(f[0].NotWritten, "there already, with other content") {
		t.Errorf("over an edited file: %+v", f)
	}
	if got, _ := os.ReadFile(edited); string(got) != "my edits" {
		t.Errorf("the edited file became %q", got)
	}

	if err := writeNew(out, bot.File{Name: "../escape.json", Data: []byte("{}")}); err == nil {
		t.Error("a name reaching outside the folder was written")
	}

	quiet := New(bot.New(store, bot.Options{}), Options{Dir: "testdata", Session: "q"})
	if f := quiet.Do(ctx, "gm: /system export id:saltmarch").Posts[0].Files; f[0].Written || f[0].NotWritten != "" {
		t.Errorf("without Out: %+v", f)
	}
}
