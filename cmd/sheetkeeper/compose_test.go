package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"sheetkeeper/config"
)

// composeFile is the part of deploy/compose.yaml the test reads.
type composeFile struct {
	Services map[string]struct {
		Image       string            `json:"image"`
		Build       string            `json:"build"`
		Hostname    string            `json:"hostname"`
		Command     []string          `json:"command"`
		Environment map[string]string `json:"environment"`
		Ports       []string          `json:"ports"`
		DependsOn   []string          `json:"depends_on"`
	} `json:"services"`
}

// TestComposeFile: deploy/compose.yaml (no Docker here to run it) is a cluster of three
// etcd members that name each other, and two sheetkeeper processes whose command and
// environment `sheetkeeper run` accepts, on an etcd store of those three members, with
// --shards auto, publishing their endpoints on the host's loopback only.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := yaml.YAMLToJSON(raw) // merges the x- anchors' "<<" keys
	if err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	var f composeFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	var members, bots []string
	for name, s := range f.Services {
		switch {
		case strings.Contains(s.Image, "etcd"):
			members = append(members, name)
			if s.Environment["ETCD_NAME"] != name || s.Hostname != name ||
				!strings.Contains(s.Environment["ETCD_INITIAL_CLUSTER"], name+"=http://"+name+":2380") {
				t.Errorf("etcd member %s: name %q, hostname %q, cluster %q", name, s.Environment["ETCD_NAME"], s.Hostname, s.Environment["ETCD_INITIAL_CLUSTER"])
			}
		case s.Build != "":
			bots = append(bots, name)
		default:
			t.Errorf("service %s is neither etcd nor sheetkeeper", name)
		}
	}
	slices.Sort(members)
	if len(members) != 3 || len(bots) != 2 {
		t.Fatalf("etcd members %v and sheetkeeper processes %v, want 3 and 2", members, bots)
	}
	for _, name := range bots {
		s := f.Services[name]
		if len(s.Command) == 0 || s.Command[0] != "run" {
			t.Fatalf("%s: command %q is not run", name, s.Command)
		}
		env := func(k string) string {
			if k == "DISCORD_TOKEN" {
				return "token" // ${DISCORD_TOKEN:?…}: set by whoever runs it
			}
			return s.Environment[k]
		}
		cfg, _, err := config.Load(quietFlags(), runSettings(), s.Command[1:], env)
		if err != nil {
			t.Fatalf("%s: sheetkeeper run refuses %q: %v", name, s.Command, err)
		}
		store := cfg.StoreAt()
		var hosts []string
		for _, ep := range store.Endpoints {
			hosts = append(hosts, strings.TrimSuffix(ep, ":2379"))
		}
		slices.Sort(hosts)
		if store.Backend != config.Etcd || !slices.Equal(hosts, members) || !cfg.ShardsAuto {
			t.Errorf("%s: store %s (endpoints %v), shards auto %v; want etcd on %v with --shards auto", name, store, store.Endpoints, cfg.ShardsAuto, members)
		}
		if !slices.Equal(slices.Sorted(slices.Values(s.DependsOn)), members) {
			t.Errorf("%s depends on %v, want %v", name, s.DependsOn, members)
		}
		for _, p := range s.Ports {
			if !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("%s publishes %q beyond the host's loopback", name, p)
			}
		}
	}
}

func quietFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}
