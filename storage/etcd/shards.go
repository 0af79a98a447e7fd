package etcd

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"sheetkeeper/storage"
)

// Shards divides a bot's Discord gateway shards among the processes sharing one store
// (sheetkeeper run --shards auto), so that each shard runs in exactly one of them and
// one dying hands its shards on.
//
// A process joins with a session, a lease it keeps alive, under
// meta/shards/<count>/ (a "meta" key: Export skips it): a member key, and an owner key
// for each shard it runs, all bound to the lease. It takes its share, ceil(count /
// members): it claims a free shard with a Txn that puts the shard's owner key only if
// there is none, and gives up the shards beyond its share (the highest first) when
// another process joins, so the processes end up with an even split. When a process
// dies, its lease runs out within the TTL (a clean stop revokes it at once), its keys
// go, and the others, watching the prefix, claim its shards.
//
// The count is part of the prefix: processes that disagree on it (Discord changed its
// recommendation between their starts) divide two different sets and would run some
// guilds twice; restart them all when the count changes.
type Shards struct {
	st     *store
	prefix string
	count  int
	ttl    int // seconds
	value  string
	log    *slog.Logger
}

// ShardRunner runs the shards a process holds: the Discord front end.
type ShardRunner interface {
	// OpenShard starts shard of count and returns once it runs; an error gives the
	// shard back (another process, or a later try, takes it).
	OpenShard(ctx context.Context, shard, count int) error
	// CloseShard stops shard; it returns once the shard no longer runs here.
	CloseShard(shard int)
}

// NewShards returns the division of count shards among the processes sharing st,
// which must be a store Open returned (another is an Invalid error). ttl is each
// process's lease, rounded up to whole seconds (DefaultLeaseTTL when 0): how long a
// dead process's shards go unrun at most. It holds no resources of its own.
func NewShards(st storage.Store, count int, ttl time.Duration, log *slog.Logger) (*Shards, error) {
	s, ok := st.(*store)
	if !ok {
		return nil, storage.Errorf(storage.Invalid, "storage: etcd shard leases need an etcd store, not %T", st)
	}
	if count < 1 {
		return nil, storage.Errorf(storage.Invalid, "storage: %d shards: a bot has at least one", count)
	}
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	host, _ := os.Hostname()
	return &Shards{st: s, prefix: fmt.Sprintf("%smeta/shards/%d/", s.keys.prefix, count), count: count,
		ttl: int(math.Ceil(ttl.Seconds())), value: fmt.Sprintf("%s pid %d", host, os.Getpid()), log: log}, nil
}

// Run holds this process's share of the shards, opening and closing them on r as they
// come and go, until ctx ends; then it closes every shard it holds and revokes its
// lease (so the others take them over at once), and returns nil. A shard is closed
// before its claim is given up, so no two processes run one shard knowingly (a process
// cut off from etcd closes its shards when its lease lapses, as the others may then
// claim them). A lease lost, or etcd failing, closes every shard held and joins again
// with a new lease, backing off; only a closed store (kind Closed) ends Run early.
func (s *Shards) Run(ctx context.Context, r ShardRunner) error {
	backoff := 100 * time.Millisecond
	for {
		if s.st.closed.Load() {
			return errClosed
		}
		if ctx.Err() != nil {
			return nil
		}
		err := s.join(ctx, r)
		if ctx.Err() != nil {
			return nil
		}
		if s.st.closed.Load() {
			return errClosed
		}
		s.log.Warn("etcd: shard leases lost; joining again", "err", err, "after", backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil
		}
		backoff = min(2*backoff, time.Duration(s.ttl)*time.Second)
	}
}

// join holds shards under one lease until ctx ends or the lease is lost.
func (s *Shards) join(ctx context.Context, r ShardRunner) error {
	asked := time.Now()
	gctx, cancel := context.WithTimeout(ctx, s.st.timeout)
	lease, err := s.st.cli.Grant(gctx, int64(s.ttl))
	cancel()
	if err != nil {
		return s.st.kind(ctx, err)
	}
	// Everything done under the lease (etcd calls, a shard's opening) runs on lctx,
	// which ends when the lease may have: so the shards close before another process
	// can claim them.
	lctx, lose := context.WithCancel(ctx)
	defer lose()
	if err := s.keepAlive(lctx, lose, lease, asked); err != nil {
		return s.st.kind(ctx, err)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), s.st.timeout)
		defer cancel()
		_, _ = s.st.cli.Revoke(rctx, lease.ID) // after a lapse, a revoke that finds nothing
	}()
	h := &holding{Shards: s, lease: lease.ID, r: r, me: strconv.FormatInt(int64(lease.ID), 16), held: map[int]bool{}, failed: map[int]time.Time{}}
	defer h.closeAll()
	if _, err := s.st.call(lctx, func(ctx context.Context) (*clientv3.TxnResponse, error) {
		return s.st.cli.Txn(ctx).Then(clientv3.OpPut(s.prefix+"members/"+h.me, s.value, clientv3.WithLease(lease.ID))).Commit()
	}); err != nil {
		return err
	}
	s.log.Info("etcd: joined the shard leases", "shards", s.count, "member", h.me)
	for {
		rev, err := h.step(lctx)
		if err == nil {
			err = h.wait(lctx, rev)
		}
		if err != nil {
			if ctx.Err() == nil && lctx.Err() != nil {
				return fmt.Errorf("the lease of member %s may have run out", h.me)
			}
			return err
		}
	}
}

// keepAlive keeps lease alive until ctx ends, and calls lose when the lease may have
// run out: its keep-alive stream ended, or no renewal came within two thirds of its TTL
// (the client renews every third, and a renewal asked for less than a third of the TTL
// before it came keeps the lease for longer than that), so this process stops running
// its shards before etcd can let another claim them.
func (s *Shards) keepAlive(ctx context.Context, lose func(), lease *clientv3.LeaseGrantResponse, asked time.Time) error {
	renewals, err := s.st.cli.KeepAlive(ctx, lease.ID)
	if err != nil {
		return err
	}
	fence := func(ttl int64) time.Duration { return time.Duration(ttl) * time.Second * 2 / 3 }
	go func() {
		defer lose()
		timer := time.NewTimer(time.Until(asked.Add(fence(lease.TTL))))
		defer timer.Stop()
		for {
			select {
			case r, ok := <-renewals:
				if !ok || r == nil {
					return
				}
				timer.Reset(fence(r.TTL))
			case <-timer.C:
				s.log.Warn("etcd: no lease renewal in time; closing the shards held", "lease", strconv.FormatInt(int64(lease.ID), 16))
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return nil
}

// holding is one lease's hold on shards.
type holding struct {
	*Shards
	lease  clientv3.LeaseID
	r      ShardRunner
	me     string // the member's id: its lease, in hex
	held   map[int]bool
	failed map[int]time.Time // shards whose open failed, and when: not tried again soon
}

// step reads the members and owners, gives up what is beyond this process's share or
// no longer its own, and claims free shards up to its share. It returns the revision
// it read at.
func (h *holding) step(ctx context.Context) (int64, error) {
	resp, err := h.st.get(ctx, h.prefix, clientv3.WithPrefix())
	if err != nil {
		return 0, err
	}
	members, owners := 0, map[int]string{}
	for _, kv := range resp.Kvs {
		rest := strings.TrimPrefix(string(kv.Key), h.prefix)
		if strings.HasPrefix(rest, "members/") {
			members++
		} else if k, err := strconv.Atoi(strings.TrimPrefix(rest, "owner/")); err == nil && k >= 0 && k < h.count {
			owners[k] = string(kv.Value)
		}
	}
	share := (h.count + max(members, 1) - 1) / max(members, 1)
	var lost, kept []int
	for _, k := range slices.Sorted(maps.Keys(h.held)) {
		if owners[k] != h.me { // not ours any more: the key went with a lapsed lease
			lost = append(lost, k)
		} else {
			kept = append(kept, k)
		}
	}
	h.drop(ctx, lost, false)
	if len(kept) > share { // the highest go
		h.drop(ctx, kept[share:], true)
	}
	for k := 0; k < h.count && len(h.held) < share; k++ {
		if _, taken := owners[k]; taken || time.Since(h.failed[k]) < time.Duration(h.ttl)*time.Second {
			continue
		}
		if err := h.claim(ctx, k); err != nil {
			return 0, err
		}
	}
	return resp.Header.Revision, nil
}

// claim takes shard k if it is still free and opens it; an open that fails gives the
// claim back.
func (h *holding) claim(ctx context.Context, k int) error {
	key := h.prefix + "owner/" + strconv.Itoa(k)
	resp, err := h.st.call(ctx, func(ctx context.Context) (*clientv3.TxnResponse, error) {
		return h.st.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
			Then(clientv3.OpPut(key, h.me, clientv3.WithLease(h.lease))).Commit()
	})
	if err != nil || !resp.Succeeded {
		return err // another process was first: the watch will say so
	}
	if err := h.r.OpenShard(ctx, k, h.count); err != nil {
		h.log.Warn("etcd: a claimed shard did not open; giving it back", "shard", k, "err", err)
		h.failed[k] = time.Now()
		h.release(ctx, k)
		return nil
	}
	h.held[k] = true
	h.log.Info("etcd: running shard", "shard", k, "of", h.count)
	return nil
}

// drop closes shards ks, all at once (closing a gateway session takes discordgo a
// second), and, when give is set (their keys are still ours), gives their claims up.
func (h *holding) drop(ctx context.Context, ks []int, give bool) {
	var wg sync.WaitGroup
	for _, k := range ks {
		wg.Go(func() { h.r.CloseShard(k) })
	}
	wg.Wait()
	for _, k := range ks {
		delete(h.held, k)
		if give {
			h.release(ctx, k)
		}
		h.log.Info("etcd: shard handed on", "shard", k, "of", h.count)
	}
}

// release deletes shard k's owner key if it is still this process's.
func (h *holding) release(ctx context.Context, k int) {
	key := h.prefix + "owner/" + strconv.Itoa(k)
	_, err := h.st.call(ctx, func(ctx context.Context) (*clientv3.TxnResponse, error) {
		return h.st.cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(key), "=", h.me)).Then(clientv3.OpDelete(key)).Commit()
	})
	if err != nil {
		h.log.Warn("etcd: giving a shard up", "shard", k, "err", err) // the lease's end frees it
	}
}

// closeAll closes every shard held (the lease's revoke, after, frees their keys).
func (h *holding) closeAll() {
	for k := range h.held {
		h.r.CloseShard(k)
		delete(h.held, k)
	}
}

// wait returns when the prefix changed after rev, or a TTL passed (a failed open may be
// tried again); an error when the lease is lost or ctx ends.
func (h *holding) wait(ctx context.Context, rev int64) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := h.st.cli.Watch(wctx, h.prefix, clientv3.WithPrefix(), clientv3.WithRev(rev+1))
	select {
	case <-ch:
		return nil
	case <-time.After(time.Duration(h.ttl) * time.Second):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
