// Package etcd is the etcd backend of storage.Store, for sheetkeeper running as several
// processes on one etcd cluster (SPEC 10). Records are the bytes the bolt backend
// stores (storage/record), under one key prefix laid out by channel (keys.go).
//
// An Update runs its function against one consistent snapshot: every read is at the
// revision of the function's first read, and writes are buffered in the transaction.
// It then commits with one etcd Txn whose If compares the mod revision of every key the
// function read (0 for a key it found missing) and, for every range it listed, that no
// key in it was written after the snapshot (a delete, which a range compare cannot see,
// rewrites the guard key at the head of its range: keys.guard); Then holds the writes. When another process
// (or another Update of this one) changed any of it first, nothing is written and the
// function runs again, after a jittered backoff, on a fresh snapshot — which is why
// storage.Store asks that fn be safe to run again. So two processes never both spend
// the same point: the second one's compare fails and its function sees the spent pool.
//
// Limits: an etcd Txn takes at most --max-txn-ops compares and as many writes (128 by
// default) and one request at most --max-request-bytes (1.5 MiB by default). Options
// carries the cluster's values; an Update beyond either is refused, kind Invalid, with
// a message naming the count or size and the limit, before anything is sent.
package etcd

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"sheetkeeper/storage"
	"sheetkeeper/storage/record"
)

// Options say where the cluster is and what it takes.
type Options struct {
	Endpoints []string
	// Prefix starts every key of the store (DefaultPrefix when ""): several stores may
	// share one cluster under different prefixes.
	Prefix string
	// Timeout bounds each request to etcd, and Open's first one (DefaultTimeout when 0):
	// an unreachable cluster is an Offline error after it, never a hang.
	Timeout time.Duration
	// MaxTxnOps and MaxRequestBytes are the cluster's --max-txn-ops and
	// --max-request-bytes (etcd's defaults when 0).
	MaxTxnOps       int
	MaxRequestBytes int
	// TLS, when not nil, is the client's TLS configuration (the cluster's CA, and a
	// client certificate when the cluster asks for one).
	TLS *tls.Config
	// Username and Password authenticate to a cluster with auth enabled ("": none).
	Username, Password string
	// OnUpdate, when set, is told of every Update as it returns: how long it took (all
	// its attempts and back-offs), its conflicts (attempts that lost their
	// compare-and-swap to another writer and ran again) and its error. It is the
	// operator's store commit metrics (SPEC 12); it must not block.
	OnUpdate func(took time.Duration, conflicts int, err error)
}

// Defaults.
const (
	DefaultPrefix          = "sheetkeeper/"
	DefaultTimeout         = 5 * time.Second
	DefaultMaxTxnOps       = 128
	DefaultMaxRequestBytes = 1536 * 1024
)

// schemaVersion is the key layout's version, stored at keys.schema.
const schemaVersion = 1

// maxAttempts bounds how often an Update runs its function when it keeps losing its
// compare-and-swap; past it the Update fails with kind Conflict.
const maxAttempts = 400

var (
	errClosed   = &storage.Error{Op: "storage", Kind: storage.Closed}
	errNotFound = &storage.Error{Kind: storage.NotFound}
	errReadOnly = &storage.Error{Op: "storage", Kind: storage.ReadOnly}
)

type store struct {
	cli     *clientv3.Client
	keys    keys
	where   string // the endpoints, for errors
	timeout time.Duration
	limits  struct{ ops, bytes int }
	closed  atomic.Bool
	cards   record.CardMemo

	onUpdate func(time.Duration, int, error) // Options.OnUpdate
}

// Open connects to the cluster, checks (or, on an empty prefix, writes) the schema
// version, and returns the store. A cluster that does not answer within opts.Timeout is
// an Offline error; a prefix written by a newer sheetkeeper is Newer, one holding
// something else Foreign.
func Open(opts Options) (storage.Store, error) {
	if len(opts.Endpoints) == 0 {
		return nil, storage.Errorf(storage.Invalid, "open etcd store: no endpoints given")
	}
	s := &store{keys: keys{opts.Prefix}, where: strings.Join(opts.Endpoints, ","), timeout: opts.Timeout, onUpdate: opts.OnUpdate}
	if s.keys.prefix == "" {
		s.keys.prefix = DefaultPrefix
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	s.limits.ops, s.limits.bytes = opts.MaxTxnOps, opts.MaxRequestBytes
	if s.limits.ops <= 0 {
		s.limits.ops = DefaultMaxTxnOps
	}
	if s.limits.bytes <= 0 {
		s.limits.bytes = DefaultMaxRequestBytes
	}
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   opts.Endpoints,
		DialTimeout: s.timeout,
		Logger:      zap.NewNop(),
		// Requests larger than the server takes are refused by txn first, with words.
		MaxCallSendMsgSize: s.limits.bytes + 64<<10,
		TLS:                opts.TLS,
		Username:           opts.Username,
		Password:           opts.Password,
	})
	if err != nil {
		return nil, &storage.Error{Op: "open etcd store at " + s.where, Kind: storage.Offline, Err: err}
	}
	s.cli = cli
	if err := s.checkSchema(); err != nil {
		cli.Close()
		return nil, fmt.Errorf("open etcd store: %w", err)
	}
	return s, nil
}

// checkSchema reads the schema version, writing it when the prefix is empty.
func (s *store) checkSchema() error {
	ctx := context.Background()
	k := s.keys.schema()
	resp, err := s.call(ctx, func(ctx context.Context) (*clientv3.TxnResponse, error) {
		return s.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
			Then(clientv3.OpPut(k, be64(schemaVersion))).Else(clientv3.OpGet(k)).Commit()
	})
	if err != nil {
		return err
	}
	if resp.Succeeded {
		return nil
	}
	kvs := resp.Responses[0].GetResponseRange().Kvs
	if len(kvs) != 1 || len(kvs[0].Value) != 8 {
		return storage.Errorf(storage.Foreign, "storage: %q at etcd %s does not hold a sheetkeeper schema version: the prefix is not a sheetkeeper store", k, s.where)
	}
	if v := binary.BigEndian.Uint64(kvs[0].Value); v > schemaVersion {
		return storage.Errorf(storage.Newer, "storage: prefix %q at etcd %s was written by a newer sheetkeeper (schema version %d; this one knows up to %d): upgrade sheetkeeper", s.keys.prefix, s.where, v, schemaVersion)
	}
	return nil
}

// call runs one request under the store's timeout and gives its error a kind.
func (s *store) call(ctx context.Context, req func(context.Context) (*clientv3.TxnResponse, error)) (*clientv3.TxnResponse, error) {
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	resp, err := req(rctx)
	return resp, s.kind(ctx, err)
}

func (s *store) get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	resp, err := s.cli.Get(rctx, key, opts...)
	return resp, s.kind(ctx, err)
}

// kind turns an etcd client error into a storage error: the caller's context's own
// error as it is (errors.Is finds it), Closed after Close, Offline when etcd did not
// answer within the timeout or cannot be reached, Invalid for a request etcd refuses
// as too large.
func (s *store) kind(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return &storage.Error{Op: "storage", Err: ctx.Err()}
	case s.closed.Load():
		return errClosed
	case errors.Is(err, context.DeadlineExceeded), status.Code(err) == codes.Unavailable:
		return &storage.Error{Op: fmt.Sprintf("storage: etcd at %s did not answer within %s", s.where, s.timeout), Kind: storage.Offline, Err: err}
	case errors.Is(err, rpctypes.ErrTooManyOps), errors.Is(err, rpctypes.ErrRequestTooLarge):
		return &storage.Error{Op: "storage: etcd refused the transaction", Kind: storage.Invalid, Err: err}
	}
	return &storage.Error{Op: "storage: etcd", Err: err}
}

// retryable reports whether a read failed only because its snapshot is gone (compacted)
// or not yet on the member asked: a new attempt on a fresh snapshot cures it.
func retryable(err error) bool {
	return errors.Is(err, rpctypes.ErrCompacted) || errors.Is(err, rpctypes.ErrFutureRev)
}

// errLost is an attempt's compare-and-swap lost to another writer.
var errLost = errors.New("lost the compare-and-swap")

func (s *store) View(ctx context.Context, fn func(storage.Tx) error) error {
	_, err := s.run(ctx, false, fn)
	return err
}

func (s *store) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if s.onUpdate == nil {
		_, err := s.run(ctx, true, fn)
		return err
	}
	start := time.Now()
	lost, err := s.run(ctx, true, fn)
	s.onUpdate(time.Since(start), lost, err)
	return err
}

// run runs attempts of fn until one commits (or, for a View, reads) without losing to
// another writer, backing off between them. It returns how many attempts lost.
func (s *store) run(ctx context.Context, write bool, fn func(storage.Tx) error) (lost int, err error) {
	backoff := time.Millisecond
	for attempt := 1; ; attempt++ {
		if s.closed.Load() {
			return attempt - 1, errClosed
		}
		if err := ctx.Err(); err != nil {
			return attempt - 1, err
		}
		err := s.attempt(ctx, write, fn)
		if !errors.Is(err, errLost) {
			return attempt - 1, err
		}
		if attempt == maxAttempts {
			return attempt, storage.Errorf(storage.Conflict, "storage: gave up after %d attempts, each losing to another writer of the same records", attempt)
		}
		select {
		case <-time.After(rand.N(backoff) + backoff/2):
		case <-ctx.Done():
			return attempt, ctx.Err()
		}
		backoff = min(2*backoff, 64*time.Millisecond)
	}
}

// attempt runs fn once on a fresh snapshot and commits it; errLost when it must run
// again.
func (s *store) attempt(ctx context.Context, write bool, fn func(storage.Tx) error) error {
	t := &tx{s: s, ctx: ctx, write: write}
	if write {
		t.reads, t.writes, t.wroteCards = map[string]int64{}, map[string]pending{}, map[string]writtenCard{}
	}
	err := func() error {
		defer func() { t.done = true }() // a panic too ends the Tx
		return fn(t)
	}()
	if t.again {
		return errLost
	}
	if err != nil || !write {
		return err
	}
	cmps, ops, err := t.txn()
	if err != nil || ops == nil {
		return err
	}
	resp, err := s.call(ctx, func(ctx context.Context) (*clientv3.TxnResponse, error) {
		return s.cli.Txn(ctx).If(cmps...).Then(ops...).Commit()
	})
	switch {
	case err != nil:
		return err
	case !resp.Succeeded:
		return errLost
	}
	for k, c := range t.wroteCards {
		if w := t.writes[k]; !w.del {
			s.cards.Remember(k, c.raw, c.rec)
		}
	}
	return nil
}

// Backup writes every record of the store, read at one revision, as JSON lines of
// {"key": …, "value": …} (keys without the prefix, values base64): a consistent copy a
// restore (or sheetkeeper migrate) can put back under any prefix.
func (s *store) Backup(w io.Writer) (int64, error) {
	if s.closed.Load() {
		return 0, errClosed
	}
	ctx := context.Background()
	cw := &countWriter{w: w}
	enc := json.NewEncoder(cw)
	start, end, rev := s.keys.prefix, rangeEnd(s.keys.prefix), int64(0)
	for {
		opts := []clientv3.OpOption{clientv3.WithRange(end), clientv3.WithLimit(500)}
		if rev != 0 {
			opts = append(opts, clientv3.WithRev(rev))
		}
		resp, err := s.get(ctx, start, opts...)
		if err != nil {
			return cw.n, err
		}
		if rev == 0 {
			rev = resp.Header.Revision
		}
		for _, e := range resp.Kvs {
			line := struct {
				Key   string `json:"key"`
				Value []byte `json:"value"`
			}{strings.TrimPrefix(string(e.Key), s.keys.prefix), e.Value}
			if err := enc.Encode(line); err != nil {
				return cw.n, err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return cw.n, nil
		}
		start = string(resp.Kvs[len(resp.Kvs)-1].Key) + sep
	}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Close ends the client; Updates and Views after it are refused with kind Closed.
func (s *store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.cli.Close()
}
