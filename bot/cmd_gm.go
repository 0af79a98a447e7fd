package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"sheetkeeper/catalog"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /gm brief: what an AI Game Master is fed, so a person can see it, check it, and paste
// it into a model that is not connected to Marinara. Three parts:
//
//   - the ruleset's GM text: how to call for checks, the world, how to use the sheets,
//     with the campaign's layers' guidance appended after the ruleset's own;
//   - the tag instructions, generated from the ruleset: every op of the sheet tag, each
//     shown with a name this ruleset really has (its pools, tracks, conditions, states,
//     notes and rests), only the ops the ruleset can use, and the names a command may
//     take listed once (Marinara teaches the same grammar in its GM prompt);
//   - each character's sheet block, as gm.sheetSummary asks: a compact summary, not the
//     sheet — what a GM needs to narrate honestly and to write a command that will not be
//     refused.
//
// It is seen only by the GM who asked, split into messages of at most 2,000 characters at
// line breaks, each in a code block (copied as plain text, and never read as a tag).

// gmCommands adds /gm brief.
func gmCommands(r *router) {
	r.command(CommandSpec{
		Name:        "gm brief",
		Description: "What an AI GM is fed: the ruleset's GM text, the tag instructions and every character's sheet block",
		GMOnly:      true,
	}, (*Core).cmdGMBrief)
}

// maxMessage is the most characters one Discord message holds.
const maxMessage = 2000

func (c *Core) cmdGMBrief(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		t, err := c.gmTable(tx, cmd)
		if err != nil {
			return err
		}
		chunks := splitMessages(gmBrief(t.rules, t.camp, t.cards), maxMessage)
		resp = Response{Ephemeral: true, Content: chunks[0], More: chunks[1:]}
		return nil
	})
	return resp, err
}

// gmBrief is the whole brief as text.
func gmBrief(l *ruleset.Loaded, camp *storage.Campaign, cards []*sheet.Card) string {
	rs := l.Ruleset
	layers := catalog.Layers(rs, camp.Layers)
	var b strings.Builder
	fmt.Fprintf(&b, "GM BRIEF: %s (%s v%d)", rs.Name, camp.Ruleset.ID, camp.Ruleset.Version)
	if len(layers) > 0 {
		labels := make([]string, len(layers))
		for i, ly := range layers {
			labels[i] = ly.Label
		}
		b.WriteString(" with " + strings.Join(labels, ", "))
	}
	b.WriteString("\n\nCHECKS\n" + rs.GM.CheckGuidance)
	for _, ly := range layers {
		if ly.GM != nil && ly.GM.Guidance != "" {
			b.WriteString(" " + ly.GM.Guidance)
		}
	}
	world := ""
	if rs.GM.WorldGuidance != nil {
		world = *rs.GM.WorldGuidance
	}
	for _, ly := range layers {
		if ly.GM != nil && ly.GM.WorldGuidance != "" {
			world = strings.TrimSpace(world + " " + ly.GM.WorldGuidance)
		}
	}
	if world != "" {
		b.WriteString("\n\nWORLD\n" + world)
	}
	b.WriteString("\n\n" + tagInstructions(l))
	b.WriteString("\n\nCHARACTER SHEETS")
	if len(cards) == 0 {
		b.WriteString("\n(nobody has joined this game yet)")
	}
	for _, card := range cards {
		b.WriteString("\n\n" + sheetBlock(l, card))
	}
	return b.String()
}

// tagInstructions teaches the sheet tag with this ruleset's own names.
func tagInstructions(l *ruleset.Loaded) string {
	rs := l.Ruleset
	live := &rs.Sheet.Live
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	add("SHEET TAGS")
	add("sheetkeeper keeps every character's sheet. Write one tag for each change, in the narration where it happens; the bot applies it and answers with the tag rewritten with its outcome:")

	var plainPool, tempPool *ruleset.LivePool
	for i := range live.Pools {
		p := &live.Pools[i]
		if plainPool == nil {
			plainPool = p
		}
		if tempPool == nil && p.AllowTemp {
			tempPool = p
		}
	}
	if tempPool != nil {
		plainPool = tempPool
	}
	if plainPool != nil {
		pool := tagValue(plainPool.Label)
		add(`- [sheet: who="Name" op="spend" pool="` + pool + `" amount="N"] takes N from a pool; refused when there is not that much left.`)
		add(`- [sheet: who="Name" op="restore" pool="` + pool + `" amount="N"] gives N back, never past the maximum (op="heal" is the same).`)
		add(`- [sheet: who="Name" op="damage" pool="` + pool + `" amount="N"] is harm: temporary points go first, then the pool, which stops at 0.`)
	}
	if tempPool != nil {
		add(`- [sheet: who="Name" op="temp" pool="` + tagValue(tempPool.Label) + `" amount="N"] sets a pool's temporary points (only pools that hold them); amount="0" clears them.`)
	}
	var plainTracks, woundTracks []*ruleset.Track
	for i := range live.Tracks {
		if t := &live.Tracks[i]; t.IsWound() {
			woundTracks = append(woundTracks, t)
		} else {
			plainTracks = append(plainTracks, t)
		}
	}
	if len(plainTracks) > 0 {
		add(`- [sheet: who="Name" op="track" track="` + tagValue(plainTracks[0].Label) + `" by="1"] moves a track up (by="-1" down), or to="N" sets it; it stays within its bounds.`)
	}
	if len(woundTracks) > 0 {
		t := woundTracks[0]
		kind := "kind"
		if len(t.Kinds) > 0 {
			kind = t.Kinds[0].ID
		}
		add(`- [sheet: who="Name" op="damage" track="` + tagValue(t.Label) + `" kind="` + kind + `" amount="1"] marks harm of that kind on a wound track; a negative amount heals marks (of that kind, or the lightest when kind is left out).`)
		for _, w := range woundTracks {
			if w.Fill == "indexed" {
				add(`  On a track that fills by box, box="N" names the box a mark lands on (the next free one above when it is marked; refused when none is free).`)
				break
			}
		}
	}
	if len(live.Conditions) > 0 {
		add(`- [sheet: who="Name" op="condition" condition="` + tagValue(live.Conditions[0].Label) + `" state="on"] turns a condition on, state="off" off.`)
	}
	if len(live.States) > 0 {
		s := &live.States[0]
		add(`- [sheet: who="Name" op="state" state="` + tagValue(s.Label) + `" value="` + tagValue(s.ValueLabel(s.DefaultValue())) + `"] sets a state to one of its values.`)
	}
	if len(live.Text) > 0 {
		add(`- [sheet: who="Name" op="note" field="` + tagValue(live.Text[0].Label) + `" value="text"] writes a note; an empty value clears it.`)
	}
	if len(rs.Rests) > 0 {
		add(`- [sheet: who="Name" op="rest" rest="` + tagValue(rs.Rests[0].Label) + `"] takes a rest: it restores exactly what the ruleset says, nothing more.`)
	}
	if entry, upcast := useExample(l); entry != "" {
		line := `- [sheet: who="Name" op="use" name="` + tagValue(entry) + `"] uses something on the sheet that came from a catalog and pays what it costs, all or nothing (op="cast" and spell= mean the same).`
		if upcast != "" {
			line += ` Add pool="` + tagValue(upcast) + `" to pay from a higher pool of its group (or a pool that pays for it) for a stronger effect.`
		}
		add(line)
	}
	if adv := rs.Sheet.Advancement; adv != nil {
		add(advanceLine(rs, adv))
	}
	add(`Leave out who= for the character of the player you answer; who="party" applies to every character. Use the names listed here or shown on the sheets. Never write result, reason or now yourself: sheetkeeper adds them. A refused command did not happen, so do not narrate it as if it had. At most 40 commands in one message.`)

	if len(live.Pools) > 0 {
		parts := make([]string, 0, len(live.Pools))
		for _, p := range live.Pools {
			s := p.Label
			var notes []string
			if p.Group != "" {
				notes = append(notes, "group "+p.Group)
			}
			if p.AllowTemp {
				notes = append(notes, "holds temporary points")
			}
			if len(p.Pays) > 0 {
				notes = append(notes, "also pays for "+strings.Join(p.Pays, ", "))
			}
			if len(notes) > 0 {
				s += " (" + strings.Join(notes, "; ") + ")"
			}
			parts = append(parts, s)
		}
		add("Pools: " + strings.Join(parts, ", ") + ". List rows with uses are pools too, by the row's name (shown on the sheets).")
	}
	if len(plainTracks) > 0 {
		parts := make([]string, len(plainTracks))
		for i, t := range plainTracks {
			hi := "the character's own maximum"
			if t.MaxNumber != nil {
				hi = strconv.Itoa(*t.MaxNumber)
			}
			parts[i] = fmt.Sprintf("%s (%d to %s)", t.Label, t.Min, hi)
		}
		add("Tracks: " + strings.Join(parts, ", ") + ".")
	}
	if len(woundTracks) > 0 {
		parts := make([]string, len(woundTracks))
		for i, t := range woundTracks {
			var shape string
			if len(t.Levels) > 0 {
				shape = t.Levels[0].Label + " to " + t.Levels[len(t.Levels)-1].Label
			} else {
				shape = "numbered boxes"
			}
			if t.Fill == "indexed" {
				shape += ", fills by box"
			}
			if t.OnFull == "refuse" || t.Fill == "indexed" {
				shape += ", refuses a mark when full"
			}
			kinds := make([]string, len(t.Kinds))
			for j, k := range t.Kinds {
				kinds[j] = k.ID
			}
			parts[i] = t.Label + " (" + shape + "; kinds " + strings.Join(kinds, ", ") + ")"
		}
		add("Wound tracks: " + strings.Join(parts, ", ") + ".")
	}
	if len(live.Text) > 0 {
		add("Notes: " + labels(len(live.Text), func(i int) string { return live.Text[i].Label }) + ".")
	}
	if len(live.Conditions) > 0 {
		add("Conditions: " + labels(len(live.Conditions), func(i int) string { return live.Conditions[i].Label }) + ".")
	}
	if len(live.States) > 0 {
		parts := make([]string, len(live.States))
		for i := range live.States {
			s := &live.States[i]
			parts[i] = s.Label + " (" + labels(len(s.Values), func(j int) string { return s.ValueLabel(s.Values[j]) }) + ")"
		}
		add("States: " + strings.Join(parts, ", ") + ".")
	}
	if len(rs.Rests) > 0 {
		add("Rests: " + labels(len(rs.Rests), func(i int) string { return rs.Rests[i].Label }) + ".")
	}
	if rs.GM.SheetGuidance != "" {
		add(rs.GM.SheetGuidance)
	}
	return strings.Join(lines, "\n")
}

func labels(n int, label func(int) string) string {
	out := make([]string, n)
	for i := range out {
		out[i] = label(i)
	}
	return strings.Join(out, ", ")
}

// tagValue makes a name safe inside a tag's double quotes.
func tagValue(s string) string {
	return strings.NewReplacer(`"`, "", "[", "", "]", "").Replace(s)
}

// useExample picks a use example from the ruleset's catalogs of rows: an entry whose cost
// is one term of a pool group (so an upcast can be shown with a higher pool of the group,
// or a pool that pays for it), else any entry. "" when the ruleset has no rows catalog.
func useExample(l *ruleset.Loaded) (entry, upcast string) {
	rs := l.Ruleset
	for i := range rs.Catalogs {
		cat := &rs.Catalogs[i]
		if cat.Kind() != "rows" {
			continue
		}
		entries, err := l.Entries(cat.ID)
		if err != nil {
			continue
		}
		for j := range entries {
			e := &entries[j]
			if entry == "" {
				entry = e.Label
			}
			if e.Mechanics == nil || len(e.Mechanics.Cost) != 1 {
				continue
			}
			if p := higherPool(rs, e.Mechanics.Cost[0].Pool); p != "" {
				return e.Label, p
			}
		}
	}
	if entry == "" && len(rs.Catalogs) > 0 {
		for _, cat := range rs.Catalogs {
			if cat.Kind() == "rows" {
				return "Name on the sheet", ""
			}
		}
	}
	return entry, ""
}

// higherPool names a pool a cost on target could be upcast to: the second pool of the
// target's group, else a pool that pays for the group.
func higherPool(rs *ruleset.Ruleset, target string) string {
	group, own := target, ""
	for _, p := range rs.Sheet.Live.Pools {
		if p.ID == target {
			group, own = p.Group, p.ID
		}
	}
	if group == "" {
		return ""
	}
	seen := false
	for _, p := range rs.Sheet.Live.Pools {
		if p.Group != group {
			continue
		}
		if seen && p.ID != own {
			return p.Label
		}
		if own == "" || p.ID == own {
			seen = true
		}
	}
	for _, p := range rs.Sheet.Live.Pools {
		for _, g := range p.Pays {
			if g == group {
				return p.Label
			}
		}
	}
	return ""
}

// advanceLine teaches advance with what the ruleset allows.
func advanceLine(rs *ruleset.Ruleset, adv *ruleset.Advancement) string {
	var example string
	var allowed []string
	if len(adv.Fields) > 0 {
		var names []string
		for _, id := range adv.Fields {
			f := sheetField(rs, id)
			if f == nil {
				continue
			}
			names = append(names, f.Label)
			if example == "" && f.Type == "number" {
				example = `field="` + tagValue(f.Label) + `" by="1"`
			}
		}
		if len(names) > 0 {
			allowed = append(allowed, "fields "+strings.Join(names, ", "))
		}
		if example == "" && len(names) > 0 {
			example = `field="` + tagValue(names[0]) + `" to="text"`
		}
	}
	if adv.Abilities && len(rs.Sheet.Abilities) > 0 {
		allowed = append(allowed, "abilities")
		if example == "" {
			example = `ability="` + tagValue(rs.Sheet.Abilities[0].Label) + `" by="1"`
		}
	}
	tiers := labels(len(rs.Resolution.ProficiencyTiers), func(i int) string { return rs.Resolution.ProficiencyTiers[i].Label })
	if adv.Skills && len(rs.Sheet.Skills) > 0 {
		allowed = append(allowed, "skills")
		if example == "" && len(rs.Resolution.ProficiencyTiers) > 1 {
			example = `skill="` + tagValue(rs.Sheet.Skills[0].Label) + `" tier="` + tagValue(rs.Resolution.ProficiencyTiers[1].Label) + `"`
		}
	}
	if adv.Saves && len(rs.Sheet.Saves) > 0 {
		allowed = append(allowed, "saves")
	}
	if example == "" {
		example = `field="Field" by="1"`
	}
	line := `- [sheet: who="Name" op="advance" ` + example + `] is permanent growth: exactly one of field, ability, skill or save, with by="N" or to="N" (a skill or save takes tier="` + tiers + `").`
	if len(allowed) > 0 {
		line += " This ruleset lets these grow: " + strings.Join(allowed, "; ") + "."
	}
	if adv.Text != nil && *adv.Text != "" {
		line += " " + *adv.Text
	}
	return line
}

// ---- the sheet block ----

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
// asks for, grouped and filtered as it says.
func sheetBlock(l *ruleset.Loaded, card *sheet.Card) string {
	rs := l.Ruleset
	vals := sheet.Evaluate(rs, card, nil)
	var lines []string
	push := func(s string) {
		if s != "" {
			lines = append(lines, s)
		}
	}
	push(blockValue(card.Name))

	abil := make([]string, 0, len(rs.Sheet.Abilities))
	for _, a := range rs.Sheet.Abilities {
		name := a.Label
		if a.Short != "" {
			name = a.Short
		}
		abil = append(abil, name+" "+checkValue(rs, vals.AbilityMods[a.ID]))
	}
	push(strings.Join(abil, ", "))

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
	if len(trained) > 0 {
		push("Trained: " + strings.Join(trained, ", "))
	}

	sum := rs.GM.SheetSummary
	var summary []string
	if sum != nil {
		for _, id := range sum.Fields {
			f := sheetField(rs, id)
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
			for i := range rs.Sheet.Derived {
				d := &rs.Sheet.Derived[i]
				if d.ID == id && !vals.Hidden(d.HideWhen) {
					summary = append(summary, d.Label+" "+numText(vals.Derived[id]))
				}
			}
		}
	}
	push(strings.Join(summary, ", "))

	pools := make([]string, 0, len(vals.Live.Pools))
	for i := range vals.Live.Pools {
		p := &vals.Live.Pools[i]
		pools = append(pools, p.Label+" "+sheet.PoolNow(p, p.Value, p.Temp))
	}
	push(strings.Join(pools, ", "))

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
	push(strings.Join(tracks, ", "))

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

	if sum != nil {
		for i := range sum.Lists {
			push(listLine(l, vals, card, &sum.Lists[i]))
		}
	}
	return strings.Join(lines, "\n")
}

// listLine is one gm.sheetSummary list of a card: "Workings: Ember Dart 1, Kindle Wick
// 0", or grouped "Spells (0): Fire Bolt; (3): Fireball".
func listLine(l *ruleset.Loaded, vals *sheet.Values, card *sheet.Card, sl *ruleset.SummaryList) string {
	rs := l.Ruleset
	var list *ruleset.List
	for i := range rs.Sheet.Lists {
		if rs.Sheet.Lists[i].ID == sl.List {
			list = &rs.Sheet.Lists[i]
		}
	}
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
		name += checkNote(l, row.Marker())
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
func checkNote(l *ruleset.Loaded, marker string) string {
	if marker == "" {
		return ""
	}
	catID, id, ok := strings.Cut(marker, "/")
	if !ok || l.Catalog(catID) == nil {
		return ""
	}
	entries, err := l.Entries(catID)
	if err != nil {
		return ""
	}
	for i := range entries {
		e := &entries[i]
		if e.ID != id || e.Mechanics == nil || e.Mechanics.Check == nil {
			continue
		}
		js, _ := json.Marshal(e.Mechanics.Check)
		s := " (check: " + string(js)
		if len(e.Mechanics.Cost) > 0 {
			s += "; " + costWords(l.Ruleset, e.Mechanics)
		}
		return s + ")"
	}
	return ""
}

// splitMessages cuts text into messages of at most limit characters, each a code block,
// breaking at line ends (a line longer than a message is cut where it must be).
func splitMessages(text string, limit int) []string {
	const open, close = "```text\n", "\n```"
	room := limit - len(open) - len(close)
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, open+strings.TrimRight(cur.String(), "\n")+close)
			cur.Reset()
		}
	}
	for _, line := range strings.Split(text, "\n") {
		for len([]rune(line)) > room {
			flush()
			r := []rune(line)
			cur.WriteString(string(r[:room]))
			flush()
			line = string(r[room:])
		}
		if cur.Len() > 0 && len([]rune(cur.String()))+1+len([]rune(line)) > room {
			flush()
		}
		if cur.Len() > 0 {
			cur.WriteByte('\n')
		}
		cur.WriteString(line)
	}
	flush()
	if len(out) == 0 {
		out = []string{open + close}
	}
	return out
}
