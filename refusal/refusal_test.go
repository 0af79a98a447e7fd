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
		NotEnabled, NotAllowed, UnknownAbility, UnknownSkill, UnknownSave, UnknownTier, WhoRequired, NotGM, NoCampaign}
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
