package bundle

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

// refDir is the official 5e package, read in place.
const refDir = "../../../shared/reference/marinara/5e-2014"

// pkg is a package under construction: its files, and a manifest as generic
// JSON so a test can break it any way it likes.
type pkg struct {
	files    map[string][]byte
	manifest map[string]any
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// smallPkg is a valid package: a ruleset and two catalogs.
func smallPkg() *pkg {
	files := map[string][]byte{
		"ruleset.json":         []byte(`{"id":"tiny"}`),
		"catalogs/spells.json": []byte(`{"schemaVersion":1,"catalog":"spells","entries":[]}`),
		"catalogs/knacks.json": []byte(`{"schemaVersion":1,"catalog":"knacks","entries":[]}`),
	}
	order := []string{"ruleset.json", "catalogs/spells.json", "catalogs/knacks.json"}
	var list []any
	var paths []any
	for _, p := range order {
		list = append(list, map[string]any{"path": p, "sha256": sum(files[p]), "bytes": len(files[p])})
		paths = append(paths, p)
	}
	return &pkg{files: files, manifest: map[string]any{
		"schemaVersion": 2,
		"capabilityApi": map[string]any{"major": 1, "minor": 340},
		"builtAgainst": map[string]any{
			"engineVersion": "2.4.6",
			"engineCommit":  "e931f956c59a4569c08fcd0260d792cd78d4a97c",
		},
		"id":              "ruleset-tiny",
		"name":            "Tiny",
		"version":         "1.0.0",
		"engine":          map[string]any{"min": "2.4.6", "maxExclusive": "4.0.0"},
		"kind":            []any{"ruleset"},
		"entrypoints":     map[string]any{},
		"contributions":   map[string]any{"assets": map[string]any{"paths": paths}},
		"files":           list,
		"permissions":     []any{},
		"restartRequired": false,
	}}
}

// refPkg loads the real 5e package's files.
func refPkg(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, p := range []string{"manifest.json", "ruleset.json", "catalogs/spells.json", "catalogs/features.json", "catalogs/creatures.json"} {
		b, err := os.ReadFile(filepath.Join(refDir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	return out
}

func (p *pkg) manifestBytes(t testing.TB) []byte {
	t.Helper()
	b, err := json.Marshal(p.manifest)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// all returns every file including manifest.json.
func (p *pkg) all(t testing.TB) map[string][]byte {
	out := map[string][]byte{"manifest.json": p.manifestBytes(t)}
	for k, v := range p.files {
		out[k] = v
	}
	return out
}

// filesOf returns the manifest's files list, for editing.
func (p *pkg) filesOf() []any { return p.manifest["files"].([]any) }

func (p *pkg) file(i int) map[string]any { return p.filesOf()[i].(map[string]any) }

func (p *pkg) assetPaths() []any {
	return p.manifest["contributions"].(map[string]any)["assets"].(map[string]any)["paths"].([]any)
}

func (p *pkg) setAssetPaths(paths []any) {
	p.manifest["contributions"].(map[string]any)["assets"].(map[string]any)["paths"] = paths
}

// writeDir writes files into a new folder and returns it.
func writeDir(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkg")
	for name, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// openDir reads the package in dir the way a front end opens a folder: through
// an os.Root, which refuses links leading outside it.
func openDir(t testing.TB, dir string) (*Bundle, error) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return FromFS(root.FS())
}

// zipBytes builds a deflated zip of files, each under prefix, in name order.
func zipBytes(t testing.TB, prefix string, files map[string][]byte) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(prefix + n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(files[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// problemsOf returns err's problems as lines, failing the test when err is
// not a strictjson.Problems.
func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	var perr strictjson.Problems
	if !errors.As(err, &perr) {
		t.Fatalf("error %v (%T) is not a strictjson.Problems", err, err)
	}
	out := make([]string, len(perr))
	for i, p := range perr {
		out[i] = p.String()
	}
	return out
}

func wantProblems(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want %q", want)
	}
	got := problemsOf(t, err)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n  got  %q\n  want %q", got, want)
	}
}

// wantKind fails the test unless some problem of err is of kind k.
func wantKind(t *testing.T, err error, k strictjson.Kind) {
	t.Helper()
	if !errors.Is(err, k) {
		t.Fatalf("no %s problem in:\n%v", k, err)
	}
}
