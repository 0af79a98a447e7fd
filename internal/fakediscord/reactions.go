package fakediscord

import (
	"net/http"
	"unicode/utf8"
)

// Reactions: PUT /channels/{c}/messages/{m}/reactions/{emoji}/@me adds the bot's
// reaction to a message, as Discord does: once however often it is sent (204 each
// time), stored in the message's "reactions" array ({count, me, emoji:{id, name}}), so
// Message and GET of the message show it. An emoji that is not a Unicode one is refused
// as Discord refuses an unknown one (400, code 10014); so is a message that does not
// exist (404). No MESSAGE_REACTION_ADD is dispatched: the bot under test does not read
// reactions.

// reactionLocked serves the reaction routes: seg is channels/{c}/messages/{m}/reactions/{emoji}/@me.
func (s *Server) reactionLocked(method string, seg []string) response {
	if method != http.MethodPut {
		return methodNotAllowed()
	}
	_, sm, missing, ok := s.findMessageLocked(seg[1], seg[3])
	if !ok {
		return missing
	}
	emoji := seg[5]
	if emoji == "" || !utf8.ValidString(emoji) || isASCII(emoji) {
		return (&apiError{status: 400, code: 10014, message: "Unknown Emoji"}).resp()
	}
	list, _ := sm.obj["reactions"].([]any)
	for _, r := range list {
		rm, _ := r.(map[string]any)
		if e, _ := rm["emoji"].(map[string]any); e != nil && e["name"] == emoji {
			if rm["me"] != true {
				rm["me"], rm["count"] = true, intOf(rm["count"])+1
			}
			return noContent()
		}
	}
	sm.obj["reactions"] = append(list, map[string]any{"count": 1, "me": true, "emoji": map[string]any{"id": nil, "name": emoji}})
	return noContent()
}

// isASCII reports whether s has no character beyond ASCII: no Unicode emoji does.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
