//go:build race

package inventory

// raceEnabled: the race detector slows code five to twenty times, so time bounds are
// not asserted under it (memory bounds still are).
const raceEnabled = true
