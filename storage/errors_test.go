package storage

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindOf(t *testing.T) {
	cause := errors.New("disk on fire")
	for _, c := range []struct {
		err  error
		kind Kind
		text string
	}{
		{nil, Other, ""},
		{cause, Other, "disk on fire"},
		{&Error{Kind: NotFound}, NotFound, "not found"},
		{&Error{Op: "campaign c1", Kind: NotFound}, NotFound, "campaign c1: not found"},
		{fmt.Errorf("card Mira: %w", &Error{Kind: NotFound}), NotFound, "card Mira: not found"},
		// The cause's words, not the kind's: a kind never changes a message.
		{&Error{Kind: Locked, Err: errors.New("database x is in use")}, Locked, "database x is in use"},
		{&Error{Op: "storage", Kind: Closed}, Closed, "storage: database closed"},
		// An Error without a kind takes its cause's.
		{&Error{Op: "put", Err: fmt.Errorf("x: %w", &Error{Kind: Invalid, Err: cause})}, Invalid, "put: x: disk on fire"},
		// The outermost kind decides.
		{&Error{Kind: Damaged, Err: &Error{Kind: NotFound}}, Damaged, "not found"},
	} {
		if got := KindOf(c.err); got != c.kind {
			t.Errorf("KindOf(%v) = %s, want %s", c.err, got, c.kind)
		}
		if c.err != nil && c.err.Error() != c.text {
			t.Errorf("Error() = %q, want %q", c.err.Error(), c.text)
		}
	}
	if !errors.Is(&Error{Kind: Damaged, Err: cause}, cause) {
		t.Error("the cause is not reachable through Unwrap")
	}
	if Kind(200).String() != Other.String() {
		t.Error("an unknown kind has words of its own")
	}
}
