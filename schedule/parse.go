package schedule

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // zones by IANA name on images without a zoneinfo database

	"github.com/robfig/cron/v3"
)

// fieldNames are the five fields in order, as a person calls them.
var fieldNames = [5]string{"minute", "hour", "day-of-month", "month", "day-of-week"}

// fieldRanges say what each field may hold, for error messages.
var fieldRanges = [5]string{
	"minutes are 0-59",
	"hours are 0-23",
	"days of the month are 1-31",
	"months are 1-12 or jan-dec",
	"days of the week are 0-6 (Sunday is 0) or sun-sat",
}

// descriptors are the named schedules Parse accepts.
var descriptors = map[string]bool{
	"@yearly": true, "@annually": true, "@monthly": true, "@weekly": true,
	"@daily": true, "@midnight": true, "@hourly": true,
}

// parser is robfig's standard five-field parser with descriptors.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// SpecError is an expression or zone Parse refuses; its message says what is wrong in
// plain words, fit to show the person who typed it.
type SpecError struct {
	Spec    string // the expression as given
	Zone    string // the zone as given
	Field   string // the field at fault (minute … day-of-week), or ""
	Problem string
}

func (e *SpecError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("cron expression %q: the %s field %s", e.Spec, e.Field, e.Problem)
	}
	if e.Spec == "" && e.Zone != "" {
		return e.Problem
	}
	return fmt.Sprintf("cron expression %q: %s", e.Spec, e.Problem)
}

// LoadZone returns the IANA time zone name; "" is UTC. The zone database is embedded,
// so every zone is known on any host.
func LoadZone(name string) (*time.Location, error) {
	switch name {
	case "", "UTC":
		return time.UTC, nil
	case "Local":
		return nil, &SpecError{Zone: name, Problem: `time zone "Local" is the host's, not the campaign's: use an IANA name such as Europe/Berlin or America/New_York`}
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, &SpecError{Zone: name, Problem: fmt.Sprintf("unknown time zone %q: use an IANA name such as Europe/Berlin or America/New_York", name)}
	}
	return loc, nil
}

// Parse validates a rest's cron expression in the time zone tz (an IANA name; "" is
// UTC) and returns robfig/cron's schedule for it, which computes firings in that zone.
// A refusal is a *SpecError saying what is wrong. Malformed input never panics: robfig's
// parser runs under recover.
//
// Accepted:
//
//   - five fields, minute hour day-of-month month day-of-week, with robfig/cron's
//     standard syntax: numbers, "*" or "?", ranges "1-5", lists "1,15", steps "*/15"
//     and "0-30/10", month names jan-dec and weekday names sun-sat (Sunday is 0; 7 is
//     refused). When both day fields are restricted either may match, as in crontab;
//   - the descriptors @yearly (@annually), @monthly, @weekly, @daily (@midnight) and
//     @hourly;
//   - an optional "CRON_TZ=<zone> " (or "TZ=<zone> ") prefix, which must agree with tz
//     when both are given.
//
// Refused: a seconds field (six fields); @every (a rest follows the clock on the wall,
// not the moment the bot happened to start, so its firings could not survive a restart
// or be reported as missed); @reboot and other unknown descriptors; the zone "Local"
// (the host's zone is not the campaign's); an expression that never fires (30
// February).
//
// Times are those of the zone's wall clock, as cron has them: a job inside a
// spring-forward gap does not run that night (02:30 in Europe/Berlin on 29 March 2026,
// when clocks jump from 02:00 to 03:00), and a job inside the repeated hour of a
// fall-back night runs twice (02:30 on 25 October 2026, once in summer time and once in
// winter time).
func Parse(spec, tz string) (cron.Schedule, error) {
	given := spec
	refuse := func(format string, args ...any) error {
		return &SpecError{Spec: given, Zone: tz, Problem: fmt.Sprintf(format, args...)}
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, refuse(`is empty: give five fields (minute hour day-of-month month day-of-week), such as "0 6 * * *" for 06:00 every day, or a descriptor such as @daily`)
	}
	for _, prefix := range []string{"CRON_TZ=", "TZ="} {
		if !strings.HasPrefix(spec, prefix) {
			continue
		}
		zone, rest, _ := strings.Cut(spec[len(prefix):], " ")
		zone = strings.TrimSpace(zone)
		rest = strings.TrimSpace(rest)
		if i := strings.IndexAny(zone, "\t\n\v\f\r"); i >= 0 {
			zone, rest = zone[:i], strings.TrimSpace(zone[i:]+" "+rest)
		}
		if zone == "" {
			return nil, refuse("%s names no time zone", strings.TrimSuffix(prefix, "="))
		}
		if rest == "" {
			return nil, refuse("names the time zone %s but no schedule after it", zone)
		}
		if tz != "" && tz != zone {
			return nil, refuse("names the time zone %s but the schedule's zone is %s: give one", zone, tz)
		}
		tz, spec = zone, rest
		break
	}
	loc, err := LoadZone(tz)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(spec, "@") {
		if strings.HasPrefix(spec, "@every") {
			return nil, refuse("@every is not accepted: a rest follows the clock, so give a time such as \"0 6 * * *\" (06:00 every day) or @daily")
		}
		if !descriptors[spec] {
			return nil, refuse("unknown descriptor %s: use @yearly, @monthly, @weekly, @daily or @hourly, or five fields", spec)
		}
		return finish(given, tz, loc, spec)
	}
	fields := strings.Fields(spec)
	switch n := len(fields); {
	case n == 6:
		return nil, refuse("has six fields; seconds are not accepted: give five (minute hour day-of-month month day-of-week)")
	case n != 5:
		return nil, refuse("has %d field%s; a cron expression has five: minute hour day-of-month month day-of-week", n, plural(n))
	}
	for i, f := range fields {
		if problem := checkField(i, f); problem != "" {
			return nil, &SpecError{Spec: given, Zone: tz, Field: fieldNames[i], Problem: fmt.Sprintf("%q %s", f, problem)}
		}
	}
	return finish(given, tz, loc, strings.Join(fields, " "))
}

// finish parses the checked expression in loc and refuses one that never fires.
func finish(given, tz string, loc *time.Location, spec string) (cron.Schedule, error) {
	s, err := parseRecovered("CRON_TZ=" + loc.String() + " " + spec)
	if err != nil {
		return nil, &SpecError{Spec: given, Zone: tz, Problem: err.Error()}
	}
	// robfig looks five years ahead; from 2000 that reaches every date that exists,
	// 29 February included.
	if s.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		return nil, &SpecError{Spec: given, Zone: tz, Problem: "never fires: no such date exists (such as 30 February or 31 April)"}
	}
	return s, nil
}

// checkField parses field i alone (every other field "*") and says in plain words
// what is wrong with it, or "".
func checkField(i int, f string) string {
	fields := []string{"*", "*", "*", "*", "*"}
	fields[i] = f
	_, err := parseRecovered("CRON_TZ=UTC " + strings.Join(fields, " "))
	if err == nil {
		return ""
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "failed to parse int"):
		return "is not a number: " + fieldRanges[i] + `, with "*", ranges (1-5), lists (1,15) and steps (*/15)`
	case strings.HasPrefix(msg, "negative number"):
		return "has a negative number: " + fieldRanges[i]
	case strings.HasPrefix(msg, "beginning of range") && strings.Contains(msg, "below minimum"),
		strings.HasPrefix(msg, "end of range") && strings.Contains(msg, "above maximum"):
		return "is out of range: " + fieldRanges[i]
	case strings.HasPrefix(msg, "beginning of range") && strings.Contains(msg, "beyond end"):
		return "is a range that runs backwards: write the smaller number first"
	case strings.HasPrefix(msg, "step of range"):
		return "has a step of 0: a step is 1 or more"
	case strings.HasPrefix(msg, "too many hyphens"):
		return `has too many hyphens: a range is two values, such as "1-5"`
	case strings.HasPrefix(msg, "too many slashes"):
		return `has too many slashes: a step is one, such as "*/15"`
	}
	return "cannot be read: " + msg
}

// parseRecovered runs robfig's parser, turning a panic into an error: some malformed
// expressions panic it (a "CRON_TZ=" prefix with nothing after the zone slices out of
// range).
func parseRecovered(spec string) (s cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("cannot be read (the cron parser failed on it: %v)", r)
		}
	}()
	return parser.Parse(spec)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
