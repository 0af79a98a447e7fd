package ruleset

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldName is a name as everything that finds a thing by a name someone typed compares
// it: lowercased, trimmed, and every run of white space (a byte-order mark counts, since
// pasted text carries them) made one space. Both sides go through it — the name in the
// ruleset or on the card and the name the user wrote — so "Magic  missile " finds
// "Magic Missile". who= (SPEC 3.2), catalog and entry names, row names, command options
// that name a field or a list all use it. It lives here, the lowest package that holds
// names, so the engine and the bot can import it without a cycle.
func FoldName(s string) string {
	if folded(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\uFEFF' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// folded reports whether s is ASCII already as FoldName leaves it, so the common case
// (a lowercase id) costs no allocation.
func folded(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', '\t' <= c && c <= '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}
