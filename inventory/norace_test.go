//go:build !race

package inventory

const raceEnabled = false
