package bundle

import (
	"bytes"
	"encoding/json"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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
	// Capability API older than APIRaisedLimits; MaxRulesetBytesRaised from it on.
	MaxRulesetBytes       = 256 << 10
	MaxRulesetBytesRaised = 512 << 10
	// MaxCatalogBytes is the limit of one catalogs/<id>.json in a package
	// declaring a Capability API older than APIRaisedLimits;
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
	RestartRequired bool                    `json:"restartRequired"`
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
	raised := m.CapabilityAPI.AtLeast(APIRaisedLimits)
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
// the error is an *Error listing every problem found.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, fail(Limit, "manifest.json", "is "+strconv.Itoa(len(data))+" bytes, over the "+strconv.Itoa(MaxManifestBytes)+"-byte limit")
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		msg := "is not JSON: " + err.Error()
		if se, ok := err.(*json.SyntaxError); ok {
			msg = "is not JSON: " + se.Error() + " (at byte " + strconv.FormatInt(se.Offset, 10) + ")"
		}
		return nil, fail(Malformed, "manifest.json", msg)
	}
	if d := jsonDepth(raw); d > MaxManifestDepth {
		return nil, fail(Limit, "manifest.json", "nests "+strconv.Itoa(d)+" levels deep, more than the "+strconv.Itoa(MaxManifestDepth)+" allowed")
	}
	d := &decoder{bad: map[string]bool{}}
	m := d.manifest(raw)
	if m == nil {
		return nil, d.ps.err()
	}
	m.validate(&d.ps, d.skip)
	if err := d.ps.err(); err != nil {
		return nil, err
	}
	return m, nil
}

// Validate checks a Manifest built in code against every rule ParseManifest
// applies after decoding.
func (m *Manifest) Validate() error {
	var ps problems
	m.validate(&ps, func(string) bool { return false })
	return ps.err()
}

// jsonDepth returns the deepest nesting of objects and arrays in valid JSON.
func jsonDepth(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > deepest {
				deepest = depth
			}
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// decoder turns JSON into a Manifest, recording a problem for every unknown
// key, missing key and value of the wrong type, and remembering which paths
// were bad so validation does not report them twice.
type decoder struct {
	ps  problems
	bad map[string]bool
}

func (d *decoder) problem(k Kind, p, msg string) {
	d.bad[p] = true
	d.ps.add(k, p, msg)
}

// skip reports whether p or one of its ancestors failed to decode.
func (d *decoder) skip(p string) bool {
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

type field struct {
	key string
	val json.RawMessage
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func index(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

// object returns the members of a JSON object in document order, recording
// problems for a non-object, duplicate keys and keys not in known (when known
// is non-nil). Unknown and duplicate members are dropped.
func (d *decoder) object(p string, raw json.RawMessage, known []string) ([]field, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		d.problem(Malformed, p, "must be an object")
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		d.problem(Malformed, p, "must be an object")
		return nil, false
	}
	var out []field
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			d.problem(Malformed, p, "must be an object")
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			d.problem(Malformed, p, "must be an object")
			return nil, false
		}
		kp := join(p, key)
		switch {
		case seen[key]:
			d.problem(Malformed, kp, "appears twice")
		case known != nil && !contains(known, key):
			d.problem(Malformed, kp, "unknown key")
		default:
			seen[key] = true
			out = append(out, field{key, v})
		}
	}
	return out, true
}

// require records a problem for each key of keys absent from fs.
func (d *decoder) require(p string, fs []field, keys ...string) {
	for _, k := range keys {
		found := false
		for _, f := range fs {
			if f.key == k {
				found = true
				break
			}
		}
		if !found {
			d.problem(Malformed, join(p, k), "required")
		}
	}
}

func (d *decoder) str(p string, raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		d.problem(Malformed, p, "must be a string")
		return ""
	}
	return s
}

func (d *decoder) boolean(p string, raw json.RawMessage) bool {
	switch string(raw) {
	case "true":
		return true
	case "false":
		return false
	}
	d.problem(Malformed, p, "must be true or false")
	return false
}

// integer reads a JSON number that is a whole number within [lo, hi]. Like
// JavaScript, 73708.0 and 7.3708e4 are the integer 73708.
func (d *decoder) integer(p string, raw json.RawMessage, lo, hi int64, k Kind) (int64, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		d.problem(Malformed, p, "must be an integer")
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) || f != math.Trunc(f) {
		d.problem(Malformed, p, "must be an integer")
		return 0, false
	}
	if f < float64(lo) {
		d.problem(Malformed, p, "must be at least "+strconv.FormatInt(lo, 10))
		return 0, false
	}
	if f > float64(hi) {
		d.problem(k, p, "must be at most "+strconv.FormatInt(hi, 10))
		return 0, false
	}
	return int64(f), true
}

func (d *decoder) array(p string, raw json.RawMessage) ([]json.RawMessage, bool) {
	var items []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		d.problem(Malformed, p, "must be an array")
		return nil, false
	}
	return items, true
}

func (d *decoder) strings(p string, raw json.RawMessage) []string {
	items, ok := d.array(p, raw)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		out = append(out, d.str(index(p, i), it))
	}
	return out
}

func (d *decoder) manifest(raw json.RawMessage) *Manifest {
	fs, ok := d.object("", raw, []string{"schemaVersion", "capabilityApi", "builtAgainst", "id", "name", "version",
		"description", "localizations", "engine", "kind", "entrypoints", "contributions", "files", "permissions",
		"restartRequired"})
	if !ok {
		d.bad = map[string]bool{}
		d.ps = problems{}
		d.ps.add(Malformed, "manifest.json", "must be a JSON object")
		return nil
	}
	d.require("", fs, "schemaVersion", "capabilityApi", "builtAgainst", "id", "name", "version", "engine", "kind",
		"entrypoints", "files", "permissions")
	m := &Manifest{Permissions: []string{}}
	for _, f := range fs {
		p := f.key
		switch f.key {
		case "schemaVersion":
			n, _ := d.integer(p, f.val, math.MinInt32, math.MaxInt32, Malformed)
			m.SchemaVersion = int(n)
		case "capabilityApi":
			m.CapabilityAPI = d.version(p, f.val)
		case "builtAgainst":
			m.BuiltAgainst = d.builtAgainst(p, f.val)
		case "id":
			m.ID = d.str(p, f.val)
		case "name":
			m.Name = d.str(p, f.val)
		case "version":
			m.Version = d.str(p, f.val)
		case "description":
			m.Description = d.str(p, f.val)
		case "localizations":
			m.Localizations = d.localizations(p, f.val)
		case "engine":
			ef, ok := d.object(p, f.val, []string{"min", "maxExclusive"})
			if ok {
				d.require(p, ef, "min", "maxExclusive")
				for _, g := range ef {
					switch g.key {
					case "min":
						m.Engine.Min = d.str(join(p, g.key), g.val)
					case "maxExclusive":
						m.Engine.MaxExclusive = d.str(join(p, g.key), g.val)
					}
				}
			}
		case "kind":
			m.Kind = d.strings(p, f.val)
		case "entrypoints":
			ef, ok := d.object(p, f.val, []string{"server", "client", "agents", "knowledge"})
			if ok {
				for _, g := range ef {
					s := d.str(join(p, g.key), g.val)
					switch g.key {
					case "server":
						m.Entrypoints.Server = s
					case "client":
						m.Entrypoints.Client = s
					case "agents":
						m.Entrypoints.Agents = s
					case "knowledge":
						m.Entrypoints.Knowledge = s
					}
				}
			}
		case "contributions":
			m.Contributions = d.contributions(p, f.val)
		case "files":
			m.Files = d.files(p, f.val)
		case "permissions":
			if ps := d.strings(p, f.val); ps != nil {
				m.Permissions = ps
			}
		case "restartRequired":
			m.RestartRequired = d.boolean(p, f.val)
		}
	}
	return m
}

func (d *decoder) version(p string, raw json.RawMessage) Version {
	var v Version
	fs, ok := d.object(p, raw, []string{"major", "minor"})
	if !ok {
		return v
	}
	d.require(p, fs, "major", "minor")
	for _, f := range fs {
		switch f.key {
		case "major":
			n, _ := d.integer(join(p, f.key), f.val, 1, math.MaxInt32, Malformed)
			v.Major = int(n)
		case "minor":
			n, _ := d.integer(join(p, f.key), f.val, 0, math.MaxInt32, Malformed)
			v.Minor = int(n)
		}
	}
	return v
}

func (d *decoder) builtAgainst(p string, raw json.RawMessage) BuiltAgainst {
	var b BuiltAgainst
	fs, ok := d.object(p, raw, []string{"engineVersion", "engineCommit"})
	if !ok {
		return b
	}
	d.require(p, fs, "engineVersion", "engineCommit")
	for _, f := range fs {
		switch f.key {
		case "engineVersion":
			b.EngineVersion = d.str(join(p, f.key), f.val)
		case "engineCommit":
			b.EngineCommit = d.str(join(p, f.key), f.val)
		}
	}
	return b
}

func (d *decoder) localizations(p string, raw json.RawMessage) map[string]Localization {
	fs, ok := d.object(p, raw, nil)
	if !ok {
		return nil
	}
	out := make(map[string]Localization, len(fs))
	for _, f := range fs {
		lp := join(p, f.key)
		if n := jsLen(f.key); n < 2 || n > 35 {
			d.problem(Malformed, lp, "a locale is 2 to 35 characters")
			continue
		}
		lf, ok := d.object(lp, f.val, []string{"name", "description", "homeBrowserTab", "homeWidgets"})
		if !ok {
			continue
		}
		var l Localization
		for _, g := range lf {
			gp := join(lp, g.key)
			switch g.key {
			case "name":
				l.Name = d.str(gp, g.val)
				if !d.skip(gp) && (jsLen(l.Name) < 1 || jsLen(l.Name) > 120) {
					d.problem(Malformed, gp, "must be 1 to 120 characters")
				}
			case "description":
				l.Description = d.str(gp, g.val)
				if !d.skip(gp) && jsLen(l.Description) > 2000 {
					d.problem(Malformed, gp, "must be at most 2000 characters")
				}
			default:
				d.problem(Malformed, gp, "a ruleset package has no Home tab or widgets")
			}
		}
		out[f.key] = l
	}
	return out
}

func (d *decoder) contributions(p string, raw json.RawMessage) *Contributions {
	known := append([]string{"assets"}, otherContributions...)
	fs, ok := d.object(p, raw, known)
	if !ok {
		return nil
	}
	c := &Contributions{}
	for _, f := range fs {
		fp := join(p, f.key)
		if f.key != "assets" {
			d.problem(Malformed, fp, "a ruleset package contributes only assets")
			continue
		}
		af, ok := d.object(fp, f.val, []string{"paths"})
		if !ok {
			continue
		}
		d.require(fp, af, "paths")
		a := &Assets{}
		for _, g := range af {
			a.Paths = d.strings(join(fp, g.key), g.val)
		}
		c.Assets = a
	}
	return c
}

func (d *decoder) files(p string, raw json.RawMessage) []File {
	items, ok := d.array(p, raw)
	if !ok {
		return nil
	}
	out := make([]File, 0, len(items))
	for i, it := range items {
		ip := index(p, i)
		var f File
		fs, ok := d.object(ip, it, []string{"path", "sha256", "bytes"})
		if ok {
			d.require(ip, fs, "path", "sha256", "bytes")
			for _, g := range fs {
				gp := join(ip, g.key)
				switch g.key {
				case "path":
					f.Path = d.str(gp, g.val)
				case "sha256":
					f.SHA256 = d.str(gp, g.val)
				case "bytes":
					f.Bytes, _ = d.integer(gp, g.val, 0, MaxDeclaredBytes, Limit)
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// jsLen is a string's length as JavaScript counts it (UTF-16 code units),
// which is what Marinara's character bounds measure.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		if utf16.RuneLen(r) == 2 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

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
		ps.add(Unsafe, at, msg)
		return false
	}
	if jsLen(p) > MaxPathLength {
		ps.add(Malformed, at, "is longer than "+strconv.Itoa(MaxPathLength)+" characters")
		return false
	}
	if p == RulesetPath {
		return true
	}
	if _, ok := CatalogID(p); ok {
		return true
	}
	if strings.HasPrefix(p, "catalogs/") {
		ps.add(Malformed, at, strconv.Quote(p)+" is not catalogs/<id>.json with an id of a lowercase letter then up to 39 lowercase letters, digits or underscores")
		return false
	}
	ps.add(Malformed, at, strconv.Quote(p)+" is neither ruleset.json nor catalogs/<id>.json")
	return false
}

func bytesText(n int64) string { return strconv.FormatInt(n, 10) }

// validate applies every rule beyond types. skip(p) is true for paths whose
// value failed to decode, so they are not reported twice.
func (m *Manifest) validate(ps *problems, skip func(string) bool) {
	check := func(p string, ok bool, msg string) {
		if !skip(p) && !ok {
			ps.add(Malformed, p, msg)
		}
	}
	check("schemaVersion", m.SchemaVersion == 2, "must be 2")

	api := m.CapabilityAPI
	apiOK := !skip("capabilityApi") && !skip("capabilityApi.major") && !skip("capabilityApi.minor")
	if apiOK {
		switch {
		case api.Major < 1:
			apiOK = false
			ps.add(Malformed, "capabilityApi.major", "must be at least 1")
		case api.Minor < 0:
			apiOK = false
			ps.add(Malformed, "capabilityApi.minor", "must be at least 0")
		case !Engine.Supports(api):
			ps.add(TooNew, "capabilityApi", "the package requires Capability API "+api.String()+"; this engine implements "+Engine.String())
		}
	}

	check("builtAgainst.engineVersion", semverPattern.MatchString(m.BuiltAgainst.EngineVersion),
		"must be a version like 2.4.6")
	check("builtAgainst.engineCommit", commitPattern.MatchString(m.BuiltAgainst.EngineCommit),
		"must be a 40-character lowercase hex commit")
	check("id", idPattern.MatchString(m.ID), "must be lowercase letters and digits in words joined by single hyphens")
	check("id", len(m.ID) <= 80, "must be at most 80 characters")
	check("name", jsLen(m.Name) >= 1 && jsLen(m.Name) <= 120, "must be 1 to 120 characters")
	check("version", semverPattern.MatchString(m.Version), "must be a version like 1.2.3 or 1.2.3-beta.1")
	check("description", jsLen(m.Description) <= 2000, "must be at most 2000 characters")
	check("engine.min", m.Engine.Min != "", "must not be empty")
	check("engine.maxExclusive", m.Engine.MaxExclusive != "", "must not be empty")

	if !skip("kind") {
		good := true
		for i, k := range m.Kind {
			if !skip(index("kind", i)) && !contains(knownKinds, k) {
				good = false
				ps.add(Malformed, index("kind", i), strconv.Quote(k)+" is not one of "+strings.Join(knownKinds, ", "))
			}
		}
		if good && (len(m.Kind) != 1 || m.Kind[0] != "ruleset") {
			ps.add(Malformed, "kind", `must be ["ruleset"]: a ruleset package has no other kind`)
		}
	}
	e := m.Entrypoints
	check("entrypoints", e == Entrypoints{}, "must be empty: a ruleset package ships only data")

	if !skip("permissions") {
		for i, p := range m.Permissions {
			if !skip(index("permissions", i)) && !contains(knownPerms, p) {
				ps.add(Malformed, index("permissions", i), strconv.Quote(p)+" is not a known permission")
			}
		}
		if len(m.Permissions) > 0 {
			ps.add(Malformed, "permissions", "must be empty: a ruleset package ships only data")
		}
	}
	check("restartRequired", !m.RestartRequired, "must be false: a ruleset package ships only data")

	// files: each path safe and of a ruleset package's two shapes, once; a
	// well-formed sha256; bytes within the limit of its kind.
	filesOK := !skip("files")
	declared := map[string]int{}
	if filesOK && len(m.Files) == 0 {
		ps.add(Malformed, "files", "must list at least one file")
	}
	if filesOK && len(m.Files) > 1+MaxCatalogs {
		ps.add(Limit, "files", "lists "+strconv.Itoa(len(m.Files))+" files; a ruleset package has at most "+strconv.Itoa(1+MaxCatalogs)+" (ruleset.json and "+strconv.Itoa(MaxCatalogs)+" catalogs)")
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
				ps.add(Malformed, ip+".path", strconv.Quote(f.Path)+" is already listed at files["+strconv.Itoa(j)+"]")
			} else {
				declared[f.Path] = i
			}
		}
		check(ip+".sha256", shaPattern.MatchString(f.SHA256), "must be 64 lowercase hex digits")
		if pathOK && !skip(ip+".bytes") && apiOK {
			limit := m.LimitFor(f.Path)
			if f.Bytes > limit {
				msg := strconv.Quote(f.Path) + " declares " + bytesText(f.Bytes) + " bytes, over the " + bytesText(limit) + "-byte limit"
				if !api.AtLeast(APIRaisedLimits) {
					msg += "; Capability API " + APIRaisedLimits.String() + " raises it to " + bytesText(m.raisedLimit(f.Path))
				}
				ps.add(Limit, ip+".bytes", msg)
			}
		}
	}

	// contributions.assets.paths: the files the engine reads. ruleset.json and
	// every catalog file, each pinned in files, and files holds nothing else.
	const ap = "contributions.assets.paths"
	switch {
	case skip("contributions") || skip("contributions.assets") || skip(ap):
		return
	case m.Contributions == nil:
		ps.add(Malformed, "contributions", "required: a ruleset package lists ruleset.json in "+ap)
		return
	case m.Contributions.Assets == nil:
		ps.add(Malformed, "contributions.assets", "required: a ruleset package lists ruleset.json in "+ap)
		return
	}
	paths := m.Contributions.Assets.Paths
	if len(paths) == 0 {
		ps.add(Malformed, ap, "must list at least ruleset.json")
		return
	}
	if len(paths) > MaxAssetPaths {
		ps.add(Limit, ap, "lists "+strconv.Itoa(len(paths))+" paths, more than the "+strconv.Itoa(MaxAssetPaths)+" allowed")
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
			ps.add(Malformed, ip, strconv.Quote(p)+" is already listed at "+index(ap, j))
			continue
		}
		listed[p] = i
		if _, ok := CatalogID(p); ok {
			catalogs++
		}
		if _, ok := declared[p]; filesOK && !ok {
			ps.add(Malformed, ip, strconv.Quote(p)+" is not listed in files with its sha256 and bytes")
		}
	}
	if _, ok := listed[RulesetPath]; !ok {
		ps.add(Malformed, ap, "must list ruleset.json")
	}
	if catalogs > MaxCatalogs {
		ps.add(Limit, ap, "lists "+strconv.Itoa(catalogs)+" catalog files, more than the "+strconv.Itoa(MaxCatalogs)+" a ruleset may have")
	}
	if filesOK {
		for i, f := range m.Files {
			if j, ok := declared[f.Path]; ok && j == i {
				if _, ok := listed[f.Path]; !ok {
					ps.add(Malformed, index("files", i), strconv.Quote(f.Path)+" is not listed in "+ap)
				}
			}
		}
	}
	if apiOK {
		gate := func(what string, need Version) {
			if !api.AtLeast(need) {
				ps.add(Malformed, ap, what+" Capability API "+need.String()+"; the package declares "+api.String())
			}
		}
		gate("contributions.assets needs", APIAssets)
		if _, ok := listed[RulesetPath]; ok {
			gate("ruleset.json needs", APIRuleset)
		}
		if catalogs > 0 {
			gate("catalog files (catalogs/<id>.json) need", APICatalogFiles)
		}
	}
}

func (m *Manifest) raisedLimit(p string) int64 {
	if p == RulesetPath {
		return MaxRulesetBytesRaised
	}
	return MaxCatalogBytesRaised
}
