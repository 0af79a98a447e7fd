package etcd_test

import (
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"sheetkeeper/storage"
	"sheetkeeper/storage/etcd"
	"sheetkeeper/storage/etcd/etcdtest"
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
	e, err := etcdtest.Start(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "embedded etcd:", err)
		return 1
	}
	defer e.Close()
	endpoint = etcdtest.Endpoint(e)
	return m.Run()
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
