package config

import (
	"strings"
	"testing"
)

func TestShardSettings(t *testing.T) {
	c, _, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Shard != 0 || c.Shards != 1 {
		t.Fatalf("defaults: shard %d of %d, want 0 of 1", c.Shard, c.Shards)
	}
	c, _, err = load(t, []string{"--shard", "1", "--shards", "2"}, nil)
	if err != nil || c.Shard != 1 || c.Shards != 2 {
		t.Fatalf("flags: %+v, %v", c, err)
	}
	c, _, err = load(t, []string{"--shard", "2"}, map[string]string{"SHEETKEEPER_SHARD": "0", "SHEETKEEPER_SHARDS": "3"})
	if err != nil || c.Shard != 2 || c.Shards != 3 {
		t.Fatalf("flag over env: %+v, %v", c, err)
	}
	c, _, err = load(t, nil, map[string]string{"SHEETKEEPER_SHARDS": "auto"})
	if err != nil || !c.ShardsAuto || c.Shard != 0 || c.Shards != 0 {
		t.Fatalf("shards auto: %+v, %v", c, err)
	}
}

func TestShardSettingsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "2", "--shards", "2"}, "shard 2 of shards 2: shards are numbered 0 to 1"},
		{[]string{"--shard", "1"}, "shard 1 of shards 1"},
		{[]string{"--shard", "-1", "--shards", "2"}, `shard: "-1" is not a shard number`},
		{[]string{"--shard", "x"}, `shard: "x" is not a shard number`},
		{[]string{"--shards", "0"}, `shards: "0" is not a number of shards`},
		{[]string{"--shards", "Auto"}, `shards: "Auto" is not a number of shards`},
		{[]string{"--shards", "auto", "--shard", "1"}, `shard "1" with shards auto`},
		{[]string{"--shards", "99999999999999999999"}, "is not a number of shards"},
		{[]string{"--shards", "70000"}, "from 1 to 65536"},
	} {
		if _, _, err := load(t, tc.args, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}
