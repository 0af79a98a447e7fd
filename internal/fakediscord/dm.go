package fakediscord

import (
	"net/http"
)

// Direct messages, as Discord serves them to a bot: POST /users/@me/channels with
// {"recipient_id"} opens the DM channel with a user — the same channel every time, as
// Discord returns the existing one — and the bot posts to it with POST
// /channels/{id}/messages like any channel. A user who does not take direct messages
// from the bot (CloseDMs) still gets a channel opened, as on Discord; what fails is the
// post, 403 with code 50007 "Cannot send messages to this user".

// dmState is what the fake knows of direct messages: each user's DM channel and who has
// them closed.
type dmState struct {
	channels map[string]string // user id → DM channel id
	closed   map[string]bool   // user id → posts to their DM channel are refused
}

// CloseDMs makes posts to the user's DM channel fail as Discord refuses them for a user
// who does not take direct messages from the bot (privacy settings, a block, no shared
// server): 403, code 50007. closed false opens them again.
func (s *Server) CloseDMs(userID string, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dm.closed == nil {
		s.dm.closed = map[string]bool{}
	}
	if closed {
		s.dm.closed[userID] = true
	} else {
		delete(s.dm.closed, userID)
	}
}

// DMChannel is the id of the DM channel the bot opened with the user, if it did; its
// messages are Messages(id), recorded as a guild channel's are.
func (s *Server) DMChannel(userID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.dm.channels[userID]
	return id, ok
}

// createDMLocked is POST /users/@me/channels: {"recipient_id"} opens (or finds) the DM
// channel with a known user and answers the DM channel object, type 1 with the
// recipient. No recipient is a form error; an unknown one, or the bot itself, is
// Discord's 400 code 50033 "Invalid Recipient(s)".
func (s *Server) createDMLocked(p map[string]any) response {
	rid := idString(p["recipient_id"])
	if rid == "" {
		fe := &formErrors{}
		fe.add("recipient_id", "BASE_TYPE_REQUIRED", "This field is required")
		return fe.err().resp()
	}
	u, known := s.users[rid]
	if !known || rid == s.bot.ID {
		return (&apiError{status: http.StatusBadRequest, code: 50033, message: "Invalid Recipient(s)"}).resp()
	}
	if s.dm.channels == nil {
		s.dm.channels = map[string]string{}
	}
	id, ok := s.dm.channels[rid]
	if !ok {
		id = s.ids.next()
		s.dm.channels[rid] = id
		ch := newChannelState(id, "", "")
		ch.recipient = &u
		s.channels[id] = ch
	}
	return jsonResp(http.StatusOK, channelJSON(s.channels[id]))
}

// dmRefusedLocked is the 403 Discord answers a post to the DM channel of a user with
// direct messages closed (ok true), or ok false for any other channel.
func (s *Server) dmRefusedLocked(ch *channelState) (response, bool) {
	if ch.recipient == nil || !s.dm.closed[ch.recipient.ID] {
		return response{}, false
	}
	return (&apiError{status: http.StatusForbidden, code: 50007, message: "Cannot send messages to this user"}).resp(), true
}
