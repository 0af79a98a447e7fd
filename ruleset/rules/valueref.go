package rules

// ValueRef names one number a character's sheet works out: a constant, a field, a
// derived value, an ability score or modifier, a skill or save modifier, a live track
// or pool, a sum over a list's rows, or a stat over the items the character holds.
// Exactly one key is set. It is the closed vocabulary every maximum, bonus, derived
// value and scaled column reads, so there are no expressions to evaluate.
type ValueRef struct {
	Const               *float64 `json:"const,omitempty"`
	Field               string   `json:"field,omitempty"`
	Derived             string   `json:"derived,omitempty"`
	AbilityScore        string   `json:"abilityScore,omitempty"`
	AbilityMod          string   `json:"abilityMod,omitempty"`
	AbilityModFromField string   `json:"abilityModFromField,omitempty"`
	SkillMod            string   `json:"skillMod,omitempty"`
	SaveMod             string   `json:"saveMod,omitempty"`
	LiveTrack           string   `json:"liveTrack,omitempty"`
	// Read says which number of a live track is read: "value" (the default), "filled",
	// "remaining" or, on a wound track, "penalty". Only beside LiveTrack.
	Read     string    `json:"read,omitempty"`
	LivePool string    `json:"livePool,omitempty"`
	ListSum  *ListSum  `json:"listSum,omitempty"`
	ItemStat *ItemStat `json:"itemStat,omitempty"`
}

// ListSum adds up one number column of a list's rows; with OnlyWhen, only the rows whose
// boolean column OnlyWhen is true.
type ListSum struct {
	List     string `json:"list"`
	Column   string `json:"column"`
	OnlyWhen string `json:"onlyWhen,omitempty"`
}

// ItemStat reads a stat over the items a character holds: From "worn", "carried" or
// "all"; Pick "sum" (value times quantity), "max", "min" or "count"; narrowed by slot,
// category or tag; Default when no item gives the stat.
type ItemStat struct {
	Stat     string   `json:"stat,omitempty"`
	From     string   `json:"from"`
	Pick     string   `json:"pick"`
	Slot     string   `json:"slot,omitempty"`
	Category string   `json:"category,omitempty"`
	Tag      string   `json:"tag,omitempty"`
	Default  *float64 `json:"default,omitempty"`
}
