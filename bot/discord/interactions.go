package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
)

// Interactions: a slash command goes to Core.OnCommand, a click or choice to
// OnComponent, a keystroke in an autocompleted option to OnAutocomplete. Discord wants
// the first answer within 3 seconds: autocomplete answers directly (its core call is
// bounded); a command or component answers directly when the core is done within
// DeferAfter, else the bot defers (type 5, or 6 for a component) and sends the answer
// when it comes, as arikawa's cmdroute does.

func (b *Bot) onInteraction(_ *discordgo.Session, e *discordgo.InteractionCreate) {
	i := e.Interaction
	if i == nil || i.ID == "" || i.Token == "" || i.Data == nil {
		b.log.Warn("discord: an interaction without id, token or data ignored")
		return
	}
	var run func()
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		run = func() { b.command(i) }
	case discordgo.InteractionApplicationCommandAutocomplete:
		run = func() { b.autocomplete(i) }
	case discordgo.InteractionMessageComponent:
		run = func() { b.component(i) }
	default:
		b.log.Debug("discord: interaction type not handled", "type", i.Type.String())
		return
	}
	if !b.spawn("interaction", i.ChannelID, run) {
		b.log.Info("discord: shutting down, interaction dropped", "id", i.ID)
	}
}

// userOf is who caused an interaction. In a guild the interaction carries the member's
// permissions in the channel, as Discord computed them; Manage Server (or Administrator,
// which holds every permission) lets them install rulesets there.
func userOf(i *discordgo.Interaction) bot.User {
	var u bot.User
	switch {
	case i.Member != nil && i.Member.User != nil:
		u = bot.User{ID: i.Member.User.ID, Name: displayName(i.Member.User), Bot: i.Member.User.Bot, Roles: i.Member.Roles,
			CanManageGuild: i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0}
		if i.Member.Nick != "" {
			u.Name = i.Member.Nick
		}
	case i.User != nil:
		u = bot.User{ID: i.User.ID, Name: displayName(i.User), Bot: i.User.Bot}
	}
	return u
}

// command answers a slash command: its options read (attachments downloaded), the core
// asked, the answer sent in time.
func (b *Bot) command(i *discordgo.Interaction) {
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok {
		b.log.Warn("discord: a command interaction without command data ignored", "id", i.ID)
		return
	}
	b.answer(i, false, func(ctx context.Context) bot.Response {
		path, opts := invocation(data)
		cmd := bot.Command{Name: b.cmds.coreName(path), User: userOf(i), ChannelID: i.ChannelID, GuildID: i.GuildID}
		for _, o := range opts {
			if o == nil {
				continue
			}
			opt := bot.Option{Name: o.Name, Value: optionValue(o)}
			if o.Type == discordgo.ApplicationCommandOptionAttachment {
				att, err := b.download(ctx, data.Resolved, opt.Value)
				if err != nil {
					b.log.Info("discord: attachment not read", "command", path, "err", err)
					return bot.Response{Ephemeral: true, Content: fmt.Sprintf("I could not read the file given as %s: %v.", o.Name, err)}
				}
				opt.Attachment, opt.Value = att, att.Name
			}
			cmd.Options = append(cmd.Options, opt)
		}
		return b.core.OnCommand(ctx, cmd)
	})
}

// download fetches an attachment option's file, refusing one over MaxAttachment.
func (b *Bot) download(ctx context.Context, res *discordgo.ApplicationCommandInteractionDataResolved, id string) (*bot.Attachment, error) {
	if res == nil || res.Attachments[id] == nil {
		return nil, errors.New("the file did not come with the command")
	}
	a := res.Attachments[id]
	limit := b.opts.MaxAttachment
	if int64(a.Size) > limit {
		return nil, fmt.Errorf("%s is %s; the limit is %s", a.Filename, size(int64(a.Size)), size(limit))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return nil, errors.New("its address is unusable")
	}
	resp, err := b.sess.Client.Do(req)
	if err != nil {
		return nil, errors.New("downloading it failed")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading it failed (%s)", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, errors.New("downloading it failed")
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("%s is over the limit of %s", a.Filename, size(limit))
	}
	return &bot.Attachment{Name: a.Filename, Data: body}, nil
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// component answers a click on a button or a choice in a select menu.
func (b *Bot) component(i *discordgo.Interaction) {
	data, ok := i.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		b.log.Warn("discord: a component interaction without component data ignored", "id", i.ID)
		return
	}
	comp := bot.Component{CustomID: data.CustomID, Values: data.Values, User: userOf(i), ChannelID: i.ChannelID, GuildID: i.GuildID}
	if i.Message != nil {
		comp.MessageID = i.Message.ID
	}
	b.answer(i, true, func(ctx context.Context) bot.Response { return b.core.OnComponent(ctx, comp) })
}

// autocomplete answers a keystroke with at most 25 choices, each name and value of 1 to
// 100 characters, within AutocompleteTimeout.
func (b *Bot) autocomplete(i *discordgo.Interaction) {
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok {
		b.log.Warn("discord: an autocomplete interaction without command data ignored", "id", i.ID)
		return
	}
	ctx, cancel := context.WithTimeout(b.base, b.opts.AutocompleteTimeout)
	defer cancel()
	resp := b.completions(ctx, i, data)
	if err := b.sess.InteractionRespond(i, resp, discordgo.WithContext(ctx)); err != nil {
		b.log.Warn("discord: answering an autocomplete", "id", i.ID, "err", err)
	}
}

// completions asks the core for the choices of an autocomplete interaction and returns
// the answer (type 8) to send.
func (b *Bot) completions(ctx context.Context, i *discordgo.Interaction, data discordgo.ApplicationCommandInteractionData) *discordgo.InteractionResponse {
	path, opts := invocation(data)
	ac := bot.Autocomplete{Command: b.cmds.coreName(path), User: userOf(i), ChannelID: i.ChannelID, GuildID: i.GuildID}
	for _, o := range opts {
		if o == nil {
			continue
		}
		ac.Options = append(ac.Options, bot.Option{Name: o.Name, Value: optionValue(o)})
		if o.Focused {
			ac.Focused = o.Name
		}
	}
	choices := []*discordgo.ApplicationCommandOptionChoice{}
	if ac.Focused != "" {
		for _, c := range b.core.OnAutocomplete(ctx, ac) {
			name, value := clip(strings.TrimSpace(c.Name), 100), clip(c.Value, 100)
			if name == "" || value == "" {
				continue
			}
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: value})
			if len(choices) == 25 {
				break
			}
		}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}
}

// answer runs work and sends its response: directly when it is done within DeferAfter,
// else after deferring; then the posts the core sent with it (bot.Response.Posts, such
// as notices in other channels), as it posts a message event's. component says the
// interaction is a click on a message.
func (b *Bot) answer(i *discordgo.Interaction, component bool, work func(context.Context) bot.Response) {
	ctx, cancel := context.WithTimeout(b.base, b.opts.HandlerTimeout)
	defer cancel()
	done := make(chan bot.Response, 1)
	go func() {
		var r bot.Response
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("discord: interaction handler panicked", "id", i.ID, "panic", fmt.Sprint(p))
				r = bot.Response{Ephemeral: true, Content: "Internal error."}
			}
			done <- r
		}()
		r = work(ctx)
	}()
	timer := time.NewTimer(b.opts.DeferAfter)
	defer timer.Stop()
	select {
	case r := <-done:
		b.respond(ctx, i, component, r)
		b.perform(ctx, r.Posts)
		return
	case <-timer.C:
	}
	deferred := discordgo.InteractionResponseDeferredChannelMessageWithSource
	if component {
		deferred = discordgo.InteractionResponseDeferredMessageUpdate
	}
	if err := b.sess.InteractionRespond(i, &discordgo.InteractionResponse{Type: deferred}, discordgo.WithContext(ctx)); err != nil {
		b.log.Warn("discord: deferring", "id", i.ID, "err", err)
	}
	b.log.Debug("discord: answer deferred", "id", i.ID)
	r := <-done
	b.followUp(ctx, i, component, r)
	b.perform(ctx, r.Posts)
}

// responseMessages are the messages of a response, split within Discord's limits and
// at most maxMessages of them (capMessages), and the files that go with the first, as
// do the components: r's own and, when the answer was cut, its whole text.
func responseMessages(r bot.Response) ([]message, []bot.File) {
	msgs := split(r.Content, r.Embeds)
	if len(msgs) == 0 && (len(r.Components) > 0 || len(r.Files) > 0 || r.Update) {
		msgs = []message{{}}
	}
	if len(msgs) == 0 {
		msgs = []message{{content: "Done."}}
	}
	return capMessages(msgs, r.Content, r.Files)
}

func flags(r bot.Response) discordgo.MessageFlags {
	if r.Ephemeral {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

func nonNilEmbeds(e []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	if e == nil {
		return []*discordgo.MessageEmbed{}
	}
	return e
}

// respond answers an interaction not yet acknowledged: the first message as the
// callback (type 7, updating the clicked message, for a component's Update; else 4),
// the rest as follow-ups.
func (b *Bot) respond(ctx context.Context, i *discordgo.Interaction, component bool, r bot.Response) {
	var msgs []message
	msgs, r.Files = responseMessages(r)
	first := &discordgo.InteractionResponseData{
		Content: msgs[0].content, Embeds: nonNilEmbeds(msgs[0].embeds), Components: componentsOf(r.Components),
		Files: filesOf(r.Files), AllowedMentions: noMentions(),
	}
	typ := discordgo.InteractionResponseChannelMessageWithSource
	if component && r.Update {
		typ = discordgo.InteractionResponseUpdateMessage
	} else {
		first.Flags = flags(r)
	}
	if err := b.sess.InteractionRespond(i, &discordgo.InteractionResponse{Type: typ, Data: first}, discordgo.WithContext(ctx)); err != nil {
		b.log.Error("discord: answering an interaction", "id", i.ID, "err", err)
		if refusedBody(err) {
			// Discord refused what the answer said, not the answer itself: the interaction
			// is still open, and a plain word beats "The application did not respond".
			plain := &discordgo.InteractionResponseData{Content: answerRefused, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()}
			if err := b.sess.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: plain}, discordgo.WithContext(ctx)); err != nil {
				b.log.Error("discord: answering an interaction with the refusal note", "id", i.ID, "err", err)
			}
		}
		return
	}
	b.sendFollowUps(ctx, i, r, msgs[1:], false)
}

// answerRefused is the private answer when Discord refused the real one (a 400): the
// operator's log has why.
const answerRefused = "⚠ Discord would not take my answer to that, so nothing is shown; the bot's log says why. What the command did, it did."

// refusedBody reports whether err is Discord refusing a request's body (400 Bad
// Request): a limit passed, a field it will not take.
func refusedBody(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusBadRequest
}

// followUp sends the answer of a deferred interaction. A command was deferred publicly
// ("thinking…"): a public answer replaces that message; a private one removes it and
// comes as an ephemeral follow-up. A component was deferred silently: an Update edits
// the clicked message, anything else is a follow-up.
func (b *Bot) followUp(ctx context.Context, i *discordgo.Interaction, component bool, r bot.Response) {
	var msgs []message
	msgs, r.Files = responseMessages(r)
	editOriginal := (component && r.Update) || (!component && !r.Ephemeral)
	if !editOriginal {
		if !component {
			if err := b.sess.InteractionResponseDelete(i, discordgo.WithContext(ctx)); err != nil {
				b.log.Warn("discord: removing a deferred answer", "id", i.ID, "err", err)
			}
		}
		b.sendFollowUps(ctx, i, r, msgs, true)
		return
	}
	content, embeds, comps := msgs[0].content, nonNilEmbeds(msgs[0].embeds), componentsOf(r.Components)
	edit := &discordgo.WebhookEdit{Content: &content, Embeds: &embeds, Components: &comps, Files: filesOf(r.Files), AllowedMentions: noMentions()}
	if _, err := b.sess.InteractionResponseEdit(i, edit, discordgo.WithContext(ctx)); err != nil {
		b.log.Error("discord: sending a deferred answer", "id", i.ID, "err", err)
		return
	}
	b.sendFollowUps(ctx, i, r, msgs[1:], false)
}

// sendFollowUps sends msgs as follow-up messages, private when r is; the first carries
// r's components and files when first says msgs starts the response.
func (b *Bot) sendFollowUps(ctx context.Context, i *discordgo.Interaction, r bot.Response, msgs []message, first bool) {
	for n, m := range msgs {
		p := &discordgo.WebhookParams{Content: m.content, Embeds: m.embeds, Flags: flags(r), AllowedMentions: noMentions()}
		if n == 0 && first {
			p.Components = componentsOf(r.Components)
			p.Files = filesOf(r.Files)
		}
		if _, err := b.sess.FollowupMessageCreate(i, true, p, discordgo.WithContext(ctx)); err != nil {
			b.log.Error("discord: sending a follow-up", "id", i.ID, "err", err)
		}
	}
}
