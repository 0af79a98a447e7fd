package bundle

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sheetkeeper/parser"
	"sheetkeeper/strictjson"
)

// Limits. The byte limits on package files are checked against the bytes the
// manifest declares before anything is read, and enforced again while reading.
const (
	// MaxManifestBytes is the largest manifest.json read.
	MaxManifestBytes = 64 << 10
	// MaxManifestDepth is how deeply manifest.json may nest objects and arrays
	// (a real one nests four deep).
	MaxManifestDepth = 16
	// MaxRulesetBytes is the ruleset.json limit in a package declaring a
	// Capability API older than 1.340; MaxRulesetBytesRaised from it on.
	MaxRulesetBytes       = 256 << 10
	MaxRulesetBytesRaised = 512 << 10
	// MaxCatalogBytes is the limit of one catalogs/<id>.json in a package
	// declaring a Capability API older than 1.340;
	// MaxCatalogBytesRaised from it on.
	MaxCatalogBytes       = 1 << 20
	MaxCatalogBytesRaised = 2 << 20
	// MaxCatalogs is how many catalog files a package may ship.
	MaxCatalogs = 12
	// MaxDeclaredBytes bounds files[].bytes whatever the file (Marinara's bound).
	MaxDeclaredBytes = 100 << 20
	// MaxAssetPaths bounds contributions.assets.paths (Marinara's bound).
	MaxAssetPaths = 256
	// MaxPathLength bounds a declared path, in characters (Marinara's bound).
	MaxPathLength = 240
)

// RulesetPath is the reserved path of a package's ruleset.
const RulesetPath = "ruleset.json"

// CatalogPath is the reserved path of the standalone catalog file with this id.
func CatalogPath(id string) string { return "catalogs/" + id + ".json" }

// Manifest is a package's manifest.json, Marinara's capability package
// manifest at schemaVersion 2, as a ruleset package uses it. Unknown keys are
// refused at every level, as Marinara's schema does.
type Manifest struct {
	SchemaVersion   int                     `json:"schemaVersion"`
	CapabilityAPI   Version                 `json:"capabilityApi"`
	BuiltAgainst    BuiltAgainst            `json:"builtAgainst"`
	ID              string                  `json:"id"`
	Name            string                  `json:"name"`
	Version         string                  `json:"version"`
	Description     string                  `json:"description,omitempty"`
	Localizations   map[string]Localization `json:"localizations,omitempty"`
	Engine          EngineRange             `json:"engine"`
	Kind            []string                `json:"kind"`
	Entrypoints     Entrypoints             `json:"entrypoints"`
	Contributions   *Contributions          `json:"contributions,omitempty"`
	Files           []File                  `json:"files"`
	Permissions     []string                `json:"permissions"`
	RestartRequired bool                    `json:"restartRequired,omitempty"`
}

// BuiltAgainst names the Marinara Engine release a package was built with.
type BuiltAgainst struct {
	EngineVersion string `json:"engineVersion"`
	EngineCommit  string `json:"engineCommit"`
}

// Localization is translated display text for one locale.
type Localization struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// EngineRange is the Marinara Engine release range a package declares. It is
// kept, not interpreted: sheetkeeper gates on the Capability API instead.
type EngineRange struct {
	Min          string `json:"min"`
	MaxExclusive string `json:"maxExclusive"`
}

// Entrypoints are code a package runs. A ruleset package ships only data, so
// every one must be empty.
type Entrypoints struct {
	Server    string `json:"server,omitempty"`
	Client    string `json:"client,omitempty"`
	Agents    string `json:"agents,omitempty"`
	Knowledge string `json:"knowledge,omitempty"`
}

// Contributions are what a package adds to the engine; a ruleset package adds
// only assets.
type Contributions struct {
	Assets *Assets `json:"assets,omitempty"`
}

// Assets lists the package files the engine reads by path.
type Assets struct {
	Paths []string `json:"paths"`
}

// File pins one package file: its path, sha256 (lowercase hex) and size.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

var (
	idPattern        = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	semverPattern    = regexp.MustCompile(`^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$`)
	commitPattern    = regexp.MustCompile(`^[a-f0-9]{40}$`)
	shaPattern       = regexp.MustCompile(`^[a-f0-9]{64}$`)
	catalogIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
)

// Marinara's closed vocabularies.
var (
	knownKinds = []string{"agent", "maps", "conversation-calls", "turn-game", "ruleset"}
	knownPerms = []string{"achievements", "agent-runtime", "chat-read", "chat-write", "conversation-actions",
		"mari-actions", "network", "prompt-context", "routes", "scenes", "storage", "tools", "ui"}
	// Contribution keys Marinara knows that a ruleset package has no use for.
	otherContributions = []string{"slots", "gameSurface", "homeBrowserTab", "homeWidgets", "conversationGame", "agentDetail"}
)

// CatalogID returns the id of a catalogs/<id>.json path, and whether p is one.
func CatalogID(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "catalogs/")
	if !ok {
		return "", false
	}
	id, ok := strings.CutSuffix(rest, ".json")
	if !ok || !catalogIDPattern.MatchString(id) {
		return "", false
	}
	return id, true
}

// File returns the files entry for p.
func (m *Manifest) File(p string) (File, bool) {
	for _, f := range m.Files {
		if f.Path == p {
			return f, true
		}
	}
	return File{}, false
}

// AssetPaths returns contributions.assets.paths, or nil.
func (m *Manifest) AssetPaths() []string {
	if m.Contributions == nil || m.Contributions.Assets == nil {
		return nil
	}
	return m.Contributions.Assets.Paths
}

// CatalogIDs returns the ids of the catalog files the manifest declares as
// assets, in declaration order.
func (m *Manifest) CatalogIDs() []string {
	var ids []string
	for _, p := range m.AssetPaths() {
		if id, ok := CatalogID(p); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// LimitFor returns the byte limit of the package file at p under the
// manifest's declared Capability API (0 for a path that is neither ruleset.json
// nor a catalog file).
func (m *Manifest) LimitFor(p string) int64 {
	raised := m.CapabilityAPI.AtLeast(release(apiRaisedLimits))
	switch {
	case p == RulesetPath && raised:
		return MaxRulesetBytesRaised
	case p == RulesetPath:
		return MaxRulesetBytes
	}
	if _, ok := CatalogID(p); ok {
		if raised {
			return MaxCatalogBytesRaised
		}
		return MaxCatalogBytes
	}
	return 0
}

// ParseManifest decodes manifest.json strictly and validates it. On failure
// the error is an strictjson.Problems listing every problem found.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, fail(strictjson.Limit, "manifest.json", "is "+strconv.Itoa(len(data))+" bytes, over the "+strconv.Itoa(MaxManifestBytes)+"-byte limit")
	}
	m := &Manifest{}
	d := decoded{bad: map[string]bool{}, given: map[string]bool{}}
	found := strictjson.Decode(data, m, "", strictjson.Options{
		MaxDepth: MaxManifestDepth,
		Given:    func(p string) { d.given[p] = true },
	})
	var ps problems
	// A document that is not JSON or not an object is refused for that alone.
	for _, p := range found {
		if p.Path == "" && p.More() == 0 {
			ps.add(strictjson.Malformed, "manifest.json", p.Msg)
		}
	}
	if !ps.empty() {
		return nil, ps.err()
	}
	for _, p := range found {
		if p.More() > 0 {
			ps.dropped += p.More()
			continue
		}
		d.bad[p.Path] = true
		ps.add(strictjson.Malformed, p.Path, explain(p))
	}
	m.validate(&ps, d)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return m, nil
}

// Validate checks a Manifest built in code against every rule ParseManifest
// applies after decoding.
func (m *Manifest) Validate() error {
	var ps problems
	m.validate(&ps, decoded{})
	return ps.err()
}

// checker returns check(p, ok, msg): a Malformed problem at p unless ok, or unless p
// failed to decode (which was reported already).
func (ps *problems) checker(d decoded) func(p string, ok bool, msg string) {
	return func(p string, ok bool, msg string) {
		if !d.skip(p) && !ok {
			ps.add(strictjson.Malformed, p, msg)
		}
	}
}

// decoded is what validation knows of the decoding: the paths whose value
// failed to decode, so they are not reported twice, and the keys given.
type decoded struct {
	bad, given map[string]bool
}

// skip reports whether p or one of its ancestors failed to decode.
func (d decoded) skip(p string) bool {
	for {
		if d.bad[p] {
			return true
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// explain words a decoding problem for an author: a key Marinara knows but a
// ruleset package has no use for is refused with the reason, not as unknown.
func explain(p strictjson.Problem) string {
	i := strings.LastIndexByte(p.Path, '.')
	if p.Msg != strictjson.MsgUnknownKey || i < 0 {
		return p.Msg
	}
	parent, key := p.Path[:i], p.Path[i+1:]
	switch {
	case parent == "contributions" && contains(otherContributions, key):
		return "a ruleset package contributes only assets"
	case strings.HasPrefix(parent, "localizations.") && (key == "homeBrowserTab" || key == "homeWidgets"):
		return "a ruleset package has no Home tab or widgets"
	}
	return p.Msg
}

func index(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkPath vets a path inside a package, as declared or as named by an
// archive entry. It returns "" for a clean relative slash path, or why not.
func checkPath(p string) string {
	q := strconv.Quote(p)
	switch {
	case p == "":
		return "is empty"
	case !utf8.ValidString(p):
		return q + " is not UTF-8"
	case strings.IndexFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return q + " holds a control character"
	case strings.Contains(p, `\`):
		return q + " uses a backslash; package paths use /"
	case p[0] == '/' || (len(p) >= 2 && p[1] == ':'):
		return q + " is absolute"
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return q + " escapes the package"
		}
	}
	if path.Clean(p) != p {
		return q + " is not a clean relative path"
	}
	return ""
}

// checkPackagePath adds the problems of one declared path: safety first, then
// the two shapes a ruleset package ships.
func checkPackagePath(ps *problems, at, p string) bool {
	if msg := checkPath(p); msg != "" {
		ps.add(strictjson.Unsafe, at, msg)
		return false
	}
	if parser.UTF16Len(p) > MaxPathLength {
		ps.add(strictjson.Malformed, at, "is longer than "+strconv.Itoa(MaxPathLength)+" characters")
		return false
	}
	if p == RulesetPath {
		return true
	}
	if _, ok := CatalogID(p); ok {
		return true
	}
	if strings.HasPrefix(p, "catalogs/") {
		ps.add(strictjson.Malformed, at, strconv.Quote(p)+" is not catalogs/<id>.json with an id of a lowercase letter then up to 39 lowercase letters, digits or underscores")
		return false
	}
	ps.add(strictjson.Malformed, at, strconv.Quote(p)+" is neither ruleset.json nor catalogs/<id>.json")
	return false
}

func bytesText(n int64) string { return strconv.FormatInt(n, 10) }

// validate applies every rule beyond types.
// validate checks every manifest rule, in the order an author reads the manifest, and
// skips what failed to decode (d). Each part is its own function; the findings of one a
// later one needs are passed on: whether the Capability API is usable, and which paths
// files declares.
func (m *Manifest) validate(ps *problems, d decoded) {
	apiOK := m.validateHead(ps, d)
	declared, filesOK := m.validateFiles(ps, d, apiOK)
	m.validateAssets(ps, d, apiOK, declared, filesOK)
}

// validateHead checks everything above files: the schema, the Capability API (false
// when it cannot be used to gate on), the package's names and what a ruleset package
// must leave empty.
func (m *Manifest) validateHead(ps *problems, d decoded) (apiOK bool) {
	skip, check := d.skip, ps.checker(d)
	check("schemaVersion", m.SchemaVersion == 2, "must be 2")

	api := m.CapabilityAPI
	apiOK = !skip("capabilityApi") && !skip("capabilityApi.major") && !skip("capabilityApi.minor")
	if apiOK {
		switch {
		case api.Major < 1:
			apiOK = false
			ps.add(strictjson.Malformed, "capabilityApi.major", "must be at least 1")
		case api.Minor < 0:
			apiOK = false
			ps.add(strictjson.Malformed, "capabilityApi.minor", "must be at least 0")
		case !Engine().Supports(api):
			ps.add(strictjson.TooNew, "capabilityApi", "the package requires Capability API "+api.String()+"; this engine implements "+Engine().String())
		}
	}

	check("builtAgainst.engineVersion", semverPattern.MatchString(m.BuiltAgainst.EngineVersion),
		"must be a version like 2.4.6")
	check("builtAgainst.engineCommit", commitPattern.MatchString(m.BuiltAgainst.EngineCommit),
		"must be a 40-character lowercase hex commit")
	check("id", idPattern.MatchString(m.ID), "must be lowercase letters and digits in words joined by single hyphens")
	check("id", len(m.ID) <= 80, "must be at most 80 characters")
	check("name", parser.UTF16Len(m.Name) >= 1 && parser.UTF16Len(m.Name) <= 120, "must be 1 to 120 characters")
	check("version", semverPattern.MatchString(m.Version), "must be a version like 1.2.3 or 1.2.3-beta.1")
	check("description", parser.UTF16Len(m.Description) <= 2000, "must be at most 2000 characters")
	for _, locale := range slices.Sorted(maps.Keys(m.Localizations)) {
		lp, l := "localizations."+locale, m.Localizations[locale]
		if n := parser.UTF16Len(locale); n < 2 || n > 35 {
			check(lp, false, "a locale is 2 to 35 characters")
			continue
		}
		// An omitempty name given empty is refused; one left out is not.
		n := parser.UTF16Len(l.Name)
		check(lp+".name", n <= 120 && (n > 0 || !d.given[lp+".name"]), "must be 1 to 120 characters")
		check(lp+".description", parser.UTF16Len(l.Description) <= 2000, "must be at most 2000 characters")
	}
	check("engine.min", m.Engine.Min != "", "must not be empty")
	check("engine.maxExclusive", m.Engine.MaxExclusive != "", "must not be empty")

	if !skip("kind") {
		good := true
		for i, k := range m.Kind {
			if !skip(index("kind", i)) && !contains(knownKinds, k) {
				good = false
				ps.add(strictjson.Malformed, index("kind", i), strconv.Quote(k)+" is not one of "+strings.Join(knownKinds, ", "))
			}
		}
		if good && (len(m.Kind) != 1 || m.Kind[0] != "ruleset") {
			ps.add(strictjson.Malformed, "kind", `must be ["ruleset"]: a ruleset package has no other kind`)
		}
	}
	e := m.Entrypoints
	check("entrypoints", e == Entrypoints{}, "must be empty: a ruleset package ships only data")

	if !skip("permissions") {
		for i, p := range m.Permissions {
			if !skip(index("permissions", i)) && !contains(knownPerms, p) {
				ps.add(strictjson.Malformed, index("permissions", i), strconv.Quote(p)+" is not a known permission")
			}
		}
		if len(m.Permissions) > 0 {
			ps.add(strictjson.Malformed, "permissions", "must be empty: a ruleset package ships only data")
		}
	}
	check("restartRequired", !m.RestartRequired, "must be false: a ruleset package ships only data")

	return apiOK
}

// validateFiles checks files: each path safe and of a ruleset package's two shapes,
// once; a well-formed sha256; bytes within the limit of its kind. It returns each
// declared path's index, and whether files decoded at all.
func (m *Manifest) validateFiles(ps *problems, d decoded, apiOK bool) (declared map[string]int, filesOK bool) {
	skip, check := d.skip, ps.checker(d)
	api := m.CapabilityAPI
	filesOK = !skip("files")
	declared = map[string]int{}
	if filesOK && len(m.Files) == 0 {
		ps.add(strictjson.Malformed, "files", "must list at least one file")
	}
	if filesOK && len(m.Files) > 1+MaxCatalogs {
		ps.add(strictjson.Limit, "files", "lists "+strconv.Itoa(len(m.Files))+" files; a ruleset package has at most "+strconv.Itoa(1+MaxCatalogs)+" (ruleset.json and "+strconv.Itoa(MaxCatalogs)+" catalogs)")
	}
	for i, f := range m.Files {
		if !filesOK {
			break
		}
		ip := index("files", i)
		if skip(ip) {
			continue
		}
		pathOK := !skip(ip+".path") && checkPackagePath(ps, ip+".path", f.Path)
		if pathOK {
			if j, dup := declared[f.Path]; dup {
				ps.add(strictjson.Malformed, ip+".path", strconv.Quote(f.Path)+" is already listed at files["+strconv.Itoa(j)+"]")
			} else {
				declared[f.Path] = i
			}
		}
		check(ip+".sha256", shaPattern.MatchString(f.SHA256), "must be 64 lowercase hex digits")
		bytesOK := !skip(ip + ".bytes")
		switch {
		case bytesOK && f.Bytes < 0:
			bytesOK = false
			ps.add(strictjson.Malformed, ip+".bytes", "must be at least 0")
		case bytesOK && f.Bytes > MaxDeclaredBytes:
			bytesOK = false
			ps.add(strictjson.Limit, ip+".bytes", "must be at most "+bytesText(MaxDeclaredBytes))
		}
		if pathOK && bytesOK && apiOK {
			limit := m.LimitFor(f.Path)
			if f.Bytes > limit {
				msg := strconv.Quote(f.Path) + " declares " + bytesText(f.Bytes) + " bytes, over the " + bytesText(limit) + "-byte limit"
				if !api.AtLeast(release(apiRaisedLimits)) {
					msg += "; Capability API " + release(apiRaisedLimits).String() + " raises it to " + bytesText(m.raisedLimit(f.Path))
				}
				ps.add(strictjson.Limit, ip+".bytes", msg)
			}
		}
	}

	return declared, filesOK
}

// validateAssets checks contributions.assets.paths: the files the engine reads.
// ruleset.json and every catalog file, each pinned in files, and files holds nothing
// else; each kind of asset gated on the Capability API that introduced it.
func (m *Manifest) validateAssets(ps *problems, d decoded, apiOK bool, declared map[string]int, filesOK bool) {
	skip := d.skip
	api := m.CapabilityAPI
	const ap = "contributions.assets.paths"
	switch {
	case skip("contributions") || skip("contributions.assets") || skip(ap):
		return
	case m.Contributions == nil:
		ps.add(strictjson.Malformed, "contributions", "required: a ruleset package lists ruleset.json in "+ap)
		return
	case m.Contributions.Assets == nil:
		ps.add(strictjson.Malformed, "contributions.assets", "required: a ruleset package lists ruleset.json in "+ap)
		return
	}
	paths := m.Contributions.Assets.Paths
	if len(paths) == 0 {
		ps.add(strictjson.Malformed, ap, "must list at least ruleset.json")
		return
	}
	if len(paths) > MaxAssetPaths {
		ps.add(strictjson.Limit, ap, "lists "+strconv.Itoa(len(paths))+" paths, more than the "+strconv.Itoa(MaxAssetPaths)+" allowed")
		return
	}
	listed := map[string]int{}
	catalogs := 0
	for i, p := range paths {
		ip := index(ap, i)
		if skip(ip) || !checkPackagePath(ps, ip, p) {
			continue
		}
		if j, dup := listed[p]; dup {
			ps.add(strictjson.Malformed, ip, strconv.Quote(p)+" is already listed at "+index(ap, j))
			continue
		}
		listed[p] = i
		if _, ok := CatalogID(p); ok {
			catalogs++
		}
		if _, ok := declared[p]; filesOK && !ok {
			ps.add(strictjson.Malformed, ip, strconv.Quote(p)+" is not listed in files with its sha256 and bytes")
		}
	}
	if _, ok := listed[RulesetPath]; !ok {
		ps.add(strictjson.Malformed, ap, "must list ruleset.json")
	}
	if catalogs > MaxCatalogs {
		ps.add(strictjson.Limit, ap, "lists "+strconv.Itoa(catalogs)+" catalog files, more than the "+strconv.Itoa(MaxCatalogs)+" a ruleset may have")
	}
	if filesOK {
		for i, f := range m.Files {
			if j, ok := declared[f.Path]; ok && j == i {
				if _, ok := listed[f.Path]; !ok {
					ps.add(strictjson.Malformed, index("files", i), strconv.Quote(f.Path)+" is not listed in "+ap)
				}
			}
		}
	}
	if apiOK {
		gate := func(what string, need Version) {
			if !api.AtLeast(need) {
				ps.add(strictjson.Malformed, ap, what+" Capability API "+need.String()+"; the package declares "+api.String())
			}
		}
		gate("contributions.assets needs", release(apiAssets))
		if _, ok := listed[RulesetPath]; ok {
			gate("ruleset.json needs", release(apiRuleset))
		}
		if catalogs > 0 {
			gate("catalog files (catalogs/<id>.json) need", release(apiCatalogFiles))
		}
	}
}

func (m *Manifest) raisedLimit(p string) int64 {
	if p == RulesetPath {
		return MaxRulesetBytesRaised
	}
	return MaxCatalogBytesRaised
}
