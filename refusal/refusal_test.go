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
		NotEnabled, NotAllowed, UnknownAbility, UnknownSkill, UnknownSave, UnknownTier, WhoRequired, NotGM, NoCampaign, Untrained}
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

func TestOpAndCause(t *testing.T) {
	cause := errors.New("disk on fire")
	e := E("join", NoCampaign, cause)
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
	if Of(E("pick", UnknownCharacter, New(NoCampaign, "x"))) != UnknownCharacter {
		t.Fatal("the outer refusal does not decide")
	}
	full := &Error{Op: "damage", Reason: BadAmount, Detail: "7 of 5", Err: cause}
	if got := full.Error(); got != "damage: bad-amount: 7 of 5: disk on fire" {
		t.Fatalf("Error() = %q", got)
	}
}
