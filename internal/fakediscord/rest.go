package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// response is what a route answers.
type response struct {
	status int
	body   []byte
	header http.Header
}

func jsonResp(status int, v any) response {
	return response{status: status, body: mustJSON(v)}
}

func noContent() response { return response{status: http.StatusNoContent} }

// apiError is a Discord JSON error: {"message", "code", "errors"}.
type apiError struct {
	status  int
	code    int
	message string
	errors  map[string]any
}

func (e *apiError) resp() response {
	body := map[string]any{"message": e.message, "code": e.code}
	if e.errors != nil {
		body["errors"] = e.errors
	}
	return jsonResp(e.status, body)
}

func notFound(code int, what string) response {
	return (&apiError{status: 404, code: code, message: what}).resp()
}

// formErrors collects "Invalid Form Body" errors at dotted paths.
type formErrors struct {
	tree map[string]any
}

func (f *formErrors) add(path, code, msg string) {
	if f.tree == nil {
		f.tree = map[string]any{}
	}
	node := f.tree
	for _, k := range strings.Split(path, ".") {
		next, ok := node[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			node[k] = next
		}
		node = next
	}
	errs, _ := node["_errors"].([]any)
	node["_errors"] = append(errs, map[string]any{"code": code, "message": msg})
}

func (f *formErrors) any() bool { return len(f.tree) > 0 }

func (f *formErrors) err() *apiError {
	return &apiError{status: 400, code: 50035, message: "Invalid Form Body", errors: f.tree}
}

var apiPrefix = regexp.MustCompile(`^/api(/v\d+)?(/|$)`)

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/gateway" || r.URL.Path == "/gateway/" {
		s.record(Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Status: http.StatusSwitchingProtocols, Time: time.Now()})
		s.serveGateway(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req := Request{
		Method: r.Method,
		Path:   r.URL.Path,
		Query:  r.URL.Query(),
		Header: r.Header.Clone(),
		Body:   body,
		Time:   time.Now(),
	}
	isAPI := false
	if loc := apiPrefix.FindStringIndex(r.URL.Path); loc != nil {
		isAPI = true
		req.Path = "/" + r.URL.Path[loc[1]:]
	}
	bodyErr := parseBody(&req, r.Header.Get("Content-Type"))

	s.mu.Lock()
	var resp response
	if f, ok := s.takeFaultLocked(req.Method, req.Path); ok {
		resp = faultResp(f)
	} else if bodyErr != nil {
		resp = (&apiError{status: 400, code: 50109, message: "The request body contains invalid JSON."}).resp()
	} else if isAPI {
		resp = s.routeAPILocked(&req)
	} else {
		resp = s.routeOtherLocked(&req)
	}
	req.Status = resp.status
	s.requests = append(s.requests, req)
	s.notifyLocked()
	s.mu.Unlock()

	if resp.status == 404 && s.cfg.Logf != nil {
		s.logf("%s %s → 404 %s", req.Method, r.URL.Path, resp.body)
	}
	h := w.Header()
	for k, v := range resp.header {
		h[k] = v
	}
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	if resp.body != nil && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json")
	}
	w.WriteHeader(resp.status)
	_, _ = w.Write(resp.body)
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	s.notifyLocked()
	s.mu.Unlock()
}

// parseBody fills req.JSON and req.Parts.
func parseBody(req *Request, contentType string) error {
	if len(req.Body) == 0 {
		return nil
	}
	mt, params, _ := mime.ParseMediaType(contentType)
	if mt == "multipart/form-data" {
		mr := multipart.NewReader(bytes.NewReader(req.Body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			data, err := io.ReadAll(p)
			if err != nil {
				return err
			}
			req.Parts = append(req.Parts, Part{Name: p.FormName(), Filename: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
			if p.FormName() == "payload_json" {
				if err := json.Unmarshal(data, &req.JSON); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if mt == "application/json" || mt == "" {
		return json.Unmarshal(req.Body, &req.JSON)
	}
	return nil
}

func faultResp(f fault) response {
	h := http.Header{}
	if f.status != http.StatusTooManyRequests {
		return (&apiError{status: f.status, code: 0, message: fmt.Sprintf("%d: %s", f.status, http.StatusText(f.status))}).resp()
	}
	secs := f.retryAfter.Seconds()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(f.retryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", "fakediscord")
	h.Set("X-RateLimit-Scope", "user")
	r := jsonResp(http.StatusTooManyRequests, map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": secs,
		"global":      false,
	})
	r.header = h
	return r
}

// routeOtherLocked serves what is not under /api: uploaded files.
func (s *Server) routeOtherLocked(req *Request) response {
	seg := strings.Split(strings.Trim(req.Path, "/"), "/")
	if len(seg) == 4 && seg[0] == "attachments" && req.Method == http.MethodGet {
		if f, ok := s.files[seg[2]]; ok && f.name == seg[3] {
			return response{status: 200, body: f.data, header: http.Header{"Content-Type": {f.contentType}}}
		}
	}
	return notFound(0, "404: Not Found")
}

// route matches path segments against a pattern where "*" is any segment.
func route(seg []string, pattern ...string) bool {
	if len(seg) != len(pattern) {
		return false
	}
	for i, p := range pattern {
		if p != "*" && p != seg[i] {
			return false
		}
	}
	return true
}

func methodNotAllowed() response {
	return (&apiError{status: 405, code: 0, message: "405: Method Not Allowed"}).resp()
}

// routeAPILocked serves /api/v{N}/….
func (s *Server) routeAPILocked(req *Request) response {
	seg := strings.Split(strings.Trim(req.Path, "/"), "/")
	m := req.Method
	// Interaction callbacks and webhooks authenticate by their token.
	// GET /gateway needs no token either.
	needsAuth := seg[0] != "interactions" && seg[0] != "webhooks" && !route(seg, "gateway")
	if needsAuth && s.cfg.Token != "" && req.Header.Get("Authorization") != "Bot "+s.cfg.Token {
		return (&apiError{status: 401, code: 0, message: "401: Unauthorized"}).resp()
	}
	payload, _ := req.JSON.(map[string]any)
	files := fileParts(req.Parts)
	switch {
	case route(seg, "users", "@me", "channels"):
		if m != http.MethodPost {
			return methodNotAllowed()
		}
		return s.createDMLocked(payload) // dm.go
	case route(seg, "gateway"), route(seg, "gateway", "bot"), route(seg, "users", "*"), route(seg, "channels", "*"):
		if m != http.MethodGet {
			return methodNotAllowed()
		}
		return s.getLocked(seg)
	case route(seg, "channels", "*", "messages"):
		switch m {
		case http.MethodGet:
			return s.listMessagesLocked(seg[1], req)
		case http.MethodPost:
			return s.createMessageLocked(seg[1], payload, files)
		}
		return methodNotAllowed()
	case route(seg, "channels", "*", "messages", "*"):
		switch m {
		case http.MethodGet:
			sm := s.messageLocked(seg[1], seg[3])
			if sm == nil {
				return notFound(10008, "Unknown Message")
			}
			return jsonResp(200, sm.obj)
		case http.MethodPatch:
			return s.editMessageLocked(seg[1], seg[3], payload, files)
		case http.MethodDelete:
			return s.deleteMessageLocked(seg[1], seg[3])
		}
		return methodNotAllowed()
	case route(seg, "channels", "*", "messages", "*", "reactions", "*", "@me"):
		return s.reactionLocked(m, seg) // reactions.go
	case route(seg, "applications", "*", "commands"):
		return s.commandsLocked(m, seg[1], "", req.JSON)
	case route(seg, "applications", "*", "guilds", "*", "commands"):
		return s.commandsLocked(m, seg[1], seg[3], req.JSON)
	case route(seg, "interactions", "*", "*", "callback"):
		if m != http.MethodPost {
			return methodNotAllowed()
		}
		return s.callbackLocked(seg[1], seg[2], payload, files, req)
	case route(seg, "webhooks", "*", "*"):
		if m != http.MethodPost {
			return methodNotAllowed()
		}
		return s.followupLocked(seg[1], seg[2], payload, files, req)
	case route(seg, "webhooks", "*", "*", "messages", "*"):
		return s.webhookMessageLocked(m, seg[1], seg[2], seg[4], payload, files, req)
	}
	return notFound(0, "404: Not Found")
}

// getLocked answers the read-only routes: the gateway, a user, a channel.
func (s *Server) getLocked(seg []string) response {
	switch {
	case route(seg, "gateway"):
		return jsonResp(200, map[string]any{"url": s.GatewayURL()})
	case route(seg, "gateway", "bot"):
		return jsonResp(200, map[string]any{
			"url":    s.GatewayURL(),
			"shards": max(s.cfg.Shards, 1),
			"session_start_limit": map[string]any{
				"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1,
			},
		})
	case route(seg, "users", "*"):
		id := seg[1]
		if id == "@me" {
			id = s.bot.ID
		}
		if u, ok := s.users[id]; ok {
			return jsonResp(200, userJSON(u))
		}
		return notFound(10013, "Unknown User")
	}
	ch := s.channels[seg[1]]
	if ch == nil {
		return notFound(10003, "Unknown Channel")
	}
	return jsonResp(200, channelJSON(ch))
}

// fileParts returns the uploaded files of a multipart body.
func fileParts(parts []Part) []Part {
	var out []Part
	for _, p := range parts {
		if p.Filename != "" {
			out = append(out, p)
		}
	}
	return out
}

func (s *Server) listMessagesLocked(channelID string, req *Request) response {
	ch := s.channels[channelID]
	if ch == nil {
		return notFound(10003, "Unknown Channel")
	}
	limit := 50
	if l, err := strconv.Atoi(req.Query.Get("limit")); err == nil && l > 0 && l <= 100 {
		limit = l
	}
	out := []any{}
	for i := len(ch.order) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, ch.msgs[ch.order[i]].obj)
	}
	return jsonResp(200, out)
}

// createMessageLocked is POST /channels/{id}/messages.
func (s *Server) createMessageLocked(channelID string, p map[string]any, files []Part) response {
	ch := s.channels[channelID]
	if ch == nil {
		return notFound(10003, "Unknown Channel")
	}
	if refused, ok := s.dmRefusedLocked(ch); ok {
		return refused
	}
	if p == nil {
		p = map[string]any{}
	}
	m := s.newMessageLocked(s.ids.next(), channelID, s.bot, "")
	s.applyPayloadLocked(m, p, files, false, false)
	if ref, ok := p["message_reference"].(map[string]any); ok {
		refID := idString(ref["message_id"])
		refCh := idString(ref["channel_id"])
		if refCh == "" {
			refCh = channelID
		}
		target := s.messageLocked(refCh, refID)
		if target == nil {
			if fail, ok := ref["fail_if_not_exists"].(bool); !ok || fail {
				fe := &formErrors{}
				fe.add("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
				return fe.err().resp()
			}
		} else {
			m["type"] = 19
			m["message_reference"] = map[string]any{"type": 0, "message_id": refID, "channel_id": refCh, "guild_id": ch.guildID}
			m["referenced_message"] = cloneMap(target.obj)
		}
	}
	if e := validateMessage(m); e != nil {
		return e.resp()
	}
	sm := &storedMessage{obj: m, author: s.bot, byBot: true}
	ch.add(sm)
	s.echoLocked("MESSAGE_CREATE", ch, sm)
	return jsonResp(200, m)
}

// echoLocked tells the bot, over the gateway, about a message it changed.
func (s *Server) echoLocked(name string, ch *channelState, sm *storedMessage) {
	if s.cfg.NoEcho || intOf(sm.obj["flags"])&flagEphemeral != 0 {
		return
	}
	s.dispatchLocked(s.messageEventLocked(name, ch, sm))
}

// findMessageLocked finds a stored message, or the 404 Discord answers for its channel or
// for it (ok false).
func (s *Server) findMessageLocked(channelID, messageID string) (*channelState, *storedMessage, response, bool) {
	ch := s.channels[channelID]
	if ch == nil {
		return nil, nil, notFound(10003, "Unknown Channel"), false
	}
	sm := ch.msgs[messageID]
	if sm == nil {
		return nil, nil, notFound(10008, "Unknown Message"), false
	}
	return ch, sm, response{}, true
}

// editMessageLocked is PATCH /channels/{id}/messages/{mid}.
func (s *Server) editMessageLocked(channelID, messageID string, p map[string]any, files []Part) response {
	ch, sm, missing, ok := s.findMessageLocked(channelID, messageID)
	if !ok {
		return missing
	}
	if sm.author.ID != s.bot.ID {
		for k := range p {
			if k != "flags" {
				return (&apiError{status: 403, code: 50005, message: "Cannot edit a message authored by another user"}).resp()
			}
		}
	}
	return s.applyEditLocked(ch, sm, p, files)
}

// applyEditLocked edits a stored message, validates, echoes and answers.
func (s *Server) applyEditLocked(ch *channelState, sm *storedMessage, p map[string]any, files []Part) response {
	if p == nil {
		p = map[string]any{}
	}
	edited := cloneMap(sm.obj)
	s.applyPayloadLocked(edited, p, files, true, false)
	edited["flags"] = intOf(edited["flags"]) &^ flagLoading
	edited["edited_timestamp"] = timestamp(time.Now())
	if e := validateMessage(edited); e != nil {
		return e.resp()
	}
	sm.obj = edited
	s.echoLocked("MESSAGE_UPDATE", ch, sm)
	return jsonResp(200, edited)
}

// deleteMessageLocked is DELETE /channels/{id}/messages/{mid}.
func (s *Server) deleteMessageLocked(channelID, messageID string) response {
	ch, sm, missing, ok := s.findMessageLocked(channelID, messageID)
	if !ok {
		return missing
	}
	ch.remove(messageID)
	if !s.cfg.NoEcho && intOf(sm.obj["flags"])&flagEphemeral == 0 {
		s.dispatchLocked(messageDeleteEvent(ch, messageID))
	}
	return noContent()
}
