package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

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
// The grammar is flat and captures nothing, on purpose: participle allocates per node it
// matches and per value it captures (reflection, deferred field sets), and this is the
// hot path of every GM reply. A struct per attribute made it allocate about twice as
// much per tag; a capture of the keys, an Eq token of its own and a Keys field cost
// another third, which the 10-tag reply's 100 µs budget could not spare. The attributes
// are read from the tokens the grammar matched (Tokens), which carry each value's quoting
// and offset.
type body struct {
	// Tokens are every token the body matched, in order; an attribute is a Key and the
	// value token if there is one, whose type says how it was quoted.
	Tokens []lexer.Token
	// Attributes carries the grammar; it captures nothing (see above).
	Attributes struct{} `parser:"( Key ( Double | Single | Bare )? )*"`
}

// bodyParser is built once: a participle parser is safe for concurrent use, and building
// one costs far more than using it.
var bodyParser = participle.MustBuild[body](participle.Lexer(attrLexer{attrSymbols}))

// parseBody reads the attributes of one body. The grammar accepts every token sequence
// the lexer can produce, so an error here is an internal fault; it is still returned, and
// the caller turns it into a malformed request rather than losing the tag.
func parseBody(s string) ([]lexer.Token, error) {
	b, err := bodyParser.ParseString("", s)
	if err != nil {
		return nil, err
	}
	return b.Tokens, nil
}
