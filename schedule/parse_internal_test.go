package schedule

import (
	"strings"
	"testing"
)

// robfig's parser panics on a zone prefix with nothing after it; parseRecovered turns
// that into an error (Parse refuses such input earlier, with plainer words).
func TestParseRecoveredCatchesParserPanic(t *testing.T) {
	const spec = "CRON_TZ=Europe/Berlin"
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		_, _ = parser.Parse(spec)
		return false
	}()
	if !panicked {
		t.Skip("robfig's parser no longer panics on " + spec)
	}
	_, err := parseRecovered(spec)
	if err == nil || !strings.Contains(err.Error(), "cannot be read (the cron parser failed on it") {
		t.Fatalf("parseRecovered(%q) = %v", spec, err)
	}
}
