package ruleset

// Placeholders replaced by the fight helper (creatures, battle, combat).
type (
	Battle   struct{}
	Combat   struct{}
	Creature struct{}
)

func (c *checker) checkFight()                             {}
func (c *checker) checkCreature(cr *Creature, path string) {}
