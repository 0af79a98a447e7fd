package parser

import "github.com/alecthomas/participle/v2/lexer"

// body is the grammar of a tag body: attributes, in the order written.
//
//	body      = attribute* ;
//	attribute = Key value? ;          (a Key token is a key with its "=")
//	value     = Double | Single | Bare ;
//
// The lexer has already dropped whitespace and the text between attributes, so the
// grammar cannot fail on anything a GM writes; whether the attributes say a command is
// decided afterwards, per op, so a body that does not say one becomes a malformed request
// rather than an error.
//
// The grammar is flat and captures nothing: participle allocates per node it matches
// and per value it captures, and a struct per attribute, a capture of the keys or an Eq
// token of its own each made it allocate more per tag. Even so, running it costs two or
// three allocations per token (every matched token is boxed into a fresh
// []reflect.Value, every repetition branches a parse context), about 55 a tag, which the
// 10-tag reply's budget of 60 allocations in all cannot carry. So the hot path does not
// run it: lexBody reads the tokens the grammar would match, and TestGrammarMatchesLexBody
// holds the two to the same tokens over the golden and fuzz corpora, with the parser
// built once for the tests.
type body struct {
	// Tokens are every token the body matched, in order; an attribute is a Key and the
	// value token if there is one, whose type says how it was quoted.
	Tokens []lexer.Token
	// Attributes carries the grammar; it captures nothing (see above).
	Attributes struct{} `parser:"( Key ( Double | Single | Bare )? )*"`
}

// lexBody appends the tokens of one body to buf: exactly the tokens the body grammar
// matches, because the grammar accepts every token sequence the lexer can produce (a
// value token is only ever emitted right after a Key). Its attributes are read from them
// (readAttrs), which carry each value's quoting and offset. buf may live on the caller's
// stack: a body of up to its capacity in tokens costs no allocation.
func lexBody(s string, buf []lexer.Token) []lexer.Token {
	l := bodyLexer{s: s}
	for {
		t := l.next()
		if t.Type == lexer.EOF {
			return buf
		}
		buf = append(buf, t)
	}
}
