package config

import (
	"slices"
	"strings"
	"testing"
)

func TestParseStore(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Location
	}{
		{"bolt:/x/y.db", Location{Backend: Bolt, Path: "/x/y.db"}},
		{"etcd://a:2379", Location{Backend: Etcd, Endpoints: []string{"a:2379"}}},
		{"etcd://10.0.0.1:2379,[::1]:2380", Location{Backend: Etcd, Endpoints: []string{"10.0.0.1:2379", "[::1]:2380"}}},
	} {
		got, err := ParseStore(tc.in)
		if err != nil || got.Backend != tc.want.Backend || got.Path != tc.want.Path || !slices.Equal(got.Endpoints, tc.want.Endpoints) {
			t.Errorf("ParseStore(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if got.String() != tc.in {
			t.Errorf("%q prints as %q", tc.in, got)
		}
	}
	for _, in := range []string{"", "/x.db", "bolt:", "etcd://", "etcd://a", "etcd://a:2379,", "etcd://:2379", "etcd://a:2379/p", "postgres://a:1"} {
		if _, err := ParseStore(in); err == nil || !strings.Contains(err.Error(), "bolt:PATH or etcd://") {
			t.Errorf("ParseStore(%q): %v, want an error saying the forms", in, err)
		}
	}
}

func TestStoreAndDB(t *testing.T) {
	c, _, err := load(t, nil, map[string]string{"SHEETKEEPER_DB": "/a.db"})
	if err != nil || c.Store.String() != "bolt:/a.db" {
		t.Fatalf("db alone: %+v, %v", c, err)
	}
	c, _, err = load(t, []string{"--store", "etcd://h:2379"}, nil)
	if err != nil || c.Store.Backend != Etcd || c.EtcdPrefix != "sheetkeeper/" {
		t.Fatalf("store alone: %+v, %v", c, err)
	}
	c, _, err = load(t, []string{"--store", "bolt:/b.db"}, nil)
	if err != nil || c.DB != "/b.db" {
		t.Fatalf("store bolt: %+v, %v", c, err)
	}
	if _, _, err = load(t, []string{"--store", "bolt:/b.db", "--db", "/b.db"}, nil); err != nil {
		t.Fatalf("store and db naming one file: %v", err)
	}
	for _, args := range [][]string{{"--store", "bolt:/b.db", "--db", "/c.db"}, {"--store", "etcd://h:2379", "--db", "/c.db"}} {
		if _, _, err := load(t, args, nil); err == nil || !strings.Contains(err.Error(), "shorthand") {
			t.Errorf("%v: %v, want the store and db conflict", args, err)
		}
	}
}

func TestEtcdSecretsNeverFlags(t *testing.T) {
	for _, name := range []string{"etcd-password", "etcd-username", "etcd-ca", "etcd-cert", "etcd-key"} {
		if _, _, err := load(t, []string{"--" + name, "x"}, nil); err == nil {
			t.Errorf("--%s was accepted", name)
		}
	}
	c, _, err := load(t, []string{"--store", "etcd://h:2379"}, map[string]string{
		"SHEETKEEPER_ETCD_USERNAME": "u", "SHEETKEEPER_ETCD_PASSWORD": "p", "SHEETKEEPER_ETCD_CA": "/ca.pem"})
	if err != nil || c.EtcdUsername != "u" || c.EtcdPassword != "p" || c.EtcdCA != "/ca.pem" {
		t.Fatalf("%+v, %v", c, err)
	}
	if _, _, err := load(t, nil, map[string]string{"SHEETKEEPER_ETCD_CERT": "/c.pem"}); err == nil {
		t.Error("a client certificate without its key was accepted")
	}
	if _, _, err := load(t, nil, map[string]string{"SHEETKEEPER_ETCD_PASSWORD": "p"}); err == nil {
		t.Error("a password without a user was accepted")
	}
}
