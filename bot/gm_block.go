package bot

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"

	"sheetkeeper/catalog"
	"sheetkeeper/inventory"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// The sheet block of /gm brief: each character's sheet as gm.sheetSummary asks, a compact
// summary a GM narrates from, not the sheet.

// maxBlockValue is how much of one sheet value reaches the block; maxBlockNames how many
// rows of one list are named (a longer list is a spellbook, not a summary).
const (
	maxBlockValue = 80
	maxBlockNames = 40
)

// blockValue is a sheet value on its way into a prompt: one line, without the
// characters that shape a tag or a macro ({}[]<>), capped.
func blockValue(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) || unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case strings.ContainsRune("{}[]<>", r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if n := 0; len(out) > maxBlockValue {
		for i := range out {
			if n == maxBlockValue {
				return strings.TrimSpace(out[:i])
			}
			n++
		}
	}
	return out
}

// checkValue spells a check number the way the ruleset means it: dice in a pool, or a
// bonus added to the dice.
func checkValue(rs *ruleset.Ruleset, v float64) string {
	n := int(math.Round(v))
	if rs.Resolution.Kind == "dice-pool" {
		return plural(n, "die", "dice")
	}
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// cellText is one stored value as a block shows it.
func cellText(v any) string {
	switch x := v.(type) {
	case string:
		return blockValue(x)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return ""
		}
		return numText(x)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return ""
}

// sheetBlock is one character's sheet as a GM reads it, a line per part, each left out
// when it would say nothing: the name; ability modifiers; trained skills and saves; the
// fields and derived values gm.sheetSummary names; pools; tracks that are not at their
// default (or always shown), wound tracks with their level and penalty; notes;
// conditions on; and the lists gm.sheetSummary names, by row name with the columns it
// asks for, grouped and filtered as it says. held are the character's holdings (nil:
// none), which the sheet's numbers read.
func sheetBlock(l *ruleset.Loaded, ix *catalog.Index, card *sheet.Card, held *inventory.Holdings) string {
	rs := l.Ruleset
	vals := evaluate(rs, card, held)
	var lines []string
	push := func(s string) {
		if s != "" {
			lines = append(lines, s)
		}
	}
	push(blockValue(card.Name))
	push(abilityLine(rs, vals))
	push(trainedLine(rs, vals))
	push(summaryLine(rs, vals))
	pools := make([]string, 0, len(vals.Live.Pools))
	for i := range vals.Live.Pools {
		p := &vals.Live.Pools[i]
		pools = append(pools, p.Label+" "+sheet.PoolNow(p, p.Value, p.Temp))
	}
	push(strings.Join(pools, ", "))
	push(tracksLine(vals))
	var notes []string
	for _, t := range vals.Live.Text {
		if strings.TrimSpace(t.Value) != "" {
			notes = append(notes, t.Label+": "+blockValue(t.Value))
		}
	}
	push(strings.Join(notes, ", "))
	var on []string
	for _, k := range vals.Live.Conditions {
		if k.Active {
			on = append(on, k.Label)
		}
	}
	if len(on) > 0 {
		push("Conditions: " + strings.Join(on, ", "))
	}
	if sum := rs.GM.SheetSummary; sum != nil {
		for i := range sum.Lists {
			push(listLine(l, ix, vals, card, &sum.Lists[i]))
		}
	}
	return strings.Join(lines, "\n")
}

// abilityLine is every ability's modifier, by its short name when it has one.
func abilityLine(rs *ruleset.Ruleset, vals *sheet.Values) string {
	abil := make([]string, 0, len(rs.Sheet.Abilities))
	for _, a := range rs.Sheet.Abilities {
		name := a.Label
		if a.Short != "" {
			name = a.Short
		}
		abil = append(abil, name+" "+checkValue(rs, vals.AbilityMods[a.ID]))
	}
	return strings.Join(abil, ", ")
}

// trainedLine is the skills and saves above the first proficiency tier, with their
// modifiers; "" when there are none.
func trainedLine(rs *ruleset.Ruleset, vals *sheet.Values) string {
	first := ""
	if len(rs.Resolution.ProficiencyTiers) > 0 {
		first = rs.Resolution.ProficiencyTiers[0].ID
	}
	var trained []string
	for _, k := range rs.Sheet.Skills {
		if t := vals.SkillTiers[k.ID]; t != "" && t != first {
			trained = append(trained, k.Label+" "+checkValue(rs, vals.SkillMods[k.ID]))
		}
	}
	for _, k := range rs.Sheet.Saves {
		if t := vals.SaveTiers[k.ID]; t != "" && t != first {
			trained = append(trained, k.Label+" "+checkValue(rs, vals.SaveMods[k.ID]))
		}
	}
	if len(trained) == 0 {
		return ""
	}
	return "Trained: " + strings.Join(trained, ", ")
}

// summaryLine is the fields and derived values gm.sheetSummary names, each left out when
// hidden or empty; an enum field shows its value's label.
func summaryLine(rs *ruleset.Ruleset, vals *sheet.Values) string {
	sum := rs.GM.SheetSummary
	if sum == nil {
		return ""
	}
	var summary []string
	for _, id := range sum.Fields {
		f := rs.Sheet.Field(id)
		if f == nil || vals.Hidden(f.HideWhen) {
			continue
		}
		v := vals.FieldValue(id)
		text := cellText(v)
		if s, ok := v.(string); ok && f.Type == "enum" {
			if lv, ok := f.ValueLabels[s]; ok {
				text = blockValue(lv)
			}
		}
		if text != "" {
			summary = append(summary, f.Label+" "+text)
		}
	}
	for _, id := range sum.Derived {
		if d := rs.Sheet.DerivedValue(id); d != nil && !vals.Hidden(d.HideWhen) {
			summary = append(summary, d.Label+" "+numText(vals.Derived[id]))
		}
	}
	return strings.Join(summary, ", ")
}

// tracksLine is the tracks not at their default (or always shown): a plain track's
// value, a wound track's marks with its level, penalty and overflow.
func tracksLine(vals *sheet.Values) string {
	var tracks []string
	for i := range vals.Live.Tracks {
		t := &vals.Live.Tracks[i]
		always := t.Decl != nil && t.Decl.AlwaysShow
		if w := t.Wound; w != nil {
			if t.Value == 0 && w.Overflow == 0 && !always {
				continue
			}
			s := t.Label + " " + strconv.Itoa(t.Value) + "/" + strconv.Itoa(t.Max)
			if t.Value > 0 && t.Value <= len(w.Levels) {
				if lv := blockValue(w.Levels[t.Value-1].Label); lv != "" {
					s += " " + lv
				}
			}
			if w.Penalty != 0 {
				s += " " + strconv.Itoa(w.Penalty) + " to rolls"
			}
			if w.Overflow > 0 {
				s += " +" + strconv.Itoa(w.Overflow) + " over"
			}
			tracks = append(tracks, s)
			continue
		}
		if t.Value == t.Default() && !always {
			continue
		}
		tracks = append(tracks, t.Label+" "+strconv.Itoa(t.Value))
	}
	return strings.Join(tracks, ", ")
}

// listLine is one gm.sheetSummary list of a card: "Workings: Ember Dart 1, Kindle Wick
// 0", or grouped "Spells (0): Fire Bolt; (3): Fireball".
func listLine(l *ruleset.Loaded, ix *catalog.Index, vals *sheet.Values, card *sheet.Card, sl *ruleset.SummaryList) string {
	rs := l.Ruleset
	list := rs.Sheet.List(sl.List)
	if list == nil || vals.Hidden(list.HideWhen) {
		return ""
	}
	var groups []string
	byGroup := map[string][]string{}
	named := 0
	for _, row := range card.Build.Lists[list.ID] {
		if named == maxBlockNames {
			break
		}
		if sl.OnlyWhen != "" {
			flag, ok := row[sl.OnlyWhen].(bool)
			if !ok {
				if col := list.Column(sl.OnlyWhen); col != nil {
					flag, _ = col.Default.(bool)
				}
			}
			if !flag {
				continue
			}
		}
		name := columnText(list, sl.NameColumn, row)
		if name == "" {
			continue
		}
		var beside []string
		for _, id := range sl.Columns {
			if s := columnText(list, id, row); s != "" {
				beside = append(beside, s)
			}
		}
		if len(beside) > 0 {
			name += " " + strings.Join(beside, " ")
		}
		name += checkNote(l.Ruleset, ix, row.Marker())
		group := ""
		if sl.GroupBy != "" {
			group = cellText(row[sl.GroupBy])
		}
		if _, seen := byGroup[group]; !seen {
			groups = append(groups, group)
		}
		byGroup[group] = append(byGroup[group], name)
		named++
	}
	if len(groups) == 0 {
		return ""
	}
	if sl.GroupBy == "" {
		return list.Label + ": " + strings.Join(byGroup[""], ", ")
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		label := g
		if label == "" {
			label = "-"
		}
		parts[i] = "(" + label + "): " + strings.Join(byGroup[g], ", ")
	}
	return list.Label + " " + strings.Join(parts, "; ")
}

// columnText is one cell as the sheet shows it: a cell the row leaves out reads as its
// column's default; an enum by its label; a switch by its column's label when it is on.
func columnText(list *ruleset.List, id string, row sheet.Row) string {
	col := list.Column(id)
	v, ok := row[id]
	if !ok && col != nil {
		v = col.Default
	}
	if col != nil {
		switch col.Type {
		case "boolean":
			if b, _ := v.(bool); b {
				return blockValue(col.Label)
			}
			return ""
		case "enum":
			if s, ok := v.(string); ok {
				if lv, ok := col.ValueLabels[s]; ok {
					return blockValue(lv)
				}
			}
		}
	}
	return cellText(v)
}

// checkNote is what a row's entry does to a check, and what that costs, for an entry with
// check mechanics: " (check: {"dice":1}; costs 1 grit)".
func checkNote(rs *ruleset.Ruleset, ix *catalog.Index, marker string) string {
	e, ok := ix.Marked(marker)
	if !ok || e.Mechanics == nil || e.Mechanics.Check == nil {
		return ""
	}
	js, _ := json.Marshal(e.Mechanics.Check)
	s := " (check: " + string(js)
	if len(e.Mechanics.Cost) > 0 {
		s += "; " + costWords(rs, e.Mechanics)
	}
	return s + ")"
}
