package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Discord shards (SPEC 10): past 2,500 guilds Discord requires a bot's gateway to be
// split into shards, and one process may run some of them. shard K of shards N is the
// one gateway connection this process opens; Discord itself routes each guild's events
// to shard (guild_id >> 22) % N, and direct messages to shard 0, so no routing of ours
// is needed. The defaults, shard 0 of 1, are the whole bot in one process. "--shards
// auto" asks Discord for its recommended count at start and divides the shards among
// the processes sharing an etcd store, each holding a lease per shard it runs (on a
// bbolt file, which one process holds, that process runs them all).

// ShardSettings are the settings of a command that connects to Discord's gateway.
var ShardSettings = []string{"shard", "shards"}

// maxShards bounds shards: Discord's largest bots run tens of thousands; a number past
// this is a typo, not a deployment.
const maxShards = 1 << 16

// shardSettings are the Setting entries of sharding (Settings holds them).
func shardSettings() []Setting {
	return []Setting{
		{Name: "shard", Env: []string{"SHEETKEEPER_SHARD"}, Help: "which Discord gateway shard this process runs, 0 to shards-1; Discord sends it the events of the guilds with (guild_id >> 22) % shards == shard (direct messages: shard 0), and only shard 0 registers the slash commands",
			Default: func() string { return "0" }, field: func(c *Config) *string { return &c.ShardSetting }},
		{Name: "shards", Env: []string{"SHEETKEEPER_SHARDS"}, Help: "how many Discord gateway shards the bot runs in all (one process per shard), or auto: Discord's recommended count, divided among the processes sharing the etcd store (each takes its share; one dying hands its shards on)",
			Default: func() string { return "1" }, field: func(c *Config) *string { return &c.ShardsSetting }},
	}
}

// resolveShards sets c.Shard and c.Shards from their settings: whole numbers with
// 0 ≤ shard < shards, or shards "auto" (c.ShardsAuto) with no shard given.
func (c *Config) resolveShards() error {
	if strings.TrimSpace(c.ShardsSetting) == "auto" {
		if k := strings.TrimSpace(c.ShardSetting); k != "0" {
			return fmt.Errorf("shard %q with shards auto: the processes divide the shards among themselves; leave shard out", k)
		}
		c.Shard, c.Shards, c.ShardsAuto = 0, 0, true
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(c.ShardsSetting))
	if err != nil || n < 1 || n > maxShards {
		return fmt.Errorf("shards: %q is not a number of shards (a whole number from 1 to %d)", c.ShardsSetting, maxShards)
	}
	k, err := strconv.Atoi(strings.TrimSpace(c.ShardSetting))
	if err != nil || k < 0 {
		return fmt.Errorf("shard: %q is not a shard number (a whole number from 0)", c.ShardSetting)
	}
	if k >= n {
		return fmt.Errorf("shard %d of shards %d: shards are numbered 0 to %d", k, n, n-1)
	}
	c.Shard, c.Shards = k, n
	return nil
}
