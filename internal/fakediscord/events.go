package fakediscord

import "time"

// MessageOption changes a message MessageCreate or MessageUpdate dispatches.
type MessageOption func(*messageSpec)

type messageSpec struct {
	id          string
	webhookID   string
	replyTo     string
	attachments []Attachment
	edits       []func(map[string]any)
}

// WithMessageID gives the message this id instead of a fresh one.
func WithMessageID(id string) MessageOption {
	return func(m *messageSpec) { m.id = id }
}

// FromWebhook makes the message a webhook's: webhook_id set, the author
// replaced by the webhook's bot-flagged pseudo-user (id = webhookID, the
// author's username kept), and no member.
func FromWebhook(webhookID string) MessageOption {
	return func(m *messageSpec) { m.webhookID = webhookID }
}

// ReplyTo makes the message a reply (type 19) to messageID in the same
// channel, with message_reference and, when the fake has it,
// referenced_message.
func ReplyTo(messageID string) MessageOption {
	return func(m *messageSpec) { m.replyTo = messageID }
}

// WithAttachments attaches files; the fake serves them at their url.
func WithAttachments(files ...Attachment) MessageOption {
	return func(m *messageSpec) { m.attachments = append(m.attachments, files...) }
}

// WithFields changes the message JSON as the fake will store and send it,
// for fields no other option sets (embeds, stickers, …).
func WithFields(edit func(msg map[string]any)) MessageOption {
	return func(m *messageSpec) { m.edits = append(m.edits, edit) }
}

// MessageCreate stores a message by author in the channel (guildID "" for a
// DM) and dispatches MESSAGE_CREATE with guild_id and member, as Discord
// does. A User with Bot set is a bot author; see FromWebhook, ReplyTo,
// WithAttachments. It returns the message id.
func (s *Server) MessageCreate(channelID, guildID string, author User, content string, opts ...MessageOption) string {
	var spec messageSpec
	for _, o := range opts {
		o(&spec)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channelLocked(channelID, guildID)
	if author.ID == "" {
		author.ID = s.ids.next()
	}
	if author.Username == "" {
		author.Username = "user" + author.ID
	}
	if spec.webhookID != "" {
		author = User{ID: spec.webhookID, Username: author.Username, Bot: true}
	} else {
		s.users[author.ID] = author
	}
	id := spec.id
	if id == "" {
		id = s.ids.next()
	}
	m := s.newMessageLocked(id, channelID, author, content)
	if spec.webhookID != "" {
		m["webhook_id"] = spec.webhookID
	}
	if spec.replyTo != "" {
		m["type"] = 19
		m["message_reference"] = map[string]any{"type": 0, "message_id": spec.replyTo, "channel_id": channelID, "guild_id": guildID}
		if target := ch.msgs[spec.replyTo]; target != nil {
			m["referenced_message"] = cloneMap(target.obj)
		} else {
			m["referenced_message"] = nil
		}
	}
	var atts []any
	for _, a := range spec.attachments {
		atts = append(atts, s.storeFileLocked(channelID, a.Filename, a.ContentType, a.Data))
	}
	if atts != nil {
		m["attachments"] = atts
	}
	for _, e := range spec.edits {
		e(m)
	}
	sm := &storedMessage{obj: m, author: author}
	ch.add(sm)
	s.dispatchLocked(s.messageEventLocked("MESSAGE_CREATE", ch, sm))
	return id
}

// MessageUpdate edits a stored message's content (and applies opts; WithFields
// is the useful one), sets edited_timestamp, and dispatches MESSAGE_UPDATE with
// the whole message. For a message the fake does not have, it dispatches a
// partial update with id, channel_id, guild_id, content and edited_timestamp.
func (s *Server) MessageUpdate(channelID, messageID, content string, opts ...MessageOption) {
	var spec messageSpec
	for _, o := range opts {
		o(&spec)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channelLocked(channelID, "")
	sm := ch.msgs[messageID]
	if sm == nil {
		d := map[string]any{"id": messageID, "channel_id": channelID, "content": content, "edited_timestamp": timestamp(time.Now())}
		ev := event{name: "MESSAGE_UPDATE", intent: intentDirectMessages}
		if ch.guildID != "" {
			d["guild_id"] = ch.guildID
			ev.intent = intentGuildMessages
		}
		for _, e := range spec.edits {
			e(d)
		}
		ev.d = mustJSON(d)
		s.dispatchLocked(ev)
		return
	}
	m := cloneMap(sm.obj)
	m["content"] = content
	s.setMentionsLocked(m)
	m["edited_timestamp"] = timestamp(time.Now())
	for _, a := range spec.attachments {
		atts, _ := m["attachments"].([]any)
		m["attachments"] = append(atts, s.storeFileLocked(channelID, a.Filename, a.ContentType, a.Data))
	}
	for _, e := range spec.edits {
		e(m)
	}
	sm.obj = m
	s.dispatchLocked(s.messageEventLocked("MESSAGE_UPDATE", ch, sm))
}

// MessageDelete removes a message from the channel (if the fake has it) and
// dispatches MESSAGE_DELETE with id, channel_id and guild_id.
func (s *Server) MessageDelete(channelID, messageID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channelLocked(channelID, "")
	ch.remove(messageID)
	s.dispatchLocked(messageDeleteEvent(ch, messageID))
}
