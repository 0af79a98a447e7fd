package storage

import (
	"errors"
	"fmt"
)

// Kind is the class of a storage failure, so callers decide by kind and never by an
// error's words: a front end tells "no such card" (NotFound) from a broken file
// (Damaged) and from another process holding it (Locked) with KindOf.
type Kind uint8

// The kinds. Other is any failure that is none of the rest (a disk error, a failed
// commit); a caller treats it as internal.
const (
	Other    Kind = iota
	NotFound      // no record answers the lookup
	Invalid       // the record or key cannot be stored as given (empty key, seq 0, too large)
	Conflict      // the write contradicts a stored record (a message already another reply)
	Damaged       // the stored bytes are not what sheetkeeper wrote: missing, short, undecodable
	Locked        // another process holds the database (the lock wait timed out)
	Foreign       // the file is not a sheetkeeper database
	Newer         // the database was written by a newer sheetkeeper
	Closed        // the store, or a transaction, was used after it ended
	ReadOnly      // a write in a read-only transaction (View)
	Offline       // the database server did not answer in time (etcd unreachable)
)

var kindWords = [...]string{
	Other:    "storage error",
	NotFound: "not found",
	Invalid:  "invalid record",
	Conflict: "conflicting record",
	Damaged:  "database damaged",
	Locked:   "in use by another sheetkeeper process",
	Foreign:  "is not a sheetkeeper database",
	Newer:    "was written by a newer sheetkeeper",
	Closed:   "database closed",
	ReadOnly: "write in a read-only transaction",
	Offline:  "database server unreachable",
}

func (k Kind) String() string {
	if int(k) < len(kindWords) {
		return kindWords[k]
	}
	return kindWords[Other]
}

// Error is a storage failure, upspin-style: what was being done (Op, may be ""), its
// Kind, and the cause (Err, may be nil). Its words are Op and the cause's, or Op and
// the kind's when there is no cause: the kind is for code, so adding one never changes
// what a log or an operator reads.
type Error struct {
	Op   string
	Kind Kind
	Err  error
}

func (e *Error) Error() string {
	msg := e.Kind.String()
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Op != "" {
		msg = e.Op + ": " + msg
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of err: that of the outermost *Error in its chain with a kind
// other than Other (wrapping with fmt.Errorf's %w keeps it), or Other when none has one
// (nil included).
func KindOf(err error) Kind {
	for {
		var e *Error
		if !errors.As(err, &e) {
			return Other
		}
		if e.Kind != Other {
			return e.Kind
		}
		err = e.Err
	}
}

// Errorf is an error of kind k whose cause says format: how the backends word theirs.
func Errorf(k Kind, format string, args ...any) error {
	return &Error{Kind: k, Err: fmt.Errorf(format, args...)}
}

// NotFoundf is a NotFound error for the record format names.
func NotFoundf(format string, args ...any) error {
	return &Error{Op: fmt.Sprintf(format, args...), Kind: NotFound}
}

// InGuild is how an error names a ruleset namespace: "" for the shared one.
func InGuild(guild string) string {
	if guild == "" {
		return ""
	}
	return " of guild " + guild
}
