package discord

import (
	"context"
	"slices"
	"testing"
	"time"

	"sheetkeeper/internal/fakediscord"
)

// Shards given at run time (Options.ShardsAuto), through the real discordgo client and
// the fake Discord, which routes a guild's events to its shard's session as Discord
// does: Open connects nothing; OpenShard connects one session per shard, and shard 0's
// registers the commands; a closed shard's guild goes unanswered here until it is
// opened again.
func TestShardsAuto(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.ShardsAuto, o.IdentifyInterval = true, -1 })
	if ids := h.fake.Identifies(); len(ids) != 0 {
		t.Fatalf("Open identified %d times; with ShardsAuto it connects nothing", len(ids))
	}
	if !h.bot.Connected() {
		t.Error("running no shard yet, the bot is not ready to take one")
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	own := fakediscord.ShardOf(h.guild, 2)
	for _, k := range []int{1 - own, own} {
		if err := h.bot.OpenShard(ctx, k, 2); err != nil {
			t.Fatalf("OpenShard %d: %v", k, err)
		}
	}
	if err := h.bot.OpenShard(ctx, own, 2); err != nil { // already running: nothing
		t.Fatalf("OpenShard %d again: %v", own, err)
	}
	if got := h.bot.Shards(); !slices.Equal(got, []int{0, 1}) || !h.bot.Connected() {
		t.Fatalf("runs %v (connected %v), want [0 1]", got, h.bot.Connected())
	}
	if n := len(h.fake.Identifies()); n != 2 {
		t.Errorf("%d IDENTIFYs for 2 shards", n)
	}
	if n := len(h.fake.CommandOverwrites()); n != 1 {
		t.Errorf("%d command overwrites, want 1 (shard 0's)", n)
	}
	h.demo()

	h.bot.CloseShard(own)
	if got := h.bot.Shards(); !slices.Equal(got, []int{1 - own}) {
		t.Fatalf("after closing shard %d it runs %v", own, got)
	}
	unanswered := h.say(h.gm, `[sheet: who="Mira" op="damage" pool="breath" amount="1"]`)
	if h.fake.WaitFor(func() bool { return len(h.postsFor(unanswered)) > 0 }, 500*time.Millisecond) {
		t.Fatal("a message of a closed shard's guild was answered")
	}
	if err := h.bot.OpenShard(ctx, own, 2); err != nil {
		t.Fatalf("OpenShard %d again: %v", own, err)
	}
	h.postFor(h.say(h.gm, `[sheet: who="Mira" op="damage" pool="breath" amount="1"]`))
	if err := h.bot.OpenShard(ctx, 2, 2); err == nil {
		t.Error("shard 2 of 2 opened")
	}
}
