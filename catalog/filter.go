package catalog

import (
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// Filter is a filter option read against one catalog's filters: clauses that all have to
// hold. The option is a list of clauses separated by ";":
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
type Filter []clause

// clause is one clause of a filter option: the filter (its position in the
// header), the comparison and the values it compares with.
type clause struct {
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

// Filter reads a filter option against c's filters. Refused malformed, in words that say
// how to write it.
func (c *Catalog) Filter(text string) (Filter, error) {
	cat := c.Def
	syn, err := filterParser.ParseString("", text)
	if err != nil {
		// The grammar accepts every token sequence the lexer makes, and the lexer every
		// text; this is an internal fault, still told in the option's words.
		return nil, refusal.New(refusal.Malformed, "I could not read %q as a filter: write it as name=value, e.g. %s", strings.TrimSpace(text), filterExample(cat))
	}
	var out Filter
	for _, cs := range syn.Clauses {
		part := strings.TrimSpace(text[cs.Pos.Offset:cs.EndPos.Offset])
		if part == "" {
			continue
		}
		name, op := strings.TrimSpace(cs.Name), cs.Op
		if name == "" || op == "" || len(cs.Rest) > 0 {
			return nil, refusal.New(refusal.Malformed, "I could not read %q as a filter: write it as name=value, e.g. %s", part, filterExample(cat))
		}
		// "==" and ">==" read as "=" and ">=": the value loses one leading "=".
		value := strings.TrimSpace(strings.TrimPrefix(cs.Value, "="))
		cl, err := readClause(cat, part, name, op, value)
		if err != nil {
			return nil, err
		}
		out = append(out, cl)
	}
	return out, nil
}

// readClause is what one clause (part, as written) means against cat's filters.
func readClause(cat *ruleset.Catalog, part, name, op, value string) (clause, error) {
	fi := filterNamed(cat, name)
	if fi < 0 {
		return clause{}, refusal.New(refusal.Malformed, "%s has no filter %q; its filters are %s", cat.Label, name, filterNames(cat))
	}
	f := &cat.Filters[fi]
	cl := clause{filter: fi, op: op}
	if value == "*" || strings.EqualFold(value, "any") {
		if op != "=" {
			return clause{}, refusal.New(refusal.Malformed, "%q: use %s=* to see every %s", part, f.ID, f.Label)
		}
		cl.any = true
		return cl, nil
	}
	if value == "" {
		return clause{}, refusal.New(refusal.Malformed, "%q says no value", part)
	}
	if f.Type != "number" {
		if op != "=" && op != "!=" {
			return clause{}, refusal.New(refusal.Malformed, "%q: %s holds words, so it takes = or !=", part, f.Label)
		}
		for _, alt := range strings.Split(value, "|") {
			if w := ruleset.FoldName(alt); w != "" {
				cl.words = append(cl.words, w)
				cl.show = append(cl.show, strings.TrimSpace(alt))
			}
		}
		return cl, nil
	}
	if lo, hi, ok := strings.Cut(value, ".."); ok && op == "=" {
		a, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		b, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if err1 != nil || err2 != nil {
			return clause{}, refusal.New(refusal.Malformed, "%q: %s takes numbers (%s=1..3)", part, f.Label, f.ID)
		}
		cl.op, cl.lo, cl.hi = "..", a, b
		return cl, nil
	}
	for _, alt := range strings.Split(value, "|") {
		n, err := strconv.ParseFloat(strings.TrimSpace(alt), 64)
		if err != nil {
			return clause{}, refusal.New(refusal.Malformed, "%q: %s takes a number", part, f.Label)
		}
		cl.nums = append(cl.nums, n)
	}
	if len(cl.nums) > 1 && op != "=" && op != "!=" {
		return clause{}, refusal.New(refusal.Malformed, "%q: only = and != take several numbers", part)
	}
	return cl, nil
}

// filterSyntax is the grammar of a filter option:
//
//	filter = clause? ( ";" clause? )* ;
//	clause = Name? ( Op Value? )? rest ;
//	rest   = ( Name | Bang | Op | Value )* ;     (anything else: refused)
//
// The lexer does the reading: a Name runs up to the first of ";=<>!", an Op is the
// longest of != <= >= = < > there, and everything after an Op up to the next ";" is the
// Value (so a value may hold "=", "<" or "!"). What a clause means — which filter, a
// number or words, a range, alternatives split at "|" — depends on the catalog's
// filters and is read after, by Catalog.Filter. The grammar accepts every text, so a
// mistake is always refused in the clause's own words rather than as a parse error.
type filterSyntax struct {
	Clauses []*clauseSyntax `parser:"@@? ( Semi @@? )*"`
}

// clauseSyntax is one clause as written, and where it sits in the option (Pos, EndPos)
// so a refusal can quote it.
type clauseSyntax struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string   `parser:"@Name?"`
	Op     string   `parser:"( @Op"`
	Value  string   `parser:"  @Value? )?"`
	Rest   []string `parser:"@( Name | Bang | Op | Value )*"`
}

// filterLexer reads a filter option; see filterSyntax.
var filterLexer = lexer.MustStateful(lexer.Rules{
	"Root": {
		{Name: "Semi", Pattern: `;`},
		{Name: "Op", Pattern: `!=|<=|>=|=|<|>`, Action: lexer.Push("Value")},
		{Name: "Bang", Pattern: `!`},
		{Name: "Name", Pattern: `[^;=<>!]+`},
	},
	"Value": {
		{Name: "Semi", Pattern: `;`, Action: lexer.Pop()},
		{Name: "Value", Pattern: `[^;]+`},
	},
})

// filterParser is built once: a participle parser is safe for concurrent use, and
// building one costs far more than using it.
var filterParser = participle.MustBuild[filterSyntax](participle.Lexer(filterLexer))

// filterNamed finds a filter of cat by id or label, case ignored; -1 when none.
func filterNamed(cat *ruleset.Catalog, name string) int {
	want := ruleset.FoldName(name)
	for i := range cat.Filters {
		if ruleset.FoldName(cat.Filters[i].ID) == want || ruleset.FoldName(cat.Filters[i].Label) == want {
			return i
		}
	}
	return -1
}

// FilterNames lists c's filters for people: "tier (Charge tier, number), …" or "none".
func (c *Catalog) FilterNames() string { return filterNames(c.Def) }

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
func (cl *clause) matches(e *Entry) bool {
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
func (cl *clause) hits(v filterValue) bool {
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

// StartFrom is the clauses card opens the picker with (rs is the card's ruleset): for
// each filter with a startFrom that no clause of given names, the card's value of that
// field. A text field holding several words ("Fighter/Wizard", "Fighter, Wizard") matches
// any of them; an empty field narrows nothing. A nil card opens on nothing.
func (c *Catalog) StartFrom(rs *ruleset.Ruleset, card *sheet.Card, given Filter) Filter {
	cat := c.Def
	if card == nil {
		return nil
	}
	var out Filter
	for i := range cat.Filters {
		f := &cat.Filters[i]
		if f.StartFrom == nil || slices.ContainsFunc(given, func(cl clause) bool { return cl.filter == i }) {
			continue
		}
		v, ok := card.Build.Fields[f.StartFrom.Field]
		if !ok {
			if fd := rs.Sheet.Field(f.StartFrom.Field); fd != nil {
				v = sheet.FieldDefault(fd)
			}
		}
		cl := clause{filter: i, op: "=", from: card.Name}
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
				if f := ruleset.FoldName(w); f != "" {
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

// Describe says in words what f narrows c to ("Guild Wickwright (from Mira's sheet),
// Charge tier 1").
func (c *Catalog) Describe(f Filter) string { return describe(c.Def, f) }

func describe(cat *ruleset.Catalog, cls Filter) string {
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

// Widen is a clause a card's startFrom added, as a listing offers to lift it: the filter's
// id and label and the card's name.
type Widen struct{ Filter, Label, Card string }

// Widens lists the clauses of f that came from a card's startFrom.
func (c *Catalog) Widens(f Filter) []Widen {
	var out []Widen
	for _, cl := range f {
		if cl.from != "" {
			fd := c.Def.Filters[cl.filter]
			out = append(out, Widen{Filter: fd.ID, Label: fd.Label, Card: cl.from})
		}
	}
	return out
}

// passes reports whether e passes every clause of f.
func (f Filter) passes(e *Entry) bool {
	for i := range f {
		if !f[i].matches(e) {
			return false
		}
	}
	return true
}
