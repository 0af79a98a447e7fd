package bot

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
)

// marchCopy is the built-in Saltmarch system under an id of its own (my-march), as a GM
// would import their edited copy; name replaces its display name when not "".
func marchCopy(t *testing.T, name string) *Attachment {
	t.Helper()
	b, ok, err := content.LookupSystem("saltmarch")
	if err != nil || !ok {
		t.Fatalf("built-in saltmarch: %v %v", ok, err)
	}
	data := bytes.Replace(b.File, []byte(`"id": "saltmarch"`), []byte(`"id": "my-march"`), 1)
	if name != "" {
		data = bytes.Replace(data, []byte(`"name": "`+b.Name+`"`), []byte(`"name": "`+name+`"`), 1)
	}
	if bytes.Equal(data, b.File) {
		t.Fatal("the test's edit did not apply")
	}
	return &Attachment{Name: "my-march.json", Data: data}
}

func TestSystemImportExport(t *testing.T) {
	m := newCmdTable(t)
	att := marchCopy(t, "")
	r := m.runFile(ana, "system import", att)
	if r.Ephemeral || !strings.HasPrefix(r.Content, "Imported **Saltmarch** as my-march v1: ") ||
		!strings.HasSuffix(r.Content, "\nGive a campaign its inventory with `/campaign create … system:my-march`.") {
		t.Errorf("import: %q (ephemeral %v)", r.Content, r.Ephemeral)
	}
	wantResponse(t, "again", m.runFile(gmUser, "system import", att),
		"my-march v1 (Saltmarch) is imported already, with this same content.", true)
	revised := marchCopy(t, "Saltmarch Revised")
	r = m.runFile(gmUser, "system import", revised)
	if !strings.HasPrefix(r.Content, "Imported **Saltmarch Revised** as my-march v2: ") || !strings.Contains(r.Content, "\nCampaigns on earlier versions keep theirs.") {
		t.Errorf("re-import: %q", r.Content)
	}
	m.view(func(tx storage.Tx) error {
		rec, err := tx.System("guild", "my-march", 1)
		if err != nil {
			return err
		}
		if !bytes.Equal(rec.File, att.Data) || rec.InstalledBy != "ana" || !rec.InstalledAt.Equal(cmdTime) || rec.Digest == "" {
			t.Errorf("record v1: by %q at %v, %d bytes, digest %q", rec.InstalledBy, rec.InstalledAt, len(rec.File), rec.Digest)
		}
		return nil
	})

	// Export gives back each version's exact bytes, and a built-in's file.
	r = m.run(ana, "system export", "id", "my-march", "version", "1")
	if len(r.Files) != 1 || r.Files[0].Name != "my-march-v1.json" || !bytes.Equal(r.Files[0].Data, att.Data) {
		t.Errorf("export v1: %q %d files", r.Content, len(r.Files))
	}
	r = m.run(ana, "system export", "id", "my-march")
	if len(r.Files) != 1 || r.Files[0].Name != "my-march-v2.json" || !bytes.Equal(r.Files[0].Data, revised.Data) {
		t.Errorf("export newest: %q %d files", r.Content, len(r.Files))
	}
	r = m.run(ana, "system export", "id", "saltmarch")
	if b, _, _ := content.LookupSystem("saltmarch"); len(r.Files) != 1 || r.Files[0].Name != "saltmarch.json" || !bytes.Equal(r.Files[0].Data, b.File) {
		t.Errorf("export built-in: %q %d files", r.Content, len(r.Files))
	}
	wantResponse(t, "export missing version", m.run(ana, "system export", "id", "my-march", "version", "7"),
		"system my-march has no v7 here (/system list shows its versions)", true)
	wantResponse(t, "export unknown", m.run(ana, "system export", "id", "nope"),
		`no system "nope" is imported here (/system list shows them; /system import adds one)`, true)

	wantResponse(t, "list", m.run(ana, "system list"),
		"**Game systems**\n"+
			"`dnd5e-srd` — D&D 5e (SRD 5.1), v1 (built-in)\n"+
			"`saltmarch` — Saltmarch, v1 (built-in)\n"+
			"`my-march` — Saltmarch Revised, versions v1, v2\n"+
			"Give a campaign its inventory with `/campaign create … system:<id>`; add one with `/system import`.", true)
	// Another server sees none of this one's imports.
	other := m.core.OnCommand(context.Background(), Command{Name: "system list", User: ana, ChannelID: "elsewhere", GuildID: "guild2"})
	if strings.Contains(other.Content, "my-march") {
		t.Errorf("another guild's list: %q", other.Content)
	}
	choices := m.complete(ana, "system export", "id", "my")
	if len(choices) == 0 || choices[0].Value != "my-march" {
		t.Errorf("completion of my: %v", choices)
	}
}

// TestSystemImportRefused: a file with mistakes is refused with every one and its path,
// a built-in's id is refused, and only a server manager imports; none of them stores
// anything.
func TestSystemImportRefused(t *testing.T) {
	m := newCmdTable(t)
	bad := marchCopy(t, "")
	bad.Data = bytes.Replace(bad.Data, []byte(`"packrat": "system"`), []byte(`"packrat": "system", "slotz": 3`), 1)
	r := m.runFile(gmUser, "system import", bad)
	if !r.Ephemeral || !strings.HasPrefix(r.Content, "That system cannot be imported:\n") || !strings.Contains(r.Content, "slotz") {
		t.Errorf("a file with a mistake: %q", r.Content)
	}
	b, _, _ := content.LookupSystem("saltmarch")
	r = m.runFile(gmUser, "system import", &Attachment{Name: "saltmarch.json", Data: b.File})
	if !strings.Contains(r.Content, `id: "saltmarch" is a built-in system's id`) {
		t.Errorf("a built-in's id: %q", r.Content)
	}
	r = m.run(ana, "system import") // no file: Discord would not send it
	wantResponse(t, "no file", r, "/system import needs file:.", true)
	cmd := Command{Name: "system import", User: ana, ChannelID: m.ch, GuildID: "guild", Options: []Option{{Name: "file", Attachment: marchCopy(t, "")}}}
	wantResponse(t, "not a manager", m.core.OnCommand(context.Background(), cmd),
		"importing a system in this server needs the Manage Server permission", true)
	m.view(func(tx storage.Tx) error {
		if ids, err := tx.SystemIDs("guild"); err != nil || len(ids) != 0 {
			t.Errorf("refused imports stored %q %v", ids, err)
		}
		return nil
	})
}

// TestLookupSystem: a built-in and each stored version are found, parsed once (the same
// system comes back), and an unknown id or version is refused not-allowed.
func TestLookupSystem(t *testing.T) {
	m := newCmdTable(t)
	m.runFile(gmUser, "system import", marchCopy(t, ""))
	m.runFile(gmUser, "system import", marchCopy(t, "Revised"))
	m.view(func(tx storage.Tx) error {
		get := func(guild, id string, v int) (*inventory.System, error) {
			return m.core.lookupSystem(tx, guild, id, v)
		}
		s1, err := get("guild", "my-march", 1)
		if err != nil || s1.Name != "Saltmarch" {
			t.Fatalf("v1: %v %v", s1, err)
		}
		newest, err := get("guild", "my-march", 0)
		if err != nil || newest.Name != "Revised" {
			t.Fatalf("newest: %v %v", newest, err)
		}
		if again, _ := get("guild", "my-march", 2); again != newest {
			t.Error("v2 parsed twice")
		}
		bi, err := get("guild", "dnd5e-srd", 0)
		if err != nil || bi.ID != "dnd5e-srd" {
			t.Fatalf("built-in: %v", err)
		}
		if again, _ := get("guild2", "dnd5e-srd", BuiltinSystemVersion); again != bi {
			t.Error("the built-in parsed twice")
		}
		for _, c := range []struct {
			guild, id string
			v         int
		}{{"guild", "my-march", 3}, {"guild2", "my-march", 1}, {"guild", "nope", 0}, {"guild", "saltmarch", 2}, {"guild", "", 0}} {
			if _, err := get(c.guild, c.id, c.v); refusal.Of(err) != refusal.NotAllowed {
				t.Errorf("%s %s v%d: %v, want not-allowed", c.guild, c.id, c.v, err)
			}
		}
		return nil
	})
}

// TestImportSystemHostile: a file over the size limit (strictjson limit) and one nested
// past the depth limit (malformed, as strictjson reads it) are refused by kind, quickly,
// storing nothing.
func TestImportSystemHostile(t *testing.T) {
	m := newCmdTable(t)
	deep := `{"packrat":"system","id":"deep","stats":` + strings.Repeat(`{"a":`, 100000) + `1` + strings.Repeat(`}`, 100000) + `}`
	for _, c := range []struct {
		name string
		data []byte
		want strictjson.Kind
		says string
	}{
		{"too big", bytes.Repeat([]byte(" "), inventory.MaxFileBytes+1), strictjson.Limit, "at most 4096 KB"},
		{"deep", []byte(deep), strictjson.Malformed, "nested deeper than"},
	} {
		start := time.Now()
		_, err := m.core.ImportSystem(context.Background(), "guild", "gm", c.data)
		var ps strictjson.Problems
		if !errors.As(err, &ps) || len(ps) == 0 || ps[0].Kind != c.want || !strings.Contains(ps[0].Msg, c.says) {
			t.Errorf("%s: %v, want a %v problem saying %q", c.name, err, c.want, c.says)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s took %v", c.name, took)
		}
	}
	m.view(func(tx storage.Tx) error {
		if ids, err := tx.SystemIDs("guild"); err != nil || len(ids) != 0 {
			t.Errorf("hostile files stored %q %v", ids, err)
		}
		return nil
	})
}

// TestLookupSystemConcurrent: lookups racing on a cold cache all get the one system
// kept (go test -race watches the cache).
func TestLookupSystemConcurrent(t *testing.T) {
	m := newCmdTable(t)
	m.runFile(gmUser, "system import", marchCopy(t, ""))
	core := New(m.store, Options{}) // a cold cache
	got := make([]*inventory.System, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			err := m.store.View(context.Background(), func(tx storage.Tx) error {
				var err error
				got[i], err = core.lookupSystem(tx, "guild", "my-march", 1)
				return err
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] == nil || got[i] != got[0] {
			t.Fatalf("lookup %d got another system", i)
		}
	}
}

// TestLookupSystemNoLongerReads: a stored version this binary cannot parse any more is
// refused not-enabled, saying so, rather than failing unkinded.
func TestLookupSystemNoLongerReads(t *testing.T) {
	m := newCmdTable(t)
	m.update(func(tx storage.Tx) error {
		return tx.PutSystem(&storage.SystemRecord{Guild: "guild", ID: "broken", Version: 1, Name: "Broken", Digest: "x", File: []byte(`{"id": 7}`)})
	})
	m.view(func(tx storage.Tx) error {
		_, err := m.core.lookupSystem(tx, "guild", "broken", 1)
		if refusal.Of(err) != refusal.NotEnabled || !strings.Contains(err.Error(), "no longer reads") {
			t.Errorf("lookup: %v (%q), want not-enabled", err, refusal.Of(err))
		}
		_, err = m.core.namedSystem(tx, "guild", "broken", 1)
		if refusal.Of(err) != refusal.NotEnabled || !strings.Contains(err.Error(), "no longer reads") {
			t.Errorf("named: %v (%q), want not-enabled, saying why", err, refusal.Of(err))
		}
		return nil
	})
}
