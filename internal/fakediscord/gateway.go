package fakediscord

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway intents the fake honours (Discord's bit values).
const (
	intentGuilds         = 1 << 0
	intentGuildMessages  = 1 << 9
	intentDirectMessages = 1 << 12
	intentMessageContent = 1 << 15
)

// Identify is one IDENTIFY (op 2) the fake received.
type Identify struct {
	Token    string
	Intents  int
	Compress bool
	Raw      json.RawMessage // the whole "d" object
	Time     time.Time
}

// Resume is one RESUME (op 6) the fake received.
type Resume struct {
	SessionID string
	Seq       int64
	Time      time.Time
}

// gateway is the fake's gateway state, guarded by Server.mu.
type gateway struct {
	sessions      map[string]*gwSession
	current       *gwSession // the session dispatches go to, unless one shard's (shards.go)
	byShard       map[shardKey]*gwSession
	pending       []event // dispatched before any IDENTIFY
	duplicateNext bool
	hold          holds // HoldNext (order.go)
	conns         map[*wsConn]bool
	identifies    []Identify
	resumes       []Resume
	heartbeats    int
}

func (g *gateway) init() {
	g.sessions = map[string]*gwSession{}
	g.byShard = map[shardKey]*gwSession{}
	g.conns = map[*wsConn]bool{}
}

func (g *gateway) allConns() []*wsConn {
	var out []*wsConn
	for c := range g.conns {
		out = append(out, c)
	}
	return out
}

// gwSession is a gateway session: what IDENTIFY starts and RESUME continues.
type gwSession struct {
	id      string
	intents int
	seq     int64
	log     []logged
	conn    *wsConn // the live, identified or resumed connection, if any
}

// logged is one dispatch sent (or to be sent) on a session.
type logged struct {
	seq    int64
	frame  []byte
	replay bool // false for READY and RESUMED
	twice  bool // DuplicateNext
}

// event is a dispatch before it is numbered for a session.
type event struct {
	name string
	d    []byte
	// noContent is d as a session without the MESSAGE_CONTENT intent sees it;
	// nil when the event has nothing to hide.
	noContent []byte
	// intent is the intent a session needs to get the event; 0 for none.
	intent int
}

// wsConn is one websocket connection with its own writer goroutine, so the
// fake never blocks on a client while holding its lock.
type wsConn struct {
	ws      *websocket.Conn
	session *gwSession // guarded by Server.mu

	mu    sync.Mutex
	queue [][]byte
	wake  chan struct{}
	done  chan struct{}
	once  sync.Once
}

func newWSConn(ws *websocket.Conn) *wsConn {
	return &wsConn{ws: ws, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// send queues a text frame.
func (c *wsConn) send(frame []byte) {
	c.mu.Lock()
	c.queue = append(c.queue, frame)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// kill closes the connection abruptly: no close frame.
func (c *wsConn) kill() {
	c.once.Do(func() {
		close(c.done)
		c.ws.UnderlyingConn().Close()
	})
}

// closeWith sends a close frame with code and reason, then closes.
func (c *wsConn) closeWith(code int, reason string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.kill()
}

func (c *wsConn) writeLoop() {
	for {
		select {
		case <-c.done:
			return
		case <-c.wake:
		}
		c.mu.Lock()
		q := c.queue
		c.queue = nil
		c.mu.Unlock()
		for _, f := range q {
			_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if err := c.ws.WriteMessage(websocket.TextMessage, f); err != nil {
				c.kill()
				return
			}
		}
	}
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// serveGateway upgrades to a websocket and runs the gateway protocol.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.logf("gateway upgrade: %v", err)
		return
	}
	c := newWSConn(ws)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.kill()
		return
	}
	s.gw.conns[c] = true
	s.wg.Add(2) // this reader and the writer
	s.mu.Unlock()
	defer s.wg.Done()
	go func() {
		defer s.wg.Done()
		c.writeLoop()
	}()
	hello := map[string]any{"op": 10, "s": nil, "t": nil, "d": map[string]any{
		"heartbeat_interval": s.cfg.HeartbeatInterval.Milliseconds(),
		"_trace":             []string{"[\"fakediscord-gateway\"]"},
	}}
	c.send(mustJSON(hello))
	s.readLoop(c)
}

func (s *Server) readLoop(c *wsConn) {
	defer s.connGone(c)
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		var f struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			s.logf("gateway: undecodable frame %q", data)
			c.closeWith(4002, "Error while decoding payload.")
			return
		}
		switch f.Op {
		case 1: // heartbeat
			s.mu.Lock()
			s.gw.heartbeats++
			s.notifyLocked()
			s.mu.Unlock()
			c.send([]byte(`{"op":11,"s":null,"t":null,"d":null}`))
		case 2:
			if !s.identify(c, f.D) {
				return
			}
		case 6:
			if !s.resume(c, f.D) {
				return
			}
		case 3, 4, 8: // presence, voice state, request guild members: accepted, ignored
		default:
			s.logf("gateway: unknown opcode %d", f.Op)
			c.closeWith(4001, "Unknown opcode.")
			return
		}
	}
}

// connGone forgets a connection whose reader ended.
func (s *Server) connGone(c *wsConn) {
	s.mu.Lock()
	if c.session != nil && c.session.conn == c {
		c.session.conn = nil
	}
	delete(s.gw.conns, c)
	s.notifyLocked()
	s.mu.Unlock()
	c.kill()
}

func (s *Server) tokenOK(tok string) bool {
	return s.cfg.Token == "" || strings.TrimPrefix(tok, "Bot ") == s.cfg.Token
}

// identify answers IDENTIFY with READY and the GUILD_CREATEs, then flushes
// the events dispatched before anyone identified. It reports whether the
// connection stays open.
func (s *Server) identify(c *wsConn, d json.RawMessage) bool {
	var id struct {
		Token    string `json:"token"`
		Intents  int    `json:"intents"`
		Compress bool   `json:"compress"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.identifies = append(s.gw.identifies, Identify{Token: id.Token, Intents: id.Intents, Compress: id.Compress, Raw: append(json.RawMessage(nil), d...), Time: time.Now()})
	s.notifyLocked()
	if !s.tokenOK(id.Token) {
		c.closeWith(4004, "Authentication failed.")
		return false
	}
	if c.session != nil {
		c.closeWith(4005, "Already authenticated.")
		return false
	}
	sess := &gwSession{id: randomToken(16), intents: id.Intents}
	s.gw.sessions[sess.id] = sess
	s.gw.current = sess
	if k, n, named := s.gw.identifies[len(s.gw.identifies)-1].Shard(); named {
		s.gw.byShard[shardKey{k, n}] = sess
	}
	sess.conn = c
	c.session = sess

	var guilds []map[string]any
	for _, g := range s.cfg.Guilds {
		guilds = append(guilds, map[string]any{"id": g.ID, "unavailable": true})
	}
	if guilds == nil {
		guilds = []map[string]any{}
	}
	ready := map[string]any{
		"v":                  10,
		"user":               userJSON(s.bot),
		"guilds":             guilds,
		"session_id":         sess.id,
		"session_type":       "normal",
		"resume_gateway_url": s.GatewayURL(),
		"application":        map[string]any{"id": s.appID, "flags": 0},
		"private_channels":   []any{},
		"relationships":      []any{},
		"presences":          []any{},
		"user_settings":      map[string]any{},
		"_trace":             []string{"[\"fakediscord\"]"},
	}
	s.sendLocked(sess, "READY", mustJSON(ready), false)
	if sess.intents&intentGuilds != 0 {
		for _, g := range s.cfg.Guilds {
			s.sendLocked(sess, "GUILD_CREATE", mustJSON(s.guildJSONLocked(g)), true)
		}
	}
	pending := s.gw.pending
	s.gw.pending = nil
	for _, ev := range pending {
		s.dispatchLocked(ev)
	}
	return true
}

// resume answers RESUME: the missed dispatches, then RESUMED; or INVALID
// SESSION when the session is unknown.
func (s *Server) resume(c *wsConn, d json.RawMessage) bool {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &r); err != nil {
		c.closeWith(4002, "Error while decoding payload.")
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.resumes = append(s.gw.resumes, Resume{SessionID: r.SessionID, Seq: r.Seq, Time: time.Now()})
	s.notifyLocked()
	if !s.tokenOK(r.Token) {
		c.closeWith(4004, "Authentication failed.")
		return false
	}
	sess := s.gw.sessions[r.SessionID]
	if sess == nil || r.Seq > sess.seq || c.session != nil {
		c.send([]byte(`{"op":9,"s":null,"t":null,"d":false}`))
		return true
	}
	if old := sess.conn; old != nil && old != c {
		old.session = nil
		old.kill()
	}
	sess.conn = c
	c.session = sess
	s.gw.current = sess
	for _, l := range sess.log {
		if l.seq > r.Seq && l.replay {
			c.send(l.frame)
			if l.twice {
				c.send(l.frame)
			}
		}
	}
	s.sendLocked(sess, "RESUMED", []byte(`{"_trace":["[\"fakediscord\"]"]}`), false)
	return true
}

// sendLocked numbers a dispatch for sess, logs it, and sends it if sess is
// connected. It returns the sequence number.
func (s *Server) sendLocked(sess *gwSession, name string, d []byte, replay bool) int64 {
	sess.seq++
	frame := make([]byte, 0, len(d)+64)
	frame = append(frame, `{"op":0,"s":`...)
	frame = strconv.AppendInt(frame, sess.seq, 10)
	frame = append(frame, `,"t":`...)
	frame = append(frame, mustJSON(name)...)
	frame = append(frame, `,"d":`...)
	frame = append(frame, d...)
	frame = append(frame, '}')
	l := logged{seq: sess.seq, frame: frame, replay: replay}
	if replay && s.gw.duplicateNext {
		l.twice = true
		s.gw.duplicateNext = false
	}
	sess.log = append(sess.log, l)
	if sess.conn != nil {
		sess.conn.send(frame)
		if l.twice {
			sess.conn.send(frame)
		}
	}
	s.notifyLocked()
	return sess.seq
}

// dispatchLocked sends ev on its shard's session or the current one (routeLocked), as
// its intents allow, or
// keeps it for after the first READY. It returns the sequence number, or 0
// when the event was kept or filtered out.
func (s *Server) dispatchLocked(ev event) int64 {
	if s.gw.hold.keep(ev) {
		return 0
	}
	sess := s.routeLocked(ev)
	if sess == nil {
		s.gw.pending = append(s.gw.pending, ev)
		return 0
	}
	if ev.intent != 0 && sess.intents&ev.intent == 0 {
		return 0
	}
	d := ev.d
	if ev.noContent != nil && sess.intents&intentMessageContent == 0 {
		d = ev.noContent
	}
	return s.sendLocked(sess, ev.name, d, true)
}

// DispatchRaw sends a dispatch (op 0) named eventName on the current gateway
// session. A []byte or json.RawMessage payload is sent byte for byte, even if
// it is not valid JSON; anything else is marshalled. It returns the sequence
// number, or 0 when no session has identified yet (the event then follows
// READY).
func (s *Server) DispatchRaw(eventName string, payload any) int64 {
	var d []byte
	switch p := payload.(type) {
	case []byte:
		d = p
	case json.RawMessage:
		d = p
	default:
		d = mustJSON(p)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatchLocked(event{name: eventName, d: d})
}

// DropConnection closes the current gateway websocket abruptly (no close
// frame), as a network failure would; the session stays resumable and later
// dispatches wait for the RESUME. It reports whether there was a connection.
func (s *Server) DropConnection() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.gw.current
	if sess == nil || sess.conn == nil {
		return false
	}
	c := sess.conn
	sess.conn = nil
	c.session = nil
	c.kill()
	s.notifyLocked()
	return true
}

// DuplicateNext makes the next dispatch be sent twice with the same sequence
// number, as Discord may deliver an event more than once.
func (s *Server) DuplicateNext() {
	s.mu.Lock()
	s.gw.duplicateNext = true
	s.mu.Unlock()
}

// Connected reports whether a gateway connection has identified or resumed
// and is still open.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.current != nil && s.gw.current.conn != nil
}

// Identifies returns the IDENTIFY payloads received so far.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.gw.identifies...)
}

// Resumes returns the RESUME payloads received so far.
func (s *Server) Resumes() []Resume {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Resume(nil), s.gw.resumes...)
}

// Heartbeats is the number of heartbeats (op 1) received and acknowledged.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.heartbeats
}

// Seq is the last sequence number of the current gateway session, 0 before
// the first IDENTIFY.
func (s *Server) Seq() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gw.current == nil {
		return 0
	}
	return s.gw.current.seq
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("fakediscord: " + err.Error())
	}
	return b
}
