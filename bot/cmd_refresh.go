package bot

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/catalog"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// Refresh from ruleset (SPEC 5.4): when the campaign's ruleset version has newer text for
// rows a card copied from a catalog, /refresh says per list how many rows have updates
// and numbers them; Review shows card and ruleset side by side with a tick per row;
// Update selected writes only the ticked rows' differing columns (catalog.RefreshApply).
// /refresh update rows:1,3|all does the same without buttons.
//
// The buttons carry everything they need in their custom ids (no state is kept between
// clicks): the card, a digest of the review they were made from, and the rows ticked.
// If the card or the ruleset changed since, the digest no longer matches and the fresh
// review is shown instead of writing anything.
//
//	refresh:review:<card>                   Review
//	refresh:select:<digest>:<card>          the rows' multi-select
//	refresh:update:<digest>:<rows>:<card>   Update selected (rows: a hex mask of the
//	                                        review's row numbers, or "all")
//
// <card> is the card's name, or "#" and a hash of it when the id would pass Discord's
// 100 characters. The ids are written and read by the component codec (components.go).

// The kinds of the refresh review's custom ids.
var (
	refreshReviewID = componentKind{name: "refresh:review", arity: 1} // card
	refreshSelectID = componentKind{name: "refresh:select", arity: 2} // digest, card
	refreshUpdateID = componentKind{name: "refresh:update", arity: 3} // digest, rows, card
)

// refreshCommands adds /refresh, /refresh update and the review's buttons.
func refreshCommands(r *router) {
	nameOpt := OptionSpec{Name: "name", Description: "The character", Type: "string", Required: true}
	r.command(CommandSpec{
		Name:        "refresh",
		Description: "See which rows of a character have newer text in the campaign's ruleset, and review them",
		Options: []OptionSpec{
			nameOpt,
			{Name: "rows", Description: "Update these rows at once: 1,3 or all (as /refresh numbers them)", Type: "string"},
		},
	}, (*Core).cmdRefresh).
		complete("name", (*Core).gameCardChoices).
		complete("rows", (*Core).refreshRowChoices)
	r.command(CommandSpec{
		Name:        "refresh update",
		Description: "Write the newer ruleset text into some rows of a character: rows:1,3 or rows:all",
		Options: []OptionSpec{
			nameOpt,
			{Name: "rows", Description: "The rows, as /refresh numbers them: 1,3 or all", Type: "string", Required: true},
		},
	}, (*Core).cmdRefreshUpdate).
		complete("name", (*Core).gameCardChoices).
		complete("rows", (*Core).refreshRowChoices)
	r.component(refreshReviewID, (*Core).refreshReviewClick)
	r.component(refreshSelectID, (*Core).refreshSelectClick)
	r.component(refreshUpdateID, (*Core).refreshUpdateClick)
}

// Discord's bounds on components.
const (
	maxSelectOptions = 25
	maxFields        = 25
)

// review is one card's refresh review against the campaign's ruleset, rows numbered
// from 1 in the order they are shown.
type review struct {
	rules  *ruleset.Loaded
	camp   *storage.Campaign
	rec    *storage.CardRecord
	lists  []catalog.RefreshList
	rows   []catalog.RefreshRow
	digest string
}

// openReview loads the card a refresh names and works out its review, refusing anyone
// but the card's player and the campaign's GMs.
func (c *Core) openReview(tx storage.Tx, channelID string, u User, cardRef string) (*review, error) {
	camp, err := c.campaign(tx, channelID)
	if err != nil {
		return nil, err
	}
	rec, err := cardByRef(tx, channelID, cardRef)
	if err != nil {
		return nil, err
	}
	if rec.OwnerID != u.ID && !isGM(camp, u) {
		return nil, refusal.New(refusal.NotAllowed, "%s is not your character: only its player or a GM may refresh it", rec.Card.Name)
	}
	rules, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, err
	}
	r := &review{rules: rules, camp: camp, rec: rec}
	r.lists = catalog.Refresh(rules.Ruleset, rec.Card, c.catalogs(rules))
	for _, l := range r.lists {
		r.rows = append(r.rows, l.Rows...)
	}
	r.digest = reviewDigest(r.rows)
	return r, nil
}

// reviewDigest identifies a review's content: which rows, and what each would write.
func reviewDigest(rows []catalog.RefreshRow) string {
	h := fnv.New32a()
	for _, r := range rows {
		fmt.Fprintf(h, "%s[%d]%s", r.List, r.Index, r.Marker)
		for _, col := range r.Columns {
			fmt.Fprintf(h, "|%s=%v>%v", col.Column, col.Card, col.Ruleset)
		}
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("%08x", h.Sum32())
}

// cardRef is how a custom id names a card: its name, or "#" and a hash of its normal
// form when the id would be too long with the name in it.
func cardRef(name string, room int) string {
	if len(name) <= room && !strings.HasPrefix(name, "#") {
		return name
	}
	return "#" + nameHash(name)
}

func nameHash(name string) string {
	h := fnv.New32a()
	h.Write([]byte(ruleset.FoldName(name)))
	return fmt.Sprintf("%08x", h.Sum32())
}

// cardByRef finds the game card a custom id (or a command) names.
func cardByRef(tx storage.Tx, channelID, ref string) (*storage.CardRecord, error) {
	hash, isHash := strings.CutPrefix(ref, "#")
	if !isHash || len(hash) != 8 {
		return gameCard(tx, channelID, ref)
	}
	records, err := tx.GameCards(channelID)
	if err != nil {
		return nil, err
	}
	for _, r := range records {
		if r.Card != nil && nameHash(r.Card.Name) == hash {
			return r, nil
		}
	}
	return gameCard(tx, channelID, ref)
}

// rowTitle names a review row for people: "2. Workings · Ember Dart".
func (r *review) rowTitle(i int) string {
	row := r.rows[i]
	label := row.List
	for _, l := range r.lists {
		if l.List == row.List {
			label = l.Label
		}
	}
	name := row.Name
	if strings.TrimSpace(name) == "" {
		name = row.Marker
	}
	return strconv.Itoa(i+1) + ". " + label + " · " + name
}

// columnsChanged lists a row's differing columns by label.
func columnsChanged(row catalog.RefreshRow) string {
	labels := make([]string, len(row.Columns))
	for i, c := range row.Columns {
		labels[i] = c.Label
	}
	return strings.Join(labels, ", ")
}

// versionName is "Low Vell v2".
func versionName(l *ruleset.Loaded) string { return l.Name + " v" + strconv.Itoa(l.Version) }

// cmdRefresh answers /refresh: a line per list saying how many rows have newer text,
// every such row numbered, and a Review button. With rows: it updates them at once.
func (c *Core) cmdRefresh(ctx context.Context, cmd Command) (Response, error) {
	if strings.TrimSpace(cmd.Get("rows")) != "" {
		return c.cmdRefreshUpdate(ctx, cmd)
	}
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		r, err := c.openReview(tx, cmd.ChannelID, cmd.User, cmd.Get("name"))
		if err != nil {
			return err
		}
		resp = r.summary()
		return nil
	})
	return resp, err
}

// summary is /refresh's answer.
func (r *review) summary() Response {
	name := r.rec.Card.Name
	if len(r.rows) == 0 {
		return Response{Ephemeral: true, Content: fmt.Sprintf("%s's rows match %s: nothing to refresh.", name, versionName(r.rules))}
	}
	var b strings.Builder
	for _, l := range r.lists {
		fmt.Fprintf(&b, "**%s**: %s newer text\n", l.Label, plural(len(l.Rows), "row has", "rows have"))
	}
	b.WriteString("\n")
	for i, row := range r.rows {
		line := r.rowTitle(i) + " — " + columnsChanged(row) + "\n"
		if b.Len()+len(line) > 3800 {
			fmt.Fprintf(&b, "… and %d more\n", len(r.rows)-i)
			break
		}
		b.WriteString(line)
	}
	ref := cardRef(name, refreshReviewID.room())
	return Response{
		Ephemeral: true,
		Embeds: []Embed{{
			Title:       fmt.Sprintf("%s: %s newer text in %s", name, plural(len(r.rows), "row has", "rows have"), versionName(r.rules)),
			Description: strings.TrimSpace(b.String()),
			Footer:      fmt.Sprintf("Review shows card and ruleset side by side. Without buttons: /refresh update name:%s rows:1,3 (or all).", name),
		}},
		Components: []Row{{Buttons: []Button{{CustomID: refreshReviewID.encode(ref), Label: "Review", Style: "primary"}}}},
	}
}

// reviewResponse is the side-by-side review with its ticks: a field per row (card and
// ruleset text of each differing column), a multi-select of the rows, Update selected
// (only when something is ticked) and Update all. note, when set, heads the message.
func (r *review) reviewResponse(ticked []int, note string) Response {
	name := r.rec.Card.Name
	if len(r.rows) == 0 {
		content := fmt.Sprintf("%s's rows match %s: nothing to refresh.", name, versionName(r.rules))
		if note != "" {
			content = note + "\n" + content
		}
		return Response{Ephemeral: true, Update: true, Content: content}
	}
	e := Embed{Title: fmt.Sprintf("Review %s against %s", name, versionName(r.rules))}
	budget := 5000
	shown := 0
	for i, row := range r.rows {
		if i == maxFields || budget <= 0 {
			break
		}
		var b strings.Builder
		per := max(60, min(300, 900/max(1, len(row.Columns))))
		for _, col := range row.Columns {
			fmt.Fprintf(&b, "**%s**\ncard: %s\nruleset: %s\n", col.Label, cellWords(col.Card, per), cellWords(col.Ruleset, per))
		}
		v := clipText(strings.TrimSpace(b.String()), 1024)
		title := r.rowTitle(i)
		if slices.Contains(ticked, i) {
			title = "☑ " + title
		} else {
			title = "☐ " + title
		}
		title = clipText(title, 256)
		budget -= len(v) + len(title)
		e.Fields = append(e.Fields, EmbedField{Name: title, Value: v})
		shown++
	}
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	if shown < len(r.rows) {
		notes = append(notes, fmt.Sprintf("%d more rows are not shown; /refresh update rows:all updates every row.", len(r.rows)-shown))
	}
	e.Footer = strings.Join(append(notes, "Tick the rows to update, then Update selected. Only the differing columns are written; everything else stays."), " ")

	// One ref for the select and both buttons, fitting the widest: an update id with
	// every row the select offers ticked.
	widest, _ := readRows("all", maxSelectOptions)
	ref := cardRef(name, refreshUpdateID.room(r.digest, rowMask(widest)))
	sel := &Select{
		CustomID:    refreshSelectID.encode(r.digest, ref),
		Placeholder: "Rows to update",
		MinValues:   0,
	}
	for i := range r.rows {
		if i == maxSelectOptions {
			break
		}
		sel.Options = append(sel.Options, SelectOption{
			Label:       clipText(r.rowTitle(i), 100),
			Value:       strconv.Itoa(i + 1),
			Description: clipText(columnsChanged(r.rows[i]), 100),
			Default:     slices.Contains(ticked, i),
		})
	}
	sel.MaxValues = len(sel.Options)
	update := Button{Label: "Update selected", Style: "success", CustomID: refreshUpdateID.encode(r.digest, rowMask(ticked), ref)}
	if len(ticked) == 0 {
		update.Disabled = true
		update.CustomID = refreshUpdateID.encode(r.digest, "0", ref)
	}
	all := Button{Label: fmt.Sprintf("Update all %d", len(r.rows)), Style: "secondary", CustomID: refreshUpdateID.encode(r.digest, "all", ref)}
	return Response{
		Ephemeral:  true,
		Update:     true,
		Embeds:     []Embed{e},
		Components: []Row{{Select: sel}, {Buttons: []Button{update, all}}},
	}
}

// cellWords shows one value of a review: text as it is (clipped), a number, a switch,
// or "(none)".
func cellWords(v any, n int) string {
	switch x := v.(type) {
	case nil:
		return "*(none)*"
	case string:
		if strings.TrimSpace(x) == "" {
			return "*(empty)*"
		}
		return clipText(x, n)
	case float64:
		return numText(x)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return fmt.Sprint(v)
}

// rowMask writes review positions (0-based) as a hex mask: bit i is row i+1.
func rowMask(ticked []int) string {
	var m uint64
	for _, i := range ticked {
		if i >= 0 && i < 64 {
			m |= 1 << uint(i)
		}
	}
	return strconv.FormatUint(m, 16)
}

// readMask reads a hex mask back into positions.
func readMask(s string) ([]int, error) {
	m, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return nil, err
	}
	var out []int
	for i := range 64 {
		if m&(1<<uint(i)) != 0 {
			out = append(out, i)
		}
	}
	return out, nil
}

// readRows reads a rows option ("1,3", "2-4", "all") into review positions, refusing
// numbers the review does not have.
func readRows(s string, n int) ([]int, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return nil, refusal.New(refusal.Malformed, "I could not read rows %q: write row numbers as /refresh shows them (1,3 or 2-4), or all", s)
		}
		if b > n {
			have := "is only 1 row"
			if n != 1 {
				have = "are only " + strconv.Itoa(n) + " rows"
			}
			return nil, refusal.New(refusal.Malformed, "there %s with newer text, so there is no row %d", have, b)
		}
		for i := a; i <= b; i++ {
			if !slices.Contains(out, i-1) {
				out = append(out, i-1)
			}
		}
	}
	if len(out) == 0 {
		return nil, refusal.New(refusal.Malformed, "say which rows: 1,3 or all")
	}
	slices.Sort(out)
	return out, nil
}

// cmdRefreshUpdate answers /refresh update: the rows named (as /refresh numbers them) get
// the ruleset's newer text, in one transaction.
func (c *Core) cmdRefreshUpdate(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		r, err := c.openReview(tx, cmd.ChannelID, cmd.User, cmd.Get("name"))
		if err != nil {
			return err
		}
		if len(r.rows) == 0 {
			resp = Response{Ephemeral: true, Content: fmt.Sprintf("%s's rows match %s: nothing to refresh.", r.rec.Card.Name, versionName(r.rules))}
			return nil
		}
		picked, err := readRows(cmd.Get("rows"), len(r.rows))
		if err != nil {
			return err
		}
		text, err := c.applyRefresh(tx, cmd.ChannelID, r, picked)
		if err != nil {
			return err
		}
		resp = Response{Content: text}
		return nil
	})
	return resp, err
}

// applyRefresh writes the picked review rows (0-based positions) and says what it did.
func (c *Core) applyRefresh(tx storage.Tx, channelID string, r *review, picked []int) (string, error) {
	sel := make([]catalog.RefreshSelection, 0, len(picked))
	var names []string
	for _, i := range picked {
		row := r.rows[i]
		sel = append(sel, catalog.RefreshSelection{List: row.List, Index: row.Index})
		names = append(names, strings.TrimPrefix(r.rowTitle(i), strconv.Itoa(i+1)+". "))
	}
	card := r.rec.Card
	out, changes := catalog.RefreshApply(r.rules.Ruleset, card, c.catalogs(r.rules), sel)
	if !out.OK() {
		return "", out.Err()
	}
	if len(changes) > 0 {
		r.rec.UpdatedAt = c.Now()
		if err := tx.PutGameCard(channelID, r.rec); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("**%s**: %s from %s — %s.", card.Name, out.Now, versionName(r.rules), strings.Join(names, "; ")), nil
}

// refreshReviewClick answers Review: the side-by-side review, nothing ticked.
func (c *Core) refreshReviewClick(ctx context.Context, comp Component, args []string) (Response, error) {
	ref := args[0]
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		r, err := c.openReview(tx, comp.ChannelID, comp.User, ref)
		if err != nil {
			return err
		}
		resp = r.reviewResponse(nil, "")
		return nil
	})
	return resp, err
}

// refreshSelectClick answers a choice in the rows' select: the review with those ticks,
// or afresh when the review changed since.
func (c *Core) refreshSelectClick(ctx context.Context, comp Component, args []string) (Response, error) {
	digest, ref := args[0], args[1]
	var ticked []int
	for _, v := range comp.Values {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Response{}, errUnknownComponent
		}
		ticked = append(ticked, n-1)
	}
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		r, err := c.openReview(tx, comp.ChannelID, comp.User, ref)
		if err != nil {
			return err
		}
		note := ""
		if r.digest != digest {
			ticked, note = nil, staleReview(r.rec.Card.Name)
		}
		ticked = slices.DeleteFunc(ticked, func(i int) bool { return i >= len(r.rows) })
		resp = r.reviewResponse(ticked, note)
		return nil
	})
	return resp, err
}

// refreshUpdateClick answers Update selected and Update all: the rows are written when
// the review is still the one they were ticked on.
func (c *Core) refreshUpdateClick(ctx context.Context, comp Component, args []string) (Response, error) {
	digest, rows, ref := args[0], args[1], args[2]
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		r, err := c.openReview(tx, comp.ChannelID, comp.User, ref)
		if err != nil {
			return err
		}
		if r.digest != digest {
			resp = r.reviewResponse(nil, staleReview(r.rec.Card.Name))
			return nil
		}
		var picked []int
		if rows == "all" {
			picked, _ = readRows("all", len(r.rows))
		} else if picked, err = readMask(rows); err != nil {
			return errUnknownComponent
		}
		picked = slices.DeleteFunc(picked, func(i int) bool { return i >= len(r.rows) })
		if len(picked) == 0 {
			resp = r.reviewResponse(nil, "Tick at least one row first.")
			return nil
		}
		text, err := c.applyRefresh(tx, comp.ChannelID, r, picked)
		if err != nil {
			return err
		}
		resp = Response{Ephemeral: true, Update: true, Content: text}
		return nil
	})
	return resp, err
}

func staleReview(name string) string {
	return name + "'s sheet or the ruleset changed since that review, so nothing was written: here it is again."
}

// refreshNews says, per card, how many rows have newer text in rules: "Mira 2 (Workings
// 2), Bram 1 (Tallies 1)". Cards with none are left out; "" when no card has any.
func (c *Core) refreshNews(rules *ruleset.Loaded, cards []*sheet.Card) string {
	entries := c.catalogs(rules)
	var parts []string
	for _, card := range cards {
		lists := catalog.Refresh(rules.Ruleset, card, entries)
		n := 0
		per := make([]string, 0, len(lists))
		for _, l := range lists {
			n += len(l.Rows)
			per = append(per, l.Label+" "+strconv.Itoa(len(l.Rows)))
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("**%s** %s (%s)", card.Name, plural(n, "row", "rows"), strings.Join(per, ", ")))
		}
	}
	return strings.Join(parts, "; ")
}
