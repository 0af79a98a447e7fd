package fakediscord_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/internal/fakediscord"
)

const wait = 5 * time.Second

const allIntents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages |
	discordgo.IntentsDirectMessages | discordgo.IntentsMessageContent

// recorder keeps the events a session's handlers saw.
type recorder struct {
	mu           sync.Mutex
	ready        []*discordgo.Ready
	created      []*discordgo.MessageCreate
	updated      []*discordgo.MessageUpdate
	deleted      []*discordgo.MessageDelete
	interactions []*discordgo.InteractionCreate
	resumed      int
	guilds       []*discordgo.GuildCreate
}

func (r *recorder) messages() []*discordgo.MessageCreate {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*discordgo.MessageCreate(nil), r.created...)
}

func (r *recorder) count(f func(r *recorder) int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return f(r)
}

// keep adds a handler to s that appends each event of type E to the list of rec that list
// names.
func keep[E any](s *discordgo.Session, rec *recorder, list func(*recorder) *[]E) {
	s.AddHandler(func(_ *discordgo.Session, e E) {
		rec.mu.Lock()
		l := list(rec)
		*l = append(*l, e)
		rec.mu.Unlock()
	})
}

// open starts a discordgo session against the fake, with handlers feeding
// a recorder, and closes it when the test ends.
func open(t *testing.T, fake *fakediscord.Server, token string, intents discordgo.Intent, setup ...func(*discordgo.Session)) (*discordgo.Session, *recorder) {
	t.Helper()
	s, err := fake.Session(token)
	if err != nil {
		t.Fatal(err)
	}
	s.Identify.Intents = intents
	s.SyncEvents = true // handlers in arrival order
	rec := &recorder{}
	keep(s, rec, func(r *recorder) *[]*discordgo.Ready { return &r.ready })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.Resumed) {
		rec.mu.Lock()
		rec.resumed++
		rec.mu.Unlock()
	})
	keep(s, rec, func(r *recorder) *[]*discordgo.GuildCreate { return &r.guilds })
	keep(s, rec, func(r *recorder) *[]*discordgo.MessageCreate { return &r.created })
	keep(s, rec, func(r *recorder) *[]*discordgo.MessageUpdate { return &r.updated })
	keep(s, rec, func(r *recorder) *[]*discordgo.MessageDelete { return &r.deleted })
	keep(s, rec, func(r *recorder) *[]*discordgo.InteractionCreate { return &r.interactions })
	for _, f := range setup {
		f(s)
	}
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		s.ShouldReconnectOnError = false
		s.Close()
	})
	return s, rec
}

func TestOpenIdentifyReady(t *testing.T) {
	t.Parallel()
	guild, channel := "100000000000000001", "100000000000000002"
	fake := fakediscord.NewWith(t, fakediscord.Config{
		Token:  "secret",
		Guilds: []fakediscord.Guild{{ID: guild, Name: "Table", Channels: []fakediscord.Channel{{ID: channel, Name: "game"}}}},
	})
	s, rec := open(t, fake, "secret", allIntents)

	if !fake.WaitFor(func() bool { return rec.count(func(r *recorder) int { return len(r.ready) + len(r.guilds) }) == 2 }, wait) {
		t.Fatal("no READY and GUILD_CREATE")
	}
	r := rec.ready[0]
	if r.User == nil || r.User.ID != fake.BotUser().ID || !r.User.Bot {
		t.Errorf("READY user = %+v, want the bot %+v", r.User, fake.BotUser())
	}
	if r.SessionID == "" || r.Application == nil || r.Application.ID != fake.ApplicationID() {
		t.Errorf("READY session %q application %+v", r.SessionID, r.Application)
	}
	if len(r.Guilds) != 1 || r.Guilds[0].ID != guild {
		t.Errorf("READY guilds = %+v", r.Guilds)
	}
	if g := rec.guilds[0]; g.ID != guild || len(g.Channels) != 1 || g.Channels[0].ID != channel {
		t.Errorf("GUILD_CREATE = %+v", g.Guild)
	}
	ids := fake.Identifies()
	if len(ids) != 1 || ids[0].Token != "Bot secret" || ids[0].Intents != int(allIntents) {
		t.Errorf("identifies = %+v", ids)
	}
	if !fake.Connected() {
		t.Error("not connected")
	}
	me, err := s.User("@me")
	if err != nil || me.ID != fake.BotUser().ID {
		t.Errorf("GET /users/@me = %+v, %v", me, err)
	}
	ch, err := s.Channel(channel)
	if err != nil || ch.GuildID != guild || ch.Name != "game" {
		t.Errorf("GET /channels = %+v, %v", ch, err)
	}
	if _, found := fake.WaitRequest(func(r fakediscord.Request) bool { return r.Path == "/gateway" && r.Method == "GET" }, wait); !found {
		t.Error("GET /gateway not recorded")
	}
}

func TestWrongTokenIsRefused(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "secret"})
	s, err := fake.Session("wrong")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.User("@me")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != 401 {
		t.Errorf("GET /users/@me with a wrong token: %v", err)
	}
}

func TestMessageCreateReachesHandler(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	_, rec := open(t, fake, "tok", allIntents)

	gm := fake.NewUser("gm", "role-gm")
	first := fake.MessageCreate(channel, guild, gm, "[sheet: Mira hp -2]")
	reply := fake.MessageCreate(channel, guild, gm, "and again", fakediscord.ReplyTo(first))
	hook := fake.MessageCreate(channel, guild, fakediscord.User{Username: "Narrator"}, "from a webhook", fakediscord.FromWebhook("555"))
	bot := fake.MessageCreate(channel, guild, fakediscord.User{ID: "777", Username: "otherbot", Bot: true}, "beep")

	if !fake.WaitFor(func() bool { return len(rec.messages()) == 4 }, wait) {
		t.Fatalf("got %d MESSAGE_CREATE, want 4", len(rec.messages()))
	}
	got := rec.messages()
	m := got[0]
	if m.ID != first || m.ChannelID != channel || m.GuildID != guild || m.Content != "[sheet: Mira hp -2]" {
		t.Errorf("message = %+v", m.Message)
	}
	if m.Author.ID != gm.ID || m.Member == nil || len(m.Member.Roles) != 1 || m.Member.Roles[0] != "role-gm" {
		t.Errorf("author %+v member %+v", m.Author, m.Member)
	}
	if m.Timestamp.IsZero() {
		t.Error("no timestamp")
	}
	if r := got[1]; r.ID != reply || r.Type != discordgo.MessageTypeReply || r.MessageReference == nil ||
		r.MessageReference.MessageID != first || r.ReferencedMessage == nil || r.ReferencedMessage.ID != first {
		t.Errorf("reply = %+v ref %+v", r.Message, r.MessageReference)
	}
	if h := got[2]; h.ID != hook || h.WebhookID != "555" || h.Author.ID != "555" || !h.Author.Bot || h.Member != nil {
		t.Errorf("webhook message = %+v author %+v", h.Message, h.Author)
	}
	if b := got[3]; b.ID != bot || !b.Author.Bot {
		t.Errorf("bot message author = %+v", b.Author)
	}
	if n := len(fake.Messages(channel)); n != 4 {
		t.Errorf("fake stores %d messages, want 4", n)
	}

	fake.MessageUpdate(channel, first, "[sheet: Mira hp -3]")
	fake.MessageDelete(channel, reply)
	if !fake.WaitFor(func() bool {
		return rec.count(func(r *recorder) int { return len(r.updated) + len(r.deleted) }) == 2
	}, wait) {
		t.Fatal("no MESSAGE_UPDATE and MESSAGE_DELETE")
	}
	if u := rec.updated[0]; u.ID != first || u.Content != "[sheet: Mira hp -3]" || u.EditedTimestamp == nil {
		t.Errorf("update = %+v", u.Message)
	}
	if d := rec.deleted[0]; d.ID != reply || d.ChannelID != channel || d.GuildID != guild {
		t.Errorf("delete = %+v", d.Message)
	}
	if n := len(fake.Messages(channel)); n != 3 {
		t.Errorf("fake stores %d messages after a delete, want 3", n)
	}
}

func TestMessageContentIntent(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	_, rec := open(t, fake, "tok", discordgo.IntentsGuilds|discordgo.IntentsGuildMessages)
	u := fake.NewUser("player")
	fake.MessageCreate(channel, guild, u, "hidden")
	fake.MessageCreate(channel, guild, u, "hey <@"+fake.BotUser().ID+">")
	if !fake.WaitFor(func() bool { return len(rec.messages()) == 2 }, wait) {
		t.Fatal("messages not delivered")
	}
	if got := rec.messages(); got[0].Content != "" || got[1].Content == "" {
		t.Errorf("without MESSAGE_CONTENT: contents %q, %q; want the first hidden, the mention shown", got[0].Content, got[1].Content)
	}
}

func TestEventsBeforeIdentifyFollowReady(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	id := fake.MessageCreate(channel, guild, fake.NewUser("early"), "first!")
	_, rec := open(t, fake, "tok", allIntents)
	if !fake.WaitFor(func() bool { return len(rec.messages()) == 1 }, wait) {
		t.Fatal("early message not delivered")
	}
	if rec.messages()[0].ID != id {
		t.Error("wrong message")
	}
}

func TestPostEditDeleteRecorded(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{NoEcho: true})
	guild, channel := fake.NewID(), fake.NewID()
	fake.AddChannel(channel, guild)
	s, err := fake.Session("tok")
	if err != nil {
		t.Fatal(err)
	}

	m, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
		Content: "Mira: hp 10 → 8",
		Embeds:  []*discordgo.MessageEmbed{{Title: "Mira", Fields: []*discordgo.MessageEmbedField{{Name: "HP", Value: "8/10"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.ID == "" || m.ChannelID != channel || m.Author == nil || m.Author.ID != fake.BotUser().ID || m.Timestamp.IsZero() {
		t.Errorf("POST answer = %+v", m)
	}
	stored := fake.Messages(channel)
	if len(stored) != 1 || !stored[0].ByBot || stored[0].Content != "Mira: hp 10 → 8" || len(stored[0].Embeds) != 1 || stored[0].Embeds[0].Type != "rich" {
		t.Fatalf("stored = %+v", stored)
	}
	req, found := fake.WaitRequest(func(r fakediscord.Request) bool {
		return r.Method == "POST" && r.Path == "/channels/"+channel+"/messages"
	}, wait)
	if !found || req.Status != 200 || req.JSON.(map[string]any)["content"] != "Mira: hp 10 → 8" {
		t.Errorf("request = %+v", req)
	}

	// Multipart with a file.
	withFile, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
		Content: "the sheet",
		Files:   []*discordgo.File{{Name: "mira.json", ContentType: "application/json", Reader: strings.NewReader(`{"hp":8}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(withFile.Attachments) != 1 || withFile.Attachments[0].Filename != "mira.json" {
		t.Fatalf("attachments = %+v", withFile.Attachments)
	}
	resp, err := http.Get(withFile.Attachments[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"hp":8}` {
		t.Errorf("attachment served %q", body)
	}
	last, _ := fake.WaitRequest(func(r fakediscord.Request) bool { return r.Method == "POST" && len(r.Parts) > 0 }, wait)
	if len(last.Parts) != 2 || last.Parts[0].Name != "payload_json" || last.Parts[1].Filename != "mira.json" || last.JSON.(map[string]any)["content"] != "the sheet" {
		t.Errorf("multipart request = %+v", last)
	}

	// Edit, then delete.
	edited, err := s.ChannelMessageEdit(channel, m.ID, "Mira: hp 10 → 7")
	if err != nil || edited.Content != "Mira: hp 10 → 7" || edited.EditedTimestamp == nil {
		t.Fatalf("edit = %+v, %v", edited, err)
	}
	if got, _ := fake.Message(channel, m.ID); got.Content != "Mira: hp 10 → 7" || len(got.Embeds) != 1 {
		t.Errorf("stored after edit = %+v", got.Message)
	}
	if err := s.ChannelMessageDelete(channel, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, found := fake.Message(channel, m.ID); found || len(fake.Messages(channel)) != 1 {
		t.Error("message not deleted")
	}
	if _, err := s.ChannelMessage(channel, m.ID); err == nil {
		t.Error("GET of a deleted message succeeded")
	}
}

func TestDiscordErrors(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{NoEcho: true})
	guild, channel := fake.NewID(), fake.NewID()
	fake.AddChannel(channel, guild)
	s, _ := fake.Session("tok")

	code := func(err error) int {
		var rest *discordgo.RESTError
		if errors.As(err, &rest) && rest.Message != nil {
			return rest.Message.Code
		}
		t.Helper()
		t.Errorf("not a Discord REST error: %v", err)
		return 0
	}
	if _, err := s.ChannelMessageSend(channel, strings.Repeat("x", 2001)); code(err) != 50035 {
		t.Errorf("2001 characters: %v", err)
	}
	if _, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{}); code(err) != 50006 {
		t.Errorf("empty message: %v", err)
	}
	if _, err := s.ChannelMessageSend(fake.NewID(), "hi"); code(err) != 10003 {
		t.Errorf("unknown channel: %v", err)
	}
	theirs := fake.MessageCreate(channel, guild, fake.NewUser("p"), "mine")
	if _, err := s.ChannelMessageEdit(channel, theirs, "hacked"); code(err) != 50005 {
		t.Errorf("editing another's message: %v", err)
	}
	// An unknown route answers 404 with a JSON body, and is recorded.
	_, err := s.Request("GET", discordgo.EndpointAPI+"no/such/route", nil)
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Response.StatusCode != 404 || rest.Message == nil || rest.Message.Message != "404: Not Found" {
		t.Errorf("unknown route: %v", err)
	}
	if _, found := fake.WaitRequest(func(r fakediscord.Request) bool { return r.Path == "/no/such/route" && r.Status == 404 }, wait); !found {
		t.Error("unknown route not recorded")
	}
}

func TestRateLimitIsWaitedOut(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{NoEcho: true})
	channel := fake.NewID()
	fake.AddChannel(channel, fake.NewID())
	s, _ := fake.Session("tok")
	s.ShouldRetryOnRateLimit = true
	retry := 200 * time.Millisecond
	fake.FailNext("POST", "/channels/*/messages", http.StatusTooManyRequests, retry)

	if _, err := s.ChannelMessageSend(channel, "after the wait"); err != nil {
		t.Fatal(err)
	}
	var posts []fakediscord.Request
	for _, r := range fake.Requests() {
		if r.Method == "POST" {
			posts = append(posts, r)
		}
	}
	if len(posts) != 2 || posts[0].Status != 429 || posts[1].Status != 200 {
		t.Fatalf("posts = %+v", posts)
	}
	if gap := posts[1].Time.Sub(posts[0].Time); gap < retry {
		t.Errorf("retried after %v, want ≥ %v", gap, retry)
	}
	if n := len(fake.Messages(channel)); n != 1 {
		t.Errorf("%d messages landed, want 1", n)
	}

	// Without retrying, discordgo reports the rate limit.
	s.ShouldRetryOnRateLimit = false
	fake.FailNext("", "/channels/*/messages", 429, 10*time.Millisecond)
	_, err := s.ChannelMessageSend(channel, "no wait")
	var rl *discordgo.RateLimitError
	if !errors.As(err, &rl) || rl.RetryAfter != 10*time.Millisecond {
		t.Errorf("err = %v", err)
	}
}

func TestDropConnectionResumes(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	_, rec := open(t, fake, "tok", allIntents)
	u := fake.NewUser("gm")

	var sent []string
	for i := 0; i < 3; i++ {
		sent = append(sent, fake.MessageCreate(channel, guild, u, "before"))
	}
	if !fake.WaitFor(func() bool { return len(rec.messages()) == 3 }, wait) {
		t.Fatal("first messages not delivered")
	}
	seq := fake.Seq() // READY and the three messages
	if !fake.DropConnection() {
		t.Fatal("no connection to drop")
	}
	for i := 0; i < 3; i++ {
		sent = append(sent, fake.MessageCreate(channel, guild, u, "while down"))
	}
	if !fake.WaitFor(func() bool { return len(rec.messages()) >= 6 && fake.Connected() }, wait) {
		t.Fatalf("after the drop: %d messages, connected %v", len(rec.messages()), fake.Connected())
	}
	sent = append(sent, fake.MessageCreate(channel, guild, u, "after"))
	if !fake.WaitFor(func() bool { return len(rec.messages()) >= 7 }, wait) {
		t.Fatal("message after resume not delivered")
	}
	fake.WaitFor(func() bool { return false }, 50*time.Millisecond) // room for a stray duplicate
	got := rec.messages()
	if len(got) != len(sent) {
		t.Fatalf("got %d messages, want %d", len(got), len(sent))
	}
	seen := map[string]bool{}
	for _, m := range got {
		seen[m.ID] = true
	}
	for _, id := range sent {
		if !seen[id] {
			t.Errorf("message %s lost", id)
		}
	}
	if rs := fake.Resumes(); len(rs) != 1 || rs[0].Seq != seq {
		t.Errorf("resumes = %+v, want one from seq %d", rs, seq)
	}
	if n := len(fake.Identifies()); n != 1 {
		t.Errorf("%d identifies, want 1 (a resume, not a new session)", n)
	}
	if rec.count(func(r *recorder) int { return r.resumed }) != 1 {
		t.Error("no RESUMED")
	}
}

func TestDuplicateNext(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	_, rec := open(t, fake, "tok", allIntents)
	fake.DuplicateNext()
	id := fake.MessageCreate(channel, guild, fake.NewUser("gm"), "once, twice")
	last := fake.MessageCreate(channel, guild, fake.NewUser("gm"), "once")
	if !fake.WaitFor(func() bool { return len(rec.messages()) == 3 }, wait) {
		t.Fatalf("got %d messages, want 3", len(rec.messages()))
	}
	got := rec.messages()
	if got[0].ID != id || got[1].ID != id || got[2].ID != last {
		t.Errorf("ids = %s %s %s", got[0].ID, got[1].ID, got[2].ID)
	}
}

func TestHeartbeatsAreAcknowledged(t *testing.T) {
	t.Parallel()
	fake := fakediscord.NewWith(t, fakediscord.Config{HeartbeatInterval: 30 * time.Millisecond})
	s, _ := open(t, fake, "tok", allIntents)
	if !fake.WaitFor(func() bool { return fake.Heartbeats() >= 5 }, wait) {
		t.Fatalf("%d heartbeats", fake.Heartbeats())
	}
	// discordgo reconnects when ACKs stop; it has not.
	if len(fake.Identifies()) != 1 || len(fake.Resumes()) != 0 || !fake.Connected() {
		t.Errorf("identifies %d resumes %d", len(fake.Identifies()), len(fake.Resumes()))
	}
	s.RLock()
	ack, sent := s.LastHeartbeatAck, s.LastHeartbeatSent
	s.RUnlock()
	if sent.IsZero() || ack.Before(sent.Add(-100*time.Millisecond)) {
		t.Errorf("last ack %v, last sent %v", ack, sent)
	}
}

func TestMalformedDispatchIsSurvived(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	guild, channel := fake.NewID(), fake.NewID()
	// discordgo logs the bad events at LogError; keep the test output quiet.
	_, rec := open(t, fake, "tok", allIntents, func(s *discordgo.Session) { s.LogLevel = -1 })
	fake.DispatchRaw("MESSAGE_CREATE", []byte(`{"id": "1", "content": `)) // not JSON
	fake.DispatchRaw("MESSAGE_CREATE", map[string]any{"id": 12, "author": "nobody"})
	id := fake.MessageCreate(channel, guild, fake.NewUser("gm"), "fine")
	if !fake.WaitFor(func() bool {
		for _, m := range rec.messages() {
			if m.ID == id {
				return true
			}
		}
		return false
	}, wait) {
		t.Fatal("the session did not survive malformed events")
	}
}

func TestTransportRewrites(t *testing.T) {
	t.Parallel()
	fake := fakediscord.New(t)
	c := &http.Client{Transport: fakediscord.Transport(fake.URL())}
	resp, err := c.Get("https://discord.com/api/v9/gateway")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), fake.GatewayURL()) {
		t.Errorf("GET /gateway through Transport = %s", body)
	}
	if _, err := (&http.Client{Transport: fakediscord.Transport("not a url")}).Get("https://discord.com/"); err == nil {
		t.Error("a bad base URL worked")
	}
}
