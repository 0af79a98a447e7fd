package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sheetkeeper/config"
	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage/etcd/etcdtest"
)

// autoGuild is a guild of shard 1 of 4 ((id >> 22) % 4 == 1): the first process keeps
// it when the second joins (a process gives its highest shards up).
const autoGuild, autoChannel = "20971520", "20971521"

// startAuto runs `sheetkeeper run --shards auto` on the etcd at endpoint, with a short
// shard lease.
func startAuto(t *testing.T, fake *fakediscord.Server, endpoint string) (*Main, *syncBuffer) {
	t.Helper()
	cfg := &config.Config{DiscordToken: "run-token", DiscordAPI: fake.URL(), DiscordGuild: autoGuild, LogLevel: "debug",
		Store: config.Location{Backend: config.Etcd, Endpoints: []string{endpoint}}, EtcdPrefix: "auto-test/", ShardsAuto: true}
	stderr := &syncBuffer{}
	m := NewMain(cfg, stderr)
	m.ShardTTL = time.Second
	m.IdentifyInterval = -1 // the fake takes them as fast as they come
	if err := m.Run(context.Background()); err != nil {
		m.Close()
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	t.Cleanup(func() { m.Close() })
	return m, stderr
}

func waitShards(t *testing.T, fake *fakediscord.Server, within time.Duration, want map[*Main][]int) {
	t.Helper()
	ok := func() bool {
		for m, w := range want {
			if !slices.Equal(m.Bot.Shards(), w) {
				return false
			}
		}
		return true
	}
	if !fake.WaitFor(ok, within) {
		for m, w := range want {
			t.Errorf("runs shards %v, want %v", m.Bot.Shards(), w)
		}
		t.FailNow()
	}
}

// answersDemo runs /demo in the shard-1 guild and waits for its answer.
func answersDemo(t *testing.T, fake *fakediscord.Server, logs ...*syncBuffer) {
	t.Helper()
	demo := fake.Command(autoChannel, autoGuild, fake.NewUser("gm"), "demo")
	if !fake.WaitFor(func() bool { return len(fake.InteractionResponses(demo)) > 0 }, 10*time.Second) {
		var all []string
		for _, l := range logs {
			all = append(all, l.String())
		}
		t.Fatalf("/demo not answered:\n%s", strings.Join(all, "\n----\n"))
	}
}

// TestRunShardsAuto: two processes with --shards auto on one etcd divide Discord's
// recommended 4 shards, 2 each, the slash commands registered once (by shard 0's);
// the first process's etcd client dying hands its shards to the second within
// seconds, which then answers the guild the first ran.
func TestRunShardsAuto(t *testing.T) {
	e, err := etcdtest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close) // after the processes' Close: cleanups run last first
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "run-token", Shards: 4,
		Guilds: []fakediscord.Guild{{ID: autoGuild, Channels: []fakediscord.Channel{{ID: autoChannel}}}}})
	if got := fakediscord.ShardOf(autoGuild, 4); got != 1 {
		t.Fatalf("guild %s is of shard %d", autoGuild, got)
	}
	p1, log1 := startAuto(t, fake, etcdtest.Endpoint(e))
	waitShards(t, fake, 10*time.Second, map[*Main][]int{p1: {0, 1, 2, 3}})
	p2, log2 := startAuto(t, fake, etcdtest.Endpoint(e))
	waitShards(t, fake, 10*time.Second, map[*Main][]int{p1: {0, 1}, p2: {2, 3}})
	if got := len(fake.CommandOverwrites()); got != 1 {
		t.Errorf("the commands were overwritten %d times, want once", got)
	}
	answersDemo(t, fake, log1, log2)

	start := time.Now()
	if err := p1.Store.Close(); err != nil { // p1 loses etcd: its leases end
		t.Fatal(err)
	}
	waitShards(t, fake, 10*time.Second, map[*Main][]int{p1: {}, p2: {0, 1, 2, 3}})
	t.Logf("p2 runs every shard %s after p1 lost etcd", time.Since(start).Round(time.Millisecond))
	answersDemo(t, fake, log1, log2)
	for _, id := range fake.Identifies()[4:] {
		if k, n, ok := id.Shard(); !ok || n != 4 {
			t.Errorf("IDENTIFY named shard [%d,%d] (named: %v), want one of 4", k, n, ok)
		}
	}
}

// TestRunShardsAutoOnBolt: on a bbolt file, which one process holds, --shards auto runs
// every shard Discord recommends in this process, and registers the commands once.
func TestRunShardsAutoOnBolt(t *testing.T) {
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "run-token", Shards: 3,
		Guilds: []fakediscord.Guild{{ID: autoGuild, Channels: []fakediscord.Channel{{ID: autoChannel}}}}})
	cfg := &config.Config{DB: filepath.Join(t.TempDir(), "sheetkeeper.db"), DiscordToken: "run-token", DiscordAPI: fake.URL(),
		DiscordGuild: autoGuild, LogLevel: "debug", ShardsAuto: true}
	var stderr syncBuffer
	m := NewMain(cfg, &stderr)
	m.IdentifyInterval = 50 * time.Millisecond
	start := time.Now()
	if err := m.Run(context.Background()); err != nil {
		m.Close()
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	defer m.Close()
	if got := m.Bot.Shards(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("runs shards %v, want all 3", got)
	}
	ids := fake.Identifies()
	if took := time.Since(start); took < 100*time.Millisecond || len(ids) != 3 || ids[2].Time.Sub(ids[1].Time) < 50*time.Millisecond {
		t.Errorf("3 shards opened in %s, %d IDENTIFYs, not 50 ms apart", took, len(ids))
	}
	var named []int
	for _, id := range fake.Identifies() {
		if k, n, ok := id.Shard(); ok && n == 3 {
			named = append(named, k)
		}
	}
	if slices.Sort(named); !slices.Equal(named, []int{0, 1, 2}) {
		t.Errorf("IDENTIFY named shards %v of 3, want 0, 1, 2", named)
	}
	if got := len(fake.CommandOverwrites()); got != 1 {
		t.Errorf("the commands were overwritten %d times, want once", got)
	}
	answersDemo(t, fake, &stderr)
}
