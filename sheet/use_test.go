package sheet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

const (
	arcanaPath = "testdata/use/arcana.json"
	emberPath  = "../../shared/reference/marinara/ember-roads.json"
)

// useRuleset parses a ruleset file and fails the test on any problem.
func useRuleset(t testing.TB, path string) *ruleset.Ruleset {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	rs, ps := ruleset.Parse(data)
	if len(ps) > 0 {
		t.Fatalf("%s: %v", path, ps)
	}
	return rs
}

// pickAll picks the named entries of catalog onto card, failing the test on a refusal.
func pickAll(t testing.TB, rs *ruleset.Ruleset, card *Card, catalog string, ids ...string) {
	t.Helper()
	look := inline(rs)
	for _, id := range ids {
		e, ok := look.Entry(catalog, id)
		if !ok {
			t.Fatalf("no entry %s/%s", catalog, id)
		}
		if out, _ := Pick(rs, card, catalog, e, look); !out.OK() {
			t.Fatalf("pick %s: %+v", id, out)
		}
	}
}

// caster is an arcana card with 4/3/2/1/1 slots of levels 1–5, 2 pact slots of level 3,
// 2 runes of each kind, 3 ki, and every spell picked.
func caster(t testing.TB, rs *ruleset.Ruleset) *Card {
	t.Helper()
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	c.Build.Fields = map[string]any{
		"slots_max_1": 4.0, "slots_max_2": 3.0, "slots_max_3": 2.0, "slots_max_4": 1.0, "slots_max_5": 1.0,
		"pact_slot_count": 2.0, "pact_slot_level": 3.0, "rune_count": 2.0, "ki_max": 3.0,
	}
	pickAll(t, rs, c, "spells", "fire-bolt", "magic-missile", "hold-person", "fireball", "mass-sleep", "banish",
		"cure", "ki-bolt", "focus-strike", "flurry")
	return c
}

// setPools stores pool values on a card directly (the way earlier play would have).
func setPools(c *Card, values map[string]int) {
	for k, v := range values {
		c.Live.Pools = put(c.Live.Pools, k, PoolValue{Value: v})
	}
}

func TestUseLastEmberFollowsHeart(t *testing.T) {
	rs := useRuleset(t, emberPath)
	for _, tc := range []struct {
		heart   float64
		uses    float64
		result  string
		now     string
		reason  refusal.Reason
		changes []string
	}{
		{heart: 3, uses: 3, result: "ok", now: "Grit 5/6; Last Ember 2/3",
			changes: []string{"live.pools.grit", "live.pools.tricks:last ember"}},
		{heart: 0, uses: 0, result: "refused", reason: refusal.Insufficient},
		{heart: -1, uses: 0, result: "refused", reason: refusal.Insufficient},
	} {
		c := NewCard("Ash", rs.ID, rs.Version, rs.Sheet.Version)
		c.Build.Abilities = map[string]float64{"heart": tc.heart}
		pickAll(t, rs, c, "knacks", "last-ember")
		rows := c.Build.Lists["tricks"]
		if len(rows) != 1 || rows[0]["uses"] != tc.uses || rows[0].Marker() != "knacks/last-ember" {
			t.Fatalf("heart %v: tricks rows %v, want one row with uses %v", tc.heart, rows, tc.uses)
		}
		before := c.Clone()
		out, changes := use(t, rs, c, inline(rs), "last ember", "")
		if string(out.Result) != tc.result || out.Now != tc.now || out.Reason != tc.reason {
			t.Errorf("heart %v: got %+v, want %s now=%q reason=%q", tc.heart, out, tc.result, tc.now, tc.reason)
		}
		var paths []string
		for _, ch := range changes {
			paths = append(paths, ch.Path)
		}
		if strings.Join(paths, ",") != strings.Join(tc.changes, ",") {
			t.Errorf("heart %v: changes %v, want %v", tc.heart, paths, tc.changes)
		}
		if !out.OK() {
			if !c.Equal(before) {
				t.Errorf("heart %v: a refused use changed the card", tc.heart)
			}
			if !strings.Contains(out.Detail, "Last Ember has no uses") {
				t.Errorf("heart %v: detail %q does not say what was short", tc.heart, out.Detail)
			}
		}
	}
}

func TestUsePayment(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	for _, tc := range []struct {
		name    string
		pools   map[string]int // stored before
		entry   string
		pool    string
		result  string
		now     string
		reason  refusal.Reason
		level   int
		targets int
	}{
		{name: "Fireball from its own 3rd-level slots", entry: "Fireball",
			result: "ok", now: "3rd-level slots 1/2", level: 3},
		{name: "Fireball upcast to 5th", entry: "fireball", pool: "5th-level slots",
			result: "ok", now: "5th-level slots 0/1", level: 5},
		{name: "upcast by pool id", entry: "Fireball", pool: "SLOTS_4",
			result: "ok", now: "4th-level slots 0/1", level: 4},
		{name: "a lower pool of the group never pays: no Fireball from a 1st-level slot", entry: "Fireball",
			pool: "1st-level slots", result: "refused", reason: refusal.BadPool},
		{name: "1st-level spell with empty 1st-level slots never climbs", pools: map[string]int{"slots_1": 0},
			entry: "Magic Missile", result: "refused", reason: refusal.Insufficient},
		{name: "empty own pool, upcast named", pools: map[string]int{"slots_1": 0},
			entry: "Magic Missile", pool: "2nd-level slots", result: "ok", now: "2nd-level slots 2/3", level: 2, targets: 3},
		{name: "pact slot of level 3 pays a 1st-level cost at level 3", entry: "Magic Missile", pool: "Pact slots",
			result: "ok", now: "Pact slots 1/2", level: 3, targets: 3},
		{name: "pact slot of level 3 refuses a 4th-level cost", entry: "Banish", pool: "pact_slots",
			result: "refused", reason: refusal.BadPool},
		{name: "pact slot pays at its own level even for a 3rd-level cost", entry: "Fireball", pool: "pact slots",
			result: "ok", now: "Pact slots 1/2", level: 3},
		{name: "empty pact slots are short, not bad", pools: map[string]int{"pact_slots": 0},
			entry: "Magic Missile", pool: "Pact slots", result: "refused", reason: refusal.Insufficient},
		{name: "pays by place in its group", entry: "Magic Missile", pool: "High runes",
			result: "ok", now: "High runes 1/2", level: 2, targets: 3},
		{name: "pays by place never above its level", entry: "Fireball", pool: "High runes",
			result: "refused", reason: refusal.BadPool},
		{name: "a pool of another group that does not pay", entry: "Magic Missile", pool: "Low runes",
			result: "refused", reason: refusal.BadPool},
		{name: "upcast of a two-term cost", entry: "Ki Bolt", pool: "2nd-level slots",
			result: "refused", reason: refusal.BadPool},
		{name: "upcast of a cost in no group", entry: "Flurry", pool: "1st-level slots",
			result: "refused", reason: refusal.BadPool},
		{name: "upcast naming no pool", entry: "Fireball", pool: "9th-level slots",
			result: "refused", reason: refusal.BadPool},
		{name: "the cost's own pool named", entry: "Flurry", pool: "Ki", result: "ok", now: "Ki 2/3"},
		{name: "Hold Person upcast twice reaches 3 targets", entry: "Hold Person", pool: "4th-level slots",
			result: "ok", now: "4th-level slots 0/1", level: 4, targets: 3},
		{name: "Hold Person at its own level", entry: "Hold Person",
			result: "ok", now: "2nd-level slots 2/3", level: 2, targets: 1},
		{name: "targets capped at 20", entry: "Mass Sleep", pool: "3rd-level slots",
			result: "ok", now: "3rd-level slots 1/2", level: 3, targets: 20},
		{name: "targets without upcast", entry: "Mass Sleep", result: "ok", now: "1st-level slots 3/4", level: 1, targets: 12},
		{name: "group cost takes the first pool that can afford it", pools: map[string]int{"focus_red": 1},
			entry: "Focus Strike", result: "ok", now: "Blue focus 1/3", level: 1},
		{name: "group cost from its first pool", entry: "Focus Strike", result: "ok", now: "Red focus 1/3", level: 1},
		{name: "group cost nobody can afford", pools: map[string]int{"focus_red": 1, "focus_blue": 1},
			entry: "Focus Strike", result: "refused", reason: refusal.Insufficient},
		{name: "group cost of slots skips an empty first pool", pools: map[string]int{"slots_1": 0},
			entry: "Cure", result: "ok", now: "2nd-level slots 2/3", level: 1},
		{name: "two terms all or nothing", pools: map[string]int{"ki": 1},
			entry: "Ki Bolt", result: "refused", reason: refusal.Insufficient},
		{name: "two terms paid", entry: "Ki Bolt", result: "ok", now: "1st-level slots 3/4; Ki 1/3"},
		{name: "a free entry", entry: "Fire Bolt", result: "ok", now: "no cost"},
		{name: "a free entry with pool= is still one term short", entry: "Fire Bolt", pool: "Ki",
			result: "refused", reason: refusal.BadPool},
		{name: "unknown entry", entry: "Wish", result: "refused", reason: refusal.UnknownEntry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := caster(t, rs)
			setPools(c, tc.pools)
			before := c.Clone()
			out, changes := use(t, rs, c, inline(rs), tc.entry, tc.pool)
			if string(out.Result) != tc.result || out.Now != tc.now || out.Reason != tc.reason ||
				out.Level != tc.level || out.Targets != tc.targets {
				t.Fatalf("got %+v\nwant %s now=%q reason=%q level=%d targets=%d", out, tc.result, tc.now, tc.reason, tc.level, tc.targets)
			}
			if !out.OK() || tc.now == "no cost" {
				if len(changes) != 0 || !c.Equal(before) {
					t.Fatalf("a use that paid nothing changed the card: %v", changes)
				}
				return
			}
			if len(changes) == 0 {
				t.Fatal("a paid use reported no change")
			}
			Revert(c, changes)
			if !c.Equal(before) {
				t.Fatal("reverting the use did not restore the card")
			}
		})
	}
}

func TestUseShortfallSaysWhat(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	c := caster(t, rs)
	setPools(c, map[string]int{"slots_1": 0, "ki": 1})
	out, _ := use(t, rs, c, inline(rs), "Ki Bolt", "")
	want := "not enough: 1st-level slots has 0 of 1; Ki has 1 of 2"
	if out.Reason != refusal.Insufficient || out.Detail != want {
		t.Fatalf("got %+v, want detail %q", out, want)
	}
}

func TestUseCounterAndCostTogether(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	c := caster(t, rs)
	c.Build.Abilities = map[string]float64{"heart": 2}
	pickAll(t, rs, c, "features", "last-ember")
	out, changes := use(t, rs, c, inline(rs), "Last Ember", "")
	if !out.OK() || out.Now != "Hit points 19/20; Last Ember 1/2" {
		t.Fatalf("got %+v", out)
	}
	want := []Change{
		{Card: "Mira", Path: "live.pools.counters:last ember", After: map[string]any{"value": 1.0}},
		{Card: "Mira", Path: "live.pools.hp", After: map[string]any{"value": 19.0}},
	}
	if len(changes) != len(want) {
		t.Fatalf("changes %+v", changes)
	}
	for i := range want {
		if changes[i].Path != want[i].Path || changes[i].Before != nil || !sameValue(changes[i].After, want[i].After) {
			t.Errorf("change %d = %+v, want %+v", i, changes[i], want[i])
		}
	}
	// The counter runs out before the hit points do.
	use(t, rs, c, inline(rs), "Last Ember", "")
	out, _ = use(t, rs, c, inline(rs), "Last Ember", "")
	if out.Reason != refusal.Insufficient || out.Detail != "not enough: Last Ember has 0 of 1" {
		t.Fatalf("third use: %+v", out)
	}
}

func TestFindEntryNames(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	c := caster(t, rs)
	look := inline(rs)
	spells := c.Build.Lists["spells"]
	spells[3]["name"] = "Big Boom" // Fireball renamed by the player
	for _, tc := range []struct {
		name, marker string
		reason       refusal.Reason
	}{
		{name: "big  boom", marker: "spells/fireball"},
		{name: "FIREBALL", marker: "spells/fireball"},
		{name: "  magic missile ", marker: "spells/magic-missile"},
		{name: "nothing", reason: refusal.UnknownEntry},
		{name: "", reason: refusal.UnknownEntry},
	} {
		f, err := FindEntry(rs, c, look, tc.name)
		if refusal.Of(err) != tc.reason || f.Marker != tc.marker {
			t.Errorf("%q: got %q %v, want %q %q", tc.name, f.Marker, err, tc.marker, tc.reason)
		}
	}
	spells[1]["name"] = "Fireball" // Magic Missile renamed to what Fireball's entry is called
	if _, err := FindEntry(rs, c, look, "fireball"); refusal.Of(err) != refusal.AmbiguousEntry {
		t.Errorf("two entries answering: %v", err)
	}
	// A row without a marker never answers; an entry the lookup cannot find is unknown.
	plain := NewCard("Bram", rs.ID, rs.Version, rs.Sheet.Version)
	plain.Build.Lists = map[string][]Row{"spells": {{"name": "Fireball"}}}
	if _, err := FindEntry(rs, plain, look, "Fireball"); refusal.Of(err) != refusal.UnknownEntry {
		t.Errorf("unmarked row: %v", err)
	}
	none := entriesFunc(func(string, string) (*ruleset.Entry, bool) { return nil, false })
	if _, err := FindEntry(rs, caster(t, rs), none, "Fireball"); refusal.Of(err) != refusal.UnknownEntry {
		t.Errorf("catalog not available: %v", err)
	}
}

func TestUseThroughApply(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	c := caster(t, rs)
	msg := parser.Read(`[sheet: who="mira" op="cast" spell="Hold Person" pool="4th-level slots"]`)
	if len(msg.Tags) != 1 {
		t.Fatalf("tags %+v", msg.Tags)
	}
	res := Apply(rs, []*Card{c}, msg.Tags[0], Options{Catalogs: inline(rs)})
	if !res.Outcome.OK() || res.Outcome.Now != "4th-level slots 0/1" || res.Outcome.Level != 4 || res.Outcome.Targets != 3 {
		t.Fatalf("outcome %+v", res.Outcome)
	}
	ch := res.Changes()
	if len(ch) != 1 || ch[0].Path != "live.pools.slots_4" || ch[0].Before != nil || !sameValue(ch[0].After, map[string]any{"value": 0.0}) {
		t.Fatalf("changes %+v", ch)
	}
	res = Apply(rs, []*Card{c}, msg.Tags[0], Options{Catalogs: inline(rs)})
	if res.Outcome.Reason != refusal.Insufficient || len(res.Changes()) != 0 {
		t.Fatalf("second cast: %+v", res)
	}
}

func TestOfferedPools(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	look := inline(rs)
	c := caster(t, rs)
	setPools(c, map[string]int{"slots_1": 0})
	keys := func(entry string) string {
		e, _ := look.Entry("spells", entry)
		var ks []string
		for _, o := range OfferedPools(rs, c, e) {
			k := o.Key
			if o.Own {
				k += "*"
			}
			if o.Pays {
				k += "+"
			}
			ks = append(ks, k)
		}
		return strings.Join(ks, " ")
	}
	for entry, want := range map[string]string{
		"magic-missile": "slots_1* slots_2 slots_3 slots_4 slots_5 pact_slots+ rune_high+",
		"fireball":      "slots_3* slots_4 slots_5 pact_slots+",
		"banish":        "slots_4* slots_5",
		"flurry":        "ki*",
		"ki-bolt":       "",
		"fire-bolt":     "",
	} {
		if got := keys(entry); got != want {
			t.Errorf("%s: offered %q, want %q", entry, got, want)
		}
	}
	// The own pool is offered even when empty, with where it stands.
	e, _ := look.Entry("spells", "magic-missile")
	if o := OfferedPools(rs, c, e)[0]; o.Value != 0 || o.Max != 4 || o.Level != 1 {
		t.Errorf("own pool offer %+v", o)
	}
	// A pool the card does not have is not offered.
	c.Build.Fields["slots_max_5"] = 0.0
	if got := keys("banish"); got != "slots_4*" {
		t.Errorf("banish without 5th-level slots: %q", got)
	}
}

// TestUseRefusedLeavesCardIdentical: whatever the pools hold and whatever is asked, a
// refused use changes nothing, and a paid one never takes a pool below 0.
func TestUseRefusedLeavesCardIdentical(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	look := inline(rs)
	base := caster(t, rs)
	base.Build.Abilities = map[string]float64{"heart": 1}
	pickAll(t, rs, base, "features", "last-ember", "twin-marks")
	names := []string{"Fire Bolt", "Magic Missile", "Hold Person", "Fireball", "Mass Sleep", "Banish", "Cure",
		"Ki Bolt", "Focus Strike", "Flurry", "Last Ember", "Twin Marks", "Left Mark", "nothing"}
	pools := []string{"", "", "1st-level slots", "slots_2", "3rd-level slots", "slots_5", "Pact slots", "High runes",
		"Low runes", "Ki", "Red focus", "bogus"}
	keys := []string{"slots_1", "slots_2", "slots_3", "slots_4", "slots_5", "pact_slots", "rune_low", "rune_high",
		"ki", "focus_red", "focus_blue", "hp", "counters:last ember", "counters:left mark"}
	rapid.Check(t, func(rt *rapid.T) {
		c := base.Clone()
		for _, k := range keys {
			if rapid.Bool().Draw(rt, "set "+k) {
				c.Live.Pools = put(c.Live.Pools, k, PoolValue{Value: rapid.IntRange(0, 4).Draw(rt, k)})
			}
		}
		c.Build.Fields["slots_max_3"] = float64(rapid.IntRange(0, 3).Draw(rt, "slots_max_3"))
		before := c.Clone()
		for range rapid.IntRange(1, 4).Draw(rt, "uses") {
			name := rapid.SampledFrom(names).Draw(rt, "name")
			pool := rapid.SampledFrom(pools).Draw(rt, "pool")
			out, changes := use(t, rs, c, look, name, pool)
			if !out.OK() {
				if len(changes) != 0 || !c.Equal(before) {
					rt.Fatalf("refused %s pool=%q (%s) changed the card", name, pool, out.Reason)
				}
				continue
			}
			for _, p := range Evaluate(rs, c, nil).Live.Pools {
				if p.Value < 0 || p.Value > p.Max {
					rt.Fatalf("%s pool=%q left %s at %d/%d", name, pool, p.Key, p.Value, p.Max)
				}
			}
			for _, p := range c.Live.Pools {
				if p.Value < 0 {
					rt.Fatalf("stored a negative pool: %+v", c.Live.Pools)
				}
			}
			before = c.Clone()
		}
	})
}

func BenchmarkUseUpcast(b *testing.B) {
	rs := useRuleset(b, arcanaPath)
	look := inline(rs)
	base := caster(b, rs)
	req := tag(b, `[sheet: op="use" name="Hold Person" pool="4th-level slots"]`)
	opts := Options{Default: base.Name, Catalogs: look}
	b.ReportAllocs()
	for b.Loop() {
		c := base.Clone()
		if out := Apply(rs, []*Card{c}, req, opts).Outcome; !out.OK() {
			b.Fatal(out)
		}
	}
}

// The official 5e package: its spells live in a standalone catalog file, loaded the way
// the picker loads it, and Fireball is paid from 3rd-level slots or upcast to 5th.
func TestUseFireball5e(t *testing.T) {
	rs := useRuleset(t, "../../shared/reference/marinara/5e-2014/ruleset.json")
	data, err := os.ReadFile("../../shared/reference/marinara/5e-2014/catalogs/spells.json")
	if err != nil {
		t.Fatal(err)
	}
	spells, ps := ruleset.CheckCatalogFile(rs, "spells", data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	look := entriesFunc(func(cat, id string) (*ruleset.Entry, bool) {
		for i := range spells {
			if cat == "spells" && spells[i].ID == id {
				return &spells[i], true
			}
		}
		return nil, false
	})
	c := NewCard("Mira", rs.ID, rs.Version, rs.Sheet.Version)
	c.Build.Fields = map[string]any{"spellcasting_ability": "int", "slots_max_1": 4.0, "slots_max_3": 3.0, "slots_max_5": 1.0}
	for _, id := range []string{"fireball", "magic-missile"} {
		e, _ := look.Entry("spells", id)
		if out, _ := Pick(rs, c, "spells", e, look); !out.OK() {
			t.Fatal(out)
		}
	}
	for _, tc := range []struct{ entry, pool, now string }{
		{"Fireball", "", "3rd-level slots 2/3"},
		{"Fireball", "5th-level slots", "5th-level slots 0/1"},
		{"Magic Missile", "", "1st-level slots 3/4"},
	} {
		out, _ := use(t, rs, c, look, tc.entry, tc.pool)
		if !out.OK() || out.Now != tc.now {
			t.Errorf("%s pool=%q: %+v, want now %q", tc.entry, tc.pool, out, tc.now)
		}
	}
	c.Live.Pools["slots_1"] = PoolValue{Value: 0}
	if out, _ := use(t, rs, c, look, "magic missile", ""); out.Reason != refusal.Insufficient {
		t.Errorf("1st-level slots empty: %+v", out)
	}
	// Pact slots are another group and do not pay for slots in this file.
	if out, _ := use(t, rs, c, look, "magic missile", "Pact Magic slots"); out.Reason != refusal.BadPool {
		t.Errorf("pact slots without pays: %+v", out)
	}
}

// An insufficient use names the pools that could pay instead, lowest level first, and how
// to ask; a short counter or a cost of two terms names none; the write-back reads the
// reason alone.
func TestUseShortfallNamesWhoCouldPay(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	for _, c := range []struct {
		name, pool string
		pools      map[string]int
		want       string
	}{
		{"Magic Missile", "", map[string]int{"slots_1": 0, "slots_3": 0, "rune_high": 0},
			`not enough: 1st-level slots has 0 of 1; 2nd-level slots, Pact slots or 4th-level slots can pay: add pool="2nd-level slots"`},
		{"Magic Missile", "slots_2", map[string]int{"slots_2": 0, "slots_3": 0, "slots_4": 0, "slots_5": 0, "pact_slots": 0, "rune_high": 0},
			`not enough: 2nd-level slots has 0 of 1; 1st-level slots can pay: add pool="1st-level slots"`},
		{"Magic Missile", "", map[string]int{"slots_1": 0, "slots_2": 0, "slots_3": 0, "slots_4": 0, "slots_5": 0, "pact_slots": 0, "rune_high": 0},
			`not enough: 1st-level slots has 0 of 1`},
		{"Ki Bolt", "", map[string]int{"slots_1": 0, "ki": 1}, "not enough: 1st-level slots has 0 of 1; Ki has 1 of 2"},
	} {
		card := caster(t, rs)
		setPools(card, c.pools)
		out, changes := use(t, rs, card, inline(rs), c.name, c.pool)
		if out.Reason != refusal.Insufficient || out.Detail != c.want || len(changes) != 0 {
			t.Errorf("%s pool=%q: got %+v, want detail %q", c.name, c.pool, out, c.want)
		}
	}
}

// An unknown name's words suggest the closest; its reason, all a write-back reads, is
// the one it always was.
func TestUnknownNamesSuggest(t *testing.T) {
	rs := useRuleset(t, arcanaPath)
	card := caster(t, rs)
	for text, want := range map[string]struct {
		reason refusal.Reason
		detail string
	}{
		`[sheet: op="spend" pool="Hit pionts" amount="1"]`:    {refusal.UnknownPool, `no pool "Hit pionts" on this sheet — did you mean Hit points?`},
		`[sheet: op="use" name="Magic Misile"]`:               {refusal.UnknownEntry, `nothing on Mira's sheet is called "Magic Misile" — did you mean Magic Missile?`},
		`[sheet: who="Mria" op="spend" pool="hp" amount="1"]`: {refusal.UnknownCharacter, `no character is called "Mria" — did you mean Mira?`},
		`[sheet: op="spend" pool="zzz" amount="1"]`:           {refusal.UnknownPool, `no pool "zzz" on this sheet`},
	} {
		out := Apply(rs, []*Card{card}, tag(t, text), Options{Default: card.Name, Catalogs: inline(rs)}).Outcome
		if out.Reason != want.reason || out.Detail != want.detail {
			t.Errorf("%s: got %s %q, want %s %q", text, out.Reason, out.Detail, want.reason, want.detail)
		}
	}
}
