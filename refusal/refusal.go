// Package refusal holds the closed vocabulary of reasons a command can be refused for,
// and the error type that carries one.
//
// The vocabulary is Marinara Engine's (so an AI GM written for it reads our write-back
// unchanged) plus the words sheetkeeper adds for advancement, permissions, campaigns and
// inventories.
// A reason is a machine code: it goes into a tag's reason="…" attribute verbatim, and
// front ends turn it into plain words with Explain. Anything that is not a refusal is an
// internal error, shown to users only as "Internal error" while the detail is logged.
package refusal

import (
	"errors"
	"fmt"
)

// Reason is one word of the closed refusal vocabulary.
type Reason string

// Marinara's reasons.
const (
	Malformed          Reason = "malformed"
	TooMany            Reason = "too-many"
	UnknownCharacter   Reason = "unknown-character"
	AmbiguousCharacter Reason = "ambiguous-character"
	UnknownPool        Reason = "unknown-pool"
	AmbiguousPool      Reason = "ambiguous-pool"
	Insufficient       Reason = "insufficient"
	BadAmount          Reason = "bad-amount"
	NoTemp             Reason = "no-temp"
	UnknownTrack       Reason = "unknown-track"
	WrongTrack         Reason = "wrong-track"
	UnknownKind        Reason = "unknown-kind"
	NoBox              Reason = "no-box"
	UnknownCondition   Reason = "unknown-condition"
	UnknownState       Reason = "unknown-state"
	UnknownValue       Reason = "unknown-value"
	UnknownField       Reason = "unknown-field"
	UnknownRest        Reason = "unknown-rest"
	UnknownEntry       Reason = "unknown-entry"
	AmbiguousEntry     Reason = "ambiguous-entry"
	BadPool            Reason = "bad-pool"
)

// Reasons sheetkeeper adds: advancement (the seed's), permissions and campaigns.
const (
	NotEnabled     Reason = "not-enabled"
	NotAllowed     Reason = "not-allowed"
	UnknownAbility Reason = "unknown-ability"
	UnknownSkill   Reason = "unknown-skill"
	UnknownSave    Reason = "unknown-save"
	UnknownTier    Reason = "unknown-tier"
	WhoRequired    Reason = "who-required"
	NotGM          Reason = "not-gm"
	NoCampaign     Reason = "no-campaign"
	// Untrained is Marinara's answer to a check whose skill or save says "refuse" without
	// training: the character cannot attempt it, and nothing rolls it later.
	Untrained Reason = "untrained"
)

// Reasons of inventory tags (SPEC 3.5): what an item, a container, a slot, a state or a
// shop says no for, so a GM reads why a pack refused rather than "not allowed".
const (
	UnknownItem    Reason = "unknown-item"     // the catalog, or the system, has no such item
	NotHeld        Reason = "not-held"         // the character does not have it, or an offered item is gone
	TooHeavy       Reason = "too-heavy"        // more weight than a container or the character carries
	NoSlot         Reason = "no-slot"          // no room: the slot is full, or the container holds no more of it
	Locked         Reason = "locked"           // a state a layer locks, or one the GM has set
	Limit          Reason = "limit"            // the system's limit on a state (three attuned) is reached
	NotRulesetItem Reason = "not-ruleset-item" // the item is not of the campaign's ruleset or system
	CannotAfford   Reason = "cannot-afford"    // the purse (or the shop's funds) does not cover the price
	OutOfStock     Reason = "out-of-stock"     // the shop has not that many left
)

// plain is what a player reads for each reason.
var plain = map[Reason]string{
	Malformed:          "the tag could not be read",
	TooMany:            "too many commands in one message",
	UnknownCharacter:   "no character by that name",
	AmbiguousCharacter: "more than one character answers to that name",
	UnknownPool:        "the character has no such pool",
	AmbiguousPool:      "more than one pool answers to that name",
	Insufficient:       "not enough left to pay for it",
	BadAmount:          "the amount is out of bounds",
	NoTemp:             "that pool cannot hold temporary points",
	UnknownTrack:       "the character has no such track",
	WrongTrack:         "that command does not work on that kind of track",
	UnknownKind:        "the track has no such kind of damage",
	NoBox:              "the track has no such box",
	UnknownCondition:   "the ruleset has no such condition",
	UnknownState:       "the ruleset has no such state",
	UnknownValue:       "the state has no such value",
	UnknownField:       "the character has no such field",
	UnknownRest:        "the ruleset has no such rest",
	UnknownEntry:       "nothing on the sheet answers to that name",
	AmbiguousEntry:     "more than one entry on the sheet answers to that name",
	BadPool:            "that pool cannot pay for it",
	NotEnabled:         "the ruleset does not allow advancement",
	NotAllowed:         "that is not allowed",
	UnknownAbility:     "the ruleset has no such ability",
	UnknownSkill:       "the ruleset has no such skill",
	UnknownSave:        "the ruleset has no such save",
	UnknownTier:        "the ruleset has no such proficiency tier",
	WhoRequired:        "say which character (who=…)",
	NotGM:              "only a GM of this campaign may do that",
	NoCampaign:         "this channel has no campaign",
	Untrained:          "the character has no training to attempt that",
	UnknownItem:        "there is no such item",
	NotHeld:            "the character does not have that",
	TooHeavy:           "that is too heavy to carry there",
	NoSlot:             "there is no room for that",
	Locked:             "that is locked",
	Limit:              "the limit for that is reached",
	NotRulesetItem:     "that item is not part of this game's rules",
	CannotAfford:       "not enough money to pay for it",
	OutOfStock:         "there are none left",
}

// Known reports whether r belongs to the closed vocabulary.
func (r Reason) Known() bool { _, ok := plain[r]; return ok }

// Explain returns the reason in words a player understands.
func (r Reason) Explain() string {
	if s, ok := plain[r]; ok {
		return s
	}
	return string(r)
}

// Error is a refusal: a reason, an optional detail for people, optional bounds (for
// bad-amount, written back as bounds="lo..hi"), and, upspin-style, the operation that
// was refused and the error that caused the refusal, so a log line says what was being
// done and why while the write-back still reads the Reason alone.
type Error struct {
	Op     string // the operation refused ("join", "damage"), or ""
	Reason Reason
	Detail string
	Bounds string
	Err    error // the cause, or nil; errors.Is and errors.As see through to it
}

// Error reads "op: reason: detail: cause", leaving out what is empty.
func (e *Error) Error() string {
	msg := string(e.Reason)
	if e.Op != "" {
		msg = e.Op + ": " + msg
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// WithOp returns err with the refusal it carries (Of's) marked as a refusal of op, when
// that refusal names no op yet: what an edge does (the engine's Apply with the tag's op,
// the bot's router with the command) so a log line says what was refused. The refusal
// is copied, never changed in place (one value may be returned twice), and the copy is
// returned alone: at the edge the refusal is the whole story, and its cause stays
// reachable through Unwrap. Reason, Detail and Bounds — all a user or a write-back
// reads — are kept as they were. Any other error, or nil, is returned as it is.
func WithOp(op string, err error) error {
	var e *Error
	if op == "" || !errors.As(err, &e) || e.Op != "" {
		return err
	}
	c := *e
	c.Op = op
	return &c
}

// New returns a refusal with a detail built from format and args.
func New(r Reason, format string, args ...any) *Error {
	return &Error{Reason: r, Detail: fmt.Sprintf(format, args...)}
}

// Of returns the reason carried by err, or "" when err is not a refusal. It looks
// through wrapping (fmt.Errorf's %w, a storage error's cause): the outermost refusal
// in the chain decides.
func Of(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}
