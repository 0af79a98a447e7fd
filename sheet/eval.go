package sheet

import (
	"math"

	"sheetkeeper/ruleset"
)

// ItemStats reads stats over the items a character holds, for itemStat value references.
// The inventory fills it; ok false means no held item gives the stat, and the reference
// then reads its default. A nil ItemStats holds nothing.
type ItemStats interface {
	ItemStat(spec *ruleset.ItemStat) (value float64, ok bool)
}

// Values is every number a card's sheet yields, worked out once, top to bottom, the way
// Marinara's sheet math does: ability scores and modifiers, number fields as read (default
// applied), derived values in declaration order, skill and save tiers and modifiers (with
// caps and untrained rules) and the proficiency bonus. Live is the live state as it reads
// now (nil for a build-only evaluation, where every live read is 0 — only where the format
// refuses one: a maximum, the proficiency bonus, a catalog's scaling).
type Values struct {
	AbilityScores    map[string]float64
	AbilityMods      map[string]float64
	Numbers          map[string]float64
	Derived          map[string]float64
	SkillTiers       map[string]string
	SaveTiers        map[string]string
	SkillMods        map[string]float64
	SaveMods         map[string]float64
	ProficiencyBonus float64
	// Caps holds, per capped skill or save ("skill:<id>", "save:<id>"), the cap in force
	// and the number before it.
	Caps map[string]Cap
	Live *Resolved

	ix    *index
	build *Build
	items ItemStats
	// profDone/profBusy memoise the proficiency bonus, read lazily the first time a
	// modifier asks for it.
	profDone, profBusy bool
	// trainedDone says the skill and save maps are filled: always for Evaluate, only when
	// first asked for (Modifier) for the evaluation a live-only op runs on.
	trainedDone bool
}

// Cap is a skill's or save's cap and its number before the cap held it.
type Cap struct {
	Cap, Uncapped float64
}

// index is a ruleset with what every evaluation needs to know about it worked out once.
// Sheets are small (tens of fields, a few lists), so names are found by a linear scan:
// cheaper than building maps for every request.
type index struct {
	rs *ruleset.Ruleset
	// readsLive says whether any derived value or cap reads the live state or items, so
	// a second, live evaluation is needed.
	readsLive bool
	// numberFields is how many fields are numbers: the size of Values.Numbers.
	numberFields int
}

func (ix *index) tier(id string) *ruleset.ProficiencyTier {
	ts := ix.rs.Resolution.ProficiencyTiers
	for i := range ts {
		if ts[i].ID == id {
			return &ts[i]
		}
	}
	return nil
}

func newIndex(rs *ruleset.Ruleset) *index {
	s := &rs.Sheet
	ix := &index{rs: rs}
	for i := range s.Fields {
		if s.Fields[i].Type == "number" {
			ix.numberFields++
		}
	}
	live := func(r *ruleset.ValueRef) bool {
		return r != nil && (r.LiveTrack != "" || r.LivePool != "" || r.ItemStat != nil)
	}
	for i := range s.Derived {
		d := &s.Derived[i]
		if live(d.From) || d.EnumFrom != nil && d.EnumFrom.LiveState != "" {
			ix.readsLive = true
		}
		for j := range d.Of {
			if live(&d.Of[j]) {
				ix.readsLive = true
			}
		}
	}
	for _, k := range [][]ruleset.Skill{s.Skills, s.Saves} {
		for i := range k {
			if live(k[i].Cap) {
				ix.readsLive = true
			}
		}
	}
	return ix
}

// Evaluate works out every number card's sheet yields on rs, with its live state read as
// it stands (pool maximums worked out without it, as the format requires) and items for
// itemStat references (nil: none held).
func Evaluate(rs *ruleset.Ruleset, card *Card, items ItemStats) *Values {
	return evaluateCard(newIndex(rs), card, items)
}

// EvaluateBuild works out the numbers of a build alone: every live read and itemStat
// reads 0 (its default), as for a maximum or a catalog's scaled column.
func EvaluateBuild(rs *ruleset.Ruleset, build *Build) *Values {
	return evaluate(newIndex(rs), build, nil, nil, nil)
}

func evaluateCard(ix *index, card *Card, items ItemStats) *Values {
	base := evaluate(ix, &card.Build, nil, nil, nil)
	live := resolveLive(ix, card, base)
	if !ix.readsLive && abilityChanges(items) == nil {
		base.Live, base.items = live, items
		return base
	}
	// The live evaluation keeps the build's proficiency bonus: items that change an
	// ability do not move it (ItemAbilities).
	return evaluate(ix, &card.Build, live, items, &base.ProficiencyBonus)
}

// LiveOf is the card's live state as it stands, Evaluate(rs, card, nil).Live, worked
// out the way a live-only op works it (evaluateLive): a reply's summary asks only for
// pools left, so the skills and saves (and a live sheet's second pass) are not made.
func LiveOf(rs *ruleset.Ruleset, card *Card) *Resolved {
	return evaluateLive(newIndex(rs), card).Live
}

// evaluateLive is the evaluation a live-only op runs on: such an op reads nothing but the
// live state (Values.Live), and the live state needs only the build's numbers — pool and
// track maximums, hideWhen, wound levels — so skills and saves are left to be worked out
// when first asked for (Ref and Modifier still give them), and the second, live
// evaluation a sheet whose derived values read the live state needs is not made. Its
// numbers are the build's alone, with no items.
func evaluateLive(ix *index, card *Card) *Values {
	base := evaluateNumbers(ix, &card.Build, nil, nil, nil)
	base.Live = resolveLive(ix, card, base)
	return base
}

// evaluate works the sheet out top to bottom, Marinara's order: abilities, number fields,
// derived values (which may read skills and saves, worked out on demand), then every
// skill and save. prof, when given, is the proficiency bonus already worked out.
func evaluate(ix *index, build *Build, live *Resolved, items ItemStats, prof *float64) *Values {
	v := evaluateNumbers(ix, build, live, items, prof)
	v.evaluateTrained()
	return v
}

// evaluateNumbers works out abilities, number fields and derived values: everything but
// the skill and save maps. Items that change abilities change the scores read here.
func evaluateNumbers(ix *index, build *Build, live *Resolved, items ItemStats, prof *float64) *Values {
	s := &ix.rs.Sheet
	v := &Values{
		AbilityScores: make(map[string]float64, len(s.Abilities)),
		AbilityMods:   make(map[string]float64, len(s.Abilities)),
		Numbers:       make(map[string]float64, ix.numberFields),
		Derived:       make(map[string]float64, len(s.Derived)),
		Live:          live,
		ix:            ix,
		build:         build,
		items:         items,
	}
	if prof != nil {
		v.ProficiencyBonus, v.profDone = *prof, true
	}
	changes := abilityChanges(items)
	for i := range s.Abilities {
		a := &s.Abilities[i]
		score := float64(a.Default)
		if f, ok := build.Abilities[a.ID]; ok && finite(f) {
			score = f
		}
		if ch, ok := changes[a.ID]; ok {
			score = ch.changed(a, score)
		}
		v.AbilityScores[a.ID] = score
		v.AbilityMods[a.ID] = AbilityModifier(ix.rs, score)
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		if f.Type != "number" {
			continue
		}
		if x, ok := build.Fields[f.ID].(float64); ok && finite(x) {
			v.Numbers[f.ID] = x
		} else {
			v.Numbers[f.ID] = numberDefault(f)
		}
	}
	for i := range s.Derived {
		d := &s.Derived[i]
		v.Derived[d.ID] = v.derive(d)
	}
	return v
}

// evaluateTrained fills the skill and save maps (tiers, modifiers, caps) and the
// proficiency bonus, once.
func (v *Values) evaluateTrained() {
	if v.trainedDone {
		return
	}
	v.trainedDone = true
	s, build := &v.ix.rs.Sheet, v.build
	v.SkillTiers = make(map[string]string, len(s.Skills))
	v.SaveTiers = make(map[string]string, len(s.Saves))
	v.SkillMods = make(map[string]float64, len(s.Skills))
	v.SaveMods = make(map[string]float64, len(s.Saves))
	for i := range s.Skills {
		k := &s.Skills[i]
		v.SkillTiers[k.ID] = v.tierOf(build.Skills, k.ID).ID
		v.SkillMods[k.ID] = v.trained(k, build.Skills, "skill:")
	}
	for i := range s.Saves {
		k := &s.Saves[i]
		v.SaveTiers[k.ID] = v.tierOf(build.Saves, k.ID).ID
		v.SaveMods[k.ID] = v.trained(k, build.Saves, "save:")
	}
	v.proficiency()
}

func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// numberDefault is what an unset number field reads: its default, else 0 held inside its
// bounds.
func numberDefault(f *ruleset.Field) float64 {
	if d, ok := f.Default.(float64); ok {
		return d
	}
	x := 0.0
	if f.Min != nil {
		x = math.Max(x, *f.Min)
	}
	if f.Max != nil {
		x = math.Min(x, *f.Max)
	}
	return x
}

// AbilityModifier turns a score into a modifier by the ruleset's abilityModifier:
// identity, stepTable, or floor((score − 10) / 2).
func AbilityModifier(rs *ruleset.Ruleset, score float64) float64 {
	m := rs.Resolution.AbilityModifier
	switch m.Op {
	case "identity":
		return score
	case "stepTable":
		return m.Table.Lookup(score)
	}
	return math.Floor((score - 10) / 2)
}

func (v *Values) derive(d *ruleset.Derived) float64 {
	switch d.Op {
	case "sum":
		t := 0.0
		for i := range d.Of {
			t += v.Ref(&d.Of[i])
		}
		return t
	case "min", "max":
		if len(d.Of) == 0 {
			return 0
		}
		t := v.Ref(&d.Of[0])
		for i := 1; i < len(d.Of); i++ {
			x := v.Ref(&d.Of[i])
			if d.Op == "min" {
				t = math.Min(t, x)
			} else {
				t = math.Max(t, x)
			}
		}
		return t
	case "scale":
		if len(d.Of) == 0 || d.Multiplier == nil {
			return 0
		}
		return d.Round.Round(v.Ref(&d.Of[0]) * *d.Multiplier)
	case "stepTable":
		if d.From == nil {
			return 0
		}
		return d.Steps.Lookup(v.Ref(d.From))
	case "enumTable":
		if d.EnumFrom == nil {
			return d.DefaultValue()
		}
		var key string
		var has bool
		if d.EnumFrom.Field != "" {
			key, has = v.FieldValue(d.EnumFrom.Field).(string)
		} else if st := v.Live.State(d.EnumFrom.LiveState); st != nil {
			key, has = st.Value, true
		}
		if x, ok := d.EnumTable[key]; has && ok {
			return x
		}
		return d.DefaultValue()
	}
	return 0
}

// tierOf is the card's tier in a skill or save: the stored one when the ruleset still
// has it, else the first (untrained) tier.
func (v *Values) tierOf(tiers map[string]string, id string) *ruleset.ProficiencyTier {
	if t := v.ix.tier(tiers[id]); t != nil {
		return t
	}
	return &v.ix.rs.Resolution.ProficiencyTiers[0]
}

// TierBonus is what a tier adds: the proficiency bonus times its multiplier, rounded
// its way, plus its flat.
func TierBonus(t *ruleset.ProficiencyTier, bonus float64) float64 {
	x := 0.0
	if t.Multiplier != nil {
		x = t.Round.Round(*t.Multiplier * bonus)
	}
	if t.Flat != nil {
		x += float64(*t.Flat)
	}
	return x
}

// UntrainedRule is what a check on the skill or save does without training: its own
// rule, else its section's, else normal (nil).
func UntrainedRule(rs *ruleset.Ruleset, k *ruleset.Skill) *ruleset.UntrainedRule {
	if k.Rule != nil {
		return k.Rule
	}
	if s := rs.Sheet.Section(k.Section); k.Section != "" && s != nil {
		return s.Rule
	}
	return nil
}

// trained works out one skill's or save's number: its ability's modifier, its tier's
// bonus, the sheet's free bonus, an untrained "by" on the first tier, then its cap.
func (v *Values) trained(k *ruleset.Skill, tiers map[string]string, capKey string) float64 {
	if len(v.ix.rs.Resolution.ProficiencyTiers) == 0 {
		return 0
	}
	tier := v.tierOf(tiers, k.ID)
	x := TierBonus(tier, v.proficiency())
	if k.Ability != "" {
		x += v.AbilityMods[k.Ability]
	}
	if b, ok := v.build.Bonuses[k.ID]; ok && finite(b) {
		x += b
	}
	if tier == &v.ix.rs.Resolution.ProficiencyTiers[0] {
		if r := UntrainedRule(v.ix.rs, k); r != nil && r.Mode == "by" {
			x += float64(r.By)
		}
	}
	if k.Cap == nil {
		return x
	}
	c := math.Floor(v.Ref(k.Cap))
	if v.Caps == nil {
		v.Caps = map[string]Cap{}
	}
	v.Caps[capKey+k.ID] = Cap{Cap: c, Uncapped: x}
	return math.Min(x, c)
}

// proficiency is the proficiency bonus, read once. A malformed ruleset whose bonus reads a
// modifier reads 0 rather than recursing.
func (v *Values) proficiency() float64 {
	if v.profDone || v.profBusy {
		return v.ProficiencyBonus
	}
	v.profBusy = true
	if p := v.ix.rs.Resolution.Proficiency; p != nil {
		v.ProficiencyBonus = v.Ref(&p.Bonus)
	}
	v.profBusy, v.profDone = false, true
	return v.ProficiencyBonus
}

// Ref resolves one value reference against the sheet. A name that points at nothing
// reads 0 rather than failing a turn.
func (v *Values) Ref(r *ruleset.ValueRef) float64 {
	switch {
	case r == nil:
		return 0
	case r.Const != nil:
		return *r.Const
	case r.Field != "":
		return v.Numbers[r.Field]
	case r.Derived != "":
		return v.Derived[r.Derived]
	case r.AbilityScore != "":
		return v.AbilityScores[r.AbilityScore]
	case r.AbilityMod != "":
		return v.AbilityMods[r.AbilityMod]
	case r.AbilityModFromField != "":
		f := v.ix.rs.Sheet.Field(r.AbilityModFromField)
		chosen, _ := v.build.Fields[r.AbilityModFromField].(string)
		if f == nil || f.Type != "enum" || !contains(f.Values, chosen) {
			chosen = ""
			if f != nil {
				chosen, _ = f.Default.(string)
			}
		}
		return v.AbilityMods[chosen]
	case r.SkillMod != "":
		if m, ok := v.SkillMods[r.SkillMod]; ok {
			return m
		}
		if k := v.ix.rs.Sheet.Skill(r.SkillMod); k != nil {
			return v.trained(k, v.build.Skills, "skill:")
		}
		return 0
	case r.SaveMod != "":
		if m, ok := v.SaveMods[r.SaveMod]; ok {
			return m
		}
		if k := v.ix.rs.Sheet.Save(r.SaveMod); k != nil {
			return v.trained(k, v.build.Saves, "save:")
		}
		return 0
	case r.LiveTrack != "":
		return v.Live.trackRead(r.LiveTrack, r.Read)
	case r.LivePool != "":
		if p := v.Live.Pool(r.LivePool); p != nil {
			return float64(p.Value)
		}
		return 0
	case r.ListSum != nil:
		return v.listSum(r.ListSum)
	case r.ItemStat != nil:
		if v.items != nil {
			if x, ok := v.items.ItemStat(r.ItemStat); ok {
				return x
			}
		}
		if r.ItemStat.Default != nil {
			return *r.ItemStat.Default
		}
		return 0
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// listSum adds up one number column over a list's rows (only rows whose onlyWhen column
// is true, when named). An empty cell reads its column's default; a hidden list adds 0.
func (v *Values) listSum(s *ruleset.ListSum) float64 {
	l := v.ix.rs.Sheet.List(s.List)
	rows := v.build.Lists[s.List]
	if l == nil || len(rows) == 0 || v.Hidden(l.HideWhen) {
		return 0
	}
	col := l.Column(s.Column)
	var marker *ruleset.Column
	if s.OnlyWhen != "" {
		marker = l.Column(s.OnlyWhen)
	}
	total := 0.0
	for _, row := range rows {
		if marker != nil {
			on, ok := row[marker.ID]
			if !ok {
				on = marker.Default
			}
			if b, _ := on.(bool); !b {
				continue
			}
		}
		if x, ok := row.Number(s.Column); ok {
			total += x
		} else if col != nil && col.Type == "number" {
			d, _ := col.Default.(float64)
			total += d
		}
	}
	return total
}

// FieldValue is the value a field holds as the sheet shows it: what is stored, else the
// value a blank sheet starts with; an enum value the ruleset no longer offers reads as
// the field's default. hideWhen and enumTable read this.
func (v *Values) FieldValue(id string) any {
	f := v.ix.rs.Sheet.Field(id)
	stored, has := v.build.Fields[id]
	if f == nil {
		return stored
	}
	if f.Type == "enum" {
		if s, ok := stored.(string); ok && contains(f.Values, s) {
			return stored // not s: boxing the string again would allocate
		}
		if f.Default != nil {
			return f.Default
		}
		if len(f.Values) > 0 {
			return f.Values[0]
		}
		return nil
	}
	if has {
		return stored
	}
	return FieldDefault(f)
}

// FieldDefault is the value a blank sheet starts a field with.
func FieldDefault(f *ruleset.Field) any {
	if f.Default != nil {
		return f.Default
	}
	switch f.Type {
	case "number":
		return numberDefault(f)
	case "boolean":
		return false
	case "enum":
		if len(f.Values) > 0 {
			return f.Values[0]
		}
		return nil
	}
	return ""
}

// Hidden reports whether a hideWhen rule takes its owner off this sheet.
func (v *Values) Hidden(h *ruleset.HideWhen) bool {
	if h == nil {
		return false
	}
	val := v.FieldValue(h.Field)
	if h.In != nil && val == nil {
		return false
	}
	return h.Hides(val)
}

// Modifier is the number a check on a skill, save or ability rolls with: kind "skill",
// "save" or "ability".
func (v *Values) Modifier(kind, id string) (float64, bool) {
	v.evaluateTrained()
	var m map[string]float64
	switch kind {
	case "skill":
		m = v.SkillMods
	case "save":
		m = v.SaveMods
	case "ability":
		m = v.AbilityMods
	}
	x, ok := m[id]
	return x, ok
}
