// Package panel runs a game system's panels (SPEC 7, the seed's "Panels"): its
// inventory panels' PackRat.on("state") handlers, which set a header (PackRat.summary)
// and draw a body (PackRat.render), and its gm-player panels' PackRat.on("compute"),
// which returns a character's stats, chips and notes for the GM's player cards.
//
// A panel is someone else's JavaScript, so it runs in goja with nothing of the host in
// reach: a fresh runtime per call, holding only the ECMAScript built-ins and the PackRat
// object (plus plain-JS stand-ins for window and document, so a Pack Rat panel that
// looks up its root element runs unchanged); no require, no timers, no console. The
// state goes in as JSON and the result comes out as JSON, so no Go value is ever
// exposed to the script. Each call has a time budget (Runtime.Interrupt) and the
// sources a size cap; what the script draws is a tree of plain objects that this
// package renders to Discord markdown, bounded in depth, nodes and length.
//
// goja has no memory bound of its own, and none can be added from inside the process:
// `"x".repeat(1e9)` is one Go call that grows a buffer of a gigabyte and fills it before
// the interpreter looks at its interrupt flag again. So the memory bound is a process's:
// panel/worker runs these same calls in a child process under an address-space limit,
// kills it past the deadline and starts another when it dies. Run here is what that
// child calls; in the bot's own process it is safe only for trusted (built-in) panels.
//
// This package does no I/O; requests a panel makes (PackRat.request) come back as data
// for the caller to run through the same checks as the commands that do the same.
package panel

import (
	"errors"
	"fmt"
	"time"
)

// Limits of one call; a job may ask for less time, never more.
const (
	// MaxSourceBytes caps panelLib plus a panel's scripts (the system file allows 512,000
	// bytes for each; a real system's are tens of kilobytes).
	MaxSourceBytes = 1 << 20
	// DefaultBudget is a call's time when the job names none; MaxBudget the most it may name.
	DefaultBudget = 250 * time.Millisecond
	MaxBudget     = 2 * time.Second
	// MaxResultBytes caps the JSON a call hands back before it is read.
	MaxResultBytes = 256 << 10
	// MaxRequests is how many PackRat.request calls one call may make.
	MaxRequests = 50
	// MaxParts, MaxStats and MaxChips cap a summary's parts, a compute's stats and its
	// chips or notes; MaxText caps each text in them.
	MaxParts = 20
	MaxStats = 30
	MaxChips = 30
	MaxText  = 300
	// MaxBodyRunes is a body's length in Discord markdown: an embed description's limit.
	MaxBodyRunes = 4096
	// maxStack is the script's call depth; deep recursion is a RangeError, not a crash.
	maxStack = 1000
)

// Slots a panel may sit in.
const (
	SlotInventory = "inventory"
	SlotGMPlayer  = "gm-player"
)

// Panel is one of a system's panels as its file gives it: the scripts that run are
// the <script> elements of HTML, after the system's panelLib.
type Panel struct {
	ID    string `json:"id"`
	Slot  string `json:"slot"`
	Title string `json:"title,omitempty"`
	HTML  string `json:"html"`
}

// Job is one call: a panel, the system's shared script and glossary, and the state of
// one character.
type Job struct {
	Lib      string            `json:"lib,omitempty"`
	Panel    Panel             `json:"panel"`
	Glossary map[string]string `json:"glossary,omitempty"`
	State    State             `json:"state"`
	// Budget is the call's time (DefaultBudget when zero, at most MaxBudget).
	Budget time.Duration `json:"budget,omitempty"`
}

// Time is the time the job may take: Budget, DefaultBudget when it is zero, at most
// MaxBudget.
func (j *Job) Time() time.Duration {
	switch {
	case j.Budget <= 0:
		return DefaultBudget
	case j.Budget > MaxBudget:
		return MaxBudget
	}
	return j.Budget
}

// Result is what a call gave: an inventory panel's header and body, or a gm-player
// panel's stats, chips and notes, and any requests either made.
type Result struct {
	Summary []Part `json:"summary,omitempty"`
	// Body is what PackRat.render drew, as Discord markdown.
	Body  string   `json:"body,omitempty"`
	Stats []Stat   `json:"stats,omitempty"`
	Chips []string `json:"chips,omitempty"`
	Notes []string `json:"notes,omitempty"`
	// Requests are the changes the panel asked for, in order, for the caller to check
	// and run as it would the same command; Dropped says which it could not read.
	Requests []Request `json:"requests,omitempty"`
	Dropped  []string  `json:"dropped,omitempty"`
}

// Part is one part of an inventory panel's header: text (with one of the app's icons)
// or the coin purse; Closed parts show only while the panel is collapsed.
type Part struct {
	Text   string `json:"text,omitempty"`
	Icon   string `json:"icon,omitempty"`
	Title  string `json:"title,omitempty"`
	Warn   bool   `json:"warn,omitempty"`
	Closed bool   `json:"closed,omitempty"`
	Coins  bool   `json:"coins,omitempty"`
}

// Stat is one figure on a GM's player card.
type Stat struct {
	Label string `json:"label"`
	Value string `json:"value"`
	Title string `json:"title,omitempty"`
	Sub   string `json:"sub,omitempty"`
	Warn  bool   `json:"warn,omitempty"`
}

// Request is one PackRat.request: one knownAction names and its arguments as the panel
// gave them (plain JSON values).
type Request struct {
	Action string         `json:"action"`
	Args   map[string]any `json:"args,omitempty"`
}

// knownAction reports whether a panel may ask for action (the seed's list).
func knownAction(action string) bool {
	switch action {
	case "setStat", "equip", "setState", "setValue", "changeQty", "openItem", "openCoins":
		return true
	}
	return false
}

// Kind names what stopped a call.
type Kind string

// The kinds of Error.
const (
	KindTooBig  Kind = "too-big"    // the sources are over MaxSourceBytes
	KindSyntax  Kind = "syntax"     // a script does not compile
	KindScript  Kind = "script"     // a script threw (a host name it looked for is a ReferenceError)
	KindTimeout Kind = "timeout"    // the call ran past its budget
	KindMemory  Kind = "memory"     // the call ran past the worker's memory bound
	KindResult  Kind = "bad-result" // the result is not one this package can read
	KindSlot    Kind = "bad-slot"   // the panel's slot is neither inventory nor gm-player
	KindCrashed Kind = "crashed"    // the worker died for another reason
	KindSkipped Kind = "skipped"    // the panel ran out its budget too often lately and was not run
)

// Error is a call that did not finish, with what stopped it and where.
type Error struct {
	Kind  Kind   `json:"kind"`
	Panel string `json:"panel,omitempty"` // the panel's id
	Msg   string `json:"msg"`
}

func (e *Error) Error() string { return fmt.Sprintf("panel %q: %s: %s", e.Panel, e.Kind, e.Msg) }

// KindOf is the kind of a panel error, or "" for nil or another error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

func fail(kind Kind, panel, format string, args ...any) *Error {
	return &Error{Kind: kind, Panel: panel, Msg: fmt.Sprintf(format, args...)}
}
