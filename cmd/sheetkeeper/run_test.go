package main

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sheetkeeper/config"
	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage/bolt"
)

// syncBuffer is a bytes.Buffer safe for the bot's goroutines and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunServesUntilStopped runs `sheetkeeper run` against the fake Discord through the
// API override: commands are registered in the development guild, a GM's tag is
// answered, and stopping (the signal's context) finishes, closes the session and the
// database, and exits 0.
func TestRunServesUntilStopped(t *testing.T) {
	const guild, channel = "200000000000000001", "200000000000000002"
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "run-token",
		Guilds: []fakediscord.Guild{{ID: guild, Channels: []fakediscord.Channel{{ID: channel}}}}})
	db := filepath.Join(t.TempDir(), "sheetkeeper.db")
	cfg := &config.Config{DB: db, DiscordToken: "run-token", DiscordAPI: fake.URL(), DiscordGuild: guild, LogLevel: "debug"}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- runBot(ctx, cfg, &stderr) }()

	if !fake.WaitFor(func() bool { return len(fake.Commands()) > 0 && fake.Connected() }, 10*time.Second) {
		t.Fatalf("not connected with commands:\n%s", stderr.String())
	}
	for _, c := range fake.Commands() {
		if c.GuildID != guild {
			t.Errorf("/%s registered outside the development guild", c.Name)
		}
	}
	gm := fake.NewUser("gm")
	demo := fake.Command(channel, guild, gm, "demo")
	if !fake.WaitFor(func() bool { return len(fake.InteractionResponses(demo)) > 0 }, 10*time.Second) {
		t.Fatalf("/demo not answered:\n%s", stderr.String())
	}
	msg := fake.MessageCreate(channel, guild, gm, `[sheet: who="Mira" op="damage" pool="breath" amount="2"]`)
	answered := func() bool {
		for _, m := range fake.Messages(channel) {
			if m.ByBot && m.MessageReference != nil && m.MessageReference.MessageID == msg && strings.Contains(m.Content, `now="8/10"`) {
				return true
			}
		}
		return false
	}
	if !fake.WaitFor(answered, 10*time.Second) {
		t.Fatalf("the GM's tag was not answered:\n%s", stderr.String())
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
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("no shutdown logged:\n%s", stderr.String())
	}
	// The database was closed: it opens at once.
	store, err := bolt.Open(db, bolt.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("database still held: %v", err)
	}
	store.Close()
}

// TestRunFailsClearlyWhenDiscordRefuses: a wrong token ends run with status 1 and the
// reason, and leaves the database closed.
func TestRunFailsClearlyWhenDiscordRefuses(t *testing.T) {
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "right"})
	db := filepath.Join(t.TempDir(), "sheetkeeper.db")
	cfg := &config.Config{DB: db, DiscordToken: "wrong", DiscordAPI: fake.URL(), LogLevel: "error"}
	var stderr syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if code := runBot(ctx, cfg, &stderr); code != 1 || !strings.Contains(stderr.String(), "sheetkeeper run:") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	store, err := bolt.Open(db, bolt.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("database still held: %v", err)
	}
	store.Close()
}

// TestRunNamesTheURLItDialled: with the API pointed elsewhere, a failure to connect names
// the URL the bot really dialled, not discord.com, whose URL discordgo builds every
// request with before the transport rewrites it.
func TestRunNamesTheURLItDialled(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	api := "http://" + l.Addr().String()
	l.Close() // nothing listens there now: the dial is refused
	cfg := &config.Config{DB: filepath.Join(t.TempDir(), "sheetkeeper.db"), DiscordToken: "t", DiscordAPI: api + "/proxy", LogLevel: "error"}
	var stderr syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := runBot(ctx, cfg, &stderr)
	out := stderr.String()
	if code != 1 || !strings.Contains(out, `"`+api+`/proxy/api/v9/gateway"`) || strings.Contains(out, "discord.com") {
		t.Fatalf("exit %d: %s", code, out)
	}
}
