package schedule_test

import (
	"errors"
	"testing"
	"time"

	"sheetkeeper/schedule"
)

func TestParseAccepts(t *testing.T) {
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		spec, tz string
		next     string // first firing after 2026-01-01T00:00Z, RFC 3339 in its zone
	}{
		{"0 6 * * *", "", "2026-01-01T06:00:00Z"},
		{"  0 6 * * *  ", "", "2026-01-01T06:00:00Z"},
		{"0 6 * * *", "UTC", "2026-01-01T06:00:00Z"},
		{"0 6 * * *", "Europe/Berlin", "2026-01-01T06:00:00+01:00"},
		{"CRON_TZ=Europe/Berlin 0 6 * * *", "", "2026-01-01T06:00:00+01:00"},
		{"CRON_TZ=Europe/Berlin 0 6 * * *", "Europe/Berlin", "2026-01-01T06:00:00+01:00"},
		{"TZ=America/New_York 30 21 * * *", "", "2025-12-31T21:30:00-05:00"},
		{"*/15 9-17 * * mon-fri", "", "2026-01-01T09:00:00Z"}, // a Thursday
		{"0 0 1,15 jan ?", "", "2026-01-15T00:00:00Z"},
		{"0 20 * * 0", "", "2026-01-04T20:00:00Z"}, // Sunday is 0
		{"0 0 29 2 *", "", "2028-02-29T00:00:00Z"},
		{"@daily", "", "2026-01-02T00:00:00Z"},
		{"@midnight", "Asia/Tokyo", "2026-01-02T00:00:00+09:00"},
		{"@hourly", "", "2026-01-01T01:00:00Z"},
		{"@weekly", "", "2026-01-04T00:00:00Z"},
		{"@monthly", "", "2026-02-01T00:00:00Z"},
		{"@yearly", "", "2027-01-01T00:00:00Z"},
		{"@annually", "", "2027-01-01T00:00:00Z"},
	} {
		s, err := schedule.Parse(c.spec, c.tz)
		if err != nil {
			t.Errorf("Parse(%q, %q): %v", c.spec, c.tz, err)
			continue
		}
		next := s.Next(from)
		if want, _ := time.Parse(time.RFC3339, c.next); !next.Equal(want) {
			t.Errorf("Parse(%q, %q) next = %s, want %s", c.spec, c.tz, next, c.next)
		}
	}
}

// Refusals say what is wrong in plain words.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct {
		spec, tz string
		want     string
	}{
		{"", "", `cron expression "": is empty: give five fields (minute hour day-of-month month day-of-week), such as "0 6 * * *" for 06:00 every day, or a descriptor such as @daily`},
		{"0 6 * *", "", `cron expression "0 6 * *": has 4 fields; a cron expression has five: minute hour day-of-month month day-of-week`},
		{"0 0 6 * * *", "", `cron expression "0 0 6 * * *": has six fields; seconds are not accepted: give five (minute hour day-of-month month day-of-week)`},
		{"60 6 * * *", "", `cron expression "60 6 * * *": the minute field "60" is out of range: minutes are 0-59`},
		{"0 24 * * *", "", `cron expression "0 24 * * *": the hour field "24" is out of range: hours are 0-23`},
		{"0 6 0 * *", "", `cron expression "0 6 0 * *": the day-of-month field "0" is out of range: days of the month are 1-31`},
		{"0 6 * 13 *", "", `cron expression "0 6 * 13 *": the month field "13" is out of range: months are 1-12 or jan-dec`},
		{"0 6 * * 7", "", `cron expression "0 6 * * 7": the day-of-week field "7" is out of range: days of the week are 0-6 (Sunday is 0) or sun-sat`},
		{"0 six * * *", "", `cron expression "0 six * * *": the hour field "six" is not a number: hours are 0-23, with "*", ranges (1-5), lists (1,15) and steps (*/15)`},
		{"0 6 * * fri-mon", "", `cron expression "0 6 * * fri-mon": the day-of-week field "fri-mon" is a range that runs backwards: write the smaller number first`},
		{"*/0 6 * * *", "", `cron expression "*/0 6 * * *": the minute field "*/0" has a step of 0: a step is 1 or more`},
		{"1-2-3 6 * * *", "", `cron expression "1-2-3 6 * * *": the minute field "1-2-3" has too many hyphens: a range is two values, such as "1-5"`},
		{"*/5/2 6 * * *", "", `cron expression "*/5/2 6 * * *": the minute field "*/5/2" has too many slashes: a step is one, such as "*/15"`},
		{"0 6 -1 * *", "", `cron expression "0 6 -1 * *": the day-of-month field "-1" is not a number: days of the month are 1-31, with "*", ranges (1-5), lists (1,15) and steps (*/15)`},
		{"0 0 30 2 *", "", `cron expression "0 0 30 2 *": never fires: no such date exists (such as 30 February or 31 April)`},
		{"@every 1h", "", `cron expression "@every 1h": @every is not accepted: a rest follows the clock, so give a time such as "0 6 * * *" (06:00 every day) or @daily`},
		{"@reboot", "", `cron expression "@reboot": unknown descriptor @reboot: use @yearly, @monthly, @weekly, @daily or @hourly, or five fields`},
		{"0 6 * * *", "Europe/Berln", `unknown time zone "Europe/Berln": use an IANA name such as Europe/Berlin or America/New_York`},
		{"0 6 * * *", "Local", `time zone "Local" is the host's, not the campaign's: use an IANA name such as Europe/Berlin or America/New_York`},
		{"0 6 * * *", "../../etc/passwd", `unknown time zone "../../etc/passwd": use an IANA name such as Europe/Berlin or America/New_York`},
		{"CRON_TZ=Mars/Olympus 0 6 * * *", "", `unknown time zone "Mars/Olympus": use an IANA name such as Europe/Berlin or America/New_York`},
		{"CRON_TZ=Europe/Berlin 0 6 * * *", "Asia/Tokyo", `cron expression "CRON_TZ=Europe/Berlin 0 6 * * *": names the time zone Europe/Berlin but the schedule's zone is Asia/Tokyo: give one`},
		// This one panics robfig's parser (it slices up to a space that is not there).
		{"CRON_TZ=Europe/Berlin", "", `cron expression "CRON_TZ=Europe/Berlin": names the time zone Europe/Berlin but no schedule after it`},
		{"TZ= 0 6 * * *", "", `cron expression "TZ= 0 6 * * *": TZ names no time zone`},
	} {
		_, err := schedule.Parse(c.spec, c.tz)
		if err == nil {
			t.Errorf("Parse(%q, %q) accepted", c.spec, c.tz)
			continue
		}
		var se *schedule.SpecError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q, %q) error %T, want *SpecError", c.spec, c.tz, err)
		}
		if err.Error() != c.want {
			t.Errorf("Parse(%q, %q):\n got %s\nwant %s", c.spec, c.tz, err, c.want)
		}
	}
}

// FuzzParse: Parse never panics, refuses only with a *SpecError, and what it accepts
// fires.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"0 6 * * *", "*/15 9-17 * * mon-fri", "@daily", "@every 1h", "CRON_TZ=UTC",
		"CRON_TZ=Europe/Berlin 30 2 * * *", "TZ= 0 6 * * *", "0-59/70 * * * *", "0 0 30 2 *",
	} {
		f.Add(s, "")
		f.Add(s, "Europe/Berlin")
	}
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, spec, tz string) {
		s, err := schedule.Parse(spec, tz)
		if err != nil {
			var se *schedule.SpecError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q, %q): %T %v", spec, tz, err, err)
			}
			return
		}
		if s.Next(from).IsZero() {
			t.Fatalf("Parse(%q, %q) accepted a schedule that never fires", spec, tz)
		}
	})
}
