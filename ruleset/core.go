package ruleset

import (
	"sheetkeeper/ruleset/rules"
	"strings"
)

// License says under what terms the ruleset's text is shared.
type License struct {
	SPDX        string `json:"spdx,omitempty"`
	Attribution string `json:"attribution,omitempty"`
}

// Coverage says which parts of play the ruleset covers, and sums it up for the setup
// wizard.
type Coverage struct {
	Checks    bool   `json:"checks,omitempty"`
	Saves     bool   `json:"saves,omitempty"`
	Sheet     bool   `json:"sheet,omitempty"`
	Resources bool   `json:"resources,omitempty"`
	Rests     bool   `json:"rests,omitempty"`
	Combat    bool   `json:"combat,omitempty"`
	Summary   string `json:"summary"`
}

// ReservedIDs are ruleset ids a file may not claim: they name the engine's own
// behaviours (no ruleset pinned, the built-in combat adapter), not data.
func ReservedIDs() []string { return []string{"engine-legacy", "traditional"} }

// IsRulesetID reports whether s is a bare ruleset id: lowercase letters and digits in
// runs joined by single hyphens, at most 64 characters.
func IsRulesetID(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// checkCore checks everything but catalogs, items, battle and combat, and builds the
// sheet's name index the other regions resolve names with. Union members are decoded
// first, so every later check (and every reader) sees typed values.
func (c *checker) checkCore() {
	rs := c.rs
	c.decodeSheetUnions()
	c.decodeResolutionUnions()
	c.names = newSheetNames(rs)

	if rs.SchemaVersion != 1 {
		c.Add("schemaVersion", "schemaVersion must be 1, got %d", rs.SchemaVersion)
	}
	switch {
	case len(rs.ID) > 64:
		c.Add("id", "a ruleset id is at most 64 characters")
	case !IsRulesetID(rs.ID):
		c.Add("id", "ruleset id %q must be lowercase letters and digits joined by single hyphens", rules.Clip(rs.ID))
	}
	for _, r := range ReservedIDs() {
		if rs.ID == r {
			c.Add("id", "%q is a ruleset id the engine keeps for itself", rs.ID)
		}
	}
	if rs.Version < 1 {
		c.Add("version", "version must be 1 or more")
	}
	c.PromptText("name", rs.Name, 80)
	if rs.Edition != "" {
		c.PromptText("edition", rs.Edition, 160)
	}
	if l := rs.License; l != nil {
		c.MaxLen("license.spdx", l.SPDX, 64)
		c.MaxLen("license.attribution", l.Attribution, 4000)
	}
	c.PromptText("coverage.summary", rs.Coverage.Summary, 400)

	c.checkSheet()
	c.checkResolution()
	c.checkRests()
	c.checkGM()
	c.checkAdvancement()
	c.checkLayers()
}
