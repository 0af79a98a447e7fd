package bundle

import (
	"strconv"
	"strings"
)

// Kind classifies a Problem. A Kind is itself an error, so a caller can ask
// errors.Is(err, bundle.TooNew) of any error this package returns.
type Kind int

// The kinds of problem a package can have.
const (
	// Malformed: manifest.json is not JSON, has an unknown key, a value of the
	// wrong type or out of its bounds, or breaks a manifest rule.
	Malformed Kind = iota + 1
	// TooNew: the package declares a Capability API newer than Engine.
	TooNew
	// Limit: something is over a size or count limit (a file's declared
	// bytes, the number of catalogs, the manifest, the archive, its entries).
	Limit
	// Integrity: a file is missing, or its size or sha256 is not the one the
	// manifest declares.
	Integrity
	// Unsafe: hostile input: a path escaping the package, a link, a
	// duplicate archive entry, an entry inflating past what it claims.
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
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Error makes a Kind usable as a sentinel for errors.Is.
func (k Kind) Error() string { return "ruleset package: " + k.String() }

// Problem is one thing wrong with a package. Path says where: a JSON path
// into manifest.json ("files[2].sha256", "contributions.assets.paths[0]"), a
// file of the package ("catalogs/spells.json"), or "" for the package as a
// whole. Message says what, in plain words.
type Problem struct {
	Kind    Kind
	Path    string
	Message string
}

// String renders "path: message", or just the message when there is no path.
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Error is the error every refusal of this package is: every problem found,
// at once, in the order found. A command line prints one per line:
//
//	var perr *bundle.Error
//	if errors.As(err, &perr) {
//		for _, p := range perr.Problems {
//			fmt.Println(p)
//		}
//	}
//
// errors.Is(err, k) is true when any problem is of Kind k.
type Error struct {
	Problems []Problem
}

// Error joins the problems one per line.
func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Is reports whether any problem is of the target Kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	if !ok {
		return false
	}
	for _, p := range e.Problems {
		if p.Kind == k {
			return true
		}
	}
	return false
}

// maxProblems bounds what one refusal reports, so a hostile manifest cannot
// make a list of a million lines.
const maxProblems = 50

// problems collects Problems up to maxProblems and counts the rest.
type problems struct {
	list    []Problem
	dropped int
}

func (ps *problems) add(k Kind, path, msg string) {
	if len(ps.list) >= maxProblems {
		ps.dropped++
		return
	}
	ps.list = append(ps.list, Problem{Kind: k, Path: path, Message: msg})
}

func (ps *problems) empty() bool { return len(ps.list) == 0 }

// err returns nil when nothing was found, or the *Error holding everything.
func (ps *problems) err() error {
	if ps.empty() {
		return nil
	}
	list := ps.list
	if ps.dropped > 0 {
		list = append(list, Problem{Kind: ps.list[0].Kind, Message: "and " + strconv.Itoa(ps.dropped) + " more problems"})
	}
	return &Error{Problems: list}
}

// fail is a one-problem *Error.
func fail(k Kind, path, msg string) *Error {
	return &Error{Problems: []Problem{{Kind: k, Path: path, Message: msg}}}
}
