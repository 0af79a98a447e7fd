package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"time"

	"sheetkeeper/config"
	"sheetkeeper/ops"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
	"sheetkeeper/storage/etcd"
)

// storeTimeout is how long opening a store waits: for another process to let go of a
// bbolt file, or for an etcd cluster to answer.
const storeTimeout = 5 * time.Second

// openStore opens the store at loc (cfg.Store, or one side of a migrate) with cfg's
// etcd prefix, TLS files and credentials; metrics, when not nil, hear of every Update
// (the operator's commit metrics) and, on bbolt, of every sync of its journal. Every
// command that opens a store opens it here.
func openStore(cfg *config.Config, loc config.Location, metrics *ops.Metrics) (storage.Store, error) {
	var onUpdate func(time.Duration, int, error)
	var onSync func(time.Duration)
	if metrics != nil {
		onUpdate, onSync = metrics.OnUpdate, metrics.OnSync
	}
	switch loc.Backend {
	case config.Bolt:
		return bolt.Open(loc.Path, bolt.Options{Timeout: storeTimeout, OnUpdate: onUpdate, OnSync: onSync})
	case config.Etcd:
		tc, err := etcdTLS(cfg)
		if err != nil {
			return nil, err
		}
		return etcd.Open(etcd.Options{Endpoints: loc.Endpoints, Prefix: cfg.EtcdPrefix, Timeout: storeTimeout,
			TLS: tc, Username: cfg.EtcdUsername, Password: cfg.EtcdPassword, OnUpdate: onUpdate})
	}
	return nil, fmt.Errorf("store %s: unknown backend %q", loc, loc.Backend)
}

// etcdTLS is the client TLS configuration cfg's etcd-ca, etcd-cert and etcd-key ask
// for, or nil (plain connections) when none is set.
func etcdTLS(cfg *config.Config) (*tls.Config, error) {
	if cfg.EtcdCA == "" && cfg.EtcdCert == "" {
		return nil, nil
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if cfg.EtcdCA != "" {
		pem, err := os.ReadFile(cfg.EtcdCA)
		if err != nil {
			return nil, fmt.Errorf("etcd-ca: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("etcd-ca: %s holds no PEM certificate", cfg.EtcdCA)
		}
	}
	if cfg.EtcdCert != "" {
		pair, err := tls.LoadX509KeyPair(cfg.EtcdCert, cfg.EtcdKey)
		if err != nil {
			return nil, fmt.Errorf("etcd-cert and etcd-key: %w", err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}

// errBoltOnly is what a bbolt-only command says of an etcd store.
func errBoltOnly(what string, loc config.Location) error {
	return errors.New(what + " works on a bbolt file only, and " + loc.String() +
		" is an etcd cluster: etcd keeps its own data safe (etcdctl endpoint health, etcdctl snapshot save)")
}

// openStore opens m's store and, for a bbolt file, the control socket through which
// `sheetkeeper backup` asks the running bot for a copy (control.go); an etcd store is
// backed up by any process, so it needs none.
func (m *Main) openStore() error {
	at := m.Config.StoreAt()
	store, err := openStore(m.Config, at, m.Metrics)
	if err != nil {
		return err
	}
	m.Store = store
	if at.Backend == config.Bolt {
		if m.stopControl, err = serveControl(at.Path, store, m.Log); err != nil {
			m.Log.Warn("no backups while the bot runs", "err", err)
		}
	}
	return nil
}
