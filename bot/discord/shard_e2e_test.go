package discord

import (
	"strings"
	"testing"

	"sheetkeeper/bot"
)

// Sharding through the real discordgo client and the fake Discord: a bot identifies as
// its shard, and only shard 0 overwrites the slash commands. Which guilds' events reach
// a shard is Discord's routing ((guild_id >> 22) % shards), not the bot's.

func shardOf(k, n int) func(*Options) {
	return func(o *Options) { o.Shard, o.Shards = k, n }
}

// identifiedAs checks that every IDENTIFY asked for shard k of n.
func identifiedAs(h *harness, k, n int) {
	h.t.Helper()
	ids := h.fake.Identifies()
	if len(ids) == 0 {
		h.t.Fatal("no IDENTIFY")
	}
	for _, id := range ids {
		if gk, gn, ok := id.Shard(); !ok || gk != k || gn != n {
			h.t.Fatalf("IDENTIFY shard = [%d,%d] (named: %v), want [%d,%d]; payload %s", gk, gn, ok, k, n, id.Raw)
		}
	}
}

// TestShardOneDoesNotRegister: shard 1 of 2 identifies with shard [1,2], registers no
// commands, and still answers the events Discord sends it.
func TestShardOneDoesNotRegister(t *testing.T) {
	h := newHarness(t, shardOf(1, 2))
	identifiedAs(h, 1, 2)
	if got := h.fake.CommandOverwrites(); len(got) != 0 {
		t.Fatalf("shard 1 overwrote the commands: %+v", got)
	}
	h.demo()
	if !strings.Contains(h.logs.String(), "registered=\"by shard 0\"") {
		t.Fatalf("the connected line does not say shard 0 registers:\n%s", h.logs)
	}
}

// TestShardZeroRegisters: shard 0 of 2 identifies with shard [0,2] and overwrites the
// commands once; an unsharded bot names no shard and overwrites them once too.
func TestShardZeroRegisters(t *testing.T) {
	h := newHarness(t, shardOf(0, 2))
	identifiedAs(h, 0, 2)
	if got := h.fake.CommandOverwrites(); len(got) != 1 {
		t.Fatalf("shard 0: %d overwrites, want 1", len(got))
	}
	u := newHarness(t)
	for _, id := range u.fake.Identifies() {
		if k, n, ok := id.Shard(); ok && (k != 0 || n != 1) {
			t.Fatalf("unsharded IDENTIFY named shard [%d,%d]", k, n)
		}
	}
	if got := u.fake.CommandOverwrites(); len(got) != 1 {
		t.Fatalf("unsharded: %d overwrites, want 1", len(got))
	}
}

// TestShardOutOfRange: a shard outside 0..shards-1 is refused before connecting.
func TestShardOutOfRange(t *testing.T) {
	core := bot.New(nil, bot.Options{})
	for _, o := range []Options{{Shard: 2, Shards: 2}, {Shard: -1, Shards: 2}, {Shard: 1}} {
		o.Token = token
		if _, err := New(core, o); err == nil || !strings.Contains(err.Error(), "shards are numbered") {
			t.Errorf("shard %d of %d: got %v", o.Shard, o.Shards, err)
		}
	}
}
