package bot

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/schedule"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /schedule rest, /schedule list, /schedule remove (SPEC 9): a GM schedules one of the
// ruleset's rests on a cron expression in a time zone; the core's scheduler fires it
// (schedule.go). The checks that need the campaign — GM, the rest, the character — read
// in one transaction; the schedule is then stored by the scheduler in its own single
// Update (schedule.Scheduler.Add, which also registers it), the command's only write. A
// firing checks the campaign, the rest and the character again, so nothing that changes
// between the two can make a firing apply what the GM did not ask for.

// scheduleCommands adds the /schedule commands.
func scheduleCommands(r *router) {
	r.command(CommandSpec{
		Name:        "schedule rest",
		Description: "Schedule a rest of the ruleset to run by itself, on a cron expression",
		Options: []OptionSpec{
			{Name: "rest", Description: "The rest (id or label)", Type: "string", Required: true},
			{Name: "cron", Description: `When: five fields ("0 6 * * *" is 06:00 every day) or @daily, @weekly…`, Type: "string", Required: true},
			{Name: "tz", Description: "An IANA time zone such as Europe/Berlin (default: the campaign's, else UTC)", Type: "string"},
			{Name: "who", Description: "A character, or party (the default)", Type: "string"},
		},
		GMOnly: true,
	}, (*Core).cmdScheduleRest).
		complete("rest", (*Core).restChoices).
		complete("who", (*Core).whoChoices)
	r.command(CommandSpec{
		Name:        "schedule list",
		Description: "The rests scheduled in this channel, each with its next run and its id",
	}, (*Core).cmdScheduleList)
	r.command(CommandSpec{
		Name:        "schedule remove",
		Description: "Stop a scheduled rest",
		Options: []OptionSpec{
			{Name: "id", Description: "The schedule's id, as /schedule list shows it", Type: "string", Required: true},
		},
		GMOnly: true,
	}, (*Core).cmdScheduleRemove).
		complete("id", (*Core).scheduleChoices)
}

// cmdScheduleRest answers /schedule rest: the rest is found in the campaign's ruleset by
// id or label and stored by id; who is a game card of the campaign (stored by its name)
// or the party; the zone defaults to the campaign's. A cron expression or zone the
// scheduler refuses is answered with what is wrong, as schedule.SpecError says it.
func (c *Core) cmdScheduleRest(ctx context.Context, cmd Command) (Response, error) {
	var sc storage.Schedule
	var label string
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
		if err != nil {
			return err
		}
		rest, err := sheet.FindRest(l.Ruleset, strings.TrimSpace(cmd.Get("rest")))
		if err != nil {
			return refusal.New(refusal.UnknownRest, "%s has no rest %q: its rests are %s", l.Name, strings.TrimSpace(cmd.Get("rest")), restList(l.Ruleset))
		}
		label = rest.Label
		who := strings.TrimSpace(cmd.Get("who"))
		if who == "" || sheet.IsParty(who) {
			who = "party"
		} else {
			rec, err := gameCard(tx, cmd.ChannelID, who)
			if err != nil {
				return err
			}
			who = rec.Card.Name
		}
		spec := strings.TrimSpace(cmd.Get("cron"))
		tz := strings.TrimSpace(cmd.Get("tz"))
		if tz == "" && !strings.HasPrefix(spec, "CRON_TZ=") && !strings.HasPrefix(spec, "TZ=") {
			tz = camp.TimeZone
		}
		sc = storage.Schedule{ChannelID: cmd.ChannelID, Rest: rest.ID, Cron: spec, TimeZone: tz, Who: who, CreatedBy: cmd.User.ID}
		sc.ID, err = scheduleID(tx, sc, c.Now())
		return err
	})
	if err != nil {
		return Response{}, err
	}
	added, err := c.sched.Add(ctx, sc)
	var bad *schedule.SpecError
	if errors.As(err, &bad) {
		return Response{Content: upper(bad.Error()) + ".", Ephemeral: true}, nil
	}
	if err != nil {
		return Response{}, err
	}
	next := nextRun(added, c.Now())
	return Response{Content: fmt.Sprintf("⏰ Scheduled: rest %q for %s at `%s` (%s). Next: %s. Its id is `%s`: /schedule remove id:%s stops it.",
		label, whoWords(added.Who), added.Cron, zoneName(added), next, added.ID, added.ID)}, nil
}

// cmdScheduleList answers /schedule list: the channel's schedules, soonest first, each
// with its id and its next run on its own zone's clock. Anyone at the table may look.
func (c *Core) cmdScheduleList(ctx context.Context, cmd Command) (Response, error) {
	var rs *ruleset.Ruleset
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
		if err != nil {
			return err
		}
		rs = l.Ruleset
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	list, err := c.sched.List(ctx, cmd.ChannelID)
	if err != nil {
		return Response{}, err
	}
	if len(list) == 0 {
		return Response{Content: "No rests are scheduled in this channel. A GM adds one with /schedule rest.", Ephemeral: true}, nil
	}
	var b strings.Builder
	b.WriteString("Rests scheduled in this channel:")
	for _, l := range list {
		next := "never runs again"
		if !l.Next.IsZero() {
			next = "next " + l.Next.Format(dayLayout+" 15:04 MST")
		}
		fmt.Fprintf(&b, "\n• `%s` rest %q for %s at `%s` (%s): %s", l.ID, restLabel(rs, l.Rest), whoWords(l.Who), l.Cron, zoneName(l.Schedule), next)
	}
	return Response{Content: b.String(), Ephemeral: true}, nil
}

// cmdScheduleRemove answers /schedule remove: the schedule stops (a firing already
// running applies nothing) and is deleted. Only a schedule of this channel can be
// removed here.
func (c *Core) cmdScheduleRemove(ctx context.Context, cmd Command) (Response, error) {
	id := strings.Trim(strings.TrimSpace(cmd.Get("id")), "`")
	var sc *storage.Schedule
	var rs *ruleset.Ruleset
	err := c.store.View(ctx, func(tx storage.Tx) error {
		sc, rs = nil, nil
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		s, err := tx.Schedule(id)
		if storage.KindOf(err) == storage.NotFound || (err == nil && s.ChannelID != cmd.ChannelID) {
			return nil
		}
		if err != nil {
			return err
		}
		sc = s
		if l, err := c.rules(tx, camp.GuildID, camp.Ruleset); err == nil {
			rs = l.Ruleset
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	notFound := Response{Content: fmt.Sprintf("There is no schedule %q in this channel: /schedule list shows their ids.", id), Ephemeral: true}
	if sc == nil {
		return notFound, nil
	}
	err = c.sched.Remove(ctx, cmd.ChannelID, id)
	if storage.KindOf(err) == storage.NotFound {
		return notFound, nil
	}
	if err != nil {
		return Response{}, err
	}
	label := sc.Rest
	if rs != nil {
		label = restLabel(rs, sc.Rest)
	}
	return Response{Content: fmt.Sprintf("Removed schedule `%s`: rest %q for %s at `%s` (%s) will not run again.",
		sc.ID, label, whoWords(sc.Who), sc.Cron, zoneName(*sc))}, nil
}

// scheduleID derives a new schedule's id from what it asks for and when: eight
// characters of a-z and 2-7, like the scheduler's own random ones, but the same for the
// same request, so what a console script prints does not change from run to run. An id
// already taken (the same schedule asked for twice at one instant) takes the next
// candidate.
func scheduleID(tx storage.Tx, sc storage.Schedule, now time.Time) (string, error) {
	for n := range 100 {
		h := sha256.Sum256([]byte(strings.Join([]string{sc.ChannelID, sc.Rest, sc.Cron, sc.TimeZone, sc.Who,
			now.UTC().Format(time.RFC3339Nano), strconv.Itoa(n)}, "\x00")))
		id := strings.ToLower(base32.StdEncoding.EncodeToString(h[:5]))
		_, err := tx.Schedule(id)
		if storage.KindOf(err) == storage.NotFound {
			return id, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", errors.New("schedule: no free id")
}

// nextRun says when s runs next after now, on its zone's clock.
func nextRun(s storage.Schedule, now time.Time) string {
	sched, err := schedule.Parse(s.Cron, s.TimeZone)
	if err != nil {
		return "never"
	}
	next := sched.Next(now)
	if next.IsZero() {
		return "never"
	}
	return next.In(zoneOf(s)).Format(dayLayout + " 15:04 MST")
}

// restList names a ruleset's rests for a refusal: "Catch your breath (breather), …".
func restList(rs *ruleset.Ruleset) string {
	if len(rs.Rests) == 0 {
		return "none"
	}
	names := make([]string, len(rs.Rests))
	for i, r := range rs.Rests {
		names[i] = r.Label + " (" + r.ID + ")"
	}
	return strings.Join(names, ", ")
}
