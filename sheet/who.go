package sheet

import (
	"strings"
	"unicode"

	"sheetkeeper/refusal"
)

// NormalName is a name as who= compares it: lowercased, whitespace runs folded to one
// space, trimmed.
func NormalName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\uFEFF' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(string(unicode.ToLower(r)))
	}
	return b.String()
}

// SameName reports whether two character names are the same to who=: ignoring case and
// differences in whitespace.
func SameName(a, b string) bool { return NormalName(a) == NormalName(b) }

// sameName compares a sheet name (id or label) with what a command wrote: trimmed, case
// ignored — Marinara's rule for pools, tracks, conditions, states, fields and rests.
func sameName(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// IsParty reports whether who= names the whole party.
func IsParty(who string) bool { return NormalName(who) == "party" }

// FindCard finds the card who= names among cards: case-insensitive, whitespace-normalised.
// No card is unknown-character; two are ambiguous-character.
func FindCard(cards []*Card, who string) (*Card, error) {
	want := NormalName(who)
	var found *Card
	for _, c := range cards {
		if NormalName(c.Name) != want {
			continue
		}
		if found != nil {
			return nil, refuse(refusal.AmbiguousCharacter, "more than one character is called %q", who)
		}
		found = c
	}
	if found == nil || want == "" {
		return nil, refuse(refusal.UnknownCharacter, "no character is called %q", who)
	}
	return found, nil
}
