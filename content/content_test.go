package content

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/bundle"
)

// TestBuiltinsList checks the embedded tree: every built-in is found, named after the id
// it declares, has a display name, and is one shape or the other.
func TestBuiltinsList(t *testing.T) {
	all, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range all {
		if seen[b.ID] {
			t.Errorf("%s: listed twice", b.ID)
		}
		seen[b.ID] = true
		if b.Name == "" {
			t.Errorf("%s: no name", b.ID)
		}
		if (b.File == nil) == (b.Package == nil) {
			t.Errorf("%s: want exactly one of File and Package", b.ID)
		}
		got, ok, err := Lookup(b.ID)
		if err != nil || !ok {
			t.Errorf("Lookup(%q) = %v, %v", b.ID, ok, err)
			continue
		}
		if got.ID != b.ID || got.Name != b.Name || !bytes.Equal(got.File, b.File) || got.IsPackage() != b.IsPackage() {
			t.Errorf("Lookup(%q) differs from Builtins", b.ID)
		}
	}
	if !seen["low-vell"] {
		t.Error("the original ruleset low-vell is not a built-in")
	}
}

func TestLookupUnknown(t *testing.T) {
	for _, id := range []string{"", "no-such-ruleset", "../content", "low-vell.json", "local/low-vell", "rulesets"} {
		if _, ok, err := Lookup(id); ok || err != nil {
			t.Errorf("Lookup(%q) = %v, %v; want not found", id, ok, err)
		}
	}
}

// TestBuiltinsValidate loads every built-in the way an imported ruleset is loaded and
// wants no problem at all (see validate).
func TestBuiltinsValidate(t *testing.T) {
	all, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		t.Run(b.ID, func(t *testing.T) { validate(t, b) })
	}
}

// TestPackageBuiltin runs the package branch of the listing and of validate before a
// generated package is in the tree: Low Vell, split the way a package ships it
// (ruleset.json with each catalog moved to catalogs/<id>.json, a manifest pinning every
// file's sha256 and size), must come back as a Package rooted at its folder and load
// exactly as cleanly as the single file does.
func TestPackageBuiltin(t *testing.T) {
	single, ok, err := Lookup("low-vell")
	if err != nil || !ok {
		t.Fatalf("Lookup(low-vell) = %v, %v", ok, err)
	}
	tree := packageOf(t, single.File, "low-vell")
	tree["rulesets/README.md"] = &fstest.MapFile{Data: []byte("notes beside the data are skipped")}
	tree["rulesets/half-made/ruleset.json"] = &fstest.MapFile{Data: []byte("{}")}

	all, err := list(tree)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].ID != "low-vell" || !all[0].IsPackage() || all[0].Name != single.Name {
		t.Fatalf("list = %+v; want the one package", all)
	}
	b, ok, err := lookup(tree, "low-vell")
	if err != nil || !ok || !b.IsPackage() {
		t.Fatalf("lookup = %v, %v", ok, err)
	}
	if doc, err := b.RulesetJSON(); err != nil || !bytes.Contains(doc, []byte(`"asset":"catalogs/workings.json"`)) {
		t.Errorf("RulesetJSON = %.80s, %v", doc, err)
	}
	validate(t, b)
}

// packageOf splits a single-file ruleset into a package folder rulesets/<id>/ of a test
// file system, declaring the newest Capability API.
func packageOf(t *testing.T, single []byte, id string) fstest.MapFS {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(single, &doc); err != nil {
		t.Fatal(err)
	}
	marshal := func(v any) []byte {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	contents := map[string][]byte{}
	paths := []string{"ruleset.json"}
	cats, _ := doc["catalogs"].([]any)
	for _, c := range cats {
		header := c.(map[string]any)
		cid := header["id"].(string)
		p := "catalogs/" + cid + ".json"
		contents[p] = marshal(map[string]any{"schemaVersion": 1, "catalog": cid, "entries": header["entries"]})
		paths = append(paths, p)
		delete(header, "entries")
		header["asset"] = p
	}
	contents["ruleset.json"] = marshal(doc)

	var pinned []any
	tree := fstest.MapFS{}
	for _, p := range paths {
		sum := sha256.Sum256(contents[p])
		pinned = append(pinned, map[string]any{"path": p, "sha256": hex.EncodeToString(sum[:]), "bytes": len(contents[p])})
		tree["rulesets/"+id+"/"+p] = &fstest.MapFile{Data: contents[p]}
	}
	tree["rulesets/"+id+"/manifest.json"] = &fstest.MapFile{Data: marshal(map[string]any{
		"schemaVersion":   2,
		"capabilityApi":   map[string]any{"major": bundle.EngineMajor, "minor": bundle.EngineMinor},
		"builtAgainst":    map[string]any{"engineVersion": "2.4.6", "engineCommit": strings.Repeat("0", 40)},
		"id":              "ruleset-" + id,
		"name":            doc["name"],
		"version":         "1.0.0",
		"engine":          map[string]any{"min": "2.4.6", "maxExclusive": "4.0.0"},
		"kind":            []string{"ruleset"},
		"entrypoints":     map[string]any{},
		"contributions":   map[string]any{"assets": map[string]any{"paths": paths}},
		"files":           pinned,
		"permissions":     []any{},
		"restartRequired": false,
	})}
	return tree
}

// TestMisnamedBuiltin: a file must be stored under the id it declares, or nobody could
// find it by that id.
func TestMisnamedBuiltin(t *testing.T) {
	tree := fstest.MapFS{"rulesets/wrong.json": &fstest.MapFile{Data: []byte(`{"id": "right", "name": "Right"}`)}}
	if _, err := list(tree); err == nil {
		t.Error("a file declaring another id was listed")
	}
}

// validate wants a built-in to load with no problem: a single file through ruleset.Parse
// within the single-file limit; a package through the package loader (manifest, sizes,
// hashes), its ruleset.json and each catalog file through the validator, and its
// declared Capability API at least what its files use.
func validate(t *testing.T, b Builtin) {
	t.Helper()
	if !b.IsPackage() {
		if len(b.File) > ruleset.MaxSingleFileBytes {
			t.Errorf("%d bytes, over the single-file limit of %d", len(b.File), ruleset.MaxSingleFileBytes)
		}
		rs, ps := ruleset.Parse(b.File)
		for _, p := range ps {
			t.Error(p)
		}
		if len(ps) == 0 && rs.ID != b.ID {
			t.Errorf("parsed id %q", rs.ID)
		}
		return
	}
	// The loader verifies the manifest, checks ruleset.json and its Capability API
	// declaration; Entries checks each standalone catalog, and its features, in turn.
	l, err := ruleset.LoadFS(b.Package)
	if err != nil {
		t.Fatalf("package: %v", err)
	}
	if l.ID != b.ID {
		t.Errorf("ruleset.json declares id %q", l.ID)
	}
	for _, c := range l.Catalogs {
		entries, err := l.Entries(c.ID)
		if err != nil {
			t.Errorf("catalogs/%s.json: %v", c.ID, err)
		} else if len(entries) == 0 {
			t.Errorf("catalogs/%s.json: no entries", c.ID)
		}
	}
}

// lowVell parses the original ruleset, failing the test on any problem.
func lowVell(t *testing.T) *ruleset.Ruleset {
	t.Helper()
	b, ok, err := Lookup("low-vell")
	if err != nil || !ok {
		t.Fatalf("Lookup(low-vell) = %v, %v", ok, err)
	}
	rs, ps := ruleset.Parse(b.File)
	if len(ps) > 0 {
		t.Fatalf("low-vell does not parse: %v", ps)
	}
	return rs
}

// TestLowVellUsesEveryFeature is what makes "exercises every catalog feature" (SPEC 11)
// a checked claim rather than a comment: it walks the validated ruleset and asks for
// each feature by its shape, so a later edit that drops one fails here.
func TestLowVellUsesEveryFeature(t *testing.T) {
	rs := lowVell(t)
	s := &rs.Sheet

	groups := map[string]bool{}
	for _, p := range s.Live.Pools {
		if p.Group != "" {
			groups[p.Group] = true
		}
	}
	var rowCatalogs, creatureCatalogs, itemCatalogs []*ruleset.Catalog
	var entries []*ruleset.Entry
	for i := range rs.Catalogs {
		c := &rs.Catalogs[i]
		switch c.Kind() {
		case "rows":
			rowCatalogs = append(rowCatalogs, c)
			for j := range c.Entries {
				entries = append(entries, &c.Entries[j])
			}
		case "creatures":
			creatureCatalogs = append(creatureCatalogs, c)
		case "items":
			itemCatalogs = append(itemCatalogs, c)
		}
	}

	check := func(feature string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("low-vell does not use: %s", feature)
		}
	}

	check("a list whose rows are counters (pools)", slices.ContainsFunc(s.Lists, func(l ruleset.List) bool { return l.Pools != nil }))

	var scaledAbility, scaledTable, namedScaledRows bool
	for _, e := range entries {
		perList := map[string][]ruleset.Row{}
		for _, r := range e.Rows {
			perList[r.List] = append(perList[r.List], r)
			for _, sc := range r.Scaled {
				if sc.From.AbilityScore != "" || sc.From.AbilityMod != "" {
					scaledAbility = true
				}
				if len(sc.Table) > 0 {
					scaledTable = true
				}
			}
		}
		for list, rows := range perList {
			l := s.List(list)
			if len(rows) < 2 || l == nil {
				continue
			}
			names := map[string]bool{}
			for _, r := range rows {
				if name, _ := r.Values[l.NameColumn()].(string); name != "" && r.Scaled != nil {
					names[name] = true
				}
			}
			if len(names) >= 2 {
				namedScaledRows = true
			}
		}
	}
	check("a scaled column reading an ability", scaledAbility)
	check("a scaled column with a step table", scaledTable)
	check("two scaled rows of one entry in one list, told apart by name (API 1.92)", namedScaledRows)

	check("a pool group of at least three pools", func() bool {
		n := map[string]int{}
		for _, p := range s.Live.Pools {
			if p.Group != "" {
				n[p.Group]++
			}
		}
		for _, c := range n {
			if c >= 3 {
				return true
			}
		}
		return false
	}())
	check("a pool that pays for another group at its own level", slices.ContainsFunc(s.Live.Pools, func(p ruleset.LivePool) bool {
		return p.Level != nil && len(p.Pays) > 0 && groups[p.Pays[0]] && p.Pays[0] != p.Group
	}))

	var costGroup, costPool, targetsPerStep, perCostStep bool
	for _, e := range entries {
		if e.Mechanics == nil {
			continue
		}
		for _, c := range e.Mechanics.Cost {
			if groups[c.Pool] && s.Live.Pool(c.Pool) == nil {
				costGroup = true
			}
			if s.Live.Pool(c.Pool) != nil {
				costPool = true
			}
		}
		if e.Mechanics.TargetsPerCostStep != nil && e.Mechanics.TargetCount != nil {
			targetsPerStep = true
		}
		if e.Mechanics.PerCostStep != nil {
			perCostStep = true
		}
	}
	check("an entry whose cost names a pool group", costGroup)
	check("an entry whose cost names a single pool", costPool)
	check("an entry with targetsPerCostStep", targetsPerStep)
	check("an entry with perCostStep", perCostStep)

	filterTypes := map[string]bool{}
	startFrom := false
	for _, c := range rowCatalogs {
		for _, f := range c.Filters {
			filterTypes[f.Type] = true
			if f.StartFrom != nil && s.Field(f.StartFrom.Field) != nil {
				startFrom = true
			}
		}
	}
	check("number, text and tags filters on a rows catalog", filterTypes["number"] && filterTypes["text"] && filterTypes["tags"])
	check("a filter with startFrom on a sheet field", startFrom)

	check("a creatures catalog", len(creatureCatalogs) > 0 && len(creatureCatalogs[0].Entries) >= 3)
	check("a combat block with budgets, damage types and threat tiers", rs.Combat != nil &&
		len(rs.Combat.Economy.Budgets) > 0 && len(rs.Combat.DamageTypes) > 0 &&
		rs.Combat.Threat != nil && len(rs.Combat.Threat.Tiers) > 0)
	check("an items catalog", len(itemCatalogs) > 0 && len(itemCatalogs[0].Entries) >= 5)
	check("an items block", rs.Items != nil && len(rs.Items.Categories) > 0)

	adv := s.Advancement
	check("sheet.advancement with fields, abilities, skills, saves and text",
		adv != nil && len(adv.Fields) > 0 && adv.Abilities && adv.Skills && adv.Saves && adv.Text != nil && *adv.Text != "")

	check("a wound track with levels and kinds", slices.ContainsFunc(s.Live.Tracks, func(tr ruleset.Track) bool {
		return len(tr.Levels) > 0 && len(tr.Kinds) > 0
	}))
	check("a plain track", slices.ContainsFunc(s.Live.Tracks, func(tr ruleset.Track) bool { return !tr.IsWound() }))
	check("live text", len(s.Live.Text) > 0)
	check("conditions", len(s.Live.Conditions) > 0)
	check("a live state", len(s.Live.States) > 0)
	check("a derived value following a live state", slices.ContainsFunc(s.Derived, func(d ruleset.Derived) bool {
		return d.EnumFrom != nil && d.EnumFrom.LiveState != ""
	}))

	ops := map[string]bool{}
	for _, d := range s.Derived {
		ops[d.Op] = true
	}
	for _, op := range []string{"sum", "stepTable", "scale", "min", "max", "enumTable"} {
		check("a derived value with op "+op, ops[op])
	}

	forms := map[string]bool{}
	clears := false
	for _, r := range rs.Rests {
		for _, st := range r.Restore {
			switch {
			case st.Pool != "":
				forms["pool"] = true
			case st.PoolGroup != "":
				forms["poolGroup"] = true
			case st.ListPools != "" && len(st.Recharge) > 0:
				forms["listPools with recharge"] = true
			case st.Track != "":
				forms["track"] = true
			case st.State != "":
				forms["state"] = true
			}
			switch {
			case st.ToWord == "max" || st.ToWord == "min":
				forms["to "+st.ToWord] = true
			case st.ToNumber != nil:
				forms["to a number"] = true
			case st.By != nil && st.By.Const != nil:
				forms["by const"] = true
			case st.By != nil && st.By.FractionOfMax != nil:
				forms["by fractionOfMax"] = true
			}
		}
		if r.Clear != nil && (r.Clear.AllConditions || len(r.Clear.Conditions) > 0 || len(r.Clear.Text) > 0) {
			clears = true
		}
	}
	for _, f := range []string{"pool", "poolGroup", "listPools with recharge", "track", "state",
		"to max", "to min", "to a number", "by const", "by fractionOfMax"} {
		check("a rest restoring by "+f, forms[f])
	}
	check("a rest that clears", clears)

	gm := rs.GM
	check("gm.checkGuidance, sheetGuidance, worldGuidance and sheetSummary",
		gm.CheckGuidance != "" && gm.SheetGuidance != "" && gm.WorldGuidance != nil &&
			gm.SheetSummary != nil && len(gm.SheetSummary.Lists) > 0)

	check("a layer that hides catalog entries and removes an enum value", slices.ContainsFunc(rs.Layers, func(l ruleset.Layer) bool {
		return len(l.Catalogs) > 0 && len(l.Fields) > 0 && len(l.Fields[0].RemoveValues) > 0
	}))

	check("about 3 abilities and 6 skills", len(s.Abilities) == 3 && len(s.Skills) == 6)
	for _, c := range rs.Catalogs {
		if len(c.Entries) > 12 {
			t.Errorf("catalog %s has %d entries; keep the built-in small", c.ID, len(c.Entries))
		}
	}
}

// TestLowVellRefusesBrokenCopies makes sure the validator's silence above means
// something: small breaks to the same file are each refused.
func TestLowVellRefusesBrokenCopies(t *testing.T) {
	b, _, err := Lookup("low-vell")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, new string }{
		{`"pays": ["charges"]`, `"pays": ["chargez"]`},
		{`"cost": [{ "pool": "flare", "amount": 1 }]`, `"cost": [{ "pool": "flair", "amount": 1 }]`},
		{`"startFrom": { "field": "guild" }`, `"startFrom": { "field": "guilds" }`},
		{`"removeValues": ["Smokejack"]`, `"removeValues": ["Smokejacks"]`},
		{`"tier": "ripple"`, `"tier": "puddle"`},
		{`"category": "lamp"`, `"category": "lamps"`},
	} {
		if !bytes.Contains(b.File, []byte(tc.old)) {
			t.Errorf("low-vell no longer contains %s", tc.old)
			continue
		}
		broken := bytes.Replace(b.File, []byte(tc.old), []byte(tc.new), 1)
		if _, ps := ruleset.Parse(broken); len(ps) == 0 {
			t.Errorf("%s accepted", tc.new)
		}
	}
}

func ExampleLookup() {
	b, ok, err := Lookup("low-vell")
	if err != nil || !ok {
		return
	}
	fmt.Println(b.Name, b.IsPackage())
	// Output: Low Vell: Lamplighters of the Drowned City false
}
