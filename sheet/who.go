package sheet

import (
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/suggest"
)

// sameTagName compares a sheet name (id or label) with what a tag's pool=, track=,
// condition=, state=, field= or rest= wrote: trimmed, case ignored, inner spacing kept.
// It is not ruleset.FoldName on purpose: this is Marinara's rule for those attributes
// (live-state.ts), so a tag an AI GM wrote for Marinara hits exactly what it hits there.
func sameTagName(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// IsParty reports whether who= names the whole party.
func IsParty(who string) bool { return ruleset.SameName(who, "party") }

// FindCard finds the card who= names among cards (see FindNamed).
func FindCard(cards []*Card, who string) (*Card, error) {
	return FindNamed(cards, who, func(c *Card) string { return c.Name })
}

// FindNamed is the one card lookup: the item among items whose character name, as
// ruleset.FoldName folds it, is who's. name gives an item's character name ("" for an
// item without a card, which never matches). None is unknown-character; two are
// ambiguous-character. Generic so the bot finds a stored card record by the same rule.
func FindNamed[T any](items []T, who string, name func(T) string) (T, error) {
	var found, zero T
	if ruleset.SameName(who, "") {
		return zero, refuse(refusal.UnknownCharacter, "no character is called %q", who)
	}
	n := 0
	for _, it := range items {
		if !ruleset.SameName(name(it), who) {
			continue
		}
		if n++; n > 1 {
			return zero, refuse(refusal.AmbiguousCharacter, "more than one character is called %q", who)
		}
		found = it
	}
	if n == 0 {
		names := make([]string, 0, len(items))
		for _, it := range items {
			names = append(names, name(it))
		}
		return zero, refuseNear(refusal.UnknownCharacter, suggest.DidYouMean(who, names), "no character is called %q", who)
	}
	return found, nil
}
