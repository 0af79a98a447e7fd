package ruleset

// Placeholders replaced by the catalogs helper (catalogs, entries, items).
type (
	Catalog struct{}
	Items   struct{}
)

func (c *checker) checkCatalogs() {}
func (c *checker) checkItems()    {}
