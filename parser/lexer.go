package parser

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the attribute lexer. Only what the grammar reads is ever emitted:
// whitespace and stray text between attributes are skipped by the lexer itself.
//
// A key's '=' is not a token of its own: a Key is only ever emitted when an '=' follows
// it, so the lexer consumes the '=' with the key. An Eq token would say nothing the Key
// does not, and would cost participle a match and two allocations per attribute.
const (
	tokKey    lexer.TokenType = -(iota + 2) // a run of word characters that an '=' follows (the '=' is consumed with it)
	tokDouble                               // "…" with \" and \\ escapes, or “…”
	tokSingle                               // '…' or ‘…’
	tokBare                                 // an unquoted value: a run of anything but whitespace
)

var attrSymbols = map[string]lexer.TokenType{
	"EOF":    lexer.EOF,
	"Key":    tokKey,
	"Double": tokDouble,
	"Single": tokSingle,
	"Bare":   tokBare,
}

//go:generate go test -run TestLexerJSON -update .

// attrLexer is the lexer.Definition of a tag body.
//
// It is written by hand rather than with participle's regexp lexers for two reasons.
// First, it is total: every input lexes, because text the GM wrote between attributes
// ("spend", a comma, an unclosed quote's tail) is skipped the way Marinara's reader skips
// it, so a lexer error can never sink a tag. Second, it is what makes the 10-tag reply fit
// in its time budget: one pass, no regexp, no backtracking, no allocation.
//
// It is held to participle's stateful rules for the same lexer (attrRules in
// lexer_test.go: the tests check both tokenise the golden and fuzz corpora, and a spray
// of bodies, identically). testdata/lexer.json is those rules exported, the input of
// `participle gen lexer`; go generate rewrites it from attrRules.
//
// A key is only ever a whole run of ASCII word characters followed (across optional
// whitespace) by '='; a value after '=' that would itself be a `key=` is no value at all,
// so `mode= pool="hp"` declares nothing for mode and still reads pool — Marinara's rule.
type attrLexer struct{ symbols map[string]lexer.TokenType }

func (d attrLexer) Symbols() map[string]lexer.TokenType { return d.symbols }

func (d attrLexer) Lex(_ string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString("", string(b))
}

func (attrLexer) LexString(_ string, input string) (lexer.Lexer, error) {
	return &bodyLexer{s: input}, nil
}

// bodyLexer walks one body. afterEq says a key and its '=' were just read: the next
// token, if any, is in value position.
type bodyLexer struct {
	s       string
	i       int
	afterEq bool
}

func (l *bodyLexer) tok(t lexer.TokenType, start, end int) lexer.Token {
	return lexer.Token{Type: t, Value: l.s[start:end], Pos: lexer.Position{Offset: start, Line: 1, Column: start + 1}}
}

// Next is next as participle's lexer.Lexer: it never fails.
func (l *bodyLexer) Next() (lexer.Token, error) { return l.next(), nil }

func (l *bodyLexer) next() lexer.Token {
	s := l.s
	if l.afterEq {
		l.afterEq = false
		l.i = skipSpace(s, l.i)
		if t, ok := l.value(); ok {
			return t
		}
	}
	for l.i < len(s) {
		c := s[l.i]
		if !isWord(c) {
			// Anything that is not the start of a key is text between attributes.
			if c < utf8.RuneSelf {
				l.i++
			} else {
				_, n := utf8.DecodeRuneInString(s[l.i:])
				l.i += n
			}
			continue
		}
		start := l.i
		end := wordEnd(s, start)
		l.i = end
		if at := skipSpace(s, end); at < len(s) && s[at] == '=' {
			l.i = at + 1
			l.afterEq = true
			return l.tok(tokKey, start, end)
		}
	}
	return lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Offset: len(s), Line: 1, Column: len(s) + 1}}
}

// value reads the value at l.i, if there is one. An opening quote with no closing one is
// not a quoted value: the quote is read as an ordinary character of an unquoted run, so a
// GM who forgets to close a quote does not take the rest of the tag with it.
func (l *bodyLexer) value() (lexer.Token, bool) {
	s, at := l.s, l.i
	if at >= len(s) {
		return lexer.Token{}, false
	}
	switch c := s[at]; {
	case c == '"':
		for j := at + 1; j < len(s); j++ {
			if s[j] == '\\' {
				j++
				continue
			}
			if s[j] == '"' {
				l.i = j + 1
				return l.tok(tokDouble, at, j+1), true
			}
		}
	case c == '\'':
		if j := strings.IndexByte(s[at+1:], '\''); j >= 0 {
			l.i = at + 1 + j + 1
			return l.tok(tokSingle, at, l.i), true
		}
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRuneInString(s[at:])
		if class := typographicClass(r); class != 0 {
			for j := at + n; j < len(s); {
				r2, m := utf8.DecodeRuneInString(s[j:])
				if typographicClass(r2) == class {
					l.i = j + m
					t := tokDouble
					if class == '\'' {
						t = tokSingle
					}
					return l.tok(t, at, j+m), true
				}
				j += m
			}
		}
	case isWord(c):
		// A value that is itself `key=` means the key before it was written with no value.
		if e := skipSpace(s, wordEnd(s, at)); e < len(s) && s[e] == '=' {
			return lexer.Token{}, false
		}
	}
	end := at
	for end < len(s) {
		c := s[end]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				break
			}
			end++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[end:])
		if unicode.IsSpace(r) || r == '\uFEFF' {
			break
		}
		end += n
	}
	if end == at {
		return lexer.Token{}, false
	}
	l.i = end
	return l.tok(tokBare, at, end), true
}

// typographicClass says which kind of quote r is: '"' for “ ”, '\” for ‘ ’, 0 for none.
// Either mark of a pair closes either, because a keyboard or a model may write “…“.
func typographicClass(r rune) rune {
	switch r {
	case '\u201C', '\u201D':
		return '"'
	case '\u2018', '\u2019':
		return '\''
	}
	return 0
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// isWord is JavaScript's \w without the u flag: ASCII letters, digits and '_'.
func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func wordEnd(s string, i int) int {
	for i < len(s) && isWord(s[i]) {
		i++
	}
	return i
}

// skipSpace skips whitespace as JavaScript's \s sees it (Unicode spaces and the BOM).
func skipSpace(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) && r != '\uFEFF' {
			return i
		}
		i += n
	}
	return i
}
