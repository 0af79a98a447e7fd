package fakediscord

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Sharding, as a test sees it: which shard an IDENTIFY asked for, and which requests
// overwrote the application's slash commands (only shard 0 of a sharded bot should).
// The fake serves every connection every guild's events, whatever its shard; Discord
// sends a shard only its guilds' ((guild_id >> 22) % shards).

// Shard is the [shard, count] an IDENTIFY asked for; ok is false when it named none
// (an unsharded client, which Discord treats as shard 0 of 1).
func (id Identify) Shard() (shard, count int, ok bool) {
	var d struct {
		Shard *[2]int `json:"shard"`
	}
	if json.Unmarshal(id.Raw, &d) != nil || d.Shard == nil {
		return 0, 1, false
	}
	return d.Shard[0], d.Shard[1], true
}

// CommandOverwrites returns the bulk overwrites of slash commands received so far
// (PUT /applications/{app}/commands or /applications/{app}/guilds/{g}/commands),
// whatever their answer.
func (s *Server) CommandOverwrites() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == http.MethodPut && strings.HasPrefix(r.Path, "/applications/") && strings.HasSuffix(r.Path, "/commands") {
			out = append(out, r)
		}
	}
	return out
}
