package ruleset

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

const coreCorpus = "../../shared/reference/marinara/"

// TestCoreCorpus parses every ruleset of the compatibility coreCorpus: each must load with
// no problem.
func TestCoreCorpus(t *testing.T) {
	for _, name := range []string{"ember-roads.json", "gravewatch.json", "ruleset-5e-2014.example.json", "5e-2014/ruleset.json"} {
		data, err := os.ReadFile(coreCorpus + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ps := Parse(data); len(ps) > 0 {
			t.Errorf("%s:\n%v", name, ps)
		}
	}
}

func loadCoreSmall(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/core/small.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// coreAt walks a dotted path with [i] indexes ("sheet.fields[1].values") and returns the
// container holding the last step and the step itself.
func coreAt(t *testing.T, doc any, path string) (parent any, key string, index int) {
	t.Helper()
	steps := strings.Split(strings.ReplaceAll(path, "[", ".["), ".")
	cur := doc
	for i, s := range steps {
		last := i == len(steps)-1
		var next any
		idx := -1
		if strings.HasPrefix(s, "[") {
			idx = atoi(t, strings.Trim(s, "[]"))
			if last {
				return cur, "", idx
			}
			next = cur.([]any)[idx]
		} else {
			if last {
				return cur, s, -1
			}
			next = cur.(map[string]any)[s]
		}
		if next == nil {
			t.Fatalf("no %s in %s", s, path)
		}
		cur = next
	}
	return nil, "", -1
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("bad index %q", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// coreSet sets path to v; coreDel removes it.
func coreSet(path string, v any) func(*testing.T, map[string]any) {
	return func(t *testing.T, doc map[string]any) {
		parent, key, idx := coreAt(t, doc, path)
		if idx >= 0 {
			parent.([]any)[idx] = v
			return
		}
		parent.(map[string]any)[key] = v
	}
}

func coreDel(path string) func(*testing.T, map[string]any) {
	return func(t *testing.T, doc map[string]any) {
		parent, key, _ := coreAt(t, doc, path)
		delete(parent.(map[string]any), key)
	}
}

func TestCoreSmallIsValid(t *testing.T) {
	data, _ := json.Marshal(loadCoreSmall(t))
	rs, ps := Parse(data)
	if len(ps) > 0 {
		t.Fatalf("small.json: %v", ps)
	}
	var got []string
	for _, f := range rs.Features() {
		got = append(got, f.Name+"@"+f.Path)
	}
	want := []string{"live pool level@sheet.live.pools[3].level", "live pool pays@sheet.live.pools[3].pays",
		"gm.worldGuidance@gm.worldGuidance", "sheet advancement@sheet.advancement", "layers@layers"}
	if !slices.Equal(got, want) {
		t.Errorf("features %v, want %v", got, want)
	}
	if rs.Sheet.Derived[0].Steps.Lookup(6) != 3 || rs.Sheet.Derived[1].EnumTable["blade"] != 2 {
		t.Errorf("derived unions not decoded: %+v", rs.Sheet.Derived[:2])
	}
	if tr := rs.Sheet.Live.Tracks[0]; tr.MaxNumber == nil || *tr.MaxNumber != 6 {
		t.Errorf("track max not decoded: %+v", tr)
	}
}

// TestCoreBroken breaks one thing per case and expects exactly the problems listed.
func TestCoreBroken(t *testing.T) {
	cases := []struct {
		name string
		edit func(*testing.T, map[string]any)
		want []string
	}{
		{"schema version", coreSet("schemaVersion", 2), []string{"schemaVersion: schemaVersion must be 1, got 2"}},
		{"reserved id", coreSet("id", "traditional"), []string{`id: "traditional" is a ruleset id the engine keeps for itself`}},
		{"id pattern", coreSet("id", "Small--x"), []string{`id: ruleset id "Small--x" must be lowercase letters and digits joined by single hyphens`}},
		{"unknown key", coreSet("sheet.colour", "red"), []string{"sheet.colour: unknown key"}},
		{"label brackets", coreSet("sheet.fields[0].label", "Level [x]"), []string{"sheet.fields[0] (level).label: must not contain square brackets"}},
		{"label line break", coreSet("name", "a\nb"), []string{"name: must not contain line breaks"}},
		{"macro braces", coreSet("gm.checkGuidance", "Use {{char}}"), []string{"gm.checkGuidance: must not contain macro braces"}},
		{"sheet id pattern", coreSet("sheet.fields[0].id", "Level"), []string{
			// everything that named "level" now points at nothing
			`gm.sheetSummary.fields[0]: unknown field "level"`,
			`sheet.advancement.fields[0]: unknown field "level"`,
			`sheet.derived[0] (prof).from.field: unknown field "level"`,
			`sheet.derived[2] (hp_max).of[0].field: unknown field "level"`,
			`sheet.fields[0] (Level).id: id "Level" must be lowercase letters, digits and underscores, starting with a letter`,
			`sheet.live.pools[3] (pact).level.field: unknown field "level"`,
		}},
		{"duplicate field", coreSet("sheet.fields[2].id", "level"), []string{
			`sheet.advancement.fields[1]: unknown field "notes"`,
			`sheet.fields[2] (level).id: duplicate field id "level"`,
		}},
		{"key of another type", coreSet("sheet.fields[0].maxLength", 5), []string{"sheet.fields[0] (level).maxLength: unknown key for a number field"}},
		{"number needs min", coreDel("sheet.fields[0].min"), []string{"sheet.fields[0] (level).min: required"}},
		{"default out of range", coreSet("sheet.fields[0].default", 30), []string{"sheet.fields[0] (level).default: default 30 is outside 1..20"}},
		{"enum default", coreSet("sheet.fields[1].default", "axe"), []string{
			// the layer keeps the field's default, which it can no longer see among the values
			`layers[0] (grim).fields[0] (path).removeValues: removing "axe" takes the default of "path" away; name a new default`,
			`sheet.fields[1] (path).default: default "axe" is not one of the values`,
		}},
		{"hideWhen value", coreSet("sheet.fields[3].hideWhen.equals", "axe"), []string{`sheet.fields[3] (focus).hideWhen.equals: field "path" has no value "axe"`}},
		{"hideWhen two comparisons", coreSet("sheet.fields[3].hideWhen.notEquals", "blade"), []string{"sheet.fields[3] (focus).hideWhen: hideWhen names exactly one of: equals, notEquals, in"}},
		{"column on field", coreSet("sheet.fields[0].required", true), []string{"sheet.fields[0] (level).required: unknown key for a number field"}},
		{"section on column", coreSet("sheet.lists[0].columns[0].section", "core"), []string{"sheet.lists[0] (tricks).columns[0] (name).section: unknown key for a text column"}},
		{"unknown section", coreSet("sheet.abilities[0].section", "mind"), []string{`sheet.abilities[0] (str).section: unknown section "mind"`}},
		{"ability default", coreSet("sheet.abilities[0].default", 0), []string{"sheet.abilities[0] (str).default: default 0 is outside 1..20"}},
		{"skill ability", coreSet("sheet.skills[0].ability", "dex"), []string{`sheet.skills[0] (climb).ability: unknown ability "dex"`}},
		{"save shares skill id", coreSet("sheet.saves[0].id", "climb"), []string{`sheet.saves[0] (climb).id: "climb" is already a skill id`}},
		{"harder on a sum", coreSet("sheet.skills[0].untrained", "harder"), []string{`sheet.skills[0] (climb).untrained: a dice-sum ruleset has no per-die target, so "harder" cannot change a roll`}},
		{"untrained word", coreSet("sheet.skills[0].untrained", "lazy"), []string{`sheet.skills[0] (climb).untrained: "lazy" is not one of: normal, harder, refuse`}},
		{"derived below", coreSet("sheet.derived[2].of[1]", map[string]any{"derived": "tricks_left"}), []string{`sheet.derived[2] (hp_max).of[1].derived: derived value "tricks_left" must be declared above the value that reads it`}},
		{"unknown derived", coreSet("sheet.derived[2].of[1]", map[string]any{"derived": "x"}), []string{`sheet.derived[2] (hp_max).of[1].derived: unknown derived value "x"`}},
		{"two keys", coreSet("sheet.derived[2].of[1].const", 1), []string{"sheet.derived[2] (hp_max).of[1]: a value reference names exactly one of: " + refKeys}},
		{"read without liveTrack", coreSet("sheet.derived[2].of[0].read", "value"), []string{"sheet.derived[2] (hp_max).of[0].read: read goes only beside liveTrack"}},
		{"min of one", coreSet("sheet.derived[3].op", "min"), []string{"sheet.derived[3] (tricks_left).of: has 1 item, at least 2 needed"}},
		{"op key", coreSet("sheet.derived[2].multiplier", 2), []string{`sheet.derived[2] (hp_max).multiplier: unknown key for op "sum"`}},
		{"step table order", coreSet("sheet.derived[0].table", []any{[]any{5, 2}, []any{1, 3}}), []string{"sheet.derived[0] (prof).table[1][0]: thresholds must be strictly ascending"}},
		{"enum table value", coreSet("sheet.derived[1].table.axe", 1), []string{`sheet.derived[1] (grace).table.axe: "axe" is not one of the values of "path"`}},
		{"enum table two sources", coreSet("sheet.derived[1].from.liveState", "stance"), []string{
			"sheet.derived[1] (grace).from: an enum table reads exactly one of: field, liveState",
			// naming a live state at all makes the table a live read
			`sheet.live.pools[0] (hp).max.derived: derived value "hp_max" reads the live state, which this value cannot`,
		}},
		{"listSum column", coreSet("sheet.derived[3].of[0].listSum.column", "usess"), []string{`sheet.derived[3] (tricks_left).of[0].listSum.column: list "tricks" has no column "usess"`}},
		{"listSum not number", coreSet("sheet.derived[3].of[0].listSum.column", "name"), []string{`sheet.derived[3] (tricks_left).of[0].listSum.column: column "name" of list "tricks" is a text column, not number`}},
		{"pool max reads live", coreSet("sheet.live.pools[0].max", map[string]any{"livePool": "slot_1"}), []string{"sheet.live.pools[0] (hp).max.livePool: this value is worked out without the live state, so it cannot read a live pool"}},
		{"pool max reads live derived", coreSet("sheet.derived[1].from", map[string]any{"liveState": "stance"}), []string{
			`sheet.derived[1] (grace).table.blade: "blade" is not one of the values of "stance"`,
			`sheet.live.pools[0] (hp).max.derived: derived value "hp_max" reads the live state, which this value cannot`,
		}},
		{"bonus reads skill", coreSet("sheet.derived[0].from", map[string]any{"skillMod": "climb"}), []string{
			`sheet.derived[0] (prof): "prof" feeds the proficiency bonus and cannot read a skill or save modifier`,
		}},
		{"itemStat without items", coreSet("sheet.derived[3].of[0]", map[string]any{"itemStat": map[string]any{"from": "worn", "pick": "count"}}), []string{
			"sheet.derived[3] (tricks_left).of[0].itemStat: this ruleset has no items block, so there are no items to read",
		}},
		{"list pools name column", coreSet("sheet.lists[0].pools.nameColumn", "uses"), []string{`sheet.lists[0] (tricks).pools.nameColumn: must name a text column; "uses" is a number column`}},
		{"pays own group", coreSet("sheet.live.pools[3].pays", []any{"pact"}), []string{`sheet.live.pools[3] (pact).pays[0]: "pact" is the pool's own group; pays names other groups`}},
		{"pays unknown group", coreSet("sheet.live.pools[3].pays", []any{"slots", "ki"}), []string{`sheet.live.pools[3] (pact).pays[1]: no pool declares the group "ki"`}},
		{"pays too many", coreSet("sheet.live.pools[2].pays", []any{"pact", "pact", "pact", "pact", "pact"}), []string{
			"sheet.live.pools[2] (slot_2).pays: has 5 items, at most 4 allowed",
			`sheet.live.pools[2] (slot_2).pays[1]: group "pact" is listed twice`,
			`sheet.live.pools[2] (slot_2).pays[2]: group "pact" is listed twice`,
			`sheet.live.pools[2] (slot_2).pays[3]: group "pact" is listed twice`,
			`sheet.live.pools[2] (slot_2).pays[4]: group "pact" is listed twice`,
		}},
		{"pays without level", func(t *testing.T, d map[string]any) {
			coreDel("sheet.live.pools[3].level")(t, d)
			coreDel("sheet.live.pools[3].group")(t, d)
		}, []string{
			"sheet.live.pools[3] (pact).pays: a pool that pays for other groups needs a level or a group to give it one",
		}},
		{"pool id is a track", coreSet("sheet.live.pools[0].id", "fatigue"), []string{
			`rests[0] (long).restore[0].pool: unknown pool "hp"`,
			`sheet.live.pools[0] (fatigue).id: "fatigue" is already a track id`,
		}},
		{"wound max", coreSet("sheet.live.tracks[1].max", 3), []string{"sheet.live.tracks[1] (wounds).max: a wound track holds one mark per level, so its max is 2"}},
		{"wound levels order", coreSet("sheet.live.tracks[1].levels[1].penalty", 0), []string{}},
		{"wound kinder", coreSet("sheet.live.tracks[1].levels[0].penalty", -3), []string{"sheet.live.tracks[1] (wounds).levels[1].penalty: a wound track's levels run best first, so a level is never kinder than the one above it"}},
		{"kinds on plain", coreSet("sheet.live.tracks[0].kinds", []any{map[string]any{"id": "a", "label": "A", "severity": 1}}), []string{"sheet.live.tracks[0] (fatigue).kinds: kinds needs levels or boxes beside it: there is nothing to mark"}},
		{"severity twice", coreSet("sheet.live.tracks[1].kinds[1].severity", 1), []string{"sheet.live.tracks[1] (wounds).kinds[1] (cut).severity: duplicate severity 1"}},
		{"penalty from plain", coreSet("resolution.penaltyFrom", "fatigue"), []string{`resolution.penaltyFrom: "fatigue" has no levels or boxes, so it carries no penalty to apply`}},
		{"penalty read on plain", coreSet("resolution.adjust[0].value.liveTrack", "fatigue"), []string{`resolution.adjust[0].value.read: track "fatigue" is not a wound track, so it has no penalty to read`}},
		{"state quote", coreSet("sheet.live.states[0].values[1]", `fi"erce`), []string{`sheet.live.states[0] (stance).values[1]: a state's value cannot contain a double quote: the sheet command quotes it`}},
		{"state default", coreSet("sheet.live.states[0].default", "sleepy"), []string{`sheet.live.states[0] (stance).default: default "sleepy" is not one of the values`}},
		{"advancement empty", coreSet("sheet.advancement", map[string]any{"abilities": false}), []string{"sheet.advancement: advancement permits nothing: name fields or allow abilities, skills or saves"}},
		{"advancement field type", coreSet("sheet.advancement.fields", []any{"path", "nope"}), []string{
			`sheet.advancement.fields[0]: field "path" is a enum field; advancement changes number, text and longtext fields`,
			`sheet.advancement.fields[1]: unknown field "nope"`,
		}},
		{"advancement key", coreSet("sheet.advancement.xp", true), []string{"sheet.advancement.xp: unknown key"}},
		{"advancement wrong type", coreSet("sheet.advancement.skills", "yes"), []string{"sheet.advancement.skills: expected a boolean, got a string"}},
		{"advancement text", coreSet("sheet.advancement.text", strings.Repeat("x", 401)), []string{"sheet.advancement.text: is 401 characters long, at most 400 allowed"}},
		{"ladder dc", coreSet("resolution.difficultyLadder[0]", map[string]any{"label": "Easy", "successes": 2}), []string{
			"resolution.difficultyLadder[0]: this ruleset sums dice, so a ladder step names \"dc\"",
			"resolution.difficultyLadder[0].successes: unknown key for a dice-sum ladder step",
		}},
		{"pool key on sum", coreSet("resolution.die", map[string]any{"sides": 6}), []string{"resolution.die: unknown key for a dice-sum resolution"}},
		{"multiplier without bonus", coreDel("resolution.proficiency"), []string{"resolution.proficiencyTiers[1] (trained).multiplier: a multiplier needs resolution.proficiency.bonus to multiply; use flat for a fixed bonus"}},
		{"rest two targets", coreSet("rests[0].restore[0].track", "fatigue"), []string{"rests[0] (long).restore[0]: a restore step names exactly one of: pool, poolGroup, listPools, track, state"}},
		{"rest to and by", coreSet("rests[0].restore[0].by", map[string]any{"const": 1}), []string{`rests[0] (long).restore[0]: a restore step has exactly one of "to" or "by"`}},
		{"rest group", coreSet("rests[0].restore[1].poolGroup", "ki"), []string{`rests[0] (long).restore[1].poolGroup: no pool declares the group "ki"`}},
		{"rest recharge value", coreSet("rests[0].restore[2].recharge", []any{"dawn"}), []string{`rests[0] (long).restore[2].recharge[0]: "dawn" is not one of the values of "recharge"`}},
		{"rest kind", coreSet("rests[0].restore[3].kind", "fire"), []string{`rests[0] (long).restore[3].kind: "wounds" declares no kind "fire"`}},
		{"rest state to", coreSet("rests[0].restore[5].to", "sleepy"), []string{`rests[0] (long).restore[5].to: "sleepy" is not "default" or one of the values of "stance"`}},
		{"rest word to", coreSet("rests[0].restore[0].to", "full"), []string{`rests[0] (long).restore[0].to: "to" is "max", "min" or a number`}},
		{"rest fraction", coreSet("rests[0].restore[4].by.fractionOfMax", 1.5), []string{"rests[0] (long).restore[4].by.fractionOfMax: 1.5 is out of range: above 0, at most 1"}},
		{"rest clear", coreSet("rests[0].clear.conditions", []any{"prone", "dazed"}), []string{`rests[0] (long).clear.conditions[1]: unknown condition "dazed"`}},
		{"summary name column", coreSet("gm.sheetSummary.lists[0].nameColumn", "uses"), []string{`gm.sheetSummary.lists[0].nameColumn: must name a text or enum column; "uses" is a number column`}},
		{"layer conflict", coreSet("layers[0].conflicts", []any{"grim", "dark"}), []string{
			"layers[0] (grim).conflicts[0]: a layer cannot conflict with itself",
			`layers[0] (grim).conflicts[1]: unknown layer "dark"`,
		}},
		{"layer removes watched value", coreSet("layers[0].fields[0].removeValues", []any{"none"}), []string{
			`layers[0] (grim).fields[0] (path).removeValues: removing "none" takes the default of "path" away; name a new default`,
			`layers[0] (grim).fields[0] (path).removeValues[0]: "focus" is hidden when "path" is "none", so a layer cannot remove that value`,
		}},
		{"layer removes all", coreSet("layers[0].fields[0].removeValues", []any{"blade", "spell", "none"}), []string{
			`layers[0] (grim).fields[0] (path).removeValues: a layer must leave "path" at least one value`,
			`layers[0] (grim).fields[0] (path).removeValues[2]: "focus" is hidden when "path" is "none", so a layer cannot remove that value`,
		}},
		{"layer ladder shape", coreSet("layers[0].difficultyLadder[0]", map[string]any{"label": "Hard", "successes": 3}), []string{
			`layers[0] (grim).difficultyLadder[0]: this ruleset sums dice, so a ladder step names "dc"`,
			"layers[0] (grim).difficultyLadder[0].successes: unknown key for a dice-sum ladder step",
		}},
		{"layer catalog unknown", coreSet("layers[1].catalogs", []any{map[string]any{"id": "knacks", "hide": map[string]any{"filter": "level", "above": 3}}}), []string{
			`layers[1] (bright).catalogs[0] (knacks).id: unknown catalog "knacks"`,
		}},
		{"layer guidance total", coreSet("layers[0].gm.worldGuidance", strings.Repeat("w", 3990)), []string{
			"layers[0] (grim).gm: one layer carries at most 4000 characters of guidance in total, got 4011",
		}},
		{"layer currencies", coreSet("layers[1].currencies", map[string]any{"removeUnits": []any{"gp"}}), []string{`layers[1] (bright).currencies.removeUnits[0]: unknown currency unit "gp"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := loadCoreSmall(t)
			tc.edit(t, doc)
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			_, ps := Parse(data)
			got := make([]string, len(ps))
			for i, p := range ps {
				got[i] = p.String()
			}
			if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// HidesWords hides by equals (one word matching) or notIn (no word in the list), and never
// an entry whose filter holds no words: Marinara's hides() treats [] as a filter not set.
func TestHidesWords(t *testing.T) {
	scout, zero := "Scout", 0.0
	cases := []struct {
		name  string
		hide  LayerHide
		words []string
		want  bool
	}{
		{"notIn, a word in it", LayerHide{NotIn: []string{"Scout"}}, []string{"Hauler", "Scout"}, false},
		{"notIn, no word in it", LayerHide{NotIn: []string{"Scout"}}, []string{"Hauler"}, true},
		{"notIn, no words", LayerHide{NotIn: []string{"Scout"}}, []string{}, false},
		{"notIn, nil words", LayerHide{NotIn: []string{"Scout"}}, nil, false},
		{"equals, a word matching", LayerHide{Equals: &scout}, []string{"Scout"}, true},
		{"equals, none matching", LayerHide{Equals: &scout}, []string{"Hauler"}, false},
		{"equals, no words", LayerHide{Equals: &scout}, []string{}, false},
		{"a number rule", LayerHide{Above: &zero}, []string{"Scout"}, false},
	}
	for _, c := range cases {
		if got := c.hide.HidesWords(c.words); got != c.want {
			t.Errorf("%s: HidesWords(%q) = %v, want %v", c.name, c.words, got, c.want)
		}
	}
}
