package bot

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/suggest"
)

// /character create, join, set and row add|edit|remove (SPEC 8.1).
//
// A library card belongs to a user and is never changed by play; /character join copies
// it into a campaign as a game card, which play changes. Player edits (set, row) change
// the card the name finds: in a channel with a campaign its game card of that name, else
// the invoker's own library card. A player edits only their own cards; a GM of the
// campaign may edit any of its game cards. Every edit keeps the ruleset's bounds and then
// recomputes scaled values (sheet.Rescale).

// characterCommands adds the /character commands.
func characterCommands(r *router) {
	nameOpt := OptionSpec{Name: "name", Description: "The character's name", Type: "string", Required: true}
	r.command(CommandSpec{
		Name:        "character create",
		Description: "Make a character of your own on this campaign's ruleset (your library card)",
		Options: []OptionSpec{
			{Name: "name", Description: "The new character's name", Type: "string", Required: true},
			{Name: "ruleset", Description: "Build on this ruleset instead of the campaign's (id, as /ruleset list shows)", Type: "string"},
		},
	}, (*Core).cmdCharacterCreate).
		complete("ruleset", (*Core).rulesetChoices)
	r.command(CommandSpec{
		Name:        "character join",
		Description: "Bring one of your characters into this channel's game (a copy that play changes)",
		Options:     []OptionSpec{nameOpt},
	}, (*Core).cmdCharacterJoin).
		complete("name", (*Core).libraryChoices)
	r.command(CommandSpec{
		Name:        "character set",
		Description: "Set a field, ability score, or skill or save tier on a character",
		Options: []OptionSpec{
			nameOpt,
			{Name: "field", Description: "A field's id or label", Type: "string"},
			{Name: "ability", Description: "An ability's id or label", Type: "string"},
			{Name: "skill", Description: "A skill's id or label (value: a proficiency tier)", Type: "string"},
			{Name: "save", Description: "A save's id or label (value: a proficiency tier)", Type: "string"},
			{Name: "value", Description: "The new value: a number, text, yes/no, one of the field's choices, or a tier", Type: "string", Required: true},
		},
	}, (*Core).cmdCharacterSet).
		complete("name", (*Core).anyCardChoices).
		complete("field", (*Core).fieldChoices).
		complete("ability", (*Core).abilityChoices).
		complete("skill", (*Core).skillChoices).
		complete("save", (*Core).saveChoices).
		complete("value", (*Core).valueChoices)
	listOpt := OptionSpec{Name: "list", Description: "The sheet list (id or label), e.g. gear or spells", Type: "string", Required: true}
	rowOpt := OptionSpec{Name: "row", Description: "Which row: its number (1 is the first) or its name", Type: "string", Required: true}
	r.command(CommandSpec{
		Name:        "character row add",
		Description: "Add a row to a list on a character's sheet",
		Options: []OptionSpec{nameOpt, listOpt,
			{Name: "values", Description: `Column values, e.g. "name=Rope; uses=2" (columns by id or label)`, Type: "string", Required: true},
		},
	}, (*Core).cmdRowAdd).
		complete("name", (*Core).anyCardChoices).
		complete("list", (*Core).listChoices)
	r.command(CommandSpec{
		Name:        "character row edit",
		Description: "Change columns of a row on a character's sheet (an empty value clears one)",
		Options: []OptionSpec{nameOpt, listOpt, rowOpt,
			{Name: "values", Description: `Columns to change, e.g. "uses=3; effect=" (columns by id or label)`, Type: "string", Required: true},
		},
	}, (*Core).cmdRowEdit).
		complete("name", (*Core).anyCardChoices).
		complete("list", (*Core).listChoices).
		complete("row", (*Core).rowChoices)
	r.command(CommandSpec{
		Name:        "character row remove",
		Description: "Remove a row from a list on a character's sheet",
		Options:     []OptionSpec{nameOpt, listOpt, rowOpt},
	}, (*Core).cmdRowRemove).
		complete("name", (*Core).anyCardChoices).
		complete("list", (*Core).listChoices).
		complete("row", (*Core).rowChoices)
}

// maxNameRunes bounds a character's name.
const maxNameRunes = 60

// checkName refuses a name tags could not carry: empty, too long, "party", or holding
// quotes, brackets, semicolons or control characters (the write-back would mangle them).
func checkName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	switch {
	case ruleset.FoldName(name) == "": // empty as the store keys it: blank, or a byte-order mark alone
		return "", refusal.New(refusal.NotAllowed, "a character needs a name")
	case utf8.RuneCountInString(name) > maxNameRunes:
		return "", refusal.New(refusal.NotAllowed, "a name has at most %d characters", maxNameRunes)
	case sheet.IsParty(name):
		return "", refusal.New(refusal.NotAllowed, `"party" means the whole party in tags; choose another name`)
	}
	for _, r := range name {
		if strings.ContainsRune("\"[]{};=“”„«»`", r) || unicode.IsControl(r) {
			return "", refusal.New(refusal.NotAllowed, "a name cannot hold %q: tags must be able to name the character", r)
		}
	}
	return name, nil
}

func (c *Core) cmdCharacterCreate(ctx context.Context, cmd Command) (Response, error) {
	name, err := checkName(cmd.Get("name"))
	if err != nil {
		return Response{}, err
	}
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		ref, err := c.createRuleset(tx, cmd)
		if err != nil {
			return err
		}
		l, err := c.rules(tx, cmd.GuildID, ref)
		if err != nil {
			return err
		}
		if _, err := tx.LibraryCard(cmd.User.ID, name); err == nil {
			return refusal.New(refusal.NotAllowed, "you have a character called %s already", name)
		} else if storage.KindOf(err) != storage.NotFound {
			return err
		}
		if err := keepBuiltin(tx, ref, cmd.User.ID, c.Now()); err != nil {
			return err
		}
		card := sheet.NewCard(name, ref.ID, ref.Version, l.Sheet.Version)
		if err := tx.PutLibraryCard(&storage.CardRecord{OwnerID: cmd.User.ID, Card: card, UpdatedAt: c.Now()}); err != nil {
			return err
		}
		resp = Response{Content: fmt.Sprintf("%s is your new character on %s (v%d), every value at its default.\n"+
			"Shape them with `/character set name:%s …`, `/character row add` and `/pick`; bring them into a game with `/character join name:%s`.",
			name, l.Name, ref.Version, name, name), Ephemeral: true}
		return nil
	})
	return resp, err
}

// createRuleset is the ruleset a new library card is built on: the ruleset: option's
// newest version, else this channel's campaign's.
func (c *Core) createRuleset(tx storage.Tx, cmd Command) (sheet.RulesetRef, error) {
	if id := strings.TrimSpace(cmd.Get("ruleset")); id != "" {
		return c.newestRuleset(tx, cmd.GuildID, id)
	}
	camp, err := c.campaign(tx, cmd.ChannelID)
	if refusal.Of(err) == refusal.NoCampaign {
		return sheet.RulesetRef{}, refusal.New(refusal.NoCampaign, "this channel has no campaign to take the ruleset from: add ruleset:<id>")
	}
	if err != nil {
		return sheet.RulesetRef{}, err
	}
	return camp.Ruleset, nil
}

func (c *Core) cmdCharacterJoin(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		lib, err := tx.LibraryCard(cmd.User.ID, cmd.Get("name"))
		if storage.KindOf(err) == storage.NotFound {
			return unknownCard(tx, "", cmd.User, strings.TrimSpace(cmd.Get("name")), "you have no character called %s%s (make one with /character create)")
		}
		if err != nil {
			return err
		}
		card, kit, err := c.joinCard(tx, camp, cmd.User.ID, lib)
		if err != nil {
			return err
		}
		resp = Response{Content: fmt.Sprintf("%s joins the game. `/sheet name:%s` shows their sheet.%s", card.Name, card.Name, kit)}
		return nil
	})
	return resp, err
}

// joinCard copies a library card into camp as its owner's game card: one card of a name
// per campaign, on the campaign's ruleset (a card built on an older version of it is read
// tolerantly), scaled values recomputed, its starting kit in its inventory (kit.go). kit
// says what the card starts with, for the answer ("" for nothing).
func (c *Core) joinCard(tx storage.Tx, camp *storage.Campaign, owner string, lib *storage.CardRecord) (card *sheet.Card, kit string, err error) {
	name := lib.Card.Name
	if old, err := tx.GameCard(camp.ChannelID, name); err == nil {
		if old.OwnerID == owner {
			return nil, "", refusal.New(refusal.NotAllowed, "%s is in this game already", old.Card.Name)
		}
		return nil, "", refusal.New(refusal.NotAllowed, "this game has a character called %s already", old.Card.Name)
	} else if storage.KindOf(err) != storage.NotFound {
		return nil, "", err
	}
	if lib.Card.Ruleset.ID != camp.Ruleset.ID {
		return nil, "", refusal.New(refusal.NotAllowed, "%s is built on %s, and this game plays %s", name, lib.Card.Ruleset.ID, camp.Ruleset.ID)
	}
	if lib.Card.Ruleset.Version > camp.Ruleset.Version {
		return nil, "", refusal.New(refusal.NotAllowed, "%s is built on %s v%d, newer than this game's v%d", name, camp.Ruleset.ID, lib.Card.Ruleset.Version, camp.Ruleset.Version)
	}
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, "", err
	}
	card = lib.Card.Clone()
	card.Ruleset = camp.Ruleset
	card.Live = sheet.Live{}
	sheet.Rescale(l.Ruleset, card, c.catalogs(l))
	rec := &storage.CardRecord{OwnerID: owner, Card: card, From: name, UpdatedAt: c.Now()}
	stored, left, err := c.startingKit(tx, camp, l, lib)
	if err != nil {
		return nil, "", err
	}
	rec.Inventory = stored
	if err := tx.PutGameCard(camp.ChannelID, rec); err != nil {
		return nil, "", err
	}
	return card, kitWords(stored, left, lib.KitSystem), nil
}

// whose says which copy of a character an edit changed, for the answer.
func whose(t *cardTarget) string {
	if t.library {
		return t.card().Name + " (your library card)"
	}
	return t.card().Name + " (in this game)"
}

// rescale recomputes the card's scaled values and says what moved, for the answer.
func rescale(t *cardTarget) string {
	changes := sheet.Rescale(t.rules.Ruleset, t.card(), t.catalogs)
	if len(changes) == 0 {
		return ""
	}
	return " " + plural(len(changes), "scaled value", "scaled values") + " followed."
}

// saveEdit stores an edited card where it was found.
func (c *Core) saveEdit(tx storage.Tx, cmd Command, t *cardTarget) error {
	t.rec.UpdatedAt = c.Now()
	return t.save(tx, cmd.ChannelID)
}

func (c *Core) cmdCharacterSet(ctx context.Context, cmd Command) (Response, error) {
	var kinds []string
	for _, k := range []string{"field", "ability", "skill", "save"} {
		if strings.TrimSpace(cmd.Get(k)) != "" {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) != 1 {
		return Response{}, refusal.New(refusal.NotAllowed, "name exactly one of field:, ability:, skill: or save:")
	}
	kind := kinds[0]
	return c.cardEdit(ctx, cmd, func(t *cardTarget) (string, error) {
		label, before, after, err := setBuild(t, kind, cmd.Get(kind), cmd.Get("value"))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s → %s.", label, before, after), nil
	})
}

// setBuild sets one build value of t's card and returns its label and the value before
// and after, as a sheet shows them. A game card's enum fields lose the values its
// campaign's layers remove.
func setBuild(t *cardTarget, kind, name, raw string) (label, before, after string, err error) {
	rs := t.rules.Ruleset
	card := t.card()
	vals := sheet.EvaluateBuild(rs, &card.Build)
	switch kind {
	case "field":
		f := fieldByName(rs, name)
		if f == nil {
			return "", "", "", refusal.New(refusal.UnknownField, "%s has no field %q%s", rs.Name, name, nearName(rs.Sheet.Fields, name, fieldNames))
		}
		if vals.Hidden(f.HideWhen) {
			return "", "", "", refusal.New(refusal.UnknownField, "%s is not on this character's sheet", f.Label)
		}
		v, err := typedValue(f, raw, removedValues(rs, t, f.ID))
		if err != nil {
			return "", "", "", err
		}
		before := showValue(f, vals.FieldValue(f.ID))
		if card.Build.Fields == nil {
			card.Build.Fields = map[string]any{}
		}
		card.Build.Fields[f.ID] = v
		return f.Label, before, showValue(f, v), nil
	case "ability":
		a := abilityByName(rs, name)
		if a == nil {
			return "", "", "", refusal.New(refusal.UnknownAbility, "%s has no ability %q%s", rs.Name, name, nearName(rs.Sheet.Abilities, name, abilityNames))
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil || x != math.Trunc(x) || x < float64(a.Min) || x > float64(a.Max) {
			return "", "", "", boundsRefusal(a.Min, a.Max, "%s is a whole number from %d to %d", a.Label, a.Min, a.Max)
		}
		before := formatNum(vals.AbilityScores[a.ID])
		if card.Build.Abilities == nil {
			card.Build.Abilities = map[string]float64{}
		}
		card.Build.Abilities[a.ID] = x
		return a.Label, before, formatNum(x), nil
	}
	list, tiers, unknown := rs.Sheet.Skills, rs.Sheet.SkillTiers, refusal.UnknownSkill
	store, current := &card.Build.Skills, vals.SkillTiers
	if kind == "save" {
		list, tiers, unknown = rs.Sheet.Saves, rs.Sheet.SaveTiers, refusal.UnknownSave
		store, current = &card.Build.Saves, vals.SaveTiers
	}
	k := skillByName(list, name)
	if k == nil {
		return "", "", "", refusal.New(unknown, "%s has no %s %q%s", rs.Name, kind, name, nearName(list, name, skillNames))
	}
	tier := tierByName(rs, raw)
	if tier == nil || (tiers != nil && !slices.Contains(tiers, tier.ID)) {
		return "", "", "", refusal.New(refusal.UnknownTier, "the tiers a %s takes are %s", kind, tierChoices(rs, tiers))
	}
	before = current[k.ID]
	if bt := tierByName(rs, before); bt != nil {
		before = bt.Label
	}
	if *store == nil {
		*store = map[string]string{}
	}
	(*store)[k.ID] = tier.ID
	return k.Label, before, tier.Label, nil
}

func fieldByName(rs *ruleset.Ruleset, name string) *ruleset.Field {
	return ruleset.ByName(rs.Sheet.Fields, name, fieldNames)
}

func fieldNames(f *ruleset.Field) []string { return []string{f.ID, f.Label} }

func abilityByName(rs *ruleset.Ruleset, name string) *ruleset.Ability {
	return ruleset.ByName(rs.Sheet.Abilities, name, abilityNames)
}

func abilityNames(a *ruleset.Ability) []string { return []string{a.ID, a.Label, a.Short} }

func skillByName(list []ruleset.Skill, name string) *ruleset.Skill {
	return ruleset.ByName(list, name, skillNames)
}

func skillNames(k *ruleset.Skill) []string { return []string{k.ID, k.Label} }

func tierByName(rs *ruleset.Ruleset, name string) *ruleset.ProficiencyTier {
	return ruleset.ByName(rs.Resolution.ProficiencyTiers, name, func(t *ruleset.ProficiencyTier) []string { return []string{t.ID, t.Label} })
}

func listByName(rs *ruleset.Ruleset, name string) *ruleset.List {
	return ruleset.ByName(rs.Sheet.Lists, name, listNames)
}

func listNames(l *ruleset.List) []string { return []string{l.ID, l.Label} }

func columnByName(l *ruleset.List, name string) *ruleset.Column {
	return ruleset.ByName(l.Columns, name, func(c *ruleset.Column) []string { return []string{c.ID, c.Label} })
}

// nearName is the "did you mean …" words (suggest.DidYouMeanOf) for a name ruleset.ByName found
// nothing for among items: one per item, its labels before its id on a tie (ByName's
// names put the id first).
func nearName[T any](items []T, name string, names func(*T) []string) string {
	return suggest.DidYouMeanOf(name, items, func(x *T) []string {
		ns := names(x)
		return append(slices.Clone(ns[1:]), ns[0])
	})
}

func tierChoices(rs *ruleset.Ruleset, allowed []string) string {
	var labels []string
	for _, t := range rs.Resolution.ProficiencyTiers {
		if allowed == nil || slices.Contains(allowed, t.ID) {
			labels = append(labels, t.Label)
		}
	}
	if len(labels) == 0 {
		return "none (this ruleset has no proficiency tiers)"
	}
	return strings.Join(labels, ", ")
}

// removedValues lists the values the layers of a game card's campaign take out of enum
// field id.
func removedValues(rs *ruleset.Ruleset, t *cardTarget, id string) []string {
	if t.library || t.camp == nil {
		return nil
	}
	var out []string
	for _, lid := range t.camp.Layers {
		ly := rs.Layer(lid)
		if ly == nil {
			continue
		}
		for _, f := range ly.Fields {
			if f.ID == id {
				out = append(out, f.RemoveValues...)
			}
		}
	}
	return out
}

// typedValue reads raw as a value of field or column f: a number within its bounds (whole
// when it is an integer), text within its maxLength, a switch, one of an enum's values
// (by value or label, minus removed ones) or dice.
func typedValue(f *ruleset.Field, raw string, removed []string) (any, error) {
	raw = strings.TrimSpace(raw)
	switch f.Type {
	case "number":
		x, err := strconv.ParseFloat(raw, 64)
		lo, hi := numberBounds(f)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || (f.IsInteger() && x != math.Trunc(x)) ||
			(f.Min != nil && x < *f.Min) || (f.Max != nil && x > *f.Max) {
			kind := "a number"
			if f.IsInteger() {
				kind = "a whole number"
			}
			return nil, boundsRefusal(lo, hi, "%s is %s from %d to %d", f.Label, kind, lo, hi)
		}
		return x, nil
	case "boolean":
		switch strings.ToLower(raw) {
		case "true", "yes", "on", "1", "y":
			return true, nil
		case "false", "no", "off", "0", "n":
			return false, nil
		}
		return nil, refusal.New(refusal.UnknownValue, "%s is yes or no", f.Label)
	case "enum":
		var choices []string
		for _, v := range f.Values {
			if slices.Contains(removed, v) {
				continue
			}
			label := f.ValueLabels[v]
			if ruleset.FoldName(v) == ruleset.FoldName(raw) || label != "" && ruleset.FoldName(label) == ruleset.FoldName(raw) {
				return v, nil
			}
			choices = append(choices, v)
		}
		return nil, refusal.New(refusal.UnknownValue, "%s is one of %s", f.Label, strings.Join(choices, ", "))
	case "dice":
		if _, err := parser.ParseDice(raw); err != nil || len(raw) > 40 {
			return nil, refusal.New(refusal.UnknownValue, "%s is dice, like 1d8 or 2d6+1", f.Label)
		}
		return raw, nil
	}
	limit := 4000
	if f.MaxLength != nil {
		limit = *f.MaxLength
	}
	if n := utf8.RuneCountInString(raw); n > limit {
		return nil, boundsRefusal(0, limit, "%s holds at most %d characters, not %d", f.Label, limit, n)
	}
	return raw, nil
}

// numberBounds is a number field's bounds as whole numbers, for the refusal.
func numberBounds(f *ruleset.Field) (int, int) {
	lo, hi := -999_999_999, 999_999_999
	if f.Min != nil {
		lo = int(math.Ceil(*f.Min))
	}
	if f.Max != nil {
		hi = int(math.Floor(*f.Max))
	}
	return lo, hi
}

// boundsRefusal is a bad-amount refusal stating its bounds.
func boundsRefusal(lo, hi int, format string, args ...any) error {
	e := refusal.New(refusal.BadAmount, format, args...)
	e.Bounds = strconv.Itoa(lo) + ".." + strconv.Itoa(hi)
	return e
}

// showValue writes a value the way a sheet shows it: an enum by its label, a switch as
// yes/no, nothing as "(none)".
func showValue(f *ruleset.Field, v any) string {
	switch x := v.(type) {
	case nil:
		return "(none)"
	case float64:
		return formatNum(x)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case string:
		if f != nil && f.Type == "enum" {
			if l, ok := f.ValueLabels[x]; ok {
				return l
			}
		}
		if x == "" {
			return "(none)"
		}
		return x
	}
	return fmt.Sprint(v)
}

// formatNum writes a number without a point when it is whole.
func formatNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// ---- rows ----

// rowValues reads `values:"name=Rope; uses=2"` against list l: column (id or label) →
// typed value, nil for a column given empty (cleared). Every mistake is refused.
func rowValues(l *ruleset.List, raw string) (map[string]any, error) {
	out := map[string]any{}
	for part := range strings.SplitSeq(raw, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, refusal.New(refusal.Malformed, "write each value as column=value, separated by semicolons (%q has no =)", strings.TrimSpace(part))
		}
		col := columnByName(l, key)
		if col == nil {
			return nil, refusal.New(refusal.UnknownField, "%s has no column %q (it has %s)", l.Label, strings.TrimSpace(key), columnIDs(l))
		}
		if _, dup := out[col.ID]; dup {
			return nil, refusal.New(refusal.Malformed, "column %s is given twice", col.ID)
		}
		if strings.TrimSpace(val) == "" {
			out[col.ID] = nil
			continue
		}
		v, err := typedValue(col, val, nil)
		if err != nil {
			return nil, err
		}
		out[col.ID] = v
	}
	if len(out) == 0 {
		return nil, refusal.New(refusal.Malformed, "no values given: write column=value, separated by semicolons")
	}
	return out, nil
}

func columnIDs(l *ruleset.List) string {
	ids := make([]string, len(l.Columns))
	for i, c := range l.Columns {
		ids[i] = c.ID
	}
	return strings.Join(ids, ", ")
}

// missingRequired names the required columns row leaves empty.
func missingRequired(l *ruleset.List, row sheet.Row) error {
	for _, col := range l.Columns {
		if !col.IsRequired() {
			continue
		}
		v, ok := row[col.ID]
		if s, isText := v.(string); !ok || isText && strings.TrimSpace(s) == "" {
			return refusal.New(refusal.NotAllowed, "%s needs a %s (%s=…)", l.Label, col.Label, col.ID)
		}
	}
	return nil
}

// rowName is a row's name as the list shows it, or "row N".
func rowName(l *ruleset.List, row sheet.Row, i int) string {
	if col := l.NameColumn(); col != "" {
		if s, _ := row.Text(col); strings.TrimSpace(s) != "" {
			return s
		}
	}
	return "row " + strconv.Itoa(i+1)
}

// findRow finds a row by its number (1 is the first) or its name.
func findRow(l *ruleset.List, rows []sheet.Row, which string) (int, error) {
	which = strings.TrimSpace(which)
	if n, err := strconv.Atoi(which); err == nil {
		if n < 1 || n > len(rows) {
			return 0, refusal.New(refusal.UnknownEntry, "%s has %s; there is no row %d", l.Label, plural(len(rows), "row", "rows"), n)
		}
		return n - 1, nil
	}
	col := l.NameColumn()
	found := -1
	for i, r := range rows {
		if r.Named(col, which) {
			if found >= 0 {
				return 0, refusal.New(refusal.AmbiguousEntry, "more than one row of %s is called %s: give its number", l.Label, which)
			}
			found = i
		}
	}
	if found < 0 {
		names := make([]string, 0, len(rows))
		for _, r := range rows {
			s, _ := r.Text(col)
			names = append(names, s)
		}
		return 0, refusal.New(refusal.UnknownEntry, "no row of %s is called %s%s", l.Label, which, suggest.DidYouMean(which, names))
	}
	return found, nil
}

// cardEdit runs one edit command on the card a command names: find it (a game card of
// this channel's campaign, else the invoker's library card; a player reaches only their
// own, a GM any game card), let edit change it and say what it did, rescale, store.
func (c *Core) cardEdit(ctx context.Context, cmd Command, edit func(t *cardTarget) (string, error)) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.findTarget(tx, cmd.ChannelID, cmd.GuildID, cmd.User, cmd.Get("name"), true, true)
		if err != nil {
			return err
		}
		done, err := edit(t)
		if err != nil {
			return err
		}
		note := rescale(t)
		if err := c.saveEdit(tx, cmd, t); err != nil {
			return err
		}
		resp = Response{Content: fmt.Sprintf("%s: %s%s", whose(t), done, note), Ephemeral: true}
		return nil
	})
	return resp, err
}

// rowEdit runs one row command through cardEdit: find the list on the card's sheet and
// let edit change its rows, keeping maxItems.
func (c *Core) rowEdit(ctx context.Context, cmd Command, edit func(l *ruleset.List, card *sheet.Card) (string, error)) (Response, error) {
	return c.cardEdit(ctx, cmd, func(t *cardTarget) (string, error) {
		rs := t.rules.Ruleset
		l := listByName(rs, cmd.Get("list"))
		if l == nil {
			return "", refusal.New(refusal.UnknownField, "%s has no list %q%s", rs.Name, strings.TrimSpace(cmd.Get("list")), nearName(rs.Sheet.Lists, cmd.Get("list"), listNames))
		}
		if sheet.EvaluateBuild(rs, &t.card().Build).Hidden(l.HideWhen) {
			return "", refusal.New(refusal.UnknownField, "%s is not on this character's sheet", l.Label)
		}
		return edit(l, t.card())
	})
}

func (c *Core) cmdRowAdd(ctx context.Context, cmd Command) (Response, error) {
	return c.rowEdit(ctx, cmd, func(l *ruleset.List, card *sheet.Card) (string, error) {
		vals, err := rowValues(l, cmd.Get("values"))
		if err != nil {
			return "", err
		}
		rows := card.Build.Lists[l.ID]
		if l.MaxItems > 0 && len(rows) >= l.MaxItems {
			return "", refusal.New(refusal.NotAllowed, "%s holds at most %d rows", l.Label, l.MaxItems)
		}
		row := sheet.Row{}
		for k, v := range vals {
			if v != nil {
				row[k] = v
			}
		}
		if err := missingRequired(l, row); err != nil {
			return "", err
		}
		if card.Build.Lists == nil {
			card.Build.Lists = map[string][]sheet.Row{}
		}
		card.Build.Lists[l.ID] = append(rows, row)
		if l.Pools != nil {
			if name, _ := row.Text(l.Pools.NameColumn); !sheet.HasRowKeyed(rows, l.Pools.NameColumn, name) {
				delete(card.Live.Pools, sheet.RowPoolKey(l.ID, name)) // a new counter starts full
			}
		}
		return fmt.Sprintf("added %s to %s (row %d).", rowName(l, row, len(rows)), l.Label, len(rows)+1), nil
	})
}

func (c *Core) cmdRowEdit(ctx context.Context, cmd Command) (Response, error) {
	return c.rowEdit(ctx, cmd, func(l *ruleset.List, card *sheet.Card) (string, error) {
		rows := card.Build.Lists[l.ID]
		i, err := findRow(l, rows, cmd.Get("row"))
		if err != nil {
			return "", err
		}
		vals, err := rowValues(l, cmd.Get("values"))
		if err != nil {
			return "", err
		}
		row := rows[i]
		for k, v := range vals {
			if v == nil {
				delete(row, k)
			} else {
				row[k] = v
			}
		}
		if err := missingRequired(l, row); err != nil {
			return "", err
		}
		return fmt.Sprintf("changed %s in %s (row %d).", rowName(l, row, i), l.Label, i+1), nil
	})
}

func (c *Core) cmdRowRemove(ctx context.Context, cmd Command) (Response, error) {
	return c.rowEdit(ctx, cmd, func(l *ruleset.List, card *sheet.Card) (string, error) {
		rows := card.Build.Lists[l.ID]
		i, err := findRow(l, rows, cmd.Get("row"))
		if err != nil {
			return "", err
		}
		removed := rows[i]
		name := rowName(l, removed, i)
		card.Build.Lists[l.ID] = slices.Delete(rows, i, i+1)
		if l.Pools != nil {
			counter, _ := removed.Text(l.Pools.NameColumn)
			if !sheet.HasRowKeyed(card.Build.Lists[l.ID], l.Pools.NameColumn, counter) {
				delete(card.Live.Pools, sheet.RowPoolKey(l.ID, counter)) // its counter is gone
			}
		}
		return fmt.Sprintf("removed %s from %s.", name, l.Label), nil
	})
}
