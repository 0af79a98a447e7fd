package bot

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"sheetkeeper/storage"
)

// TestScheduleRestRefusals: only a GM schedules, and only a rest the ruleset has, for a
// character of the campaign, on an expression and in a zone the scheduler accepts —
// each refusal in plain words, seen only by the GM, and nothing stored.
func TestScheduleRestRefusals(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 19, 30, 0, 0, time.UTC))
	wantResponse(t, "no campaign", m.cmd(gmUser, "schedule rest", "rest", "mooring", "cron", "@daily"),
		"this channel has no campaign: a GM starts one with /campaign create", true)
	m.demo()
	for _, c := range []struct {
		what string
		u    User
		opts []string
		want string
	}{
		{"a player", ana, []string{"rest", "mooring", "cron", "@daily"}, "/schedule rest is for the campaign's GMs"},
		{"no cron", gmUser, []string{"rest", "mooring"}, "/schedule rest needs cron:."},
		{"unknown rest", gmUser, []string{"rest", "nap", "cron", "@daily"},
			`Low Vell: Lamplighters of the Drowned City has no rest "nap": its rests are Catch your breath (breather), Moor until dawn (mooring), A week in dry dock (dry_dock)`},
		{"unknown character", gmUser, []string{"rest", "mooring", "cron", "@daily", "who", "Zed"}, `no character is called "Zed"`},
		{"hour out of range", gmUser, []string{"rest", "mooring", "cron", "0 25 * * *"},
			`Cron expression "0 25 * * *": the hour field "25" is out of range: hours are 0-23.`},
		{"seconds", gmUser, []string{"rest", "mooring", "cron", "0 0 6 * * *"},
			`Cron expression "0 0 6 * * *": has six fields; seconds are not accepted: give five (minute hour day-of-month month day-of-week).`},
		{"@every", gmUser, []string{"rest", "mooring", "cron", "@every 8h"},
			`Cron expression "@every 8h": @every is not accepted: a rest follows the clock, so give a time such as "0 6 * * *" (06:00 every day) or @daily.`},
		{"unknown zone", gmUser, []string{"rest", "mooring", "cron", "0 6 * * *", "tz", "Mars/Olympus"},
			`Unknown time zone "Mars/Olympus": use an IANA name such as Europe/Berlin or America/New_York.`},
		{"30 February", gmUser, []string{"rest", "mooring", "cron", "0 6 30 2 *"},
			`Cron expression "0 6 30 2 *": never fires: no such date exists (such as 30 February or 31 April).`},
	} {
		wantResponse(t, c.what, m.cmd(c.u, "schedule rest", c.opts...), c.want, true)
	}
	var n int
	if err := m.store.View(context.Background(), func(tx storage.Tx) error {
		s, err := tx.Schedules()
		n = len(s)
		return err
	}); err != nil || n != 0 {
		t.Fatalf("%d schedules stored (%v), want none", n, err)
	}
}

// TestScheduleCommands: /schedule rest stores the rest by id and the character by name
// in the zone given, else the campaign's; /schedule list shows each with its next run in
// its own zone, to anyone; /schedule remove stops one (GM only, this channel's only).
func TestScheduleCommands(t *testing.T) {
	m := newSchedTable(t, time.Date(2026, 4, 2, 19, 30, 0, 0, time.UTC))
	m.demo()
	wantResponse(t, "an empty list", m.cmd(ana, "schedule list"),
		"No rests are scheduled in this channel. A GM adds one with /schedule rest.", true)

	berlinID := m.schedule("rest", "Moor until dawn", "cron", "0 6 * * *", "tz", "Europe/Berlin")
	r := m.cmd(gmUser, "schedule rest", "rest", "Moor until dawn", "cron", "0 6 * * *", "tz", "Europe/Berlin")
	id := strings.TrimSuffix(r.Content[strings.LastIndex(r.Content, ":")+1:], " stops it.")
	wantResponse(t, "scheduled", r, "⏰ Scheduled: rest \"Moor until dawn\" for the party at `0 6 * * *` (Europe/Berlin). Next: Fri 3 Apr 2026 06:00 CEST. Its id is `"+id+"`: /schedule remove id:"+id+" stops it.", false)
	if len(id) != 8 || id == berlinID {
		t.Fatalf("ids %q and %q", berlinID, id)
	}
	wantResponse(t, "a second schedule's removal", m.cmd(gmUser, "schedule remove", "id", id),
		"Removed schedule `"+id+"`: rest \"Moor until dawn\" for the party at `0 6 * * *` (Europe/Berlin) will not run again.", false)

	// The campaign's zone is the default; a CRON_TZ= prefix names its own.
	m.update(func(tx storage.Tx) error {
		camp, err := tx.Campaign("table")
		if err != nil {
			return err
		}
		camp.TimeZone = "America/New_York"
		return tx.PutCampaign(camp)
	})
	nyID := m.schedule("rest", "BREATHER", "cron", "30 21 * * mon-fri", "who", "  mira ")
	tokyoID := m.schedule("rest", "dry_dock", "cron", "CRON_TZ=Asia/Tokyo @weekly")
	s := m.stored(nyID)
	if s.Rest != "breather" || s.Who != "Mira" || s.TimeZone != "America/New_York" || s.Cron != "30 21 * * mon-fri" ||
		s.ChannelID != "table" || s.CreatedBy != "gm" || !s.CreatedAt.Equal(m.clock.Now()) {
		t.Errorf("stored %+v", s)
	}
	if s := m.stored(tokyoID); s.TimeZone != "Asia/Tokyo" || s.Who != "party" {
		t.Errorf("stored %+v", s)
	}

	wantResponse(t, "the list", m.cmd(ana, "schedule list"), "Rests scheduled in this channel:\n"+
		"• `"+nyID+"` rest \"Catch your breath\" for Mira at `30 21 * * mon-fri` (America/New_York): next Thu 2 Apr 2026 21:30 EDT\n"+
		"• `"+berlinID+"` rest \"Moor until dawn\" for the party at `0 6 * * *` (Europe/Berlin): next Fri 3 Apr 2026 06:00 CEST\n"+
		"• `"+tokyoID+"` rest \"A week in dry dock\" for the party at `CRON_TZ=Asia/Tokyo @weekly` (Asia/Tokyo): next Sun 5 Apr 2026 00:00 JST", true)

	// The id autocompletes to this channel's schedules, with what each does.
	choices := m.core.OnAutocomplete(context.Background(), Autocomplete{Command: "schedule remove", Focused: "id", User: gmUser, ChannelID: "table",
		Options: []Option{{Name: "id", Value: ""}}})
	if len(choices) != 3 || !slices.ContainsFunc(choices, func(c Choice) bool {
		return c.Value == nyID && c.Name == nyID+": breather at 30 21 * * mon-fri"
	}) {
		t.Errorf("id choices %+v", choices)
	}
	if got := m.core.OnAutocomplete(context.Background(), Autocomplete{Command: "schedule remove", Focused: "id", User: gmUser, ChannelID: "elsewhere"}); len(got) != 0 {
		t.Errorf("another channel's schedules offered: %+v", got)
	}

	// Removing: GM only, this channel's schedules only.
	wantResponse(t, "a player removes", m.cmd(ana, "schedule remove", "id", berlinID), "/schedule remove is for the campaign's GMs", true)
	wantResponse(t, "no such id", m.cmd(gmUser, "schedule remove", "id", "nosuchid"),
		`There is no schedule "nosuchid" in this channel: /schedule list shows their ids.`, true)
	// The same GM's campaign in another channel cannot reach this channel's schedules.
	other := Command{Name: "schedule remove", User: gmUser, ChannelID: "elsewhere", Options: []Option{{Name: "id", Value: berlinID}}}
	m.update(func(tx storage.Tx) error {
		camp, err := tx.Campaign("table")
		if err != nil {
			return err
		}
		camp.ChannelID = "elsewhere"
		return tx.PutCampaign(camp)
	})
	wantResponse(t, "another channel's", m.core.OnCommand(context.Background(), other),
		`There is no schedule "`+berlinID+`" in this channel: /schedule list shows their ids.`, true)
	wantResponse(t, "removed", m.cmd(gmUser, "schedule remove", "id", "`"+berlinID+"`"),
		"Removed schedule `"+berlinID+"`: rest \"Moor until dawn\" for the party at `0 6 * * *` (Europe/Berlin) will not run again.", false)

	// What was removed never fires; what stays does (Mira is out of breath, so it posts).
	m.gmSays(`[sheet: who="Mira" op="spend" pool="breath" amount="2"]`)
	acts := m.advance(time.Date(2026, 4, 3, 12, 0, 0, 0, time.UTC))
	wantPosts(t, "the night after", acts, "⏰ Scheduled rest \"Catch your breath\" for Mira, 21:30 (America/New_York):\n"+
		`[sheet: who="Mira" op="rest" rest="breather" result="ok" now="Catch your breath: Breath 10/10"]`)
	if !strings.Contains(m.cmd(ana, "schedule list").Content, "next Fri 3 Apr 2026 21:30 EDT") {
		t.Errorf("the list does not move on")
	}
}

func (m *schedTable) update(fn func(tx storage.Tx) error) {
	m.t.Helper()
	if err := m.store.Update(context.Background(), fn); err != nil {
		m.t.Fatal(err)
	}
}

// TestScheduleIDIsStable: the same request at the same instant gets the same id on any
// database, so a console script's output is the same on every run.
func TestScheduleIDIsStable(t *testing.T) {
	var ids []string
	for range 2 {
		m := newSchedTable(t, time.Date(2026, 4, 2, 19, 30, 0, 0, time.UTC))
		m.demo()
		ids = append(ids, m.schedule("rest", "mooring", "cron", "@daily"))
	}
	if ids[0] != ids[1] {
		t.Errorf("ids %q", ids)
	}
}
