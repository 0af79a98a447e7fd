package parser

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sheetkeeper/refusal"
)

// formulaValues are the addresses the golden formulas read.
var formulaValues = map[string]float64{
	"local.heat":           35,
	"item.charges":         3,
	"item.state.cursed":    1,
	"char.stat.str":        14,
	"global.day":           2,
	"char.local.fatigue_2": 0.5,
}

func lookupValues(a string) (float64, bool) { v, ok := formulaValues[a]; return v, ok }

// formulaGoldens are formulas and what they come to, Pack Rat's way: JavaScript's
// precedence (^ over signs over * / % over + -), ^ right to left, % with the sign of
// the left side, Math.round's halves upward.
var formulaGoldens = []struct {
	in   string
	want float64
}{
	{"0", 0},
	{"42", 42},
	{"3.25", 3.25},
	{"  7  ", 7},
	{"local.heat / 10", 3.5},
	{"item.charges - 1", 2},
	{"char.stat.str*2+item.charges", 31},
	{"char.local.fatigue_2 + global.day", 2.5},
	{"item.state.cursed * 10", 10},
	// precedence
	{"1 + 2 * 3", 7},
	{"(1 + 2) * 3", 9},
	{"10 - 4 - 3", 3},
	{"100 / 10 / 5", 2},
	{"2 * 3 % 4", 2},
	{"7 - 2 * 3 ^ 2", -11},
	{"2 * 3 ^ 2", 18},
	// ^ is right to left, and binds tighter than a sign, which its exponent may carry
	{"2 ^ 3 ^ 2", 512},
	{"(2 ^ 3) ^ 2", 64},
	{"-2 ^ 2", -4},
	{"(-2) ^ 2", 4},
	{"2 ^ -1", 0.5},
	{"2 ^ -1 ^ 2", 0.5},
	// signs
	{"-3", -3},
	{"--3", 3},
	{"+3", 3},
	{"-+-3", 3},
	{"4 - -3", 7},
	{"4 * -3", -12},
	// % takes the sign of the left side (JavaScript's remainder)
	{"7 % 3", 1},
	{"-7 % 3", -1},
	{"7 % -3", 1},
	{"5.5 % 2", 1.5},
	// every function
	{"min(3, 1, 2)", 1},
	{"min(5)", 5},
	{"max(3, 1, 2)", 3},
	{"max(-1, -5)", -1},
	{"clamp(15, 0, 10)", 10},
	{"clamp(-2, 0, 10)", 0},
	{"clamp(4, 0, 10)", 4},
	{"abs(-3.5)", 3.5},
	{"abs(2)", 2},
	{"round(2.5)", 3},
	{"round(-2.5)", -2},
	{"round(2.4)", 2},
	{"round(-2.6)", -3},
	{"round(0.49999999999999994)", 0},
	{"floor(-1.5)", -2},
	{"floor(1.9)", 1},
	{"ceil(1.1)", 2},
	{"ceil(-1.9)", -1},
	{"sqrt(16)", 4},
	{"sqrt(0)", 0},
	{"max(local.heat / 10, min(item.charges, 2)) + floor(sqrt(char.stat.str))", 6.5},
	{"clamp(local.heat - 30, 0, round(item.charges / 2))", 2},
}

func TestFormulaGoldens(t *testing.T) {
	for _, g := range formulaGoldens {
		f, err := ParseFormula(g.in)
		if err != nil {
			t.Errorf("ParseFormula(%q): %v", g.in, err)
			continue
		}
		got, err := f.Eval(lookupValues)
		if err != nil || math.Abs(got-g.want) > 1e-12 {
			t.Errorf("%q = %v, %v; want %v", g.in, got, err, g.want)
		}
		if v, err := EvalFormula(g.in, lookupValues); err != nil || v != got {
			t.Errorf("EvalFormula(%q) = %v, %v; want %v as Eval", g.in, v, err, got)
		}
	}
}

func TestFormulaAddresses(t *testing.T) {
	f, err := ParseFormula("local.heat + max(item.charges, local.heat) * global.day")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Addresses(), []string{"local.heat", "item.charges", "global.day"}; !slices.Equal(got, want) {
		t.Errorf("Addresses() = %q, want %q", got, want)
	}
	f.Addresses()[0] = "changed"
	if f.Addresses()[0] != "local.heat" {
		t.Error("Addresses() hands out the formula's own slice")
	}
	if f, _ := ParseFormula("1 + 2"); len(f.Addresses()) != 0 {
		t.Errorf("a formula of numbers reads %q", f.Addresses())
	}
}

// TestFormulaRefused: text that is no formula is refused malformed, saying where; a
// formula past its bounds is refused before it is read further.
func TestFormulaRefused(t *testing.T) {
	for _, c := range []struct{ in, detail string }{
		{"", "empty"},
		{"   ", "empty"},
		{"1 +", "character 4: it ends too soon"},
		{"1 2", "character 3"},
		{"1 +\n2 2", "character 7"},
		{"(1 + 2", "character 7"},
		{"1 + 2)", "character 6"},
		{"()", "character 2"},
		{"1..2", "character 2"},
		{".5", "character 1"},
		{"1e5", "character 2"},
		{"local.heat ** 2", "character 13"},
		{"2 $ 3", "character 3"},
		{"foo(1)", `no function "foo"`},
		{"local.heat(1)", `no function "local.heat"`},
		{"min()", "min (at character 1) takes one or more"},
		{"clamp(1, 2)", "clamp (at character 1) takes three"},
		{"abs(1, 2)", "abs (at character 1) takes one number"},
		{"sqrt", ""}, // an address, not a call: refused when it is worked out, below
		{strings.Repeat("1+", MaxFormula/2) + "1", "at most 512 characters"},
		{strings.Repeat("(", MaxFormulaDepth+1) + "1" + strings.Repeat(")", MaxFormulaDepth+1), "nests at most 32 deep"},
		{strings.Repeat("-", MaxFormulaDepth+1) + "1", "nests at most 32 deep"},
		{"2" + strings.Repeat("^2", MaxFormulaDepth+1), "nests at most 32 deep"},
		{strings.Repeat("abs(", MaxFormulaDepth+1) + "1" + strings.Repeat(")", MaxFormulaDepth+1), "nests at most 32 deep"},
		{strings.Repeat("9", 400), "not a number a formula can hold"},
	} {
		_, err := ParseFormula(c.in)
		if c.in == "sqrt" {
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
			}
			continue
		}
		if refusal.Of(err) != refusal.Malformed || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("ParseFormula(%.40q) = %v; want malformed saying %q", c.in, err, c.detail)
		}
	}
	// Just inside the bounds reads.
	for _, in := range []string{
		strings.Repeat("1+", MaxFormula/2-1) + "1",
		strings.Repeat("(", MaxFormulaDepth) + "1" + strings.Repeat(")", MaxFormulaDepth),
		strings.Repeat("-", MaxFormulaDepth) + "1",
	} {
		if _, err := ParseFormula(in); err != nil {
			t.Errorf("ParseFormula(%.40q…) within bounds: %v", in, err)
		}
	}
}

// TestFormulaEvalRefused: an address with no value is an error naming it; a result
// that is no finite number is refused, never handed on as NaN or infinity.
func TestFormulaEvalRefused(t *testing.T) {
	for _, c := range []struct {
		in     string
		reason refusal.Reason
		detail string
	}{
		{"local.cold + 1", refusal.UnknownValue, `"local.cold"`},
		{"sqrt", refusal.UnknownValue, `"sqrt"`},
		{"1 / 0", refusal.BadAmount, "by zero"},
		{"local.heat / (item.charges - 3)", refusal.BadAmount, "by zero"},
		{"5 % 0", refusal.BadAmount, "modulo zero"},
		{"sqrt(-1)", refusal.BadAmount, "not a finite number"},
		{"10 ^ 400", refusal.BadAmount, "not a finite number"},
		{"(-8) ^ 0.5", refusal.BadAmount, "not a finite number"},
		{"local.inf", refusal.BadAmount, "local.inf"},
	} {
		f, err := ParseFormula(c.in)
		if err != nil {
			t.Errorf("ParseFormula(%q): %v", c.in, err)
			continue
		}
		_, err = f.Eval(func(a string) (float64, bool) {
			if a == "local.inf" {
				return math.Inf(1), true
			}
			return lookupValues(a)
		})
		if refusal.Of(err) != c.reason || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("%q: %v; want %s saying %q", c.in, err, c.reason, c.detail)
		}
	}
	if _, err := (Formula{}).Eval(lookupValues); refusal.Of(err) != refusal.Malformed {
		t.Errorf("the zero Formula: %v", err)
	}
}

// FuzzFormula: any text is read or refused malformed, never panics; a formula that
// reads works out to a finite number or a refusal, and every address it reads is one
// Addresses lists.
func FuzzFormula(f *testing.F) {
	for _, g := range formulaGoldens {
		f.Add(g.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, err := ParseFormula(s)
		if err != nil {
			if refusal.Of(err) != refusal.Malformed {
				t.Fatalf("ParseFormula(%q): %v is not a malformed refusal", s, err)
			}
			return
		}
		listed := fm.Addresses()
		v, err := fm.Eval(func(a string) (float64, bool) {
			if !slices.Contains(listed, a) {
				t.Fatalf("%q reads %q, which Addresses %q leaves out", s, a, listed)
			}
			return 2, true
		})
		if err != nil {
			if refusal.Of(err) == "" {
				t.Fatalf("%q: %v is not a refusal", s, err)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%q = %v", s, v)
		}
	})
}

// BenchmarkFormula: reading and working out a rule's formula, as the runner does on
// every tick it is asked.
func BenchmarkFormula(b *testing.B) {
	const s = "clamp(local.heat - 30, 0, round(item.charges / 2)) + max(local.heat / 10, 1) ^ 2"
	for b.Loop() {
		if _, err := EvalFormula(s, lookupValues); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFormulasCache: the cache answers as EvalFormula does, refusals too, and stays
// within its bound however many formulas it is handed.
func TestFormulasCache(t *testing.T) {
	var fs Formulas
	for range 2 {
		for _, g := range formulaGoldens {
			if v, err := fs.Eval(g.in, lookupValues); err != nil || math.Abs(v-g.want) > 1e-12 {
				t.Errorf("%q = %v, %v; want %v", g.in, v, err, g.want)
			}
		}
		if _, err := fs.Eval("1 +", lookupValues); refusal.Of(err) != refusal.Malformed {
			t.Errorf("a refusal read from the cache: %v", err)
		}
	}
	for i := range 3 * maxCachedFormulas {
		if v, err := fs.Eval(strconv.Itoa(i), lookupValues); err != nil || v != float64(i) {
			t.Fatalf("%d = %v, %v", i, v, err)
		}
	}
	if n := len(fs.read); n > maxCachedFormulas {
		t.Errorf("the cache holds %d formulas, past its bound of %d", n, maxCachedFormulas)
	}
}

func BenchmarkFormulasCached(b *testing.B) {
	const s = "clamp(local.heat - 30, 0, round(item.charges / 2)) + max(local.heat / 10, 1) ^ 2"
	var fs Formulas
	for b.Loop() {
		if _, err := fs.Eval(s, lookupValues); err != nil {
			b.Fatal(err)
		}
	}
}
