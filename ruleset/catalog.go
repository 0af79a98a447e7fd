package ruleset

import (
	"sheetkeeper/ruleset/rules"

	"sheetkeeper/strictjson"
)

// Catalog is a named set of ready-made entries an author ships with the ruleset: rows
// the picker copies onto sheet lists (spells, class features), creatures a fight reads,
// or items a party carries. Its entries sit inline in Entries or, for a long list, in a
// standalone file at Asset (`catalogs/<id>.json`), checked when the picker first asks.
type Catalog struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	// Holds is "rows" (the default), "creatures" or "items"; Kind applies the default.
	Holds *string `json:"holds,omitempty"`
	// Feeds names the sheet lists the entries may write rows into: 1–8, required for a
	// catalog of rows, refused for the others (they write nothing onto a sheet).
	Feeds   []string        `json:"feeds,omitempty"`
	Filters []CatalogFilter `json:"filters,omitempty"`
	Units   *CatalogUnits   `json:"units,omitempty"`
	Entries []Entry         `json:"entries,omitempty" maxItems:"2000"` // MaxCatalogEntries
	Asset   *string         `json:"asset,omitempty"`
}

// CatalogFilter is something the picker may narrow entries by: a number, one word
// ("text"), or several words ("tags"). StartFrom names a sheet field the picker opens
// narrowed to, so a Tinker sees Tinker entries first.
type CatalogFilter struct {
	ID        string     `json:"id"`
	Label     string     `json:"label"`
	Type      string     `json:"type"`
	StartFrom *StartFrom `json:"startFrom,omitempty"`
}

// StartFrom names the sheet field a filter opens on.
type StartFrom struct {
	Field string `json:"field"`
}

// CatalogUnits says what the numbers of mechanics.range and area.size mean.
type CatalogUnits struct {
	Distance *DistanceUnit `json:"distance,omitempty"`
}

// DistanceUnit is a distance's name and what one cell of a board is worth in it.
type DistanceUnit struct {
	Label   string  `json:"label"`
	PerCell float64 `json:"perCell"`
}

// What a catalog holds.
const (
	holdsRows      = "rows"
	holdsCreatures = "creatures"
	holdsItems     = "items"
)

// Catalog limits (the entry limit holds inline and in a standalone file alike). The
// entry limit is counted while decoding (the `maxItems` tags of the entries fields), so
// a catalog of 699,000 entries is one problem, whatever its entries hold; the checks
// count it again for a catalog built in code.
const (
	maxCatalogs        = 12
	MaxCatalogEntries  = 2000
	maxFeeds           = 8
	maxCatalogFilters  = 8
	maxUnitLabel       = 12
	catalogAssetPrefix = "catalogs/"
	maxAssetPath       = 240
	// maxItems bounds every other array and object of a ruleset document or catalog
	// file while it is decoded: none has a reason to be longer than a catalog.
	maxItems = MaxCatalogEntries
	// maxValues bounds the values one document decodes: one per 8 bytes of the largest
	// file allowed (a 2 MB catalog), where real files have one per 16 to 60. A file of
	// 2,000-item arrays nested in 2,000-item arrays is refused after a budget of memory,
	// not after a decoded value for every three bytes.
	maxValues = 1 << 18
)

// decodeOptions are the options every ruleset document and catalog file is decoded with.
var decodeOptions = strictjson.Options{AllowComment: true, MaxItems: maxItems, MaxValues: maxValues}

// Kind returns what the catalog holds, "rows" when the file does not say.
func (cat *Catalog) Kind() string {
	if cat.Holds == nil {
		return holdsRows
	}
	return *cat.Holds
}

// AssetPath is the one path a catalog's standalone file may have.
func (cat *Catalog) AssetPath() string { return catalogAssetPrefix + cat.ID + ".json" }

func (cat *Catalog) feeds(list string) bool {
	for _, f := range cat.Feeds {
		if f == list {
			return true
		}
	}
	return false
}

// checkCatalogs checks every catalog header and its inline entries. Every problem inside
// an entry carries `catalog/entry` after the entry's path, so an author finds it among
// 2,000 others.
func (c *checker) checkCatalogs() {
	if c.rs.Catalogs == nil {
		return
	}
	c.Count("catalogs", len(c.rs.Catalogs), 0, maxCatalogs)
	c.Unique("catalogs", "catalog", len(c.rs.Catalogs), func(i int) string { return c.rs.Catalogs[i].ID })
	ctx := newEntryContext(c)
	for i := range c.rs.Catalogs {
		cat := &c.rs.Catalogs[i]
		path := strictjson.Join("catalogs", i)
		c.checkCatalogHeader(cat, path)
		if cat.Entries != nil {
			c.checkEntries(cat, cat.Entries, strictjson.Join(path, "entries"), ctx)
		}
	}
}

// checkCatalogHeader checks what a catalog says about itself.
func (c *checker) checkCatalogHeader(cat *Catalog, path string) {
	at := func(k string) string { return strictjson.Join(path, k) }
	c.SheetID(at("id"), cat.ID)
	c.Label(at("label"), cat.Label)
	kind := cat.Kind()
	if cat.Holds != nil {
		c.OneOf(at("holds"), kind, holdsRows, holdsCreatures, holdsItems)
	}
	switch kind {
	case holdsCreatures:
		c.UsesOnce("creature catalogs", 27, at("holds"))
		if c.rs.Combat == nil {
			c.Add(at("holds"), "a catalog of creatures needs a combat block for its creatures to be written in")
		}
	case holdsItems:
		c.UsesOnce("item catalogs", 49, at("holds"))
		if c.rs.Items == nil {
			c.Add(at("holds"), "a catalog of items needs an items block for its items to be written in")
		}
	}
	switch {
	case kind != holdsRows && cat.Feeds != nil:
		c.Add(at("feeds"), "a catalog of %s writes no rows, so it feeds no list", kind)
	case kind == holdsRows && cat.Feeds == nil:
		c.Add(at("feeds"), "a catalog of rows names the lists it feeds")
	case cat.Feeds != nil:
		c.Count(at("feeds"), len(cat.Feeds), 1, maxFeeds)
		for i, id := range cat.Feeds {
			c.Known(strictjson.Join(at("feeds"), i), "list", id, c.names.list(id) != nil)
		}
		c.UniqueStrings(at("feeds"), "list", cat.Feeds)
	}
	c.catalogFilters(at("filters"), cat.Filters)
	if u := cat.Units; u != nil && u.Distance != nil {
		c.PromptText(at("units.distance.label"), u.Distance.Label, maxUnitLabel)
		if u.Distance.PerCell <= 0 {
			c.Add(at("units.distance.perCell"), "must be above 0")
		}
	}
	if (cat.Entries == nil) == (cat.Asset == nil) {
		c.Add(path, `a catalog has exactly one of "entries" or "asset"`)
	}
	if cat.Entries != nil {
		c.Count(at("entries"), len(cat.Entries), 0, MaxCatalogEntries)
	}
	if cat.Asset != nil {
		c.UsesOnce("standalone catalog files", 21, at("asset"))
		if *cat.Asset != cat.AssetPath() || rules.TextLen(*cat.Asset) > maxAssetPath {
			c.Add(at("asset"), "a catalog's asset is %q", cat.AssetPath())
		}
	}
}

// catalogFilters checks a header's filters: unique sheet ids, a type, and a startFrom
// field the sheet declares.
func (c *checker) catalogFilters(path string, fs []CatalogFilter) {
	c.Count(path, len(fs), 0, maxCatalogFilters)
	c.Unique(path, "catalog filter", len(fs), func(i int) string { return fs[i].ID })
	for i := range fs {
		f := &fs[i]
		p := strictjson.Join(path, i)
		c.SheetID(strictjson.Join(p, "id"), f.ID)
		c.Label(strictjson.Join(p, "label"), f.Label)
		c.OneOf(strictjson.Join(p, "type"), f.Type, "number", "text", "tags")
		if f.StartFrom != nil {
			fp := strictjson.Join(p, "startFrom.field")
			c.Known(fp, "field", f.StartFrom.Field, c.names.field(f.StartFrom.Field) != nil)
		}
	}
}

// checkEntries checks a catalog's entries, wherever they ship. Their problems are named
// `catalog/entry` by rules.LabelIDs once every check has run.
func (c *checker) checkEntries(cat *Catalog, entries []Entry, path string, ctx *entryContext) {
	c.Unique(path, "entry", len(entries), func(i int) string { return entries[i].ID })
	for i := range entries {
		c.checkEntry(cat, &entries[i], strictjson.Join(path, i), ctx)
	}
}
