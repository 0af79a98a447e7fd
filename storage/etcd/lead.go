package etcd

import (
	"context"
	"fmt"
	"math"
	"os"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"sheetkeeper/storage"
)

// Election elects, among the processes sharing one store, the one that runs the
// scheduled rests (a schedule.Leader): an etcd concurrency election under the store's
// prefix, at meta/leader/schedule/ (a "meta" key: Export skips it). Each campaign holds
// a session, a lease of TTL the process keeps alive; when the process dies or loses the
// cluster, the lease runs out within TTL and the next candidate leads.
type Election struct {
	st      *store
	cli     *clientv3.Client
	key     string
	ttl     int // seconds
	timeout time.Duration
	value   string
}

// DefaultLeaseTTL is a leader's lease when NewElection is given none: how long, at
// most, the schedules go unrun after the leader dies.
const DefaultLeaseTTL = 5 * time.Second

// NewElection returns the election of st's scheduled rests; st must be a store Open
// returned (another is an Invalid error). ttl is the leader's lease, rounded up to whole
// seconds (DefaultLeaseTTL when 0). It holds no resources of its own: st's client
// serves it, so it ends with st.
func NewElection(st storage.Store, ttl time.Duration) (*Election, error) {
	s, ok := st.(*store)
	if !ok {
		return nil, storage.Errorf(storage.Invalid, "storage: an etcd election needs an etcd store, not %T", st)
	}
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	host, _ := os.Hostname()
	return &Election{
		st: s, cli: s.cli, key: s.keys.prefix + "meta/leader/schedule", timeout: s.timeout,
		ttl:   int(math.Ceil(ttl.Seconds())),
		value: fmt.Sprintf("%s pid %d", host, os.Getpid()),
	}, nil
}

// Lead campaigns until this process leads (schedule.Leader). lost is closed when its
// session ends: the lease expired or was revoked, or the cluster went away. When ctx
// ends the session is closed, its lease revoked, so the next candidate leads at once.
// A cluster that does not grant the lease within the store's timeout is an Offline
// error; a closed store, Closed.
func (e *Election) Lead(ctx context.Context) (<-chan struct{}, error) {
	if e.st.closed.Load() {
		return nil, errClosed
	}
	gctx, cancel := context.WithTimeout(ctx, e.timeout)
	lease, err := e.cli.Grant(gctx, int64(e.ttl))
	cancel()
	if err != nil {
		return nil, e.failed(ctx, err)
	}
	// The session lives on the client's context (closed with the store), not ctx: Close
	// revokes the lease with it, after ctx has ended.
	sess, err := concurrency.NewSession(e.cli, concurrency.WithLease(lease.ID), concurrency.WithTTL(e.ttl))
	if err != nil {
		return nil, e.failed(ctx, err)
	}
	// A campaign whose session ends while it waits would otherwise go on waiting for
	// leadership it can no longer hold.
	cctx, stopCampaign := context.WithCancel(ctx)
	go func() {
		select {
		case <-sess.Done():
		case <-cctx.Done():
		}
		stopCampaign()
	}()
	err = concurrency.NewElection(sess, e.key).Campaign(cctx, e.value)
	if err != nil {
		stopCampaign()
		sess.Close()
		return nil, e.failed(ctx, err)
	}
	go func() {
		select {
		case <-sess.Done():
		case <-ctx.Done():
		}
		stopCampaign()
		sess.Close() // after a lapsed lease, a revoke that finds nothing
	}()
	return sess.Done(), nil
}

// failed is a campaign's error: ctx's own when it ended, Closed after the store's
// Close, else Offline.
func (e *Election) failed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e.st.closed.Load() {
		return errClosed
	}
	return &storage.Error{Op: "etcd election of the schedules' runner", Kind: storage.Offline, Err: err}
}
