package bot

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"sheetkeeper/storage"
)

// briefText is the text of a /gm brief: the core answers with one code block, however
// long (the Discord adapter splits it; bot/discord's TestSplitTextReopensWithItsFence).
func briefText(t *testing.T, r Response) string {
	t.Helper()
	inner, ok := strings.CutPrefix(r.Content, "```text\n")
	inner, ok2 := strings.CutSuffix(inner, "\n```")
	if !ok || !ok2 {
		t.Fatalf("the brief is not one code block: %q", r.Content)
	}
	return inner
}

func TestGMBrief(t *testing.T) {
	m := newPickTable(t, "low-vell", "harbour_law")
	m.pkCard("ana", "Mira", map[string]any{"rank": 5.0, "guild": "Beaconkeeper", "ability.nerve": 14.0},
		"workings/ember-dart", "workings/lantern-chain", "workings/bellows-breath")
	m.pkCard("bram", "Osk", map[string]any{"rank": 1.0})
	m.ok(pkAna, "use", "name", "Mira", "entry", "Ember Dart")
	m.ok(pkGM, "gm brief") // a GM may

	r := m.run(pkAna, "gm brief")
	wantResponse(t, "players", r, "/gm brief is for the campaign's GMs", true)

	r = m.run(pkGM, "gm brief")
	if n := utf8.RuneCountInString(r.Content); !r.Ephemeral || n <= 4000 {
		t.Fatalf("an ephemeral brief longer than two Discord messages, got %d characters (%v)", n, r.Ephemeral)
	}
	text := briefText(t, r)
	for _, want := range []string{
		// The ruleset's GM text, the layer's guidance after the ruleset's own.
		"GM BRIEF: Low Vell: Lamplighters of the Drowned City (low-vell v1) with Harbour Law\n\nCHECKS\nThis game uses the Low Vell rules.",
		"Never roll or invent the result yourself. Harbour Law is on. The Watch patrols the high bridges",
		"\n\nWORLD\nLow Vell is a trading city",
		"lamp oil is worth its weight in silver. Harbour Law is on. The Smokejack guild has been broken",
		// Every op this ruleset can use, with its own names.
		`- [sheet: who="Name" op="spend" pool="Breath" amount="N"] takes N from a pool`,
		`- [sheet: who="Name" op="temp" pool="Breath" amount="N"]`,
		`- [sheet: who="Name" op="track" track="Rising Tide" by="1"]`,
		`- [sheet: who="Name" op="damage" track="Scars" kind="chill" amount="1"] marks harm of that kind on a wound track`,
		`- [sheet: who="Name" op="condition" condition="Soaked" state="on"]`,
		`- [sheet: who="Name" op="state" state="Lantern" value="Lit"]`,
		`- [sheet: who="Name" op="note" field="Tonight's errand" value="text"]`,
		`- [sheet: who="Name" op="rest" rest="Catch your breath"]`,
		`- [sheet: who="Name" op="use" name="Guiding Glow"] uses something on the sheet that came from a catalog`,
		`Add pool="Flare charges" to pay from a higher pool of its group for a stronger effect, or pool="Reserve oil", which pays for charges at its own level. A cost on an empty pool never climbs to a higher one by itself: name one that has some left (a refused use names them).`,
		`- [sheet: who="Name" op="advance" field="Lamps lit" by="1"] is permanent growth`,
		"This ruleset lets these grow: fields Lamps lit, Rank, Hardiness, Oath; abilities; skills; saves.",
		"Never write result, reason or now yourself",
		"Pools: Breath (holds temporary points), Spark charges (group charges), Flare charges (group charges), Blaze charges (group charges), Reserve oil (group reserve_oil; also pays for charges).",
		"Tracks: Rising Tide (0 to 6).",
		"Wound tracks: Scars (Shaken to Broken; kinds chill, murk).",
		"Notes: Tonight's errand, Owed to.",
		"States: Lantern (Snuffed, Hooded, Lit, Blazing).",
		"Rests: Catch your breath, Moor until dawn, A week in dry dock.",
		"The character sheets below are authoritative.",
		// Each card's sheet block, as gm.sheetSummary asks.
		"CHARACTER SHEETS\n\nMira\nNRV +14, KNK +0, GLW +0\nGuild Beaconkeeper, Rank 5, Breath maximum 22, Guard 7, Light cast 2\n" +
			"Breath 22/22, Spark charges 3/4, Flare charges 2/2, Blaze charges 1/1, Reserve oil 1/1, Bellows Breath 9/9\n" +
			"Rising Tide 0\nWorkings: Ember Dart 1, Lantern Chain 2, Bellows Breath 0\nTallies: Bellows Breath 9 After a breather",
		"\n\nOsk\nNRV +0, KNK +0, GLW +0\nGuild Wickwright, Rank 1, Breath maximum 8, Guard 7, Light cast 2\nBreath 8/8, Spark charges 2/2, Reserve oil 1/1\nRising Tide 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the brief lacks %q", want)
		}
	}
	if want := gmBriefOf(t, m); text != want {
		t.Errorf("the messages do not join back into the brief")
	}
}

// gmBriefOf is the brief's text as the core builds it, before splitting.
func gmBriefOf(t *testing.T, m *cmdTable) string {
	t.Helper()
	camp := m.campaignRecord()
	var tb *table
	var inv *briefInventory
	m.view(func(tx storage.Tx) (err error) {
		if tb, err = m.core.openTable(tx, camp); err != nil {
			return err
		}
		inv = m.core.briefInventoryOf(tb)
		return nil
	})
	m.core.drawBriefPanels(context.Background(), inv)
	return gmBrief(tb.rules, tb.catalogs, tb.camp, tb.cards, inv)
}

func TestGMBriefSheetBlock5e(t *testing.T) {
	m := newPickTable(t, "dnd5e-srd", "")
	m.pkCard("ana", "Mira", map[string]any{"class": "Wizard", "wizard_level": 5.0, "caster_level": 5.0, "spellcasting_ability": "int", "hp_max": 30.0},
		"spells/fireball", "spells/fire-bolt", "spells/magic-missile")
	m.ok(pkGM, "character set", "name", "Mira", "skill", "arcana", "value", "proficient")
	m.ok(pkGM, "character row edit", "name", "Mira", "list", "spells", "row", "Fireball", "values", "prepared=yes")
	m.ok(pkAna, "use", "name", "Mira", "entry", "Fireball")
	text := briefText(t, m.run(pkGM, "gm brief"))
	want := "CHARACTER SHEETS\n\nMira\nSTR +0, DEX +0, CON +0, INT +0, WIS +0, CHA +0\nTrained: Arcana +3\n"
	if !strings.Contains(text, want) {
		t.Errorf("want %q in\n%s", want, text[strings.Index(text, "CHARACTER SHEETS"):])
	}
	for _, want := range []string{
		"Hit points 30/30, Hit dice 5/5, 1st-level slots 4/4, 2nd-level slots 3/3, 3rd-level slots 1/2",
		"Spells (3): Fireball; (0): Fire Bolt",
		`- [sheet: who="Name" op="use" name="Acid Arrow"]`,
		"Pact Magic slots (group pact; also pays for slots)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the brief lacks %q", want)
		}
	}
}

// TestGMBriefChecks: the brief teaches the check tag with the ruleset's own names and
// only the options its resolution has, and promises no roll the engine cannot make.
func TestGMBriefChecks(t *testing.T) {
	m := newMsgTable(t, "low-vell")
	text := checkInstructions(m.rules.Ruleset, checkEntryExample(m.rules))
	for _, want := range []string{
		"sheetkeeper throws every check itself, 1d12 plus the sheet's numbers.",
		`- [skill_check: who="Name" skill="Row" difficulty="Hard"] rolls a check; save="Keep steady" a save, ability="Nerve" an ability.`,
		`- mode="advantage" or mode="disadvantage" throws twice`,
		"- [dice: 2d6+1] rolls free dice",
		"Never write rolls, total, successes or result yourself",
		"Skills: Row, Climb, Tinker, Sneak, Kindle, Parley.",
		"Saves: Keep steady, Ward off the Murk.",
		"Difficulties: Routine (5), Tricky (7), Hard (9), Dire (11), Against the tide (13).",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the check tags lack %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"threshold=", "bonus=", "spend=", "use="} {
		if strings.Contains(text, not) {
			t.Errorf("a dice-sum ruleset without spends is taught %s", not)
		}
	}
	rs := *m.rules.Ruleset
	rs.Resolution.Kind = "narrative"
	if text := checkInstructions(&rs, ""); !strings.Contains(text, "does not roll this ruleset's checks") || strings.Contains(text, "skill_check") {
		t.Errorf("a resolution the engine does not play: %s", text)
	}
}
