package fakediscord

import (
	"encoding/json"
	"regexp"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Message is a channel message as the fake stores it: what GET
// /channels/{id}/messages/{mid} returns, decoded by discordgo.
type Message struct {
	discordgo.Message
	// ByBot is true for messages the bot created through REST: channel posts,
	// interaction responses and follow-ups.
	ByBot bool
	// InteractionID is the interaction a response or follow-up answered.
	InteractionID string
	// Raw is the message's JSON as the fake serves it.
	Raw json.RawMessage
}

type channelState struct {
	id, guildID, name string
	recipient         *User // a DM channel's other user (dm.go); nil for a guild channel
	order             []string
	msgs              map[string]*storedMessage
}

func newChannelState(id, guildID, name string) *channelState {
	if name == "" {
		name = "channel-" + id
	}
	return &channelState{id: id, guildID: guildID, name: name, msgs: map[string]*storedMessage{}}
}

type storedMessage struct {
	obj           map[string]any
	author        User
	byBot         bool
	interactionID string
}

func (m *storedMessage) snapshot() Message {
	raw := mustJSON(m.obj)
	out := Message{ByBot: m.byBot, InteractionID: m.interactionID, Raw: raw}
	if err := json.Unmarshal(raw, &out.Message); err != nil {
		panic("fakediscord: stored message does not decode: " + err.Error())
	}
	return out
}

// file is an uploaded attachment, served under /attachments/.
type file struct {
	name, contentType string
	data              []byte
}

// Messages returns the channel's current messages, oldest first: the ones
// dispatched by MessageCreate and the ones the bot posted, as edited, without
// the deleted ones.
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[channelID]
	if ch == nil {
		return nil
	}
	out := make([]Message, 0, len(ch.order))
	for _, id := range ch.order {
		out = append(out, ch.msgs[id].snapshot())
	}
	return out
}

// Message returns one stored message.
func (s *Server) Message(channelID, messageID string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messageLocked(channelID, messageID)
	if m == nil {
		return Message{}, false
	}
	return m.snapshot(), true
}

func (s *Server) messageLocked(channelID, messageID string) *storedMessage {
	if ch := s.channels[channelID]; ch != nil {
		return ch.msgs[messageID]
	}
	return nil
}

// channelLocked returns the channel, creating it in guildID if unknown.
func (s *Server) channelLocked(channelID, guildID string) *channelState {
	ch := s.channels[channelID]
	if ch == nil {
		ch = newChannelState(channelID, guildID, "")
		s.channels[channelID] = ch
	} else if ch.guildID == "" && guildID != "" {
		ch.guildID = guildID
	}
	return ch
}

func (ch *channelState) add(m *storedMessage) {
	id := m.obj["id"].(string)
	if _, dup := ch.msgs[id]; !dup {
		ch.order = append(ch.order, id)
	}
	ch.msgs[id] = m
}

func (ch *channelState) remove(id string) {
	delete(ch.msgs, id)
	for i, o := range ch.order {
		if o == id {
			ch.order = append(ch.order[:i], ch.order[i+1:]...)
			break
		}
	}
}

// ---- JSON shapes -------------------------------------------------------------

func userJSON(u User) map[string]any {
	m := map[string]any{
		"id":            u.ID,
		"username":      u.Username,
		"discriminator": "0",
		"global_name":   nil,
		"avatar":        nil,
		"public_flags":  0,
	}
	if u.GlobalName != "" {
		m["global_name"] = u.GlobalName
	}
	if u.Bot {
		m["bot"] = true
		m["discriminator"] = "0000"
	}
	return m
}

var joinedAt = timestamp(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))

func memberJSON(u User, withUser bool) map[string]any {
	roles := u.Roles
	if roles == nil {
		roles = []string{}
	}
	m := map[string]any{
		"roles":         roles,
		"joined_at":     joinedAt,
		"nick":          nil,
		"avatar":        nil,
		"premium_since": nil,
		"deaf":          false,
		"mute":          false,
		"pending":       false,
		"flags":         0,
	}
	if withUser {
		m["user"] = userJSON(u)
	}
	return m
}

func channelJSON(ch *channelState) map[string]any {
	if ch.guildID == "" {
		recipients := []any{}
		if ch.recipient != nil {
			recipients = append(recipients, userJSON(*ch.recipient))
		}
		return map[string]any{"id": ch.id, "type": 1, "recipients": recipients, "last_message_id": lastID(ch), "flags": 0}
	}
	return map[string]any{
		"id":                    ch.id,
		"type":                  0,
		"guild_id":              ch.guildID,
		"name":                  ch.name,
		"position":              0,
		"permission_overwrites": []any{},
		"nsfw":                  false,
		"topic":                 nil,
		"parent_id":             nil,
		"rate_limit_per_user":   0,
		"last_message_id":       lastID(ch),
		"flags":                 0,
	}
}

func lastID(ch *channelState) any {
	if len(ch.order) == 0 {
		return nil
	}
	return ch.order[len(ch.order)-1]
}

func (s *Server) guildJSONLocked(g Guild) map[string]any {
	var chans []map[string]any
	for _, c := range g.Channels {
		chans = append(chans, channelJSON(s.channelLocked(c.ID, g.ID)))
	}
	if chans == nil {
		chans = []map[string]any{}
	}
	owner := g.OwnerID
	if owner == "" {
		owner = s.bot.ID
	}
	name := g.Name
	if name == "" {
		name = "guild-" + g.ID
	}
	return map[string]any{
		"id":                            g.ID,
		"name":                          name,
		"icon":                          nil,
		"owner_id":                      owner,
		"unavailable":                   false,
		"large":                         false,
		"member_count":                  1,
		"joined_at":                     joinedAt,
		"features":                      []any{},
		"preferred_locale":              "en-US",
		"verification_level":            0,
		"default_message_notifications": 0,
		"explicit_content_filter":       0,
		"mfa_level":                     0,
		"premium_tier":                  0,
		"nsfw_level":                    0,
		"system_channel_id":             nil,
		"roles": []any{map[string]any{
			"id": g.ID, "name": "@everyone", "permissions": "1071698660929", "position": 0,
			"color": 0, "hoist": false, "managed": false, "mentionable": false, "flags": 0,
		}},
		"emojis":                 []any{},
		"stickers":               []any{},
		"channels":               chans,
		"threads":                []any{},
		"members":                []any{memberJSON(s.bot, true)},
		"voice_states":           []any{},
		"presences":              []any{},
		"stage_instances":        []any{},
		"guild_scheduled_events": []any{},
	}
}

var (
	userMention     = regexp.MustCompile(`<@!?(\d+)>`)
	roleMention     = regexp.MustCompile(`<@&(\d+)>`)
	everyoneMention = regexp.MustCompile(`@(everyone|here)\b`)
)

// newMessageLocked builds a stored message the way Discord serves it over REST
// (no guild_id or member: the gateway adds those).
func (s *Server) newMessageLocked(id, channelID string, author User, content string) map[string]any {
	m := map[string]any{
		"id":               id,
		"type":             0,
		"channel_id":       channelID,
		"author":           userJSON(author),
		"content":          content,
		"timestamp":        timestamp(time.Now()),
		"edited_timestamp": nil,
		"tts":              false,
		"mention_everyone": false,
		"mentions":         []any{},
		"mention_roles":    []any{},
		"attachments":      []any{},
		"embeds":           []any{},
		"components":       []any{},
		"pinned":           false,
		"flags":            0,
	}
	s.setMentionsLocked(m)
	return m
}

// setMentionsLocked fills mentions, mention_roles and mention_everyone from
// the content.
func (s *Server) setMentionsLocked(m map[string]any) {
	content, _ := m["content"].(string)
	mentions := []any{}
	seen := map[string]bool{}
	for _, sm := range userMention.FindAllStringSubmatch(content, -1) {
		id := sm[1]
		if seen[id] {
			continue
		}
		seen[id] = true
		u, ok := s.users[id]
		if !ok {
			u = User{ID: id, Username: "user" + id}
		}
		mentions = append(mentions, userJSON(u))
	}
	roles := []any{}
	for _, sm := range roleMention.FindAllStringSubmatch(content, -1) {
		roles = append(roles, sm[1])
	}
	m["mentions"] = mentions
	m["mention_roles"] = roles
	m["mention_everyone"] = everyoneMention.MatchString(content)
}

func mentionsUser(m map[string]any, id string) bool {
	ms, _ := m["mentions"].([]any)
	for _, u := range ms {
		if um, ok := u.(map[string]any); ok && um["id"] == id {
			return true
		}
	}
	return false
}

// messageEventLocked builds a MESSAGE_CREATE or MESSAGE_UPDATE for a stored
// message: guild_id and member added, and the content hidden from sessions
// without the MESSAGE_CONTENT intent unless the bot wrote the message or is
// mentioned in it.
func (s *Server) messageEventLocked(name string, ch *channelState, sm *storedMessage) event {
	d := cloneMap(sm.obj)
	ev := event{name: name, intent: intentDirectMessages}
	if ch.guildID != "" {
		ev.intent = intentGuildMessages
		d["guild_id"] = ch.guildID
		if _, isWebhook := d["webhook_id"]; !isWebhook {
			d["member"] = memberJSON(sm.author, false)
		}
	}
	ev.d = mustJSON(d)
	if ch.guildID != "" && sm.author.ID != s.bot.ID && !mentionsUser(sm.obj, s.bot.ID) {
		d["content"] = ""
		d["embeds"] = []any{}
		d["attachments"] = []any{}
		d["components"] = []any{}
		delete(d, "poll")
		ev.noContent = mustJSON(d)
	}
	return ev
}

func messageDeleteEvent(ch *channelState, id string) event {
	d := map[string]any{"id": id, "channel_id": ch.id}
	ev := event{name: "MESSAGE_DELETE", intent: intentDirectMessages}
	if ch.guildID != "" {
		d["guild_id"] = ch.guildID
		ev.intent = intentGuildMessages
	}
	ev.d = mustJSON(d)
	return ev
}

func cloneMap(m map[string]any) map[string]any {
	var out map[string]any
	if err := json.Unmarshal(mustJSON(m), &out); err != nil {
		panic(err)
	}
	return out
}

// ---- payloads from the bot ---------------------------------------------------

// settableFlags are the message flags a bot may set when posting: suppress
// embeds, suppress notifications, components v2 (and ephemeral, in
// interaction responses only).
const (
	flagSuppressEmbeds = 1 << 2
	flagEphemeral      = 1 << 6
	flagLoading        = 1 << 7
	flagSuppressNotify = 1 << 12
	flagComponentsV2   = 1 << 15
)

// applyPayloadLocked applies a create or edit payload (and uploaded files) to
// a stored message object. edit tells an edit, which keeps what it does not
// name; allowEphemeral allows flag 64 (interaction responses).
func (s *Server) applyPayloadLocked(m map[string]any, p map[string]any, files []Part, edit, allowEphemeral bool) {
	if v, ok := p["content"]; ok {
		if v == nil {
			v = ""
		}
		m["content"] = v
		s.setMentionsLocked(m)
	}
	if v, ok := p["embeds"]; ok {
		embeds, _ := v.([]any)
		if embeds == nil {
			embeds = []any{}
		}
		for _, e := range embeds {
			if em, ok := e.(map[string]any); ok {
				if _, has := em["type"]; !has {
					em["type"] = "rich"
				}
			}
		}
		m["embeds"] = embeds
	}
	if v, ok := p["components"]; ok {
		comps, _ := v.([]any)
		if comps == nil {
			comps = []any{}
		}
		m["components"] = comps
	}
	if v, ok := p["flags"]; ok {
		f, _ := v.(float64)
		m["flags"] = payloadFlags(intOf(m["flags"]), int(f), edit, allowEphemeral)
	}
	if v, ok := p["tts"].(bool); ok && !edit {
		m["tts"] = v
	}
	if v, ok := p["poll"]; ok && !edit {
		m["poll"] = v
	}
	if v, ok := p["nonce"]; ok && !edit {
		m["nonce"] = v
	}
	m["attachments"] = s.attachmentsLocked(m, p, files, edit)
}

// payloadFlags is a message's flags after a payload sets f: only the flags a message may
// set (ephemeral only where allowEphemeral), and an edit cannot make a message ephemeral
// or not.
func payloadFlags(old, f int, edit, allowEphemeral bool) int {
	mask := flagSuppressEmbeds | flagSuppressNotify | flagComponentsV2
	if allowEphemeral {
		mask |= flagEphemeral
	}
	if edit {
		return old&^(mask&^flagEphemeral) | f&(mask&^flagEphemeral)
	}
	return old | f&mask
}

// attachmentsLocked is a message's attachments after a payload: an edit keeps the ones
// its "attachments" list names (all, when it has no list); uploaded files are appended.
func (s *Server) attachmentsLocked(m, p map[string]any, files []Part, edit bool) []any {
	atts, _ := m["attachments"].([]any)
	if edit {
		if keep, ok := p["attachments"].([]any); ok {
			ids := map[string]bool{}
			for _, k := range keep {
				if km, ok := k.(map[string]any); ok {
					ids[idString(km["id"])] = true
				}
			}
			var kept []any
			for _, a := range atts {
				if am, ok := a.(map[string]any); ok && ids[idString(am["id"])] {
					kept = append(kept, a)
				}
			}
			atts = kept
		}
	} else {
		atts = nil
	}
	chID, _ := m["channel_id"].(string)
	for _, f := range files {
		atts = append(atts, s.storeFileLocked(chID, f.Filename, f.ContentType, f.Data))
	}
	if atts == nil {
		atts = []any{}
	}
	return atts
}

// storeFileLocked keeps an uploaded file and returns its attachment object.
func (s *Server) storeFileLocked(channelID, name, contentType string, data []byte) map[string]any {
	id := s.ids.next()
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	s.files[id] = file{name: name, contentType: contentType, data: append([]byte(nil), data...)}
	u := s.URL() + "/attachments/" + channelID + "/" + id + "/" + name
	return map[string]any{
		"id":           id,
		"filename":     name,
		"size":         len(data),
		"url":          u,
		"proxy_url":    u,
		"content_type": contentType,
	}
}

func intOf(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

func idString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatInt(int64(x), 10)
	}
	return ""
}

// ---- validation ----------------------------------------------------------------

// validateMessage checks what Discord checks of a message a bot sends.
func validateMessage(m map[string]any) *apiError {
	fe := &formErrors{}
	content, _ := m["content"].(string)
	if utf8.RuneCountInString(content) > 2000 {
		fe.add("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
	}
	embeds, _ := m["embeds"].([]any)
	if len(embeds) > 10 {
		fe.add("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
	}
	total := 0
	for i, e := range embeds {
		em, _ := e.(map[string]any)
		total += validateEmbed(fe, "embeds."+strconv.Itoa(i), em)
	}
	if total > 6000 {
		fe.add("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
	}
	flags := intOf(m["flags"])
	comps, _ := m["components"].([]any)
	if flags&flagComponentsV2 == 0 {
		validateComponents(fe, comps)
	}
	if fe.any() {
		return fe.err()
	}
	atts, _ := m["attachments"].([]any)
	_, sticker := m["sticker_ids"]
	_, poll := m["poll"]
	if content == "" && len(embeds) == 0 && len(atts) == 0 && len(comps) == 0 && !sticker && !poll && flags&flagLoading == 0 {
		return &apiError{status: 400, code: 50006, message: "Cannot send an empty message"}
	}
	return nil
}

func strLen(m map[string]any, key string) int {
	s, _ := m[key].(string)
	return utf8.RuneCountInString(s)
}

// validateEmbed checks one embed's limits and returns its size toward the 6000.
func validateEmbed(fe *formErrors, p string, em map[string]any) int {
	if em == nil {
		fe.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
		return 0
	}
	size := 0
	check := func(key string, n int, max int) {
		size += n
		if n > max {
			fe.add(p+"."+key, "BASE_TYPE_MAX_LENGTH", "Must be "+strconv.Itoa(max)+" or fewer in length.")
		}
	}
	check("title", strLen(em, "title"), 256)
	check("description", strLen(em, "description"), 4096)
	if f, ok := em["footer"].(map[string]any); ok {
		check("footer.text", strLen(f, "text"), 2048)
	}
	if a, ok := em["author"].(map[string]any); ok {
		check("author.name", strLen(a, "name"), 256)
	}
	fields, _ := em["fields"].([]any)
	if len(fields) > 25 {
		fe.add(p+".fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	for i, f := range fields {
		fm, _ := f.(map[string]any)
		fp := p + ".fields." + strconv.Itoa(i)
		if fm == nil {
			continue
		}
		for _, k := range []struct {
			key string
			max int
		}{{"name", 256}, {"value", 1024}} {
			n := strLen(fm, k.key)
			size += n
			if n == 0 {
				fe.add(fp+"."+k.key, "BASE_TYPE_REQUIRED", "This field is required")
			} else if n > k.max {
				fe.add(fp+"."+k.key, "BASE_TYPE_MAX_LENGTH", "Must be "+strconv.Itoa(k.max)+" or fewer in length.")
			}
		}
	}
	return size
}

// validateComponents checks classic (non-v2) message components.
func validateComponents(fe *formErrors, comps []any) {
	if len(comps) > 5 {
		fe.add("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
	}
	ids := map[string]bool{}
	for i, c := range comps {
		p := "components." + strconv.Itoa(i)
		row, _ := c.(map[string]any)
		if t, _ := row["type"].(float64); t != 1 {
			fe.add(p+".type", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Top-level components must be action rows")
			continue
		}
		kids, _ := row["components"].([]any)
		if len(kids) == 0 || len(kids) > 5 {
			fe.add(p+".components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		selects := 0
		for j, k := range kids {
			kp := p + ".components." + strconv.Itoa(j)
			km, _ := k.(map[string]any)
			if km == nil {
				continue
			}
			if validateRowComponent(fe, kp, km, ids) {
				selects++
			}
		}
		if selects > 0 && len(kids) > 1 {
			fe.add(p+".components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
		}
	}
}

// validateRowComponent checks one component of an action row at kp, its custom id unique
// among ids, and reports whether it is a select (which fills its row alone).
func validateRowComponent(fe *formErrors, kp string, km map[string]any, ids map[string]bool) (isSelect bool) {
	t, _ := km["type"].(float64)
	id, _ := km["custom_id"].(string)
	if id != "" {
		if ids[id] {
			fe.add(kp+".custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
		}
		ids[id] = true
		if utf8.RuneCountInString(id) > 100 {
			fe.add(kp+".custom_id", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
		}
	}
	switch t {
	case 2: // button
		style, _ := km["style"].(float64)
		switch {
		case style == 5:
			if u, _ := km["url"].(string); u == "" {
				fe.add(kp+".url", "BASE_TYPE_REQUIRED", "This field is required")
			}
		case style >= 1 && style <= 4:
			if id == "" {
				fe.add(kp+".custom_id", "BASE_TYPE_REQUIRED", "This field is required")
			}
		}
		if strLen(km, "label") > 80 {
			fe.add(kp+".label", "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
		}
	case 3, 5, 6, 7, 8: // selects
		if id == "" {
			fe.add(kp+".custom_id", "BASE_TYPE_REQUIRED", "This field is required")
		}
		if strLen(km, "placeholder") > 150 {
			fe.add(kp+".placeholder", "BASE_TYPE_MAX_LENGTH", "Must be 150 or fewer in length.")
		}
		if t == 3 {
			validateSelectOptions(fe, kp, km)
		}
		return true
	default:
		fe.add(kp+".type", "COMPONENT_TYPE_INVALID", "Component type is not valid in an action row")
	}
	return false
}

// validateSelectOptions checks a string select's options: 1 to 25, each with a label and
// a value, and no more to pick than there are.
func validateSelectOptions(fe *formErrors, kp string, km map[string]any) {
	opts, _ := km["options"].([]any)
	if len(opts) == 0 || len(opts) > 25 {
		fe.add(kp+".options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
	}
	for o, opt := range opts {
		om, _ := opt.(map[string]any)
		op := kp + ".options." + strconv.Itoa(o)
		if n := strLen(om, "label"); n == 0 || n > 100 {
			fe.add(op+".label", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		if n := strLen(om, "value"); n == 0 || n > 100 {
			fe.add(op+".value", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
	}
	if mx, ok := km["max_values"].(float64); ok && int(mx) > len(opts) {
		fe.add(kp+".max_values", "BASE_TYPE_MAX", "Must be less than or equal to the number of options.")
	}
}
