package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sheetkeeper/storage/bolt"
	"sheetkeeper/storage/etcd/etcdtest"
	"sheetkeeper/storage/storagetest"
)

// TestMigrateRoundTrip: `sheetkeeper migrate` copies a bbolt file into an etcd prefix
// and back into a new file, which then holds the same records; a second copy into the
// now non-empty prefix is refused and changes nothing.
func TestMigrateRoundTrip(t *testing.T) {
	e, err := etcdtest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	t.Setenv("SHEETKEEPER_CONFIG", "")
	t.Setenv("SHEETKEEPER_ETCD_PREFIX", "migrate-test/")
	dir := t.TempDir()
	first, last := filepath.Join(dir, "first.db"), filepath.Join(dir, "last.db")
	cluster := "etcd://" + etcdtest.Endpoint(e)

	s, err := bolt.Open(first, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	storagetest.Fill(t, s)
	want := storagetest.Export(t, s)
	s.Close()

	code, out, errOut := runCLI(t, "", "migrate", "--from", "bolt:"+first, "--to", cluster)
	if code != 0 || !strings.Contains(out, "verified") || !strings.Contains(out, "game 1,") {
		t.Fatalf("bolt → etcd: exit %d\n%s%s", code, out, errOut)
	}
	// The commands that open the store open the cluster too.
	copyPath := filepath.Join(dir, "copy.jsonl")
	if code, out, errOut := runCLI(t, "", "backup", "--store", cluster, copyPath); code != 0 || !strings.Contains(out, "backed up "+cluster) {
		t.Errorf("backup of the cluster: exit %d\n%s%s", code, out, errOut)
	}
	script := filepath.Join(dir, "script.txt")
	if err := os.WriteFile(script, []byte("gm: /sheet name:Mira\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SHEETKEEPER_ETCD_PREFIX", "migrate-console/")
	if code, out, errOut := runCLI(t, "", "console", "--store", cluster, "--script", script); code != 0 || !strings.Contains(out, "Mira") {
		t.Errorf("console on the cluster: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("SHEETKEEPER_ETCD_PREFIX", "migrate-test/")

	code, out, errOut = runCLI(t, "", "migrate", "--from", cluster, "--to", "bolt:"+last)
	if code != 0 {
		t.Fatalf("etcd → bolt: exit %d\n%s%s", code, out, errOut)
	}
	s, err = bolt.Open(last, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := storagetest.Export(t, s)
	s.Close()
	if len(got) != len(want) {
		t.Fatalf("final file holds %d records, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Key != want[i].Key || !bytes.Equal(got[i].Value, want[i].Value) {
			t.Errorf("record %d: %s %q, want %s %q", i, got[i].Kind, got[i].Key, want[i].Kind, want[i].Key)
		}
	}

	code, _, errOut = runCLI(t, "", "migrate", "--from", "bolt:"+first, "--to", cluster)
	if code != 1 || !strings.Contains(errOut, "not empty") {
		t.Errorf("copy into the non-empty prefix: exit %d, %q", code, errOut)
	}
}

func TestMigrateMisuse(t *testing.T) {
	t.Setenv("SHEETKEEPER_CONFIG", "")
	db := filepath.Join(t.TempDir(), "a.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "bolt:" + db}, "both --from and --to"},
		{[]string{"--from", db, "--to", "bolt:/x.db"}, "bolt:PATH or etcd://"},
		{[]string{"--from", "bolt:" + db, "--to", "bolt:" + db}, "are both"},
		{[]string{"--from", "bolt:" + db, "--to", "bolt:/x.db"}, "no such file"},
	} {
		code, _, errOut := runCLI(t, "", append([]string{"migrate"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestEtcdStoreRefusedByDBCheck: db check and salvage read bbolt pages; an etcd store
// is refused with words saying so.
func TestEtcdStoreRefusedByDBCheck(t *testing.T) {
	code, _, errOut := runCLI(t, "", "db", "check", "etcd://127.0.0.1:2379")
	if code != 2 || !strings.Contains(errOut, "bbolt file only") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}
