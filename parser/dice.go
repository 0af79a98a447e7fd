package parser

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"sheetkeeper/refusal"
)

// The bounds of one roll: Marinara's (at most 100 dice of at most 1,000 sides), where a
// notation past them is refused rather than trimmed, so what was thrown is what was asked.
// A notation is short text and a constant a small number, so neither can cost anything.
const (
	MaxDice      = 100
	MaxSides     = 1000
	MaxConstant  = 100000
	maxNotation  = 100
	maxDiceTerms = 20
)

// Dice is a dice notation as read: a sum of terms, each a handful of dice (kept whole or
// only their highest or lowest few) or a constant, added or taken away. Every reader of
// notation goes through ParseDice, so a [dice:] tag, a sheet's dice column and a check's
// dice agree on what "2d6+1" means.
type Dice struct {
	Terms []DiceTerm
}

// DiceTerm is one term: Count dice of Sides sides (Sides 0: the constant Const), minus
// when Neg. Keep, when above 0, keeps only that many of the dice: the highest, or the
// lowest when KeepLow.
type DiceTerm struct {
	Neg     bool
	Count   int
	Sides   int
	Keep    int
	KeepLow bool
	Const   int
}

// Count is how many dice the notation throws.
func (d Dice) Count() int {
	n := 0
	for _, t := range d.Terms {
		n += t.Count
	}
	return n
}

// String is the canonical notation: "1d20" for "d20", no spaces, a keep of all dice
// written only when it keeps fewer.
func (d Dice) String() string {
	var b strings.Builder
	for i, t := range d.Terms {
		if t.Neg {
			b.WriteByte('-')
		} else if i > 0 {
			b.WriteByte('+')
		}
		if t.Sides == 0 {
			b.WriteString(strconv.Itoa(t.Const))
			continue
		}
		b.WriteString(strconv.Itoa(t.Count))
		b.WriteByte('d')
		b.WriteString(strconv.Itoa(t.Sides))
		if t.Keep > 0 {
			if t.KeepLow {
				b.WriteString("kl")
			} else {
				b.WriteString("kh")
			}
			b.WriteString(strconv.Itoa(t.Keep))
		}
	}
	return b.String()
}

// diceAST is the notation's grammar:
//
//	notation = term ( Sign term )* ;
//	term     = Int? die? ;            (at least one of the two; checked after parsing)
//	die      = D Int ( Keep Int? )? ;
//
// Whitespace between tokens is skipped, so "2d6 + 1" reads as "2d6+1".
type diceAST struct {
	First *termAST   `parser:"@@"`
	Rest  []*signAST `parser:"@@*"`
}

type signAST struct {
	Sign string   `parser:"@Sign"`
	Term *termAST `parser:"@@"`
}

type termAST struct {
	Count *string `parser:"@Int?"`
	Die   *dieAST `parser:"@@?"`
}

type dieAST struct {
	Sides string  `parser:"D @Int"`
	Keep  string  `parser:"( @Keep"`
	KeepN *string `parser:"  @Int? )?"`
}

var diceLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Keep", Pattern: `[kK][hHlL]`},
	{Name: "D", Pattern: `[dD]`},
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "Sign", Pattern: `[-+]`},
	{Name: "Space", Pattern: `\s+`},
})

// diceParser is built once and shared: participle parsers are safe for concurrent use.
var diceParser = participle.MustBuild[diceAST](participle.Lexer(diceLexer), participle.Elide("Space"))

// ParseDice reads a dice notation: NdM (N may be left out for one), kh/kl keeping the
// highest or lowest few ("4d6kh3"; a keep without a number keeps one), and terms and
// constants added or taken away ("2d6+1d4-1"). Text that is not notation is refused
// malformed; a notation past MaxDice dice in all, MaxSides sides or MaxConstant is
// refused bad-amount with the bounds it broke.
func ParseDice(s string) (Dice, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxNotation {
		return Dice{}, refusal.New(refusal.Malformed, "dice notation is NdM, like 2d6+1, in at most %d characters", maxNotation)
	}
	ast, err := diceParser.ParseString("", s)
	if err != nil {
		return Dice{}, refusal.New(refusal.Malformed, "%q is not dice notation like 2d6+1 or 4d6kh3", CapUTF16(s, 40))
	}
	if len(ast.Rest)+1 > maxDiceTerms {
		return Dice{}, refusal.New(refusal.Malformed, "a roll adds at most %d terms", maxDiceTerms)
	}
	d := Dice{Terms: make([]DiceTerm, 0, len(ast.Rest)+1)}
	add := func(neg bool, t *termAST) error {
		term, err := readTerm(neg, t)
		if err != nil {
			return err
		}
		d.Terms = append(d.Terms, term)
		return nil
	}
	if ast.First.Count == nil && ast.First.Die == nil {
		return Dice{}, refusal.New(refusal.Malformed, "%q starts with a sign: a roll starts with dice or a number, like 2d6-1", CapUTF16(s, 40))
	}
	if err := add(false, ast.First); err != nil {
		return Dice{}, err
	}
	for _, r := range ast.Rest {
		if err := add(r.Sign == "-", r.Term); err != nil {
			return Dice{}, err
		}
	}
	if n := d.Count(); n > MaxDice {
		return Dice{}, &refusal.Error{Reason: refusal.BadAmount, Detail: "a roll throws at most " + strconv.Itoa(MaxDice) + " dice", Bounds: "1.." + strconv.Itoa(MaxDice)}
	}
	return d, nil
}

// readTerm checks one term against the bounds.
func readTerm(neg bool, t *termAST) (DiceTerm, error) {
	out := DiceTerm{Neg: neg}
	if t.Count == nil && t.Die == nil {
		return out, refusal.New(refusal.Malformed, "a sign with nothing after it")
	}
	bounded := func(s string, lo, hi int, what string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || len(s) > 9 || n < lo || n > hi {
			return 0, &refusal.Error{Reason: refusal.BadAmount, Detail: what + " is from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi),
				Bounds: strconv.Itoa(lo) + ".." + strconv.Itoa(hi)}
		}
		return n, nil
	}
	if t.Die == nil {
		c, err := bounded(*t.Count, 0, MaxConstant, "a constant")
		out.Const = c
		return out, err
	}
	out.Count = 1
	if t.Count != nil {
		c, err := bounded(*t.Count, 1, MaxDice, "the number of dice")
		if err != nil {
			return out, err
		}
		out.Count = c
	}
	sides, err := bounded(t.Die.Sides, 1, MaxSides, "a die's sides")
	if err != nil {
		return out, err
	}
	out.Sides = sides
	if t.Die.Keep != "" {
		out.KeepLow = strings.EqualFold(t.Die.Keep, "kl")
		out.Keep = 1
		if t.Die.KeepN != nil {
			k, err := bounded(*t.Die.KeepN, 1, out.Count, "the dice kept")
			if err != nil {
				return out, err
			}
			out.Keep = k
		}
		if out.Keep == out.Count {
			out.Keep, out.KeepLow = 0, false
		}
	}
	return out, nil
}
