package catalog

import (
	"slices"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/suggest"
)

// Query is one search of a catalog: the words typed, the filter, and the layers' hides.
type Query struct {
	Text   string
	Filter Filter
	Hides  Hides
	// Prefer ranks entries passing these clauses first without dropping the others (the
	// autocomplete's startFrom: a Wizard sees Wizard spells first, and can still find any).
	Prefer Filter
}

// Search returns the entries passing q, best first: the label equal to the words typed,
// starting with them, a word of it starting with them, holding them, then the words all
// found in the label or summary; within each, the entries q prefers first; ties in
// catalog order (authors order them on purpose). limit > 0 keeps only that many of the
// best (the autocomplete's 25), without gathering and sorting the rest.
func (c *Catalog) Search(q *Query, limit int) []*Entry {
	text := ruleset.FoldName(q.Text)
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
	for i := range c.entries {
		e := &c.entries[i]
		rank := textRank(e, text, words)
		if rank < 0 {
			continue
		}
		rank *= 2
		if len(q.Prefer) > 0 && !q.Prefer.passes(e) {
			rank++
		}
		if limit > 0 && counts(rank) >= limit {
			continue
		}
		if !q.Filter.passes(e) || e.hiddenBy(q.Hides) != "" {
			continue
		}
		buckets[rank] = append(buckets[rank], int32(i))
	}
	n := counts(rankBuckets - 1)
	if limit > 0 {
		n = min(n, limit)
	}
	out := make([]*Entry, 0, n)
	for _, b := range buckets {
		for _, i := range b {
			if limit > 0 && len(out) == limit {
				return out
			}
			out = append(out, &c.entries[i])
		}
	}
	return out
}

// rankBuckets is how many ranks a search tells apart: textRank's five, each split by
// preference.
const rankBuckets = 10

// textRank ranks an entry against the folded words typed: 0 the label or id is them, 1
// the label starts with them, 2 a word of the label does, 3 the label holds them, 4 every
// word is in the label or the summary (from three letters typed); -1 no match. Nothing
// typed matches everything.
func textRank(e *Entry, text string, words []string) int {
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

// Named finds the entry a /pick names among those the filter and hides leave: by
// id, else by label (case and spacing ignored). An entry a layer hides is never
// considered, as Search never lists it: a shown entry answers to the name before it, and
// a label it shares with one shown entry is that entry's alone. A name only hidden
// entries answer to is unknown-entry, saying which layer hides it; a label two shown
// entries share is ambiguous-entry, unless the filter keeps one.
func (c *Catalog) Named(name string, clauses Filter, hides Hides) (*ruleset.Entry, error) {
	found, byLabel, hidden := c.named(name, hides)
	if found == nil {
		switch len(byLabel) {
		case 0:
			if hidden != nil {
				return nil, refusal.New(refusal.UnknownEntry, "%s is hidden in this campaign by the layer %s", hidden.Label, hidden.hiddenBy(hides))
			}
			return nil, refusal.New(refusal.UnknownEntry, "%s has no entry %q%s", c.Def.Label, name, c.nearEntries(name, hides))
		case 1:
			found = byLabel[0]
		default:
			kept := slices.DeleteFunc(slices.Clone(byLabel), func(e *Entry) bool { return !clauses.passes(e) })
			if len(kept) != 1 {
				ids := make([]string, len(byLabel))
				for i, e := range byLabel {
					ids[i] = e.ID
				}
				return nil, refusal.New(refusal.AmbiguousEntry, "%q could be %s: name the entry by its id", name, strings.Join(ids, " or "))
			}
			found = kept[0]
		}
	}
	if !clauses.passes(found) {
		return nil, refusal.New(refusal.UnknownEntry, "%s does not match the filter %s", found.Label, describe(c.Def, clauses))
	}
	return found.Entry, nil
}

// named is what name answers to among the entries hides leave shown: the entry whose id
// it is, else (found nil) those whose label it is. hidden is an entry a layer hides that
// name answers to, the one by id first, for the refusal when no shown one does.
func (c *Catalog) named(name string, hides Hides) (found *Entry, byLabel []*Entry, hidden *Entry) {
	id, want := strings.TrimSpace(name), ruleset.FoldName(name)
	for i := range c.entries {
		e := &c.entries[i]
		isID := e.id == id
		if !isID && e.label != want {
			continue
		}
		if e.hiddenBy(hides) != "" {
			if hidden == nil || isID && hidden.id != id {
				hidden = e
			}
			continue
		}
		if isID {
			return e, nil, nil
		}
		byLabel = append(byLabel, e)
	}
	return nil, byLabel, hidden
}

// nearEntries is the "did you mean" words for an entry name that matched nothing: the
// closest entries the campaign's layers leave shown (a hidden one never is suggested),
// each by its label or its id.
func (c *Catalog) nearEntries(name string, hides Hides) string {
	return suggest.DidYouMeanOf(name, c.entries, func(e *Entry) []string {
		if e.hiddenBy(hides) != "" {
			return nil
		}
		return []string{e.Label, e.id}
	})
}
