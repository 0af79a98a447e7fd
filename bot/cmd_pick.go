package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sheetkeeper/catalog"
	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
	"sheetkeeper/suggest"
)

// The picker (SPEC 5.1): /pick copies a catalog entry's rows onto a card, /catalog search
// browses a catalog, and the entry autocomplete (autocomplete.go) searches the same index.
// Package catalog does the finding — search and ranking, the filter language, startFrom,
// the layers' hides, the "on your sheet" marks; this file holds the commands and renders
// what catalog found.
//
// Entries are listed by label and summary with their mechanics as one line. A standalone
// catalog file with mistakes shows its reasons instead of entries.

// catalogs returns the catalog index of l, built once per loaded ruleset and kept beside
// the Core's cache of loaded rulesets.
func (c *Core) catalogs(l *ruleset.Loaded) *catalog.Index {
	if ix, ok := c.pickers.Load(l); ok {
		return ix.(*catalog.Index)
	}
	got, _ := c.pickers.LoadOrStore(l, catalog.New(l))
	return got.(*catalog.Index)
}

func numText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// entryChoice is an entry as an autocomplete offers it: its label, "✓ … (on the sheet)"
// when the card has it, and as much of its summary as fits in 100 characters.
func entryChoice(e *ruleset.Entry, has bool) string {
	name := e.Label
	if has {
		name = "✓ " + name + " (on the sheet)"
	}
	if e.Summary != nil && *e.Summary != "" {
		name += " — " + *e.Summary
	}
	return clipRunes(name, 100)
}

// mechanicsLine is an entry's mechanics as one line: what it does, how far, to whom, how
// much, and what it costs ("attack · 12 paces · enemy · 1d8 flame · attack roll · costs 1
// from charges (Spark, Flare, Blaze) · +1d8 per step up").
func mechanicsLine(rs *ruleset.Ruleset, cat *ruleset.Catalog, m *ruleset.Mechanics) string {
	if m == nil {
		return ""
	}
	unit := ""
	if cat.Units != nil && cat.Units.Distance != nil {
		unit = " " + cat.Units.Distance.Label
	}
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(m.Kind)
	if m.Reacts {
		add("reaction")
	}
	if m.Range != nil {
		if *m.Range == 0 {
			add("self or touch")
		} else {
			add("range " + numText(*m.Range) + unit)
		}
	}
	if m.Area != nil {
		add(m.Area.Shape + " " + numText(m.Area.Size) + unit)
	}
	if m.Targets != nil {
		add(*m.Targets)
	}
	if m.TargetCount != nil {
		add(plural(*m.TargetCount, "target", "targets"))
	}
	if a := amountText(m.Amount); a != "" {
		if m.DamageType != nil {
			a += " " + *m.DamageType
		}
		add(a)
	}
	for _, p := range m.Plus {
		a := amountText(&ruleset.Amount{Dice: p.Dice, Flat: p.Flat})
		if p.Type != nil {
			a += " " + *p.Type
		}
		add("+ " + a)
	}
	if m.Temporary != nil {
		add(amountText(m.Temporary) + " temporary")
	}
	if m.AttackRoll != nil && *m.AttackRoll {
		add("attack roll")
	}
	if m.AutoHit != nil && *m.AutoHit {
		add("always hits")
	}
	if m.Save != nil {
		save := labelOf(rs, sheet.PathSaves, m.Save.Save)
		if !strings.HasSuffix(strings.ToLower(save), "save") {
			save += " save"
		}
		add(save + " " + m.Save.OnSuccess)
	}
	for _, a := range m.Applies {
		add("applies " + labelOf(rs, sheet.PathConditions, a.Condition))
	}
	if m.Concentration != nil && *m.Concentration {
		add("concentration")
	}
	add(costWords(rs, m))
	if s := amountText(m.PerCostStep); s != "" {
		add("+" + s + " per step up")
	}
	if m.TargetsPerCostStep != nil {
		add("+" + plural(*m.TargetsPerCostStep, "target", "targets") + " per step up")
	}
	return strings.Join(parts, " · ")
}

func amountText(a *ruleset.Amount) string {
	if a == nil {
		return ""
	}
	switch {
	case a.Dice != nil && a.Flat != nil && *a.Flat >= 0:
		return *a.Dice + "+" + strconv.Itoa(*a.Flat)
	case a.Dice != nil && a.Flat != nil:
		return *a.Dice + strconv.Itoa(*a.Flat)
	case a.Dice != nil:
		return *a.Dice
	case a.Flat != nil:
		return strconv.Itoa(*a.Flat)
	}
	return ""
}

// costTarget names what a cost term pays from: a pool by its label, a group by its id
// and the pools in it.
func costTarget(rs *ruleset.Ruleset, id string) string {
	if p := rs.Sheet.Live.Pool(id); p != nil {
		return p.Label
	}
	var group []string
	for _, p := range rs.Sheet.Live.Pools {
		if p.Group == id {
			group = append(group, p.Label)
		}
	}
	if len(group) > 0 {
		return id + " (" + strings.Join(group, ", ") + ")"
	}
	return id
}

// costWords is the cost of an entry's mechanics in words: "costs 1 from 3rd-level
// slots", "costs 1 from charges (Spark, Flare, Blaze) + 2 from Ki", or "no cost".
func costWords(rs *ruleset.Ruleset, m *ruleset.Mechanics) string {
	if m == nil || len(m.Cost) == 0 {
		return "no cost"
	}
	terms := make([]string, len(m.Cost))
	for i, t := range m.Cost {
		terms[i] = strconv.Itoa(t.Amount) + " from " + costTarget(rs, t.Pool)
	}
	return "costs " + strings.Join(terms, " + ")
}

// problemsText is a standalone catalog file's mistakes, one a line, at most limit of them.
func problemsText(err error, limit int) string {
	var ps strictjson.Problems
	if !errors.As(err, &ps) {
		return err.Error()
	}
	lines := make([]string, 0, min(len(ps), limit)+1)
	for i, p := range ps {
		if i == limit {
			lines = append(lines, fmt.Sprintf("… and %d more", len(ps)-limit))
			break
		}
		if p.Path != "" {
			lines = append(lines, "• "+p.Path+": "+p.Msg)
		} else {
			lines = append(lines, "• "+p.Msg)
		}
	}
	return strings.Join(lines, "\n")
}

// ---- the cards the picker and the play commands act on ----

// cardTarget is a card a command acts on: its record, where it lives, the campaign (nil for
// a library card outside one) and the rules it is read by.
type cardTarget struct {
	camp    *storage.Campaign
	rec     *storage.CardRecord
	library bool
	rules   *ruleset.Loaded
	// catalogs is rules' catalog index.
	catalogs *catalog.Index
	// held is a game card's holdings as its sheet reads them (inventory_sheet.go); nil
	// for a library card, which holds nothing.
	held *inventory.Holdings
}

// card returns the card.
func (t *cardTarget) card() *sheet.Card { return t.rec.Card }

// save writes the card back in tx.
func (t *cardTarget) save(tx storage.Tx, channelID string) error {
	if t.library {
		return tx.PutLibraryCard(t.rec)
	}
	return tx.PutGameCard(channelID, t.rec)
}

// findTarget finds the card a command names: a game card of the channel's campaign, or,
// when library is true and none is called that, the invoker's own library card (a build
// the player is still making before joining). edit refuses a card that is neither the
// invoker's nor in a campaign the invoker is GM of. guild is the command's: a library
// card's ruleset resolves in it (a game card's in its campaign's).
func (c *Core) findTarget(tx storage.Tx, channelID, guild string, u User, name string, library, edit bool) (*cardTarget, error) {
	camp, err := tx.Campaign(channelID)
	switch {
	case storage.KindOf(err) == storage.NotFound:
		camp = nil
	case err != nil:
		return nil, fmt.Errorf("loading the campaign of %s: %w", channelID, err)
	}
	var gameErr error
	if camp != nil {
		rec, err := gameCard(tx, channelID, name)
		if err == nil {
			if edit && rec.OwnerID != u.ID && !isGM(camp, u) {
				return nil, refusal.New(refusal.NotAllowed, "%s is not your character: only its player or a GM may change it", rec.Card.Name)
			}
			rules, err := c.rules(tx, camp.GuildID, camp.Ruleset)
			if err != nil {
				return nil, err
			}
			return &cardTarget{camp: camp, rec: rec, rules: rules, catalogs: c.catalogs(rules), held: c.cardHoldings(tx, camp, rules, rec)}, nil
		}
		if refusal.Of(err) != refusal.UnknownCharacter || !library {
			return nil, err
		}
		gameErr = err
	}
	if library && ruleset.FoldName(name) != "" { // a blank name keys no card: the store refuses to look
		rec, err := tx.LibraryCard(u.ID, name)
		if err == nil && rec.Card != nil {
			rules, err := c.rules(tx, guild, rec.Card.Ruleset)
			if err != nil {
				return nil, err
			}
			return &cardTarget{camp: camp, rec: rec, library: true, rules: rules, catalogs: c.catalogs(rules)}, nil
		}
		if err != nil && storage.KindOf(err) != storage.NotFound {
			return nil, fmt.Errorf("loading library card %q: %w", name, err)
		}
	}
	if gameErr != nil {
		return nil, unknownCard(tx, channelID, u, name, "no character is called %q%s")
	}
	if camp == nil {
		return nil, refusal.New(refusal.NoCampaign, "this channel has no campaign, and you have no character called %q", name)
	}
	return nil, unknownCard(tx, channelID, u, name, "no character is called %q%s")
}

// unknownCard is the unknown-character refusal of name, in words format builds from
// name and the "did you mean" words: the closest names among the game cards of
// channelID's campaign (none for "") and u's library cards, the cards u could have meant.
func unknownCard(tx storage.Tx, channelID string, u User, name, format string) error {
	var names []string
	add := func(recs []*storage.CardRecord, err error) error {
		if err != nil && storage.KindOf(err) != storage.NotFound {
			return err
		}
		for _, r := range recs {
			if r.Card != nil {
				names = append(names, r.Card.Name)
			}
		}
		return nil
	}
	if channelID != "" {
		if err := add(tx.GameCards(channelID)); err != nil {
			return fmt.Errorf("loading the cards of %s: %w", channelID, err)
		}
	}
	if err := add(tx.LibraryCards(u.ID)); err != nil {
		return fmt.Errorf("loading the library of %s: %w", u.ID, err)
	}
	return refusal.New(refusal.UnknownCharacter, format, name, suggest.DidYouMean(name, names))
}

// ---- /pick ----

// pickCommands adds /pick and /catalog search.
func pickCommands(r *router) {
	r.command(CommandSpec{
		Name:        "pick",
		Description: "Copy a ready-made entry from one of the ruleset's catalogs onto a character",
		Options: []OptionSpec{
			{Name: "name", Description: "The character", Type: "string", Required: true},
			{Name: "catalog", Description: "The catalog (id or label)", Type: "string", Required: true},
			{Name: "entry", Description: "The entry (id or label)", Type: "string", Required: true},
			{Name: "filter", Description: `Narrow the entries: "tier=2; guild=Wickwright"`, Type: "string"},
		},
	}, (*Core).cmdPick).
		complete("name", (*Core).anyCardChoices).
		complete("catalog", (*Core).rowCatalogChoices).
		complete("entry", (*Core).pickEntryChoices)
	r.command(CommandSpec{
		Name:        "catalog search",
		Description: "Browse a catalog of the campaign's ruleset",
		Options: []OptionSpec{
			{Name: "catalog", Description: "The catalog (id or label)", Type: "string", Required: true},
			{Name: "query", Description: "Words in the label or summary", Type: "string"},
			{Name: "filter", Description: `Narrow the entries: "tier=2; guild=Wickwright" (guild=* shows all)`, Type: "string"},
			{Name: "name", Description: "A character: opens on its entries (startFrom) and marks what it has", Type: "string"},
		},
	}, (*Core).cmdCatalogSearch).
		complete("catalog", (*Core).anyCatalogChoices).
		complete("name", (*Core).anyCardChoices)
	r.component(catalogPageID, (*Core).catalogPageClick)
	r.component(catalogPickID, (*Core).catalogPickClick)
}

// cmdPick answers /pick: the entry's rows are written onto the card (sheet.Pick, which
// recomputes scaled values), all in one transaction. An entry the card already has, an
// entry a layer hides and an entry that writes no rows are refused in plain words.
func (c *Core) cmdPick(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.findTarget(tx, cmd.ChannelID, cmd.GuildID, cmd.User, cmd.Get("name"), true, true)
		if err != nil {
			return err
		}
		rs := t.rules.Ruleset
		ix := t.catalogs
		found, err := ix.Find(cmd.Get("catalog"))
		if err != nil {
			return err
		}
		cat := found.Def
		if cat.Kind() != "rows" {
			return refusal.New(refusal.NotAllowed, "%s holds %s, which are not written onto a sheet; browse it with /catalog search", cat.Label, cat.Kind())
		}
		if found.Problems != nil {
			return refusal.New(refusal.UnknownEntry, "the %s catalog file has mistakes, so nothing can be picked from it:\n%s", cat.Label, problemsText(found.Problems, 10))
		}
		clauses, err := found.Filter(cmd.Get("filter"))
		if err != nil {
			return err
		}
		var hides catalog.Hides
		if t.camp != nil {
			hides = found.Hides(catalog.Layers(rs, t.camp.Layers))
		}
		e, err := found.Named(cmd.Get("entry"), clauses, hides)
		if err != nil {
			return err
		}
		card := t.card()
		if catalog.Has(card, cat.ID, e.ID) {
			return refusal.New(refusal.NotAllowed, "%s already has %s from %s", card.Name, e.Label, cat.Label)
		}
		out, _ := sheet.Pick(rs, card, cat.ID, e, ix)
		if !out.OK() {
			return out.Err()
		}
		t.rec.UpdatedAt = c.Now()
		if err := t.save(tx, cmd.ChannelID); err != nil {
			return err
		}
		resp = Response{Content: pickedText(rs, card, t.held, cat, e, t.library)}
		return nil
	})
	return resp, err
}

// pickedText says what a pick wrote: the rows by list, and each new counter full.
func pickedText(rs *ruleset.Ruleset, card *sheet.Card, held *inventory.Holdings, cat *ruleset.Catalog, e *ruleset.Entry, library bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** picked **%s** from %s", card.Name, e.Label, cat.Label)
	if library {
		b.WriteString(" (library card)")
	}
	b.WriteString(".")
	perList := map[string]int{}
	var order []string
	for _, r := range e.Rows {
		if perList[r.List] == 0 {
			order = append(order, r.List)
		}
		perList[r.List]++
	}
	var lists []string
	for _, id := range order {
		label := id
		if l := rs.Sheet.List(id); l != nil {
			label = l.Label
		}
		lists = append(lists, label+" +"+strconv.Itoa(perList[id]))
	}
	b.WriteString(" Rows added: " + strings.Join(lists, ", ") + ".")
	vals := evaluate(rs, card, held)
	var counters []string
	marker := sheet.Marker(cat.ID, e.ID)
	for _, p := range vals.Live.Pools {
		if p.List == "" {
			continue
		}
		if rows := card.Build.Lists[p.List]; p.Row < len(rows) && rows[p.Row].Marker() == marker {
			counters = append(counters, p.Label+" "+sheet.PoolNow(&p, p.Value, p.Temp))
		}
	}
	if len(counters) > 0 {
		b.WriteString(" Uses: " + strings.Join(counters, ", ") + ".")
	}
	return b.String()
}

// ---- /catalog search ----

// catalogPage is the most entries one page of /catalog search shows, listingBudget the
// most characters they take (an embed's description holds 4,096): a page of long entries
// ends before ten.
const (
	catalogPage   = 10
	listingBudget = 3900
)

// cmdCatalogSearch answers /catalog search: the first page of the entries matching the
// query and filters, ranked, each with its summary and mechanics line and whether the
// named card has it, with Previous / Next and a menu to pick from (browse.go). Seen only
// by the one who asked; it reads and writes nothing else.
func (c *Core) cmdCatalogSearch(ctx context.Context, cmd Command) (Response, error) {
	st := catalogBrowse{
		page:    1,
		catalog: cmd.Get("catalog"),
		card:    strings.TrimSpace(cmd.Get("name")),
		filter:  strings.TrimSpace(cmd.Get("filter")),
		query:   strings.TrimSpace(cmd.Get("query")),
	}
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		var err error
		resp, err = c.browseCatalog(tx, cmd.ChannelID, cmd.GuildID, cmd.User, st)
		return err
	})
	return resp, err
}

// browseCatalog renders one page of a search, for the command and for its buttons: the
// card st names (a game card here, else u's library card) or, without one, the channel's
// campaign gives the rules.
func (c *Core) browseCatalog(tx storage.Tx, channelID, guildID string, u User, st catalogBrowse) (Response, error) {
	var (
		rules *ruleset.Loaded
		camp  *storage.Campaign
		card  *sheet.Card
	)
	if st.card != "" {
		t, err := c.targetByRef(tx, channelID, guildID, u, st.card, false)
		if err != nil {
			return Response{}, err
		}
		rules, camp, card = t.rules, t.camp, t.card()
		st.card = card.Name
	} else {
		cp, err := c.campaign(tx, channelID)
		if err != nil {
			return Response{}, err
		}
		if rules, err = c.rules(tx, cp.GuildID, cp.Ruleset); err != nil {
			return Response{}, err
		}
		camp = cp
	}
	return c.catalogListing(rules, camp, card, st)
}

// catalogListing renders page st.page of one search of a catalog (the last page when the
// search has fewer now).
func (c *Core) catalogListing(rules *ruleset.Loaded, camp *storage.Campaign, card *sheet.Card, st catalogBrowse) (Response, error) {
	rs := rules.Ruleset
	found, err := c.catalogs(rules).Find(st.catalog)
	if err != nil {
		return Response{}, err
	}
	cat := found.Def
	st.catalog = cat.ID
	if found.Problems != nil {
		return Response{Ephemeral: true, Embeds: []Embed{{
			Title:       cat.Label + ": the catalog file has mistakes",
			Description: clipText(problemsText(found.Problems, 20), 4000),
			Footer:      "Nothing can be picked from it until the ruleset's author fixes catalogs/" + cat.ID + ".json.",
		}}}, nil
	}
	clauses, err := found.Filter(st.filter)
	if err != nil {
		return Response{}, err
	}
	clauses = append(clauses, found.StartFrom(rs, card, clauses)...)
	q := &catalog.Query{Text: st.query, Filter: clauses}
	if camp != nil {
		q.Hides = found.Hides(catalog.Layers(rs, camp.Layers))
	}
	hits := found.Search(q, 0)
	var picked map[string]int
	if card != nil {
		picked = catalog.Picked(card)
	}
	has := func(e *catalog.Entry) bool { return picked[sheet.Marker(cat.ID, e.ID)] > 0 }
	blocks := make([]string, len(hits))
	for i, e := range hits {
		blocks[i] = entryBlock(rs, found, e, card, has(e))
	}
	pages := listingPages(blocks)
	st.page = min(max(st.page, 1), max(len(pages), 1))
	var shown []*catalog.Entry
	var b strings.Builder
	if len(pages) > 0 {
		p := pages[st.page-1]
		shown = hits[p.from:p.to]
		b.WriteString(strings.Join(blocks[p.from:p.to], ""))
	}
	title := cat.Label + ": " + plural(len(hits), "entry", "entries")
	var notes []string
	if s := found.Describe(clauses); s != "" {
		notes = append(notes, "Narrowed to "+s+".")
	}
	if st.query != "" {
		notes = append(notes, "Matching "+quoted(st.query)+".")
	}
	rows, fits := st.components(cat, len(pages), shown, has)
	notes = append(notes, pagingNotes(pages, st.page, fits)...)
	if len(hits) == 0 {
		b.WriteString("Nothing matches.")
		for _, w := range found.Widens(clauses) {
			b.WriteString(fmt.Sprintf(" Add filter:\"%s=*\" to look beyond %s's %s.", w.Filter, w.Card, w.Label))
		}
	}
	if len(cat.Filters) > 0 {
		notes = append(notes, "Filters: "+found.FilterNames()+".")
	}
	footer := strings.Join(notes, " ")
	if cat.Kind() == "rows" {
		footer = strings.TrimSpace(footer + " Pick with /pick catalog:" + cat.ID + " entry:<id>.")
	}
	return Response{Ephemeral: true, Embeds: []Embed{{
		Title:       title,
		Description: clipText(strings.TrimSpace(b.String()), 4000),
		Footer:      footer, // the Discord adapter cuts it to its limit
	}}, Components: rows}, nil
}

// entryBlock is one entry of a listing: its label, "✓ on …'s sheet" when the card has it,
// its id and filter values, its summary and its mechanics line, and a blank line.
func entryBlock(rs *ruleset.Ruleset, found *catalog.Catalog, e *catalog.Entry, card *sheet.Card, has bool) string {
	var one strings.Builder
	one.WriteString("**" + e.Label + "**")
	if has {
		one.WriteString(" ✓ on " + card.Name + "'s sheet")
	}
	one.WriteString(" `" + e.ID + "`")
	if vals := found.Values(e); vals != "" {
		one.WriteString(" — " + vals)
	}
	one.WriteString("\n")
	if e.Summary != nil && *e.Summary != "" {
		one.WriteString(*e.Summary + "\n")
	}
	if m := mechanicsLine(rs, found.Def, e.Mechanics); m != "" {
		one.WriteString("*" + m + "*\n")
	}
	one.WriteString("\n")
	return one.String()
}

// pagingNotes say which page a listing shows, or that the search has pages but no
// buttons to reach them (fits false: the search is too long for their ids).
func pagingNotes(pages []listingPage, page int, fits bool) []string {
	switch {
	case len(pages) > 1 && fits:
		p := pages[page-1]
		return []string{fmt.Sprintf("Showing %d–%d, page %d of %d.", p.from+1, p.to, page, len(pages))}
	case len(pages) > 1:
		return []string{fmt.Sprintf("Showing the first %d; narrow with query: or filter:.", pages[0].to),
			"The query and filter are too long to carry in buttons, so this search has no pages or menu."}
	case !fits:
		return []string{"The query and filter are too long to carry in buttons, so this search has no menu."}
	}
	return nil
}

// listingPage is one page of a listing: the entries from..to-1 of the search.
type listingPage struct{ from, to int }

// listingPages lays a listing's entry blocks out in pages, from the first: each page
// takes up to catalogPage entries while they fit listingBudget, and at least one. The
// layout depends only on the search, so page N is the same page on every click.
func listingPages(blocks []string) []listingPage {
	var pages []listingPage
	from, size := 0, 0
	for i, b := range blocks {
		if i > from && (i-from == catalogPage || size+len(b) > listingBudget) {
			pages = append(pages, listingPage{from, i})
			from, size = i, 0
		}
		size += len(b)
	}
	if from < len(blocks) {
		pages = append(pages, listingPage{from, len(blocks)})
	}
	return pages
}

func quoted(s string) string { return "“" + strings.TrimSpace(s) + "”" }

// clip cuts s to at most n bytes at a rune boundary, marking the cut with "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
