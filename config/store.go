package config

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
)

// Choosing the store (SPEC 10): the store setting says where every record lives, a
// bbolt file (bolt:PATH) or an etcd cluster (etcd://HOST:PORT,HOST:PORT). The db setting
// predates it and stays as shorthand: --db PATH is --store bolt:PATH, and giving both
// for different stores is an error. With neither, the store is the default db file.
//
// The etcd client's TLS files and credentials come from the environment or the config
// file only, never flags (like the Discord token): a password on a command line shows
// in process listings and shell history.

// EtcdSettings are the settings of an etcd client: the prefix, TLS and credentials.
var EtcdSettings = []string{"etcd-prefix", "etcd-ca", "etcd-cert", "etcd-key", "etcd-username", "etcd-password"}

// StoreSettings are the settings of every command that opens the store.
var StoreSettings = append([]string{"store", "db"}, EtcdSettings...)

// Store backends.
const (
	Bolt = "bolt"
	Etcd = "etcd"
)

// Location is a parsed store setting.
type Location struct {
	Backend   string   // Bolt or Etcd
	Path      string   // the bbolt file (Bolt)
	Endpoints []string // host:port of each etcd member (Etcd)
}

// String is the location as the store setting writes it.
func (l Location) String() string {
	if l.Backend == Etcd {
		return "etcd://" + strings.Join(l.Endpoints, ",")
	}
	return "bolt:" + l.Path
}

// ParseStore reads bolt:PATH or etcd://HOST:PORT[,HOST:PORT…].
func ParseStore(s string) (Location, error) {
	bad := func(why string) (Location, error) {
		return Location{}, fmt.Errorf("%q %s: write bolt:PATH or etcd://HOST:PORT[,HOST:PORT…]", s, why)
	}
	switch {
	case strings.HasPrefix(s, "bolt:"):
		p := strings.TrimPrefix(s, "bolt:")
		if strings.TrimSpace(p) == "" {
			return bad("names no file")
		}
		return Location{Backend: Bolt, Path: p}, nil
	case strings.HasPrefix(s, "etcd://"):
		rest := strings.TrimPrefix(s, "etcd://")
		if rest == "" {
			return bad("names no etcd member")
		}
		var eps []string
		for _, ep := range strings.Split(rest, ",") {
			host, port, err := net.SplitHostPort(ep)
			if err != nil || host == "" || port == "" || strings.ContainsAny(ep, "/?#@") {
				return bad(fmt.Sprintf("has %q, which is not HOST:PORT", ep))
			}
			eps = append(eps, ep)
		}
		return Location{Backend: Etcd, Endpoints: eps}, nil
	}
	return bad("is neither a bbolt file nor an etcd cluster")
}

// storeSettings are the Setting entries of choosing the store (Settings holds them).
func storeSettings() []Setting {
	secret := func(name, env, help string, field func(*Config) *string) Setting {
		return Setting{Name: name, Env: []string{env}, NoFlag: true, Help: help + " (environment or config file only)", field: field}
	}
	return []Setting{
		{Name: "store", Env: []string{"SHEETKEEPER_STORE"},
			Help:  "where the records live: bolt:PATH (a bbolt file) or etcd://HOST:PORT[,HOST:PORT…] (an etcd cluster); default bolt: the db file",
			field: func(c *Config) *string { return &c.StoreSetting }},
		{Name: "etcd-prefix", Env: []string{"SHEETKEEPER_ETCD_PREFIX"}, Help: "the key prefix of the store in etcd; several stores may share a cluster under different prefixes",
			Default: func() string { return "sheetkeeper/" }, field: func(c *Config) *string { return &c.EtcdPrefix }},
		secret("etcd-ca", "SHEETKEEPER_ETCD_CA", "PEM file of the CA that signed the etcd members' certificates; setting it (or etcd-cert) makes the client use TLS", func(c *Config) *string { return &c.EtcdCA }),
		secret("etcd-cert", "SHEETKEEPER_ETCD_CERT", "PEM file of the client certificate etcd asks for (with etcd-key)", func(c *Config) *string { return &c.EtcdCert }),
		secret("etcd-key", "SHEETKEEPER_ETCD_KEY", "PEM file of the client certificate's key", func(c *Config) *string { return &c.EtcdKey }),
		secret("etcd-username", "SHEETKEEPER_ETCD_USERNAME", "the etcd user, when the cluster has auth enabled", func(c *Config) *string { return &c.EtcdUsername }),
		secret("etcd-password", "SHEETKEEPER_ETCD_PASSWORD", "the etcd user's password", func(c *Config) *string { return &c.EtcdPassword }),
	}
}

// resolveStore sets c.Store from the store and db settings; explicit says which
// settings were given (not defaulted).
func (c *Config) resolveStore(explicit map[string]bool) error {
	var errs []error
	if c.StoreSetting == "" {
		if strings.TrimSpace(c.DB) == "" {
			return errors.New("db: the database path is empty")
		}
		c.Store = Location{Backend: Bolt, Path: c.DB}
	} else {
		loc, err := ParseStore(c.StoreSetting)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if explicit["db"] && (loc.Backend != Bolt || filepath.Clean(loc.Path) != filepath.Clean(c.DB)) {
			errs = append(errs, fmt.Errorf("store %s and db %s name different stores: --db PATH is shorthand for --store bolt:PATH; give one of them", loc, c.DB))
		}
		c.Store = loc
		if loc.Backend == Bolt {
			c.DB = loc.Path
		}
	}
	return errors.Join(errs...)
}

// validateEtcd checks the etcd client's settings.
func (c *Config) validateEtcd() error {
	var errs []error
	if (c.EtcdCert == "") != (c.EtcdKey == "") {
		errs = append(errs, errors.New("etcd-cert and etcd-key: a client certificate needs both (SHEETKEEPER_ETCD_CERT and SHEETKEEPER_ETCD_KEY)"))
	}
	if c.EtcdPassword != "" && c.EtcdUsername == "" {
		errs = append(errs, errors.New("etcd-password is set without etcd-username (SHEETKEEPER_ETCD_USERNAME)"))
	}
	if strings.TrimSpace(c.EtcdPrefix) == "" {
		errs = append(errs, errors.New("etcd-prefix: the key prefix is empty"))
	}
	return errors.Join(errs...)
}

// StoreAt is the store c names: c.Store, or for a Config built by hand with only DB
// set (tests do), the bbolt file DB.
func (c *Config) StoreAt() Location {
	if c.Store.Backend == "" {
		return Location{Backend: Bolt, Path: c.DB}
	}
	return c.Store
}
