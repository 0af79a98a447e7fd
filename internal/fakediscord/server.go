package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"strings"
	"sync"
	"testing"
	"time"
)

// Config sets up a fake. The zero value is a fake with a bot called
// "sheetkeeper", no guilds, any token accepted and a 3-second interaction window.
type Config struct {
	// Token, when set, is the bot token REST requests ("Authorization: Bot
	// <token>") and IDENTIFY must carry; a wrong one gets 401 or close code 4004.
	Token string
	// BotUser is the bot's user; empty fields are filled in.
	BotUser User
	// ApplicationID defaults to the bot user's id, as on Discord.
	ApplicationID string
	// Guilds are announced in READY and by GUILD_CREATE after it.
	Guilds []Guild
	// HeartbeatInterval is sent in HELLO; default 41.25 s, as Discord does.
	HeartbeatInterval time.Duration
	// InteractionTimeout is how long after the dispatch helper's call the
	// first callback is accepted; default 3 s, as Discord does; negative for
	// no limit.
	InteractionTimeout time.Duration
	// Shards is the shard count GET /gateway/bot recommends (default 1).
	Shards int
	// NoEcho stops the gateway events Discord sends a bot about the messages
	// it creates, edits and deletes itself.
	NoEcho bool
	// Logf, if set, receives a line for each unknown route and protocol error.
	// It must stay valid until Close returns.
	Logf func(format string, args ...any)
}

// Guild is a guild of the fake, announced to the bot after READY.
type Guild struct {
	ID       string
	Name     string
	OwnerID  string
	Channels []Channel
}

// Channel is a guild text channel of the fake.
type Channel struct {
	ID   string
	Name string
}

// User is a Discord user as the dispatch helpers use it.
type User struct {
	ID         string
	Username   string
	GlobalName string
	Bot        bool
	// Roles are the user's role ids in the guild of an event (member.roles).
	Roles []string
	// Permissions, when set, are the member's permission bits in the channel of an
	// interaction (member.permissions); unset, the member has every permission. See
	// WithPermissions.
	Permissions *int64
}

// Server is a running fake Discord. Its methods are safe for concurrent use.
type Server struct {
	cfg   Config
	http  *httptest.Server
	bot   User
	appID string

	ids idGen

	mu           sync.Mutex
	closed       bool
	changed      chan struct{} // closed and replaced on every recorded change
	requests     []Request
	faults       []fault
	channels     map[string]*channelState
	users        map[string]User
	files        map[string]file
	interactions map[string]*interactionState // by id
	byToken      map[string]*interactionState
	commands     map[string][]map[string]any // scope ("" global, else guild id) → commands
	commandOrder []string
	dm           dmState // dm.go
	gw           gateway

	wg sync.WaitGroup // websocket goroutines
}

// New starts a fake with the zero Config and closes it when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	return NewWith(t, Config{})
}

// NewWith starts a fake with cfg and closes it when the test ends.
func NewWith(t testing.TB, cfg Config) *Server {
	t.Helper()
	s, err := Start(cfg)
	if err != nil {
		t.Fatalf("fakediscord: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake on a random loopback port. Close it when done.
func Start(cfg Config) (*Server, error) {
	s := &Server{
		cfg:          cfg,
		changed:      make(chan struct{}),
		channels:     map[string]*channelState{},
		users:        map[string]User{},
		files:        map[string]file{},
		interactions: map[string]*interactionState{},
		byToken:      map[string]*interactionState{},
		commands:     map[string][]map[string]any{},
	}
	if s.cfg.HeartbeatInterval <= 0 {
		s.cfg.HeartbeatInterval = 41250 * time.Millisecond
	}
	if s.cfg.InteractionTimeout == 0 {
		s.cfg.InteractionTimeout = 3 * time.Second
	}
	s.bot = cfg.BotUser
	if s.bot.ID == "" {
		s.bot.ID = s.ids.next()
	}
	if s.bot.Username == "" {
		s.bot.Username = "sheetkeeper"
	}
	s.bot.Bot = true
	s.users[s.bot.ID] = s.bot
	s.appID = cfg.ApplicationID
	if s.appID == "" {
		s.appID = s.bot.ID
	}
	for _, g := range cfg.Guilds {
		if g.ID == "" {
			return nil, errors.New("fakediscord: a configured guild has no id")
		}
		for _, c := range g.Channels {
			if c.ID == "" {
				return nil, fmt.Errorf("fakediscord: a channel of guild %s has no id", g.ID)
			}
			s.channels[c.ID] = newChannelState(c.ID, g.ID, c.Name)
		}
	}
	s.gw.init()
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s, nil
}

// Close stops the fake: the HTTP server, every websocket and their goroutines.
// It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	conns := s.gw.allConns()
	s.mu.Unlock()
	for _, c := range conns {
		c.kill()
	}
	s.http.Close()
	s.wg.Wait()
}

// URL is the fake's base URL, like "http://127.0.0.1:41234"; the REST API is
// under URL()+"/api/v9".
func (s *Server) URL() string { return s.http.URL }

// GatewayURL is the websocket URL the fake returns from GET /gateway.
func (s *Server) GatewayURL() string {
	return "ws" + strings.TrimPrefix(s.http.URL, "http") + "/gateway"
}

// BotUser is the bot's user, as READY and GET /users/@me report it.
func (s *Server) BotUser() User { return s.bot }

// ApplicationID is the bot's application id.
func (s *Server) ApplicationID() string { return s.appID }

// NewID returns a fresh snowflake, for channel, guild or user ids in tests.
func (s *Server) NewID() string { return s.ids.next() }

// NewUser returns a user with a fresh id and the given role ids, and makes it
// known to GET /users/{id}.
func (s *Server) NewUser(username string, roles ...string) User {
	u := User{ID: s.ids.next(), Username: username, Roles: roles}
	s.mu.Lock()
	s.users[u.ID] = u
	s.mu.Unlock()
	return u
}

// AddChannel makes a text channel known to the fake (GET /channels/{id}, and
// posting to it). Dispatch helpers do this for the channels they name.
func (s *Server) AddChannel(channelID, guildID string) {
	s.mu.Lock()
	s.channelLocked(channelID, guildID)
	s.mu.Unlock()
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf("fakediscord: "+format, args...)
	}
}

// notifyLocked wakes the waiters; s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// ---- recording ------------------------------------------------------------

// Request is one HTTP request the fake received.
type Request struct {
	Method string
	// Path is the API path without the /api/v{N} prefix, like
	// "/channels/123/messages"; other paths are kept whole.
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	// JSON is the decoded JSON body, or the decoded payload_json of a
	// multipart body; nil when there is none.
	JSON any
	// Parts are the parts of a multipart/form-data body, payload_json included.
	Parts []Part
	// Status is the status the fake answered with.
	Status int
	Time   time.Time
}

// Part is one part of a multipart/form-data request body.
type Part struct {
	Name        string // "payload_json", "files[0]", …
	Filename    string
	ContentType string
	Data        []byte
}

// Decode decodes the request's JSON (the body, or payload_json) into v.
func (r Request) Decode(v any) error {
	for _, p := range r.Parts {
		if p.Name == "payload_json" {
			return json.Unmarshal(p.Data, v)
		}
	}
	if len(r.Body) == 0 {
		return errors.New("fakediscord: request has no body")
	}
	return json.Unmarshal(r.Body, v)
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// WaitFor polls cond until it is true or timeout passes, and reports whether
// it became true. cond runs without the fake's lock held, so it may call the
// fake's methods; it is checked on every change the fake records and at least
// every 5 ms.
func (s *Server) WaitFor(cond func() bool, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return true
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-deadline.C:
			return cond()
		}
	}
}

// WaitRequest waits until a request matching pred has been received (it may
// already have been) and returns the first such request.
func (s *Server) WaitRequest(pred func(Request) bool, timeout time.Duration) (Request, bool) {
	var found Request
	ok := s.WaitFor(func() bool {
		for _, r := range s.Requests() {
			if pred(r) {
				found = r
				return true
			}
		}
		return false
	}, timeout)
	return found, ok
}

// ---- faults ---------------------------------------------------------------

type fault struct {
	method     string
	pattern    string
	status     int
	retryAfter time.Duration
}

// FailNext makes the next request with this method (or any, for "" or "*")
// whose Path matches pathPattern (path.Match syntax, e.g.
// "/channels/*/messages") fail with status. A 429 carries Discord's body
// {"message","retry_after","global"} and the headers Retry-After,
// X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset,
// X-RateLimit-Reset-After, X-RateLimit-Bucket and Date, so discordgo waits
// retryAfter and retries; other statuses carry a Discord-style error body.
// Faults queue up: each is used once, by the first request it matches.
func (s *Server) FailNext(method, pathPattern string, status int, retryAfter time.Duration) {
	if _, err := path.Match(pathPattern, ""); err != nil {
		panic(fmt.Sprintf("fakediscord: FailNext: bad pattern %q: %v", pathPattern, err))
	}
	s.mu.Lock()
	s.faults = append(s.faults, fault{strings.ToUpper(method), pathPattern, status, retryAfter})
	s.mu.Unlock()
}

// takeFaultLocked removes and returns the first fault matching the request.
func (s *Server) takeFaultLocked(method, p string) (fault, bool) {
	for i, f := range s.faults {
		if f.method != "" && f.method != "*" && f.method != method {
			continue
		}
		if ok, _ := path.Match(f.pattern, p); !ok {
			continue
		}
		s.faults = append(s.faults[:i], s.faults[i+1:]...)
		return f, true
	}
	return fault{}, false
}
