package fakediscord

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Sharding, as a test sees it: which shard an IDENTIFY asked for, and which requests
// overwrote the application's slash commands (only shard 0 of a sharded bot should).
// The fake routes as Discord does: a guild's events go to the session of the shard
// (guild_id >> 22) % shards, direct messages to shard 0's, where one has identified
// for that shard (the latest such IDENTIFY wins, as a shard moves between processes);
// an event no sharded session is for goes to the current session, so a lone sharded
// bot still sees every guild.

// shardKey is the [shard, count] an IDENTIFY named.
type shardKey struct{ shard, count int }

// routeLocked is the session ev goes to: its shard's, else the current one.
func (s *Server) routeLocked(ev event) *gwSession {
	if len(s.gw.byShard) == 0 {
		return s.gw.current
	}
	var d struct {
		GuildID string `json:"guild_id"`
	}
	if json.Unmarshal(ev.d, &d) != nil {
		return s.gw.current
	}
	var guild uint64
	if d.GuildID != "" {
		g, err := strconv.ParseUint(d.GuildID, 10, 64)
		if err != nil {
			return s.gw.current
		}
		guild = g
	}
	for key, sess := range s.gw.byShard {
		if key.count > 0 && int((guild>>22)%uint64(key.count)) == key.shard {
			return sess
		}
	}
	return s.gw.current
}

// ShardOf is the shard of n that Discord sends guild's events to: (guild_id >> 22) % n.
func ShardOf(guild string, n int) int {
	g, _ := strconv.ParseUint(guild, 10, 64)
	return int((g >> 22) % uint64(max(n, 1)))
}

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
