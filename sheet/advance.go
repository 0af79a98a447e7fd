package sheet

import (
	"math"
	"strconv"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// AdvanceRequest is one advance: exactly one target — Kind "field", "ability", "skill"
// or "save" and its Name (id or label) — and for a field or ability exactly one of By and
// To, for a skill or save a Tier (id or label).
type AdvanceRequest struct {
	Kind string
	Name string
	By   *int
	To   *string
	Tier string
}

// AdvanceRequestOf reads an advance request from a sheet tag. A tag naming no target or
// several is malformed (the tag reader refuses those already).
func AdvanceRequestOf(t parser.Tag) (AdvanceRequest, error) {
	var req AdvanceRequest
	for _, k := range [...]string{"field", "ability", "skill", "save"} {
		if v, ok := t.Get(k); ok {
			if req.Kind != "" {
				return req, refuse(refusal.Malformed, "advance takes exactly one of field, ability, skill and save")
			}
			req.Kind, req.Name = k, v
		}
	}
	if req.Kind == "" {
		return req, refuse(refusal.Malformed, "advance needs a field, ability, skill or save")
	}
	if v, ok := t.Get("by"); ok {
		n, isInt := t.Int("by")
		if !isInt {
			return req, refuse(refusal.Malformed, "by must be a whole number, not %q", v)
		}
		req.By = &n
	}
	if v, ok := t.Get("to"); ok {
		req.To = &v
	}
	req.Tier, _ = t.Get("tier")
	return req, nil
}

// opAdvance is the dispatch handler of advance: it changes the card's permanent build
// as the seed's sheet.advancement permits (SPEC 5.6); now is the new value, and scaled
// values are recomputed. The card's sheet version is kept. The caller passes game cards
// only: a library card is never advanced.
//
// Refusals: not-enabled without an advancement block; unknown-field, -ability, -skill,
// -save and -tier for a name the sheet does not have (ids and labels match ignoring
// case); not-allowed for a target the block does not permit; bad-amount, stating the
// bounds, for a value outside them — a number field's min and max (and a whole number
// where it is an integer field), an ability's bounds, a text's maxLength — never clamped;
// malformed for a request of the wrong shape (by on a text field, both by and to).
func opAdvance(op *Op) (string, error) {
	req, err := AdvanceRequestOf(op.Req)
	if err != nil {
		return "", err
	}
	now, err := advanceOn(op.Rules, op.Card, op.Values, entriesFor(op.Opts), req)
	if err != nil {
		return "", err
	}
	op.BuildChanged = true
	return now, nil
}

// maxAdvanceNumber bounds a number field that declares no min or max: a tag's numbers
// have at most 9 digits.
const maxAdvanceNumber = 999_999_999

// advanceOn applies req to card (evaluated as vals) and recomputes its scaled values.
func advanceOn(rs *ruleset.Ruleset, card *Card, vals *Values, entries Entries, req AdvanceRequest) (string, error) {
	adv := rs.Sheet.Advancement
	if adv == nil {
		return "", refuse(refusal.NotEnabled, "this ruleset does not allow advancement")
	}
	var now string
	var err error
	switch req.Kind {
	case "field":
		now, err = advanceField(rs, card, vals, adv, req)
	case "ability":
		now, err = advanceAbility(rs, card, vals, adv, req)
	case "skill", "save":
		now, err = advanceTier(rs, card, adv, req)
	default:
		err = refuse(refusal.Malformed, "advance needs a field, ability, skill or save")
	}
	if err != nil {
		return "", err
	}
	Rescale(rs, card, entries)
	return now, nil
}

// byOrTo checks a number request's shape: exactly one of by and to, by within what one
// command may move.
func byOrTo(req AdvanceRequest) error {
	if (req.By == nil) == (req.To == nil) {
		return refuse(refusal.Malformed, "advance of a %s takes exactly one of by and to", req.Kind)
	}
	if req.Tier != "" {
		return refuse(refusal.Malformed, "advance of a %s takes by or to, not a tier", req.Kind)
	}
	if req.By != nil && (*req.By < -maxOpAmount || *req.By > maxOpAmount) {
		return badAmount(-maxOpAmount, maxOpAmount, "one advance moves at most %d", maxOpAmount)
	}
	return nil
}

// target works out the number an advance asks for from current: current plus by, or to
// read as a whole number (anything else is bad-amount with the bounds).
func target(req AdvanceRequest, current float64, lo, hi int) (float64, error) {
	if req.By != nil {
		return current + float64(*req.By), nil
	}
	n, err := strconv.Atoi(*req.To)
	if err != nil {
		return 0, badAmount(lo, hi, "to must be a whole number from %d to %d", lo, hi)
	}
	return float64(n), nil
}

func advanceField(rs *ruleset.Ruleset, card *Card, vals *Values, adv *ruleset.Advancement, req AdvanceRequest) (string, error) {
	f := ruleset.ByName(rs.Sheet.Fields, req.Name, func(f *ruleset.Field) []string { return []string{f.ID, f.Label} })
	if f == nil {
		return "", refuseNear(refusal.UnknownField, nearOf(req.Name, rs.Sheet.Fields, func(f *ruleset.Field) (string, string) { return f.Label, f.ID }), "the sheet has no field %q", req.Name)
	}
	if !contains(adv.Fields, f.ID) {
		return "", refuse(refusal.NotAllowed, "%s cannot be advanced", f.Label)
	}
	switch {
	case f.Type == "number":
		if err := byOrTo(req); err != nil {
			return "", err
		}
		lo, hi := fieldBounds(f)
		x, err := target(req, vals.Numbers[f.ID], lo, hi)
		if err != nil {
			return "", err
		}
		if (f.IsInteger() && x != math.Trunc(x)) || (f.Min != nil && x < *f.Min) || (f.Max != nil && x > *f.Max) ||
			math.Abs(x) > maxAdvanceNumber {
			return "", badAmount(lo, hi, "%s must be a whole number from %d to %d, not %s", f.Label, lo, hi, formatNumber(x))
		}
		card.Build.Fields = put(card.Build.Fields, f.ID, any(x))
		return formatNumber(x), nil
	case f.IsText():
		if req.By != nil || req.To == nil || req.Tier != "" {
			return "", refuse(refusal.Malformed, "advance of a text field takes to, and only to")
		}
		limit := maxBuildString
		if f.MaxLength != nil {
			limit = *f.MaxLength
		}
		if parser.UTF16Len(*req.To) > limit { // as Marinara counts a text field's maxLength
			return "", badAmount(0, limit, "%s holds at most %d characters", f.Label, limit)
		}
		card.Build.Fields = put(card.Build.Fields, f.ID, any(*req.To))
		return *req.To, nil
	}
	return "", refuse(refusal.NotAllowed, "%s is a %s field; advancement changes number and text fields", f.Label, f.Type)
}

// fieldBounds is a number field's bounds as whole numbers, for bad-amount.
func fieldBounds(f *ruleset.Field) (int, int) {
	lo, hi := -maxAdvanceNumber, maxAdvanceNumber
	if f.Min != nil {
		lo = int(math.Ceil(*f.Min))
	}
	if f.Max != nil {
		hi = int(math.Floor(*f.Max))
	}
	return lo, hi
}

func advanceAbility(rs *ruleset.Ruleset, card *Card, vals *Values, adv *ruleset.Advancement, req AdvanceRequest) (string, error) {
	var a *ruleset.Ability
	for i := range rs.Sheet.Abilities {
		if x := &rs.Sheet.Abilities[i]; ruleset.FoldName(x.ID) == ruleset.FoldName(req.Name) || ruleset.FoldName(x.Label) == ruleset.FoldName(req.Name) {
			a = x
			break
		}
	}
	if a == nil {
		return "", refuseNear(refusal.UnknownAbility, nearOf(req.Name, rs.Sheet.Abilities, func(a *ruleset.Ability) (string, string) { return a.Label, a.ID }), "the sheet has no ability %q", req.Name)
	}
	if !adv.Abilities {
		return "", refuse(refusal.NotAllowed, "abilities cannot be advanced")
	}
	if err := byOrTo(req); err != nil {
		return "", err
	}
	x, err := target(req, vals.AbilityScores[a.ID], a.Min, a.Max)
	if err != nil {
		return "", err
	}
	if x != math.Trunc(x) || x < float64(a.Min) || x > float64(a.Max) {
		return "", badAmount(a.Min, a.Max, "%s must be from %d to %d, not %s", a.Label, a.Min, a.Max, formatNumber(x))
	}
	card.Build.Abilities = put(card.Build.Abilities, a.ID, x)
	return formatNumber(x), nil
}

func advanceTier(rs *ruleset.Ruleset, card *Card, adv *ruleset.Advancement, req AdvanceRequest) (string, error) {
	list, allowed, unknown := rs.Sheet.Skills, adv.Skills, refusal.UnknownSkill
	store := &card.Build.Skills
	if req.Kind == "save" {
		list, allowed, unknown = rs.Sheet.Saves, adv.Saves, refusal.UnknownSave
		store = &card.Build.Saves
	}
	var k *ruleset.Skill
	for i := range list {
		if x := &list[i]; ruleset.FoldName(x.ID) == ruleset.FoldName(req.Name) || ruleset.FoldName(x.Label) == ruleset.FoldName(req.Name) {
			k = x
			break
		}
	}
	if k == nil {
		return "", refuseNear(unknown, nearOf(req.Name, list, func(s *ruleset.Skill) (string, string) { return s.Label, s.ID }), "the sheet has no %s %q", req.Kind, req.Name)
	}
	if !allowed {
		return "", refuse(refusal.NotAllowed, "%ss cannot be advanced", req.Kind)
	}
	if req.By != nil || req.To != nil || req.Tier == "" {
		return "", refuse(refusal.Malformed, "advance of a %s takes a tier, and only a tier", req.Kind)
	}
	var tier *ruleset.ProficiencyTier
	for i := range rs.Resolution.ProficiencyTiers {
		if t := &rs.Resolution.ProficiencyTiers[i]; ruleset.FoldName(t.ID) == ruleset.FoldName(req.Tier) || ruleset.FoldName(t.Label) == ruleset.FoldName(req.Tier) {
			tier = t
			break
		}
	}
	if tier == nil {
		return "", refuse(refusal.UnknownTier, "the ruleset has no proficiency tier %q", req.Tier)
	}
	*store = put(*store, k.ID, tier.ID)
	return tier.Label, nil
}

// formatNumber writes a number the way a sheet shows it: whole numbers without a point.
func formatNumber(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
