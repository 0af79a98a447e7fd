package fight_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/fight"
	ff "sheetkeeper/ruleset/internal/fightfixture"
)

// fightParse edits the fixture and parses it, returning every problem as `path: msg`.
func fightParse(t *testing.T, edits ...ff.Edit) (*ruleset.Ruleset, []string) {
	t.Helper()
	rs, ps := ruleset.Parse(ff.Edited(t, "../testdata/fight/base.json", edits...))
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	return rs, got
}

func TestFightFixtureIsValid(t *testing.T) {
	rs, got := fightParse(t)
	if len(got) > 0 {
		t.Fatalf("the fixture has problems:\n%s", strings.Join(got, "\n"))
	}
	if rs.Combat.MainBudget() != "act" || rs.Combat.Economy.Budgets[2].Times() != 1 {
		t.Fatalf("budgets read wrong: %+v", rs.Combat.Economy.Budgets)
	}
	if !rs.Combat.DamageType(" BURN") || rs.Combat.DamageType("acid") {
		t.Fatal("damage types should match trimmed and without case")
	}
}

// TestFightRulesReportExactProblems breaks one thing per case and expects exactly the
// problems named, at their paths.
func TestFightRulesReportExactProblems(t *testing.T) {
	checkFightCases(t, []fightCase{
		// battle
		{"battle health starts empty", []ff.Edit{{"battle.health", `{"pool":"strain"}`}},
			[]string{`battle.health.pool: pool "strain" starts empty, so it cannot be the health pool`}},
		{"battle health names both", []ff.Edit{{"battle.health", `{"pool":"grit","track":"harm"}`}},
			[]string{`battle.health: health names exactly one of: pool, track`}},
		{"battle health on a plain track", []ff.Edit{{"battle.health", `{"track":"heat"}`}},
			[]string{`battle.health.track: track "heat" has no levels or boxes, so a fight has nothing to mark on it`}},
		{"battle health is a list of pools", []ff.Edit{{"battle.health", `{"pool":"charges"}`}},
			[]string{`battle.health.pool: "charges" is a list whose rows are pools, not a live pool`}},
		{"battle health unknown", []ff.Edit{{"battle.health", `{"pool":"blood"}`}},
			[]string{`battle.health.pool: unknown live pool "blood"`}},
		{"battle energy is health", []ff.Edit{{"battle.energy.pool", `"grit"`}},
			[]string{`battle.energy.pool: the energy pool cannot also be the health pool`}},
		{"battle slot twice", []ff.Edit{{"battle.slots[1]", `{"pool":"slot_1","level":1}`}},
			[]string{`battle.slots[1].level: slot level 1 is listed twice`, `battle.slots[1].pool: slot pool "slot_1" is listed twice`}},
		{"battle slot is energy", []ff.Edit{{"battle.slots[0].pool", `"luck"`}},
			[]string{`battle.slots[0].pool: pool "luck" is already the health or energy pool`}},
		{"battle slot level", []ff.Edit{{"battle.slots[0].level", `10`}},
			[]string{`battle.slots[0].level: 10 is out of range 1..9`}},
		{"battle skills onlyWhen type", []ff.Edit{{"battle.skills[0].onlyWhen", `"rank"`}},
			[]string{`battle.skills[0].onlyWhen: column "rank" of list "knacks" is a number column, not boolean`}},
		{"battle alwaysWhen alone", []ff.Edit{{"battle.skills[0].onlyWhen", ``}},
			[]string{`battle.skills[0].alwaysWhen: alwaysWhen is the exception to onlyWhen, so it needs onlyWhen beside it`}},
		{"battle alwaysWhen value", []ff.Edit{{"battle.skills[0].alwaysWhen.equals", `"none"`}},
			[]string{`battle.skills[0].alwaysWhen.equals: column "rank" is a number field, so the value must not be a string`}},
		{"battle skills list", []ff.Edit{{"battle.skills[0].list", `"spells"`}},
			[]string{`battle.skills[0].list: unknown list "spells"`}},

		// combat: kind, health, rolls
		{"combat kind", []ff.Edit{{"combat.kind", `"melee"`}},
			[]string{`combat.kind: "melee" is not one of: attack-vs-defense, dice-pool`}},
		{"dice-pool fight on a summed ruleset", []ff.Edit{{"combat.kind", `"dice-pool"`}}, []string{
			`combat.attackRoll: a "dice-pool" fight throws pools, so it rolls no attack dice`,
			`combat.conditions[0].modifiers[1].dice: a "dice-pool" fight adds dice to a pool, so a modifier gives a flat number of dice`,
			`combat.kind: a "dice-pool" fight throws the ruleset's own pools, so resolution.kind must be "dice-pool" too`,
			`combat.pool: a "dice-pool" fight needs pool to say how it rolls damage`,
		}},
		{"attack roll missing", []ff.Edit{{"combat.attackRoll", ``}},
			[]string{`combat.attackRoll: an "attack-vs-defense" fight needs attackRoll to say what an attack rolls`}},
		{"pool block on a summed fight", []ff.Edit{{"combat.pool", `{"soak":{"roll":true}}`}},
			[]string{`combat.pool: pool is for a "dice-pool" fight`, `combat.pool.soak: soak takes something off: all, byKind or both`}},
		{"hardness without spending", []ff.Edit{{"combat.pool", `{"hardness":{"const":1}}`}}, []string{
			`combat.pool: pool is for a "dice-pool" fight`,
			`combat.pool.hardness: hardness only stops a spending blow, so initiative must be a resource with a style that spends`,
		}},
		{"natural faces of two dice", []ff.Edit{{"combat.attackRoll.dice.count", `2`}},
			[]string{`combat.attackRoll.naturals: natural results need a single die; with several dice use none`}},
		{"critical word", []ff.Edit{{"combat.attackRoll.critical", `"triple"`}},
			[]string{`combat.attackRoll.critical: "triple" is not one of: double-dice, max-dice, none`}},
		{"attack dice sides", []ff.Edit{{"combat.attackRoll.dice.sides", `1`}},
			[]string{`combat.attackRoll.dice.sides: 1 is out of range 2..1000`}},
		{"defense reference", []ff.Edit{{"combat.defense", `{"derived":"armor"}`}},
			[]string{`combat.defense.derived: unknown derived value "armor"`}},
		{"wound track health needs damage kinds", []ff.Edit{{"combat.health", `{"track":"harm"}`}},
			[]string{`combat.damageKinds: health is the wound track "harm", so damageKinds must say what kind of harm damage marks`}},
		{"damage kinds default", []ff.Edit{{"combat.health", `{"track":"harm"}`}, {"combat.damageKinds", `{"default":"burn","marks":"per-blow"}`}},
			[]string{`combat.damageKinds.default: "burn" is not a kind of "harm"`}},
		{"damage kinds mapped twice", []ff.Edit{{"combat.health", `{"track":"harm"}`}, {"combat.damageKinds", `{"default":"knock","byType":{"Cut":"gash","cut":"knock"},"marks":"per-point"}`}},
			[]string{`combat.damageKinds.byType.cut: damage type "cut" is mapped twice (types match without case)`}},
		{"damage kinds unknown type", []ff.Edit{{"combat.health", `{"track":"harm"}`}, {"combat.damageKinds", `{"default":"knock","byType":{"acid":"gash"},"marks":"per-point"}`}},
			[]string{`combat.damageKinds.byType.acid: unknown damage type "acid"`}},
		{"damage kinds unknown kind", []ff.Edit{{"combat.health", `{"track":"harm"}`}, {"combat.damageKinds", `{"default":"knock","byType":{"cut":"slash"},"marks":"per-point"}`}},
			[]string{`combat.damageKinds.byType.cut: "slash" is not a kind of "harm"`}},
		{"damage kinds marks", []ff.Edit{{"combat.health", `{"track":"harm"}`}, {"combat.damageKinds", `{"default":"knock","marks":"per-hit"}`}},
			[]string{`combat.damageKinds.marks: "per-hit" is not one of: per-blow, per-point`}},
		{"damage kinds beside a pool", []ff.Edit{{"combat.damageKinds", `{"default":"knock","marks":"per-blow"}`}},
			[]string{`combat.damageKinds: damageKinds maps damage onto a wound track's kinds, and health is a pool; point health at a wound track if the kind of a wound matters`}},

		// initiative
		{"initiative dice and pool", []ff.Edit{{"combat.initiative.pool", `{"const":2}`}}, []string{
			`combat.initiative: initiative is thrown as dice or as a pool: exactly one of the two`,
			`combat.initiative.pool: initiative thrown as a pool is for a "dice-pool" fight`,
		}},
		{"initiative modifier without dice", []ff.Edit{{"combat.initiative.dice", ``}}, []string{
			`combat.initiative: initiative is thrown as dice or as a pool: exactly one of the two`,
			`combat.initiative.modifier: a modifier is added to initiative dice, and there are none`,
		}},
		{"initiative plus without pool", []ff.Edit{{"combat.initiative.plus", `2`}},
			[]string{`combat.initiative.plus: plus is added to a pool's successes, and initiative is not a pool`}},
		{"initiative each", []ff.Edit{{"combat.initiative.each", `"turn"`}},
			[]string{`combat.initiative.each: "turn" is not one of: fight, round`}},
		{"initiative resource", []ff.Edit{{"combat.initiative.resource", `{"base":0,"styles":[{"id":"tell","label":"Telling","spends":{"onMiss":[[0,-1]]}}],"crash":{"at":0,"condition":"dazed"}}`}}, []string{
			`combat.initiative.resource: initiative that attacks move is for a "dice-pool" fight`,
			`combat.initiative.resource: a number attacks move opens with a thrown pool, so initiative needs pool`,
			`combat.initiative.resource.base: the base is what a number goes back to, so it must be above the crash line 0`,
			`combat.initiative.resource.crash.condition: unknown condition "dazed"`,
			`combat.initiative.resource.styles: at least one style takes: a crashed combatant attacks in it`,
			`combat.initiative.resource.styles[0] (tell).spends.onMiss[0][1]: a miss costs nothing or more, never a gain`,
		}},
		{"initiative style", []ff.Edit{{"combat.initiative.resource", `{"base":3,"styles":[{"id":"press","label":"Press","takes":{}},{"id":"odd","label":"Odd"}]}`}}, []string{
			`combat.initiative.resource: initiative that attacks move is for a "dice-pool" fight`,
			`combat.initiative.resource: a number attacks move opens with a thrown pool, so initiative needs pool`,
			`combat.initiative.resource.styles[1] (odd): a style either takes or spends: exactly one of the two`,
		}},

		// economy and the board
		{"budget twice", []ff.Edit{{"combat.economy.budgets[3]", `{"id":"act","label":"Again","per":"turn"}`}},
			[]string{`combat.economy.budgets[3] (act).id: duplicate budget id "act"`}},
		{"budget refill", []ff.Edit{{"combat.economy.budgets[0].per", `"day"`}},
			[]string{`combat.economy.budgets[0] (act).per: "day" is not one of: turn, round`}},
		{"budget count", []ff.Edit{{"combat.economy.budgets[1].count", `11`}},
			[]string{`combat.economy.budgets[1] (quick).count: 11 is out of range 1..10`}},
		{"no budgets", []ff.Edit{{"combat.economy.budgets", `[]`}, {"combat.opportunity", ``}, {"combat.offHand", ``}, {"combat.attacks", ``}, {"combat.abilities", ``}, {"combat.contests", ``}, {"catalogs[1]", ``}},
			[]string{`combat.economy.budgets: must not be empty`}},
		{"movement reference", []ff.Edit{{"combat.economy.movement", `{"livePool":"speed"}`}},
			[]string{`combat.economy.movement.livePool: unknown pool "speed"`}},
		{"no distance", []ff.Edit{{"combat.distance", ``}}, []string{
			`combat.attacks[0].range: range is measured in cells, so the combat block needs distance too`,
			`combat.attacks[0].reach: reach is measured in cells, so the combat block needs distance too`,
			`combat.contests[0] (grab).reach: reach is measured in cells, so the combat block needs distance too`,
			`combat.contests[1] (break_free).onWin.push: push is measured in cells, so the combat block needs distance too`,
			`combat.ranged: ranged is measured in cells, so the combat block needs distance too`,
		}},
		{"cell worth", []ff.Edit{{"combat.distance.perCell", `0`}},
			[]string{`combat.distance.perCell: must be above 0`}},
		{"distance label", []ff.Edit{{"combat.distance.label", `"very long paces"`}},
			[]string{`combat.distance.label: is 15 characters long, at most 12 allowed`}},
		{"opportunity budget", []ff.Edit{{"combat.opportunity.budget", `"bonus"`}},
			[]string{`combat.opportunity.budget: unknown budget "bonus"`}},
		{"off-hand ability", []ff.Edit{{"combat.offHand.ability", `"half"`}},
			[]string{`combat.offHand.ability: "half" is not one of: full, penalty-only`}},
		{"ranged word", []ff.Edit{{"combat.ranged.long", `"harder"`}},
			[]string{`combat.ranged.long: "harder" is not one of: disadvantage, normal`}},
		{"cover bonus", []ff.Edit{{"combat.cover.bonus", `101`}},
			[]string{`combat.cover.bonus: 101 is out of range 0..100`}},

		// attack sources
		{"attack name column type", []ff.Edit{{"combat.attacks[0].name", `"damage"`}},
			[]string{`combat.attacks[0].name: column "damage" of list "gear" is a dice column, not text`}},
		{"attack proficiency column type", []ff.Edit{{"combat.attacks[0].toHit.proficiency.column", `"bonus"`}},
			[]string{`combat.attacks[0].toHit.proficiency.column: column "bonus" of list "gear" is a number column, not boolean`}},
		{"attack damage type column", []ff.Edit{{"combat.attacks[0].damage.type.column", `"trained"`}},
			[]string{`combat.attacks[0].damage.type.column: column "trained" of list "gear" is a boolean column, not text or enum`}},
		{"attack damage dice column", []ff.Edit{{"combat.attacks[0].damage.dice.column", `"dice"`}},
			[]string{`combat.attacks[0].damage.dice.column: list "gear" has no column "dice"`}},
		{"attack reach column", []ff.Edit{{"combat.attacks[0].reach.column", `"loading"`}},
			[]string{`combat.attacks[0].reach.column: column "loading" of list "gear" is a boolean column, not number`}},
		{"attack list", []ff.Edit{{"combat.attacks[0].list", `"weapons"`}},
			[]string{`combat.attacks[0].list: unknown list "weapons"`}},
		{"strikes cap without strikes", []ff.Edit{{"combat.attacks[0].strikes", ``}},
			[]string{`combat.attacks[0].strikesCappedBy: strikesCappedBy holds a row to one strike, and without strikes the list buys one strike a spend anyway`}},
		{"strikes below one", []ff.Edit{{"combat.attacks[0].strikes", `{"const":0}`}},
			[]string{`combat.attacks[0].strikes.const: one spend buys at least one strike`}},
		{"long range shorter", []ff.Edit{{"combat.attacks[0].range.long", `{"const":5}`}},
			[]string{`combat.attacks[0].range.long: the long distance is at least the ordinary one`}},
		{"distance source both", []ff.Edit{{"combat.attacks[0].reach.const", `2`}},
			[]string{`combat.attacks[0].reach: a distance names exactly one of: column, const`}},
		{"attack budget", []ff.Edit{{"combat.attacks[0].budget", `"slow"`}},
			[]string{`combat.attacks[0].budget: unknown budget "slow"`}},

		// ability sources
		{"ability alwaysWhen value", []ff.Edit{{"combat.abilities[0].alwaysWhen", `{"column":"rank","equals":true}`}},
			[]string{`combat.abilities[0].alwaysWhen.equals: column "rank" is a number field, so the value must not be a boolean`}},
		{"ability save difficulty", []ff.Edit{{"combat.abilities[0].saveDifficulty", `{"saveMod":"will"}`}},
			[]string{`combat.abilities[0].saveDifficulty.saveMod: unknown save "will"`}},
		{"ability budget", []ff.Edit{{"combat.abilities[0].budget", `"bonus"`}},
			[]string{`combat.abilities[0].budget: unknown budget "bonus"`}},

		// standard actions
		{"standard twice", []ff.Edit{{"combat.standard[1]", `"dodge"`}},
			[]string{`combat.standard[1]: standard action "dodge" is listed twice`}},
		{"standard word", []ff.Edit{{"combat.standard[1]", `"sprint"`}},
			[]string{`combat.standard[1]: "sprint" is not one of: dash, disengage, dodge, help, hide, ready`}},
		{"dodge effect without dodge", []ff.Edit{{"combat.standard[0]", ``}},
			[]string{`combat.standardEffects.dodge: this ruleset's standard actions have no dodge for these saves to belong to`}},
		{"dodge effect save", []ff.Edit{{"combat.standardEffects.dodge.saves[0]", `"will"`}},
			[]string{`combat.standardEffects.dodge.saves[0]: unknown save "will"`}},

		// conditions and modifiers
		{"condition twice", []ff.Edit{{"combat.conditions[1].condition", `"shaken"`}},
			[]string{`combat.conditions[1].condition: condition "shaken" is mapped twice`}},
		{"condition unknown", []ff.Edit{{"combat.conditions[1].condition", `"bleeding"`}},
			[]string{`combat.conditions[1].condition: unknown condition "bleeding"`}},
		{"condition effect word", []ff.Edit{{"combat.conditions[1].effects[0]", `"fly"`}},
			[]string{`combat.conditions[1].effects[0]: "fly" is not one of: ` + strings.Join(fight.ConditionEffects, ", ")}},
		{"in sight gates an effect it lacks", []ff.Edit{{"combat.conditions[0].whileSourceInSight", `["cannot-act"]`}},
			[]string{`combat.conditions[0].whileSourceInSight[0]: this condition does not have the effect "cannot-act" to hold back`}},
		{"in sight false", []ff.Edit{{"combat.conditions[0].whileSourceInSight", `false`}},
			[]string{`combat.conditions[0].whileSourceInSight: whileSourceInSight is true or a list of the condition's own effects`}},
		{"saves with nothing to narrow", []ff.Edit{{"combat.conditions[1].saves", `["grit_save"]`}},
			[]string{`combat.conditions[1].saves: saves narrows own-saves-advantage, own-saves-disadvantage and modifiers to saves, and none of them is here`}},
		{"skills with nothing to narrow", []ff.Edit{{"combat.conditions[1].skills", `["sneak"]`}},
			[]string{`combat.conditions[1].skills: skills narrows own-checks-advantage, own-checks-disadvantage and modifiers to checks, and none of them is here`}},
		{"fails unknown save", []ff.Edit{{"combat.conditions[1].failsSaves[0]", `"will"`}},
			[]string{`combat.conditions[1].failsSaves[0]: unknown save "will"`}},
		{"modifier flat zero", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"speed","flat":0}]`}},
			[]string{`combat.conditions[1].modifiers[0].flat: a flat change of 0 changes nothing`}},
		{"modifier dice on defense", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"defense","dice":"1d4"}]`}},
			[]string{`combat.conditions[1].modifiers[0].dice: dice are rolled, so they change only attacks, saves or checks`}},
		{"modifier says nothing", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"checks"}]`}},
			[]string{`combat.conditions[1].modifiers[0].to: a modifier changes its number by flat, by dice, for speed by times, or for checks and saves by mode`}},
		{"modifier minus without dice", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"attacks","flat":1,"minus":true}]`}},
			[]string{`combat.conditions[1].modifiers[0].minus: minus is true and takes dice away, so it needs dice beside it`}},
		{"modifier times off speed", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"defense","times":2}]`}},
			[]string{`combat.conditions[1].modifiers[0].times: times changes speed only`}},
		{"modifier times value", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"speed","times":3}]`}},
			[]string{`combat.conditions[1].modifiers[0].times: times is 0.5 or 2`}},
		{"modifier skills off checks", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"attacks","flat":1,"skills":["sneak"]}]`}},
			[]string{`combat.conditions[1].modifiers[0].skills: skills narrows a change to checks`}},
		{"modifier saves off saves", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"checks","flat":1,"saves":["grit_save"]}]`}},
			[]string{`combat.conditions[1].modifiers[0].saves: saves narrows a change to saves`}},
		{"modifier mode off rolls", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"defense","mode":"advantage"}]`}},
			[]string{`combat.conditions[1].modifiers[0].mode: mode rolls checks or saves twice, so it changes nothing else`}},
		{"modifier dice text", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"checks","dice":"d4"}]`}},
			[]string{`combat.conditions[1].modifiers[0].dice: "d4" is not dice like 2d6 or 1d8+3`}},
		{"modifier flat range", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"checks","flat":101}]`}},
			[]string{`combat.conditions[1].modifiers[0].flat: 101 is out of range -100..100`}},

		// levels
		{"level on a wound track", []ff.Edit{{"combat.levels[0].track", `"harm"`}},
			[]string{`combat.levels[0].track: track "harm" is a wound track; a level reads a plain track's number`}},
		{"level never reached", []ff.Edit{{"combat.levels[0].at", `5`}},
			[]string{`combat.levels[0].at: track "heat" goes up to 4, so level 5 is never reached`}},
		{"level reads both", []ff.Edit{{"combat.levels[0].derived", `"armor"`}}, []string{
			`combat.levels[0].derived: unknown derived value "armor"`,
			`combat.levels[0].track: a level reads a live track or a derived value: exactly one of the two`,
		}},
		{"level refused effect", []ff.Edit{{"combat.levels[0]", `{"track":"heat","at":1,"effects":["ends-on-damage"]}`}},
			[]string{`combat.levels[0].effects[0]: a level cannot have "ends-on-damage": nobody put it on, and it ends only when what it reads goes down`}},
		{"level does nothing", []ff.Edit{{"combat.levels[0]", `{"track":"heat","at":1}`}},
			[]string{`combat.levels[0].effects: a level does something: effects, modifiers or saves it fails`}},
		{"level given twice", []ff.Edit{{"combat.levels[1]", `{"track":"heat","at":2,"failsSaves":["grit_save"]}`}},
			[]string{`combat.levels[1].at: level 2 of "heat" is given twice`}},

		// contests
		{"contest check twice", []ff.Edit{{"combat.contests[0].attacker.checks[1]", `"brawn"`}},
			[]string{`combat.contests[0] (grab).attacker.checks[1]: check "brawn" is listed twice`}},
		{"contest unknown check", []ff.Edit{{"combat.contests[0].defender.checks[0]", `"wits"`}},
			[]string{`combat.contests[0] (grab).defender.checks[0]: unknown contest check "wits"`}},
		{"contest wins nothing", []ff.Edit{{"combat.contests[0].onWin", `{}`}},
			[]string{`combat.contests[0] (grab).onWin: winning a contest applies, ends or pushes something`}},
		{"contest breaks free and applies", []ff.Edit{{"combat.contests[1].onWin.applies", `[{"condition":"held"}]`}},
			[]string{`combat.contests[1] (break_free).onWin.applies[0].condition: a contest that breaks free of "held" cannot also apply it`}},
		{"contest ends on", []ff.Edit{{"combat.contests[1].onWin.ends[0].on", `"both"`}},
			[]string{`combat.contests[1] (break_free).onWin.ends[0].on: "both" is not one of: actor, target`}},
		{"contest reach", []ff.Edit{{"combat.contests[0].reach", `0`}},
			[]string{`combat.contests[0] (grab).reach: 0 is out of range: above 0 and at most 10000`}},
		{"contest strike", []ff.Edit{{"combat.contests[0].strike", `false`}},
			[]string{`combat.contests[0] (grab).strike: strike is true or left out`}},
		{"contest holding", []ff.Edit{{"combat.contests[1].from.holding", `"gripped"`}},
			[]string{`combat.contests[1] (break_free).from.holding: unknown condition "gripped"`}},
		{"contest check value", []ff.Edit{{"combat.checks[0].value", `{"abilityMod":"heart"}`}},
			[]string{`combat.checks[0] (brawn).value.abilityMod: unknown ability "heart"`}},
		{"contest budget", []ff.Edit{{"combat.contests[0].budget", `"slow"`}},
			[]string{`combat.contests[0] (grab).budget: unknown budget "slow"`}},

		// concentration and dying
		{"concentration text", []ff.Edit{{"combat.concentration.text", `"notes"`}},
			[]string{`combat.concentration.text: unknown live text "notes"`}},
		{"concentration save", []ff.Edit{{"combat.concentration.save", `"will"`}},
			[]string{`combat.concentration.save: unknown save "will"`}},
		{"concentration share", []ff.Edit{{"combat.concentration.fromDamage", `1.5`}},
			[]string{`combat.concentration.fromDamage: 1.5 is out of range: above 0 and at most 1`}},
		{"dying on a wound track", []ff.Edit{{"combat.dying.successes", `"harm"`}},
			[]string{`combat.dying.successes: track "harm" is a wound track, not a counter of death saves`}},
		{"dying one track", []ff.Edit{{"combat.dying.failures", `"saves_won"`}},
			[]string{`combat.dying.failures: successes and failures are counted on two different tracks`}},
		{"dying track max from the sheet", []ff.Edit{{"sheet.live.tracks[1].max", `{"const":3}`}},
			[]string{`combat.dying.successes: track "saves_won" counts death saves, so its max is a number, not a value the sheet works out`}},
		{"dying track without room", []ff.Edit{{"sheet.live.tracks[2].max", `0`}},
			[]string{`combat.dying.failures: track "saves_lost" counts death saves, so its max is at least 1 and above its min`}},
		{"dying track hidden", []ff.Edit{{"sheet.live.tracks[1].hideWhen", `{"field":"calling","equals":"scout"}`}},
			[]string{`combat.dying.successes: track "saves_won" counts death saves, so it cannot be hidden`}},
		{"dying naturals", []ff.Edit{{"combat.dying.dice.count", `2`}},
			[]string{`combat.dying.naturals: natural results need a single die; with several dice use none`}},
		{"dying condition", []ff.Edit{{"combat.dying.condition", `"out"`}},
			[]string{`combat.dying.condition: unknown condition "out"`}},
		{"dying kind", []ff.Edit{{"combat.dying.kind", `"bleed"`}},
			[]string{`combat.dying.kind: "bleed" is not one of: saves`}},
		{"dying while down", []ff.Edit{{"combat.dying.damageWhileDown", `"three-failures"`}},
			[]string{`combat.dying.damageWhileDown: "three-failures" is not one of: one-failure, two-failures, none`}},

		// damage types, threat, spend limits
		{"damage type twice", []ff.Edit{{"combat.damageTypes[2]", `"Cut "`}},
			[]string{`combat.damageTypes[2]: damage type "Cut " is listed twice`}},
		{"damage type text", []ff.Edit{{"combat.damageTypes[2]", `"[fire]"`}},
			[]string{`combat.damageTypes[2]: must not contain square brackets`}},
		{"threat band", []ff.Edit{{"combat.threat.tiers[0].health", `[20,5]`}},
			[]string{`combat.threat.tiers[0] (pack).health[0]: the lowest is above the highest`}},
		{"threat defense", []ff.Edit{{"combat.threat.tiers[0].defense", `101`}},
			[]string{`combat.threat.tiers[0] (pack).defense: 101 is out of range 0..100`}},
		{"threat tier twice", []ff.Edit{{"combat.threat.tiers[1]", `{"id":"pack","label":"Pack again","health":[1,2],"defense":1,"toHit":0,"damagePerRound":[0,1],"saveDifficulty":0}`}},
			[]string{`combat.threat.tiers[1] (pack).id: duplicate threat tier id "pack"`}},
		{"spend limit on a group", []ff.Edit{{"combat.spendLimits[0].pool", `"slots"`}},
			[]string{`combat.spendLimits[0].pool: unknown live pool "slots"`}},
		{"spend limit twice", []ff.Edit{{"combat.spendLimits[1]", `{"pool":"luck","max":{"const":2},"per":"round"}`}},
			[]string{`combat.spendLimits[1].pool: pool "luck" is limited twice`}},
		{"spend limit per", []ff.Edit{{"combat.spendLimits[0].per", `"fight"`}},
			[]string{`combat.spendLimits[0].per: "fight" is not one of: turn, round`}},
	})
}

// fightCase is one broken fight rule: the edits that break it and every problem, exactly.
type fightCase struct {
	name  string
	edits []ff.Edit
	want  []string
}

// checkFightCases parses the fixture with each case's edits and compares the problems.
func checkFightCases(t *testing.T, cases []fightCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, got := fightParse(t, tc.edits...)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestFightPooled(t *testing.T) {
	rs, got := fightParse(t, ff.Pooled...)
	if len(got) > 0 {
		t.Fatalf("the pooled fixture has problems:\n%s", strings.Join(got, "\n"))
	}
	if !rs.Combat.SpendsInitiative() || rs.Combat.Initiative.Resource.Crash.CrashAt() != 0 {
		t.Fatal("the resource should spend and crash at 0")
	}
	cases := []struct {
		name  string
		edits []ff.Edit
		want  []string
	}{
		{"damage target above the die", []ff.Edit{{"combat.pool.damageTarget", `11`}},
			[]string{`combat.pool.damageTarget: a 10-sided die never reaches 11`}},
		{"soak kind not of the track", []ff.Edit{{"combat.pool.soak.byKind", `{"burn":{"const":1}}`}},
			[]string{`combat.pool.soak.byKind.burn: "burn" is not a kind of the health track`}},
		{"soak kind on a pool", []ff.Edit{{"combat.health", `{"pool":"grit"}`}, {"combat.damageKinds", ``}}, []string{
			ff.GhoulAt + `.soak.byKind.gash: soak by kind needs health to be a wound track with kinds`,
			`combat.pool.soak.byKind.knock: soak by kind needs health to be a wound track with kinds`,
		}},
		{"no pool block", []ff.Edit{{"combat.pool", ``}}, []string{
			ff.GhoulAt + `.soak: this fight's pool block says nothing about soak, so there is no way to take it`,
			`combat.pool: a "dice-pool" fight needs pool to say how it rolls damage`,
		}},
		{"hardness without a spending style", []ff.Edit{{"combat.initiative.resource.styles[1]", ``}}, []string{
			ff.GhoulAt + `.hardness: hardness only stops a spending blow, so initiative must be a resource with a style that spends`,
			`combat.pool.hardness: hardness only stops a spending blow, so initiative must be a resource with a style that spends`,
		}},
		{"resource thrown again", []ff.Edit{{"combat.initiative.each", `"round"`}},
			[]string{`combat.initiative.each: a number attacks move is kept for the whole fight, so it is never thrown again`}},
		{"resource without pool", []ff.Edit{{"combat.initiative.pool", ``}, {"combat.initiative.plus", ``}, {"combat.initiative.dice", `{"count":1,"sides":10}`}},
			[]string{`combat.initiative.resource: a number attacks move opens with a thrown pool, so initiative needs pool`}},
		{"rolled modifier in a pool fight", []ff.Edit{{"combat.conditions[1].modifiers", `[{"to":"attacks","dice":"1d4"}]`}},
			[]string{`combat.conditions[1].modifiers[0].dice: a "dice-pool" fight adds dice to a pool, so a modifier gives a flat number of dice`}},
		{"pool fight on a summed ruleset", []ff.Edit{{"resolution", `{"kind":"dice-sum","abilityModifier":{"op":"identity"},"proficiencyTiers":[{"id":"untrained","label":"Untrained"},{"id":"trained","label":"Trained","flat":2}],"difficultyLadder":[{"label":"Hard","dc":10}]}`}},
			[]string{`combat.kind: a "dice-pool" fight throws the ruleset's own pools, so resolution.kind must be "dice-pool" too`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, got := fightParse(t, append(append([]ff.Edit{}, ff.Pooled...), tc.edits...)...)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

// TestFightFeatures checks the Capability API versions the fight keys record, each the
// first time it is met.
func TestFightFeatures(t *testing.T) {
	minors := func(rs *ruleset.Ruleset) map[string]int {
		m := map[string]int{}
		for _, f := range rs.Features() {
			m[f.Name] = f.Minor
		}
		return m
	}
	rs, _ := fightParse(t)
	got := minors(rs)
	want := map[string]int{
		"the battle block": 22, "the combat block": 26, "creature catalogs": 27, "a fight on a board": 28,
		"damage clauses": 29, "creature riders": 29, "strikes per spend": 29, "the 1.29 condition effects": 29,
		"conditions narrowed to saves": 29, "conditions that end when their source goes down": 29,
		"conditions that hold while their source is in sight": 29, "strikesCappedBy": 32,
		"reaction moments": 33, "creatures written as a sheet": 34, "contests": 43,
		"reactions to a use or to some catalogs": 44, "condition modifiers": 45, "combat levels": 45,
		"check effects": 45, "actions that land on the creature itself": 46, "an attack's skill column": 47,
		"spend limits": 47, "modifiers narrowed to skills": 53, "conditions narrowed to skills": 53,
	}
	for name, minor := range want {
		if got[name] != minor {
			t.Errorf("feature %q: got 1.%d, want 1.%d", name, got[name], minor)
		}
	}
	rs, _ = fightParse(t, ff.Pooled...)
	got = minors(rs)
	for name, minor := range map[string]int{"initiative thrown as a pool": 48, "initiative that attacks move": 48,
		"combat health on a wound track": 30, "combat damage kinds": 30, "creature soak": 47} {
		if got[name] != minor {
			t.Errorf("pooled feature %q: got 1.%d, want 1.%d", name, got[name], minor)
		}
	}
	rs, _ = fightParse(t, ff.Edit{"catalogs[1].entries[0].creature.actions[5].reaction", `{"on":"hit"}`},
		ff.Edit{"catalogs[1].entries[0].creature.actions[1].applies[0]", `{"condition":"shaken","duration":{"rounds":1,"at":"turn-start"}}`},
		ff.Edit{"combat.levels[0].derived", `"x"`}, ff.Edit{"combat.levels[0].track", ``}, ff.Edit{"combat.initiative.each", `"round"`})
	got = minors(rs)
	for name, minor := range map[string]int{"reactions to a hit": 46, "conditions timed by turn starts, attacks or saves": 45,
		"a level that reads a derived value": 54, "initiative thrown again each round": 47} {
		if got[name] != minor {
			t.Errorf("feature %q: got 1.%d, want 1.%d", name, got[name], minor)
		}
	}
}

// TestFightCorpus: every public ruleset loads with no problem.
func TestFightCorpus(t *testing.T) {
	const dir = "../../../shared/reference/marinara/"
	for _, name := range []string{"ember-roads.json", "gravewatch.json", "ruleset-5e-2014.example.json", "5e-2014/ruleset.json"} {
		data, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ps := ruleset.Parse(data); len(ps) > 0 {
			t.Errorf("%s:\n%v", name, ps)
		}
	}
}
