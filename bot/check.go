package bot

import (
	"strconv"
	"strings"

	"sheetkeeper/check"
	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// Checks and free rolls in a reply (SPEC 3.6): the GM asks, the engine throws.
//
// A [skill_check:] is resolved by package check against the campaign's resolution with
// the card's numbers (who= or the default card, as for a sheet tag). The entry its use=
// names is found and paid as op="use" pays it, and what its spend= bought is paid from
// the card's pools, in the same transaction as the reply: all or nothing — a check whose
// payment is refused did not happen. A [dice:] is thrown and
// written back with its faces and total.
//
// Every face comes from the core's one Source (Options.Dice). The faces each tag threw
// are stored with the reply (storage.Reply.Rolls, keyed by the tag's canonical text), and
// a table handed them (table.replay) throws them again for the same tags: a regenerate
// keeps the roll of every check it kept unchanged — editing the narration never fishes
// for a better roll — while a new or changed check rolls anew. Redo (the Undo button's
// other half) replays the same way.

// rolled is what the engine threw for one tag: its write-back, the embed line, and the
// faces to store.
type rolled struct {
	// record is the tag written back with every number the engine used (Result.Record,
	// Roll.Record): the line of the post.
	record string
	// card is the embed the line goes under: the character who rolled, or freeRolls.
	card string
	line string
	// now is what the roll came to, for the sheet result's outcome; result the check's
	// result as its record writes it.
	now, result string
	faces       []int
}

// freeRolls titles the embed of free rolls, which belong to nobody's sheet.
const freeRolls = "Dice"

// outcome is the tag's Outcome for a thrown tag, as its record says it: the record as
// its line, and the check's result ("success", "critical_failure"; none for a check
// with nothing to meet, or a free roll) as the result a reader finds in the text.
func (r *rolled) outcome(t parser.Tag) Outcome {
	return Outcome{Tag: r.record, Op: t.Written(t.Op, parser.MaxValue), Who: t.Written(r.who(), parser.MaxValue), Result: r.result}
}

func (r *rolled) who() string {
	if r.card == freeRolls {
		return ""
	}
	return r.card
}

// isRoll says a tag is thrown by the engine rather than applied to a sheet.
func isRoll(t parser.Tag) bool { return t.Kind == parser.SkillCheck || t.Kind == parser.DiceRoll }

// rollPhrase says briefly what a check or free roll asked for: "Juggling check", "Keep
// steady save", "roll 2d6+1".
func rollPhrase(t parser.Tag) string {
	if t.Kind == parser.DiceRoll {
		v, _ := t.Get("dice")
		return "roll " + v
	}
	name, _ := t.Get(t.Op)
	if t.Op == check.Save {
		return saveName(name)
	}
	return name + " check"
}

// saveName is a save as people say it: "Keep steady save", but "Strength save" as is.
func saveName(label string) string {
	if strings.Contains(strings.ToLower(label), "save") {
		return label
	}
	return label + " save"
}

// throw resolves one check or free roll on the table, def being the card a check without
// who= is for. Refused, it returns the refusal as a sheet tag's would be, and nothing is
// paid.
func (t *table) throw(tag parser.Tag, def string) applied {
	src := t.dice
	if faces, ok := t.kept(tag.Canonical()); ok {
		src = check.NewReplay(faces, t.dice)
	}
	if tag.Kind == parser.DiceRoll {
		roll, err := check.RollTag(tag, src)
		if err != nil {
			return applied{tag: tag, res: sheet.Result{Outcome: sheet.Refused(err)}}
		}
		r := &rolled{record: tag.WriteRecord(roll.Record()), card: freeRolls, line: rollLine(roll),
			now: strconv.Itoa(roll.Total), faces: roll.Faces}
		return applied{tag: tag, res: sheet.Result{Outcome: sheet.Applied(r.now)}, roll: r}
	}
	return t.resolve(tag, def, src)
}

// resolve is throw for a [skill_check:].
func (t *table) resolve(tag parser.Tag, def string, src check.Source) applied {
	refused := func(card string, err error) applied {
		out := sheet.Refused(err)
		res := sheet.Result{Outcome: out}
		if card != "" {
			res.Cards = []sheet.CardResult{{Card: card, Outcome: out}}
		}
		return applied{tag: tag, res: res}
	}
	req, err := check.RequestOf(tag)
	if err != nil {
		return refused("", err)
	}
	card, err := t.roller(tag.Who, def)
	if err != nil {
		return refused("", err)
	}
	req.Who = card.Name
	rs := t.rules.Ruleset
	// What the check pays for is paid on a copy, which replaces the card only when all of
	// it was paid: the use= entry first (its effect reaches the roll only once paid),
	// then what the spend bought, from what the entry left.
	work := card
	var changes []sheet.Change
	if req.Use != "" {
		work = card.Clone()
		if req.Entry, changes, err = t.useEntry(work, req.Use); err != nil {
			return refused(card.Name, err)
		}
	}
	held := t.holdings(t.recordOf(card))
	vals := evaluate(rs, work, held)
	req.Items = checkItems(held, vals)
	res, err := check.Resolve(rs, vals, req, src)
	if err != nil {
		return refused(card.Name, err)
	}
	if len(res.Paid) > 0 {
		if work == card {
			work = card.Clone()
		}
		paid, err := t.pay(work, res.Paid)
		if err != nil {
			return refused(card.Name, err)
		}
		changes = append(changes, paid...)
	}
	if work != card {
		*card = *work
	}
	r := &rolled{record: tag.WriteRecord(res.Record()), card: card.Name, line: checkLine(&res), now: checkNow(&res),
		result: res.Outcome, faces: res.Faces}
	out := sheet.Applied(r.now)
	return applied{tag: tag, res: sheet.Result{Outcome: out, Cards: []sheet.CardResult{{Card: card.Name, Outcome: out, Changes: changes}}}, roll: r}
}

// roller is the card a check is rolled for: who= when written, else def, as for a sheet
// tag. A check is one character's roll, so who="party" is refused: one tag per character.
func (t *table) roller(who, def string) (*sheet.Card, error) {
	switch {
	case sheet.IsParty(who):
		return nil, refusal.New(refusal.WhoRequired, "a check is one character's roll: write one tag for each character")
	case strings.TrimSpace(who) != "":
		return sheet.FindCard(t.cards, who)
	case def != "":
		return sheet.FindCard(t.cards, def)
	}
	return nil, refusal.New(refusal.WhoRequired, "say which character rolls the check")
}

// pay takes what a check bought from card's pools (a working copy: see resolve).
func (t *table) pay(card *sheet.Card, paid []check.Payment) ([]sheet.Change, error) {
	party := []*sheet.Card{card}
	var changes []sheet.Change
	for _, p := range paid {
		spend := parser.Tag{Kind: parser.Sheet, Op: "spend", Who: card.Name,
			Attrs: []parser.Attr{{Key: "pool", Value: p.Pool}, {Key: "amount", Value: strconv.Itoa(p.Amount)}}}
		res := sheet.Apply(t.rules.Ruleset, party, spend, sheet.Options{Catalogs: t.catalogs})
		if !res.Outcome.OK() {
			return nil, res.Outcome.Err()
		}
		changes = append(changes, res.Changes()...)
	}
	return changes, nil
}

// useEntry pays for the entry a check's use= names on card (a working copy), as
// op="use" pays for it, and returns what it does to the check. An entry that does
// nothing to a check is refused not-allowed rather than paid for nothing.
func (t *table) useEntry(card *sheet.Card, name string) (*check.Entry, []sheet.Change, error) {
	rs := t.rules.Ruleset
	found, err := sheet.FindEntry(rs, card, t.catalogs, name)
	if err != nil {
		return nil, nil, err
	}
	e := found.Entry
	if e.Mechanics == nil || e.Mechanics.Check == nil {
		return nil, nil, refusal.New(refusal.NotAllowed, "%s does nothing to a check", e.Label)
	}
	use := parser.Tag{Kind: parser.Sheet, Op: "use", Who: card.Name, Attrs: []parser.Attr{{Key: "name", Value: name}}}
	res := sheet.Apply(rs, []*sheet.Card{card}, use, sheet.Options{Catalogs: t.catalogs})
	if !res.Outcome.OK() {
		return nil, nil, res.Outcome.Err()
	}
	return &check.Entry{Name: e.Label, Effect: e.Mechanics.Check, Times: 1}, res.Changes(), nil
}

// reapply applies text's tags as reply r's, each check and free roll r threw and text
// still has (the same canonical tag) throwing the faces it threw then, and records in r
// what the tags changed and threw. A regenerate calls it once r is reverted, and a redo
// once r was undone, so neither can fish for a better roll.
func (t *table) reapply(r *storage.Reply, text, def string) []applied {
	t.replay = r.Rolls
	done := t.apply(parser.Read(text).Tags, def)
	// Faces the new text did not use are kept after its own, so a check edited out and
	// back in, or changed and changed back, throws what it threw: two edits cannot fish
	// for a better roll. Bounded: at most keptRolls in all.
	rolls := append(rollsOf(done), t.replay...)
	t.replay = nil
	r.Changes, r.Rolls = changesOf(done), rolls[:min(len(rolls), keptRolls)]
	return done
}

// keptRolls bounds the faces a reply keeps: its own tags' (at most parser.MaxCommands)
// and as many of earlier texts'.
const keptRolls = 2 * parser.MaxCommands

// kept returns the stored faces of the first not yet replayed roll of the tag whose
// canonical text is canon, and uses them up: the nth such tag of a message gets the nth
// roll it threw.
func (t *table) kept(canon string) ([]int, bool) {
	for i, r := range t.replay {
		if r.Tag == canon {
			t.replay = append(t.replay[:i:i], t.replay[i+1:]...)
			return r.Faces, true
		}
	}
	return nil, false
}

// rollsOf is the faces every thrown tag of a reply threw, in order, for storage.
func rollsOf(done []applied) []storage.Roll {
	var out []storage.Roll
	for _, a := range done {
		if a.roll != nil {
			out = append(out, storage.Roll{Tag: a.tag.Canonical(), Faces: a.roll.faces})
		} else if len(a.faces) > 0 {
			out = append(out, storage.Roll{Tag: a.tag.Canonical(), Faces: a.faces})
		}
	}
	return out
}

// checkNow is a check's outcome in a few words, for the post's outcome data: the total
// (or successes) and the result.
func checkNow(r *check.Result) string {
	var s string
	switch {
	case r.Automatic:
		s = "automatic"
	case r.Threshold > 0:
		s = plural(r.Successes, "success", "successes")
	default:
		s = strconv.Itoa(r.Total)
	}
	if r.Outcome != "" {
		s += " " + r.Outcome
	}
	return s
}

// checkLine is a check as its embed says it: "Mira — Stealth (advantage) 7 | **16** + 5 =
// **21** vs DC 15 — success", a pool's "Bram — Athletics 6d10 ≥7: 3, **8**, **9** … =
// **2** successes vs 2 — success", crits called out.
func checkLine(r *check.Result) string {
	var b strings.Builder
	label := r.Label
	if r.Subject == check.Save {
		label = saveName(label)
	}
	b.WriteString(r.Who + " — " + label)
	if r.With != "" {
		b.WriteString(" with " + r.With)
	}
	if r.Mode != "" {
		b.WriteString(" (" + r.Mode + ")")
	}
	switch {
	case r.Automatic:
		b.WriteString(" — fails automatically")
		if len(r.From) > 0 {
			b.WriteString(" (" + strings.Join(r.From, ", ") + ")")
		}
		return b.String()
	case r.Threshold > 0:
		b.WriteString(" " + r.Dice + " ≥" + strconv.Itoa(r.Threshold) + ": ")
		for i, f := range r.Rolls {
			if i > 0 {
				b.WriteString(", ")
			}
			if f >= r.Threshold {
				b.WriteString("**" + strconv.Itoa(f) + "**")
			} else {
				b.WriteString(strconv.Itoa(f))
			}
		}
		b.WriteString(" = **" + plural(r.Successes, "success", "successes") + "**")
		if r.Bought > 0 {
			b.WriteString(" (" + strconv.Itoa(r.Bought) + " bought)")
		}
	default:
		b.WriteString(" " + sumThrows(r))
		b.WriteString(" " + signWord(r.Modifier) + " = **" + strconv.Itoa(r.Total) + "**")
	}
	if r.HasDC {
		if r.Threshold > 0 {
			b.WriteString(" vs " + strconv.Itoa(r.DC))
		} else {
			b.WriteString(" vs DC " + strconv.Itoa(r.DC))
		}
	}
	if r.Outcome != "" {
		b.WriteString(" — " + outcomeWords(r.Outcome))
	}
	if r.Complication {
		b.WriteString(", with a complication")
	}
	return b.String()
}

// sumThrows is a summed check's throws, the one kept in bold: "7 | **16**" for one die
// twice, "3+5 | **4+6**" for two dice twice, "**14**" for one throw.
func sumThrows(r *check.Result) string {
	throws := 1
	if r.Mode != "" {
		throws = 2
	}
	per := len(r.Rolls) / throws
	if per == 0 {
		return "**" + strconv.Itoa(r.Used) + "**"
	}
	parts := make([]string, throws)
	kept := -1
	for i := range throws {
		faces := r.Rolls[i*per : (i+1)*per]
		sum := 0
		words := make([]string, len(faces))
		for j, f := range faces {
			sum += f
			words[j] = strconv.Itoa(f)
		}
		parts[i] = strings.Join(words, "+")
		if kept < 0 && sum == r.Used {
			kept = i
		}
	}
	if kept >= 0 {
		parts[kept] = "**" + parts[kept] + "**"
	}
	return strings.Join(parts, " | ")
}

// signWord is "+ 5" or "- 1".
func signWord(n int) string {
	if n < 0 {
		return "- " + strconv.Itoa(-n)
	}
	return "+ " + strconv.Itoa(n)
}

// outcomeWords says a check's result for people, a critical one loudly.
func outcomeWords(o string) string {
	switch o {
	case check.CriticalSuccess:
		return "**critical success!**"
	case check.CriticalFailure:
		return "**critical failure!**"
	}
	return o
}

// rollLine is a free roll as its embed says it: "2d6+1 = **9** (3, 5 +1)".
func rollLine(r check.Roll) string {
	notation, total := r.Dice.String(), strconv.Itoa(r.Total)
	rest := strings.TrimPrefix(r.Text(), notation+" = "+total)
	return notation + " = **" + total + "**" + rest
}
