package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// The 5e-bits/5e-database JSON this generator reads. Only the structured facts are
// decoded; the prose (`desc`) is read only by the tests, which check that no summary
// copies it.

type ref struct {
	Index string `json:"index"`
	Name  string `json:"name"`
}

type abilityScore struct {
	Index    string `json:"index"`
	Name     string `json:"name"`
	FullName string `json:"full_name"`
}

type skill struct {
	Index        string `json:"index"`
	Name         string `json:"name"`
	AbilityScore ref    `json:"ability_score"`
}

type spell struct {
	Index         string `json:"index"`
	Name          string `json:"name"`
	Range         string `json:"range"`
	Components    []string
	Ritual        bool     `json:"ritual"`
	Duration      string   `json:"duration"`
	Concentration bool     `json:"concentration"`
	CastingTime   string   `json:"casting_time"`
	Level         int      `json:"level"`
	HigherLevel   []string `json:"higher_level"`
	AttackType    string   `json:"attack_type"`
	School        ref      `json:"school"`
	Classes       []ref    `json:"classes"`
	Damage        *struct {
		DamageType             *ref              `json:"damage_type"`
		DamageAtSlotLevel      map[string]string `json:"damage_at_slot_level"`
		DamageAtCharacterLevel map[string]string `json:"damage_at_character_level"`
	} `json:"damage"`
	HealAtSlotLevel map[string]string `json:"heal_at_slot_level"`
	DC              *struct {
		DCType    ref    `json:"dc_type"`
		DCSuccess string `json:"dc_success"`
	} `json:"dc"`
	AreaOfEffect *struct {
		Type string `json:"type"`
		Size int    `json:"size"`
	} `json:"area_of_effect"`
	Desc []string `json:"desc"`
}

type class struct {
	Index        string `json:"index"`
	Name         string `json:"name"`
	HitDie       int    `json:"hit_die"`
	SavingThrows []ref  `json:"saving_throws"`
}

type level struct {
	Index         string                     `json:"index"`
	Level         int                        `json:"level"`
	ProfBonus     int                        `json:"prof_bonus"`
	Class         ref                        `json:"class"`
	Subclass      *ref                       `json:"subclass"`
	Spellcasting  map[string]int             `json:"spellcasting"`
	ClassSpecific map[string]json.RawMessage `json:"class_specific"`
}

type feature struct {
	Index           string          `json:"index"`
	Name            string          `json:"name"`
	Level           int             `json:"level"`
	Class           ref             `json:"class"`
	Subclass        *ref            `json:"subclass"`
	Parent          *ref            `json:"parent"`
	Prerequisites   []prerequisite  `json:"prerequisites"`
	FeatureSpecific json.RawMessage `json:"feature_specific"`
	Desc            []string        `json:"desc"`
}

type prerequisite struct {
	Type    string `json:"type"`
	Level   int    `json:"level"`
	Feature string `json:"feature"`
	Spell   string `json:"spell"`
}

type monster struct {
	Index      string `json:"index"`
	Name       string `json:"name"`
	Size       string `json:"size"`
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	Alignment  string `json:"alignment"`
	ArmorClass []struct {
		Type  string `json:"type"`
		Value int    `json:"value"`
	} `json:"armor_class"`
	HitPoints     int            `json:"hit_points"`
	HitDice       string         `json:"hit_dice"`
	HitPointsRoll string         `json:"hit_points_roll"`
	Speed         map[string]any `json:"speed"`
	Strength      int            `json:"strength"`
	Dexterity     int            `json:"dexterity"`
	Constitution  int            `json:"constitution"`
	Intelligence  int            `json:"intelligence"`
	Wisdom        int            `json:"wisdom"`
	Charisma      int            `json:"charisma"`
	Proficiencies []struct {
		Value       int `json:"value"`
		Proficiency ref `json:"proficiency"`
	} `json:"proficiencies"`
	DamageVulnerabilities []string        `json:"damage_vulnerabilities"`
	DamageResistances     []string        `json:"damage_resistances"`
	DamageImmunities      []string        `json:"damage_immunities"`
	ConditionImmunities   []ref           `json:"condition_immunities"`
	Senses                map[string]any  `json:"senses"`
	Languages             string          `json:"languages"`
	ChallengeRating       float64         `json:"challenge_rating"`
	XP                    int             `json:"xp"`
	Actions               []monsterAction `json:"actions"`
	SpecialAbilities      []monsterAction `json:"special_abilities"`
	LegendaryActions      []monsterAction `json:"legendary_actions"`
	Reactions             []monsterAction `json:"reactions"`
	Desc                  string          `json:"desc"`
}

type monsterAction struct {
	Name        string `json:"name"`
	Desc        string `json:"desc"`
	AttackBonus *int   `json:"attack_bonus"`
	Damage      []struct {
		DamageType *ref   `json:"damage_type"`
		DamageDice string `json:"damage_dice"`
	} `json:"damage"`
	DC *struct {
		DCType      ref    `json:"dc_type"`
		DCValue     int    `json:"dc_value"`
		SuccessType string `json:"success_type"`
	} `json:"dc"`
	Usage *struct {
		Type     string `json:"type"`
		Dice     string `json:"dice"`
		MinValue int    `json:"min_value"`
		Times    int    `json:"times"`
	} `json:"usage"`
	MultiattackType string `json:"multiattack_type"`
	Actions         []struct {
		ActionName string          `json:"action_name"`
		Count      json.RawMessage `json:"count"`
		Type       string          `json:"type"`
	} `json:"actions"`
}

// srd is everything the generator reads, each list in a stable order.
type srd struct {
	abilities  []abilityScore
	skills     []skill
	conditions []ref
	damage     []ref
	spells     []spell
	classes    []class
	levels     []level
	features   []feature
	monsters   []monster
}

func load(dir string) (*srd, error) {
	s := &srd{}
	files := []struct {
		name string
		into any
	}{
		{"5e-SRD-Ability-Scores.json", &s.abilities},
		{"5e-SRD-Skills.json", &s.skills},
		{"5e-SRD-Conditions.json", &s.conditions},
		{"5e-SRD-Damage-Types.json", &s.damage},
		{"5e-SRD-Spells.json", &s.spells},
		{"5e-SRD-Classes.json", &s.classes},
		{"5e-SRD-Levels.json", &s.levels},
		{"5e-SRD-Features.json", &s.features},
		{"5e-SRD-Monsters.json", &s.monsters},
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, f.into); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	sort.SliceStable(s.spells, func(i, j int) bool { return s.spells[i].Index < s.spells[j].Index })
	sort.SliceStable(s.monsters, func(i, j int) bool { return s.monsters[i].Index < s.monsters[j].Index })
	sort.SliceStable(s.levels, func(i, j int) bool {
		a, b := s.levels[i], s.levels[j]
		if a.Class.Index != b.Class.Index {
			return a.Class.Index < b.Class.Index
		}
		return a.Level < b.Level
	})
	return s, nil
}

// classLevels returns the base-class level rows of one class, ordered 1..20.
func (s *srd) classLevels(class string) []level {
	var out []level
	for _, l := range s.levels {
		if l.Class.Index == class && l.Subclass == nil {
			out = append(out, l)
		}
	}
	return out
}
