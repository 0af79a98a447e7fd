package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

func TestVersion(t *testing.T) {
	order := []string{"0.0", "1.0", "1.9", "1.10", "1.92", "1.171", "1.339", "1.340", "1.341", "2.0"}
	for i, a := range order {
		va, err := ParseVersion(a)
		if err != nil {
			t.Fatal(err)
		}
		if va.String() != a {
			t.Errorf("ParseVersion(%q).String() = %q", a, va.String())
		}
		for j, b := range order {
			vb, _ := ParseVersion(b)
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := va.Compare(vb); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
		}
	}
	for _, bad := range []string{"", "1", "1.", ".1", "1.2.3", "01.2", "1.02", "-1.2", "1.x", " 1.2", "1.2 ", "+1.2", "1234567890.1"} {
		if v, err := ParseVersion(bad); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want error", bad, v)
		}
	}
	if Engine().String() != "1.340" {
		t.Errorf("Engine = %s", Engine())
	}
	for _, c := range []struct {
		v    string
		want bool
	}{{"1.0", true}, {"1.92", true}, {"1.340", true}, {"1.341", false}, {"2.0", false}, {"0.5", false}} {
		v, _ := ParseVersion(c.v)
		if got := Engine().Supports(v); got != c.want {
			t.Errorf("Engine.Supports(%s) = %v", c.v, got)
		}
	}
	if !(Version{1, 171}).AtLeast(Version{1, 92}) || (Version{1, 92}).AtLeast(Version{1, 171}) {
		t.Error("AtLeast compares minors as decimals")
	}
}

func TestParseReferenceManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(refDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseManifest(data)
	if err != nil {
		t.Fatalf("the real 5e manifest is refused:\n%v", err)
	}
	if m.ID != "ruleset-5e-2014" || m.CapabilityAPI != (Version{1, 340}) || m.Version != "0.5.0" {
		t.Errorf("manifest = %+v", m)
	}
	if got := strings.Join(m.CatalogIDs(), ","); got != "spells,features,creatures" {
		t.Errorf("CatalogIDs = %s", got)
	}
	if f, ok := m.File("catalogs/creatures.json"); !ok || f.Bytes != 683084 {
		t.Errorf("File(creatures) = %+v %v", f, ok)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	// It survives a round trip through encoding/json.
	again, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseManifest(again); err != nil {
		t.Errorf("re-encoded manifest refused: %v", err)
	}
}

func TestSmallPackageManifestIsValid(t *testing.T) {
	p := smallPkg()
	if _, err := ParseManifest(p.manifestBytes(t)); err != nil {
		t.Fatal(err)
	}
}

// TestManifestRules breaks one rule at a time and asserts the exact report.
func TestManifestRules(t *testing.T) {
	big := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name  string
		edit  func(p *pkg)
		want  []string
		kinds []strictjson.Kind
	}{
		{"schemaVersion 1", func(p *pkg) { p.manifest["schemaVersion"] = 1 },
			[]string{"schemaVersion: must be 2"}, []strictjson.Kind{strictjson.Malformed}},
		{"schemaVersion string", func(p *pkg) { p.manifest["schemaVersion"] = "2" },
			[]string{"schemaVersion: expected an integer, got a string"}, []strictjson.Kind{strictjson.Malformed}},
		{"unknown top-level key", func(p *pkg) { p.manifest["homepage"] = "x" },
			[]string{"homepage: unknown key"}, []strictjson.Kind{strictjson.Malformed}},
		{"unknown nested key", func(p *pkg) { p.manifest["builtAgainst"].(map[string]any)["branch"] = "main" },
			[]string{"builtAgainst.branch: unknown key"}, []strictjson.Kind{strictjson.Malformed}},
		{"unknown file key", func(p *pkg) { p.file(1)["mode"] = 420 },
			[]string{"files[1].mode: unknown key"}, []strictjson.Kind{strictjson.Malformed}},
		{"missing id", func(p *pkg) { delete(p.manifest, "id") },
			[]string{"id: required"}, []strictjson.Kind{strictjson.Malformed}},
		{"missing builtAgainst", func(p *pkg) { delete(p.manifest, "builtAgainst") },
			[]string{"builtAgainst: required"}, []strictjson.Kind{strictjson.Malformed}},
		{"missing capabilityApi", func(p *pkg) { delete(p.manifest, "capabilityApi") },
			[]string{"capabilityApi: required"}, []strictjson.Kind{strictjson.Malformed}},
		{"bad id", func(p *pkg) { p.manifest["id"] = "Tiny_Rules" },
			[]string{"id: must be lowercase letters and digits in words joined by single hyphens"}, []strictjson.Kind{strictjson.Malformed}},
		{"long id", func(p *pkg) { p.manifest["id"] = big(81) },
			[]string{"id: must be at most 80 characters"}, []strictjson.Kind{strictjson.Malformed}},
		{"empty name", func(p *pkg) { p.manifest["name"] = "" },
			[]string{"name: must be 1 to 120 characters"}, []strictjson.Kind{strictjson.Malformed}},
		{"long name", func(p *pkg) { p.manifest["name"] = big(121) },
			[]string{"name: must be 1 to 120 characters"}, []strictjson.Kind{strictjson.Malformed}},
		{"name null", func(p *pkg) { p.manifest["name"] = nil },
			[]string{"name: expected a string, got null"}, []strictjson.Kind{strictjson.Malformed}},
		{"bad version", func(p *pkg) { p.manifest["version"] = "1.0" },
			[]string{"version: must be a version like 1.2.3 or 1.2.3-beta.1"}, []strictjson.Kind{strictjson.Malformed}},
		{"long description", func(p *pkg) { p.manifest["description"] = big(2001) },
			[]string{"description: must be at most 2000 characters"}, []strictjson.Kind{strictjson.Malformed}},
		{"bad engine version", func(p *pkg) { p.manifest["builtAgainst"].(map[string]any)["engineVersion"] = "v2" },
			[]string{"builtAgainst.engineVersion: must be a version like 2.4.6"}, []strictjson.Kind{strictjson.Malformed}},
		{"bad engine commit", func(p *pkg) { p.manifest["builtAgainst"].(map[string]any)["engineCommit"] = "E931F956" },
			[]string{"builtAgainst.engineCommit: must be a 40-character lowercase hex commit"}, []strictjson.Kind{strictjson.Malformed}},
		{"empty engine.min", func(p *pkg) { p.manifest["engine"].(map[string]any)["min"] = "" },
			[]string{"engine.min: must not be empty"}, []strictjson.Kind{strictjson.Malformed}},
		{"engine without maxExclusive", func(p *pkg) { delete(p.manifest["engine"].(map[string]any), "maxExclusive") },
			[]string{"engine.maxExclusive: required"}, []strictjson.Kind{strictjson.Malformed}},
		{"kind agent", func(p *pkg) { p.manifest["kind"] = []any{"agent"} },
			[]string{`kind: must be ["ruleset"]: a ruleset package has no other kind`}, []strictjson.Kind{strictjson.Malformed}},
		{"kind twice", func(p *pkg) { p.manifest["kind"] = []any{"ruleset", "maps"} },
			[]string{`kind: must be ["ruleset"]: a ruleset package has no other kind`}, []strictjson.Kind{strictjson.Malformed}},
		{"kind unknown", func(p *pkg) { p.manifest["kind"] = []any{"ruleset", "bogus"} },
			[]string{`kind[1]: "bogus" is not one of agent, maps, conversation-calls, turn-game, ruleset`}, []strictjson.Kind{strictjson.Malformed}},
		{"kind not array", func(p *pkg) { p.manifest["kind"] = "ruleset" },
			[]string{"kind: expected an array, got a string"}, []strictjson.Kind{strictjson.Malformed}},
		{"entrypoint", func(p *pkg) { p.manifest["entrypoints"] = map[string]any{"server": "index.js"} },
			[]string{"entrypoints: must be empty: a ruleset package ships only data"}, []strictjson.Kind{strictjson.Malformed}},
		{"unknown entrypoint", func(p *pkg) { p.manifest["entrypoints"] = map[string]any{"worker": "w.js"} },
			[]string{"entrypoints.worker: unknown key"}, []strictjson.Kind{strictjson.Malformed}},
		{"permission", func(p *pkg) { p.manifest["permissions"] = []any{"network"} },
			[]string{"permissions: must be empty: a ruleset package ships only data"}, []strictjson.Kind{strictjson.Malformed}},
		{"unknown permission", func(p *pkg) { p.manifest["permissions"] = []any{"root"} },
			[]string{`permissions[0]: "root" is not a known permission`, "permissions: must be empty: a ruleset package ships only data"}, []strictjson.Kind{strictjson.Malformed}},
		{"restartRequired", func(p *pkg) { p.manifest["restartRequired"] = true },
			[]string{"restartRequired: must be false: a ruleset package ships only data"}, []strictjson.Kind{strictjson.Malformed}},
		{"no restartRequired", func(p *pkg) { delete(p.manifest, "restartRequired") }, nil, nil},
		{"restartRequired string", func(p *pkg) { p.manifest["restartRequired"] = "no" },
			[]string{"restartRequired: expected a boolean, got a string"}, []strictjson.Kind{strictjson.Malformed}},
		{"localization ok", func(p *pkg) {
			p.manifest["localizations"] = map[string]any{"fr": map[string]any{"name": "Petit", "description": "Un jeu"}}
		}, nil, nil},
		{"localization bad", func(p *pkg) {
			p.manifest["localizations"] = map[string]any{"f": map[string]any{}, "de": map[string]any{"name": "", "slogan": "x"}}
		}, []string{"localizations.de.slogan: unknown key", "localizations.de.name: must be 1 to 120 characters", "localizations.f: a locale is 2 to 35 characters"}, []strictjson.Kind{strictjson.Malformed}},
		{"localization without name", func(p *pkg) {
			p.manifest["localizations"] = map[string]any{"fr": map[string]any{"description": "Un jeu"}}
		}, nil, nil},
		{"localization home tab", func(p *pkg) {
			p.manifest["localizations"] = map[string]any{"fr": map[string]any{"homeWidgets": map[string]any{}}}
		}, []string{"localizations.fr.homeWidgets: a ruleset package has no Home tab or widgets"}, []strictjson.Kind{strictjson.Malformed}},
		{"other contribution", func(p *pkg) {
			p.manifest["contributions"].(map[string]any)["slots"] = []any{"chat-settings"}
		}, []string{"contributions.slots: a ruleset package contributes only assets"}, []strictjson.Kind{strictjson.Malformed}},
		{"unknown contribution", func(p *pkg) {
			p.manifest["contributions"].(map[string]any)["themes"] = []any{}
		}, []string{"contributions.themes: unknown key"}, []strictjson.Kind{strictjson.Malformed}},
		{"no contributions", func(p *pkg) { delete(p.manifest, "contributions") },
			[]string{"contributions: required: a ruleset package lists ruleset.json in contributions.assets.paths"}, []strictjson.Kind{strictjson.Malformed}},
		{"no files", func(p *pkg) { p.manifest["files"] = []any{} },
			[]string{
				"files: must list at least one file",
				`contributions.assets.paths[0]: "ruleset.json" is not listed in files with its sha256 and bytes`,
				`contributions.assets.paths[1]: "catalogs/spells.json" is not listed in files with its sha256 and bytes`,
				`contributions.assets.paths[2]: "catalogs/knacks.json" is not listed in files with its sha256 and bytes`,
			}, []strictjson.Kind{strictjson.Malformed}},
		{"sha256 upper case", func(p *pkg) { p.file(0)["sha256"] = strings.ToUpper(p.file(0)["sha256"].(string)) },
			[]string{"files[0].sha256: must be 64 lowercase hex digits"}, []strictjson.Kind{strictjson.Malformed}},
		{"sha256 short", func(p *pkg) { p.file(2)["sha256"] = "abc" },
			[]string{"files[2].sha256: must be 64 lowercase hex digits"}, []strictjson.Kind{strictjson.Malformed}},
		{"bytes string", func(p *pkg) { p.file(0)["bytes"] = "13" },
			[]string{"files[0].bytes: expected an integer, got a string"}, []strictjson.Kind{strictjson.Malformed}},
		{"bytes fraction", func(p *pkg) { p.file(0)["bytes"] = 13.5 },
			[]string{"files[0].bytes: expected an integer, got 13.5"}, []strictjson.Kind{strictjson.Malformed}},
		{"bytes negative", func(p *pkg) { p.file(0)["bytes"] = -1 },
			[]string{"files[0].bytes: must be at least 0"}, []strictjson.Kind{strictjson.Malformed}},
		{"bytes gigabytes", func(p *pkg) { p.file(1)["bytes"] = 5_000_000_000 },
			[]string{"files[1].bytes: must be at most 104857600"}, []strictjson.Kind{strictjson.Limit}},
		{"file missing sha256", func(p *pkg) { delete(p.file(1), "sha256") },
			[]string{"files[1].sha256: required"}, []strictjson.Kind{strictjson.Malformed}},
		{"file not object", func(p *pkg) { p.filesOf()[1] = "catalogs/spells.json" },
			[]string{"files[1]: expected an object, got a string", `contributions.assets.paths[1]: "catalogs/spells.json" is not listed in files with its sha256 and bytes`}, []strictjson.Kind{strictjson.Malformed}},
		{"duplicate file", func(p *pkg) {
			p.manifest["files"] = append(p.filesOf(), map[string]any{"path": "ruleset.json", "sha256": strings.Repeat("0", 64), "bytes": 1})
		}, []string{`files[3].path: "ruleset.json" is already listed at files[0]`}, []strictjson.Kind{strictjson.Malformed}},
		{"duplicate asset", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "ruleset.json")) },
			[]string{`contributions.assets.paths[3]: "ruleset.json" is already listed at contributions.assets.paths[0]`}, []strictjson.Kind{strictjson.Malformed}},
		{"asset not in files", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "catalogs/extra.json")) },
			[]string{`contributions.assets.paths[3]: "catalogs/extra.json" is not listed in files with its sha256 and bytes`}, []strictjson.Kind{strictjson.Malformed}},
		{"file not in assets", func(p *pkg) { p.setAssetPaths(p.assetPaths()[:2]) },
			[]string{`files[2]: "catalogs/knacks.json" is not listed in contributions.assets.paths`}, []strictjson.Kind{strictjson.Malformed}},
		{"ruleset not in assets", func(p *pkg) { p.setAssetPaths(p.assetPaths()[1:]) },
			[]string{"contributions.assets.paths: must list ruleset.json", `files[0]: "ruleset.json" is not listed in contributions.assets.paths`}, []strictjson.Kind{strictjson.Malformed}},
		{"empty assets", func(p *pkg) { p.setAssetPaths([]any{}) },
			[]string{"contributions.assets.paths: must list at least ruleset.json"}, []strictjson.Kind{strictjson.Malformed}},
		{"escaping path", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "../x.json")) },
			[]string{`contributions.assets.paths[3]: "../x.json" escapes the package`}, []strictjson.Kind{strictjson.Unsafe}},
		{"escaping path inside", func(p *pkg) { p.file(1)["path"] = "catalogs/../../etc/passwd" },
			[]string{`files[1].path: "catalogs/../../etc/passwd" escapes the package`, `contributions.assets.paths[1]: "catalogs/spells.json" is not listed in files with its sha256 and bytes`}, []strictjson.Kind{strictjson.Unsafe, strictjson.Malformed}},
		{"absolute path", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "/etc/passwd")) },
			[]string{`contributions.assets.paths[3]: "/etc/passwd" is absolute`}, []strictjson.Kind{strictjson.Unsafe}},
		{"drive path", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "C:/x.json")) },
			[]string{`contributions.assets.paths[3]: "C:/x.json" is absolute`}, []strictjson.Kind{strictjson.Unsafe}},
		{"backslash path", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), `catalogs\x.json`)) },
			[]string{`contributions.assets.paths[3]: "catalogs\\x.json" uses a backslash; package paths use /`}, []strictjson.Kind{strictjson.Unsafe}},
		{"unclean path", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "./ruleset.json")) },
			[]string{`contributions.assets.paths[3]: "./ruleset.json" is not a clean relative path`}, []strictjson.Kind{strictjson.Unsafe}},
		{"control character", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "a\x00.json")) },
			[]string{`contributions.assets.paths[3]: "a\x00.json" holds a control character`}, []strictjson.Kind{strictjson.Unsafe}},
		{"other file", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "art/map.png")) },
			[]string{`contributions.assets.paths[3]: "art/map.png" is neither ruleset.json nor catalogs/<id>.json`}, []strictjson.Kind{strictjson.Malformed}},
		{"bad catalog id", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "catalogs/Spells.json")) },
			[]string{`contributions.assets.paths[3]: "catalogs/Spells.json" is not catalogs/<id>.json with an id of a lowercase letter then up to 39 lowercase letters, digits or underscores`}, []strictjson.Kind{strictjson.Malformed}},
		{"nested catalog", func(p *pkg) { p.setAssetPaths(append(p.assetPaths(), "catalogs/a/b.json")) },
			[]string{`contributions.assets.paths[3]: "catalogs/a/b.json" is not catalogs/<id>.json with an id of a lowercase letter then up to 39 lowercase letters, digits or underscores`}, []strictjson.Kind{strictjson.Malformed}},
		{"manifest listed", func(p *pkg) { p.file(0)["path"] = "manifest.json" },
			[]string{`files[0].path: "manifest.json" is neither ruleset.json nor catalogs/<id>.json`, `contributions.assets.paths[0]: "ruleset.json" is not listed in files with its sha256 and bytes`}, []strictjson.Kind{strictjson.Malformed}},
		{"api 1.341", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 341} },
			[]string{"capabilityApi: the package requires Capability API 1.341; this engine implements 1.340"}, []strictjson.Kind{strictjson.TooNew}},
		{"api 2.0", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 2, "minor": 0} },
			[]string{"capabilityApi: the package requires Capability API 2.0; this engine implements 1.340"}, []strictjson.Kind{strictjson.TooNew}},
		{"api major 0", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 0, "minor": 340} },
			[]string{"capabilityApi.major: must be at least 1"}, []strictjson.Kind{strictjson.Malformed}},
		{"api minor negative", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": -1} },
			[]string{"capabilityApi.minor: must be at least 0"}, []strictjson.Kind{strictjson.Malformed}},
		{"api patch", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 340, "patch": 1} },
			[]string{"capabilityApi.patch: unknown key"}, []strictjson.Kind{strictjson.Malformed}},
		{"api string", func(p *pkg) { p.manifest["capabilityApi"] = "1.340" },
			[]string{"capabilityApi: expected an object, got a string"}, []strictjson.Kind{strictjson.Malformed}},
		{"api 1.20 with catalogs", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 20} },
			[]string{"contributions.assets.paths: catalog files (catalogs/<id>.json) need Capability API 1.21; the package declares 1.20"}, []strictjson.Kind{strictjson.Malformed}},
		{"api 1.9", func(p *pkg) { p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 9} },
			[]string{
				"contributions.assets.paths: contributions.assets needs Capability API 1.10; the package declares 1.9",
				"contributions.assets.paths: ruleset.json needs Capability API 1.20; the package declares 1.9",
				"contributions.assets.paths: catalog files (catalogs/<id>.json) need Capability API 1.21; the package declares 1.9",
			}, []strictjson.Kind{strictjson.Malformed}},
		// Size limits, against declared bytes, with and without 1.340.
		{"ruleset 256 KB at 1.339", func(p *pkg) {
			p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 339}
			p.file(0)["bytes"] = 256 << 10
		}, nil, nil},
		{"ruleset over 256 KB at 1.339", func(p *pkg) {
			p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 339}
			p.file(0)["bytes"] = 256<<10 + 1
		}, []string{`files[0].bytes: "ruleset.json" declares 262145 bytes, over the 262144-byte limit; Capability API 1.340 raises it to 524288`}, []strictjson.Kind{strictjson.Limit}},
		{"ruleset over 256 KB at 1.340", func(p *pkg) { p.file(0)["bytes"] = 256<<10 + 1 }, nil, nil},
		{"ruleset over 512 KB at 1.340", func(p *pkg) { p.file(0)["bytes"] = 512<<10 + 1 },
			[]string{`files[0].bytes: "ruleset.json" declares 524289 bytes, over the 524288-byte limit`}, []strictjson.Kind{strictjson.Limit}},
		{"catalog over 1 MB at 1.92", func(p *pkg) {
			p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 92}
			p.file(1)["bytes"] = 1<<20 + 1
		}, []string{`files[1].bytes: "catalogs/spells.json" declares 1048577 bytes, over the 1048576-byte limit; Capability API 1.340 raises it to 2097152`}, []strictjson.Kind{strictjson.Limit}},
		{"catalog 2 MB at 1.340", func(p *pkg) { p.file(1)["bytes"] = 2 << 20 }, nil, nil},
		{"catalog over 2 MB at 1.340", func(p *pkg) { p.file(2)["bytes"] = 3 << 20 },
			[]string{`files[2].bytes: "catalogs/knacks.json" declares 3145728 bytes, over the 2097152-byte limit`}, []strictjson.Kind{strictjson.Limit}},
		{"13 catalogs", func(p *pkg) {
			files, paths := p.filesOf(), p.assetPaths()
			for i := 0; i < 11; i++ {
				name := fmt.Sprintf("catalogs/c%d.json", i)
				files = append(files, map[string]any{"path": name, "sha256": strings.Repeat("a", 64), "bytes": 2})
				paths = append(paths, name)
			}
			p.manifest["files"] = files
			p.setAssetPaths(paths)
		}, []string{
			"files: lists 14 files; a ruleset package has at most 13 (ruleset.json and 12 catalogs)",
			"contributions.assets.paths: lists 13 catalog files, more than the 12 a ruleset may have",
		}, []strictjson.Kind{strictjson.Limit}},
		{"several at once", func(p *pkg) {
			p.manifest["schemaVersion"] = 3
			p.manifest["id"] = "X"
			p.manifest["colour"] = "red"
			p.file(1)["sha256"] = "nope"
			p.file(2)["bytes"] = "big"
			p.manifest["capabilityApi"] = map[string]any{"major": 1, "minor": 999}
		}, []string{
			"colour: unknown key",
			"files[2].bytes: must be an integer",
			"schemaVersion: must be 3",
		}, nil},
	}
	// "several at once" is fixed up below: the expected list is built from
	// the order problems are found (decoding first, in document order, then
	// the rules in a fixed order).
	cases[len(cases)-1].want = []string{
		"colour: unknown key",
		"files[2].bytes: expected an integer, got a string",
		"schemaVersion: must be 2",
		"capabilityApi: the package requires Capability API 1.999; this engine implements 1.340",
		"id: must be lowercase letters and digits in words joined by single hyphens",
		"files[1].sha256: must be 64 lowercase hex digits",
	}
	cases[len(cases)-1].kinds = []strictjson.Kind{strictjson.Malformed, strictjson.TooNew}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := smallPkg()
			c.edit(p)
			m, err := ParseManifest(p.manifestBytes(t))
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused:\n%v", err)
				}
				if err := m.Validate(); err != nil {
					t.Fatalf("Validate refuses what ParseManifest accepted:\n%v", err)
				}
				return
			}
			if m != nil {
				t.Error("a manifest came back with the error")
			}
			wantProblems(t, err, c.want...)
			for _, k := range c.kinds {
				if !errors.Is(err, k) {
					t.Errorf("errors.Is(err, %v) = false", k)
				}
			}
			for _, k := range []strictjson.Kind{strictjson.Malformed, strictjson.TooNew, strictjson.Limit, strictjson.Integrity, strictjson.Unsafe, strictjson.Archive} {
				if !contains(kindStrings(c.kinds), k.String()) && errors.Is(err, k) && len(c.kinds) > 0 {
					t.Errorf("errors.Is(err, %v) = true, unexpected", k)
				}
			}
		})
	}
}

func kindStrings(ks []strictjson.Kind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.String())
	}
	return out
}

// TestManifestHostile covers manifests that are not JSON, too big, too deep
// or very long arrays.
func TestManifestHostile(t *testing.T) {
	t.Run("not JSON", func(t *testing.T) {
		_, err := ParseManifest([]byte("{hello"))
		wantProblems(t, err, "manifest.json: invalid JSON at line 1, column 2: expected a key in quotes")
	})
	t.Run("empty", func(t *testing.T) {
		_, err := ParseManifest(nil)
		wantProblems(t, err, "manifest.json: invalid JSON at line 1, column 1: unexpected end of input")
	})
	t.Run("array", func(t *testing.T) {
		_, err := ParseManifest([]byte(`[1,2]`))
		wantProblems(t, err, "manifest.json: expected an object, got an array")
	})
	t.Run("too big", func(t *testing.T) {
		data := []byte(`{"description":"` + strings.Repeat("x", MaxManifestBytes) + `"}`)
		_, err := ParseManifest(data)
		wantProblems(t, err, fmt.Sprintf("manifest.json: is %d bytes, over the 65536-byte limit", len(data)))
		if !errors.Is(err, strictjson.Limit) {
			t.Error("not a strictjson.Limit")
		}
	})
	t.Run("deep", func(t *testing.T) {
		data := []byte(`{"id":` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `}`)
		_, err := ParseManifest(data)
		wantProblems(t, err, "manifest.json: invalid JSON at line 1, column 23: nested deeper than 16 levels")
	})
	t.Run("very deep", func(t *testing.T) {
		data := []byte(strings.Repeat("[", 30000) + strings.Repeat("]", 30000))
		_, err := ParseManifest(data)
		if !errors.Is(err, strictjson.Malformed) {
			t.Fatalf("not refused as malformed: %v", err)
		}
		problemsOf(t, err)
	})
	t.Run("brackets in strings do not count", func(t *testing.T) {
		p := smallPkg()
		p.manifest["description"] = strings.Repeat(`[{"\`, 100)
		if _, err := ParseManifest(p.manifestBytes(t)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("huge files array", func(t *testing.T) {
		p := smallPkg()
		files := make([]any, 15000)
		for i := range files {
			files[i] = map[string]any{}
		}
		p.manifest["files"] = files
		_, err := ParseManifest(p.manifestBytes(t))
		got := problemsOf(t, err)
		if len(got) != maxProblems+1 {
			t.Fatalf("%d problems", len(got))
		}
		if got[0] != "files[0].path: required" || !strings.HasPrefix(got[maxProblems], "and ") || !strings.HasSuffix(got[maxProblems], " more problems") {
			t.Fatalf("got %q … %q", got[0], got[maxProblems])
		}
	})
	t.Run("duplicate key", func(t *testing.T) {
		p := smallPkg()
		data := p.manifestBytes(t)
		data = append([]byte(`{"id":"other",`), data[1:]...)
		_, err := ParseManifest(data)
		wantProblems(t, err, "id: duplicate key")
		p.manifest["localizations"] = map[string]any{"fr": map[string]any{"name": "Petit"}}
		data = bytes.Replace(p.manifestBytes(t), []byte(`{"fr":`), []byte(`{"fr":{},"fr":`), 1)
		_, err = ParseManifest(data)
		wantProblems(t, err, "localizations.fr: duplicate key")
	})
	t.Run("number forms", func(t *testing.T) {
		p := smallPkg()
		data := strings.Replace(string(p.manifestBytes(t)), `"minor":340`, `"minor":3.4e2`, 1)
		m, err := ParseManifest([]byte(data))
		if err != nil || m.CapabilityAPI.Minor != 340 {
			t.Fatalf("3.4e2: %v %v", m, err)
		}
		data = strings.Replace(string(p.manifestBytes(t)), `"minor":340`, `"minor":1e400`, 1)
		_, err = ParseManifest([]byte(data))
		wantProblems(t, err, "capabilityApi.minor: number 1e400 is out of range")
	})
}
