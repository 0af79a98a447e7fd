package strictjson

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with a document, located by its JSON path
// (`catalogs[0].entries[3].rows[1].values.usess`).
type Problem struct {
	Path string
	Msg  string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// Problems collects every problem of a document, so an author sees all of them at once
// instead of fixing one, re-running and meeting the next. It is an error when not empty.
type Problems []Problem

// The messages of the problems that leave everything else decoded: a key nothing reads,
// or a key given twice (the last one stands).
const (
	MsgUnknownKey   = "unknown key"
	MsgDuplicateKey = "duplicate key"
)

// Complete reports whether the document was decoded in full despite ps: every problem is
// an unknown or duplicate key. Its meaning can then still be checked, so an author sees
// a typo in a key and a dangling reference at once, not one after the other.
func (ps Problems) Complete() bool {
	for _, p := range ps {
		if p.Msg != MsgUnknownKey && p.Msg != MsgDuplicateKey {
			return false
		}
	}
	return true
}

// Add records a problem at path.
func (ps *Problems) Add(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Err returns ps as an error, or nil when there is no problem.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Annotate inserts note after prefix in the path of every problem under prefix, so
// `catalogs[0].entries[3]` reads `catalogs[0].entries[3] (knacks/last-ember)`: a path
// alone is hard to find in a 2,000-entry catalog, an entry id is not.
func (ps Problems) Annotate(prefix, note string) {
	for i := range ps {
		p := ps[i].Path
		if p == prefix || strings.HasPrefix(p, prefix+".") || strings.HasPrefix(p, prefix+"[") {
			ps[i].Path = prefix + " (" + note + ")" + p[len(prefix):]
		}
	}
}

// Sort orders problems by path, keeping the order of problems at one path. Documents
// are decoded first and checked for meaning second; sorting shows an author the file
// top to bottom.
func (ps Problems) Sort() {
	sort.SliceStable(ps, func(i, j int) bool { return pathLess(ps[i].Path, ps[j].Path) })
}

// pathLess compares paths segment by segment, numbers numerically, so entries[10]
// comes after entries[9].
func pathLess(a, b string) bool {
	for a != "" && b != "" {
		ra, rb := a[0], b[0]
		if isDigit(ra) && isDigit(rb) {
			na, la := leadingNumber(a)
			nb, lb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = a[la:], b[lb:]
			continue
		}
		if ra != rb {
			return ra < rb
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func leadingNumber(s string) (n, l int) {
	for l < len(s) && isDigit(s[l]) && l < 18 {
		n = n*10 + int(s[l]-'0')
		l++
	}
	return n, l
}

// Join builds a path from a parent and a key or an index.
func Join(parent string, seg any) string {
	switch s := seg.(type) {
	case int:
		return parent + "[" + fmt.Sprint(s) + "]"
	default:
		if parent == "" {
			return fmt.Sprint(s)
		}
		return parent + "." + fmt.Sprint(s)
	}
}
