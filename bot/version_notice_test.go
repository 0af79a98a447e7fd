package bot

import (
	"bytes"
	"testing"
)

// emberAt is ember-roads.json at version v, its Road Sense notes rewritten when newer is
// set: other text for one catalog row.
func emberAt(t *testing.T, v string, newer bool) *Attachment {
	t.Helper()
	att := corpusFile(t, "ember-roads.json")
	data := bytes.Replace(att.Data, []byte(`"version": 1`), []byte(`"version": `+v), 1)
	if newer {
		data = bytes.Replace(data, []byte("Sneak to notice where a road turns bad before you are standing on it."), []byte("Sneak to notice a bad road one bend early."), 1)
	}
	if bytes.Equal(data, att.Data) {
		t.Fatal("the test's edit did not apply")
	}
	return &Attachment{Name: att.Name, Data: data}
}

// TestVersionNotices (SPEC 8.1): importing a newer version posts, in each campaign
// channel of the importing guild still on an older version, how many rows on which
// characters would update — as data on the import's answer (Response.Posts), one post
// per channel. Another guild's campaigns on its own local/ember-roads hear nothing;
// importing an older version than one installed tells nobody.
func TestVersionNotices(t *testing.T) {
	m := newCmdTable(t)
	v1 := corpusFile(t, "ember-roads.json")
	m.in("gA", "a1", manager(ana), v1, "ruleset import")
	m.in("gB", "b1", manager(bo), v1, "ruleset import")
	for _, ch := range []struct{ guild, channel string }{{"gA", "a1"}, {"gA", "a2"}, {"gB", "b1"}} {
		m.in(ch.guild, ch.channel, gmUser, nil, "campaign create", "ruleset", "ember-roads")
	}
	m.in("gA", "a1", ana, nil, "character create", "name", "Mira")
	m.in("gA", "a1", ana, nil, "character join", "name", "Mira")
	for _, e := range []string{"road-sense", "last-ember"} {
		if r := m.in("gA", "a1", ana, nil, "pick", "name", "Mira", "catalog", "knacks", "entry", e); r.Ephemeral {
			t.Fatalf("pick %s: %q", e, r.Content)
		}
	}

	r := m.in("gA", "elsewhere", manager(ana), emberAt(t, "3", true), "ruleset import")
	if r.Ephemeral || len(r.Posts) != 2 {
		t.Fatalf("import v3: %q, posts %+v", r.Content, r.Posts)
	}
	want := map[string]string{
		"a1": "**Ember Roads** v3 is installed; this campaign plays v1 until a GM runs `/campaign upgrade`.\n" +
			"After the upgrade, `/refresh name:<character>` would update: **Mira** 1 row (Knacks 1).",
		"a2": "**Ember Roads** v3 is installed; this campaign plays v1 until a GM runs `/campaign upgrade`.\n" +
			"It has no characters yet, so no sheet has rows to update.",
	}
	for _, p := range r.Posts {
		if p.Kind != Post || p.Content != want[p.ChannelID] {
			t.Errorf("post in %q (%s):\n got %q\nwant %q", p.ChannelID, p.Kind, p.Content, want[p.ChannelID])
		}
		delete(want, p.ChannelID)
	}
	if len(want) > 0 {
		t.Errorf("no notice in %v", want)
	}

	// v2 after v3: an upgrade goes to v3, whose import told the channels already.
	if r := m.in("gA", "elsewhere", manager(ana), emberAt(t, "2", true), "ruleset import"); r.Ephemeral || len(r.Posts) != 0 {
		t.Errorf("import v2 after v3: %q, posts %+v", r.Content, r.Posts)
	}
	// a2 moves to v3; v4 tells a1 and a2 (each on an older version), never gB's b1.
	m.in("gA", "a2", gmUser, nil, "campaign upgrade")
	r = m.in("gA", "a2", manager(ana), emberAt(t, "4", true), "ruleset import")
	if len(r.Posts) != 2 {
		t.Fatalf("import v4: posts %+v", r.Posts)
	}
	for _, p := range r.Posts {
		if p.ChannelID == "b1" {
			t.Errorf("another guild's campaign was told: %q", p.Content)
		}
	}
}
