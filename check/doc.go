// Package check rolls dice for the engine: free rolls of dice notation, and checks
// resolved against a campaign's resolution (dice-sum or dice-pool) with a card's numbers.
//
// Marinara's principle holds here as in the tag reader: the GM asks, the engine decides.
// A check is a request (what it rolls, a difficulty, what the GM may ask of the roll); the
// engine throws the dice from an injected Source and writes the record back, every number
// its own. The package is pure — no clock, no I/O, no globals — so the core can resolve a
// check inside its storage transaction, and a check resolved again with the faces it threw
// (Replay) comes out the same, which is what makes undo, redo and a regenerate honest.
package check
