package ruleset

// Placeholders replaced by the core helper (sheet, resolution, rests, gm, layers).
type (
	License    struct{}
	Coverage   struct{}
	Resolution struct{}
	Sheet      struct{}
	Rest       struct{}
	GM         struct{}
	Layer      struct{}
	sheetNames struct{}
)

func (c *checker) checkCore() {}
