package bundle

import (
	"errors"
	"strconv"
	"strings"
)

// Version is a Capability API version, "major.minor". The two parts are
// integers compared as integers, never as decimals: 1.92 < 1.171 < 1.340.
type Version struct {
	Major int `json:"major"`
	Minor int `json:"minor"`
}

// The Capability API this engine implements, 1.340: the one source of truth for it. A
// package declaring a newer one is refused.
const (
	EngineMajor = 1
	EngineMinor = 340
)

// Engine returns EngineMajor.EngineMinor as a Version (a struct cannot be a constant).
func Engine() Version { return Version{Major: EngineMajor, Minor: EngineMinor} }

// The Capability API releases this package gates on, as minors of EngineMajor.
const (
	// apiAssets introduced contributions.assets.
	apiAssets = 10
	// apiRuleset introduced the ruleset.json asset.
	apiRuleset = 20
	// apiCatalogFiles introduced catalogs/<id>.json assets.
	apiCatalogFiles = 21
	// apiRaisedLimits raised the package size limits (ruleset.json 256 KB → 512 KB,
	// catalog files 1 MB → 2 MB).
	apiRaisedLimits = 340
)

// release is the Capability API version 1.<minor>.
func release(minor int) Version { return Version{Major: EngineMajor, Minor: minor} }

// ParseVersion reads "major.minor", two non-negative decimal integers without
// signs, spaces or leading zeros ("1.340", "2.0").
func ParseVersion(s string) (Version, error) {
	major, minor, ok := strings.Cut(s, ".")
	if !ok {
		return Version{}, errors.New("capability API version " + strconv.Quote(s) + " is not major.minor")
	}
	a, err1 := parseVersionPart(major)
	b, err2 := parseVersionPart(minor)
	if err1 != nil || err2 != nil {
		return Version{}, errors.New("capability API version " + strconv.Quote(s) + " is not major.minor")
	}
	return Version{Major: a, Minor: b}, nil
}

func parseVersionPart(s string) (int, error) {
	if s == "" || len(s) > 9 || (len(s) > 1 && s[0] == '0') {
		return 0, errors.New("bad part")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errors.New("bad part")
		}
	}
	return strconv.Atoi(s)
}

// String renders "major.minor", for example "1.340".
func (v Version) String() string {
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// Compare returns -1, 0 or +1 as v is older than, equal to or newer than w.
func (v Version) Compare(w Version) int {
	switch {
	case v.Major < w.Major:
		return -1
	case v.Major > w.Major:
		return 1
	case v.Minor < w.Minor:
		return -1
	case v.Minor > w.Minor:
		return 1
	}
	return 0
}

// AtLeast reports whether v is need or newer: a package declaring v may use a
// feature introduced in need.
func (v Version) AtLeast(need Version) bool { return v.Compare(need) >= 0 }

// Supports reports whether an engine implementing v can load a package that
// declares pkg: the same major, and a minor no newer than its own.
func (v Version) Supports(pkg Version) bool {
	return pkg.Major == v.Major && pkg.Minor <= v.Minor
}
