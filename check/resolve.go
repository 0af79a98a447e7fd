package check

import (
	"math"
	"slices"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// The results a check can come to, as the record writes them.
const (
	Success         = "success"
	Failure         = "failure"
	CriticalSuccess = "critical_success"
	CriticalFailure = "critical_failure"
)

// Payment is points a check took from a live pool (a spend it bought). The core applies
// the payments with the check's record, in one transaction: all or nothing.
type Payment struct {
	Pool   string
	Amount int
}

// Result is one resolved check: every number the engine used and every face it threw.
// Record turns it into the write-back; Faces, handed to NewReplay, resolves it again to
// the same roll.
type Result struct {
	Who     string
	Subject string // Skill, Save or Ability
	ID      string
	Label   string
	// With is the ability swapped in (or added, on a pool) when it changed the roll.
	With string
	// Number is the sheet's number for the check: a modifier on a sum, dice on a pool,
	// before the wound penalty and adjustments. Score and AbilityMod are the ability it
	// rolls with (the one with= swapped in, or the first of two); Proficiency the
	// card's derived proficiency bonus.
	Number                         int
	Score, AbilityMod, Proficiency int
	// Tier is the proficiency tier of a skill or save; Capped says its cap held it down;
	// Untrained the rule applied without training ("harder", "by"), if any.
	Tier      string
	Capped    bool
	Untrained string
	// Penalty is the wound track's penalty, Adjust what resolution.adjust added.
	Penalty, Adjust int

	DC    int
	HasDC bool
	// Mode is the advantage or disadvantage the dice were thrown with ("" for neither).
	Mode string
	// Dice is what was thrown ("1d20", "2d6", "6d10"); Rolls the faces that count, in
	// order (on a pool after re-throws, explosions included).
	Dice  string
	Rolls []int
	// Used is the kept throw of a sum; Modifier all it added; Total their sum.
	Used, Modifier, Total int
	// Pool only: the per-die target, net successes, successes a spend bought, whether
	// a halfOrMore botch went wrong alongside, the faces moved for this check, the
	// standing re-throw thrown, and how many dice were thrown again.
	Threshold, Successes, Bought int
	Complication                 bool
	Explode, Double              Opt
	Reroll                       string
	Rethrows                     int
	// Outcome is Success, Failure, CriticalSuccess or CriticalFailure; "" for a sum with
	// no difficulty (nothing to meet).
	Outcome string
	// Effects is the number active conditions and levels added (dice they roll
	// included), From what changed the check (that number, its mode, or a save failed),
	// Automatic that a condition decided it without a roll (a save it fails).
	Effects   int
	From      []string
	Automatic bool
	// Paid is what the check's spend took, for the core to apply with it; Use the paid
	// entry that changed the roll.
	Paid []Payment
	Use  string
	// Faces are every face the Source gave, in order: what a replay needs.
	Faces []int
}

// subject is what a check rolls, found on the ruleset.
type subject struct {
	kind    string
	skill   *ruleset.Skill
	ability *ruleset.Ability
	with    *ruleset.Ability
}

// run is one resolution in progress.
type run struct {
	rs  *ruleset.Ruleset
	res *ruleset.Resolution
	v   *sheet.Values
	req Request
	sub subject
	rec recorder
	out Result
	eff effects
	// harder is the untrained "harder" rule: the pool's target up one.
	harder bool
	// poolBase is the sheet's number before wounds, bonus dice and modifiers, for a
	// spend whose perCheck is "pool".
	poolBase int
}

// Resolve rolls one check for the card whose numbers v holds (nil: a character nobody
// has a sheet for, who rolls with nothing added) on rs's resolution, throwing dice from
// src. A skill, save or ability the ruleset does not have is refused unknown-skill,
// unknown-save or unknown-ability; a check its untrained rule refuses, untrained.
func Resolve(rs *ruleset.Ruleset, v *sheet.Values, req Request, src Source) (Result, error) {
	r := run{rs: rs, res: &rs.Resolution, v: v, req: req, rec: recorder{src: src, faces: make([]int, 0, 8)}}
	sub, err := findSubject(rs, req)
	if err != nil {
		return Result{}, err
	}
	r.sub = sub
	r.out = Result{Who: req.Who, Subject: sub.kind}
	if sub.skill != nil {
		r.out.ID, r.out.Label = sub.skill.ID, sub.skill.Label
	} else {
		r.out.ID, r.out.Label = sub.ability.ID, sub.ability.Label
	}
	if err := r.cardNumbers(); err != nil {
		return Result{}, err
	}
	r.eff = conditionEffects(rs, v, sub, req.Items)
	if r.res.Kind == "dice-pool" {
		r.pool()
	} else {
		r.sum()
	}
	r.out.From = r.eff.from
	r.out.Faces = r.rec.faces
	return r.out, nil
}

// matches reports whether name (as a GM wrote it, trimmed) names id or label: case
// aside, and with a space standing for an underscore in an id ("animal handling").
// It allocates nothing: it runs for every skill a check might name.
func matches(name, id, label string) bool {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, label) || strings.EqualFold(name, id) {
		return true
	}
	if len(name) != len(id) {
		return false
	}
	for i := 0; i < len(name); i++ {
		a, b := name[i], id[i]
		if a == ' ' {
			a = '_'
		}
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

func findAbility(rs *ruleset.Ruleset, name string) *ruleset.Ability {
	for i := range rs.Sheet.Abilities {
		a := &rs.Sheet.Abilities[i]
		if matches(name, a.ID, a.Label) || a.Short != "" && strings.EqualFold(name, a.Short) {
			return a
		}
	}
	return nil
}

func findSkillLike(list []ruleset.Skill, name string) *ruleset.Skill {
	for i := range list {
		if matches(name, list[i].ID, list[i].Label) {
			return &list[i]
		}
	}
	return nil
}

// findSubject finds what the check rolls. A skill= that names an ability is an ability
// check (Marinara's GM writes skill="Strength"); a save= may name its ability ("save=
// Dexterity" for the Dexterity save). A with= the ruleset does not have is ignored.
func findSubject(rs *ruleset.Ruleset, req Request) (subject, error) {
	s := subject{kind: req.Subject}
	switch req.Subject {
	case Skill:
		if s.skill = findSkillLike(rs.Sheet.Skills, req.Name); s.skill == nil {
			if s.ability = findAbility(rs, req.Name); s.ability == nil {
				return s, refusal.New(refusal.UnknownSkill, "the ruleset has no skill %q", req.Name)
			}
			s.kind = Ability
		}
	case Save:
		if s.skill = findSkillLike(rs.Sheet.Saves, req.Name); s.skill == nil {
			if a := findAbility(rs, req.Name); a != nil {
				for i := range rs.Sheet.Saves {
					if rs.Sheet.Saves[i].Ability == a.ID {
						s.skill = &rs.Sheet.Saves[i]
						break
					}
				}
			}
			if s.skill == nil {
				return s, refusal.New(refusal.UnknownSave, "the ruleset has no save %q", req.Name)
			}
		}
	case Ability:
		if s.ability = findAbility(rs, req.Name); s.ability == nil {
			return s, refusal.New(refusal.UnknownAbility, "the ruleset has no ability %q", req.Name)
		}
	default:
		return s, refusal.New(refusal.Malformed, "a check rolls a skill, a save or an ability")
	}
	if req.With != "" {
		s.with = findAbility(rs, req.With)
	}
	return s, nil
}

// whole rounds a sheet number to the whole number a roll adds.
func whole(x float64) int {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return int(math.Round(max(min(x, 1e6), -1e6)))
}

// cardNumbers reads the card's number for the check (with a with= swap or addition),
// its untrained rule, the wound penalty and the adjustments.
func (r *run) cardNumbers() error {
	v, s, pool := r.v, &r.sub, r.res.Kind == "dice-pool"
	if s.skill != nil {
		k := s.skill
		if v != nil {
			n, _ := v.Modifier(s.kind, k.ID)
			tiers, key := v.SkillTiers, "skill:"
			if s.kind == Save {
				tiers, key = v.SaveTiers, "save:"
			}
			r.out.Tier = tiers[k.ID]
			c, capped := v.Caps[key+k.ID]
			if s.with != nil && s.with.ID != k.Ability {
				uncapped := n
				if capped {
					uncapped = c.Uncapped
				}
				n = uncapped - v.AbilityMods[k.Ability] + v.AbilityMods[s.with.ID]
				if capped {
					n = math.Min(n, c.Cap)
				}
				r.out.With = s.with.Label
			}
			r.out.Capped = capped && c.Uncapped > c.Cap
			r.out.Number = whole(n)
			if len(r.res.ProficiencyTiers) > 0 && r.out.Tier == r.res.ProficiencyTiers[0].ID {
				if rule := sheet.UntrainedRule(r.rs, k); rule != nil {
					switch rule.Mode {
					case "refuse":
						return refusal.New(refusal.Untrained, "%s cannot be attempted untrained", k.Label)
					case "harder":
						r.harder, r.out.Untrained = pool, "harder"
					case "by":
						r.out.Untrained = "by"
					}
				}
			}
		}
	} else if v != nil {
		r.out.Number = whole(v.AbilityMods[s.ability.ID])
		if s.with != nil && pool && r.res.PoolRange().AbilityPlusAbility {
			r.out.Number += whole(v.AbilityMods[s.with.ID])
			r.out.With = s.with.Label
		}
	}
	r.poolBase = r.out.Number
	if v == nil {
		return nil
	}
	if used := r.abilitiesUsed(); used[0] != "" {
		r.out.Score, r.out.AbilityMod = whole(v.AbilityScores[used[0]]), whole(v.AbilityMods[used[0]])
	}
	r.out.Proficiency = whole(v.ProficiencyBonus)
	if id := r.res.PenaltyFrom; id != "" {
		if t := v.Live.Track(id); t != nil && t.Wound != nil {
			r.out.Penalty = t.Wound.Penalty
		}
	}
	used := r.abilitiesUsed()
	for i := range r.res.Adjust {
		a := &r.res.Adjust[i]
		if a.Abilities == nil || slices.ContainsFunc(a.Abilities, func(id string) bool { return slices.Contains(used, id) }) {
			r.out.Adjust += whole(v.Ref(&a.Value))
		}
	}
	return nil
}

// abilitiesUsed are the abilities the check rolls with: the ability itself (and a second
// one added), or the skill's or save's own ability, or the one with= swapped in.
func (r *run) abilitiesUsed() []string {
	s := &r.sub
	if s.ability != nil {
		if r.out.With != "" {
			return []string{s.ability.ID, s.with.ID}
		}
		return []string{s.ability.ID}
	}
	if r.out.With != "" {
		return []string{s.with.ID}
	}
	return []string{s.skill.Ability}
}

// difficulty finds the ladder step a check names: by difficulty= label, else (on a pool)
// the one step whose successes a dc= asks for. A label no step or two steps answer to
// is no step.
func (r *run) difficulty() *ruleset.LadderStep {
	steps := r.res.DifficultyLadder
	find := func(ok func(*ruleset.LadderStep) bool) *ruleset.LadderStep {
		var found *ruleset.LadderStep
		for i := range steps {
			if ok(&steps[i]) {
				if found != nil {
					return nil
				}
				found = &steps[i]
			}
		}
		return found
	}
	if r.req.Difficulty != "" {
		if s := find(func(s *ruleset.LadderStep) bool { return matches(r.req.Difficulty, s.Label, s.Label) }); s != nil {
			return s
		}
	}
	if r.req.DC.Set && r.res.Kind == "dice-pool" {
		return find(func(s *ruleset.LadderStep) bool { return s.Successes != nil && *s.Successes == r.req.DC.V })
	}
	return nil
}
