package strictjson

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a document or a package, located by its JSON path
// (`catalogs[0].entries[3].rows[1].values.usess`) or a package file's name
// (`catalogs/spells.json`), or "" for the whole.
type Problem struct {
	Path string
	Msg  string
	// Kind says what sort of mistake it is; most are Malformed, the zero Kind.
	Kind Kind
	// more is, for the last problem of a list that reached MaxProblems, how many
	// further problems it stands for; its Msg says so.
	more int
}

// More is how many problems p stands for beyond the list's MaxProblems: 0 for a
// problem of its own, n for the closing "… and n more problems".
func (p Problem) More() int { return p.more }

func (p Problem) String() string {
	if p.Path == "" {
		return p.Msg
	}
	return p.Path + ": " + p.Msg
}

// Kind classifies a Problem, so a front end or a test can tell a document saying what
// its format does not allow from a package over a limit or a hostile archive. A Kind is
// itself an error: errors.Is(err, strictjson.Unsafe) asks whether any problem of err is
// of that kind.
type Kind int

// The kinds of problem. The zero Kind is Malformed, what a document decoded or checked
// against its rules has.
const (
	// Malformed: not JSON, an unknown key, a value of the wrong type or out of its
	// bounds, or a rule of the format broken (a dangling reference, a manifest rule).
	Malformed Kind = iota
	// TooNew: a package declares a Capability API newer than the engine implements.
	TooNew
	// Limit: something is over a size or count limit (a file, the number of catalogs,
	// the manifest, an archive or its entries).
	Limit
	// Integrity: a file is missing, or its size or sha256 is not the one its manifest
	// declares.
	Integrity
	// Unsafe: hostile input: a path escaping the package, a link, a duplicate archive
	// entry, an entry inflating past what it claims.
	Unsafe
	// Archive: the input is not a readable zip or folder (corrupt data, I/O).
	Archive
)

var kindNames = [...]string{
	Malformed: "malformed",
	TooNew:    "too-new",
	Limit:     "limit",
	Integrity: "integrity",
	Unsafe:    "unsafe",
	Archive:   "archive",
}

// String returns the kind's short name ("malformed", "too-new", …).
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Error makes a Kind usable as a target of errors.Is.
func (k Kind) Error() string { return k.String() + " problem" }

// KindOf returns the kind of err's first problem; false when err holds no Problems.
func KindOf(err error) (Kind, bool) {
	var ps Problems
	if !errors.As(err, &ps) || len(ps) == 0 {
		return 0, false
	}
	return ps[0].Kind, true
}

// Problems collects every problem of a document, so an author sees all of them at once
// instead of fixing one, re-running and meeting the next. It is an error when not empty.
//
// A list holds at most MaxProblems problems and one more that counts the rest ("… and
// 12,345 more problems"): a hostile file can hold a million mistakes, and a list of them
// would cost more memory than the file and be read by nobody.
type Problems []Problem

// MaxProblems is how many problems a list keeps; Add and AddKind count any further ones
// in a closing problem, and Sort trims a longer list the same way.
const MaxProblems = 1000

// full reports whether ps has no room for another problem of its own.
func (ps Problems) full() bool { return len(ps) >= MaxProblems }

// countMore records n problems of kind k past MaxProblems in the closing problem.
func (ps *Problems) countMore(k Kind, n int) {
	l := *ps
	if len(l) == 0 || l[len(l)-1].more == 0 {
		l = append(l, Problem{Kind: k})
	}
	t := &l[len(l)-1]
	t.more += n
	t.Msg = moreMsg(t.more)
	*ps = l
}

func moreMsg(n int) string {
	if n == 1 {
		return "… and 1 more problem"
	}
	return "… and " + groupDigits(n) + " more problems"
}

// groupDigits writes n with thousands separators (12,345), as every limit is written.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

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
		if p.more > 0 || p.Msg != MsgUnknownKey && p.Msg != MsgDuplicateKey {
			return false
		}
	}
	return true
}

// Add records a Malformed problem at path (or counts it, past MaxProblems).
func (ps *Problems) Add(path, format string, args ...any) {
	if ps.full() {
		ps.countMore(Malformed, 1)
		return
	}
	*ps = append(*ps, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// AddKind records a problem of kind k at path, its message as given (or counts it,
// past MaxProblems).
func (ps *Problems) AddKind(k Kind, path, msg string) {
	if ps.full() {
		ps.countMore(k, 1)
		return
	}
	*ps = append(*ps, Problem{Path: path, Msg: msg, Kind: k})
}

// Is reports whether any problem is of the target Kind.
func (ps Problems) Is(target error) bool {
	k, ok := target.(Kind)
	if !ok {
		return false
	}
	for _, p := range ps {
		if p.Kind == k {
			return true
		}
	}
	return false
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
// top to bottom. Lists joined by append may each end in a count of problems not kept:
// Sort sums them into one closing problem, after trimming the list to MaxProblems.
func (ps *Problems) Sort() {
	l := *ps
	more, moreKind := 0, Malformed
	kept := l[:0]
	for _, p := range l {
		if p.more > 0 {
			if more == 0 {
				moreKind = p.Kind
			}
			more += p.more
			continue
		}
		kept = append(kept, p)
	}
	sort.SliceStable(kept, func(i, j int) bool { return pathLess(kept[i].Path, kept[j].Path) })
	if len(kept) > MaxProblems {
		if more == 0 {
			moreKind = kept[MaxProblems].Kind
		}
		more += len(kept) - MaxProblems
		kept = kept[:MaxProblems]
	}
	*ps = kept
	if more > 0 {
		ps.countMore(moreKind, more)
	}
}

// Head returns at most n problems of ps and, when ps holds more, a closing problem
// counting the rest: what a message shows of a long list, whose whole goes beside it
// as a file.
func (ps Problems) Head(n int) Problems {
	total := ps.Total()
	if total <= n {
		return ps
	}
	head := append(Problems(nil), ps[:min(n, len(ps))]...)
	if len(head) > 0 && head[len(head)-1].more > 0 {
		head = head[:len(head)-1]
	}
	var k Kind
	if len(head) < len(ps) {
		k = ps[len(head)].Kind
	}
	head.countMore(k, total-len(head))
	return head
}

// Total is how many problems ps stands for, those it counts past MaxProblems included.
func (ps Problems) Total() int {
	n := 0
	for _, p := range ps {
		n += max(p.more, 1)
	}
	return n
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
	if s, ok := seg.(string); ok && parent != "" {
		return parent + "." + s // the common case, one string made
	}
	return string(AppendSeg([]byte(parent), seg))
}

// AppendSeg appends a key or an index to the path in b, as Join does. A checker builds
// a path for every node it looks at, problem or not (a fifth of a package's check went
// to fmt and to the strings between), so paths are built without either.
func AppendSeg(b []byte, seg any) []byte {
	if i, ok := seg.(int); ok {
		b = append(b, '[')
		return append(strconv.AppendInt(b, int64(i), 10), ']')
	}
	if len(b) > 0 {
		b = append(b, '.')
	}
	if s, ok := seg.(string); ok {
		return append(b, s...)
	}
	return fmt.Append(b, seg)
}
