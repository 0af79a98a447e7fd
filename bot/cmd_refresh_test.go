package bot

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// emberRoadsV2 is the corpus's Ember Roads at version 2, with newer text for three
// knacks' notes (and a new summary, which the picker shows and a refresh never compares).
func emberRoadsV2(t *testing.T) *Attachment {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus, "ember-roads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rs map[string]any
	if err := json.Unmarshal(data, &rs); err != nil {
		t.Fatal(err)
	}
	rs["version"] = 2.0
	newer := map[string]string{
		"road-sense":    "Sneak to notice where a road turns bad, one bend before it does.",
		"coldfire-toss": "Throw a sealed jar: it burns up to three you pick, friends too.",
		"last-ember":    "Spend 1 Grit: a downed friend gets 3 Grit back. Once between camps per point of Heart.",
	}
	for _, c := range rs["catalogs"].([]any) {
		for _, e := range c.(map[string]any)["entries"].([]any) {
			e := e.(map[string]any)
			if notes, ok := newer[e["id"].(string)]; ok {
				row := e["rows"].([]any)[0].(map[string]any)
				row["values"].(map[string]any)["notes"] = notes
				e["summary"] = "Newer words."
			}
		}
	}
	out, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	return &Attachment{Name: "ember-roads.json", Data: out}
}

// click sends a component as u, with the values chosen in a select menu.
func (m *cmdTable) click(u User, id string, values ...string) Response {
	m.t.Helper()
	return m.core.OnComponent(context.Background(), Component{CustomID: id, Values: values, User: u, ChannelID: m.ch})
}

func knackNotes(m *cmdTable, name string) []string {
	var out []string
	for _, r := range m.pkGet(name).Build.Lists["knacks"] {
		n, _ := r.Text("name")
		notes, _ := r.Text("notes")
		out = append(out, n+": "+notes+" ["+r.Marker()+"]")
	}
	return out
}

func TestRefreshAfterUpgrade(t *testing.T) {
	m := newCmdTable(t)
	if r := m.runFile(pkGM, "ruleset import", corpusFile(t, "ember-roads.json")); strings.Contains(r.Content, "rror") {
		t.Fatal(r.Content)
	}
	m.ok(pkGM, "campaign create", "ruleset", "ember-roads")
	m.pkCard("ana", "Mira", map[string]any{"calling": "Ember-tender"}, "knacks/last-ember", "knacks/coldfire-toss", "knacks/road-sense")
	m.pkCard("bram", "Bram", map[string]any{"calling": "Scout"}, "knacks/road-sense")
	before := knackNotes(m, "Mira")

	r := m.run(pkAna, "refresh", "name", "Mira")
	wantResponse(t, "before any newer version", r, "Mira's rows match Ember Roads v1: nothing to refresh.", true)

	if r := m.runFile(pkGM, "ruleset import", emberRoadsV2(t)); strings.Contains(r.Content, "rror") {
		t.Fatal(r.Content)
	}
	r = m.run(pkAna, "campaign upgrade")
	wantResponse(t, "players cannot upgrade", r, "/campaign upgrade is for the campaign's GMs", true)
	r = m.run(pkGM, "campaign upgrade")
	wantResponse(t, "upgrade", r, "This campaign now plays **Ember Roads** (local/ember-roads v1 → v2).\n"+
		"Rows with newer text in the ruleset: **Bram** 1 row (Knacks 1); **Mira** 3 rows (Knacks 3).\n"+
		"Each player reviews theirs with `/refresh name:<character>`; nothing on a sheet changes until they accept.", false)
	if camp := m.campaignRecord(); camp.Ruleset.Version != 2 {
		t.Errorf("campaign at v%d", camp.Ruleset.Version)
	}
	if got := m.pkGet("Mira"); got.Ruleset.Version != 2 || strings.Join(knackNotes(m, "Mira"), "\n") != strings.Join(before, "\n") {
		t.Errorf("an upgrade changes no row: v%d %q", got.Ruleset.Version, knackNotes(m, "Mira"))
	}
	r = m.run(pkGM, "campaign upgrade")
	wantResponse(t, "again", r, "This campaign already plays the newest installed version: Ember Roads v2. Import a newer one with /ruleset import.", true)

	// /refresh: a line per list, the rows numbered, a Review button.
	r = m.run(pkAna, "refresh", "name", "mira")
	if !r.Ephemeral || len(r.Embeds) != 1 {
		t.Fatalf("summary: %+v", r)
	}
	wantText(t, "summary title", r.Embeds[0].Title, "Mira: 3 rows have newer text in Ember Roads v2")
	wantText(t, "summary", r.Embeds[0].Description, "**Knacks**: 3 rows have newer text\n\n"+
		"1. Knacks · Last Ember — What it does\n2. Knacks · Coldfire Toss — What it does\n3. Knacks · Road Sense — What it does")
	wantText(t, "review button", r.Components[0].Buttons[0].CustomID, "refresh:review:Mira")
	r = m.run(pkBram, "refresh", "name", "Mira")
	wantResponse(t, "someone else's", r, "Mira is not your character: only its player or a GM may refresh it", true)

	// Review: card and ruleset side by side, nothing ticked yet.
	r = m.click(pkAna, "refresh:review:Mira")
	if !r.Update || !r.Ephemeral || len(r.Embeds) != 1 || len(r.Components) != 2 {
		t.Fatalf("review: %+v", r)
	}
	f := r.Embeds[0].Fields
	if len(f) != 3 {
		t.Fatalf("review fields: %+v", f)
	}
	wantText(t, "row 3", f[2].Name+"\n"+f[2].Value, "☐ 3. Knacks · Road Sense\n**What it does**\n"+
		"card: Sneak to notice where a road turns bad before you are standing on it.\n"+
		"ruleset: Sneak to notice where a road turns bad, one bend before it does.")
	sel := r.Components[0].Select
	if sel == nil || len(sel.Options) != 3 || sel.MaxValues != 3 {
		t.Fatalf("select: %+v", sel)
	}
	digest := strings.Split(sel.CustomID, ":")[2]
	wantText(t, "select id", sel.CustomID, "refresh:select:"+digest+":Mira")
	upd := r.Components[1].Buttons[0]
	if !upd.Disabled {
		t.Error("Update selected is disabled until a row is ticked")
	}

	// Tick rows 1 and 3: Update selected carries them.
	r = m.click(pkAna, sel.CustomID, "1", "3")
	if r.Embeds[0].Fields[0].Name != "☑ 1. Knacks · Last Ember" || r.Embeds[0].Fields[1].Name != "☐ 2. Knacks · Coldfire Toss" {
		t.Errorf("ticks: %q, %q", r.Embeds[0].Fields[0].Name, r.Embeds[0].Fields[1].Name)
	}
	if o := r.Components[0].Select.Options; !o[0].Default || o[1].Default || !o[2].Default {
		t.Errorf("defaults: %+v", o)
	}
	upd = r.Components[1].Buttons[0]
	wantText(t, "update id", upd.CustomID, "refresh:update:"+digest+":5:Mira")
	if upd.Disabled {
		t.Error("Update selected is enabled once rows are ticked")
	}
	if got := m.click(pkBram, upd.CustomID); got.Content != "Mira is not your character: only its player or a GM may refresh it" {
		t.Errorf("Bram clicking: %+v", got)
	}

	r = m.click(pkAna, upd.CustomID)
	wantResponse(t, "update selected", r, "**Mira**: 2 rows updated from Ember Roads v2 — Knacks · Last Ember; Knacks · Road Sense.", true)
	wantText(t, "only the ticked rows", strings.Join(knackNotes(m, "Mira"), "\n"), strings.Join([]string{
		"Last Ember: Spend 1 Grit: a downed friend gets 3 Grit back. Once between camps per point of Heart. [knacks/last-ember]",
		before[1],
		"Road Sense: Sneak to notice where a road turns bad, one bend before it does. [knacks/road-sense]",
	}, "\n"))

	// The same button again: the review it was made from is gone, so nothing is written.
	r = m.click(pkAna, upd.CustomID)
	if !strings.HasPrefix(r.Embeds[0].Footer, "Mira's sheet or the ruleset changed since that review, so nothing was written: here it is again.") || len(r.Embeds[0].Fields) != 1 {
		t.Errorf("stale click: %+v", r.Embeds[0])
	}
	// Numbers are the current review's: the row left is number 1 now.
	r = m.run(pkAna, "refresh", "name", "Mira", "rows", "1")
	wantResponse(t, "the last one by command", r, "**Mira**: 1 row updated from Ember Roads v2 — Knacks · Coldfire Toss.", false)
	r = m.run(pkAna, "refresh", "name", "Mira")
	wantResponse(t, "done", r, "Mira's rows match Ember Roads v2: nothing to refresh.", true)

	r = m.run(pkBram, "refresh update", "name", "Bram", "rows", "2")
	wantResponse(t, "no such row", r, "there is only 1 row with newer text, so there is no row 2", true)
	r = m.run(pkBram, "refresh update", "name", "Bram", "rows", "first")
	wantResponse(t, "unreadable rows", r, `I could not read rows "first": write row numbers as /refresh shows them (1,3 or 2-4), or all`, true)
	r = m.run(pkBram, "refresh update", "name", "Bram", "rows", "all")
	wantResponse(t, "all", r, "**Bram**: 1 row updated from Ember Roads v2 — Knacks · Road Sense.", false)
}

func TestRefreshUpdateAllButton(t *testing.T) {
	m := newCmdTable(t)
	m.runFile(pkGM, "ruleset import", corpusFile(t, "ember-roads.json"))
	m.ok(pkGM, "campaign create", "ruleset", "ember-roads")
	m.pkCard("ana", "Mira", nil, "knacks/coldfire-toss", "knacks/road-sense")
	m.runFile(pkGM, "ruleset import", emberRoadsV2(t))
	m.ok(pkGM, "campaign upgrade")
	r := m.click(pkGM, "refresh:review:Mira")
	all := r.Components[1].Buttons[1]
	wantText(t, "all button", all.Label, "Update all 2")
	r = m.click(pkGM, all.CustomID)
	wantResponse(t, "a GM updates all", r, "**Mira**: 2 rows updated from Ember Roads v2 — Knacks · Coldfire Toss; Knacks · Road Sense.", true)
	r = m.click(pkGM, "refresh:nonsense:x")
	wantResponse(t, "unknown", r, "That button is no longer in use: run the command again.", true)
}

func TestRefreshLongNameUsesAHash(t *testing.T) {
	long := strings.Repeat("Aurelian ", 9) + "the Lamplighter"
	if cardRef(long, 65) == long || !strings.HasPrefix(cardRef(long, 65), "#") {
		t.Fatalf("a name too long for the id is hashed: %q", cardRef(long, 65))
	}
	m := newCmdTable(t)
	m.runFile(pkGM, "ruleset import", corpusFile(t, "ember-roads.json"))
	m.ok(pkGM, "campaign create", "ruleset", "ember-roads")
	m.pkCard("ana", long, nil, "knacks/road-sense")
	m.runFile(pkGM, "ruleset import", emberRoadsV2(t))
	m.ok(pkGM, "campaign upgrade")
	r := m.run(pkAna, "refresh", "name", long)
	r = m.click(pkAna, r.Components[0].Buttons[0].CustomID)
	for _, row := range r.Components {
		for _, b := range row.Buttons {
			if len(b.CustomID) > maxCustomID {
				t.Errorf("custom id of %d characters: %q", len(b.CustomID), b.CustomID)
			}
		}
		if row.Select != nil && len(row.Select.CustomID) > maxCustomID {
			t.Errorf("select id of %d characters", len(row.Select.CustomID))
		}
	}
	r = m.click(pkAna, r.Components[1].Buttons[1].CustomID)
	wantResponse(t, "by hash", r, "**"+long+"**: 1 row updated from Ember Roads v2 — Knacks · Road Sense.", true)
}
