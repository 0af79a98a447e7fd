package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
)

// The picker (SPEC 5.1): /pick copies a catalog entry's rows onto a card, /catalog search
// browses a catalog, and the entry autocomplete (autocomplete.go) searches the same index.
//
// Entries are listed by label and summary with their mechanics as one line, narrowed by
// the catalog's own filters, marked when the card already has them, and hidden when one
// of the campaign's layers hides them. A filter with startFrom opens on the card's own
// value (a Wizard sees Wizard spells first): /catalog search name:<card> is narrowed to
// it until the filter option says otherwise, and the entry autocomplete puts those
// entries first without hiding the others. A standalone catalog file with mistakes shows
// its reasons instead of entries.
//
// The filter option is a list of clauses separated by ";":
//
//	tier=2                  a number filter equal to 2        (also !=, <, <=, >, >=)
//	tier=1..2               a number filter from 1 to 2
//	guild=Wickwright        a text or tags filter holding the word (case ignored)
//	guild=Wickwright|Ferrylight   holding either word
//	guild!=Smokejack        not holding the word
//	guild=*                 no narrowing on guild, not even the card's startFrom
//
// A filter is named by its id or its label. Clauses all have to hold. An entry that
// does not set a filter never passes an "=" clause on it and always passes a "!=" one.

// pickerKey names one catalog of one loaded ruleset.
type pickerKey struct {
	rules   *ruleset.Loaded
	catalog string
}

// catalogIndex is a catalog made ready for searching, built once per loaded ruleset:
// every entry's label, summary and filter values folded for matching, so a search (an
// autocomplete on every keystroke) only compares strings.
type catalogIndex struct {
	cat     *ruleset.Catalog
	entries []indexedEntry
	byID    map[string]*indexedEntry
	// problems are a standalone catalog file's mistakes: shown instead of entries.
	problems error
}

// indexedEntry is one entry with what a search compares already worked out.
type indexedEntry struct {
	e       *ruleset.Entry
	id      string // folded
	label   string // folded
	summary string // folded
	// values holds the entry's value for each of the catalog's filters, in the header's
	// order.
	values []filterValue
	// mechanics is the one line the picker shows (worked out once).
	mechanics string
	// choice is the entry as an autocomplete offers it: "Label — summary", at most 100
	// characters (worked out once).
	choice string
}

// filterValue is an entry's value for one filter: a number, or words (one for a text
// filter, several for tags), kept as written and folded.
type filterValue struct {
	set    bool
	num    float64
	isNum  bool
	words  []string
	folded []string
}

// pickerIndex returns the search index of a catalog of l, building it on first use. A
// standalone catalog file is read and checked then; a file with mistakes gives an index
// with no entries and the problems.
func (c *Core) pickerIndex(l *ruleset.Loaded, cat *ruleset.Catalog) *catalogIndex {
	key := pickerKey{rules: l, catalog: cat.ID}
	if ix, ok := c.pickers.Load(key); ok {
		return ix.(*catalogIndex)
	}
	ix := buildIndex(l, cat)
	got, _ := c.pickers.LoadOrStore(key, ix)
	return got.(*catalogIndex)
}

func buildIndex(l *ruleset.Loaded, cat *ruleset.Catalog) *catalogIndex {
	ix := &catalogIndex{cat: cat}
	entries, err := l.Entries(cat.ID)
	if err != nil {
		ix.problems = err
		return ix
	}
	ix.entries = make([]indexedEntry, len(entries))
	for i := range entries {
		e := &entries[i]
		ie := indexedEntry{e: e, id: e.ID, label: foldText(e.Label), values: make([]filterValue, len(cat.Filters))}
		if e.Summary != nil {
			ie.summary = foldText(*e.Summary)
		}
		for j := range cat.Filters {
			ie.values[j] = readFilterValue(e.Filters[cat.Filters[j].ID])
		}
		ie.mechanics = mechanicsLine(l.Ruleset, cat, e.Mechanics)
		ie.choice = entryChoice(e, false)
		ix.entries[i] = ie
	}
	ix.byID = make(map[string]*indexedEntry, len(ix.entries))
	for i := range ix.entries {
		if _, dup := ix.byID[ix.entries[i].id]; !dup {
			ix.byID[ix.entries[i].id] = &ix.entries[i]
		}
	}
	return ix
}

func readFilterValue(v any) filterValue {
	switch x := v.(type) {
	case float64:
		return filterValue{set: true, isNum: true, num: x}
	case string:
		return filterValue{set: true, words: []string{x}, folded: []string{foldText(x)}}
	case []any:
		fv := filterValue{set: true}
		for _, w := range x {
			if s, ok := w.(string); ok {
				fv.words = append(fv.words, s)
				fv.folded = append(fv.folded, foldText(s))
			}
		}
		return fv
	}
	return filterValue{}
}

// fold is text as the picker compares it: lowercased, runs of white space one space.
func foldText(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// findCatalog finds a catalog of rs by id or label, case ignored.
func findCatalog(rs *ruleset.Ruleset, name string) (*ruleset.Catalog, error) {
	want := foldText(name)
	for i := range rs.Catalogs {
		if rs.Catalogs[i].ID == strings.TrimSpace(name) {
			return &rs.Catalogs[i], nil
		}
	}
	for i := range rs.Catalogs {
		if foldText(rs.Catalogs[i].ID) == want || foldText(rs.Catalogs[i].Label) == want {
			return &rs.Catalogs[i], nil
		}
	}
	ids := make([]string, 0, len(rs.Catalogs))
	for _, cat := range rs.Catalogs {
		ids = append(ids, cat.ID)
	}
	if len(ids) == 0 {
		return nil, refusal.New(refusal.UnknownEntry, "%s has no catalogs", rs.Name)
	}
	return nil, refusal.New(refusal.UnknownEntry, "%s has no catalog %q; its catalogs are %s", rs.Name, name, strings.Join(ids, ", "))
}

// activeLayers returns the campaign's layers the ruleset declares, in the ruleset's
// order. Of two layers that conflict, the one declared later is dropped, so the same
// choice always gives the same rules.
func activeLayers(rs *ruleset.Ruleset, ids []string) []*ruleset.Layer {
	var out []*ruleset.Layer
	for i := range rs.Layers {
		l := &rs.Layers[i]
		if !slices.Contains(ids, l.ID) {
			continue
		}
		clash := slices.ContainsFunc(out, func(o *ruleset.Layer) bool {
			return slices.Contains(o.Conflicts, l.ID) || slices.Contains(l.Conflicts, o.ID)
		})
		if !clash {
			out = append(out, l)
		}
	}
	return out
}

// layerHide is one active layer's rule hiding entries of a catalog, resolved to the
// filter's position in the header.
type layerHide struct {
	layer  string
	filter int
	rule   *ruleset.LayerHide
}

// catalogHides lists the hide rules the active layers set on cat.
func catalogHides(layers []*ruleset.Layer, cat *ruleset.Catalog) []layerHide {
	var out []layerHide
	for _, l := range layers {
		for i := range l.Catalogs {
			lc := &l.Catalogs[i]
			if lc.ID != cat.ID {
				continue
			}
			for j := range cat.Filters {
				if cat.Filters[j].ID == lc.Hide.Filter {
					out = append(out, layerHide{layer: l.Label, filter: j, rule: &lc.Hide})
				}
			}
		}
	}
	return out
}

// hiddenBy names the layer that hides e, or "". An entry that does not set the filter a
// rule reads is never hidden by it.
func (e *indexedEntry) hiddenBy(hides []layerHide) string {
	for _, h := range hides {
		v := e.values[h.filter]
		switch {
		case !v.set:
		case v.isNum && h.rule.HidesNumber(v.num):
			return h.layer
		case !v.isNum && h.rule.HidesWords(v.words):
			return h.layer
		}
	}
	return ""
}

// filterClause is one clause of a filter option: the filter (its position in the
// header), the comparison and the values it compares with.
type filterClause struct {
	filter int
	op     string // = != < <= > >=
	nums   []float64
	lo, hi float64  // a range (op "..")
	words  []string // folded
	show   []string // the words as written, for people
	// any clears the filter: no narrowing on it, not even startFrom.
	any bool
	// from says the clause came from the card (startFrom), for the listing's header.
	from string
}

// parseFilter reads a filter option against cat's filters.
func parseFilter(cat *ruleset.Catalog, text string) ([]filterClause, error) {
	var out []filterClause
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		at := strings.IndexAny(part, "=<>!")
		if at <= 0 {
			return nil, refusal.New(refusal.Malformed, "I could not read %q as a filter: write it as name=value, e.g. %s", part, filterExample(cat))
		}
		name := strings.TrimSpace(part[:at])
		rest := part[at:]
		op := ""
		for _, o := range []string{"!=", "<=", ">=", "=", "<", ">"} {
			if strings.HasPrefix(rest, o) {
				op = o
				break
			}
		}
		if op == "" {
			return nil, refusal.New(refusal.Malformed, "I could not read %q as a filter: write it as name=value, e.g. %s", part, filterExample(cat))
		}
		value := strings.TrimSpace(strings.TrimPrefix(rest[len(op):], "="))
		fi := filterNamed(cat, name)
		if fi < 0 {
			return nil, refusal.New(refusal.Malformed, "%s has no filter %q; its filters are %s", cat.Label, name, filterNames(cat))
		}
		f := &cat.Filters[fi]
		cl := filterClause{filter: fi, op: op}
		if value == "*" || strings.EqualFold(value, "any") {
			if op != "=" {
				return nil, refusal.New(refusal.Malformed, "%q: use %s=* to see every %s", part, f.ID, f.Label)
			}
			cl.any = true
			out = append(out, cl)
			continue
		}
		if value == "" {
			return nil, refusal.New(refusal.Malformed, "%q says no value", part)
		}
		if f.Type == "number" {
			if lo, hi, ok := strings.Cut(value, ".."); ok && op == "=" {
				a, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
				b, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
				if err1 != nil || err2 != nil {
					return nil, refusal.New(refusal.Malformed, "%q: %s takes numbers (%s=1..3)", part, f.Label, f.ID)
				}
				cl.op, cl.lo, cl.hi = "..", a, b
				out = append(out, cl)
				continue
			}
			for _, alt := range strings.Split(value, "|") {
				n, err := strconv.ParseFloat(strings.TrimSpace(alt), 64)
				if err != nil {
					return nil, refusal.New(refusal.Malformed, "%q: %s takes a number", part, f.Label)
				}
				cl.nums = append(cl.nums, n)
			}
			if len(cl.nums) > 1 && op != "=" && op != "!=" {
				return nil, refusal.New(refusal.Malformed, "%q: only = and != take several numbers", part)
			}
		} else {
			if op != "=" && op != "!=" {
				return nil, refusal.New(refusal.Malformed, "%q: %s holds words, so it takes = or !=", part, f.Label)
			}
			for _, alt := range strings.Split(value, "|") {
				if w := foldText(alt); w != "" {
					cl.words = append(cl.words, w)
					cl.show = append(cl.show, strings.TrimSpace(alt))
				}
			}
		}
		out = append(out, cl)
	}
	return out, nil
}

// filterNamed finds a filter of cat by id or label, case ignored; -1 when none.
func filterNamed(cat *ruleset.Catalog, name string) int {
	want := foldText(name)
	for i := range cat.Filters {
		if foldText(cat.Filters[i].ID) == want || foldText(cat.Filters[i].Label) == want {
			return i
		}
	}
	return -1
}

func filterNames(cat *ruleset.Catalog) string {
	if len(cat.Filters) == 0 {
		return "none"
	}
	names := make([]string, 0, len(cat.Filters))
	for _, f := range cat.Filters {
		names = append(names, f.ID+" ("+f.Label+", "+f.Type+")")
	}
	return strings.Join(names, ", ")
}

func filterExample(cat *ruleset.Catalog) string {
	if len(cat.Filters) == 0 {
		return "(this catalog has no filters)"
	}
	f := cat.Filters[0]
	if f.Type == "number" {
		return f.ID + "=1"
	}
	return f.ID + "=word"
}

// matches reports whether the entry passes the clause.
func (cl *filterClause) matches(e *indexedEntry) bool {
	if cl.any {
		return true
	}
	v := e.values[cl.filter]
	if cl.op == "!=" {
		if !v.set {
			return true
		}
		return !cl.hits(v)
	}
	if !v.set {
		return false
	}
	if v.isNum {
		x := v.num
		switch cl.op {
		case "..":
			return x >= cl.lo && x <= cl.hi
		case "<":
			return x < cl.nums[0]
		case "<=":
			return x <= cl.nums[0]
		case ">":
			return x > cl.nums[0]
		case ">=":
			return x >= cl.nums[0]
		}
	}
	return cl.hits(v)
}

// hits reports whether the value equals one of the clause's values.
func (cl *filterClause) hits(v filterValue) bool {
	if v.isNum {
		return slices.Contains(cl.nums, v.num)
	}
	for _, w := range v.folded {
		if slices.Contains(cl.words, w) {
			return true
		}
	}
	return false
}

// startClauses are the clauses a card opens the picker with: for each filter with a
// startFrom that no clause of the user's names, the card's value of that field. A text
// field holding several words ("Fighter/Wizard", "Fighter, Wizard") matches any of them;
// an empty field narrows nothing.
func startClauses(rs *ruleset.Ruleset, cat *ruleset.Catalog, card *sheet.Card, given []filterClause) []filterClause {
	if card == nil {
		return nil
	}
	var out []filterClause
	for i := range cat.Filters {
		f := &cat.Filters[i]
		if f.StartFrom == nil || slices.ContainsFunc(given, func(cl filterClause) bool { return cl.filter == i }) {
			continue
		}
		v, ok := card.Build.Fields[f.StartFrom.Field]
		if !ok {
			if fd := sheetField(rs, f.StartFrom.Field); fd != nil {
				v = sheet.FieldDefault(fd)
			}
		}
		cl := filterClause{filter: i, op: "=", from: card.Name}
		switch x := v.(type) {
		case float64:
			if f.Type != "number" {
				continue
			}
			cl.nums = []float64{x}
		case string:
			if f.Type == "number" {
				continue
			}
			for _, w := range strings.FieldsFunc(x, func(r rune) bool { return r == '/' || r == ',' || r == ';' }) {
				if f := foldText(w); f != "" {
					cl.words = append(cl.words, f)
					cl.show = append(cl.show, strings.TrimSpace(w))
				}
			}
			if len(cl.words) == 0 {
				continue
			}
		default:
			continue
		}
		out = append(out, cl)
	}
	return out
}

func sheetField(rs *ruleset.Ruleset, id string) *ruleset.Field {
	for i := range rs.Sheet.Fields {
		if rs.Sheet.Fields[i].ID == id {
			return &rs.Sheet.Fields[i]
		}
	}
	return nil
}

// describeClauses says in words what the clauses narrow to ("Guild Wickwright (from
// Mira's sheet), Charge tier 1").
func describeClauses(cat *ruleset.Catalog, cls []filterClause) string {
	var parts []string
	for _, cl := range cls {
		if cl.any {
			continue
		}
		f := cat.Filters[cl.filter]
		var v string
		switch {
		case cl.op == "..":
			v = numText(cl.lo) + " to " + numText(cl.hi)
		case cl.nums != nil:
			ns := make([]string, len(cl.nums))
			for i, n := range cl.nums {
				ns[i] = numText(n)
			}
			v = strings.Join(ns, " or ")
			if cl.op != "=" {
				v = cl.op + " " + v
			}
		default:
			v = strings.Join(cl.show, " or ")
			if cl.op == "!=" {
				v = "not " + v
			}
		}
		p := f.Label + " " + v
		if cl.from != "" {
			p += " (from " + cl.from + "'s sheet)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

func numText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// pickQuery is one search of a catalog: the words typed, the clauses, and the layers'
// hides.
type pickQuery struct {
	text    string
	clauses []filterClause
	hides   []layerHide
	// prefer ranks entries passing these clauses first without dropping the others (the
	// autocomplete's startFrom: a Wizard sees Wizard spells first, and can still find any).
	prefer []filterClause
}

// search returns the entries passing q, best first: the label equal to the words typed,
// starting with them, a word of it starting with them, holding them, then the words all
// found in the label or summary; within each, the entries q prefers first; ties in
// catalog order (authors order them on purpose). limit > 0 keeps only that many of the
// best (the autocomplete's 25), without gathering and sorting the rest.
func (ix *catalogIndex) search(q *pickQuery, limit int) []*indexedEntry {
	text := foldText(q.text)
	var words []string
	if text != "" {
		words = strings.Fields(text)
	}
	// One bucket of entry positions per rank, filled in catalog order; a bucket stops
	// growing once it and the better ones hold limit entries.
	var buckets [rankBuckets][]int32
	counts := func(upTo int) int {
		n := 0
		for r := 0; r <= upTo; r++ {
			n += len(buckets[r])
		}
		return n
	}
	for i := range ix.entries {
		e := &ix.entries[i]
		rank := textRank(e, text, words)
		if rank < 0 {
			continue
		}
		rank *= 2
		if len(q.prefer) > 0 && !passes(e, q.prefer) {
			rank++
		}
		if limit > 0 && counts(rank) >= limit {
			continue
		}
		if !passes(e, q.clauses) || e.hiddenBy(q.hides) != "" {
			continue
		}
		buckets[rank] = append(buckets[rank], int32(i))
	}
	n := counts(rankBuckets - 1)
	if limit > 0 {
		n = min(n, limit)
	}
	out := make([]*indexedEntry, 0, n)
	for _, b := range buckets {
		for _, i := range b {
			if limit > 0 && len(out) == limit {
				return out
			}
			out = append(out, &ix.entries[i])
		}
	}
	return out
}

// rankBuckets is how many ranks a search tells apart: textRank's five, each split by
// preference.
const rankBuckets = 10

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

func passes(e *indexedEntry, cls []filterClause) bool {
	for i := range cls {
		if !cls[i].matches(e) {
			return false
		}
	}
	return true
}

// textRank ranks an entry against the folded words typed: 0 the label or id is them, 1
// the label starts with them, 2 a word of the label does, 3 the label holds them, 4 every
// word is in the label or the summary (from three letters typed); -1 no match. Nothing
// typed matches everything.
func textRank(e *indexedEntry, text string, words []string) int {
	switch {
	case text == "":
		return 0
	case e.label == text || e.id == text:
		return 0
	case strings.HasPrefix(e.label, text):
		return 1
	}
	if i := strings.Index(e.label, text); i > 0 {
		if e.label[i-1] == ' ' || e.label[i-1] == '-' || e.label[i-1] == '(' {
			return 2
		}
		return 3
	}
	if len(text) < minSummaryQuery {
		return -1
	}
	for _, w := range words {
		if !strings.Contains(e.label, w) && !strings.Contains(e.summary, w) && !strings.Contains(e.id, w) {
			return -1
		}
	}
	return 4
}

// minSummaryQuery is the shortest text searched for in summaries too: two letters are
// found in half of every summary, so until a third is typed only labels answer.
const minSummaryQuery = 3

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
	var group []string
	for _, p := range rs.Sheet.Live.Pools {
		if p.ID == id {
			return p.Label
		}
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
// invoker's nor in a campaign the invoker is GM of.
func (c *Core) findTarget(tx storage.Tx, channelID string, u User, name string, library, edit bool) (*cardTarget, error) {
	camp, err := tx.Campaign(channelID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
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
			rules, err := c.rules(tx, camp.Ruleset)
			if err != nil {
				return nil, err
			}
			return &cardTarget{camp: camp, rec: rec, rules: rules}, nil
		}
		if refusal.Of(err) != refusal.UnknownCharacter || !library {
			return nil, err
		}
		gameErr = err
	}
	if library {
		rec, err := tx.LibraryCard(u.ID, name)
		if err == nil && rec.Card != nil {
			rules, err := c.rules(tx, rec.Card.Ruleset)
			if err != nil {
				return nil, err
			}
			return &cardTarget{camp: camp, rec: rec, library: true, rules: rules}, nil
		}
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, fmt.Errorf("loading library card %q: %w", name, err)
		}
	}
	if gameErr != nil {
		return nil, gameErr
	}
	if camp == nil {
		return nil, refusal.New(refusal.NoCampaign, "this channel has no campaign, and you have no character called %q", name)
	}
	return nil, refusal.New(refusal.UnknownCharacter, "no character is called %q", name)
}

// ---- /pick ----

func init() {
	register(CommandSpec{
		Name:        "pick",
		Description: "Copy a ready-made entry from one of the ruleset's catalogs onto a character",
		Options: []OptionSpec{
			{Name: "name", Description: "The character", Type: "string", Required: true, Autocomplete: true},
			{Name: "catalog", Description: "The catalog (id or label)", Type: "string", Required: true, Autocomplete: true},
			{Name: "entry", Description: "The entry (id or label)", Type: "string", Required: true, Autocomplete: true},
			{Name: "filter", Description: `Narrow the entries: "tier=2; guild=Wickwright"`, Type: "string"},
		},
	}, (*Core).cmdPick)
	register(CommandSpec{
		Name:        "catalog search",
		Description: "Browse a catalog of the campaign's ruleset",
		Options: []OptionSpec{
			{Name: "catalog", Description: "The catalog (id or label)", Type: "string", Required: true, Autocomplete: true},
			{Name: "query", Description: "Words in the label or summary", Type: "string"},
			{Name: "filter", Description: `Narrow the entries: "tier=2; guild=Wickwright" (guild=* shows all)`, Type: "string"},
			{Name: "name", Description: "A character: opens on its entries (startFrom) and marks what it has", Type: "string", Autocomplete: true},
		},
	}, (*Core).cmdCatalogSearch)
}

// cmdPick answers /pick: the entry's rows are written onto the card (sheet.Pick, which
// recomputes scaled values), all in one transaction. An entry the card already has, an
// entry a layer hides and an entry that writes no rows are refused in plain words.
func (c *Core) cmdPick(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.findTarget(tx, cmd.ChannelID, cmd.User, cmd.Get("name"), true, true)
		if err != nil {
			return err
		}
		rs := t.rules.Ruleset
		cat, err := findCatalog(rs, cmd.Get("catalog"))
		if err != nil {
			return err
		}
		if cat.Kind() != "rows" {
			return refusal.New(refusal.NotAllowed, "%s holds %s, which are not written onto a sheet; browse it with /catalog search", cat.Label, cat.Kind())
		}
		ix := c.pickerIndex(t.rules, cat)
		if ix.problems != nil {
			return refusal.New(refusal.UnknownEntry, "the %s catalog file has mistakes, so nothing can be picked from it:\n%s", cat.Label, problemsText(ix.problems, 10))
		}
		clauses, err := parseFilter(cat, cmd.Get("filter"))
		if err != nil {
			return err
		}
		var hides []layerHide
		if t.camp != nil {
			hides = catalogHides(activeLayers(rs, t.camp.Layers), cat)
		}
		e, err := ix.entryNamed(cmd.Get("entry"), clauses, hides)
		if err != nil {
			return err
		}
		card := t.card()
		if sheet.HasEntry(card, cat.ID, e.ID) {
			return refusal.New(refusal.NotAllowed, "%s already has %s from %s", card.Name, e.Label, cat.Label)
		}
		out, _ := sheet.Pick(rs, card, cat.ID, e, sheet.EntriesFrom(t.rules))
		if !out.OK() {
			return out.Err()
		}
		t.rec.UpdatedAt = c.Now()
		if err := t.save(tx, cmd.ChannelID); err != nil {
			return err
		}
		resp = Response{Content: pickedText(rs, card, cat, e, t.library)}
		return nil
	})
	return resp, err
}

// pickedText says what a pick wrote: the rows by list, and each new counter full.
func pickedText(rs *ruleset.Ruleset, card *sheet.Card, cat *ruleset.Catalog, e *ruleset.Entry, library bool) string {
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
		for _, l := range rs.Sheet.Lists {
			if l.ID == id {
				label = l.Label
			}
		}
		lists = append(lists, label+" +"+strconv.Itoa(perList[id]))
	}
	b.WriteString(" Rows added: " + strings.Join(lists, ", ") + ".")
	vals := sheet.Evaluate(rs, card, nil)
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

// entryNamed finds the entry a /pick names among those the clauses and layers leave: by
// id, else by label (case and spacing ignored). A label two entries share is
// ambiguous-entry; an entry a layer hides is unknown-entry, saying which layer.
func (ix *catalogIndex) entryNamed(name string, clauses []filterClause, hides []layerHide) (*ruleset.Entry, error) {
	want := foldText(name)
	var byLabel []*indexedEntry
	var found *indexedEntry
	for i := range ix.entries {
		e := &ix.entries[i]
		if e.id == strings.TrimSpace(name) {
			found = e
			break
		}
		if e.label == want {
			byLabel = append(byLabel, e)
		}
	}
	if found == nil {
		switch len(byLabel) {
		case 0:
			return nil, refusal.New(refusal.UnknownEntry, "%s has no entry %q", ix.cat.Label, name)
		case 1:
			found = byLabel[0]
		default:
			kept := slices.DeleteFunc(slices.Clone(byLabel), func(e *indexedEntry) bool { return !passes(e, clauses) })
			if len(kept) != 1 {
				ids := make([]string, len(byLabel))
				for i, e := range byLabel {
					ids[i] = e.e.ID
				}
				return nil, refusal.New(refusal.AmbiguousEntry, "%q could be %s: name the entry by its id", name, strings.Join(ids, " or "))
			}
			found = kept[0]
		}
	}
	if layer := found.hiddenBy(hides); layer != "" {
		return nil, refusal.New(refusal.UnknownEntry, "%s is hidden in this campaign by the layer %s", found.e.Label, layer)
	}
	if !passes(found, clauses) {
		return nil, refusal.New(refusal.UnknownEntry, "%s does not match the filter %s", found.e.Label, describeClauses(ix.cat, clauses))
	}
	return found.e, nil
}

// ---- /catalog search ----

// catalogPage is the most entries one /catalog search shows, listingBudget the most
// characters they take (an embed's description holds 4,096).
const (
	catalogPage   = 12
	listingBudget = 3900
)

// cmdCatalogSearch answers /catalog search: the entries matching the query and filters,
// ranked, each with its summary and mechanics line and whether the named card has it.
// Seen only by the one who asked; it reads and writes nothing else.
func (c *Core) cmdCatalogSearch(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		var (
			rules *ruleset.Loaded
			camp  *storage.Campaign
			card  *sheet.Card
		)
		if name := strings.TrimSpace(cmd.Get("name")); name != "" {
			t, err := c.findTarget(tx, cmd.ChannelID, cmd.User, name, true, false)
			if err != nil {
				return err
			}
			rules, camp, card = t.rules, t.camp, t.card()
		} else {
			cp, err := c.campaign(tx, cmd.ChannelID)
			if err != nil {
				return err
			}
			if rules, err = c.rules(tx, cp.Ruleset); err != nil {
				return err
			}
			camp = cp
		}
		r, err := c.catalogListing(rules, camp, card, cmd.Get("catalog"), cmd.Get("query"), cmd.Get("filter"))
		if err != nil {
			return err
		}
		resp = r
		return nil
	})
	return resp, err
}

// catalogListing renders one search of a catalog.
func (c *Core) catalogListing(rules *ruleset.Loaded, camp *storage.Campaign, card *sheet.Card, catalog, query, filter string) (Response, error) {
	rs := rules.Ruleset
	cat, err := findCatalog(rs, catalog)
	if err != nil {
		return Response{}, err
	}
	ix := c.pickerIndex(rules, cat)
	if ix.problems != nil {
		return Response{Ephemeral: true, Embeds: []Embed{{
			Title:       cat.Label + ": the catalog file has mistakes",
			Description: clipText(problemsText(ix.problems, 20), 4000),
			Footer:      "Nothing can be picked from it until the ruleset's author fixes catalogs/" + cat.ID + ".json.",
		}}}, nil
	}
	clauses, err := parseFilter(cat, filter)
	if err != nil {
		return Response{}, err
	}
	clauses = append(clauses, startClauses(rs, cat, card, clauses)...)
	q := &pickQuery{text: query, clauses: clauses}
	if camp != nil {
		q.hides = catalogHides(activeLayers(rs, camp.Layers), cat)
	}
	found := ix.search(q, 0)
	var picked map[string]int
	if card != nil {
		picked = sheet.PickedEntries(card)
	}
	var b strings.Builder
	shown := 0
	for _, m := range found {
		if shown == catalogPage {
			break
		}
		var one strings.Builder
		e := m.e
		one.WriteString("**" + e.Label + "**")
		if picked[sheet.Marker(cat.ID, e.ID)] > 0 {
			one.WriteString(" ✓ on " + card.Name + "'s sheet")
		}
		one.WriteString(" `" + e.ID + "`")
		if vals := filterSummary(cat, m); vals != "" {
			one.WriteString(" — " + vals)
		}
		one.WriteString("\n")
		if e.Summary != nil && *e.Summary != "" {
			one.WriteString(*e.Summary + "\n")
		}
		if m.mechanics != "" {
			one.WriteString("*" + m.mechanics + "*\n")
		}
		one.WriteString("\n")
		if b.Len()+one.Len() > listingBudget && shown > 0 {
			break
		}
		b.WriteString(one.String())
		shown++
	}
	title := cat.Label + ": " + plural(len(found), "entry", "entries")
	var notes []string
	if s := describeClauses(cat, clauses); s != "" {
		notes = append(notes, "Narrowed to "+s+".")
	}
	if strings.TrimSpace(query) != "" {
		notes = append(notes, "Matching "+quoted(query)+".")
	}
	if len(found) > shown {
		notes = append(notes, fmt.Sprintf("Showing the first %d; narrow with query: or filter:.", shown))
	}
	if len(found) == 0 {
		b.WriteString("Nothing matches.")
		for _, cl := range clauses {
			if cl.from != "" {
				f := cat.Filters[cl.filter]
				b.WriteString(fmt.Sprintf(" Add filter:\"%s=*\" to look beyond %s's %s.", f.ID, cl.from, f.Label))
			}
		}
	}
	if len(cat.Filters) > 0 {
		notes = append(notes, "Filters: "+filterNames(cat)+".")
	}
	footer := strings.Join(notes, " ")
	if cat.Kind() == "rows" {
		footer = strings.TrimSpace(footer + " Pick with /pick catalog:" + cat.ID + " entry:<id>.")
	}
	return Response{Ephemeral: true, Embeds: []Embed{{
		Title:       title,
		Description: clipText(strings.TrimSpace(b.String()), 4000),
		Footer:      footer, // the Discord adapter cuts it to its limit
	}}}, nil
}

// filterSummary is an entry's filter values in words ("Charge tier 1, Guild Wickwright,
// Smokejack").
func filterSummary(cat *ruleset.Catalog, e *indexedEntry) string {
	var parts []string
	for i, v := range e.values {
		if !v.set {
			continue
		}
		if v.isNum {
			parts = append(parts, cat.Filters[i].Label+" "+numText(v.num))
		} else if len(v.words) > 0 {
			parts = append(parts, cat.Filters[i].Label+" "+strings.Join(v.words, ", "))
		}
	}
	return strings.Join(parts, "; ")
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
