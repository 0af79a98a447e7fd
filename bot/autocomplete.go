package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"sheetkeeper/catalog"
	"sheetkeeper/content"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// OnAutocomplete answers Discord's request for choices for the option being typed: the
// characters, catalogs and catalog entries, what is on a card to /use and the pools that
// can pay for it (SPEC 5.5), rests, rulesets, layers, sheet names, rows to refresh. At
// most 25 choices, each name and value at most 100 characters.
//
// It must answer well inside Discord's 3 seconds on every keystroke, so it only reads
// (one View, never a write), finds cards by their stored name key rather than decoding
// the whole party, and searches catalogs through the index built once per loaded ruleset
// (cmd_pick.go). Anything it cannot work out — no campaign, a card that is not there —
// offers nothing rather than an error: the command itself says what is wrong.
func (c *Core) OnAutocomplete(ctx context.Context, a Autocomplete) []Choice {
	start := time.Now()
	defer func() { c.observe.AutocompleteTook(c.commandLabel(a.Command), time.Since(start)) }()
	q := acQuery{a: a, cmd: normalCommand(a.Command), focus: strings.ToLower(a.Focused)}
	q.typed = q.get(a.Focused)
	var out []Choice
	err := c.store.View(ctx, func(tx storage.Tx) error {
		var err error
		out, err = c.complete(tx, &q)
		return err
	})
	if err != nil {
		c.log.Debug("autocomplete", "command", a.Command, "option", a.Focused, "err", err)
		return nil
	}
	if len(out) > maxChoices {
		out = out[:maxChoices]
	}
	return out
}

// maxChoices is Discord's limit on autocomplete choices.
const maxChoices = 25

// acQuery is one autocomplete request as the completers read it.
type acQuery struct {
	a     Autocomplete
	cmd   string
	focus string
	typed string
}

// get returns the value typed so far for option name.
func (q *acQuery) get(name string) string {
	for _, o := range q.a.Options {
		if strings.EqualFold(o.Name, name) {
			return o.Value
		}
	}
	return ""
}

// complete asks the completer the command attached to the option being typed; an
// option without one offers nothing.
func (c *Core) complete(tx storage.Tx, q *acQuery) ([]Choice, error) {
	r, ok := c.router.routes[q.cmd]
	if !ok {
		return nil, nil
	}
	fn, ok := r.completes[q.focus]
	if !ok {
		return nil, nil
	}
	return fn(c, tx, q)
}

// choiceOf builds a choice within Discord's 100 characters.
func choiceOf(name, value string) Choice {
	return Choice{Name: clipRunes(name, 100), Value: clipRunes(value, 100)}
}

// clipRunes cuts s to at most n characters, marking a cut with "…".
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// ranked keeps the choices whose name or value holds what was typed, those starting with
// it first; in the order given otherwise.
func ranked(typed string, choices []Choice) []Choice {
	want := ruleset.FoldName(typed)
	if want == "" {
		return choices
	}
	var first, then []Choice
	for _, ch := range choices {
		name, value := ruleset.FoldName(ch.Name), ruleset.FoldName(ch.Value)
		switch {
		case strings.HasPrefix(name, want) || strings.HasPrefix(value, want):
			first = append(first, ch)
		case strings.Contains(name, want) || strings.Contains(value, want):
			then = append(then, ch)
		}
	}
	return append(first, then...)
}

// campaignRules is the channel's campaign and its ruleset.
func (c *Core) campaignRules(tx storage.Tx, channelID string) (*storage.Campaign, *ruleset.Loaded, error) {
	camp, err := c.campaign(tx, channelID)
	if err != nil {
		return nil, nil, err
	}
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, nil, err
	}
	return camp, l, nil
}

// quickCard finds the card the option "name" names without reading the whole party: the
// channel's game card by its stored name key, else the user's library card. It returns
// the card's rules (the campaign's for a game card) and the campaign (nil outside one).
func (c *Core) quickCard(tx storage.Tx, q *acQuery, option string) (*sheet.Card, *ruleset.Loaded, *storage.Campaign, error) {
	name := strings.TrimSpace(q.get(option))
	if name == "" {
		return nil, nil, nil, errNoCard
	}
	camp, err := tx.Campaign(q.a.ChannelID)
	if err != nil && storage.KindOf(err) != storage.NotFound {
		return nil, nil, nil, err
	}
	if camp != nil {
		if rec, err := tx.GameCard(q.a.ChannelID, name); err == nil && rec.Card != nil {
			l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
			return rec.Card, l, camp, err
		}
	}
	rec, err := tx.LibraryCard(q.a.User.ID, name)
	if err != nil || rec.Card == nil {
		return nil, nil, camp, errNoCard
	}
	l, err := c.rules(tx, q.a.GuildID, rec.Card.Ruleset)
	return rec.Card, l, camp, err
}

var errNoCard = errors.New("no such card")

// anyCardChoices offers the cards a command that also reaches a library card takes
// (building one before it joins: /pick, /character set, /sheet, …): the channel's game
// cards, the user's own first, then the user's library cards.
func (c *Core) anyCardChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.cardChoices(tx, q, false, true)
}

// gameCardChoices offers the channel's game cards, the user's own first: for commands
// that act on game cards only (play, refreshing against the campaign's ruleset).
func (c *Core) gameCardChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.cardChoices(tx, q, false, false)
}

// whoChoices offers party first, then the channel's game cards, the user's own first.
func (c *Core) whoChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.cardChoices(tx, q, true, false)
}

// cardChoices offers the channel's game cards, the user's own first (with party first
// when party), then, when library, the user's library cards.
func (c *Core) cardChoices(tx storage.Tx, q *acQuery, party, library bool) ([]Choice, error) {
	var own, others []Choice
	if party {
		own = append(own, choiceOf("party (everyone)", "party"))
	}
	if _, err := tx.Campaign(q.a.ChannelID); err == nil {
		records, err := tx.GameCards(q.a.ChannelID)
		if err != nil {
			return nil, err
		}
		for _, r := range records {
			if r.Card == nil {
				continue
			}
			if r.OwnerID == q.a.User.ID {
				own = append(own, choiceOf(r.Card.Name+" (yours)", r.Card.Name))
			} else {
				others = append(others, choiceOf(r.Card.Name, r.Card.Name))
			}
		}
	} else if storage.KindOf(err) != storage.NotFound {
		return nil, err
	}
	if library {
		lib, err := c.libraryChoices(tx, q)
		if err != nil {
			return nil, err
		}
		for _, ch := range lib {
			same := func(o Choice) bool { return ruleset.FoldName(o.Value) == ruleset.FoldName(ch.Value) }
			if !slices.ContainsFunc(own, same) && !slices.ContainsFunc(others, same) {
				others = append(others, ch)
			}
		}
	}
	return ranked(q.typed, append(own, others...)), nil
}

// scheduleChoices offers the channel's schedules, by id with what they do.
func (c *Core) scheduleChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	all, err := tx.Schedules()
	if err != nil {
		return nil, err
	}
	var out []Choice
	for _, s := range all {
		if s.ChannelID == q.a.ChannelID {
			out = append(out, choiceOf(s.ID+": "+s.Rest+" at "+s.Cron, s.ID))
		}
	}
	return ranked(q.typed, out), nil
}

// libraryChoices offers the user's library cards.
func (c *Core) libraryChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	records, err := tx.LibraryCards(q.a.User.ID)
	if err != nil && storage.KindOf(err) != storage.NotFound {
		return nil, err
	}
	out := make([]Choice, 0, len(records))
	for _, r := range records {
		if r.Card != nil {
			out = append(out, choiceOf(r.Card.Name+" (library, "+r.Card.Ruleset.ID+")", r.Card.Name))
		}
	}
	return ranked(q.typed, out), nil
}

// anyCatalogChoices offers every catalog of the card's or the campaign's ruleset
// (/catalog search browses them all).
func (c *Core) anyCatalogChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.catalogChoices(tx, q, false)
}

// rowCatalogChoices offers only the catalogs of rows (/pick: the others write nothing
// onto a sheet).
func (c *Core) rowCatalogChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.catalogChoices(tx, q, true)
}

// catalogChoices offers the catalogs of the card's or the campaign's ruleset, only those
// of rows when rowsOnly.
func (c *Core) catalogChoices(tx storage.Tx, q *acQuery, rowsOnly bool) ([]Choice, error) {
	_, l, _, err := c.quickCard(tx, q, "name")
	if err != nil {
		if _, l, err = c.campaignRules(tx, q.a.ChannelID); err != nil {
			return nil, err
		}
	}
	var out []Choice
	for i := range l.Catalogs {
		cat := &l.Catalogs[i]
		if rowsOnly && cat.Kind() != "rows" {
			continue
		}
		name := cat.Label + " (" + cat.ID + ")"
		if cat.Kind() != "rows" {
			name += " — " + cat.Kind()
		}
		out = append(out, choiceOf(name, cat.ID))
	}
	return ranked(q.typed, out), nil
}

// pickEntryChoices searches the catalog named by the catalog option: by label and
// summary, narrowed by the filter option, the card's startFrom entries first, entries a
// layer hides left out, entries the card has marked "✓".
func (c *Core) pickEntryChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	card, l, camp, err := c.quickCard(tx, q, "name")
	if err != nil {
		card = nil
		if camp, l, err = c.campaignRules(tx, q.a.ChannelID); err != nil {
			return nil, err
		}
	}
	found, err := c.catalogs(l).Find(q.get("catalog"))
	if err != nil {
		return nil, nil
	}
	if found.Problems != nil {
		return []Choice{choiceOf("⚠ The "+found.Def.Label+" catalog file has mistakes: see /catalog search", "-")}, nil
	}
	clauses, err := found.Filter(q.get("filter"))
	if err != nil {
		clauses = nil
	}
	pq := &catalog.Query{Text: q.typed, Filter: clauses, Prefer: found.StartFrom(l.Ruleset, card, clauses)}
	if camp != nil {
		pq.Hides = found.Hides(catalog.Layers(l.Ruleset, camp.Layers))
	}
	hits := found.Search(pq, maxChoices)
	var picked map[string]int
	if card != nil {
		picked = catalog.Picked(card)
	}
	out := make([]Choice, len(hits))
	for i, e := range hits {
		has := picked[sheet.Marker(found.Def.ID, e.ID)] > 0
		out[i] = Choice{Name: entryChoice(e.Entry, has), Value: e.ID}
	}
	return out, nil
}

// useEntryChoices offers what on the card /use can name: each catalog entry its rows
// came from, by the name the sheet shows, with what it costs.
func (c *Core) useEntryChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	card, l, _, err := c.quickCard(tx, q, "name")
	if err != nil {
		return nil, nil
	}
	rs := l.Ruleset
	var out []Choice
	seen := map[string]bool{}
	for li := range rs.Sheet.Lists {
		list := &rs.Sheet.Lists[li]
		col := sheet.ShownNameColumn(rs, list)
		for _, row := range card.Build.Lists[list.ID] {
			m := row.Marker()
			if m == "" || seen[m] {
				continue
			}
			seen[m] = true
			name, _ := row.Text(col)
			e, _ := c.catalogs(l).Marked(m)
			if strings.TrimSpace(name) == "" {
				if e == nil {
					continue
				}
				name = e.Label
			}
			shown := name
			if e != nil && e.Mechanics != nil {
				shown += " — " + costWords(rs, e.Mechanics)
			}
			out = append(out, choiceOf(shown, name))
		}
	}
	return ranked(q.typed, out), nil
}

// poolChoices offers the pools a /use may pay from (sheet.OfferedPools): the cost's own
// pool even when it is empty, the higher pools of its group, the pools that pay for it.
func (c *Core) poolChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	card, l, _, err := c.quickCard(tx, q, "name")
	if err != nil {
		return nil, nil
	}
	found, err := sheet.FindEntry(l.Ruleset, card, c.catalogs(l), q.get("entry"))
	if err != nil {
		return nil, nil
	}
	offers := sheet.OfferedPools(l.Ruleset, card, found.Entry)
	own := 0
	for _, o := range offers {
		if o.Own {
			own = o.Level
		}
	}
	out := make([]Choice, 0, len(offers))
	for _, o := range offers {
		name := o.Label + " " + strconv.Itoa(o.Value) + "/" + strconv.Itoa(o.Max)
		var notes []string
		switch {
		case o.Own:
			notes = append(notes, "its own")
		case o.Pays:
			notes = append(notes, "pays for it")
		}
		if o.Level > 0 {
			notes = append(notes, "level "+strconv.Itoa(o.Level))
		}
		if !o.Own && o.Level > own && own > 0 {
			notes = append(notes, "+"+strconv.Itoa(o.Level-own)+" up")
		}
		if o.Value == 0 {
			notes = append(notes, "empty")
		}
		if len(notes) > 0 {
			name += " (" + strings.Join(notes, ", ") + ")"
		}
		out = append(out, choiceOf(name, o.Key))
	}
	return ranked(q.typed, out), nil
}

// restChoices offers the ruleset's rests.
func (c *Core) restChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	_, l, err := c.campaignRules(tx, q.a.ChannelID)
	if err != nil {
		return nil, err
	}
	out := make([]Choice, 0, len(l.Rests))
	for _, r := range l.Rests {
		out = append(out, choiceOf(r.Label+" ("+r.ID+")", r.ID))
	}
	return ranked(q.typed, out), nil
}

// rulesetChoices offers the rulesets installed as the asking guild sees them: the
// built-ins and the guild's own imports (tenancy.go).
func (c *Core) rulesetChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	var out []Choice
	builtins, err := content.Builtins()
	if err != nil {
		return nil, err
	}
	for _, b := range builtins {
		out = append(out, choiceOf(b.Name+" ("+b.ID+", built-in)", b.ID))
	}
	ids, err := installedIDs(tx, q.a.GuildID)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if !storage.Imported(id) {
			continue
		}
		vs, err := installedVersions(tx, q.a.GuildID, id)
		if err != nil || len(vs) == 0 {
			continue
		}
		newest := slices.Max(vs)
		name := id
		if rec, err := installedRuleset(tx, q.a.GuildID, id, newest); err == nil && rec.Name != "" {
			name = rec.Name + " (" + id + ")"
		}
		out = append(out, choiceOf(name+" v"+strconv.Itoa(newest), id))
	}
	return ranked(q.typed, out), nil
}

// layerChoices offers the layers of the ruleset chosen in the ruleset option, completing
// the last of a comma-separated list.
func (c *Core) layerChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	ref, err := c.newestRuleset(tx, q.a.GuildID, q.get("ruleset"))
	if err != nil {
		return nil, nil
	}
	l, err := c.rules(tx, q.a.GuildID, ref)
	if err != nil {
		return nil, err
	}
	head, last := "", q.typed
	if i := strings.LastIndexAny(q.typed, ", "); i >= 0 {
		head, last = q.typed[:i+1], q.typed[i+1:]
		if !strings.HasSuffix(head, " ") {
			head += " "
		}
	}
	chosen := strings.FieldsFunc(head, func(r rune) bool { return r == ',' || r == ' ' })
	var out []Choice
	for _, ly := range l.Layers {
		if slices.Contains(chosen, ly.ID) {
			continue
		}
		out = append(out, choiceOf(ly.Label+" — "+ly.Summary, strings.TrimSpace(head+ly.ID)))
	}
	return ranked(last, out), nil
}

// refreshRowChoices offers "all" and each row /refresh numbers.
func (c *Core) refreshRowChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	r, err := c.openReview(tx, q.a.ChannelID, q.a.User, q.get("name"))
	if err != nil || len(r.rows) == 0 {
		return nil, nil
	}
	out := []Choice{choiceOf("all "+plural(len(r.rows), "row", "rows"), "all")}
	for i := range r.rows {
		out = append(out, choiceOf(r.rowTitle(i)+" — "+columnsChanged(r.rows[i]), strconv.Itoa(i+1)))
	}
	return ranked(q.typed, out), nil
}

// rulesFor is the ruleset the name option's card is read by, else the campaign's.
func (c *Core) rulesFor(tx storage.Tx, q *acQuery) (*sheet.Card, *ruleset.Loaded, error) {
	card, l, _, err := c.quickCard(tx, q, "name")
	if err == nil {
		return card, l, nil
	}
	_, l, err = c.campaignRules(tx, q.a.ChannelID)
	return nil, l, err
}

// fieldChoices offers the sheet's fields, by id with their type.
func (c *Core) fieldChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.sheetChoices(tx, q, func(s *ruleset.Sheet) (out []Choice) {
		for _, f := range s.Fields {
			out = append(out, choiceOf(f.Label+" ("+f.ID+", "+f.Type+")", f.ID))
		}
		return out
	})
}

// abilityChoices offers the sheet's abilities.
func (c *Core) abilityChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.sheetChoices(tx, q, func(s *ruleset.Sheet) (out []Choice) {
		for _, a := range s.Abilities {
			out = append(out, choiceOf(a.Label+" ("+a.ID+")", a.ID))
		}
		return out
	})
}

// skillChoices offers the sheet's skills.
func (c *Core) skillChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.sheetChoices(tx, q, func(s *ruleset.Sheet) []Choice { return skillListChoices(s.Skills) })
}

// saveChoices offers the sheet's saves.
func (c *Core) saveChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.sheetChoices(tx, q, func(s *ruleset.Sheet) []Choice { return skillListChoices(s.Saves) })
}

func skillListChoices(list []ruleset.Skill) (out []Choice) {
	for _, k := range list {
		out = append(out, choiceOf(k.Label+" ("+k.ID+")", k.ID))
	}
	return out
}

// listChoices offers the sheet's lists.
func (c *Core) listChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.sheetChoices(tx, q, func(s *ruleset.Sheet) (out []Choice) {
		for _, li := range s.Lists {
			out = append(out, choiceOf(li.Label+" ("+li.ID+")", li.ID))
		}
		return out
	})
}

// sheetChoices offers the names that names picks from the sheet of the ruleset the name
// option's card is read by (else the campaign's), ranked by what was typed.
func (c *Core) sheetChoices(tx storage.Tx, q *acQuery, names func(*ruleset.Sheet) []Choice) ([]Choice, error) {
	_, l, err := c.rulesFor(tx, q)
	if err != nil {
		return nil, err
	}
	return ranked(q.typed, names(&l.Sheet)), nil
}

// valueChoices offers the values /character set can take for what it names: an enum
// field's values (on a game card, less those the campaign's layers remove), a skill's or
// save's tiers, yes or no for a switch.
func (c *Core) valueChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	_, l, err := c.rulesFor(tx, q)
	if err != nil {
		return nil, err
	}
	rs := l.Ruleset
	removed := func(string) []string { return nil } // a library card's values are the ruleset's
	if camp, err := tx.Campaign(q.a.ChannelID); err == nil {
		if rec, err := tx.GameCard(q.a.ChannelID, strings.TrimSpace(q.get("name"))); err == nil && rec.Card != nil {
			removed = func(id string) []string { return removedValues(rs, &cardTarget{camp: camp}, id) }
		}
	}
	var out []Choice
	tiers := func(allowed []string) {
		for _, t := range rs.Resolution.ProficiencyTiers {
			if allowed == nil || slices.Contains(allowed, t.ID) {
				out = append(out, choiceOf(t.Label+" ("+t.ID+")", t.ID))
			}
		}
	}
	switch {
	case strings.TrimSpace(q.get("field")) != "":
		want := ruleset.FoldName(q.get("field"))
		for i := range rs.Sheet.Fields {
			f := &rs.Sheet.Fields[i]
			if ruleset.FoldName(f.ID) != want && ruleset.FoldName(f.Label) != want {
				continue
			}
			switch f.Type {
			case "enum":
				gone := removed(f.ID)
				for _, v := range f.Values {
					if slices.Contains(gone, v) {
						continue // a layer of the campaign removes it: /character set refuses it
					}
					label := v
					if lv, ok := f.ValueLabels[v]; ok {
						label = lv
					}
					out = append(out, choiceOf(label, v))
				}
			case "boolean":
				out = append(out, choiceOf("yes", "yes"), choiceOf("no", "no"))
			}
		}
	case strings.TrimSpace(q.get("skill")) != "":
		tiers(rs.Sheet.SkillTiers)
	case strings.TrimSpace(q.get("save")) != "":
		tiers(rs.Sheet.SaveTiers)
	}
	return ranked(q.typed, out), nil
}

// rowChoices offers the rows of the list option on the card, by number and name.
func (c *Core) rowChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	card, l, err := c.rulesFor(tx, q)
	if err != nil || card == nil {
		return nil, nil
	}
	want := ruleset.FoldName(q.get("list"))
	for li := range l.Sheet.Lists {
		list := &l.Sheet.Lists[li]
		if ruleset.FoldName(list.ID) != want && ruleset.FoldName(list.Label) != want {
			continue
		}
		col := list.NameColumn()
		var out []Choice
		for i, row := range card.Build.Lists[list.ID] {
			name, _ := row.Text(col)
			if strings.TrimSpace(name) == "" {
				name = "row " + strconv.Itoa(i+1)
			}
			out = append(out, choiceOf(strconv.Itoa(i+1)+". "+name, strconv.Itoa(i+1)))
		}
		return ranked(q.typed, out), nil
	}
	return nil, nil
}
