package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /sheet (SPEC 8.1, 8.2): a card as a readable sheet, or as one JSON object with its
// stored build and live state and every value resolved as the card has it now.

// sheetCommands adds /sheet.
func sheetCommands(r *router) {
	r.command(CommandSpec{
		Name:        "sheet",
		Description: "Show a character's sheet (only you see it)",
		Options: []OptionSpec{
			{Name: "name", Description: "The character (default: yours in this game)", Type: "string"},
			{Name: "format", Description: "text (default) or json", Type: "string",
				Choices: []Choice{{Name: "text", Value: "text"}, {Name: "json", Value: "json"}}},
		},
	}, (*Core).cmdSheet).
		complete("name", (*Core).anyCardChoices)
	r.component(sheetPageID, (*Core).sheetPageClick)
}

func (c *Core) cmdSheet(ctx context.Context, cmd Command) (Response, error) {
	format := strings.ToLower(strings.TrimSpace(cmd.Get("format")))
	if format != "" && format != "text" && format != "json" {
		return Response{}, refusal.New(refusal.NotAllowed, "format is text or json")
	}
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		t, err := c.sheetTarget(tx, cmd)
		if err != nil {
			return err
		}
		if format == "json" {
			data, err := json.Marshal(sheetJSON(t.rules.Ruleset, t.card(), t.held))
			if err != nil {
				return err
			}
			resp = Response{Content: string(data), Ephemeral: true}
			return nil
		}
		resp = sheetResponse(t, sheetAll)
		return nil
	})
	return resp, err
}

// sheetTarget is the card /sheet shows: the one named (a game card of this campaign,
// else the invoker's library card), or without a name the invoker's own (ownTarget).
func (c *Core) sheetTarget(tx storage.Tx, cmd Command) (*cardTarget, error) {
	if name := strings.TrimSpace(cmd.Get("name")); name != "" {
		return c.findTarget(tx, cmd.ChannelID, cmd.GuildID, cmd.User, name, true, false)
	}
	return c.ownTarget(tx, cmd.ChannelID, cmd.GuildID, cmd.User)
}

// ownTarget is u's only game card in the channel's campaign, else their only library
// card; several are refused (the command should name one).
func (c *Core) ownTarget(tx storage.Tx, channelID, guildID string, u User) (*cardTarget, error) {
	var mine []string
	records, err := tx.GameCards(channelID)
	if err != nil {
		return nil, err
	}
	for _, r := range records {
		if r.OwnerID == u.ID && r.Card != nil {
			mine = append(mine, r.Card.Name)
		}
	}
	if len(mine) == 0 {
		lib, err := tx.LibraryCards(u.ID)
		if err != nil {
			return nil, err
		}
		for _, r := range lib {
			if r.Card != nil {
				mine = append(mine, r.Card.Name)
			}
		}
	}
	switch len(mine) {
	case 0:
		return nil, refusal.New(refusal.UnknownCharacter, "you have no character yet: /character create name:<name> makes one")
	case 1:
		return c.findTarget(tx, channelID, guildID, u, mine[0], true, false)
	}
	return nil, refusal.New(refusal.WhoRequired, "you have several characters (%s): add name:", strings.Join(mine, ", "))
}

// ---- JSON ----

// sheetDoc is SPEC 8.2's /sheet format:json object.
type sheetDoc struct {
	Name     string           `json:"name"`
	Ruleset  sheet.RulesetRef `json:"ruleset"`
	Build    sheet.Build      `json:"build"`
	Live     sheet.Live       `json:"live"`
	Resolved resolvedDoc      `json:"resolved"`
}

// resolvedDoc is every value as the card has it now, defaults included.
type resolvedDoc struct {
	Pools      map[string]poolDoc   `json:"pools"`
	Tracks     map[string]any       `json:"tracks"`
	Text       map[string]string    `json:"text"`
	Conditions []string             `json:"conditions"`
	States     map[string]string    `json:"states"`
	Derived    map[string]float64   `json:"derived"`
	Abilities  map[string]abilityOf `json:"abilities"`
}

type poolDoc struct {
	Value int `json:"value"`
	Max   int `json:"max"`
	Temp  int `json:"temp"`
}

type woundDoc struct {
	Marks    []string `json:"marks"`
	Overflow int      `json:"overflow"`
	Penalty  int      `json:"penalty"`
}

// abilityOf is an ability as it reads: its score and the modifier rolls add.
type abilityOf struct {
	Score float64 `json:"score"`
	Mod   float64 `json:"mod"`
}

// sheetJSON builds the JSON view of card: pools keyed by id (a list counter by
// "<list>:<name>"), plain tracks as their number and wound tracks as marks, overflow
// and penalty, every live text field ("" when clear), the conditions that are on, every
// state, derived value and ability shown on this card.
func sheetJSON(rs *ruleset.Ruleset, card *sheet.Card, held *inventory.Holdings) sheetDoc {
	vals := evaluate(rs, card, held)
	live := vals.Live
	r := resolvedDoc{
		Pools:      map[string]poolDoc{},
		Tracks:     map[string]any{},
		Text:       map[string]string{},
		Conditions: []string{},
		States:     map[string]string{},
		Derived:    map[string]float64{},
		Abilities:  map[string]abilityOf{},
	}
	for _, p := range live.Pools {
		r.Pools[p.Key] = poolDoc{Value: p.Value, Max: p.Max, Temp: p.Temp}
	}
	for _, t := range live.Tracks {
		if t.Wound != nil {
			marks := append([]string{}, t.Wound.Marks...)
			r.Tracks[t.ID] = woundDoc{Marks: marks, Overflow: t.Wound.Overflow, Penalty: t.Wound.Penalty}
			continue
		}
		r.Tracks[t.ID] = t.Value
	}
	for _, t := range live.Text {
		r.Text[t.ID] = t.Value
	}
	for _, cd := range live.Conditions {
		if cd.Active {
			r.Conditions = append(r.Conditions, cd.ID)
		}
	}
	for _, s := range live.States {
		r.States[s.ID] = s.Value
	}
	for i := range rs.Sheet.Derived {
		d := &rs.Sheet.Derived[i]
		if !vals.Hidden(d.HideWhen) {
			r.Derived[d.ID] = vals.Derived[d.ID]
		}
	}
	for _, a := range rs.Sheet.Abilities {
		r.Abilities[a.ID] = abilityOf{Score: vals.AbilityScores[a.ID], Mod: vals.AbilityMods[a.ID]}
	}
	return sheetDoc{Name: card.Name, Ruleset: card.Ruleset, Build: card.Build, Live: card.Live, Resolved: r}
}

// ---- text ----

// maxCell bounds one list cell in the text sheet.
const maxCell = 120

// sheetPage renders a card as a readable sheet, or one page of it: a heading, then for
// the whole sheet what sits in no section and each section of the sheet in order (its
// fields, abilities with modifiers, skills and saves with tiers, derived values, lists
// with their counters), then the live state: pools, tracks, wound tracks, conditions,
// notes and states. The Overview page is the sections without their lists, the Lists
// page the lists alone (under their sections), the Live page the live state.
func sheetPage(t *cardTarget, page string) string {
	rs := t.rules.Ruleset
	card := t.card()
	vals := evaluate(rs, card, t.held)
	var b strings.Builder
	kind := "game card"
	if t.library {
		kind = "library card"
	}
	fmt.Fprintf(&b, "**%s** — %s v%d, %s of %s\n", card.Name, rs.Name, card.Ruleset.Version, kind, mention(t.rec.OwnerID))
	var text string
	switch page {
	case sheetOverview:
		text = sectionsText(rs, card, vals, true, false)
	case sheetLists:
		text = sectionsText(rs, card, vals, false, true)
	case sheetLive:
		text = liveText(vals.Live)
	default:
		text = sectionsText(rs, card, vals, true, true) + liveText(vals.Live)
	}
	if strings.TrimSpace(text) == "" {
		text = emptyPage[page] + "\n"
	}
	b.WriteString(text)
	return strings.TrimRight(b.String(), "\n")
}

// emptyPage says a page of the sheet has nothing to show.
var emptyPage = map[string]string{
	sheetOverview: "*Nothing to show: the sheet has no fields, abilities, skills or values.*",
	sheetLists:    "*No rows to show in any list.*",
	sheetLive:     "*No live state on this sheet.*",
	sheetAll:      "",
}

// sectionsText is the sheet's sections in order, what sits in no section first and under
// no heading: with overview their fields, abilities, skills, saves and derived values,
// with lists their lists. A section with nothing to show is left out.
func sectionsText(rs *ruleset.Ruleset, card *sheet.Card, vals *sheet.Values, overview, lists bool) string {
	var b strings.Builder
	// What sits in no section (abilities, usually) comes first, under no heading.
	sections := make([]string, 0, len(rs.Sheet.Sections)+1)
	sections = append(sections, "")
	for _, s := range rs.Sheet.Sections {
		sections = append(sections, s.ID)
	}
	known := map[string]bool{}
	for _, s := range rs.Sheet.Sections {
		known[s.ID] = true
	}
	in := func(section, want string) bool {
		if want == "" {
			return section == "" || !known[section]
		}
		return section == want
	}
	for _, sec := range sections {
		var lines []string
		var parts []string
		for i := range rs.Sheet.Fields {
			if !overview {
				break
			}
			f := &rs.Sheet.Fields[i]
			if !in(f.Section, sec) || vals.Hidden(f.HideWhen) {
				continue
			}
			v := vals.FieldValue(f.ID)
			if s, ok := v.(string); ok && s == "" {
				continue
			}
			parts = append(parts, f.Label+": "+showValue(f, v))
		}
		lines = appendJoined(lines, "", parts)
		parts = parts[:0]
		for _, a := range rs.Sheet.Abilities {
			if overview && in(a.Section, sec) {
				parts = append(parts, fmt.Sprintf("%s %s (%s)", a.Label, formatNum(vals.AbilityScores[a.ID]), signed(vals.AbilityMods[a.ID])))
			}
		}
		lines = appendJoined(lines, "", parts)
		if overview {
			lines = appendJoined(lines, "Skills: ", skillParts(rs, rs.Sheet.Skills, vals.SkillMods, vals.SkillTiers, in, sec))
			lines = appendJoined(lines, "Saves: ", skillParts(rs, rs.Sheet.Saves, vals.SaveMods, vals.SaveTiers, in, sec))
		}
		parts = parts[:0]
		for i := range rs.Sheet.Derived {
			d := &rs.Sheet.Derived[i]
			if overview && in(d.Section, sec) && !vals.Hidden(d.HideWhen) {
				parts = append(parts, d.Label+" "+formatNum(vals.Derived[d.ID]))
			}
		}
		lines = appendJoined(lines, "", parts)
		for i := range rs.Sheet.Lists {
			l := &rs.Sheet.Lists[i]
			if lists && in(l.Section, sec) && !vals.Hidden(l.HideWhen) {
				lines = append(lines, listLines(l, card.Build.Lists[l.ID], vals.Live)...)
			}
		}
		if len(lines) == 0 {
			continue
		}
		if s := rs.Sheet.Section(sec); sec != "" && s != nil {
			b.WriteString("__" + s.Label + "__\n")
		}
		b.WriteString(strings.Join(lines, "\n") + "\n")
	}
	return b.String()
}

func appendJoined(lines []string, head string, parts []string) []string {
	if len(parts) == 0 {
		return lines
	}
	return append(lines, head+strings.Join(parts, " · "))
}

// skillParts shows skills or saves of one section: "Row +3 (Trained)", the tier named
// when it is above the first.
func skillParts(rs *ruleset.Ruleset, list []ruleset.Skill, mods map[string]float64, tiers map[string]string,
	in func(string, string) bool, sec string) []string {
	var parts []string
	ts := rs.Resolution.ProficiencyTiers
	for _, k := range list {
		if !in(k.Section, sec) {
			continue
		}
		s := k.Label
		if len(ts) > 0 {
			s += " " + signed(mods[k.ID])
			if tier := tiers[k.ID]; tier != "" && tier != ts[0].ID {
				if t := tierByName(rs, tier); t != nil {
					s += " (" + t.Label + ")"
				}
			}
		}
		parts = append(parts, s)
	}
	return parts
}

// listLines shows a list: its label, then a line per row with its name first and every
// other column it sets, and for a counter what it has left.
func listLines(l *ruleset.List, rows []sheet.Row, live *sheet.Resolved) []string {
	if len(rows) == 0 {
		return nil
	}
	lines := []string{l.Label + ":"}
	nameCol := l.NameColumn()
	for i, row := range rows {
		var cells []string
		if s, _ := row.Text(nameCol); s != "" {
			cells = append(cells, "**"+clip(s)+"**")
		}
		for j := range l.Columns {
			col := &l.Columns[j]
			v, ok := row[col.ID]
			if !ok || col.ID == nameCol {
				continue
			}
			if s, isText := v.(string); isText && s == "" {
				continue
			}
			cells = append(cells, col.Label+" "+clip(showValue(col, v)))
		}
		line := "• " + strings.Join(cells, " — ")
		if live != nil {
			for _, p := range live.Pools {
				if p.List == l.ID && p.Row == i {
					line += fmt.Sprintf(" [%d/%d left]", p.Value, p.Max)
				}
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// liveText shows the live state: pools, tracks, conditions, notes and states.
func liveText(r *sheet.Resolved) string {
	if r == nil {
		return ""
	}
	var lines []string
	var parts []string
	for i := range r.Pools {
		p := &r.Pools[i]
		if p.List == "" {
			parts = append(parts, p.Label+" "+sheet.PoolNow(p, p.Value, p.Temp))
		}
	}
	lines = appendJoined(lines, "Pools: ", parts)
	parts = parts[:0]
	for _, t := range r.Tracks {
		if w := t.Wound; w != nil {
			s := fmt.Sprintf("%s %d/%d", t.Label, w.Filled, len(w.Levels))
			if w.Lowest >= 0 && !w.Numbered {
				s += " " + w.Levels[w.Lowest].Label
			}
			if w.Penalty != 0 {
				s += " (penalty " + strconv.Itoa(w.Penalty) + ")"
			}
			if w.Overflow > 0 {
				s += fmt.Sprintf(" +%d over", w.Overflow)
			}
			parts = append(parts, s)
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d (%d–%d)", t.Label, t.Value, t.Min, t.Max))
	}
	lines = appendJoined(lines, "Tracks: ", parts)
	parts = parts[:0]
	for _, cd := range r.Conditions {
		if cd.Active {
			parts = append(parts, cd.Label)
		}
	}
	if len(r.Conditions) > 0 {
		if len(parts) == 0 {
			parts = append(parts, "none")
		}
		lines = appendJoined(lines, "Conditions: ", parts)
	}
	parts = parts[:0]
	for _, t := range r.Text {
		if t.Value != "" {
			parts = append(parts, t.Label+": "+t.Value)
		}
	}
	lines = appendJoined(lines, "Notes: ", parts)
	parts = parts[:0]
	for _, s := range r.States {
		parts = append(parts, s.Label+": "+s.ValueLabel)
	}
	lines = appendJoined(lines, "", parts)
	if len(lines) == 0 {
		return ""
	}
	return "__Now__\n" + strings.Join(lines, "\n") + "\n"
}

// signed writes a modifier with its sign: +2, -1, +0.
func signed(x float64) string {
	if x >= 0 {
		return "+" + formatNum(x)
	}
	return formatNum(x)
}

// clip bounds a cell for the text sheet.
func clip(s string) string {
	if len([]rune(s)) <= maxCell {
		return s
	}
	return string([]rune(s)[:maxCell-1]) + "…"
}
