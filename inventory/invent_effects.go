package inventory

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/fight"
	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// What an invented item does while worn or carried (worn=, carried=), as Marinara's guide
// reads a GM's words: changes split by ";", each "+N" or "-N", "advantage" or
// "disadvantage" on a skill or a save by name, or on "checks" or "saves" for all of
// them; "fails" for saves; "+N" or "-N" on an ability's name to raise or lower it; or
// "none". What a small model writes instead is read too: the number after the name
// ("Brawn +1"), "on"/"to" between, "bonus" or "roll" after. A bonus is held to the
// rarity's cap (a penalty never is); what names nothing of the sheet, and changes to a
// fight (attacks, defense), are left out and the answer says so.
//
// The item keeps each change in the canonical words the reader reads back (its "worn" and
// "carried" fields), so ItemEffects gives an invented item's effects as it gives a
// catalog item's.

// effectsReader reads worn= and carried= against a ruleset's sheet.
type effectsReader struct {
	sheet *ruleset.Sheet
	cap   *int // the rarity's bonus cap, or nil
	notes []string
}

func (r *effectsReader) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// read reads one of worn= or carried= into an effect and its canonical text ("" for
// none).
func (r *effectsReader) read(what, s string) (*ruleset.ItemEffect, string) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return nil, ""
	}
	e := &ruleset.ItemEffect{}
	var canon []string
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		if text := r.change(e, part); text != "" {
			canon = append(canon, text)
		} else {
			r.note("%s %q names nothing of the sheet: left out", what, rules.Clip(part))
		}
	}
	if len(canon) == 0 {
		return nil, ""
	}
	return e, strings.Join(canon, "; ")
}

// change reads one change into e, returning its canonical words, or "" when it reads as
// nothing the sheet has.
func (r *effectsReader) change(e *ruleset.ItemEffect, part string) string {
	words := strings.Fields(strings.ToLower(part))
	words = dropWords(words, "bonus", "roll", "rolls", "on", "to")
	if len(words) == 0 {
		return ""
	}
	switch words[0] {
	case "advantage", "disadvantage":
		return r.mode(e, words[0], strings.Join(words[1:], " "))
	case "fails", "fail":
		return r.fails(e, strings.Join(words[1:], " "))
	}
	n, rest, ok := amount(words)
	if !ok || n == 0 {
		return ""
	}
	return r.flat(e, n, rest)
}

func dropWords(ws []string, drop ...string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		if !slices.Contains(drop, w) {
			out = append(out, w)
		}
	}
	return out
}

// amount finds a change's number, first ("+1 sneak") or last ("sneak +1").
func amount(ws []string) (int, string, bool) {
	for _, i := range []int{0, len(ws) - 1} {
		w := ws[i]
		if w[0] != '+' && w[0] != '-' {
			continue
		}
		n, err := strconv.Atoi(w)
		if err != nil || n < -100 || n > 100 {
			return 0, "", false
		}
		rest := append(append([]string(nil), ws[:i]...), ws[i+1:]...)
		return n, strings.Join(rest, " "), true
	}
	return 0, "", false
}

// target reads what a change is on: "checks" or "saves" for all of them, else a skill, a
// save or an ability by id or label, "checks" or "saves" after a name saying which.
func (r *effectsReader) target(t string) (kind, id, label string) {
	hint := ""
	for _, h := range []struct{ suffix, kind string }{{" checks", "checks"}, {" check", "checks"}, {" saving throws", "saves"}, {" saves", "saves"}, {" save", "saves"}} {
		if strings.HasSuffix(t, h.suffix) {
			t, hint = strings.TrimSuffix(t, h.suffix), h.kind
			break
		}
	}
	switch t {
	case "checks", "check":
		return "checks", "", ""
	case "saves", "save", "saving throws":
		return "saves", "", ""
	}
	skill := findSheetWord(r.sheet.Skills, t)
	save := findSheetWord(r.sheet.Saves, t)
	switch {
	case hint == "saves" && save != nil:
		return "save", save.ID, save.Label
	case hint != "saves" && skill != nil:
		return "skill", skill.ID, skill.Label
	}
	if hint == "" {
		for _, a := range r.sheet.Abilities {
			if a.ID == t || ruleset.FoldName(a.Label) == t || a.Short != "" && strings.ToLower(a.Short) == t {
				return "ability", a.ID, a.Label
			}
		}
	}
	if save != nil && hint != "checks" {
		return "save", save.ID, save.Label
	}
	return "", "", ""
}

func findSheetWord(list []ruleset.Skill, t string) *ruleset.Skill {
	for i := range list {
		if list[i].ID == t || ruleset.FoldName(list[i].Label) == t {
			return &list[i]
		}
	}
	return nil
}

// flat reads "+N target": a modifier on checks or saves, or an ability raised or lowered.
func (r *effectsReader) flat(e *ruleset.ItemEffect, n int, t string) string {
	kind, id, label := r.target(t)
	if kind == "" {
		return ""
	}
	if n > 0 && r.cap != nil && n > *r.cap {
		on := label
		if on == "" {
			on = kind
		}
		r.note("+%d on %s is +%d: the rarity gives at most +%d", n, on, *r.cap, *r.cap)
		n = *r.cap
	}
	m := fight.Modifier{Flat: &n}
	switch kind {
	case "checks", "saves":
		m.To = kind
		e.Modifiers = append(e.Modifiers, m)
		return fmt.Sprintf("%+d %s", n, kind)
	case "skill":
		m.To, m.Skills = "checks", []string{id}
		e.Modifiers = append(e.Modifiers, m)
		return fmt.Sprintf("%+d %s checks", n, label)
	case "save":
		m.To, m.Saves = "saves", []string{id}
		e.Modifiers = append(e.Modifiers, m)
		return fmt.Sprintf("%+d %s saves", n, label)
	case "ability":
		if e.Abilities == nil {
			e.Abilities, e.AbilityChanges = map[string]strictjson.Raw{}, map[string]ruleset.AbilityChange{}
		}
		add := n
		if ch, had := e.AbilityChanges[id]; had && ch.Add != nil {
			add += *ch.Add
		}
		e.AbilityChanges[id] = ruleset.AbilityChange{Add: &add}
		e.Abilities[id], _ = json.Marshal(map[string]int{"add": add})
		return fmt.Sprintf("%+d %s", n, label)
	}
	return ""
}

// mode reads "advantage on target" for checks or saves.
func (r *effectsReader) mode(e *ruleset.ItemEffect, mode, t string) string {
	kind, id, label := r.target(t)
	m := fight.Modifier{Mode: mode}
	switch kind {
	case "checks", "saves":
		m.To = kind
		e.Modifiers = append(e.Modifiers, m)
		return mode + " on " + kind
	case "skill":
		m.To, m.Skills = "checks", []string{id}
		e.Modifiers = append(e.Modifiers, m)
		return mode + " on " + label + " checks"
	case "save":
		m.To, m.Saves = "saves", []string{id}
		e.Modifiers = append(e.Modifiers, m)
		return mode + " on " + label + " saves"
	}
	return ""
}

// fails reads "fails target saves": saves its holder fails without a roll (all of them
// for "saves").
func (r *effectsReader) fails(e *ruleset.ItemEffect, t string) string {
	if t == "" {
		t = "saves"
	}
	kind, id, label := r.target(t)
	switch {
	case kind == "saves":
		for _, s := range r.sheet.Saves {
			e.FailsSaves = append(e.FailsSaves, s.ID)
		}
		if len(r.sheet.Saves) > 0 {
			return "fails saves"
		}
	case kind == "save" || kind == "ability" && findSheetWord(r.sheet.Saves, id) != nil:
		e.FailsSaves = append(e.FailsSaves, id)
		return "fails " + label + " saves"
	}
	return ""
}

// ItemEffects returns what an item does while worn and while carried (nil for nothing): a
// ruleset catalog item's own, as its entry writes them; an invented item's, as its worn and
// carried fields keep them. An item of no ruleset does nothing.
func (c *Campaign) ItemEffects(it *Item) (worn, carried *ruleset.ItemEffect) {
	s := c.System
	if ri := s.RulesetItem(it.ID); ri != nil {
		return ri.Worn, ri.Carried
	}
	if s.sheet == nil {
		return nil, nil
	}
	r := &effectsReader{sheet: s.sheet}
	w, _ := it.Fields["worn"].(string)
	cr, _ := it.Fields["carried"].(string)
	worn, _ = r.read("worn", w)
	carried, _ = r.read("carried", cr)
	return worn, carried
}

// RulesetItem returns the ruleset's own item a catalog item was derived from (by its id,
// "<catalog>/<entry>": its worn and carried effects, requirements, attack, use…), or nil.
func (s *System) RulesetItem(id string) *ruleset.Item { return s.ruleItems[id] }

// effectWords writes what a ruleset item does while worn or carried in the words the
// reader reads, so an item invented like= it starts with its effects: modifiers of a
// flat number or a mode on checks or saves (one change per skill or save), saves failed,
// abilities raised or lowered. ok is false when it does more than those say (dice, a fight's
// effects, an ability set), which are not carried over.
func effectWords(e *ruleset.ItemEffect, sheet *ruleset.Sheet) (text string, ok bool) {
	if e == nil {
		return "", true
	}
	ok = len(e.Resist)+len(e.Vulnerable)+len(e.Immune)+len(e.ConditionImmunities) == 0
	var out []string
	label := func(list []ruleset.Skill, id string) string {
		if w := findSheetWord(list, id); w != nil {
			return w.Label
		}
		return id
	}
	on := func(to string, skills, saves []string, say func(target string) string) {
		switch {
		case to == "checks" && len(skills) > 0:
			for _, id := range skills {
				out = append(out, say(label(sheet.Skills, id)+" checks"))
			}
		case to == "saves" && len(saves) > 0:
			for _, id := range saves {
				out = append(out, say(label(sheet.Saves, id)+" saves"))
			}
		case to == "checks" || to == "saves":
			out = append(out, say(to))
		default:
			ok = false
		}
	}
	for _, m := range e.Modifiers {
		switch {
		case m.Dice != "" || m.Times != nil:
			ok = false
		case m.Flat != nil:
			n := *m.Flat
			on(m.To, m.Skills, m.Saves, func(t string) string { return fmt.Sprintf("%+d %s", n, t) })
		case m.Mode != "":
			on(m.To, m.Skills, m.Saves, func(t string) string { return m.Mode + " on " + t })
		}
	}
	for _, eff := range e.Effects {
		to, mode, found := strings.Cut(strings.TrimPrefix(eff, "own-"), "-")
		if !found || !strings.HasPrefix(eff, "own-") {
			ok = false
			continue
		}
		on(to, e.Skills, e.Saves, func(t string) string { return mode + " on " + t })
	}
	for _, id := range e.FailsSaves {
		out = append(out, "fails "+label(sheet.Saves, id)+" saves")
	}
	for _, id := range rules.SortedKeys(e.AbilityChanges) {
		ch := e.AbilityChanges[id]
		if ch.Add == nil {
			ok = false
			continue
		}
		name := id
		for _, a := range sheet.Abilities {
			if a.ID == id {
				name = a.Label
			}
		}
		out = append(out, fmt.Sprintf("%+d %s", *ch.Add, name))
	}
	return strings.Join(out, "; "), ok
}
