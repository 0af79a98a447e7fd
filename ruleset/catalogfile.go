package ruleset

import (
	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// catalogFile is a standalone catalog, `catalogs/<id>.json` in a package:
// `{ "schemaVersion": 1, "catalog": "<id>", "entries": [] }`.
type catalogFile struct {
	Schema        *string `json:"$schema,omitempty"`
	SchemaVersion int     `json:"schemaVersion"`
	Catalog       string  `json:"catalog"`
	Entries       []Entry `json:"entries" maxItems:"2000"` // MaxCatalogEntries
}

// CheckCatalogFile decodes a standalone catalog file and checks its entries against an
// already parsed ruleset, exactly as inline entries are checked. It runs when the picker
// first asks for the catalog; a file with any problem shows its reasons instead of
// entries. Paths start at the file's root (`entries[3] (spells/fireball).rows[0]…`).
func CheckCatalogFile(rs *Ruleset, catalogID string, data []byte) ([]Entry, strictjson.Problems) {
	entries, ps, _ := checkCatalogFile(rs, catalogID, data)
	if len(ps) > 0 {
		return nil, ps
	}
	return entries, nil
}

func checkCatalogFile(rs *Ruleset, catalogID string, data []byte) ([]Entry, strictjson.Problems, []rules.Feature) {
	cat := rs.Catalog(catalogID)
	if cat == nil {
		var ps strictjson.Problems
		ps.Add("", "%q is not a catalog of this ruleset", catalogID)
		return nil, ps, nil
	}
	var f catalogFile
	ps := strictjson.Decode(data, &f, "", decodeOptions)
	if !ps.Complete() {
		ps.Sort()
		rules.LabelIDs(ps, &f, catalogID)
		return nil, ps, nil
	}
	if f.SchemaVersion != 1 {
		ps.Add("schemaVersion", "must be 1")
	}
	if f.Catalog != catalogID {
		ps.Add("catalog", "this file is for catalog %q, not %q", f.Catalog, catalogID)
		ps.Sort()
		return nil, ps, nil
	}
	// Entries are checked against the sheet's names Parse built, so nothing here writes to
	// the shared ruleset (the engine may read it concurrently): features go to the
	// checker's own report. A ruleset that did not parse clean has no names, and no
	// catalog of it can be checked.
	c := &checker{rs: rs, names: rs.names}
	if c.names == nil {
		return nil, strictjson.Problems{{Msg: "the ruleset has problems of its own; fix them first"}}, nil
	}
	c.Count("entries", len(f.Entries), 0, MaxCatalogEntries)
	c.checkEntries(cat, f.Entries, "entries", newEntryContext(c))
	ps = append(ps, c.Problems...)
	ps.Sort()
	if len(ps) > 0 {
		rules.LabelIDs(ps, &f, catalogID)
		return nil, ps, nil
	}
	return f.Entries, nil, c.Features
}
