package sheet

import (
	"testing"

	"sheetkeeper/parser"
)

// reply5e is a GM reply of ten sheet tags on one 5e character.
const reply5e = `The ghoul rakes Mira. [sheet: who="Mira" op="damage" pool="hp" amount="7"]
She answers with fire. [sheet: who="Mira" op="spend" pool="3rd-level slots" amount="1"]
[sheet: who="Mira" op="temp" pool="hp" amount="5"] [sheet: who="Mira" op="condition" condition="prone"]
[sheet: who="Mira" op="note" field="concentration" value="Fly"] [sheet: who="Mira" op="track" track="exhaustion" by="1"]
[sheet: who="Mira" op="spend" pool="slots_1" amount="1"] [sheet: who="Mira" op="heal" pool="hp" amount="4"]
[sheet: who="Mira" op="condition" condition="prone" state="off"] [sheet: who="Mira" op="rest" rest="long"]`

// BenchmarkReply5e applies a 10-tag reply to a 5e card: the whole per-reply engine cost
// (the tags are read once, outside the loop; the card starts fresh each time), through
// one Applier per message ("applier"), through one Applier per message of a Builds kept
// from message to message as the bot applies them ("builds": the build is worked out
// once, not once a message), and through Apply tag by tag, which works each card's build
// out again for every tag ("apply").
func BenchmarkReply5e(b *testing.B) {
	rs := reference(b, "ruleset-5e-2014.example.json")
	tags := parser.Read(reply5e).Tags
	if len(tags) != 10 {
		b.Fatalf("%d tags", len(tags))
	}
	base := newCard(rs, "Mira")
	base.Build.Fields = casterFields()
	base.Build.Abilities = map[string]float64{"int": 16, "dex": 14, "con": 12}
	base.Build.Skills = map[string]string{"arcana": "proficient", "stealth": "expertise"}
	base.Build.Lists = map[string][]Row{"counters": {{"name": "Arcane Recovery", "max": 1.0, "recharge": "long"}}}
	// Every tag must apply, or the benchmark measures refusals.
	c := base.Clone()
	for _, tg := range tags {
		if o := Apply(rs, []*Card{c}, tg, Options{}).Outcome; !o.OK() {
			b.Fatalf("%s: %s", tg.Canonical(), summary(o))
		}
	}
	b.Run("applier", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cards := []*Card{base.Clone()}
			ap := NewApplier(rs)
			for _, tg := range tags {
				ap.Apply(cards, tg, Options{})
			}
		}
	})
	b.Run("builds", func(b *testing.B) {
		builds := NewBuilds(rs)
		b.ReportAllocs()
		for b.Loop() {
			cards := []*Card{base.Clone()}
			ap := builds.Applier()
			for _, tg := range tags {
				ap.Apply(cards, tg, Options{})
			}
		}
	})
	b.Run("apply", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cards := []*Card{base.Clone()}
			for _, tg := range tags {
				Apply(rs, cards, tg, Options{})
			}
		}
	})
}
