//go:build !race

package bot

const raceEnabled = false
