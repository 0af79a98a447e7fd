package discord

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
)

func TestBuildCommandsShape(t *testing.T) {
	specs := []bot.CommandSpec{
		{Name: "sheet", Description: "Show a character's sheet", Options: []bot.OptionSpec{
			{Name: "format", Type: "string", Choices: []bot.Choice{{Name: "text", Value: "text"}}, Autocomplete: true},
			{Name: "name", Description: "The character", Type: "string", Required: true, Autocomplete: true},
		}},
		{Name: "campaign create", Description: "Start a game", Options: []bot.OptionSpec{{Name: "ruleset", Type: "string", Required: true}}},
		{Name: "campaign gm add", Description: "Add a GM", Options: []bot.OptionSpec{{Name: "user", Type: "user"}}},
		{Name: "campaign gm remove", Description: "Remove a GM"},
		{Name: "refresh", Description: "See what is newer", Options: []bot.OptionSpec{{Name: "name", Type: "string", Required: true}}},
		{Name: "refresh update", Description: strings.Repeat("long ", 30), Options: []bot.OptionSpec{
			{Name: "rows", Type: "integer"}, {Name: "file", Type: "attachment"}, {Name: "all", Type: "boolean"}}},
	}
	cs, err := buildCommands(specs)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*discordgo.ApplicationCommand{}
	for _, c := range cs.commands {
		byName[c.Name] = c
		if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
			t.Errorf("/%s description of %d", c.Name, n)
		}
	}
	sheet := byName["sheet"]
	if sheet == nil || len(sheet.Options) != 2 || sheet.Options[0].Name != "name" || !sheet.Options[0].Required {
		t.Fatalf("required options first: %+v", sheet)
	}
	if f := sheet.Options[1]; f.Autocomplete || len(f.Choices) != 1 || f.Description == "" {
		t.Errorf("choices win over autocomplete, and a description is made up: %+v", f)
	}
	if !sheet.Options[0].Autocomplete {
		t.Error("autocomplete flag lost")
	}

	camp := byName["campaign"]
	if camp == nil || len(camp.Options) != 2 || camp.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand ||
		camp.Options[1].Type != discordgo.ApplicationCommandOptionSubCommandGroup || len(camp.Options[1].Options) != 2 {
		t.Fatalf("campaign: %+v", camp)
	}
	if camp.Description != "Campaign commands: create, gm add, gm remove" {
		t.Errorf("group description %q", camp.Description)
	}
	if u := camp.Options[1].Options[0].Options[0]; u.Type != discordgo.ApplicationCommandOptionUser {
		t.Errorf("user option typed %v", u.Type)
	}

	ref := byName["refresh"]
	if ref == nil || len(ref.Options) != 2 || ref.Options[0].Name != standalone || ref.Options[1].Name != "update" {
		t.Fatalf("refresh: %+v", ref)
	}
	if got := cs.coreName("refresh " + standalone); got != "refresh" {
		t.Errorf("way back: %q", got)
	}
	if got := cs.coreName("refresh update"); got != "refresh update" {
		t.Errorf("way back: %q", got)
	}
	types := []discordgo.ApplicationCommandOptionType{discordgo.ApplicationCommandOptionInteger,
		discordgo.ApplicationCommandOptionAttachment, discordgo.ApplicationCommandOptionBoolean}
	for i, o := range ref.Options[1].Options {
		if o.Type != types[i] {
			t.Errorf("option %s typed %v", o.Name, o.Type)
		}
	}
	if d := ref.Options[1].Description; utf8.RuneCountInString(d) != 100 || !strings.HasSuffix(d, "…") {
		t.Errorf("long description cut: %q", d)
	}
}

func TestBuildCommandsRefusesWhatDiscordRefuses(t *testing.T) {
	for _, specs := range [][]bot.CommandSpec{
		{{Name: "a b c d"}},
		{{Name: "Has Space!"}},
		{{Name: "x", Options: []bot.OptionSpec{{Name: "bad name"}}}},
		{{Name: "x"}, {Name: "x show"}, {Name: "x y"}},
		{{Name: "x y"}, {Name: "x y z"}, {Name: "x y z"}},
	} {
		if _, err := buildCommands(specs); err == nil {
			t.Errorf("%+v accepted", specs)
		}
	}
}

// TestCoreCommandsConvert converts the real command set: what Discord would refuse
// fails here, not at registration.
func TestCoreCommandsConvert(t *testing.T) {
	core := bot.New(nil, bot.Options{})
	cs, err := buildCommands(core.Commands())
	if err != nil {
		t.Fatal(err)
	}
	var check func(path string, opts []*discordgo.ApplicationCommandOption)
	check = func(path string, opts []*discordgo.ApplicationCommandOption) {
		optional := false
		for _, o := range opts {
			if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
				t.Errorf("%s %s: description of %d", path, o.Name, n)
			}
			if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				check(path+" "+o.Name, o.Options)
				continue
			}
			if o.Required && optional {
				t.Errorf("%s: required %s after an optional one", path, o.Name)
			}
			optional = optional || !o.Required
		}
	}
	for _, c := range cs.commands {
		check("/"+c.Name, c.Options)
	}
}

func TestInvocation(t *testing.T) {
	data := discordgo.ApplicationCommandInteractionData{Name: "character", Options: []*discordgo.ApplicationCommandInteractionDataOption{{
		Name: "row", Type: discordgo.ApplicationCommandOptionSubCommandGroup, Options: []*discordgo.ApplicationCommandInteractionDataOption{{
			Name: "add", Type: discordgo.ApplicationCommandOptionSubCommand, Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "name", Type: discordgo.ApplicationCommandOptionString, Value: "Mira"},
				{Name: "count", Type: discordgo.ApplicationCommandOptionInteger, Value: 3.0},
				{Name: "ok", Type: discordgo.ApplicationCommandOptionBoolean, Value: true},
				{Name: "typed", Type: discordgo.ApplicationCommandOptionInteger, Value: "1"},
				{Name: "odd", Type: discordgo.ApplicationCommandOptionString, Value: map[string]any{"x": 1.0}},
			}}}}}}
	path, opts := invocation(data)
	if path != "character row add" || len(opts) != 5 {
		t.Fatalf("%q %d", path, len(opts))
	}
	var got []string
	for _, o := range opts {
		got = append(got, optionValue(o))
	}
	if strings.Join(got, "|") != "Mira|3|true|1|map[x:1]" {
		t.Errorf("values %q", got)
	}
}
