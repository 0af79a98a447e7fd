// Package etcdtest starts an etcd server embedded in a test process, for the tests of
// the etcd backend and of what runs on it (sheetkeeper migrate). Only tests import it:
// it pulls in the whole etcd server.
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Start starts a one-member etcd server keeping its data in dir, listening on
// 127.0.0.1 only, on free ports, and logging only errors; it returns when the server
// is ready (or after 30 s, with an error). Endpoint is its client address; Close it.
func Start(dir string) (*embed.Etcd, error) {
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

// Endpoint is the client address of e.
func Endpoint(e *embed.Etcd) string { return e.Clients[0].Addr().String() }

// freeURL is an http URL on 127.0.0.1 at a port free a moment ago.
func freeURL() (*url.URL, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer l.Close()
	return url.Parse("http://" + l.Addr().String())
}
