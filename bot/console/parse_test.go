package console

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/bot"
)

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []token
	}{
		{`pick name:Mira entry:"Last Ember"`, []token{
			{value: "pick", raw: "pick"},
			{key: "name", value: "Mira", raw: "name:Mira"},
			{key: "entry", value: "Last Ember", raw: `entry:"Last Ember"`, quoted: true},
		}},
		{`x:'it''s' y:“curly quotes” z:"a \"b\" \\c"`, nil},
		{`time:12:30 "quoted word" http://x`, []token{
			{key: "time", value: "12:30", raw: "time:12:30"},
			{value: "quoted word", raw: `"quoted word"`, quoted: true},
			{key: "http", value: "//x", raw: "http://x"},
		}},
	} {
		got, err := tokenize(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%s: no error for a quote run into the next", tc.in)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v, %v\nwant %+v", tc.in, got, err, tc.want)
		}
	}
	got, err := tokenize(`y:“curly quotes” z:"a \"b\" \\c"`)
	if err != nil || got[0].value != "curly quotes" || got[1].value != `a "b" \c` {
		t.Errorf("quotes: %+v %v", got, err)
	}
	if _, err := tokenize(`entry:"Last Ember`); err == nil || !strings.Contains(err.Error(), "never closed") {
		t.Errorf("unclosed quote: %v", err)
	}
}

var testSpecs = []bot.CommandSpec{
	{Name: "campaign create", Options: []bot.OptionSpec{{Name: "ruleset", Type: "string", Required: true}}},
	{Name: "campaign show"},
	{Name: "character row add", Options: []bot.OptionSpec{{Name: "name", Type: "string", Required: true}, {Name: "values", Type: "string"}}},
	{Name: "pick", Options: []bot.OptionSpec{
		{Name: "name", Type: "string", Required: true}, {Name: "catalog", Type: "string", Required: true},
		{Name: "entry", Type: "string", Required: true}, {Name: "filter", Type: "string"},
	}},
	{Name: "ruleset import", Options: []bot.OptionSpec{{Name: "file", Type: "attachment", Required: true}}},
	{Name: "ruleset export", Options: []bot.OptionSpec{{Name: "id", Type: "string", Required: true}, {Name: "version", Type: "integer"}}},
	{Name: "sheet", Options: []bot.OptionSpec{{Name: "name", Type: "string"}, {Name: "format", Type: "string", Choices: []bot.Choice{{Name: "Text", Value: "text"}, {Name: "JSON", Value: "json"}}}}},
	{Name: "campaign gm add", Options: []bot.OptionSpec{{Name: "user", Type: "user"}}},
}

func TestParseCommand(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rules.json"), []byte(`{"id":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, name string
		opts     []bot.Option
	}{
		{`pick name:Mira catalog:knacks entry:"Last Ember"`, "pick", []bot.Option{{Name: "name", Value: "Mira"}, {Name: "catalog", Value: "knacks"}, {Name: "entry", Value: "Last Ember"}}},
		{`PICK Name:Mira Ashdown catalog:knacks entry:Last Ember filter:"tier=2; guild=Wickwright"`, "pick", []bot.Option{
			{Name: "name", Value: "Mira Ashdown"}, {Name: "catalog", Value: "knacks"}, {Name: "entry", Value: "Last Ember"}, {Name: "filter", Value: "tier=2; guild=Wickwright"},
		}},
		{`character row add name:Mira values:"name=Rope; bulk=1"`, "character row add", []bot.Option{{Name: "name", Value: "Mira"}, {Name: "values", Value: "name=Rope; bulk=1"}}},
		{`campaign show`, "campaign show", nil},
		{`sheet name:Mira format:JSON`, "sheet", []bot.Option{{Name: "name", Value: "Mira"}, {Name: "format", Value: "json"}}},
		{`campaign gm add user:<@bob>`, "campaign gm add", []bot.Option{{Name: "user", Value: "bob"}}},
		{`ruleset export id:low-vell version:2`, "ruleset export", []bot.Option{{Name: "id", Value: "low-vell"}, {Name: "version", Value: "2"}}},
	} {
		spec, opts, err := parseCommand(testSpecs, tc.in, dir)
		if err != nil || spec.Name != tc.name || !reflect.DeepEqual(opts, tc.opts) {
			t.Errorf("%s:\n got %s %+v %v\nwant %s %+v", tc.in, spec.Name, opts, err, tc.name, tc.opts)
		}
	}

	_, opts, err := parseCommand(testSpecs, "ruleset import file:rules.json", dir)
	if err != nil || opts[0].Attachment == nil || string(opts[0].Attachment.Data) != `{"id":"x"}` || opts[0].Attachment.Name != "rules.json" {
		t.Errorf("file attachment: %+v %v", opts, err)
	}
	_, opts, err = parseCommand(testSpecs, "ruleset import file:pkg", dir)
	if err != nil || opts[0].Attachment == nil || opts[0].Attachment.Folder == nil || opts[0].Attachment.Data != nil {
		t.Errorf("folder attachment: %+v %v", opts, err)
	}

	for in, want := range map[string]string{
		"pick name:Mira catalog:knacks":            "/pick needs entry:",
		"pick name:Mira catlog:knacks entry:x":     "/pick has no option catlog:; its options are name: catalog: entry: filter:",
		"pick Mira":                                `"Mira" is not an option`,
		"pick name:a name:b catalog:c entry:d":     "option name: is given twice",
		"campaign":                                 "/campaign goes on with one of: create, show",
		"frobnicate":                               "there is no command /frobnicate; the commands are /campaign, /character, /pick, /ruleset, /sheet",
		"shet name:Mira":                           "there is no command /shet — did you mean /sheet?",
		"ruleset export id:x version:two":          `/ruleset export version: "two" is not a whole number`,
		"sheet format:yaml":                        `/sheet format: "yaml" is not one of text, json`,
		"ruleset import file:missing.json":         "/ruleset import file: no file or folder",
		`pick name:"Mira catalog:knacks entry:x`:   "never closed",
		"campaign show extra":                      `"extra" is not an option`,
		"character row add values:x name:Mira x:1": "has no option x:",
	} {
		_, _, err := parseCommand(testSpecs, in, dir)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", in, err, want)
		}
	}
}

// TestTagsOf: the --json tags are the core's outcomes, field for field.
func TestTagsOf(t *testing.T) {
	outs := []bot.Outcome{
		{Tag: `[sheet: who="Mira" op="damage" pool="hp" amount="7" result="ok" now="5/12"]`, Op: "damage", Who: "Mira", Result: "ok", Now: "5/12"},
		{Tag: `[sheet: who="Bram" op="spend" pool="slots_3" amount="1" result="refused" reason="insufficient"]`, Op: "spend", Who: "Bram", Result: "refused", Reason: "insufficient"},
		{Tag: `[sheet: raw="op=frob" result="refused" reason="malformed"]`, Result: "refused", Reason: "malformed"},
	}
	got := tagsOf(outs)
	want := []Tag{
		{Tag: `[sheet: who="Mira" op="damage" pool="hp" amount="7" result="ok" now="5/12"]`, Op: "damage", Who: "Mira", Result: "ok", Now: "5/12"},
		{Tag: `[sheet: who="Bram" op="spend" pool="slots_3" amount="1" result="refused" reason="insufficient"]`, Op: "spend", Who: "Bram", Result: "refused", Reason: "insufficient"},
		{Tag: `[sheet: raw="op=frob" result="refused" reason="malformed"]`, Result: "refused", Reason: "malformed"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestComponentsAndChoose(t *testing.T) {
	sel := &bot.Select{CustomID: "s", Placeholder: "Rows to update", MinValues: 0, MaxValues: 2, Options: []bot.SelectOption{
		{Label: "Ember Dart", Value: "1"}, {Label: "Smoke Veil", Value: "2", Default: true},
	}}
	rows := []bot.Row{{Buttons: []bot.Button{{CustomID: "a", Label: "Review"}, {CustomID: "b", Label: "Update selected", Disabled: true}}}, {Select: sel}}
	got := components(rows)
	want := []string{"[Review]", "[Update selected (disabled)]", "<Rows to update: Ember Dart (1) | Smoke Veil (2) ✓>"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("components: %q", got)
	}
	if v, err := choose(sel, []string{"smoke veil", "1"}); err != nil || !reflect.DeepEqual(v, []string{"2", "1"}) {
		t.Errorf("choose: %v %v", v, err)
	}
	if _, err := choose(sel, []string{"1", "2", "2"}); err == nil {
		t.Error("three choices from a menu of at most two")
	}
	if _, err := choose(sel, []string{"Hearthwarm"}); err == nil {
		t.Error("an option the menu lacks")
	}

	rec := &record{n: 4, shown: []*shown{{id: "m", resp: bot.Response{Components: rows}}}}
	sh, b, _, vals, err := findComponent(rec, []token{{value: "update"}, {value: "selected"}})
	if err != nil || sh == nil || b == nil || b.CustomID != "b" || len(vals) != 0 {
		t.Errorf("button by a two-word label: %v %v", b, err)
	}
	_, _, s, vals, err := findComponent(rec, []token{{value: "menu"}, {value: "1"}, {value: "2"}})
	if err != nil || s != sel || !reflect.DeepEqual(vals, []string{"1", "2"}) {
		t.Errorf("the only menu: %v %v %v", s, vals, err)
	}
	if _, _, _, _, err := findComponent(rec, []token{{value: "Frob"}}); err == nil || !strings.Contains(err.Error(), "[Review], [Update selected], menu <Rows to update>") {
		t.Errorf("unknown label: %v", err)
	}
}
