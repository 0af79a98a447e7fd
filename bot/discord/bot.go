// Package discord is sheetkeeper's Discord front end: a discordgo session whose gateway
// events and interactions become calls to the transport-free core (package bot), and
// whose answers — posts, edits, deletes, command and component responses, autocomplete
// choices — are rendered within Discord's limits.
//
// Message events of one channel are handled one at a time, in the order the gateway
// delivered them (an edit never overtakes the message it edits); channels run in
// parallel, and so do interactions, each answered in time: autocomplete directly, a
// command or component directly when the core answers within DeferAfter, else deferred
// and followed up (arikawa's cmdroute does the same). The bot's own messages, which
// Discord echoes back, are ignored; a message applied once is never applied again
// (the core records message ids), so a duplicated or replayed event is harmless.
package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
	"sheetkeeper/bot/discord/endpoint"
)

// Intents are the gateway intents the bot needs: guilds (channels and roles), guild
// messages (MESSAGE_CREATE/UPDATE/DELETE) and their content (the tags).
const Intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages | discordgo.IntentsMessageContent

// Options configure a Bot.
type Options struct {
	// Token is the bot token, without "Bot ".
	Token string
	// API is the base URL of Discord's API; empty (or https://discord.com) is Discord
	// itself. Anything else receives every REST request and gateway connection.
	API string
	// Guild, when set, is where slash commands are registered (instantly, for
	// development); otherwise they are registered globally.
	Guild string
	// Shard of Shards is the gateway shard this bot runs (default 0 of 1: all of it).
	// Discord sends a shard the events of the guilds with (guild_id >> 22) % Shards ==
	// Shard, and direct messages to shard 0; each guild's channels are so handled by one
	// process. Only shard 0 registers the slash commands: they are the application's,
	// not a shard's, and one overwrite is enough.
	Shard, Shards int
	// ShardsAuto leaves the shards to run time (shards.go): Open connects no gateway,
	// and OpenShard and CloseShard run the shards this process is given (Shard and
	// Shards are ignored); RecommendedShards says how many there are.
	ShardsAuto bool
	// IdentifyInterval spaces the shards' IDENTIFYs this process sends (default 5 s:
	// Discord takes one per 5 s from a bot whose max_concurrency is 1); negative, not
	// at all (tests against the fake).
	IdentifyInterval time.Duration
	// Log receives what the bot does not show users.
	Log *slog.Logger
	// DeferAfter is how long a command or component may take before its answer is
	// deferred (default 2 s, well inside Discord's 3).
	DeferAfter time.Duration
	// AutocompleteTimeout bounds the core's autocomplete (default 2 s): an answer after
	// Discord's 3 s would be refused, so a late one is given up.
	AutocompleteTimeout time.Duration
	// MaxAttachment is the largest attachment a command downloads (default 32 MiB).
	MaxAttachment int64
	// HandlerTimeout bounds the work on one event (default 60 s).
	HandlerTimeout time.Duration
	// OnReconnect, when set, is called each time the gateway connects again after its
	// first connection (discordgo reconnects by itself after a drop): the operator's
	// gateway reconnects metric (SPEC 12).
	OnReconnect func()
}

func (o *Options) defaults() {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Shards < 1 {
		o.Shards = 1
	}
	if o.IdentifyInterval == 0 {
		o.IdentifyInterval = 5 * time.Second
	}
	if o.DeferAfter <= 0 {
		o.DeferAfter = 2 * time.Second
	}
	if o.AutocompleteTimeout <= 0 {
		o.AutocompleteTimeout = 2 * time.Second
	}
	if o.MaxAttachment <= 0 {
		o.MaxAttachment = 32 << 20
	}
	if o.HandlerTimeout <= 0 {
		o.HandlerTimeout = 60 * time.Second
	}
}

// Bot connects a core to Discord. Open starts it, Close stops it.
type Bot struct {
	core *bot.Core
	// sess makes every REST request; it is also the gateway session of the shard the
	// options name (with ShardsAuto it never connects: links are the gateway).
	sess *discordgo.Session
	main *link
	opts Options
	log  *slog.Logger
	cmds *commandSet

	mu      sync.Mutex
	botID   string
	appID   string
	closing bool
	links   map[int]*link // ShardsAuto: the shards this process runs (shards.go)
	queues  map[string]*queue
	wg      sync.WaitGroup // queue workers and interactions in flight
	base    context.Context
	cancel  context.CancelFunc

	// opening serialises OpenShard, so a shard opened twice at once runs once;
	// identified is when it last connected one.
	opening    sync.Mutex
	identified time.Time
}

// link is one gateway session, a shard this process runs.
type link struct {
	sess      *discordgo.Session
	ready     chan struct{}
	readyOnce sync.Once
	// connected is whether the gateway is up (READY or RESUMED seen since the last
	// disconnect); connects counts its connections, the first included.
	connected atomic.Bool
	connects  atomic.Int64
}

// queue is one channel's message events waiting to be handled, in gateway order.
type queue struct{ jobs []func(context.Context) }

// New prepares a bot for core; it does not connect (Open does).
func New(core *bot.Core, opts Options) (*Bot, error) {
	opts.defaults()
	if strings.TrimSpace(opts.Token) == "" {
		return nil, errors.New("discord: no token")
	}
	if !opts.ShardsAuto && (opts.Shard < 0 || opts.Shard >= opts.Shards) {
		return nil, fmt.Errorf("discord: shard %d of %d: shards are numbered 0 to %d", opts.Shard, opts.Shards, opts.Shards-1)
	}
	cmds, err := buildCommands(core.Commands())
	if err != nil {
		return nil, fmt.Errorf("discord: slash commands: %w", err)
	}
	b := &Bot{core: core, opts: opts, log: opts.Log, cmds: cmds, links: map[int]*link{}, queues: map[string]*queue{}}
	main, err := b.newLink(opts.Shard, opts.Shards)
	if err != nil {
		return nil, err
	}
	b.main, b.sess = main, main.sess
	b.base, b.cancel = context.WithCancel(context.Background())
	return b, nil
}

// newLink is a gateway session of shard of count, not yet connected, whose events go
// to the bot's handlers.
func (b *Bot) newLink(shard, count int) (*link, error) {
	sess, err := discordgo.New("Bot " + strings.TrimSpace(b.opts.Token))
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	sess.Identify.Intents = Intents
	sess.ShardID, sess.ShardCount = shard, count
	// Handlers run on the gateway's goroutine and only hand work on: message events to
	// their channel's queue (order kept), interactions to goroutines of their own.
	sess.SyncEvents = true
	sess.StateEnabled = false
	sess.Client = &http.Client{Timeout: 30 * time.Second}
	if api := strings.TrimSuffix(strings.TrimSpace(b.opts.API), "/"); api != "" && api != strings.TrimSuffix(discordgo.EndpointDiscord, "/") {
		sess.Client.Transport = endpoint.Transport(api, nil)
		sess.Dialer = endpoint.Dialer(api)
	}
	l := &link{sess: sess, ready: make(chan struct{})}
	sess.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { b.onReady(l, r) })
	sess.AddHandler(func(_ *discordgo.Session, _ *discordgo.Connect) {
		if l.connects.Add(1) > 1 && b.opts.OnReconnect != nil {
			b.opts.OnReconnect()
		}
	})
	sess.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) { l.connected.Store(false) })
	sess.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) { l.connected.Store(true) })
	sess.AddHandler(b.onMessageCreate)
	sess.AddHandler(b.onMessageUpdate)
	sess.AddHandler(b.onMessageDelete)
	sess.AddHandler(b.onMessageDeleteBulk)
	sess.AddHandler(b.onInteraction)
	return l, nil
}

// Session is the bot's discordgo session.
func (b *Bot) Session() *discordgo.Session { return b.sess }

// Open connects to the gateway, waits for READY and, on shard 0, registers the slash
// commands (a bulk overwrite, in the guild when Options.Guild is set, else globally).
// With Options.ShardsAuto it connects nothing: OpenShard does, shard by shard.
func (b *Bot) Open(ctx context.Context) error {
	if b.opts.ShardsAuto {
		return nil
	}
	return b.openLink(ctx, b.main, b.opts.Shard, b.opts.Shards)
}

// openLink connects l, the gateway session of shard of count, waits for its READY and,
// for shard 0, registers the slash commands.
func (b *Bot) openLink(ctx context.Context, l *link, shard, count int) error {
	if err := l.sess.Open(); err != nil {
		return fmt.Errorf("discord: connecting shard %d of %d: %w", shard, count, endpoint.Named(err))
	}
	select {
	case <-l.ready:
	case <-ctx.Done():
		l.close()
		return fmt.Errorf("discord: waiting for READY: %w", ctx.Err())
	}
	scope := "by shard 0"
	if shard == 0 {
		var err error
		if scope, err = b.register(ctx); err != nil {
			l.close()
			return err
		}
	}
	b.log.Info("discord: connected", "user", b.botUser(), "shard", shard, "shards", count, "commands", len(b.cmds.commands), "registered", scope)
	return nil
}

// register overwrites the application's slash commands with the bot's, and says where.
func (b *Bot) register(ctx context.Context) (string, error) {
	b.mu.Lock()
	app := b.appID
	b.mu.Unlock()
	if _, err := b.sess.ApplicationCommandBulkOverwrite(app, b.opts.Guild, b.cmds.commands, discordgo.WithContext(ctx)); err != nil {
		return "", fmt.Errorf("discord: registering slash commands: %w", endpoint.Named(err))
	}
	if b.opts.Guild != "" {
		return "in guild " + b.opts.Guild, nil
	}
	return "globally", nil
}

// Close stops the bot: no new event is taken, the gateway is closed, and the events and
// interactions in flight are finished (their answers still go out over REST) before it
// returns. It is safe to call more than once.
func (b *Bot) Close() error {
	b.mu.Lock()
	already := b.closing
	b.closing = true
	b.mu.Unlock()
	if already {
		return nil
	}
	b.mu.Lock()
	links := b.links
	b.links = map[int]*link{}
	b.mu.Unlock()
	errs := []error{b.main.close()}
	for _, l := range links {
		errs = append(errs, l.close())
	}
	b.wg.Wait()
	b.cancel()
	return errors.Join(errs...)
}

// close disconnects l's gateway (nothing when it is not connected).
func (l *link) close() error {
	l.sess.ShouldReconnectOnError = false
	l.connected.Store(false)
	return l.sess.Close()
}

func (b *Bot) botUser() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.botID
}

func (b *Bot) onReady(l *link, r *discordgo.Ready) {
	b.mu.Lock()
	if r.User != nil {
		b.botID = r.User.ID
	}
	b.appID = b.botID
	if r.Application != nil && r.Application.ID != "" {
		b.appID = r.Application.ID
	}
	b.mu.Unlock()
	l.connected.Store(true)
	l.readyOnce.Do(func() { close(l.ready) })
}

// Connected reports whether the gateway is up now: /readyz's answer for Discord. With
// Options.ShardsAuto it is whether every shard this process runs is up (true while it
// runs none, waiting for a share: it is ready to take one).
func (b *Bot) Connected() bool {
	if !b.opts.ShardsAuto {
		return b.main.connected.Load()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range b.links {
		if !l.connected.Load() {
			return false
		}
	}
	return true
}

// ---- message events ---------------------------------------------------------------

func (b *Bot) onMessageCreate(_ *discordgo.Session, e *discordgo.MessageCreate) {
	if e.Message == nil || e.Author == nil || e.ChannelID == "" || e.ID == "" {
		b.log.Warn("discord: MESSAGE_CREATE without an author, channel or id ignored")
		return
	}
	if e.Author.ID == b.botUser() {
		return
	}
	m := messageOf(e.Message)
	b.enqueue(m.ChannelID, "message", func(ctx context.Context) {
		b.perform(ctx, b.core.OnMessage(ctx, m))
	})
}

func (b *Bot) onMessageUpdate(_ *discordgo.Session, e *discordgo.MessageUpdate) {
	if e.Message == nil || e.ChannelID == "" || e.ID == "" {
		b.log.Warn("discord: MESSAGE_UPDATE without a channel or id ignored")
		return
	}
	if e.Author != nil && e.Author.ID == b.botUser() {
		return
	}
	// Discord also sends updates when it unfurls a link; only an edit has a timestamp.
	if e.EditedTimestamp == nil {
		return
	}
	m := messageOf(e.Message)
	b.enqueue(m.ChannelID, "edit", func(ctx context.Context) {
		b.perform(ctx, b.core.OnEdit(ctx, m))
	})
}

func (b *Bot) onMessageDelete(_ *discordgo.Session, e *discordgo.MessageDelete) {
	if e.Message == nil || e.ChannelID == "" || e.ID == "" {
		b.log.Warn("discord: MESSAGE_DELETE without a channel or id ignored")
		return
	}
	d := bot.Deletion{ChannelID: e.ChannelID, ID: e.ID}
	b.enqueue(d.ChannelID, "delete", func(ctx context.Context) {
		b.perform(ctx, b.core.OnDelete(ctx, d))
	})
}

func (b *Bot) onMessageDeleteBulk(_ *discordgo.Session, e *discordgo.MessageDeleteBulk) {
	// Newest first, as a person deleting them one by one from the bottom would.
	for i := len(e.Messages) - 1; i >= 0; i-- {
		d := bot.Deletion{ChannelID: e.ChannelID, ID: e.Messages[i]}
		b.enqueue(d.ChannelID, "delete", func(ctx context.Context) {
			b.perform(ctx, b.core.OnDelete(ctx, d))
		})
	}
}

// messageOf is a Discord message as the core reads it.
func messageOf(m *discordgo.Message) bot.Message {
	out := bot.Message{ChannelID: m.ChannelID, GuildID: m.GuildID, ID: m.ID, Content: m.Content, Sent: m.Timestamp}
	if m.Author != nil {
		out.Author = bot.User{ID: m.Author.ID, Name: displayName(m.Author), Bot: m.Author.Bot, WebhookID: m.WebhookID}
	}
	if m.Member != nil {
		out.Author.Roles = m.Member.Roles
	}
	if m.MessageReference != nil {
		out.ReplyTo = m.MessageReference.MessageID
	}
	if m.ReferencedMessage != nil && m.ReferencedMessage.Author != nil {
		out.ReplyTo = m.ReferencedMessage.ID
		out.ReplyToAuthor = m.ReferencedMessage.Author.ID
	}
	return out
}

func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// enqueue adds a job to its channel's queue, starting the channel's worker when it has
// none; the worker ends when the queue is empty.
func (b *Bot) enqueue(channelID, kind string, job func(context.Context)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing {
		b.log.Info("discord: shutting down, event dropped", "kind", kind, "channel", channelID)
		return
	}
	q := b.queues[channelID]
	if q == nil {
		q = &queue{}
		b.queues[channelID] = q
		b.wg.Add(1)
		go b.drain(channelID, q)
	}
	q.jobs = append(q.jobs, func(ctx context.Context) { b.safely(kind, channelID, func() { job(ctx) }) })
}

func (b *Bot) drain(channelID string, q *queue) {
	defer b.wg.Done()
	for {
		b.mu.Lock()
		if len(q.jobs) == 0 {
			delete(b.queues, channelID)
			b.mu.Unlock()
			return
		}
		job := q.jobs[0]
		q.jobs = q.jobs[1:]
		b.mu.Unlock()
		ctx, cancel := context.WithTimeout(b.base, b.opts.HandlerTimeout)
		job(ctx)
		cancel()
	}
}

// spawn runs fn on a goroutine Close waits for; it reports false when the bot is
// closing and fn was not run.
func (b *Bot) spawn(kind, channelID string, fn func()) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing {
		return false
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.safely(kind, channelID, fn)
	}()
	return true
}

// safely runs fn, logging a panic instead of dying of it.
func (b *Bot) safely(kind, channelID string, fn func()) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("discord: handler panicked", "kind", kind, "channel", channelID, "panic", fmt.Sprint(p))
		}
	}()
	fn()
}

// ---- posting ------------------------------------------------------------------------

// Post carries out an action the core takes on its own (a scheduled rest's results, the
// report of rests missed while the bot was offline): give it to bot.Options.Post. It is
// safe to call from any goroutine, also while Close waits for work in flight.
func (b *Bot) Post(ctx context.Context, a bot.Action) {
	b.perform(ctx, []bot.Action{a})
}

// perform carries out the core's actions in order. A post's content is whole: it is
// split here into as many messages as Discord's limits need (split), and every one's id
// is reported back with RecordPost, so a later edit or delete of the GM's message
// reaches every piece.
func (b *Bot) perform(ctx context.Context, acts []bot.Action) {
	for _, a := range acts {
		switch a.Kind {
		case bot.Post:
			if a.DM != "" { // a direct message, or the channel when it cannot be sent (dm.go)
				b.direct(ctx, a)
				continue
			}
			ids := b.postOrLog(ctx, a.ChannelID, a.MessageID, split(a.Content, a.Embeds), a.Components)
			if a.ReplySeq != 0 && len(ids) > 0 {
				if err := b.core.RecordPost(ctx, a.ChannelID, a.ReplySeq, ids); err != nil {
					b.log.Error("discord: recording a post", "channel", a.ChannelID, "reply", a.ReplySeq, "err", err)
				}
			}
		case bot.Edit:
			// An edit may need more or fewer messages than the post had: record the ids the
			// post now has, so the next edit or delete reaches every piece.
			if ids := b.edit(ctx, a); a.ReplySeq != 0 && !slices.Equal(ids, a.Posted) {
				if err := b.core.RecordPost(ctx, a.ChannelID, a.ReplySeq, ids); err != nil {
					b.log.Error("discord: recording a post", "channel", a.ChannelID, "reply", a.ReplySeq, "err", err)
				}
			}
		case bot.Delete:
			for _, id := range a.Posted {
				if err := b.sess.ChannelMessageDelete(a.ChannelID, id, discordgo.WithContext(ctx)); err != nil {
					b.log.Warn("discord: deleting a post", "channel", a.ChannelID, "message", id, "err", endpoint.Named(err))
				}
			}
		case bot.React:
			if err := b.sess.MessageReactionAdd(a.ChannelID, a.MessageID, a.Emoji, discordgo.WithContext(ctx)); err != nil {
				b.log.Warn("discord: reacting to a message", "channel", a.ChannelID, "message", a.MessageID, "err", err)
			}
		default:
			b.log.Error("discord: unknown action", "kind", a.Kind)
		}
	}
}

// post sends msgs to the channel, the first as a reply to replyTo (if any) and with the
// buttons comps (a reply's Undo), and returns the ids of the messages sent and why any
// part failed — not logged here, since how bad that is is the caller's to say (a user
// who takes no direct messages is expected; a channel post lost is an error).
func (b *Bot) post(ctx context.Context, channelID, replyTo string, msgs []message, comps []bot.Row) ([]string, error) {
	var ids []string
	var failed []error
	for i, m := range msgs {
		send := &discordgo.MessageSend{Content: m.content, Embeds: m.embeds, AllowedMentions: noMentions()}
		if i == 0 && len(comps) > 0 {
			send.Components = componentsOf(comps)
		}
		if i == 0 && replyTo != "" {
			no := false
			send.Reference = &discordgo.MessageReference{MessageID: replyTo, ChannelID: channelID, FailIfNotExists: &no}
		}
		sent, err := b.sess.ChannelMessageSendComplex(channelID, send, discordgo.WithContext(ctx))
		if err != nil {
			failed = append(failed, fmt.Errorf("part %d of %d: %w", i+1, len(msgs), endpoint.Named(err)))
			continue
		}
		ids = append(ids, sent.ID)
	}
	return ids, errors.Join(failed...)
}

// postOrLog is post to a channel, where a part that fails is an error to log.
func (b *Bot) postOrLog(ctx context.Context, channelID, replyTo string, msgs []message, comps []bot.Row) []string {
	ids, err := b.post(ctx, channelID, replyTo, msgs, comps)
	if err != nil {
		b.log.Error("discord: posting", "channel", channelID, "err", err)
	}
	return ids
}

// edit rewrites the bot's post (every message of it), its buttons on the first message
// (none left on the others). A new text needing more messages than the post has
// continues in new ones; one needing fewer deletes the extra ones.
func (b *Bot) edit(ctx context.Context, a bot.Action) []string {
	ids := a.Posted
	msgs := split(a.Content, a.Embeds)
	now := slices.Clone(ids[:min(len(ids), len(msgs))])
	for i, m := range msgs {
		if i >= len(ids) {
			var comps []bot.Row
			if i == 0 {
				comps = a.Components
			}
			now = append(now, b.postOrLog(ctx, a.ChannelID, "", msgs[i:], comps)...)
			break
		}
		content, embeds := m.content, m.embeds
		if embeds == nil {
			embeds = []*discordgo.MessageEmbed{}
		}
		comps := []discordgo.MessageComponent{}
		if i == 0 {
			comps = componentsOf(a.Components)
		}
		edit := &discordgo.MessageEdit{ID: ids[i], Channel: a.ChannelID, Content: &content, Embeds: &embeds, Components: &comps, AllowedMentions: noMentions()}
		if _, err := b.sess.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx)); err != nil {
			b.log.Warn("discord: editing a post", "channel", a.ChannelID, "message", ids[i], "err", endpoint.Named(err))
		}
	}
	for i := len(msgs); i < len(ids); i++ {
		if err := b.sess.ChannelMessageDelete(a.ChannelID, ids[i], discordgo.WithContext(ctx)); err != nil {
			b.log.Warn("discord: deleting the rest of a post", "channel", a.ChannelID, "message", ids[i], "err", endpoint.Named(err))
		}
	}
	return now
}
