package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"sheetkeeper/config"
	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/storage/etcd/etcdtest"
)

// TestRunOnEtcdLeadsTheSchedules: on an etcd store, run campaigns for the schedules'
// leadership and, alone on the cluster, wins it.
func TestRunOnEtcdLeadsTheSchedules(t *testing.T) {
	e, err := etcdtest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const guild = "200000000000000001"
	fake := fakediscord.NewWith(t, fakediscord.Config{Token: "run-token", Guilds: []fakediscord.Guild{{ID: guild}}})
	cfg := &config.Config{DiscordToken: "run-token", DiscordAPI: fake.URL(), DiscordGuild: guild, LogLevel: "debug",
		Store: config.Location{Backend: config.Etcd, Endpoints: []string{etcdtest.Endpoint(e)}}, EtcdPrefix: "run-test/"}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- runBot(ctx, cfg, &stderr) }()
	if !fake.WaitFor(func() bool { return strings.Contains(stderr.String(), "this process runs the schedules") }, 15*time.Second) {
		t.Fatalf("never led the schedules:\n%s", stderr.String())
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
}
