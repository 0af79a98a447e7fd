package etcd_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
)

// running is which process runs each shard, across the processes of a test: opening a
// shard another runs is the failure the leases exist to prevent.
type running struct {
	t  *testing.T
	mu sync.Mutex
	by map[int]string
}

func (r *running) held(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.by {
		if p == name {
			n++
		}
	}
	return n
}

// proc is one process's etcd.ShardRunner; it fails to open the shards of refuse.
type proc struct {
	name   string
	all    *running
	refuse map[int]bool
}

func (p proc) OpenShard(_ context.Context, shard, count int) error {
	p.all.mu.Lock()
	defer p.all.mu.Unlock()
	if p.refuse[shard] {
		return fmt.Errorf("%s cannot open shard %d", p.name, shard)
	}
	if other, ok := p.all.by[shard]; ok {
		p.all.t.Errorf("%s opened shard %d of %d, which %s runs", p.name, shard, count, other)
	}
	p.all.by[shard] = p.name
	return nil
}

func (p proc) CloseShard(shard int) {
	p.all.mu.Lock()
	defer p.all.mu.Unlock()
	if p.all.by[shard] == p.name {
		delete(p.all.by, shard)
	}
}

// startShards runs a process's share of 4 shards on its own store client; stop ends it
// cleanly and waits.
func startShards(t *testing.T, st storage.Store, name string, all *running, refuse ...int) (stop func()) {
	t.Helper()
	sh, err := etcd.NewShards(st, 4, time.Second, slog.New(slog.NewTextHandler(tlog{t, name}, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	p := proc{name: name, all: all, refuse: map[int]bool{}}
	for _, k := range refuse {
		p.refuse[k] = true
	}
	go func() { done <- sh.Run(ctx, p) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil && storage.KindOf(err) != storage.Closed {
				t.Errorf("%s: Run: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: Run did not return", name)
		}
	}
	t.Cleanup(stop)
	return stop
}

func waitHeld(t *testing.T, all *running, within time.Duration, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		got := map[string]int{}
		ok := true
		for name, n := range want {
			got[name] = all.held(name)
			ok = ok && got[name] == n
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s the shards are held %v, want %v", within, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestShardsDivideAndHandOn: one process alone runs all 4 shards; a second joining
// takes 2 of them; the first dying (its client gone, its lease left to lapse) hands
// its 2 on within seconds; a third joining splits them again, and stopping it cleanly
// (its lease revoked) hands its shards back at once. No shard ever runs twice.
func TestShardsDivideAndHandOn(t *testing.T) {
	prefix := newPrefix()
	all := &running{t: t, by: map[int]string{}}
	st1 := openAt(t, prefix, etcd.Options{})
	startShards(t, st1, "p1", all)
	waitHeld(t, all, 5*time.Second, map[string]int{"p1": 4})

	startShards(t, openAt(t, prefix, etcd.Options{}), "p2", all)
	waitHeld(t, all, 5*time.Second, map[string]int{"p1": 2, "p2": 2})

	start := time.Now()
	if err := st1.Close(); err != nil { // p1 dies: no revoke, its lease runs out
		t.Fatal(err)
	}
	waitHeld(t, all, 8*time.Second, map[string]int{"p2": 4})
	t.Logf("p2 took p1's shards over %s after p1 died", time.Since(start).Round(time.Millisecond))

	stop3 := startShards(t, openAt(t, prefix, etcd.Options{}), "p3", all)
	waitHeld(t, all, 5*time.Second, map[string]int{"p2": 2, "p3": 2})
	start = time.Now()
	stop3()
	waitHeld(t, all, time.Second, map[string]int{"p2": 4, "p3": 0})
	t.Logf("p2 took p3's shards over %s after p3 stopped", time.Since(start).Round(time.Millisecond))
}

// TestShardThatDoesNotOpen: a shard a process fails to open is given back, and another
// process, whose share has room, takes it.
func TestShardThatDoesNotOpen(t *testing.T) {
	prefix := newPrefix()
	all := &running{t: t, by: map[int]string{}}
	startShards(t, openAt(t, prefix, etcd.Options{}), "p1", all, 3)
	waitHeld(t, all, 5*time.Second, map[string]int{"p1": 3})
	startShards(t, openAt(t, prefix, etcd.Options{}), "p2", all)
	waitHeld(t, all, 5*time.Second, map[string]int{"p1": 2, "p2": 2})
	all.mu.Lock()
	defer all.mu.Unlock()
	if all.by[3] != "p2" {
		t.Errorf("shard 3 is run by %q, want p2", all.by[3])
	}
}

// TestNewShardsRefused: shard leases need an etcd store and at least one shard.
func TestNewShardsRefused(t *testing.T) {
	if _, err := etcd.NewShards(nil, 4, 0, nil); storage.KindOf(err) != storage.Invalid {
		t.Errorf("no store: %v, want kind Invalid", err)
	}
	if _, err := etcd.NewShards(open(t), 0, 0, nil); storage.KindOf(err) != storage.Invalid {
		t.Errorf("0 shards: %v, want kind Invalid", err)
	}
}

type tlog struct {
	t    *testing.T
	name string
}

func (l tlog) Write(p []byte) (int, error) { l.t.Log(l.name, string(p)); return len(p), nil }
