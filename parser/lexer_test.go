package parser

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

var update = flag.Bool("update", false, "rewrite testdata/lexer.json from attrRules")

// space is JavaScript's \s as a character class: unicode.IsSpace and the BOM, spelled out
// so that it does not move with the Unicode tables.
const space = `\t\n\v\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

// attrRules is the attribute lexer (bodyLexer) as participle stateful rules: the
// reflective definition it is held to. Root is text between attributes, where only a
// `key=` is a token; Value is the position just after one. Rules whose names start in
// lower case are elided. A Key token here includes its '=' (and any space before it);
// bodyLexer's Key is the key alone, at the same offset.
var attrRules = lexer.Rules{
	"Root": {
		{Name: "Key", Pattern: `\w+[` + space + `]*=`, Action: lexer.Push("Value")},
		{Name: "word", Pattern: `\w+`},
		{Name: "other", Pattern: `\W+`},
	},
	"Value": {
		{Name: "space", Pattern: `[` + space + `]+`},
		{Name: "Key", Pattern: `\w+[` + space + `]*=`}, // a value that is itself key= is no value
		{Name: "Double", Pattern: `(?s)"(?:[^"\\]|\\.)*"|[“”][^“”]*[“”]`, Action: lexer.Pop()},
		{Name: "Single", Pattern: `'[^']*'|[‘’][^‘’]*[‘’]`, Action: lexer.Pop()},
		{Name: "Bare", Pattern: `[^` + space + `]+`, Action: lexer.Pop()},
	},
}

var attrStateful = lexer.MustStateful(attrRules)

// bodyParser is the body grammar over bodyLexer, built once for the tests that hold
// lexBody to it (the hot path does not run it: see body).
var bodyParser = participle.MustBuild[body](participle.Lexer(attrLexer{attrSymbols}))

// lexerCorpus is every body the tests know: the goldens' and the fuzz seeds' tag bodies,
// each whole input read as one body too, and the benchmark's narration.
func lexerCorpus(t *testing.T) []string {
	t.Helper()
	inputs := []string{narration(true)}
	for _, g := range goldens {
		inputs = append(inputs, g.in)
	}
	files, err := filepath.Glob("testdata/fuzz/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if q, ok := strings.CutPrefix(line, "string("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				inputs = append(inputs, s)
			}
		}
	}
	if len(inputs) < 300 {
		t.Fatalf("only %d inputs in the lexer corpus", len(inputs))
	}
	var bodies []string
	for _, in := range inputs {
		bodies = append(bodies, in)
		for _, s := range findSpans(in, nil) {
			bodies = append(bodies, in[s.bodyStart:s.end-1])
		}
	}
	return bodies
}

// describeTokens spells tokens as name@offset:value, a Key by its key alone; names come
// from symbols, so two definitions that number their types differently compare equal.
func describeTokens(toks []lexer.Token, symbols map[string]lexer.TokenType) string {
	names := make(map[lexer.TokenType]string, len(symbols))
	for name, typ := range symbols {
		names[typ] = name
	}
	var b strings.Builder
	for _, t := range toks {
		v := t.Value
		if names[t.Type] == "Key" {
			v = v[:wordEnd(v, 0)]
		}
		b.WriteString(names[t.Type] + "@" + strconv.Itoa(t.Pos.Offset) + ":" + strconv.Quote(v) + " ")
	}
	return b.String()
}

func statefulTokens(t testing.TB, body string) []lexer.Token {
	l, err := attrStateful.LexString("", body)
	if err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	toks, err := lexer.ConsumeAll(l)
	if err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	return toks[:len(toks)-1] // without EOF
}

func checkSameTokens(t testing.TB, body string) {
	t.Helper()
	want := describeTokens(statefulTokens(t, body), attrStateful.Symbols())
	if got := describeTokens(lexBody(body, nil), attrSymbols); got != want {
		t.Fatalf("body %q\nbodyLexer: %s\nstateful:  %s", body, got, want)
	}
}

// TestLexerMatchesStatefulRules: bodyLexer tokenises every body of the corpus, and a
// deterministic spray of bodies made of the characters its rules turn on, exactly as the
// stateful rules do.
func TestLexerMatchesStatefulRules(t *testing.T) {
	for name := range attrSymbols {
		if _, ok := attrStateful.Symbols()[name]; !ok {
			t.Fatalf("the rules have no %s token", name)
		}
	}
	for _, body := range lexerCorpus(t) {
		checkSameTokens(t, body)
	}
	alphabet := []string{"a", "Z", "7", "_", "=", " ", "\t", "\n", "\"", "'", `\`, "“", "”", "‘", "’", "\u00a0", "\ufeff", "\u0085", "\u3000", "-", ",", "é", "\xe2", "\x80", "k=", "b =", "\\\n", "\\\"", "=\""}
	r := rand.New(rand.NewPCG(19, 5))
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(24); n > 0; n-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		checkSameTokens(t, b.String())
	}
}

// FuzzLexerRules: bodyLexer and the stateful rules agree on any body.
func FuzzLexerRules(f *testing.F) {
	for _, g := range goldens {
		f.Add(g.in)
	}
	f.Fuzz(func(t *testing.T, body string) { checkSameTokens(t, body) })
}

// TestGrammarMatchesLexBody: participle's grammar, run over bodyLexer, matches exactly
// the tokens lexBody reads, so reading a body without running the grammar reads what the
// grammar says.
func TestGrammarMatchesLexBody(t *testing.T) {
	for _, body := range lexerCorpus(t) {
		b, err := bodyParser.ParseString("", body)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if got, want := describeTokens(lexBody(body, nil), attrSymbols), describeTokens(b.Tokens, attrSymbols); got != want {
			t.Fatalf("body %q\nlexBody: %s\ngrammar: %s", body, got, want)
		}
	}
}

// TestLexerJSON: testdata/lexer.json is attrRules as participle exports them, the input
// of `participle gen lexer`. Regenerate with go generate (go test -run TestLexerJSON -update).
func TestLexerJSON(t *testing.T) {
	got, err := json.MarshalIndent(attrStateful, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const path = "testdata/lexer.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go generate ./parser", path)
	}
}
