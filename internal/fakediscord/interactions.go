package fakediscord

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Interaction types as Discord numbers them.
const (
	interactionCommand      = 2
	interactionComponent    = 3
	interactionAutocomplete = 4
)

// permissionsAll is the permission set the fake gives members and the app.
const permissionsAll = "2251799813685247"

type interactionState struct {
	id, token          string
	channelID, guildID string
	typ                int
	commandName        string
	user               User
	created            time.Time
	acked              bool
	original           string // message id of @original
	componentMsg       string // the message a component was used on
	responses          []InteractionResponse
}

// ResponseKind tells how the bot answered an interaction.
type ResponseKind string

// The kinds of InteractionResponse.
const (
	KindCallback ResponseKind = "callback" // POST /interactions/{id}/{token}/callback
	KindFollowup ResponseKind = "followup" // POST /webhooks/{app}/{token}
	KindEdit     ResponseKind = "edit"     // PATCH /webhooks/{app}/{token}/messages/{@original|id}
	KindDelete   ResponseKind = "delete"   // DELETE /webhooks/{app}/{token}/messages/{@original|id}
)

// InteractionResponse is one answer the bot gave an interaction, accepted or
// not (see Status).
type InteractionResponse struct {
	Kind ResponseKind
	// Type is the callback type (1 pong, 4 message, 5 deferred message,
	// 6 deferred update, 7 update message, 8 autocomplete result, 9 modal);
	// 0 for the other kinds.
	Type int
	// MessageID is the message the answer created, edited or deleted.
	MessageID string
	// Message is the callback's data (or the webhook body) decoded as a
	// message: content, embeds, components, flags. Nil when there is none.
	Message *discordgo.Message
	// Choices are an autocomplete result's choices.
	Choices []*discordgo.ApplicationCommandOptionChoice
	// Raw is the callback's "data" object or the webhook body.
	Raw   json.RawMessage
	Files []Part
	// Status is what the fake answered: 204 or 200, or an error status.
	Status int
	Time   time.Time
}

// InteractionResponses returns the answers given to an interaction, in order.
func (s *Server) InteractionResponses(interactionID string) []InteractionResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.interactions[interactionID]
	if in == nil {
		return nil
	}
	return append([]InteractionResponse(nil), in.responses...)
}

// InteractionToken returns an interaction's token, for tests that call the
// interaction webhooks themselves.
func (s *Server) InteractionToken(interactionID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.interactions[interactionID]; in != nil {
		return in.token
	}
	return ""
}

// ---- options -----------------------------------------------------------------

// Attachment is a file a test user attaches to a message or command option.
// The fake serves it back at the attachment's url.
type Attachment struct {
	Filename    string
	ContentType string
	Data        []byte
}

// CommandOption is one option of a slash command interaction. Build it with
// String, Integer, Number, Boolean, UserOption, ChannelOption, RoleOption,
// AttachmentOption, SubCommand or SubCommandGroup; mark the option being typed
// in an autocomplete with Focused.
type CommandOption struct {
	Name    string
	Type    discordgo.ApplicationCommandOptionType
	Value   any
	Focused bool
	Options []CommandOption // of a sub-command or group

	user       *User
	attachment *Attachment
}

// String is a string option.
func String(name, value string) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}

// Integer is an integer option.
func Integer(name string, value int64) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: value}
}

// Number is a number (double) option.
func Number(name string, value float64) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionNumber, Value: value}
}

// Boolean is a boolean option.
func Boolean(name string, value bool) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: value}
}

// UserOption is a user option; the user (and member) is resolved.
func UserOption(name string, u User) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: u.ID, user: &u}
}

// ChannelOption is a channel option; the channel is resolved.
func ChannelOption(name, channelID string) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionChannel, Value: channelID}
}

// RoleOption is a role option; the role is resolved.
func RoleOption(name, roleID string) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionRole, Value: roleID}
}

// AttachmentOption is an attachment option; the file is uploaded to the fake
// and resolved in data.resolved.attachments with a url the fake serves.
func AttachmentOption(name string, a Attachment) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionAttachment, attachment: &a}
}

// SubCommand is a sub-command with its options.
func SubCommand(name string, opts ...CommandOption) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}
}

// SubCommandGroup is a sub-command group with its sub-commands.
func SubCommandGroup(name string, subs ...CommandOption) CommandOption {
	return CommandOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommandGroup, Options: subs}
}

// Focused marks o as the option the user is typing, for Autocomplete. Its
// value is what has been typed so far.
func Focused(o CommandOption) CommandOption {
	o.Focused = true
	return o
}

// resolved collects data.resolved for a command interaction.
type resolved struct {
	users, members, channels, roles, attachments map[string]any
}

func (s *Server) optionsJSONLocked(opts []CommandOption, in *interactionState, res *resolved) []any {
	out := []any{}
	for _, o := range opts {
		m := map[string]any{"name": o.Name, "type": int(o.Type)}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			m["options"] = s.optionsJSONLocked(o.Options, in, res)
			out = append(out, m)
			continue
		case discordgo.ApplicationCommandOptionUser:
			u := User{ID: idString(o.Value), Username: "user" + idString(o.Value)}
			if o.user != nil {
				u = *o.user
			} else if known, ok := s.users[u.ID]; ok {
				u = known
			}
			s.users[u.ID] = u
			res.users[u.ID] = userJSON(u)
			if in.guildID != "" {
				mj := memberJSON(u, false)
				mj["permissions"] = memberPermissions(u)
				res.members[u.ID] = mj
			}
		case discordgo.ApplicationCommandOptionChannel:
			id := idString(o.Value)
			ch := s.channelLocked(id, in.guildID)
			res.channels[id] = map[string]any{"id": id, "name": ch.name, "type": 0, "permissions": permissionsAll}
		case discordgo.ApplicationCommandOptionRole:
			id := idString(o.Value)
			res.roles[id] = map[string]any{
				"id": id, "name": "role-" + id, "permissions": "0", "position": 1, "color": 0,
				"hoist": false, "managed": false, "mentionable": true, "flags": 0,
			}
		case discordgo.ApplicationCommandOptionAttachment:
			if o.attachment != nil {
				a := s.storeFileLocked(in.channelID, o.attachment.Filename, o.attachment.ContentType, o.attachment.Data)
				res.attachments[a["id"].(string)] = a
				o.Value = a["id"]
			}
		}
		m["value"] = o.Value
		if o.Focused {
			m["focused"] = true
		}
		out = append(out, m)
	}
	return out
}

// ---- dispatch helpers --------------------------------------------------------

// Command dispatches INTERACTION_CREATE for a slash command (type 2) used by
// user in the channel (guildID "" for a DM), with typed options, sub-commands
// and resolved users, channels, roles and attachments. The command id is the
// registered command's, when there is one. It returns the interaction id.
func (s *Server) Command(channelID, guildID string, user User, name string, opts ...CommandOption) string {
	return s.commandInteraction(interactionCommand, channelID, guildID, user, name, opts)
}

// Autocomplete dispatches INTERACTION_CREATE for an autocomplete request
// (type 4); one option should be Focused. It returns the interaction id; the
// bot's choices are in InteractionResponses(id)[…].Choices.
func (s *Server) Autocomplete(channelID, guildID string, user User, name string, opts ...CommandOption) string {
	return s.commandInteraction(interactionAutocomplete, channelID, guildID, user, name, opts)
}

func (s *Server) commandInteraction(typ int, channelID, guildID string, user User, name string, opts []CommandOption) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.newInteractionLocked(typ, channelID, guildID, user)
	in.commandName = name
	res := &resolved{map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}}
	data := map[string]any{
		"name":    name,
		"type":    1,
		"options": s.optionsJSONLocked(opts, in, res),
	}
	if id := s.commandIDLocked(guildID, name); id != "" {
		data["id"] = id
		for _, c := range s.commands[guildID] {
			if c["id"] == id {
				data["guild_id"] = guildID
			}
		}
	} else {
		data["id"] = s.ids.next()
	}
	r := map[string]any{}
	for k, v := range map[string]map[string]any{
		"users": res.users, "members": res.members, "channels": res.channels,
		"roles": res.roles, "attachments": res.attachments,
	} {
		if len(v) > 0 {
			r[k] = v
		}
	}
	if len(r) > 0 {
		data["resolved"] = r
	}
	s.dispatchInteractionLocked(in, data, nil)
	return in.id
}

// Button dispatches INTERACTION_CREATE for a click on the button customID of
// message messageID (type 3, component type 2). It returns the interaction id.
func (s *Server) Button(channelID, guildID string, user User, messageID, customID string) string {
	return s.componentInteraction(channelID, guildID, user, messageID, map[string]any{
		"custom_id": customID, "component_type": 2,
	})
}

// Select dispatches INTERACTION_CREATE for a choice in the string select menu
// customID of message messageID (type 3, component type 3). It returns the
// interaction id.
func (s *Server) Select(channelID, guildID string, user User, messageID, customID string, values ...string) string {
	if values == nil {
		values = []string{}
	}
	return s.componentInteraction(channelID, guildID, user, messageID, map[string]any{
		"custom_id": customID, "component_type": 3, "values": values,
	})
}

func (s *Server) componentInteraction(channelID, guildID string, user User, messageID string, data map[string]any) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.newInteractionLocked(interactionComponent, channelID, guildID, user)
	in.componentMsg = messageID
	var msg map[string]any
	if sm := s.messageLocked(channelID, messageID); sm != nil {
		msg = cloneMap(sm.obj)
	} else {
		msg = s.newMessageLocked(messageID, channelID, s.bot, "")
	}
	s.dispatchInteractionLocked(in, data, msg)
	return in.id
}

func (s *Server) newInteractionLocked(typ int, channelID, guildID string, user User) *interactionState {
	s.channelLocked(channelID, guildID)
	if user.ID == "" {
		user.ID = s.ids.next()
	}
	if user.Username == "" {
		user.Username = "user" + user.ID
	}
	s.users[user.ID] = user
	in := &interactionState{
		id:        s.ids.next(),
		token:     "aW50ZXJhY3Rpb24" + randomToken(32),
		channelID: channelID,
		guildID:   guildID,
		typ:       typ,
		user:      user,
		created:   time.Now(),
	}
	s.interactions[in.id] = in
	s.byToken[in.token] = in
	return in
}

func (s *Server) dispatchInteractionLocked(in *interactionState, data, message map[string]any) {
	ch := s.channels[in.channelID]
	d := map[string]any{
		"id":              in.id,
		"application_id":  s.appID,
		"type":            in.typ,
		"data":            data,
		"channel_id":      in.channelID,
		"token":           in.token,
		"version":         1,
		"locale":          "en-US",
		"app_permissions": permissionsAll,
		"entitlements":    []any{},
	}
	if ch != nil {
		d["channel"] = channelJSON(ch)
	}
	if in.guildID != "" {
		mj := memberJSON(in.user, true)
		mj["permissions"] = memberPermissions(in.user)
		d["guild_id"] = in.guildID
		d["member"] = mj
		d["guild_locale"] = "en-US"
		d["context"] = 0
		d["authorizing_integration_owners"] = map[string]any{"0": in.guildID}
	} else {
		d["user"] = userJSON(in.user)
		d["context"] = 1
		d["authorizing_integration_owners"] = map[string]any{"1": in.user.ID}
	}
	if message != nil {
		d["message"] = message
	}
	in.created = time.Now()
	s.dispatchLocked(event{name: "INTERACTION_CREATE", d: mustJSON(d)})
}

// ---- the bot's answers -------------------------------------------------------

func invalidResponseType() response {
	fe := &formErrors{}
	fe.add("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Interaction response type is not valid for this interaction type")
	return fe.err().resp()
}

// callbackLocked is POST /interactions/{id}/{token}/callback.
func (s *Server) callbackLocked(id, token string, p map[string]any, files []Part, req *Request) response {
	in := s.interactions[id]
	if in == nil || in.token != token {
		return notFound(10062, "Unknown interaction")
	}
	typ := intOf(p["type"])
	data, _ := p["data"].(map[string]any)
	rec := InteractionResponse{Kind: KindCallback, Type: typ, Files: files, Time: req.Time}
	if data != nil {
		rec.Raw = mustJSON(data)
		rec.Message = decodeMessage(rec.Raw)
		if choices, ok := data["choices"]; ok {
			_ = json.Unmarshal(mustJSON(choices), &rec.Choices)
		}
	}
	resp := s.callbackResultLocked(in, typ, data, files, &rec)
	rec.Status = resp.status
	in.responses = append(in.responses, rec)
	return resp
}

func (s *Server) callbackResultLocked(in *interactionState, typ int, data map[string]any, files []Part, rec *InteractionResponse) response {
	if in.acked {
		return (&apiError{status: 400, code: 40060, message: "Interaction has already been acknowledged."}).resp()
	}
	if t := s.cfg.InteractionTimeout; t > 0 && time.Since(in.created) > t {
		return notFound(10062, "Unknown interaction")
	}
	if data == nil {
		data = map[string]any{}
	}
	ch := s.channelLocked(in.channelID, in.guildID)
	switch typ {
	case 4, 5: // message, deferred message
		if in.typ == interactionAutocomplete {
			return invalidResponseType()
		}
		if e := s.respondMessageLocked(in, ch, typ == 5, data, files, rec); e != nil {
			return e.resp()
		}
	case 6, 7: // deferred update, update message
		if in.typ != interactionComponent {
			return invalidResponseType()
		}
		in.original = in.componentMsg
		rec.MessageID = in.original
		if typ == 7 {
			sm := ch.msgs[in.componentMsg]
			if sm == nil {
				return notFound(10008, "Unknown Message")
			}
			if r := s.applyEditLocked(ch, sm, data, files); r.status != 200 {
				return r
			}
		}
	case 8: // autocomplete result
		if in.typ != interactionAutocomplete {
			return invalidResponseType()
		}
		if fe := checkChoices(data); fe.any() {
			return fe.err().resp()
		}
	case 9: // modal
		if in.typ == interactionAutocomplete {
			return invalidResponseType()
		}
		if fe := checkModal(data); fe.any() {
			return fe.err().resp()
		}
	case 1: // pong: only for PING interactions, which the fake never sends
		return invalidResponseType()
	default:
		fe := &formErrors{}
		fe.add("type", "BASE_TYPE_CHOICES", "Value must be one of (1, 4, 5, 6, 7, 8, 9, 10, 12).")
		return fe.err().resp()
	}
	in.acked = true
	return noContent()
}

// respondMessageLocked posts the message an interaction answers with (type 4), or its
// loading placeholder when the answer is deferred (type 5).
func (s *Server) respondMessageLocked(in *interactionState, ch *channelState, deferred bool, data map[string]any, files []Part, rec *InteractionResponse) *apiError {
	m := s.interactionMessageLocked(in)
	if !deferred {
		s.applyPayloadLocked(m, data, files, false, true)
		if e := validateMessage(m); e != nil {
			return e
		}
	} else {
		m["flags"] = flagLoading | intOf(data["flags"])&flagEphemeral
	}
	sm := &storedMessage{obj: m, author: s.bot, byBot: true, interactionID: in.id}
	ch.add(sm)
	in.original = m["id"].(string)
	rec.MessageID = in.original
	s.echoLocked("MESSAGE_CREATE", ch, sm)
	return nil
}

// checkChoices checks an autocomplete result: at most 25 choices, each with a name and
// a value (a string or a number) Discord accepts.
func checkChoices(data map[string]any) *formErrors {
	choices, _ := data["choices"].([]any)
	fe := &formErrors{}
	if len(choices) > 25 {
		fe.add("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	for i, c := range choices {
		cm, _ := c.(map[string]any)
		p := "data.choices." + strconv.Itoa(i)
		checkLen(fe, p+".name", str(cm, "name"), 1, 100)
		if v, ok := cm["value"].(string); ok {
			checkLen(fe, p+".value", v, 1, 100)
		} else if _, ok := cm["value"].(float64); !ok {
			fe.add(p+".value", "BASE_TYPE_REQUIRED", "This field is required")
		}
	}
	return fe
}

// checkModal checks a modal: its custom id, its title, and 1 to 5 rows of components.
func checkModal(data map[string]any) *formErrors {
	fe := &formErrors{}
	checkLen(fe, "data.custom_id", str(data, "custom_id"), 1, 100)
	checkLen(fe, "data.title", str(data, "title"), 1, 45)
	if comps, _ := data["components"].([]any); len(comps) == 0 || len(comps) > 5 {
		fe.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
	}
	return fe
}

// interactionMessageLocked starts a message written in answer to in.
func (s *Server) interactionMessageLocked(in *interactionState) map[string]any {
	m := s.newMessageLocked(s.ids.next(), in.channelID, s.bot, "")
	if in.typ == interactionCommand {
		m["type"] = 20
	}
	m["webhook_id"] = s.appID
	m["application_id"] = s.appID
	m["interaction"] = map[string]any{"id": in.id, "type": in.typ, "name": in.commandName, "user": userJSON(in.user)}
	m["interaction_metadata"] = map[string]any{"id": in.id, "type": in.typ, "user": userJSON(in.user)}
	return m
}

func decodeMessage(raw []byte) *discordgo.Message {
	var m discordgo.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil
	}
	return &m
}

// followupLocked is POST /webhooks/{app}/{token}: a follow-up message.
func (s *Server) followupLocked(app, token string, p map[string]any, files []Part, req *Request) response {
	in := s.byToken[token]
	if in == nil || app != s.appID {
		return notFound(10015, "Unknown Webhook")
	}
	rec := InteractionResponse{Kind: KindFollowup, Files: files, Time: req.Time}
	if p != nil {
		rec.Raw = mustJSON(p)
		rec.Message = decodeMessage(rec.Raw)
	}
	resp := func() response {
		if !in.acked {
			return notFound(10015, "Unknown Webhook")
		}
		ch := s.channelLocked(in.channelID, in.guildID)
		m := s.interactionMessageLocked(in)
		if p == nil {
			p = map[string]any{}
		}
		s.applyPayloadLocked(m, p, files, false, true)
		if e := validateMessage(m); e != nil {
			return e.resp()
		}
		sm := &storedMessage{obj: m, author: s.bot, byBot: true, interactionID: in.id}
		ch.add(sm)
		rec.MessageID = m["id"].(string)
		s.echoLocked("MESSAGE_CREATE", ch, sm)
		if req.Query.Get("wait") == "true" {
			return jsonResp(200, m)
		}
		return noContent()
	}()
	rec.Status = resp.status
	in.responses = append(in.responses, rec)
	return resp
}

// webhookMessageLocked is GET, PATCH and DELETE of
// /webhooks/{app}/{token}/messages/{@original|id}.
func (s *Server) webhookMessageLocked(method, app, token, mid string, p map[string]any, files []Part, req *Request) response {
	in := s.byToken[token]
	if in == nil || app != s.appID {
		return notFound(10015, "Unknown Webhook")
	}
	id := mid
	if mid == "@original" {
		id = in.original
	}
	ch := s.channelLocked(in.channelID, in.guildID)
	sm := ch.msgs[id]
	if id == "" || sm == nil || (sm.interactionID != in.id && id != in.original) {
		if method == http.MethodGet {
			return notFound(10008, "Unknown Message")
		}
		sm = nil
	}
	var rec InteractionResponse
	var resp response
	switch method {
	case http.MethodGet:
		return jsonResp(200, sm.obj)
	case http.MethodPatch:
		rec = InteractionResponse{Kind: KindEdit, MessageID: id, Files: files, Time: req.Time}
		if p != nil {
			rec.Raw = mustJSON(p)
			rec.Message = decodeMessage(rec.Raw)
		}
		if sm == nil {
			resp = notFound(10008, "Unknown Message")
		} else {
			resp = s.applyEditLocked(ch, sm, p, files)
		}
	case http.MethodDelete:
		rec = InteractionResponse{Kind: KindDelete, MessageID: id, Time: req.Time}
		if sm == nil {
			resp = notFound(10008, "Unknown Message")
		} else {
			resp = s.deleteMessageLocked(ch.id, id)
		}
	default:
		return methodNotAllowed()
	}
	rec.Status = resp.status
	in.responses = append(in.responses, rec)
	return resp
}
