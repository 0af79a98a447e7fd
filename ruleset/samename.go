package ruleset

import "unicode/utf8"

// SameName reports whether FoldName(a) == FoldName(b): the comparison every lookup of a
// name someone typed makes. It compares ASCII names byte by byte as FoldName would leave
// them, without building either folded string, since a lookup folds every candidate's
// name ("Mira" is not folded already, so FoldName copies it each time); anything else it
// leaves to FoldName.
func SameName(a, b string) bool {
	if !plainASCII(a) || !plainASCII(b) {
		return FoldName(a) == FoldName(b)
	}
	i, j := skipSpaces(a, 0), skipSpaces(b, 0)
	for {
		ca, ni := foldedAt(a, i)
		cb, nj := foldedAt(b, j)
		if ca != cb {
			return false
		}
		if ca == 0 {
			return true
		}
		i, j = ni, nj
	}
}

// plainASCII reports whether s is ASCII without a NUL, the names foldedAt reads.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] == 0 {
			return false
		}
	}
	return true
}

// foldedAt is the byte of FoldName(s) that s[i:] starts with (i past any white space
// before it) and where the next starts: 0 at the end (trailing white space included),
// one space for a run of white space between two words. s is plainASCII.
func foldedAt(s string, i int) (c byte, next int) {
	if i >= len(s) {
		return 0, i
	}
	switch c := s[i]; {
	case asciiSpace(c):
		if k := skipSpaces(s, i); k < len(s) {
			return ' ', k
		}
		return 0, len(s)
	case 'A' <= c && c <= 'Z':
		return c + 'a' - 'A', i + 1
	default:
		return c, i + 1
	}
}

// skipSpaces is where the run of white space at s[i:] ends.
func skipSpaces(s string, i int) int {
	for i < len(s) && asciiSpace(s[i]) {
		i++
	}
	return i
}

// asciiSpace is unicode.IsSpace for an ASCII byte.
func asciiSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }
