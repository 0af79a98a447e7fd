package parser

import (
	"errors"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"sheetkeeper/refusal"
)

// The tags the engine rolls for (SPEC 3.6): a check against the campaign's resolution,
// and a free roll of dice notation.
const (
	SkillCheck Kind = "skill_check"
	DiceRoll   Kind = "dice"
)

// checkSubjects are the keys that say what a check rolls, in the order one wins over
// another when a GM writes several.
var checkSubjects = [...]string{"skill", "save", "ability"}

// checkNumbers are the integer attributes a check reads; checkWords the text ones. Both
// lists are also the order they are written back in, after who and the subject.
var (
	checkNumbers = [...]string{"dc", "threshold", "bonus", "explode", "double"}
	checkWords   = [...]string{"with", "difficulty", "mode", "reroll", "spend", "use"}
)

// readCheck reads one [skill_check:] body: who, what it rolls (skill=, save= or
// ability=) and what the GM may ask of the roll. Everything a GM (or a model imitating a
// write-back) wrote about the outcome — rolls, used, modifier, total, result, successes,
// dice, resolution, complication — is dropped: the engine throws the dice itself, also
// for a tag that reads like an engine's record (SPEC 3.4, 3.6).
func readCheck(body string, attrs []rawAttr) Tag {
	runBareValues(body, attrs) // skill=Sleight of Hand: a bare value runs on to the next key
	l := lookup{attrs: attrs}
	t := Tag{Kind: SkillCheck, Raw: strings.TrimSpace(body)}
	bad := func(detail string) Tag { return malformed(SkillCheck, body, attrs, detail) }
	if who, ok := l.get("who"); ok {
		t.Who = cleanName(who)
	}
	for _, k := range checkSubjects {
		if v, ok := l.get(k); ok {
			t.Op = k
			t.Attrs = append(t.Attrs, Attr{k, cleanName(v)})
			break
		}
	}
	if t.Op == "" {
		return bad("a check names skill=, save= or ability=")
	}
	for _, k := range checkNumbers {
		n, has, problem := l.integer(k)
		if problem != "" {
			return bad(problem)
		}
		if has {
			t.Attrs = append(t.Attrs, Attr{k, itoa(n)})
		}
	}
	for _, k := range checkWords {
		v, ok := l.get(k)
		if !ok && k == "mode" {
			v, ok = bareMode(body)
		}
		if ok {
			v = cleanName(v)
			if k == "mode" {
				v = strings.ToLower(v)
			}
			t.Attrs = append(t.Attrs, Attr{k, v})
		}
	}
	return t
}

// bareMode reads a mode written as a bare word outside any attribute, as Marinara's
// reader does: `[skill_check: skill="Stealth" dc="15" advantage]`. A word inside a value
// (skill="Disadvantage Arts") is not one, and both words at once say nothing.
func bareMode(body string) (string, bool) {
	if !strings.Contains(strings.ToLower(body), "advantage") {
		return "", false
	}
	var buf [32]lexer.Token
	toks := lexBody(body, buf[:0])
	found := ""
	for i, pos := 0, 0; i <= len(toks); i++ {
		end := len(body)
		if i < len(toks) {
			end = toks[i].Pos.Offset
		}
		for j := pos; j < end; {
			if !isWord(body[j]) {
				j++
				continue
			}
			k := wordEnd(body[:end], j)
			if w := strings.ToLower(body[j:k]); w == "advantage" || w == "disadvantage" {
				if found != "" && found != w {
					return "", false
				}
				found = w
			}
			j = k
		}
		if i < len(toks) {
			pos = toks[i].Pos.Offset + len(toks[i].Value)
		}
	}
	return found, found != ""
}

// readDiceTag reads one [dice:] body: the notation, up to an '=' if there is one. What
// follows an '=' is an earlier outcome (Marinara's "d20 = 14", or our write-back); it is
// dropped and the dice are thrown anew, as for any outcome a GM writes (SPEC 3.4).
func readDiceTag(body string, attrs []rawAttr) Tag {
	notation, _, _ := strings.Cut(body, "=")
	t := Tag{Kind: DiceRoll, Raw: strings.TrimSpace(body)}
	d, err := ParseDice(notation)
	if err != nil {
		// A notation past the bounds is as unreadable to the roller as one that is no
		// notation: both are refused malformed, the detail saying which bound it broke.
		detail := err.Error()
		var re *refusal.Error
		if errors.As(err, &re) && re.Detail != "" {
			detail = re.Detail
		}
		return malformed(DiceRoll, body, attrs, detail)
	}
	t.Op = "roll"
	t.Attrs = []Attr{{"dice", d.String()}}
	return t
}

// rollHeadAt reports a [skill_check: or [dice: head at the start of rest (the text just
// after '['), and the length of the head after the '['.
func rollHeadAt(rest string) (Kind, int, bool) {
	if len(rest) >= 12 && strings.EqualFold(rest[:12], "skill_check:") {
		return SkillCheck, 12, true
	}
	if len(rest) >= 5 && strings.EqualFold(rest[:5], "dice:") {
		return DiceRoll, 5, true
	}
	return "", 0, false
}

// readRollTag reads the body of a check or a free roll.
func readRollTag(kind Kind, body string, attrs []rawAttr) Tag {
	if kind == DiceRoll {
		return readDiceTag(body, attrs)
	}
	return readCheck(body, attrs)
}
