package strictjson

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindAndErrorText(t *testing.T) {
	var ps Problems
	ps.AddKind(Integrity, "ruleset.json", "a")
	ps.AddKind(Limit, "", "b")
	var e error = ps
	if e.Error() != "ruleset.json: a\nb" {
		t.Errorf("Error() = %q", e.Error())
	}
	if !errors.Is(e, Integrity) || !errors.Is(e, Limit) || errors.Is(e, TooNew) {
		t.Error("errors.Is by kind")
	}
	wrapped := fmt.Errorf("import: %w", e)
	if !errors.Is(wrapped, Limit) {
		t.Error("errors.Is through wrapping")
	}
	if k, ok := KindOf(wrapped); !ok || k != Integrity {
		t.Errorf("KindOf = %v, %v", k, ok)
	}
	if _, ok := KindOf(errors.New("plain")); ok {
		t.Error("KindOf a plain error")
	}
	var plain Problems
	plain.Add("x", "a %s", "typo")
	if k, _ := KindOf(plain); k != Malformed || !errors.Is(plain, Malformed) {
		t.Errorf("Add's kind = %v", k)
	}
	if TooNew.String() != "too-new" || Kind(99).String() != "kind(99)" {
		t.Error("Kind.String")
	}
}
