package fakediscord

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Commands returns the registered application commands: the global ones
// first, then each guild's in the order the guilds were first registered.
// A guild command has GuildID set.
func (s *Server) Commands() []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []map[string]any
	all = append(all, s.commands[""]...)
	for _, g := range s.commandOrder {
		if g != "" {
			all = append(all, s.commands[g]...)
		}
	}
	var out []*discordgo.ApplicationCommand
	if err := json.Unmarshal(mustJSON(all), &out); err != nil {
		panic("fakediscord: stored commands do not decode: " + err.Error())
	}
	return out
}

// commandIDLocked returns the id of a registered chat command, in the guild
// or globally, or "".
func (s *Server) commandIDLocked(guildID, name string) string {
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.commands[scope] {
			if c["name"] == name && intOf(c["type"]) == 1 {
				return c["id"].(string)
			}
		}
	}
	return ""
}

// commandsLocked is GET and PUT (bulk overwrite) of
// /applications/{app}/commands and /applications/{app}/guilds/{g}/commands.
func (s *Server) commandsLocked(method, appID, guildID string, body any) response {
	if appID != s.appID {
		return (&apiError{status: 403, code: 50001, message: "Missing Access"}).resp()
	}
	switch method {
	case http.MethodGet:
		list := s.commands[guildID]
		if list == nil {
			return jsonResp(200, []any{})
		}
		return jsonResp(200, list)
	case http.MethodPut:
	default:
		return methodNotAllowed()
	}
	in, ok := body.([]any)
	if !ok && body != nil {
		return (&apiError{status: 400, code: 50035, message: "Invalid Form Body", errors: map[string]any{
			"_errors": []any{map[string]any{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}},
		}}).resp()
	}
	if fe := checkCommands(in); fe.any() {
		return fe.err().resp()
	}
	return jsonResp(200, s.putCommandsLocked(guildID, in))
}

// checkCommands checks a bulk overwrite: each command valid, no two of one type with one
// name, at most 100.
func checkCommands(in []any) *formErrors {
	fe := &formErrors{}
	seen := map[string]bool{}
	for i, c := range in {
		p := strconv.Itoa(i)
		cm, _ := c.(map[string]any)
		if cm == nil {
			fe.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
			continue
		}
		validateCommand(fe, p, cm)
		key := commandKey(cm)
		if seen[key] {
			fe.add(p+".name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
	}
	if len(in) > 100 {
		fe.add("_errors", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
	}
	return fe
}

// putCommandsLocked replaces the commands of guildID ("" for global) with in, as Discord
// stores them: a command keeps its id when one of its type and name was there before.
func (s *Server) putCommandsLocked(guildID string, in []any) []map[string]any {
	old := map[string]string{}
	for _, c := range s.commands[guildID] {
		old[commandKey(c)] = c["id"].(string)
	}
	out := []map[string]any{}
	for _, c := range in {
		cm := cloneMap(c.(map[string]any))
		t := commandType(cm)
		id := old[commandKey(cm)]
		if id == "" {
			id = s.ids.next()
		}
		cm["id"] = id
		cm["application_id"] = s.appID
		cm["version"] = s.ids.next()
		cm["type"] = t
		if guildID != "" {
			cm["guild_id"] = guildID
		} else {
			delete(cm, "guild_id")
		}
		if _, ok := cm["default_member_permissions"]; !ok {
			cm["default_member_permissions"] = nil
		}
		if _, ok := cm["nsfw"]; !ok {
			cm["nsfw"] = false
		}
		if t != 1 {
			cm["description"] = ""
		}
		out = append(out, cm)
	}
	if _, known := s.commands[guildID]; !known {
		s.commandOrder = append(s.commandOrder, guildID)
	}
	s.commands[guildID] = out
	return out
}

// commandKey is what makes a command one: its type and name, unique within an overwrite.
func commandKey(c map[string]any) string {
	return strconv.Itoa(commandType(c)) + "/" + str(c, "name")
}

func commandType(c map[string]any) int {
	if t := intOf(c["type"]); t != 0 {
		return t
	}
	return 1
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// validateCommand checks a command as Discord does for the mistakes a bot is
// likely to make.
func validateCommand(fe *formErrors, p string, c map[string]any) {
	t := commandType(c)
	if t < 1 || t > 4 {
		fe.add(p+".type", "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4).")
		return
	}
	name := str(c, "name")
	if t == 1 {
		checkName(fe, p+".name", name)
		checkLen(fe, p+".description", str(c, "description"), 1, 100)
	} else if n := utf8.RuneCountInString(name); n < 1 || n > 32 {
		fe.add(p+".name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
	}
	opts, _ := c["options"].([]any)
	if t != 1 && len(opts) > 0 {
		fe.add(p+".options", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Only chat input commands may have options")
	}
	size := utf8.RuneCountInString(name) + utf8.RuneCountInString(str(c, "description"))
	size += validateOptions(fe, p+".options", opts, 0)
	if size > 4000 {
		fe.add(p, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)")
	}
}

func checkName(fe *formErrors, p, name string) {
	if !commandName.MatchString(name) {
		fe.add(p, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
	} else if strings.ToLower(name) != name {
		fe.add(p, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid (must be lowercase)")
	}
}

func checkLen(fe *formErrors, p, s string, min, max int) {
	if n := utf8.RuneCountInString(s); n < min || n > max {
		fe.add(p, "BASE_TYPE_BAD_LENGTH", "Must be between "+strconv.Itoa(min)+" and "+strconv.Itoa(max)+" in length.")
	}
}

// validateOptions checks a level of options: level 0 is the command's own,
// 1 a sub-command's or group's, 2 a grouped sub-command's. It returns the
// characters counted toward the command's 4000.
func validateOptions(fe *formErrors, p string, opts []any, level int) int {
	if len(opts) > 25 {
		fe.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	size := 0
	names := map[string]bool{}
	subs, others := 0, 0
	optionalSeen := false
	for i, o := range opts {
		op := p + "." + strconv.Itoa(i)
		om, _ := o.(map[string]any)
		if om == nil {
			fe.add(op, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
			continue
		}
		t := intOf(om["type"])
		name := str(om, "name")
		checkName(fe, op+".name", name)
		checkLen(fe, op+".description", str(om, "description"), 1, 100)
		size += utf8.RuneCountInString(name) + utf8.RuneCountInString(str(om, "description"))
		if names[name] {
			fe.add(op+".name", "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[name] = true
		switch {
		case t == 1 || t == 2:
			subs++
			if t == 2 && level > 0 || t == 1 && level > 1 {
				fe.add(op+".type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-commands cannot be nested this deep")
			}
			kids, _ := om["options"].([]any)
			if t == 2 {
				for j, k := range kids {
					if km, _ := k.(map[string]any); intOf(km["type"]) != 1 {
						fe.add(op+".options."+strconv.Itoa(j)+".type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A sub-command group may only hold sub-commands")
					}
				}
			}
			size += validateOptions(fe, op+".options", kids, level+1)
		case t >= 3 && t <= 11:
			others++
			req, _ := om["required"].(bool)
			if req && optionalSeen {
				fe.add(op+".required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
			}
			if !req {
				optionalSeen = true
			}
			choices, _ := om["choices"].([]any)
			if len(choices) > 25 {
				fe.add(op+".choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
			}
			if auto, _ := om["autocomplete"].(bool); auto && len(choices) > 0 {
				fe.add(op+".autocomplete", "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES", "Autocomplete cannot be set with choices")
			}
			for j, ch := range choices {
				cm, _ := ch.(map[string]any)
				cp := op + ".choices." + strconv.Itoa(j)
				checkLen(fe, cp+".name", str(cm, "name"), 1, 100)
				size += utf8.RuneCountInString(str(cm, "name"))
				if v, ok := cm["value"].(string); ok {
					checkLen(fe, cp+".value", v, 1, 100)
					size += utf8.RuneCountInString(v)
				}
			}
		default:
			fe.add(op+".type", "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).")
		}
	}
	if subs > 0 && others > 0 {
		fe.add(p, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types")
	}
	return size
}
