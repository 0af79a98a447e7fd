package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sheetkeeper/config"
	"sheetkeeper/internal/fakediscord"
)

// TestRunShardIsRefusedOutOfRange: `run --shard 2 --shards 2` exits 2 naming the
// settings, before any token or connection matters.
func TestRunShardIsRefusedOutOfRange(t *testing.T) {
	var stderr bytes.Buffer
	code := cmdRun([]string{"--db", filepath.Join(t.TempDir(), "sk.db"), "--shard", "2", "--shards", "2"}, nil, nil, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "shard 2 of shards 2") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// TestRunPassesTheShard: run with shard 1 of 2 identifies as [1,2] and leaves the
// slash commands to shard 0.
func TestRunPassesTheShard(t *testing.T) {
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "run-token"})
	cfg := &config.Config{DB: filepath.Join(t.TempDir(), "sheetkeeper.db"), DiscordToken: "run-token", DiscordAPI: fake.URL(), LogLevel: "info", Shard: 1, Shards: 2}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- runBot(ctx, cfg, &stderr) }()
	running := func() bool { return strings.Contains(stderr.String(), "sheetkeeper is running") }
	if !fake.WaitFor(running, 10*time.Second) {
		t.Fatalf("not running:\n%s", stderr.String())
	}
	if k, n, ok := fake.Identifies()[0].Shard(); !ok || k != 1 || n != 2 {
		t.Fatalf("IDENTIFY shard [%d,%d] (named: %v), want [1,2]", k, n, ok)
	}
	stop()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not stop")
	}
	if got := fake.CommandOverwrites(); len(got) != 0 {
		t.Fatalf("shard 1 overwrote the commands: %d times", len(got))
	}
}
