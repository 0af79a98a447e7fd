package parser

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"sheetkeeper/refusal"
)

// The bounds of a formula: a rule's formula is short text a system's author wrote, so a
// longer or deeper one is refused rather than read, and reading or working one out
// costs a bounded time and stack whatever it says.
const (
	MaxFormula      = 512 // characters
	MaxFormulaDepth = 32  // nesting: brackets, calls, signs and powers
)

// Formula is a rule's formula as read: Pack Rat's language (its rules' "to" and "by"),
// numbers and addresses ("local.heat", "item.charges"), + - * / % ^, brackets, and the
// functions min max clamp abs round floor ceil sqrt. It is read once and worked out as
// often as wanted; nothing in it is ever run as code.
type Formula struct {
	root  node
	addrs []string
}

// node is one piece of a read formula, worked out against the addresses' values.
type node interface {
	eval(lookup func(string) (float64, bool)) (float64, error)
}

// formulaAST is the grammar, one level of precedence a type, loosest first (Pack Rat's):
//
//	sum     = product ( ("+" | "-") product )* ;      left to right
//	product = unary ( ("*" | "/" | "%") unary )* ;    left to right
//	unary   = ("-" | "+") unary | power ;
//	power   = primary ( "^" unary )? ;                right to left: 2^3^2 is 2^9
//	primary = Number | Ident "(" args? ")" | Ident | "(" sum ")" ;
//
// So a sign binds looser than ^ (-2^2 is -4) and an exponent may carry a sign (2^-1).
type formulaAST struct {
	Head *productAST `parser:"@@"`
	Tail []*sumOpAST `parser:"@@*"`
}

type sumOpAST struct {
	Pos  lexer.Position
	Op   string      `parser:"@('+' | '-')"`
	Term *productAST `parser:"@@"`
}

type productAST struct {
	Head *unaryAST       `parser:"@@"`
	Tail []*productOpAST `parser:"@@*"`
}

type productOpAST struct {
	Pos  lexer.Position
	Op   string    `parser:"@('*' | '/' | '%')"`
	Term *unaryAST `parser:"@@"`
}

type unaryAST struct {
	Pos   lexer.Position
	Sign  string    `parser:"( @('-' | '+')"`
	Inner *unaryAST `parser:"  @@ )"`
	Power *powerAST `parser:"| @@"`
}

type powerAST struct {
	Pos  lexer.Position
	Base *primaryAST `parser:"@@"`
	Exp  *unaryAST   `parser:"( '^' @@ )?"`
}

type primaryAST struct {
	Pos    lexer.Position
	Number *string     `parser:"  @Number"`
	Call   *callAST    `parser:"| @@"`
	Addr   *string     `parser:"| @Ident"`
	Group  *formulaAST `parser:"| '(' @@ ')'"`
}

type callAST struct {
	Name string        `parser:"@Ident '('"`
	Args []*formulaAST `parser:"( @@ ( ',' @@ )* )? ')'"`
}

// formulaLexer is Pack Rat's tokens: a number is digits with an optional fraction (no
// exponent, no leading dot), an address a dotted run of word characters.
var formulaLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Number", Pattern: `[0-9]+(\.[0-9]+)?`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*`},
	{Name: "Punct", Pattern: `[-+*/%^(),]`},
	{Name: "Space", Pattern: `[ \t\r\n]+`},
})

// formulaParser is built once and shared: participle parsers are safe for concurrent
// use. A call and an address both start with an Ident, so it looks two tokens ahead.
var formulaParser = participle.MustBuild[formulaAST](participle.Lexer(formulaLexer), participle.Elide("Space"), participle.UseLookahead(2))

// ParseFormula reads a formula. Text that is not one is refused malformed, saying what
// is wrong and at which character; a formula over MaxFormula characters or nested
// deeper than MaxFormulaDepth is refused malformed before it is read any further.
func ParseFormula(s string) (Formula, error) {
	if strings.TrimSpace(s) == "" {
		return Formula{}, refusal.New(refusal.Malformed, "a formula is empty")
	}
	if len(s) > MaxFormula {
		return Formula{}, refusal.New(refusal.Malformed, "a formula is at most %d characters; this one is %d", MaxFormula, len(s))
	}
	if err := bracketDepth(s); err != nil {
		return Formula{}, err
	}
	ast, err := formulaParser.ParseString("", s)
	if err != nil {
		return Formula{}, formulaSyntax(s, err)
	}
	b := builder{}
	root, err := b.sum(ast, 0)
	if err != nil {
		return Formula{}, err
	}
	return Formula{root: root, addrs: b.addrs}, nil
}

// bracketDepth refuses brackets nested past MaxFormulaDepth before participle reads
// them, so the grammar's recursion is bounded too.
func bracketDepth(s string) error {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			if d++; d > MaxFormulaDepth {
				return refusal.New(refusal.Malformed, "a formula nests at most %d deep; at character %d it is deeper", MaxFormulaDepth, i+1)
			}
		case ')':
			d--
		}
	}
	return nil
}

// formulaSyntax turns participle's error into a refusal that says where.
func formulaSyntax(s string, err error) error {
	var pe participle.Error
	if errors.As(err, &pe) {
		msg := pe.Message()
		if i := strings.Index(msg, " (expected"); i >= 0 {
			msg = msg[:i] // participle names the grammar's Go types, which say nothing to an author
		}
		msg = strings.Replace(msg, `unexpected token "<EOF>"`, "it ends too soon", 1)
		msg = strings.TrimPrefix(msg, "lexer: ")
		return refusal.New(refusal.Malformed, "the formula %q does not read at character %d: %s", CapUTF16(s, 60), pe.Position().Offset+1, CapUTF16(msg, 80))
	}
	return refusal.New(refusal.Malformed, "the formula %q does not read: %v", CapUTF16(s, 60), err)
}

// builder turns the grammar's tree into nodes, counting depth and gathering addresses.
type builder struct{ addrs []string }

func (b *builder) deeper(depth int, col int) error {
	if depth > MaxFormulaDepth {
		return refusal.New(refusal.Malformed, "a formula nests at most %d deep; at character %d it is deeper", MaxFormulaDepth, col)
	}
	return nil
}

func (b *builder) sum(a *formulaAST, depth int) (node, error) {
	left, err := b.product(a.Head, depth)
	if err != nil {
		return nil, err
	}
	for _, t := range a.Tail {
		right, err := b.product(t.Term, depth)
		if err != nil {
			return nil, err
		}
		left = binary{op: t.Op[0], a: left, b: right}
	}
	return left, nil
}

func (b *builder) product(a *productAST, depth int) (node, error) {
	left, err := b.unary(a.Head, depth)
	if err != nil {
		return nil, err
	}
	for _, t := range a.Tail {
		right, err := b.unary(t.Term, depth)
		if err != nil {
			return nil, err
		}
		left = binary{op: t.Op[0], a: left, b: right}
	}
	return left, nil
}

func (b *builder) unary(a *unaryAST, depth int) (node, error) {
	if a.Power != nil {
		return b.power(a.Power, depth)
	}
	if err := b.deeper(depth+1, a.Pos.Offset+1); err != nil {
		return nil, err
	}
	inner, err := b.unary(a.Inner, depth+1)
	if err != nil || a.Sign == "+" {
		return inner, err
	}
	return negate{inner}, nil
}

func (b *builder) power(a *powerAST, depth int) (node, error) {
	base, err := b.primary(a.Base, depth)
	if err != nil || a.Exp == nil {
		return base, err
	}
	if err := b.deeper(depth+1, a.Pos.Offset+1); err != nil {
		return nil, err
	}
	exp, err := b.unary(a.Exp, depth+1)
	if err != nil {
		return nil, err
	}
	return binary{op: '^', a: base, b: exp}, nil
}

func (b *builder) primary(a *primaryAST, depth int) (node, error) {
	switch {
	case a.Number != nil:
		n, err := strconv.ParseFloat(*a.Number, 64)
		if err != nil || math.IsInf(n, 0) {
			return nil, refusal.New(refusal.Malformed, "%.20q at character %d is not a number a formula can hold", *a.Number, a.Pos.Offset+1)
		}
		return number(n), nil
	case a.Addr != nil:
		if !slices.Contains(b.addrs, *a.Addr) {
			b.addrs = append(b.addrs, *a.Addr)
		}
		return address(*a.Addr), nil
	case a.Group != nil:
		if err := b.deeper(depth+1, a.Pos.Offset+1); err != nil {
			return nil, err
		}
		return b.sum(a.Group, depth+1)
	}
	return b.call(a.Call, a.Pos.Offset+1, depth)
}

func (b *builder) call(a *callAST, col, depth int) (node, error) {
	f, ok := formulaFuncs[a.Name]
	if !ok {
		return nil, refusal.New(refusal.Malformed, "a formula has no function %.40q (at character %d); it has min max clamp abs round floor ceil sqrt", a.Name, col)
	}
	if len(a.Args) < f.min || (f.max > 0 && len(a.Args) > f.max) {
		return nil, refusal.New(refusal.Malformed, "%s (at character %d) takes %s", a.Name, col, f.arity)
	}
	if err := b.deeper(depth+1, col); err != nil {
		return nil, err
	}
	c := call{name: a.Name, f: f.f, args: make([]node, len(a.Args))}
	for i, arg := range a.Args {
		n, err := b.sum(arg, depth+1)
		if err != nil {
			return nil, err
		}
		c.args[i] = n
	}
	return c, nil
}

// Addresses are the addresses the formula reads, each once, in the order written.
func (f Formula) Addresses() []string { return slices.Clone(f.addrs) }

// Eval works the formula out with lookup giving each address's number. An address
// lookup does not know is an error naming it; so is a result that is no number (a
// division by zero, the square root of a negative): Pack Rat's rule reads those as "no
// value", never as infinity.
func (f Formula) Eval(lookup func(address string) (float64, bool)) (float64, error) {
	if f.root == nil {
		return 0, refusal.New(refusal.Malformed, "an empty formula has no value")
	}
	return f.root.eval(lookup)
}

// EvalFormula reads formula and works it out: the shape of inventory.Eval, so a
// campaign's rules run with this language (Campaign.NewRunner(parser.EvalFormula))
// while inventory needs no import of the parser.
func EvalFormula(formula string, lookup func(address string) (float64, bool)) (float64, error) {
	f, err := ParseFormula(formula)
	if err != nil {
		return 0, err
	}
	return f.Eval(lookup)
}

type number float64

func (n number) eval(func(string) (float64, bool)) (float64, error) { return float64(n), nil }

type address string

func (a address) eval(lookup func(string) (float64, bool)) (float64, error) {
	v, ok := lookup(string(a))
	if !ok {
		return 0, refusal.New(refusal.UnknownValue, "the formula reads %q, which has no value here", string(a))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return finite(v, "the value of "+string(a))
	}
	return v, nil
}

type negate struct{ a node }

func (n negate) eval(lookup func(string) (float64, bool)) (float64, error) {
	v, err := n.a.eval(lookup)
	return -v, err
}

type binary struct {
	op   byte
	a, b node
}

func (n binary) eval(lookup func(string) (float64, bool)) (float64, error) {
	x, err := n.a.eval(lookup)
	if err != nil {
		return 0, err
	}
	y, err := n.b.eval(lookup)
	if err != nil {
		return 0, err
	}
	var v float64
	switch n.op {
	case '+':
		v = x + y
	case '-':
		v = x - y
	case '*':
		v = x * y
	case '/':
		if y == 0 {
			return 0, refusal.New(refusal.BadAmount, "the formula divides %g by zero", x)
		}
		v = x / y
	case '%':
		if y == 0 {
			return 0, refusal.New(refusal.BadAmount, "the formula takes %g modulo zero", x)
		}
		v = math.Mod(x, y) // the sign of x, as JavaScript's %: -7 % 3 is -1
	case '^':
		v = math.Pow(x, y)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) { // the words only when they are needed
		return finite(v, fmt.Sprintf("%g %c %g", x, n.op, y))
	}
	return v, nil
}

type call struct {
	name string
	f    func([]float64) float64
	args []node
}

func (n call) eval(lookup func(string) (float64, bool)) (float64, error) {
	var buf [4]float64
	xs := buf[:0]
	for _, a := range n.args {
		v, err := a.eval(lookup)
		if err != nil {
			return 0, err
		}
		xs = append(xs, v)
	}
	v := n.f(xs)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return finite(v, n.name+"(…)")
	}
	return v, nil
}

// finite refuses a value that is not a finite number, saying what made it.
func finite(v float64, what string) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, refusal.New(refusal.BadAmount, "%s is not a finite number", what)
	}
	return v, nil
}

// formulaFunc is one function: its arguments' count (max 0: any number from min).
type formulaFunc struct {
	min, max int
	arity    string
	f        func([]float64) float64
}

// formulaFuncs are the functions a formula may call, Pack Rat's (JavaScript's Math).
var formulaFuncs = map[string]formulaFunc{
	"min":   {1, 0, "one or more numbers", func(x []float64) float64 { return slices.Min(x) }},
	"max":   {1, 0, "one or more numbers", func(x []float64) float64 { return slices.Max(x) }},
	"clamp": {3, 3, "three numbers: clamp(x, lo, hi)", func(x []float64) float64 { return math.Max(x[1], math.Min(x[2], x[0])) }},
	"abs":   {1, 1, "one number", func(x []float64) float64 { return math.Abs(x[0]) }},
	"round": {1, 1, "one number", func(x []float64) float64 { return roundHalfUp(x[0]) }},
	"floor": {1, 1, "one number", func(x []float64) float64 { return math.Floor(x[0]) }},
	"ceil":  {1, 1, "one number", func(x []float64) float64 { return math.Ceil(x[0]) }},
	"sqrt":  {1, 1, "one number", func(x []float64) float64 { return math.Sqrt(x[0]) }},
}

// roundHalfUp is JavaScript's Math.round: a half rounds up, towards +∞ (round(-2.5) is
// -2), where Go's math.Round rounds it away from zero.
func roundHalfUp(x float64) float64 {
	f := math.Floor(x)
	if x-f >= 0.5 {
		return f + 1
	}
	return f
}
