package bot

import (
	"archive/zip"
	"bytes"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/storage"
)

// corpus is the public compatibility corpus (SPEC: reference/marinara), used where it is.
const corpus = "../../shared/reference/marinara"

func corpusFile(t *testing.T, name string) *Attachment {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	return &Attachment{Name: name, Data: data}
}

func TestRulesetImportFile(t *testing.T) {
	m := newCmdTable(t)
	att := corpusFile(t, "ember-roads.json")
	wantResponse(t, "import", m.runFile(ana, "ruleset import", att),
		"Installed **Ember Roads** as local/ember-roads v1: 3 abilities, 4 skills, 2 pools, 2 catalogs (11 entries), 1 layer.\n"+
			"Start a game on it with `/campaign create ruleset:ember-roads`.", false)
	wantResponse(t, "again", m.runFile(gmUser, "ruleset import", att),
		"local/ember-roads v1 (Ember Roads) is installed already, with this same content.", true)
	m.view(func(tx storage.Tx) error {
		rec, err := tx.Ruleset("guild", "local/ember-roads", 1)
		if err != nil {
			return err
		}
		if !bytes.Equal(rec.File, att.Data) || rec.Files != nil || rec.InstalledBy != "ana" || !rec.InstalledAt.Equal(cmdTime) {
			t.Errorf("record: by %q at %v, %d bytes", rec.InstalledBy, rec.InstalledAt, len(rec.File))
		}
		return nil
	})

	// Other content at the same version is refused; campaigns pinned to it never see it change.
	m.ok(gmUser, "campaign create", "ruleset", "ember-roads")
	changed := &Attachment{Name: "ember-roads.json", Data: bytes.Replace(att.Data, []byte(`"name": "Ember Roads"`), []byte(`"name": "Ember Roads Revised"`), 1)}
	if bytes.Equal(changed.Data, att.Data) {
		t.Fatal("the test's edit did not apply")
	}
	wantResponse(t, "same version, other content", m.runFile(gmUser, "ruleset import", changed),
		`local/ember-roads v1 is installed already with other content: raise version (the file's "version") and import it again; campaigns on v1 keep it unchanged`, true)

	raised := &Attachment{Name: "ember-roads.json", Data: bytes.Replace(changed.Data, []byte(`"version": 1`), []byte(`"version": 2`), 1)}
	wantResponse(t, "raised", m.runFile(gmUser, "ruleset import", raised),
		"Installed **Ember Roads Revised** as local/ember-roads v2: 3 abilities, 4 skills, 2 pools, 2 catalogs (11 entries), 1 layer.\n"+
			"Older versions stay in use by 1 campaign until a GM runs /campaign upgrade there.\n"+
			"Start a game on it with `/campaign create ruleset:ember-roads`.", false)
	if v := m.campaignRecord().Ruleset.Version; v != 1 {
		t.Errorf("the campaign moved to v%d by itself", v)
	}

	// Export gives back the exact bytes of each version.
	r := m.run(ana, "ruleset export", "id", "ember-roads", "version", "1")
	if len(r.Files) != 1 || r.Files[0].Name != "ember-roads-v1.json" || !bytes.Equal(r.Files[0].Data, att.Data) {
		t.Errorf("export v1: %q %d files", r.Content, len(r.Files))
	}
	r = m.run(ana, "ruleset export", "id", "local/ember-roads")
	if len(r.Files) != 1 || r.Files[0].Name != "ember-roads-v2.json" || !bytes.Equal(r.Files[0].Data, raised.Data) {
		t.Errorf("export newest: %q %d files", r.Content, len(r.Files))
	}
	wantResponse(t, "export missing version", m.run(ana, "ruleset export", "id", "ember-roads", "version", "7"),
		"local/ember-roads v7 is not installed", true)

	wantResponse(t, "list", m.run(ana, "ruleset list"),
		"**Rulesets**\n"+
			"`dnd5e-srd` — D&D 5e (SRD 5.1), v1 (built-in)\n"+
			"`low-vell` — Low Vell: Lamplighters of the Drowned City, v1 (built-in)\n"+
			"`local/ember-roads` — Ember Roads Revised, versions v1, v2\n"+
			"Start a game with `/campaign create ruleset:<id>`; add one with `/ruleset import`.", true)
}

func TestRulesetImportEveryCorpusFile(t *testing.T) {
	m := newCmdTable(t)
	for _, name := range []string{"ember-roads.json", "gravewatch.json", "ruleset-5e-2014.example.json"} {
		if r := m.runFile(ana, "ruleset import", corpusFile(t, name)); !strings.HasPrefix(r.Content, "Installed **") {
			t.Errorf("%s: %s", name, r.Content)
		}
	}
}

func TestRulesetImportPackage(t *testing.T) {
	m := newCmdTable(t)
	folder := &Attachment{Name: "5e-2014", Folder: os.DirFS(filepath.Join(corpus, "5e-2014"))}
	r := m.runFile(ana, "ruleset import", folder)
	wantText(t, "package import", r.Content,
		"Installed **5e (SRD 5.1)** as local/5e-2014 v5: 6 abilities, 18 skills, 12 pools, 4 catalogs (676 entries), package, Capability API 1.340.\n"+
			"Start a game on it with `/campaign create ruleset:5e-2014`.\n"+
			// The reference features.json names a column no attack list has (ruleset's
			// TestLoadCorpus pins the same problem): the import says so, and installs.
			"The picker will show mistakes instead of entries for catalog features (catalogs/features.json):\n"+
			sneakAttackProblem)
	var files map[string][]byte
	m.view(func(tx storage.Tx) error {
		rec, err := tx.Ruleset("guild", "local/5e-2014", 5)
		if err != nil {
			return err
		}
		files = rec.Files
		return nil
	})
	for _, p := range []string{"manifest.json", "ruleset.json", "catalogs/spells.json", "catalogs/features.json", "catalogs/creatures.json"} {
		want, err := os.ReadFile(filepath.Join(corpus, "5e-2014", p))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(files[p], want) {
			t.Errorf("stored %s differs from the package's", p)
		}
	}
	if len(files) != 5 {
		t.Errorf("stored %d files", len(files))
	}

	// Exported as a .zip, it imports into another database as the same content.
	r = m.run(ana, "ruleset export", "id", "5e-2014")
	if len(r.Files) != 1 || r.Files[0].Name != "5e-2014-v5.zip" {
		t.Fatalf("export: %q %+v", r.Content, len(r.Files))
	}
	wantText(t, "export text", r.Content, "local/5e-2014 v5 (5e (SRD 5.1)), a package of 5 files.")
	zipped := unzip(t, r.Files[0].Data)
	if !maps.EqualFunc(zipped, files, bytes.Equal) {
		t.Error("the exported zip does not hold the stored files")
	}
	other := newCmdTable(t)
	r = other.runFile(bo, "ruleset import", &Attachment{Name: "5e.zip", Data: r.Files[0].Data})
	if !strings.HasPrefix(r.Content, "Installed **5e (SRD 5.1)** as local/5e-2014 v5") {
		t.Errorf("zip import: %s", r.Content)
	}
	r = m.runFile(bo, "ruleset import", &Attachment{Name: "5e.zip", Data: zipUnder(t, "5e-2014/", files)})
	wantResponse(t, "zip with a top folder, same content", r, "local/5e-2014 v5 (5e (SRD 5.1)) is installed already, with this same content.", true)

	// A campaign plays it, and built-in packages export too.
	m.ok(gmUser, "campaign create", "ruleset", "local/5e-2014")
	r = m.run(ana, "ruleset export", "id", "dnd5e-srd")
	if len(r.Files) != 1 || r.Files[0].Name != "dnd5e-srd-v1.zip" || len(unzip(t, r.Files[0].Data)) != 5 {
		t.Errorf("built-in export: %q", r.Content)
	}
}

func unzip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

func zipUnder(t *testing.T, prefix string, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(prefix + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRulesetCheck(t *testing.T) {
	m := newCmdTable(t)
	wantResponse(t, "valid", m.runFile(ana, "ruleset check", corpusFile(t, "gravewatch.json")),
		"**Gravewatch** v1 is valid: 3 abilities, 6 skills, 1 pool, 1 catalog (2 entries), 1 layer.\n/ruleset import would install it as local/gravewatch v1.", true)
	m.runFile(ana, "ruleset import", corpusFile(t, "gravewatch.json"))
	wantResponse(t, "installed", m.runFile(ana, "ruleset check", corpusFile(t, "gravewatch.json")),
		"**Gravewatch** v1 is valid: 3 abilities, 6 skills, 1 pool, 1 catalog (2 entries), 1 layer.\nIt is installed as local/gravewatch v1 already.", true)

	broken := corpusFile(t, "gravewatch.json")
	broken.Data = bytes.Replace(broken.Data, []byte(`"label"`), []byte(`"lable"`), 2)
	r := m.runFile(ana, "ruleset check", broken)
	wantText(t, "broken", r.Content, "That ruleset has mistakes:\n"+
		"resolution.proficiencyTiers[0] (rating_0).label: required\n"+
		"resolution.proficiencyTiers[0] (rating_0).lable: unknown key\n"+
		"resolution.proficiencyTiers[1] (rating_1).label: required\n"+
		"resolution.proficiencyTiers[1] (rating_1).lable: unknown key")
	if !r.Ephemeral {
		t.Error("check answers the author alone")
	}
	if got := m.runFile(ana, "ruleset import", broken).Content; !strings.HasPrefix(got, "That ruleset cannot be installed:\nresolution.proficiencyTiers[0] (rating_0).label: required") {
		t.Errorf("import of a broken file: %s", got)
	}

	// Many problems: the message holds what fits, the file holds them all.
	worse := corpusFile(t, "ruleset-5e-2014.example.json")
	worse.Data = bytes.ReplaceAll(worse.Data, []byte(`"label"`), []byte(`"lable"`))
	r = m.runFile(ana, "ruleset check", worse)
	if len(r.Content) > maxShownText+60 || !strings.HasSuffix(r.Content, "… (the full list is in problems.txt)") ||
		len(r.Files) != 1 || r.Files[0].Name != "problems.txt" || strings.Count(string(r.Files[0].Data), "unknown key") < 100 {
		t.Errorf("long problem list: %d characters, %d files", len(r.Content), len(r.Files))
	}
	if got := m.runFile(ana, "ruleset check", &Attachment{Name: "x.zip", Data: []byte("PK\x03\x04 not really")}).Content; !strings.HasPrefix(got, "That ruleset has mistakes:\n") {
		t.Errorf("bad zip: %s", got)
	}
}

// sneakAttackProblem is the one mistake of the reference package's features.json (the
// ruleset package's TestLoadCorpus pins it too).
const sneakAttackProblem = `entries[159] (features/rogue-sneak-attack).mechanics.rider.requires.column: no attack list this rider reads has a column "finesse_or_ranged"`
