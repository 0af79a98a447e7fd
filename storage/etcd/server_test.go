package etcd_test

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"

	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
)

// One etcd server, embedded in the test process, serves every test of the package: it
// listens on 127.0.0.1 only, on free ports, keeps its data in a temp dir, and logs only
// errors. Each store a test opens gets a prefix of its own (see open), so tests never
// see each other's records.
var (
	endpoint string
	prefixes atomic.Int64
)

func TestMain(m *testing.M) {
	os.Exit(runWithServer(m))
}

func runWithServer(m *testing.M) int {
	dir, err := os.MkdirTemp("", "sheetkeeper-etcd-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	e, err := startServer(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "embedded etcd:", err)
		return 1
	}
	defer e.Close()
	endpoint = e.Clients[0].Addr().String()
	return m.Run()
}

func startServer(dir string) (*embed.Etcd, error) {
	client, err := freeURL()
	if err != nil {
		return nil, err
	}
	peer, err := freeURL()
	if err != nil {
		return nil, err
	}
	cfg := embed.NewConfig()
	cfg.Name = "test"
	cfg.Dir = dir
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*client}, []url.URL{*client}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*peer}, []url.URL{*peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	cfg.LogLevel = "error"
	cfg.ListenMetricsUrls = nil
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, err
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, nil
	case err := <-e.Err():
		e.Close()
		return nil, err
	case <-time.After(30 * time.Second):
		e.Close()
		return nil, fmt.Errorf("not ready within 30s")
	}
}

// freeURL is an http URL on 127.0.0.1 at a port free a moment ago.
func freeURL() (*url.URL, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer l.Close()
	return url.Parse("http://" + l.Addr().String())
}

// newPrefix is a key prefix no other store of this run uses.
func newPrefix() string { return fmt.Sprintf("test/%d/", prefixes.Add(1)) }

// openAt opens a store on the embedded server under prefix.
func openAt(t testing.TB, prefix string, opts etcd.Options) storage.Store {
	t.Helper()
	opts.Endpoints, opts.Prefix = []string{endpoint}, prefix
	s, err := etcd.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// open is a new, empty store.
func open(t *testing.T) storage.Store { return openAt(t, newPrefix(), etcd.Options{}) }
