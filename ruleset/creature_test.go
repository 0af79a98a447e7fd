package ruleset

import (
	"os"
	"reflect"
	"strings"
	"testing"

	ff "sheetkeeper/ruleset/internal/fightfixture"
)

// Creature paths in the fixture, as problems name them.
const (
	jackal = ff.Jackal
	jack   = ff.JackalAt
	warden = ff.Warden
	ward   = ff.WardenAt
)

// creatureParse edits the fight fixture and parses it, returning every problem as
// `path: msg`.
func creatureParse(t *testing.T, edits ...ff.Edit) (*Ruleset, []string) {
	t.Helper()
	rs, ps := Parse(ff.Edited(t, "testdata/fight/base.json", edits...))
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	return rs, got
}

// creatureCase is one broken creature rule: the edits that break it and every problem,
// exactly.
type creatureCase struct {
	name  string
	edits []ff.Edit
	want  []string
}

// checkCreatureCases parses the fixture with each case's edits and compares the problems.
func checkCreatureCases(t *testing.T, cases []creatureCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, got := creatureParse(t, tc.edits...)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestCreatureFixtureDecodes: the fixture's creature unions decode into their values.
func TestCreatureFixtureDecodes(t *testing.T) {
	rs, got := creatureParse(t)
	if len(got) > 0 {
		t.Fatalf("the fixture has problems:\n%s", strings.Join(got, "\n"))
	}
	jackal := rs.Catalogs[1].Entries[0].Creature
	if h := jackal.HealthValue; h == nil || h.Dice != "3d6" || *h.Flat != 1 {
		t.Fatalf("health decoded as %+v", jackal.HealthValue)
	}
	if len(jackal.ResistTo) != 2 || jackal.ResistTo[1].Type != "cut" || jackal.ResistTo[1].Except[0] != "silver" {
		t.Fatalf("resistances decoded as %+v", jackal.ResistTo)
	}
	if r := jackal.Actions[1].Range; r == nil || r.Normal != 4 || *r.Long != 8 {
		t.Fatalf("range decoded as %+v", jackal.Actions[1].Range)
	}
}

// TestCreaturePooled: a creature in a dice-pool fight throws the fight's die and soaks
// by the health track's kinds.
func TestCreaturePooled(t *testing.T) {
	ghoul, ghoulAt := ff.Ghoul, ff.GhoulAt
	cases := []creatureCase{
		{"creature damage die", []ff.Edit{{ghoul + ".actions[0].damage.dice", `"2d6"`}},
			[]string{ghoulAt + `.actions[0] (claw).damage.dice: a "dice-pool" fight throws d10s, so damage dice are d10s`}},
		{"creature clause die", []ff.Edit{{ghoul + ".actions[0].damage.plus[0].dice", `"1d8"`}},
			[]string{ghoulAt + `.actions[0] (claw).damage.plus[0].dice: a "dice-pool" fight throws d10s, so damage dice are d10s`}},
		{"creature rider die", []ff.Edit{{ghoul + ".riders[0].amount.dice", `"1d4"`}},
			[]string{ghoulAt + `.riders[0] (rot).amount.dice: a "dice-pool" fight throws d10s, so damage dice are d10s`}},
		{"creature soak kind", []ff.Edit{{ghoul + ".soak.byKind", `{"burn":1}`}},
			[]string{ghoulAt + `.soak.byKind.burn: "burn" is not a kind of the health track`}},
		{"creature soak range", []ff.Edit{{ghoul + ".soak.all", `101`}},
			[]string{ghoulAt + `.soak.all: 101 is out of range 0..100`}},
	}
	for i := range cases {
		cases[i].edits = append(append([]ff.Edit{}, ff.Pooled...), cases[i].edits...)
	}
	checkCreatureCases(t, cases)
}

// TestCreatureCorpus: the 5e package's 321-creature bestiary checks clean against its
// ruleset.
func TestCreatureCorpus(t *testing.T) {
	const dir = "../../shared/reference/marinara/"
	data, err := os.ReadFile(dir + "5e-2014/ruleset.json")
	if err != nil {
		t.Fatal(err)
	}
	rs, ps := Parse(data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	file, err := os.ReadFile(dir + "5e-2014/catalogs/creatures.json")
	if err != nil {
		t.Fatal(err)
	}
	entries, ps := CheckCatalogFile(rs, "creatures", file)
	if len(ps) > 0 {
		t.Fatalf("creatures.json:\n%v", ps)
	}
	sequences := 0
	for _, e := range entries {
		cr := e.Creature
		if cr == nil || cr.HealthValue == nil {
			t.Fatalf("entry %s: no creature health decoded", e.ID)
		}
		for _, a := range cr.Actions {
			if a.Sequence != nil {
				sequences++
			}
		}
	}
	if len(entries) != 321 || sequences != 118 {
		t.Errorf("read %d creatures and %d sequences, want 321 and 118", len(entries), sequences)
	}
}

// The creature half of the fight rules: a bestiary entry's block, its actions and
// riders, and a creature written as a sheet.
func TestCreatureRulesReportExactProblems(t *testing.T) {
	checkCreatureCases(t, []creatureCase{
		// creatures: the block
		{"creature without health", []ff.Edit{{jackal + ".health", ``}},
			[]string{jack + `.health: a creature without a sheet needs its health`}},
		{"creature health range", []ff.Edit{{jackal + ".health", `0`}},
			[]string{jack + `.health: 0 is out of range 1..100000`}},
		{"creature health word", []ff.Edit{{jackal + ".health", `"lots"`}},
			[]string{jack + `.health: expected a whole number or {"dice": ..., "flat": ...}`}},
		{"creature health fraction", []ff.Edit{{jackal + ".health", `1.5`}},
			[]string{jack + `.health: expected an integer, got 1.5`}},
		{"creature health dice", []ff.Edit{{jackal + ".health.dice", `"3d1"`}},
			[]string{jack + `.health.dice: "3d1" is not dice like 2d6 or 1d8+3`}},
		{"creature health key", []ff.Edit{{jackal + ".health.avg", `10`}},
			[]string{jack + `.health.avg: unknown key`}},
		{"creature without actions", []ff.Edit{{jackal + ".actions", `[]`}, {jackal + ".riders", ``}, {jackal + ".signaturePoints", ``}},
			[]string{jack + `.actions: a creature without a sheet needs at least one action, or it has nothing to do`}},
		{"creature speed", []ff.Edit{{jackal + ".speed", `-1`}},
			[]string{jack + `.speed: -1 is out of range 0..10000`}},
		{"creature unknown key", []ff.Edit{{jackal + ".armor", `3`}},
			[]string{jack + `.armor: unknown key`}},
		{"creature tier", []ff.Edit{{jackal + ".tier", `"boss"`}},
			[]string{jack + `.tier: unknown threat tier "boss"`}},
		{"no threat scale", []ff.Edit{{"combat.threat", ``}}, []string{
			jack + `.tier: this ruleset declares no threat tiers for a creature to sit on`,
			ward + `.tier: this ruleset declares no threat tiers for a creature to sit on`,
		}},
		{"creature ability", []ff.Edit{{jackal + ".abilities.grace", `1`}},
			[]string{jack + `.abilities.grace: unknown ability "grace"`}},
		{"creature ability range", []ff.Edit{{jackal + ".abilities.brawn", `1001`}},
			[]string{jack + `.abilities.brawn: 1001 is out of range -1000..1000`}},
		{"creature save", []ff.Edit{{jackal + ".saves.will", `1`}},
			[]string{jack + `.saves.will: unknown save "will"`}},
		{"creature contest check", []ff.Edit{{jackal + ".checks.wits", `1`}},
			[]string{jack + `.checks.wits: unknown contest check "wits"`}},
		{"creature resist type", []ff.Edit{{jackal + ".resist[0]", `"acid"`}},
			[]string{jack + `.resist[0]: unknown damage type "acid"`}},
		{"creature resist object type", []ff.Edit{{jackal + ".resist[1].type", `"acid"`}},
			[]string{jack + `.resist[1].type: unknown damage type "acid"`}},
		{"creature resist tag", []ff.Edit{{jackal + ".resist[1].except[0]", `"gold"`}},
			[]string{jack + `.resist[1].except[0]: unknown item tag "gold"`}},
		{"creature resist with no tags", []ff.Edit{{"items.tags", ``}},
			[]string{jack + `.resist[1].except[0]: this ruleset declares no item tags for a blow to carry`}},
		{"creature resist after a broken one", []ff.Edit{{jackal + ".resist", `[{"type":"cut","bogus":1},"acid"]`}}, []string{
			jack + `.resist[0].bogus: unknown key`,
			jack + `.resist[0].except: required`,
			jack + `.resist[1]: unknown damage type "acid"`,
		}},
		{"creature vulnerable", []ff.Edit{{jackal + ".vulnerable[0]", `"acid"`}},
			[]string{jack + `.vulnerable[0]: unknown damage type "acid"`}},
		{"creature immune shape", []ff.Edit{{jackal + ".immune[0]", `5`}},
			[]string{jack + `.immune[0]: expected a damage type or {"type": ..., "except": [...]}`}},
		{"creature condition immunity", []ff.Edit{{jackal + ".conditionImmunities[0]", `"asleep"`}},
			[]string{jack + `.conditionImmunities[0]: unknown condition "asleep"`}},
		{"creature hardness", []ff.Edit{{jackal + ".hardness", `2`}},
			[]string{jack + `.hardness: hardness only stops a spending blow, so initiative must be a resource with a style that spends`}},
		{"creature soak", []ff.Edit{{jackal + ".soak", `{"all":1}`}},
			[]string{jack + `.soak: soak is for a "dice-pool" fight`}},
		{"signature without points", []ff.Edit{{jackal + ".signaturePoints", ``}},
			[]string{jack + `.signaturePoints: an action bought with points needs signaturePoints to buy it from`}},
		{"signature too dear", []ff.Edit{{jackal + ".signaturePoints", `1`}},
			[]string{jack + `.actions[4] (lunge).signature.cost: this costs 2 and the creature only ever has 1 points`}},
		{"creature loot", []ff.Edit{{jackal + ".loot", `"hoard"`}},
			[]string{jack + `.loot: unknown loot table "hoard"`}},
		{"creature trait text", []ff.Edit{{jackal + ".traits[0].text", `"It eats [whatever] stops."`}},
			[]string{jack + `.traits[0].text: must not contain square brackets`}},
		{"no combat block", []ff.Edit{{"combat", ``}}, []string{
			jack + `: this ruleset has no combat block, so there is nothing for a creature to be written in`,
			ward + `: this ruleset has no combat block, so there is nothing for a creature to be written in`,
			`catalogs[1] (trouble).holds: a catalog of creatures needs a combat block for its creatures to be written in`,
		}},

		// creatures: actions
		{"action budget", []ff.Edit{{jackal + ".actions[0].budget", `"bonus"`}},
			[]string{jack + `.actions[0] (bite).budget: unknown budget "bonus"`}},
		{"action damage type", []ff.Edit{{jackal + ".actions[0].damage.type", `"acid"`}},
			[]string{jack + `.actions[0] (bite).damage.type: unknown damage type "acid"`}},
		{"action damage empty", []ff.Edit{{jackal + ".actions[4].damage", `{"type":"cut"}`}},
			[]string{jack + `.actions[4] (lunge).damage: damage names dice, a flat amount, or both`}},
		{"clause save", []ff.Edit{{jackal + ".actions[0].damage.plus[0].save.save", `"will"`}},
			[]string{jack + `.actions[0] (bite).damage.plus[0].save.save: unknown save "will"`}},
		{"clause save without difficulty", []ff.Edit{{jackal + ".actions[0].save", ``}},
			[]string{jack + `.actions[0] (bite).damage.plus[0].save.difficulty: this clause's save has no difficulty to be rolled against`}},
		{"clause type", []ff.Edit{{jackal + ".actions[0].damage.plus[0].type", `"acid"`}},
			[]string{jack + `.actions[0] (bite).damage.plus[0].type: unknown damage type "acid"`}},
		{"clause empty", []ff.Edit{{jackal + ".actions[0].damage.plus[0]", `{"type":"burn"}`}},
			[]string{jack + `.actions[0] (bite).damage.plus[0]: a clause names dice, a flat amount, or both`}},
		{"too many clauses", []ff.Edit{{jackal + ".actions[0].damage.plus", `[{"flat":1},{"flat":1},{"flat":1},{"flat":1}]`}},
			[]string{jack + `.actions[0] (bite).damage.plus: has 4 items, at most 3 allowed`}},
		{"save success word", []ff.Edit{{jackal + ".actions[0].save.onSuccess", `"all"`}},
			[]string{jack + `.actions[0] (bite).save.onSuccess: "all" is not one of: none, half, negates`}},
		{"save-ends without a difficulty", []ff.Edit{{jackal + ".actions[1].saveDifficulty", ``}},
			[]string{jack + `.actions[1] (worry).saveDifficulty: a condition that ends on a save needs a difficulty for that save to be rolled against`}},
		{"save and save difficulty", []ff.Edit{{jackal + ".actions[0].saveDifficulty", `10`}},
			[]string{jack + `.actions[0] (bite).saveDifficulty: this action has a save of its own, and a save that ends a condition uses that save's difficulty`}},
		{"applied condition", []ff.Edit{{jackal + ".actions[1].applies[0].condition", `"asleep"`}},
			[]string{jack + `.actions[1] (worry).applies[0].condition: unknown condition "asleep"`}},
		{"until-save without the save", []ff.Edit{{jackal + ".actions[1].applies[0].saveEnds", ``}},
			[]string{jack + `.actions[1] (worry).applies[0].saveEnds: "until-save" needs the save that ends it`}},
		{"range long shorter", []ff.Edit{{jackal + ".actions[1].range", `{"normal":4,"long":2}`}},
			[]string{jack + `.actions[1] (worry).range.long: the long distance is at least the ordinary one`}},
		{"range word", []ff.Edit{{jackal + ".actions[1].range", `"far"`}},
			[]string{jack + `.actions[1] (worry).range: expected a distance or {"normal": ..., "long": ...}`}},
		{"range plain", []ff.Edit{{jackal + ".actions[1].range", `10001`}},
			[]string{jack + `.actions[1] (worry).range: 10001 is out of range 0..10000`}},
		{"sequence names itself", []ff.Edit{{jackal + ".actions[2].sequence[0].action", `"frenzy"`}},
			[]string{jack + `.actions[2] (frenzy).sequence[0].action: a sequence cannot name itself`}},
		{"sequence unknown action", []ff.Edit{{jackal + ".actions[2].sequence[0].action", `"claw"`}},
			[]string{jack + `.actions[2] (frenzy).sequence[0].action: unknown action "claw"`}},
		{"sequence makes a reaction", []ff.Edit{{jackal + ".actions[2].sequence[0].action", `"duck"`}},
			[]string{jack + `.actions[2] (frenzy).sequence[0].action: "duck" is a reaction, so no sequence can make it`}},
		{"sequence buys a signature", []ff.Edit{{jackal + ".actions[2].sequence[0].action", `"lunge"`}},
			[]string{jack + `.actions[2] (frenzy).sequence[0].action: "lunge" is bought with points, so a sequence cannot name it`}},
		{"sequence of sequences", []ff.Edit{{jackal + ".actions[3]", `{"id":"howl","name":"Howl","budget":"act","sequence":[{"action":"frenzy"}]}`}},
			[]string{jack + `.actions[3] (howl).sequence[0].action: "frenzy" is a sequence, and a sequence cannot name another`}},
		{"sequence carries its own", []ff.Edit{{jackal + ".actions[2].toHit", `1`}},
			[]string{jack + `.actions[2] (frenzy).toHit: a sequence resolves the actions it names, so it carries nothing of its own`}},
		{"sequence times", []ff.Edit{{jackal + ".actions[2].sequence[0].times", `11`}},
			[]string{jack + `.actions[2] (frenzy).sequence[0].times: 11 is out of range 1..10`}},
		{"recharge never back", []ff.Edit{{jackal + ".actions[3].recharge.from", `7`}},
			[]string{jack + `.actions[3] (howl).recharge.from: these dice roll 6 at most, so the action would never come back`}},
		{"area shape", []ff.Edit{{jackal + ".actions[3].area.shape", `"circle"`}},
			[]string{jack + `.actions[3] (howl).area.shape: "circle" is not one of: burst, cone, line`}},
		{"uses per", []ff.Edit{{jackal + ".actions[3].uses.per", `"week"`}},
			[]string{jack + `.actions[3] (howl).uses.per: "week" is not one of: encounter, day`}},
		{"self takes a target", []ff.Edit{{jackal + ".actions[5].targetCount", `2`}},
			[]string{jack + `.actions[5] (duck).targetCount: an action that lands on the creature itself takes no other target`}},
		{"reaction bought", []ff.Edit{{jackal + ".actions[5].signature", `{"cost":1}`}},
			[]string{jack + `.actions[5] (duck).signature: a reaction is taken at its moment, so it is not also bought between turns`}},
		{"reaction cancels a hit", []ff.Edit{{jackal + ".actions[5].reaction", `{"on":"hit","cancels":true}`}},
			[]string{jack + `.actions[5] (duck).reaction: only an "aimed" or "used" reaction cancels: what has already happened cannot be called off`}},
		{"reaction catalog", []ff.Edit{{jackal + ".actions[5].reaction.against.catalogs[0]", `"spells"`}},
			[]string{jack + `.actions[5] (duck).reaction.against.catalogs[0]: unknown catalog "spells"`}},
		{"action id twice", []ff.Edit{{jackal + ".actions[1].id", `"bite"`}}, []string{
			jack + `.actions[1] (bite).id: duplicate action id "bite"`,
			jack + `.actions[2] (frenzy).sequence[1].action: unknown action "worry"`,
		}},
		{"action name", []ff.Edit{{jackal + ".actions[0].name", `""`}},
			[]string{jack + `.actions[0] (bite).name: must not be empty`}},
		{"too many actions", []ff.Edit{{jackal + ".actions[6]", `{"id":"a6","name":"A","budget":"act","toHit":1}`}, {jackal + ".actions[7]", `{"id":"a7","name":"A","budget":"act","toHit":1}`}, {jackal + ".actions[8]", `{"id":"a8","name":"A","budget":"act","toHit":1}`}, {jackal + ".actions[9]", `{"id":"a9","name":"A","budget":"act","toHit":1}`}, {jackal + ".actions[10]", `{"id":"b0","name":"A","budget":"act","toHit":1}`}, {jackal + ".actions[11]", `{"id":"b1","name":"A","budget":"act","toHit":1}`}, {jackal + ".actions[12]", `{"id":"b2","name":"A","budget":"act","toHit":1}`}},
			[]string{jack + `.actions: has 13 items, at most 12 allowed`}},

		// creatures: riders
		{"rider action", []ff.Edit{{jackal + ".riders[0].actions[0]", `"claw"`}},
			[]string{jack + `.riders[0] (pack).actions[0]: unknown action "claw"`}},
		{"rider type", []ff.Edit{{jackal + ".riders[0].type", `"acid"`}},
			[]string{jack + `.riders[0] (pack).type: unknown damage type "acid"`}},
		{"rider amount", []ff.Edit{{jackal + ".riders[0].amount", `{}`}},
			[]string{jack + `.riders[0] (pack).amount: a rider names dice, a flat amount, or both`}},
		{"rider period", []ff.Edit{{jackal + ".riders[0].oncePer", `"fight"`}},
			[]string{jack + `.riders[0] (pack).oncePer: "fight" is not one of: turn, round`}},
		{"rider moment", []ff.Edit{{jackal + ".riders[0].on", `"miss"`}},
			[]string{jack + `.riders[0] (pack).on: "miss" is not one of: hit`}},
		{"rider id twice", []ff.Edit{{jackal + ".riders[1]", `{"id":"pack","name":"Pack","on":"hit","oncePer":"round","amount":{"flat":1}}`}},
			[]string{jack + `.riders[1] (pack).id: duplicate rider id "pack"`}},
		{"no riders", []ff.Edit{{jackal + ".riders", `[]`}},
			[]string{jack + `.riders: must not be empty`}},

		// creatures written as a sheet
		{"sheet beside numbers", []ff.Edit{{warden + ".defense", `5`}},
			[]string{ward + `.defense: a creature with a sheet takes its defense from the sheet, so it does not give it here too`}},
		{"sheet ability range", []ff.Edit{{warden + ".sheet.abilities.brawn", `9`}},
			[]string{ward + `.sheet.abilities.brawn: ability "brawn" takes a whole number from -3 to 5`}},
		{"sheet ability fraction", []ff.Edit{{warden + ".sheet.abilities.brawn", `1.5`}},
			[]string{ward + `.sheet.abilities.brawn: ability "brawn" takes a whole number from -3 to 5`}},
		{"sheet ability unknown", []ff.Edit{{warden + ".sheet.abilities.grace", `1`}},
			[]string{ward + `.sheet.abilities.grace: unknown ability "grace"`}},
		{"sheet skill tier", []ff.Edit{{warden + ".sheet.skills.sneak", `"expert"`}},
			[]string{ward + `.sheet.skills.sneak: unknown proficiency tier "expert"`}},
		{"sheet skill tier not offered", []ff.Edit{{"sheet.skillTiers", `["untrained"]`}},
			[]string{ward + `.sheet.skills.sneak: this ruleset does not offer the tier "trained" for skills`}},
		{"sheet save unknown", []ff.Edit{{warden + ".sheet.saves.will", `"trained"`}},
			[]string{ward + `.sheet.saves.will: unknown save "will"`}},
		{"sheet bonus range", []ff.Edit{{warden + ".sheet.bonuses.sneak", `99`}},
			[]string{ward + `.sheet.bonuses.sneak: bonus "sneak" takes a whole number from -20 to 40`}},
		{"sheet bonus target", []ff.Edit{{warden + ".sheet.bonuses.brawn", `1`}},
			[]string{ward + `.sheet.bonuses.brawn: unknown skill or save "brawn"`}},
		{"sheet field range", []ff.Edit{{warden + ".sheet.fields.guard", `31`}},
			[]string{ward + `.sheet.fields.guard: field "guard" must be between 0 and 30`}},
		{"sheet field value", []ff.Edit{{warden + ".sheet.fields.calling", `"thief"`}},
			[]string{ward + `.sheet.fields.calling: field "calling" takes one of: hauler, scout`}},
		{"sheet field unknown", []ff.Edit{{warden + ".sheet.fields.rank", `1`}},
			[]string{ward + `.sheet.fields.rank: unknown field "rank"`}},
		{"sheet list unknown", []ff.Edit{{warden + ".sheet.lists.spells", `[]`}},
			[]string{ward + `.sheet.lists.spells: unknown list "spells"`}},
		{"sheet list too long", []ff.Edit{{warden + ".sheet.lists.knacks", `[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]`}},
			[]string{ward + `.sheet.lists.knacks: list "knacks" holds at most 3 rows`}},
		{"sheet row value", []ff.Edit{{warden + ".sheet.lists.knacks[0].rank", `7`}},
			[]string{ward + `.sheet.lists.knacks[0].rank: column "rank" must be between 0 and 3`}},
		{"sheet row mark shape", []ff.Edit{{warden + ".sheet.lists.knacks[0]._catalog", `"knacks"`}},
			[]string{ward + `.sheet.lists.knacks[0]._catalog: "knacks" is not a <catalog>/<entry> mark`}},
		{"sheet row mark catalog", []ff.Edit{{warden + ".sheet.lists.knacks[0]._catalog", `"trouble/jackal"`}},
			[]string{ward + `.sheet.lists.knacks[0]._catalog: no catalog "trouble" feeds the list "knacks"`}},
		{"sheet row mark entry", []ff.Edit{{warden + ".sheet.lists.knacks[0]._catalog", `"knacks/run"`}},
			[]string{ward + `.sheet.lists.knacks[0]._catalog: catalog "knacks" has no entry "run"`}},
		{"sheet row unknown column", []ff.Edit{{warden + ".sheet.lists.knacks[0].cost", `1`}},
			[]string{ward + `.sheet.lists.knacks[0].cost: list "knacks" has no column "cost"`}},
		{"sheet unknown key", []ff.Edit{{warden + ".sheet.live", `{}`}},
			[]string{ward + `.sheet.live: unknown key`}},
		{"sheet every number given twice", []ff.Edit{{warden + ".health", `5`}, {warden + ".initiativeModifier", `1`}, {warden + ".hardness", `1`}}, []string{
			ward + `.hardness: a creature with a sheet takes its hardness from the sheet, so it does not give it here too`,
			ward + `.hardness: hardness only stops a spending blow, so initiative must be a resource with a style that spends`,
			ward + `.health: a creature with a sheet takes its health from the sheet, so it does not give it here too`,
			ward + `.initiativeModifier: a creature with a sheet takes its initiativeModifier from the sheet, so it does not give it here too`,
		}},
		{"plain block needs its numbers", []ff.Edit{{warden + ".sheet", ``}}, []string{
			ward + `.actions: a creature without a sheet needs at least one action, or it has nothing to do`,
			ward + `.defense: a creature without a sheet needs its defense`,
			ward + `.health: a creature without a sheet needs its health`,
			ward + `.initiativeModifier: a creature without a sheet needs its initiativeModifier`,
		}},
	})
}
