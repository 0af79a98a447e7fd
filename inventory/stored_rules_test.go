package inventory

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"sheetkeeper/strictjson"
)

// TestStoredRulesRoundTrip: what rules left (values, a value moving, what they saw, the
// time) is kept with the holdings, written as json.Marshal writes it, read back
// strictly into the same World, and carried unchanged through a tag's Keep; a rule
// never run leaves nothing.
func TestStoredRulesRoundTrip(t *testing.T) {
	c := campaign(t)
	h := heldOf(t, c)
	w, at := c.World(h)
	if !at.IsZero() || w.Seen != nil {
		t.Fatalf("never run: at %v seen %v", at, w.Seen)
	}
	if st, _ := c.Keep(h); st.Rules != nil {
		t.Fatalf("holdings rules never ran on keep %+v", st.Rules)
	}
	until := 0.0
	w.Locals["heat"] = 2.5
	w.Moving = map[string]Moving{"/heat": {Rate: -0.25, Until: &until}}
	w.Seen = map[string]bool{"i1/becomes": true, "i2/becomes": false}
	then := time.Date(2026, 12, 1, 20, 0, 0, 123456789, time.FixedZone("x", 3600))
	h.KeepWorld(w, then)
	st, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := st.AppendJSON(nil); err != nil || string(got) != string(want) {
		t.Fatalf("AppendJSON:\n%s\njson.Marshal:\n%s", got, want)
	}
	if !strings.Contains(string(want), `"rules":{"at":"2026-12-01T19:00:00.123456789Z","locals":{"heat":2.5},"moving":{"/heat":{"rate":-0.25,"until":0}},"seen":["i1/becomes"],"off":["i2/becomes"],"had":["i1","i2","i3","i4","i5"],"worn":["i1"]}`) {
		t.Errorf("stored %s", want)
	}
	back, ps := ParseStored(want)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	h2, ps := c.Restore(back)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	w2, at2 := c.World(h2)
	if !at2.Equal(then) || w2.Locals["heat"] != 2.5 || w2.Moving["/heat"].Rate != -0.25 || *w2.Moving["/heat"].Until != 0 ||
		!w2.Seen["i1/becomes"] || w2.Seen["i2/becomes"] || len(w2.Seen) != 2 {
		t.Errorf("restored world: at %v %+v", at2, w2)
	}
	h2.Inv[0].Equipped = false // a tag changes an entry: the rules' part stays
	st2, err := c.Keep(h2)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(st2); !strings.Contains(string(again), `"seen":["i1/becomes"],"off":["i2/becomes"]`) {
		t.Errorf("kept after a tag: %s", again)
	}
	h2.Inv[1].Equipped = true
	h2.Inv = append(h2.Inv[:2], h2.Inv[3:]...) // the wand gone
	h2.Inv = append(h2.Inv, c.NewEntry("i9", c.System.CatalogItem("lr-maul"), 1))
	if ev := h2.Events(); !reflect.DeepEqual(ev, []Event{{"unequipped", "i1"}, {"equipped", "i2"}, {"acquired", "i9"}}) {
		t.Errorf("events since rules ran: %v", ev)
	}
	if ev := heldOf(t, c).Events(); len(ev) != 6 || ev[0] != (Event{"acquired", "i1"}) || ev[1] != (Event{"equipped", "i1"}) {
		t.Errorf("rules never ran: every entry is new to them: %v", ev)
	}
	if cp, _ := json.Marshal(st.Clone()); string(cp) != string(want) {
		t.Errorf("a clone writes %s", cp)
	}
	if st.Clone().Rules.Moving["/heat"] = (Moving{}); st.Rules.Moving["/heat"].Rate != -0.25 {
		t.Error("a clone shares the moving values")
	}
}

// TestStoredRulesRefused: a rules part that does not read is refused with its path.
func TestStoredRulesRefused(t *testing.T) {
	for _, tc := range []struct{ data, path string }{
		{`{"rules":{"at":"yesterday"}}`, "rules.at"},
		{`{"rules":{"at":"2026-12-01T19:00:00Z","locals":{"heat":1e300}}}`, "rules.locals.heat"},
		{`{"rules":{"at":"2026-12-01T19:00:00Z","moving":{"/heat":{"rate":1,"until":-1e12}}}}`, "rules.moving"},
		{`{"rules":{"at":"2026-12-01T19:00:00Z","speed":1}}`, "rules.speed"},
		{`{"rules":{"at":"2026-12-01T19:00:00Z","seen":"all"}}`, "rules.seen"},
	} {
		_, ps := ParseStored([]byte(tc.data))
		if len(ps) == 0 || !strings.HasPrefix(ps[0].Path, tc.path) {
			t.Errorf("%s: %v, want a problem at %s", tc.data, ps, tc.path)
		}
	}
	many := `{"rules":{"at":"2026-12-01T19:00:00Z","seen":[` + strings.Repeat(`"k",`, 20000) + `"k"]}}`
	if _, ps := ParseStored([]byte(many)); len(ps) == 0 || ps[0].Kind != strictjson.Limit {
		t.Errorf("too many seen: %v", ps)
	}
}

// TestStoredNeedsRules: holdings need a run when an item of theirs has rules (its own
// or its template's), embeds its own, or rules ran on them before; a sword does not.
func TestStoredNeedsRules(t *testing.T) {
	c := campaign(t)
	sword := StoredEntry{UID: "i1", ID: "lr-sword", Qty: 1}
	for _, tc := range []struct {
		st   *Stored
		want bool
	}{
		{nil, false},
		{&Stored{Items: []StoredEntry{sword}}, false},
		{&Stored{Items: []StoredEntry{sword, {UID: "i2", ID: "lr-wand", Qty: 1}}}, true},
		{&Stored{Items: []StoredEntry{{UID: "i2", Item: map[string]any{"id": "x"}, Qty: 1}}}, true},
		{&Stored{Rules: &StoredRules{At: "2026-12-01T19:00:00Z"}}, true},
	} {
		if got := c.StoredNeedsRules(tc.st); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.st, got, tc.want)
		}
	}
}
