// Package console is sheetkeeper's terminal front end (SPEC 8.2): the same bot core as
// the Discord adapter, driven by lines of text instead of gateway events. It is how a
// newcomer plays without a token, how a ruleset author tries a file, and how tests drive
// the whole bot end to end.
//
// Each line is one event in the current channel (`table` at the start):
//
//	name: text              user `name` posts text; /command … runs a slash command
//	name ^N: text           the same, as a reply to event N's message
//	!edit N: text           edit event N's message
//	!delete N               delete event N's message
//	!resend N               deliver event N's message again, as Discord sometimes does
//	!click N LABEL [v…]     click a button (or choose values in a select menu) of event
//	                        N's answer; by:NAME clicks as someone else
//	!complete name: /cmd …  the autocomplete choices for the last option given
//	!channel NAME           switch channel
//	!clock TIME             set the clock (RFC 3339); scheduled rests due by then fire
//	!help                   this list
//	# …                     a comment
//
// A user's name is their id and a channel's name is its id, so a database prepared in
// the console serves the Discord bot for the same ids. Every line except blank lines and
// comments is an event, numbered from 1; the bot's answers are Events, printed under the
// line in a readable form or as one JSON line each (--json).
package console

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"sheetkeeper/bot"
	"sheetkeeper/check"
	"sheetkeeper/schedule"
)

// DefaultChannel is the channel a console session starts in.
const DefaultChannel = "table"

// Options configure a Console.
type Options struct {
	// Clock is the session's clock, the one the core was built with (bot.Options.Clock):
	// `!clock TIME` sets it. Nil is a clock running on wall time.
	Clock *schedule.ManualClock
	// Dir is the folder attachment paths are relative to: a script's folder, or the
	// working directory.
	Dir string
	// Out is the folder the files the bot sends (an exported ruleset or system) are
	// written to, as a Discord user would download them; "" writes none. A file is never
	// written over one holding other bytes.
	Out string
	// Session prefixes the ids of the messages this session makes up. Message ids must
	// not repeat across sessions on one database (the bot applies a message id once), so
	// the default is made from the wall time; tests give a fixed one.
	Session string
	// OnClock is called after `!clock` moves the clock from before to now; the actions it
	// returns (fired schedules' posts) are shown under the event. Nil: nothing fires.
	OnClock func(ctx context.Context, before, now time.Time) ([]bot.Action, error)
	// Posted returns what the core posted on its own since it was last called (an
	// Outbox's Take): after a click, the edits of other posts an Undo made are shown
	// under the click. Nil: none are shown.
	Posted func() []bot.Action
	// Dice is the core's dice (bot.Options.Dice), for Start: check.Seeded(n) for
	// --seed n, so a session's every roll is reproducible. Nil: crypto-seeded dice.
	Dice check.Source
	// Panels runs game systems' panels (bot.Options.Panels), for Start: the process's
	// panel worker. Nil: no panel is drawn.
	Panels bot.PanelRunner
}

// Console feeds lines to a bot core and collects what the bot answers. It is not safe
// for concurrent use: a session is one line after another.
type Console struct {
	core    *bot.Core
	clock   *schedule.ManualClock
	dir     string
	out     string
	session string
	onClock func(ctx context.Context, before, now time.Time) ([]bot.Action, error)
	posted  func() []bot.Action

	channel string
	n       int
	events  map[int]*record
	posts   map[string]int // the bot's post ids → the event they were posted under
	specs   []bot.CommandSpec
	startup []bot.Action // what the bot said when the session started (Start)
}

// record is what the console remembers of an event, for later lines that name it.
type record struct {
	n       int
	kind    string
	channel string
	author  string
	// msg is a message event's message as it is now; created is as it was first posted.
	msg, created *bot.Message
	deleted      bool
	// shown are the bot's answers carrying components, for !click.
	shown []*shown
}

// shown is one answer of the bot, as it stands after any updates.
type shown struct {
	id    string
	event int // the event it answered
	resp  bot.Response
	user  string // who asked: an ephemeral answer is seen by them alone
}

// New returns a console over core. The core should have been built with the same clock
// (bot.Options{Clock: opts.Clock}).
func New(core *bot.Core, opts Options) *Console {
	if opts.Clock == nil {
		opts.Clock = schedule.NewRunningClock(nil)
	}
	if opts.Dir == "" {
		opts.Dir = "."
	}
	if opts.Session == "" {
		opts.Session = strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	return &Console{
		core: core, clock: opts.Clock, dir: opts.Dir, out: opts.Out, session: opts.Session, onClock: opts.OnClock, posted: opts.Posted,
		channel: DefaultChannel, events: map[int]*record{}, posts: map[string]int{},
	}
}

// Next is the number the next event will have.
func (c *Console) Next() int { return c.n + 1 }

// Event kinds.
const (
	KindMessage  = "message"
	KindCommand  = "command"
	KindEdit     = "edit"
	KindDelete   = "delete"
	KindResend   = "resend"
	KindClick    = "click"
	KindComplete = "complete"
	KindChannel  = "channel"
	KindClock    = "clock"
	KindHelp     = "help"
	KindError    = "error" // a line that says no event
)

var (
	speaker  = regexp.MustCompile(`^([^\s:^!#/"'][^\s:^]*)\s*(?:\^\s*(\d+))?\s*:(.*)$`)
	numbered = regexp.MustCompile(`^(\d+)\s*(?::(.*))?$`)
)

// Do runs one line. It returns nil for a blank line or a comment, which are not events.
func (c *Console) Do(ctx context.Context, line string) *Event {
	trimmed := strings.TrimSpace(line)
	if trimmed == "" || strings.HasPrefix(trimmed, "#") {
		return nil
	}
	c.n++
	ev := &Event{N: c.n, Line: trimmed, Channel: c.channel, Tags: []Tag{}, Posts: []Post{}}
	rec := &record{n: c.n, channel: c.channel}
	c.events[c.n] = rec
	var err error
	if strings.HasPrefix(trimmed, "!") {
		err = c.directive(ctx, ev, rec, trimmed[1:])
	} else {
		err = c.speak(ctx, ev, rec, trimmed)
	}
	if err != nil {
		ev.Error = err.Error()
		if ev.Kind == "" {
			ev.Kind = KindError
		}
	}
	if ev.Error == "" {
		for _, p := range ev.Posts {
			if strings.HasPrefix(p.Content, internalError) {
				ev.Error = "internal error: the bot logged what went wrong (--log-level)"
			}
		}
	}
	rec.kind, rec.author = ev.Kind, ev.Author
	return ev
}

// internalError is how the core words a failure that is not the user's to read; the
// console says so in the event's error too, so a script's JSON shows it.
const internalError = "Internal error"

// speak runs `name: text` and `name ^N: text`.
func (c *Console) speak(ctx context.Context, ev *Event, rec *record, line string) error {
	m := speaker.FindStringSubmatch(line)
	if m == nil {
		if strings.HasPrefix(line, "/") {
			return fmt.Errorf("say who runs it: gm: %s", line)
		}
		return fmt.Errorf("write `name: text` (a user and what they post), or !help")
	}
	name, text := m[1], strings.TrimSpace(m[3])
	ev.Author = name
	if cmd, ok := strings.CutPrefix(text, "/"); ok {
		ev.Kind = KindCommand
		if m[2] != "" {
			return fmt.Errorf("a slash command cannot answer a message: drop ^%s", m[2])
		}
		return c.command(ctx, ev, rec, name, cmd)
	}
	ev.Kind = KindMessage
	msg := &bot.Message{
		ChannelID: c.channel,
		ID:        c.messageID(ev.N),
		Author:    bot.User{ID: name, Name: name},
		Content:   text,
	}
	if m[2] != "" {
		to, err := c.event(m[2])
		if err != nil {
			return err
		}
		if to.msg == nil {
			return fmt.Errorf("event %s is not a message, so nothing can answer it", m[2])
		}
		msg.ReplyTo, msg.ReplyToAuthor = to.msg.ID, to.msg.Author.ID
	}
	created := *msg
	rec.msg, rec.created = msg, &created
	c.actions(ctx, ev, c.core.OnMessage(ctx, *msg))
	return nil
}

// command runs a slash command.
func (c *Console) command(ctx context.Context, ev *Event, rec *record, user, text string) error {
	spec, opts, err := parseCommand(c.commands(), text, c.dir)
	if err != nil {
		return err
	}
	resp := c.core.OnCommand(ctx, bot.Command{
		Name:      spec.Name,
		Options:   opts,
		User:      bot.User{ID: user, Name: user, CanManageGuild: true}, // the console is its operator's
		ChannelID: c.channel,
	})
	c.respond(ev, rec, user, resp)
	return nil
}

// respond shows a command's or a click's answer, and keeps it for !click.
func (c *Console) respond(ev *Event, rec *record, user string, resp bot.Response) {
	sh := &shown{id: fmt.Sprintf("%s-%d-r%d", c.session, ev.N, len(rec.shown)+1), event: ev.N, resp: resp, user: user}
	rec.shown = append(rec.shown, sh)
	first := len(ev.Posts)
	ev.Posts = append(ev.Posts, responsePosts(KindResponse, 0, ev.Channel, resp)...)
	c.save(ev.Posts[first].Files, resp.Files)
}

func (c *Console) commands() []bot.CommandSpec {
	if c.specs == nil {
		c.specs = c.core.Commands()
	}
	return c.specs
}

func (c *Console) messageID(n int) string { return fmt.Sprintf("%s-%d", c.session, n) }

// event finds the event a directive names by number.
func (c *Console) event(num string) (*record, error) {
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return nil, fmt.Errorf("%q is not an event number", num)
	}
	rec, ok := c.events[n]
	if !ok || n == c.n {
		return nil, fmt.Errorf("there is no event %d before this one", n)
	}
	return rec, nil
}

// message finds the message event a directive names.
func (c *Console) message(num string) (*record, error) {
	rec, err := c.event(num)
	if err != nil {
		return nil, err
	}
	if rec.msg == nil {
		return nil, fmt.Errorf("event %s is not a message", num)
	}
	return rec, nil
}

// directive runs a line starting with '!'.
func (c *Console) directive(ctx context.Context, ev *Event, rec *record, line string) error {
	word, rest, _ := strings.Cut(line, " ")
	word, arg, hasColon := strings.Cut(word, ":")
	if hasColon {
		rest = strings.TrimSpace(":" + arg + " " + rest)
	}
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "edit":
		ev.Kind = KindEdit
		return c.edit(ctx, ev, rec, rest)
	case "delete":
		ev.Kind = KindDelete
		return c.delete(ctx, ev, rec, rest)
	case "resend":
		ev.Kind = KindResend
		return c.resend(ctx, ev, rec, rest)
	case "click":
		ev.Kind = KindClick
		return c.click(ctx, ev, rec, rest)
	case "complete":
		ev.Kind = KindComplete
		return c.complete(ctx, ev, rest)
	case "channel":
		ev.Kind = KindChannel
		if rest == "" || strings.ContainsAny(rest, " \t:") {
			return fmt.Errorf("write !channel NAME (one word)")
		}
		c.channel = strings.TrimPrefix(rest, "#")
		rec.channel = c.channel
		ev.Channel = c.channel
	case "clock":
		ev.Kind = KindClock
		return c.setClock(ctx, ev, rest)
	case "help":
		ev.Kind = KindHelp
		ev.Posts = append(ev.Posts, Post{Kind: KindHelp, Content: Help})
	default:
		return fmt.Errorf("there is no directive !%s; !help lists them", word)
	}
	return nil
}

// fromMessage makes ev an event on target's message: by its author, in its channel.
func fromMessage(ev *Event, rec, target *record) {
	ev.Author, ev.Channel, rec.channel = target.author, target.msg.ChannelID, target.msg.ChannelID
}

// edit runs !edit N: new text, an edit of event N's message.
func (c *Console) edit(ctx context.Context, ev *Event, rec *record, rest string) error {
	m := numbered.FindStringSubmatch(rest)
	if m == nil || !strings.Contains(rest, ":") {
		return fmt.Errorf("write !edit N: new text")
	}
	target, err := c.message(m[1])
	if err != nil {
		return err
	}
	if target.deleted {
		return fmt.Errorf("event %s's message was deleted", m[1])
	}
	fromMessage(ev, rec, target)
	target.msg.Content = strings.TrimSpace(m[2])
	c.actions(ctx, ev, c.core.OnEdit(ctx, *target.msg))
	return nil
}

// numberedMessage is the message of the event a !delete or !resend (word) names by its
// number alone.
func (c *Console) numberedMessage(word, rest string) (*record, error) {
	if !numbered.MatchString(rest) || strings.Contains(rest, ":") {
		return nil, fmt.Errorf("write !%s N", word)
	}
	return c.message(rest)
}

// delete runs !delete N, the deletion of event N's message.
func (c *Console) delete(ctx context.Context, ev *Event, rec *record, rest string) error {
	target, err := c.numberedMessage("delete", rest)
	if err != nil {
		return err
	}
	// Deleting twice is allowed: Discord may deliver a deletion twice too.
	target.deleted = true
	fromMessage(ev, rec, target)
	c.actions(ctx, ev, c.core.OnDelete(ctx, bot.Deletion{ChannelID: target.msg.ChannelID, ID: target.msg.ID}))
	return nil
}

// resend runs !resend N: event N's message, as first sent, delivered again.
func (c *Console) resend(ctx context.Context, ev *Event, rec *record, rest string) error {
	target, err := c.numberedMessage("resend", rest)
	if err != nil {
		return err
	}
	fromMessage(ev, rec, target)
	c.actions(ctx, ev, c.core.OnMessage(ctx, *target.created))
	return nil
}

// setClock runs !clock TIME: the clock moves to TIME, and what falls due runs.
func (c *Console) setClock(ctx context.Context, ev *Event, rest string) error {
	t, err := time.Parse(time.RFC3339, rest)
	if err != nil {
		return fmt.Errorf("write !clock 2026-12-01T06:00:00Z (RFC 3339, with a zone)")
	}
	before := c.clock.Now()
	c.clock.Set(t)
	ev.Clock = t
	if c.onClock == nil {
		return nil
	}
	acts, err := c.onClock(ctx, before, t)
	c.actions(ctx, ev, acts)
	return err
}

// actions shows what the core did in answer to a message event, and tells it the ids of
// its posts so later edits and deletes reach them.
func (c *Console) actions(ctx context.Context, ev *Event, acts []bot.Action) {
	for _, a := range acts {
		p := Post{Kind: a.Kind, Content: a.Content, Embeds: embeds(a.Embeds), Components: components(a.Components)}
		if a.ChannelID != "" && a.ChannelID != ev.Channel {
			p.Channel = a.ChannelID
		}
		if a.DM != "" {
			p.Channel = "dm:" + a.DM // a direct message: shown as a channel of its own
		}
		switch a.Kind {
		case bot.Post:
			id := fmt.Sprintf("%s-%d-bot%d", c.session, ev.N, len(ev.Posts)+1)
			c.posts[id] = ev.N
			c.clickable(id, ev.N, a)
			if a.ReplySeq > 0 {
				channel := a.ChannelID
				if channel == "" {
					channel = ev.Channel
				}
				if err := c.core.RecordPost(ctx, channel, a.ReplySeq, []string{id}); err != nil {
					ev.Error = "recording the bot's post: " + err.Error()
				}
			}
		case bot.React:
			p = Post{Kind: KindReaction, Of: c.eventOf(a.MessageID), Content: a.Emoji, Channel: p.Channel}
			if p.Of == 0 {
				p.Message = a.MessageID
			}
		case bot.Edit, bot.Delete:
			// The console posts each post as one message, so Posted holds one id.
			if len(a.Posted) > 0 {
				p.Of = c.posts[a.Posted[0]]
			}
			if p.Of == 0 {
				p.Message = strings.Join(a.Posted, ",")
			} else if a.Kind == bot.Edit {
				c.clickable(a.Posted[0], p.Of, a)
			}
		}
		ev.Posts = append(ev.Posts, p)
		if a.Kind == bot.Post || a.Kind == bot.Edit {
			ev.Tags = append(ev.Tags, tagsOf(a.Outcomes)...)
		}
	}
}

// eventOf is the event that posted the message id in this session (a line's message,
// or a bot post), 0 when none did.
func (c *Console) eventOf(id string) int {
	if n, ok := c.posts[id]; ok {
		return n
	}
	// A line's message id is messageID(n).
	if rest, ok := strings.CutPrefix(id, c.session+"-"); ok {
		if n, err := strconv.Atoi(rest); err == nil && c.events[n] != nil && c.messageID(n) == id {
			return n
		}
	}
	return 0
}

// clickable keeps the bot's post id (of event n), as action a leaves it, for !click on
// its buttons (a reply's Undo or Redo): an edit replaces what the post showed.
func (c *Console) clickable(id string, n int, a bot.Action) {
	rec := c.events[n]
	if rec == nil {
		return
	}
	resp := bot.Response{Content: a.Content, Embeds: a.Embeds, Components: a.Components}
	for _, sh := range rec.shown {
		if sh.id == id {
			sh.resp = resp
			return
		}
	}
	if len(a.Components) > 0 {
		rec.shown = append(rec.shown, &shown{id: id, event: n, resp: resp})
	}
}

// Help is what !help shows.
const Help = `Each line is one event in the current channel (table at the start):
  name: text              user name posts text (a GM's tags are applied)
  name: /command opt:val  a slash command, e.g. gm: /pick name:Mira catalog:knacks entry:"Last Ember"
  name ^N: text           a post answering event N
  !edit N: text           edit event N's message      !delete N   delete it
  !resend N               deliver event N's message again (Discord may send one twice)
  !click N LABEL [v…]     click a button of event N's answer, or choose values in its menu
                          (by:NAME clicks as someone else)
  !complete name: /cmd …  the choices autocomplete offers for the last option given
  !channel NAME           switch channel
  !clock 2026-12-01T06:00:00Z   set the clock: scheduled rests due by then fire
  # …                     a comment
A user's name is their id and a channel's name is its id.`
