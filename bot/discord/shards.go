package discord

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot/discord/endpoint"
)

// Shards run at run time (Options.ShardsAuto): the process is told which shards it
// runs — storage/etcd's Shards hands them out, a lease each, and moves them when a
// process joins or dies — and holds one gateway session per shard. Discord routes
// each guild's events to its shard, so a guild's channels are handled by the one
// process running that shard; whoever runs shard 0 registers the slash commands when
// it opens it.

// RecommendedShards is the number of shards Discord recommends for the bot (GET
// /gateway/bot): what --shards auto divides.
func (b *Bot) RecommendedShards(ctx context.Context) (int, error) {
	gw, err := b.sess.GatewayBot(discordgo.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("discord: asking for the recommended shards: %w", endpoint.Named(err))
	}
	if gw.Shards < 1 {
		return 0, fmt.Errorf("discord: Discord recommends %d shards", gw.Shards)
	}
	return gw.Shards, nil
}

// OpenShard connects the gateway session of shard of count and returns once it is
// READY (and, for shard 0, the slash commands are registered). Running a shard already
// running is nothing. It waits for Options.IdentifyInterval since its last IDENTIFY
// first: Discord refuses IDENTIFYs faster than that. (Processes do not space theirs
// with each other's: start them some seconds apart.)
func (b *Bot) OpenShard(ctx context.Context, shard, count int) error {
	if shard < 0 || shard >= count {
		return fmt.Errorf("discord: shard %d of %d: shards are numbered 0 to %d", shard, count, count-1)
	}
	b.opening.Lock()
	defer b.opening.Unlock()
	b.mu.Lock()
	if b.closing {
		b.mu.Unlock()
		return fmt.Errorf("discord: shutting down: shard %d not opened", shard)
	}
	_, running := b.links[shard]
	b.mu.Unlock()
	if running {
		return nil
	}
	if wait := time.Until(b.identified.Add(b.opts.IdentifyInterval)); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("discord: waiting to open shard %d: %w", shard, ctx.Err())
		}
	}
	l, err := b.newLink(shard, count)
	if err != nil {
		return err
	}
	err = b.openLink(ctx, l, shard, count)
	b.identified = time.Now()
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing { // Close ran meanwhile and did not see l
		l.close()
		return fmt.Errorf("discord: shutting down: shard %d closed", shard)
	}
	b.links[shard] = l
	return nil
}

// CloseShard disconnects shard's gateway session: Discord sends its guilds' events to
// whoever opens it next. Events already taken are still handled and answered.
func (b *Bot) CloseShard(shard int) {
	b.mu.Lock()
	l := b.links[shard]
	delete(b.links, shard)
	b.mu.Unlock()
	if l == nil {
		return
	}
	if err := l.close(); err != nil {
		b.log.Warn("discord: closing a shard", "shard", shard, "err", err)
	}
	b.log.Info("discord: shard closed", "shard", shard)
}

// Shards are the shards this process runs now with Options.ShardsAuto, in order.
func (b *Bot) Shards() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Sorted(maps.Keys(b.links))
}
