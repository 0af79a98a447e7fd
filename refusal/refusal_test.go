package refusal

import (
	"errors"
	"fmt"
	"testing"
)

func TestEveryReasonHasPlainWords(t *testing.T) {
	all := []Reason{Malformed, TooMany, UnknownCharacter, AmbiguousCharacter, UnknownPool, AmbiguousPool,
		Insufficient, BadAmount, NoTemp, UnknownTrack, WrongTrack, UnknownKind, NoBox, UnknownCondition,
		UnknownState, UnknownValue, UnknownField, UnknownRest, UnknownEntry, AmbiguousEntry, BadPool,
		NotEnabled, NotAllowed, UnknownAbility, UnknownSkill, UnknownSave, UnknownTier, WhoRequired, NotGM, NoCampaign, Untrained,
		UnknownItem, NotHeld, TooHeavy, NoSlot, Locked, Limit, NotRulesetItem, CannotAfford, OutOfStock}
	if len(all) != len(plain) {
		t.Fatalf("%d reasons, %d explanations", len(all), len(plain))
	}
	for _, r := range all {
		if !r.Known() || r.Explain() == string(r) {
			t.Errorf("%s has no plain words", r)
		}
	}
	if Reason("made-up").Known() || Reason("made-up").Explain() != "made-up" {
		t.Error("an unknown reason is known")
	}
}

func TestOf(t *testing.T) {
	err := fmt.Errorf("paying: %w", New(Insufficient, "Ki has %d of %d", 1, 2))
	if Of(err) != Insufficient {
		t.Fatalf("Of = %q", Of(err))
	}
	if Of(errors.New("disk on fire")) != "" {
		t.Fatal("a plain error is a refusal")
	}
	if got := New(BadAmount, "x").Error(); got != "bad-amount: x" {
		t.Fatalf("Error() = %q", got)
	}
	if got := (&Error{Reason: NoTemp}).Error(); got != "no-temp" {
		t.Fatalf("Error() = %q", got)
	}
}

func TestWithOp(t *testing.T) {
	inner := &Error{Reason: BadAmount, Detail: "7 of 5", Bounds: "0..5"}
	got := WithOp("damage", fmt.Errorf("applying: %w", inner))
	var e *Error
	if !errors.As(got, &e) || e.Op != "damage" || e.Reason != BadAmount || e.Detail != "7 of 5" || e.Bounds != "0..5" {
		t.Fatalf("WithOp = %#v", got)
	}
	if got.Error() != "damage: bad-amount: 7 of 5" {
		t.Errorf("Error() = %q", got.Error())
	}
	if inner.Op != "" {
		t.Error("WithOp changed the refusal in place")
	}
	if again := WithOp("heal", got); again.(*Error).Op != "damage" {
		t.Error("WithOp replaced an op already named")
	}
	plain := errors.New("disk on fire")
	if WithOp("damage", plain) != plain || WithOp("damage", nil) != nil || WithOp("", inner) != inner {
		t.Error("WithOp changed what it should leave alone")
	}
}

func TestOpAndCause(t *testing.T) {
	cause := errors.New("disk on fire")
	e := &Error{Op: "join", Reason: NoCampaign, Err: cause}
	if got := e.Error(); got != "join: no-campaign: disk on fire" {
		t.Fatalf("Error() = %q", got)
	}
	if !errors.Is(e, cause) {
		t.Fatal("the cause is not reachable through Unwrap")
	}
	if Of(fmt.Errorf("command: %w", e)) != NoCampaign {
		t.Fatal("Of does not see the refusal through a wrap")
	}
	// A refusal caused by another refusal answers with its own reason.
	if Of(&Error{Op: "pick", Reason: UnknownCharacter, Err: New(NoCampaign, "x")}) != UnknownCharacter {
		t.Fatal("the outer refusal does not decide")
	}
	full := &Error{Op: "damage", Reason: BadAmount, Detail: "7 of 5", Err: cause}
	if got := full.Error(); got != "damage: bad-amount: 7 of 5: disk on fire" {
		t.Fatalf("Error() = %q", got)
	}
}
