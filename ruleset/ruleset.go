// Package ruleset reads Marinara Engine Game Mode rulesets (schemaVersion 1): it decodes
// a file into typed values, refusing unknown keys, and checks its meaning — every name
// resolves, every bound holds, prompt-bound text is safe — reporting every problem at
// once with its JSON path.
//
// The format's authority is Marinara's zod schema (packages/shared/src/schemas/
// ruleset.schema.ts) and its guide, plus the seed's later additions (advancement, pool
// pays and level, targetsPerCostStep, several scaled rows told apart by name, the 1.340
// limits). Catalog entries are validated here too, because what an entry may write is
// decided by the sheet's lists; the catalog package serves them to the picker.
//
// The validation-only battle and combat blocks are checked in package fight, which asks
// about the sheet through fight.Sheet (fightSheet here); what every part shares — the
// report of problems and dated features, the small text and number checks, ValueRef —
// is in package rules, below both.
package ruleset

import (
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// Ruleset is one decoded, validated ruleset definition.
type Ruleset struct {
	Comment       string        `json:"$comment,omitempty"`
	SchemaVersion int           `json:"schemaVersion"`
	ID            string        `json:"id"`
	Version       int           `json:"version"`
	Name          string        `json:"name"`
	Edition       string        `json:"edition,omitempty"`
	License       *License      `json:"license,omitempty"`
	Coverage      Coverage      `json:"coverage"`
	Resolution    Resolution    `json:"resolution"`
	Sheet         Sheet         `json:"sheet"`
	Rests         []Rest        `json:"rests,omitempty"`
	GM            GM            `json:"gm"`
	Catalogs      []Catalog     `json:"catalogs,omitempty"`
	Items         *Items        `json:"items,omitempty"`
	Battle        *fight.Battle `json:"battle,omitempty"`
	Combat        *fight.Combat `json:"combat,omitempty"`
	Layers        []Layer       `json:"layers,omitempty"`

	// features lists what the file uses that a package must declare a Capability API
	// for; filled while checking.
	features []rules.Feature
	// names are the sheet's name indexes, built once by Parse and only read after, so a
	// standalone catalog file is checked against them without checking the sheet again.
	names *sheetNames
}

// Features returns what the ruleset uses that a package must declare an API for, in
// the order met. A single-file ruleset needs no declaration: the engine that reads it
// validates it.
func (rs *Ruleset) Features() []rules.Feature { return rs.features }

// MaxSingleFileBytes bounds a ruleset imported as one file (catalogs inline).
const MaxSingleFileBytes = 512 * 1024

// Parse decodes data as a ruleset and checks it. It returns every problem found; the
// ruleset is usable only when there are none. Unknown or repeated keys do not stop the
// meaning checks (the rest decoded in full); a value of the wrong type or a missing key
// does, as checking what could not be read would only report its echoes.
func Parse(data []byte) (*Ruleset, strictjson.Problems) {
	rs := &Ruleset{}
	ps := strictjson.Decode(data, rs, "", decodeOptions)
	if ps.Complete() {
		c := &checker{rs: rs}
		c.check()
		ps = append(ps, c.Problems...)
		rs.names = c.names
		rs.features = c.Features
	}
	ps.Sort()
	rules.LabelIDs(ps, rs, "")
	return rs, ps
}

// checker carries what the meaning checks share: the ruleset, the problems found and the
// name indexes built once from the sheet.
type checker struct {
	rules.Report
	rs    *Ruleset
	names *sheetNames
}

// check runs every meaning check, the sheet's first: the others resolve names against it.
func (c *checker) check() {
	c.checkCore()
	c.checkCatalogs()
	c.checkItems()
	fight.Check(&c.Report, fightSheet{c}, c.rs.Battle, c.rs.Combat)
}
