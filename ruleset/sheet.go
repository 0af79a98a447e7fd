package ruleset

import (
	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// Sheet declares a character sheet from a closed set of primitives: the build a player
// makes (abilities, skills, saves, fields, lists), the numbers worked out from it
// (derived), and the live state play changes (live).
type Sheet struct {
	// Version is bumped by the author when the sheet's shape changes; stored sheets
	// record it.
	Version   int       `json:"version"`
	Sections  []Section `json:"sections,omitempty"`
	Abilities []Ability `json:"abilities,omitempty"`
	Skills    []Skill   `json:"skills,omitempty"`
	Saves     []Skill   `json:"saves,omitempty"`
	// SkillTiers and SaveTiers name the proficiency tiers the editor offers; nil means
	// all of them.
	SkillTiers  []string     `json:"skillTiers,omitempty"`
	SaveTiers   []string     `json:"saveTiers,omitempty"`
	BonusRange  *BonusRange  `json:"bonusRange,omitempty"`
	Fields      []Field      `json:"fields,omitempty"`
	Derived     []Derived    `json:"derived,omitempty"`
	Lists       []List       `json:"lists,omitempty"`
	Live        Live         `json:"live,omitempty"`
	Advancement *Advancement `json:"advancement,omitempty"`
}

// Section groups things on the sheet and may set the untrained rule of its skills and
// saves.
type Section struct {
	ID        string         `json:"id"`
	Label     string         `json:"label"`
	Untrained strictjson.Raw `json:"untrained,omitempty"`
	Rule      *UntrainedRule `json:"-"`
}

// UntrainedRule says what a check on a skill or save does without training: Mode
// "normal", "harder" or "refuse", or (Mode "by") add By to its number.
type UntrainedRule struct {
	Mode string
	By   int
}

// Ability is one ability score with integer bounds.
type Ability struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Short   string `json:"short,omitempty"`
	Min     int    `json:"min"`
	Max     int    `json:"max"`
	Default int    `json:"default"`
	Section string `json:"section,omitempty"`
}

// Skill is a skill or a save: it may roll with an ability and be capped by a value the
// sheet works out.
type Skill struct {
	ID        string         `json:"id"`
	Label     string         `json:"label"`
	Ability   string         `json:"ability,omitempty"`
	Cap       *ValueRef      `json:"cap,omitempty"`
	Section   string         `json:"section,omitempty"`
	Untrained strictjson.Raw `json:"untrained,omitempty"`
	Rule      *UntrainedRule `json:"-"`
}

// BonusRange bounds the free per-skill and per-save bonus every sheet may carry.
type BonusRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Bonus returns the bonus range, -20..40 when the sheet leaves it out.
func (s *Sheet) Bonus() BonusRange {
	if s.BonusRange == nil {
		return BonusRange{Min: -20, Max: 40}
	}
	return *s.BonusRange
}

// Field is one typed value: a sheet field, or a list column (Column is the same shape).
// Which keys apply depends on Type — number (min, max, integer, default), text and
// longtext (maxLength, default), boolean (default), enum (values, valueLabels, default),
// dice (default, example); a field may sit in a section and hide, a column may be
// required. One struct rather than six, so a field and a column can never disagree about
// what a value is; the checks refuse keys that do not belong to the type.
type Field struct {
	ID          string            `json:"id"`
	Label       string            `json:"label"`
	Type        string            `json:"type"`
	Section     string            `json:"section,omitempty"`
	HideWhen    *HideWhen         `json:"hideWhen,omitempty"`
	Required    *bool             `json:"required,omitempty"`
	Min         *float64          `json:"min,omitempty"`
	Max         *float64          `json:"max,omitempty"`
	Integer     *bool             `json:"integer,omitempty"`
	MaxLength   *int              `json:"maxLength,omitempty"`
	Values      []string          `json:"values,omitempty"`
	ValueLabels map[string]string `json:"valueLabels,omitempty"`
	Default     any               `json:"default,omitempty"`
	Example     *string           `json:"example,omitempty"`
}

// Column is a list column: a Field with required instead of section and hideWhen.
type Column = Field

// IsInteger reports whether a number value must be whole (the default).
func (f *Field) IsInteger() bool { return f.Integer == nil || *f.Integer }

// IsRequired reports whether a list column must be filled.
func (f *Field) IsRequired() bool { return f.Required != nil && *f.Required }

// IsText reports whether the value is free text (text or longtext).
func (f *Field) IsText() bool { return f.Type == "text" || f.Type == "longtext" }

// Derived is a number worked out from other values by a closed set of ops: sum, min,
// max (of), scale (of × multiplier, rounded), stepTable (from, table) and enumTable (a
// number per value of an enum field or a live state). The union members are kept raw
// and decoded by op into the typed fields below during checking.
type Derived struct {
	ID         string         `json:"id"`
	Label      string         `json:"label"`
	Section    string         `json:"section,omitempty"`
	HideWhen   *HideWhen      `json:"hideWhen,omitempty"`
	Op         string         `json:"op"`
	RawOf      strictjson.Raw `json:"of,omitempty"`
	RawFrom    strictjson.Raw `json:"from,omitempty"`
	RawTable   strictjson.Raw `json:"table,omitempty"`
	Multiplier *float64       `json:"multiplier,omitempty"`
	Round      Rounding       `json:"round,omitempty"`
	Default    *float64       `json:"default,omitempty"`

	// Of holds the references of sum, min, max (several) and scale (one).
	Of []ValueRef `json:"-"`
	// From is what a stepTable reads.
	From *ValueRef `json:"-"`
	// Steps is a stepTable's table.
	Steps StepTable `json:"-"`
	// EnumFrom and EnumTable are an enumTable's source and its number per value.
	EnumFrom  *EnumSource        `json:"-"`
	EnumTable map[string]float64 `json:"-"`
}

// EnumSource is what an enumTable is keyed on: exactly one of an enum field (fixed when
// the character is made) or a live state (which changes in play).
type EnumSource struct {
	Field     string `json:"field,omitempty"`
	LiveState string `json:"liveState,omitempty"`
}

// DefaultValue is what an enumTable reads for a value it leaves out (0 by default).
func (d *Derived) DefaultValue() float64 {
	if d.Default == nil {
		return 0
	}
	return *d.Default
}

// List is a repeating table of rows (spells, features, gear) with typed columns. With
// Pools every row is a live counter keyed by its name.
type List struct {
	ID       string     `json:"id"`
	Label    string     `json:"label"`
	Section  string     `json:"section,omitempty"`
	HideWhen *HideWhen  `json:"hideWhen,omitempty"`
	MaxItems int        `json:"maxItems"`
	Columns  []Column   `json:"columns"`
	Pools    *ListPools `json:"pools,omitempty"`
}

// ListPools makes a list's rows counters: NameColumn keys the row, MaxColumn is its
// maximum, RechargeColumn says which rest refills it.
type ListPools struct {
	NameColumn     string `json:"nameColumn"`
	MaxColumn      string `json:"maxColumn"`
	RechargeColumn string `json:"rechargeColumn,omitempty"`
}

// NameColumn returns the column that names a row: the pools' name column, else the
// first text column, else "".
func (l *List) NameColumn() string {
	if l.Pools != nil {
		return l.Pools.NameColumn
	}
	for _, col := range l.Columns {
		if col.Type == "text" {
			return col.ID
		}
	}
	return ""
}

// Live is the state play changes: pools, tracks, text notes, conditions and states.
type Live struct {
	Pools      []LivePool  `json:"pools,omitempty"`
	Tracks     []Track     `json:"tracks,omitempty"`
	Text       []LiveText  `json:"text,omitempty"`
	Conditions []Condition `json:"conditions,omitempty"`
	States     []State     `json:"states,omitempty"`
}

// LivePool is a spendable resource (hit points, slots). Pools of one Group form a
// ladder in declaration order. Level and Pays are the seed's (API 1.171): a pool pays
// the costs of up to four other groups at its own level.
type LivePool struct {
	ID        string    `json:"id"`
	Label     string    `json:"label"`
	Max       ValueRef  `json:"max"`
	AllowTemp bool      `json:"allowTemp,omitempty"`
	Group     string    `json:"group,omitempty"`
	Start     string    `json:"start,omitempty"`
	HideWhen  *HideWhen `json:"hideWhen,omitempty"`
	Level     *ValueRef `json:"level,omitempty"`
	Pays      []string  `json:"pays,omitempty"`
}

// StartsFull reports whether a new sheet starts the pool at its maximum (the default)
// rather than at zero.
func (p *LivePool) StartsFull() bool { return p.Start != "empty" }

// Track is a bounded integer (exhaustion, death saves) or, with Levels or Boxes, a wound
// track whose marks sit on a column of boxes.
type Track struct {
	ID         string         `json:"id"`
	Label      string         `json:"label"`
	Min        int            `json:"min"`
	RawMax     strictjson.Raw `json:"max"`
	Default    *int           `json:"default,omitempty"`
	Levels     []TrackLevel   `json:"levels,omitempty"`
	Kinds      []TrackKind    `json:"kinds,omitempty"`
	Boxes      *TrackBoxes    `json:"boxes,omitempty"`
	Fill       string         `json:"fill,omitempty"`
	OnFull     string         `json:"onFull,omitempty"`
	Extra      *TrackExtra    `json:"extra,omitempty"`
	AlwaysShow bool           `json:"alwaysShow,omitempty"`
	HideWhen   *HideWhen      `json:"hideWhen,omitempty"`

	// MaxNumber or MaxRef is the decoded max: a number, or on a plain or boxes track a
	// value the sheet works out.
	MaxNumber *int      `json:"-"`
	MaxRef    *ValueRef `json:"-"`
}

// IsWound reports whether the track is a wound track (named levels or numbered boxes).
func (t *Track) IsWound() bool { return t.Levels != nil || t.Boxes != nil }

// TrackLevel is one rung of a wound track, best first; Penalty is what being marked
// down to it does to a roll.
type TrackLevel struct {
	Label   string `json:"label"`
	Penalty int    `json:"penalty"`
}

// TrackKind is a kind of harm a wound track takes; Severity orders them.
type TrackKind struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Severity int    `json:"severity"`
}

// TrackBoxes makes a wound track of numbered boxes (as many as its max), the penalty
// read off a table at the boxes filled or remaining.
type TrackBoxes struct {
	Penalty BoxPenalty `json:"penalty"`
}

// BoxPenalty reads a boxes track's penalty: By "filled" or "remaining", Table of
// [count, penalty] with ascending counts.
type BoxPenalty struct {
	By    string    `json:"by"`
	Table StepTable `json:"table"`
}

// TrackExtra adds levels per character from a list: each row inserts CountColumn levels
// at the penalty in PenaltyColumn.
type TrackExtra struct {
	List          string `json:"list"`
	CountColumn   string `json:"countColumn"`
	PenaltyColumn string `json:"penaltyColumn"`
}

// LiveText is a short note play keeps (a current goal), at most MaxLength characters.
type LiveText struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	MaxLength int    `json:"maxLength"`
}

// Condition is an on/off status (poisoned, prone).
type Condition struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// State is exactly one value out of a closed set at a time (a form, a stance).
type State struct {
	ID          string            `json:"id"`
	Label       string            `json:"label"`
	Values      []string          `json:"values"`
	ValueLabels map[string]string `json:"valueLabels,omitempty"`
	Default     *string           `json:"default,omitempty"`
	HideWhen    *HideWhen         `json:"hideWhen,omitempty"`
}

// DefaultValue is where every sheet starts and where a rest puts it back: Default, else
// the first value.
func (s *State) DefaultValue() string {
	if s.Default != nil {
		return *s.Default
	}
	if len(s.Values) > 0 {
		return s.Values[0]
	}
	return ""
}

// ValueLabel is what a player reads for value v: its label, else v itself.
func (s *State) ValueLabel(v string) string {
	if l, ok := s.ValueLabels[v]; ok {
		return l
	}
	return v
}

// Advancement (the seed's sheet.advancement) lets the advance command change the
// permanent build: the listed number and text fields, and all abilities, skills or
// saves where set. Text guides the GM.
type Advancement struct {
	Fields    []string `json:"fields,omitempty"`
	Abilities bool     `json:"abilities,omitempty"`
	Skills    bool     `json:"skills,omitempty"`
	Saves     bool     `json:"saves,omitempty"`
	Text      *string  `json:"text,omitempty"`
}

// refusesScalar says why the value could never be v ("" when it could): a hideWhen or a
// layer compares against values the field can actually hold.
func (f *Field) refusesScalar(v any) string {
	switch x := v.(type) {
	case float64:
		if f.Type != "number" {
			return "is a " + f.Type + " field, so the value must not be a number"
		}
	case bool:
		if f.Type != "boolean" {
			return "is a " + f.Type + " field, so the value must not be a boolean"
		}
	case string:
		switch f.Type {
		case "number", "boolean":
			return "is a " + f.Type + " field, so the value must not be a string"
		case "enum":
			for _, e := range f.Values {
				if e == x {
					return ""
				}
			}
			return "has no value \"" + rules.Clip(x) + "\""
		}
	}
	return ""
}
