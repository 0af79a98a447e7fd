package sheet

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"sheetkeeper/ruleset"
)

// randomTag draws one sheet command over rs's own names (and a few it does not have),
// with amounts inside and outside the bounds.
func randomTag(t *rapid.T, rs *ruleset.Ruleset) string {
	live := &rs.Sheet.Live
	name := func(label string, ids []string) string {
		return rapid.SampledFrom(append(ids, "nothing", "")).Draw(t, label)
	}
	var pools, tracks, conds, rests []string
	for _, p := range live.Pools {
		pools = append(pools, p.ID, p.Label)
	}
	pools = append(pools, "Spark", "tricks:spark")
	for _, tr := range live.Tracks {
		tracks = append(tracks, tr.ID)
	}
	for _, c := range live.Conditions {
		conds = append(conds, c.ID)
	}
	for _, r := range rs.Rests {
		rests = append(rests, r.ID)
	}
	n := rapid.IntRange(-5, 12).Draw(t, "n")
	switch rapid.IntRange(0, 7).Draw(t, "op") {
	case 0, 1, 2, 3:
		op := rapid.SampledFrom([]string{"spend", "restore", "damage", "temp"}).Draw(t, "pool op")
		return fmt.Sprintf(`[sheet: op=%q pool=%q amount="%d"]`, op, name("pool", pools), n)
	case 4:
		return fmt.Sprintf(`[sheet: op="track" track=%q by="%d"]`, name("track", tracks), n)
	case 5:
		kinds := []string{"bashing", "lethal", "aggravated", "knock", "tear", "strain", "burn", "dread"}
		return fmt.Sprintf(`[sheet: op="damage" track=%q kind=%q amount="%d" box="%d"]`, name("track", tracks),
			rapid.SampledFrom(kinds).Draw(t, "kind"), n, rapid.IntRange(1, 4).Draw(t, "box"))
	case 6:
		return fmt.Sprintf(`[sheet: op="condition" condition=%q state=%q]`, name("condition", conds),
			rapid.SampledFrom([]string{"on", "off"}).Draw(t, "state"))
	}
	return fmt.Sprintf(`[sheet: op="rest" rest=%q]`, name("rest", rests))
}

// checkPools: no pool below 0 or above its max, temp never negative.
func checkPools(t *rapid.T, rs *ruleset.Ruleset, c *Card) {
	for _, p := range Evaluate(rs, c, nil).Live.Pools {
		if p.Value < 0 || p.Value > p.Max || p.Temp < 0 {
			t.Fatalf("pool %s at %d/%d +%d", p.Key, p.Value, p.Max, p.Temp)
		}
		if s, ok := c.Live.Pools[p.Key]; ok && (s.Value < 0 || s.Value > p.Max) {
			t.Fatalf("pool %s stored %+v beyond 0..%d", p.Key, s, p.Max)
		}
	}
}

// TestPropertyOps: over random command sequences on every fixture and reference
// ruleset, a refused op leaves the card identical and changes nothing, an applied one
// reports exactly what changed, and no pool ever leaves 0..max.
func TestPropertyOps(t *testing.T) {
	var sets []*ruleset.Ruleset
	sets = append(sets, fixture(t, "trials.json"))
	for _, f := range referenceFiles {
		sets = append(sets, reference(t, f))
	}
	rapid.Check(t, func(t *rapid.T) {
		rs := rapid.SampledFrom(sets).Draw(t, "ruleset")
		c := newCard(rs, "Mira")
		c.Build.Lists = map[string][]Row{"tricks": {{"name": "Spark", "uses": float64(rapid.IntRange(0, 3).Draw(t, "uses"))}}}
		c.Build.Fields = map[string]any{"toughness": float64(rapid.IntRange(-3, 3).Draw(t, "toughness"))}
		for range rapid.IntRange(1, 25).Draw(t, "steps") {
			text := randomTag(t, rs)
			before := c.Clone()
			res := Apply(rs, []*Card{c}, tag(t, text), Options{Default: "Mira"})
			changes := res.Changes()
			if !res.Outcome.OK() {
				if !c.Equal(before) || len(changes) != 0 {
					t.Fatalf("%s refused %s but changed the card", text, res.Outcome.Reason)
				}
				continue
			}
			if got := Diff("Mira", before, c); len(got) != len(changes) {
				t.Fatalf("%s: reported %v, diff %v", text, changes, got)
			}
			// Reverting the op's changes gives the card back exactly.
			undo := c.Clone()
			Revert(undo, changes)
			if !undo.Equal(before) {
				t.Fatalf("%s: revert did not restore the card", text)
			}
			checkPools(t, rs, c)
		}
	})
}

// TestPropertySpendRestore: spending n within what is left and restoring n is identity,
// stored value included (the store is sparse again when it started so).
func TestPropertySpendRestore(t *testing.T) {
	rs := reference(t, "ruleset-5e-2014.example.json")
	rapid.Check(t, func(t *rapid.T) {
		c := newCard(rs, "Mira")
		c.Build.Fields = map[string]any{"level": float64(rapid.IntRange(1, 20).Draw(t, "level")),
			"hp_max": float64(rapid.IntRange(1, 200).Draw(t, "hp")), "slots_max_1": 4.0, "slots_max_3": 3.0,
			"spellcasting_ability": "int"}
		pools := Evaluate(rs, c, nil).Live.Pools
		p := rapid.SampledFrom(pools).Draw(t, "pool")
		pre := rapid.IntRange(0, p.Max).Draw(t, "pre")
		if pre > 0 {
			Apply(rs, []*Card{c}, tag(t, fmt.Sprintf(`[sheet: op="spend" pool=%q amount="%d"]`, p.Key, pre)), Options{Default: "Mira"})
		}
		before := c.Clone()
		left := p.Max - pre
		if left == 0 {
			return
		}
		n := rapid.IntRange(1, left).Draw(t, "n")
		o1 := Apply(rs, []*Card{c}, tag(t, fmt.Sprintf(`[sheet: op="spend" pool=%q amount="%d"]`, p.Key, n)), Options{Default: "Mira"})
		o2 := Apply(rs, []*Card{c}, tag(t, fmt.Sprintf(`[sheet: op="restore" pool=%q amount="%d"]`, p.Key, n)), Options{Default: "Mira"})
		if !o1.Outcome.OK() || !o2.Outcome.OK() || !c.Equal(before) {
			t.Fatalf("spend %d then restore %d on %s: %s / %s", n, n, p.Key, summary(o1.Outcome), summary(o2.Outcome))
		}
	})
}

// TestPropertyApplier: one Applier across a message's tags gives exactly what Apply gives
// tag by tag — the same results, changes and cards, and the same live state read back —
// over random sequences that also change builds (advance), which must drop what the
// Applier worked out for the card.
func TestPropertyApplier(t *testing.T) {
	// Every set may advance: the reference ones are given an advancement block (each
	// load is the test's own), so a build change moves pool maximums.
	arcana := useRuleset(t, arcanaPath)
	sets := []*ruleset.Ruleset{fixture(t, "trials.json"), arcana}
	// The arcana card has every spell picked, so uses and casts (which read the whole
	// sheet but share the build) run beside the live-only ops and advances.
	spellCaster := caster(t, arcana)
	for _, f := range referenceFiles {
		sets = append(sets, reference(t, f))
	}
	for _, rs := range sets {
		if rs.Sheet.Advancement == nil {
			adv := &ruleset.Advancement{Abilities: true}
			for _, f := range rs.Sheet.Fields {
				if f.Type == "number" {
					adv.Fields = append(adv.Fields, f.ID)
				}
			}
			rs.Sheet.Advancement = adv
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		rs := rapid.SampledFrom(sets).Draw(t, "ruleset")
		advances := advanceTargets(rs)
		fresh := newCard(rs, "Mira")
		fresh.Build.Lists = map[string][]Row{"tricks": {{"name": "Spark", "uses": float64(rapid.IntRange(0, 3).Draw(t, "uses"))}}}
		fresh.Build.Fields = map[string]any{"toughness": float64(rapid.IntRange(-3, 3).Draw(t, "toughness"))}
		if rs.Sheet.Live.Pools[0].ID == "hp" {
			fresh.Build.Fields = casterFields()
		}
		if rs == arcana {
			fresh = spellCaster.Clone()
		}
		// reused runs through one Applier, as a message's tags; kept through Appliers of
		// one Builds, a new one (and a new copy of the card, as read afresh from the
		// store) at each new message, beside a namesake with another build that takes
		// turns with it in the Builds.
		reused, kept := fresh.Clone(), fresh.Clone()
		namesake, namesakeWant := fresh.Clone(), fresh.Clone()
		namesake.Build.Fields = maps.Clone(namesake.Build.Fields)
		namesake.Build.Fields["toughness"] = 9.0
		namesakeWant.Build = namesake.Build.clone()
		ap, builds := NewApplier(rs), NewBuilds(rs)
		message := builds.Applier()
		opts := Options{Default: "Mira", Catalogs: inline(rs)}
		var last, lastWant Result
		for range rapid.IntRange(1, 25).Draw(t, "steps") {
			text := randomTag(t, rs)
			switch {
			case len(advances) > 0 && rapid.IntRange(0, 3).Draw(t, "advance?") == 0:
				text = fmt.Sprintf(`[sheet: op="advance" %s by="%d"]`, rapid.SampledFrom(advances).Draw(t, "target"), rapid.IntRange(-3, 12).Draw(t, "by"))
			case rs == arcana && rapid.IntRange(0, 2).Draw(t, "use?") == 0:
				text = randomUse(t, rs, fresh)
			}
			want := Apply(rs, []*Card{fresh}, tag(t, text), opts)
			got := sameAsApply(t, text, ap, reused, fresh, want)
			// An Applier makes each op's run again in place (Applier.run): what an
			// earlier tag returned must not change under the next.
			if !reflect.DeepEqual(last, lastWant) {
				t.Fatalf("an earlier result changed:\n got %+v\nwant %+v", last, lastWant)
			}
			last, lastWant = got, want
			if rapid.IntRange(0, 2).Draw(t, "next message?") == 0 {
				message, kept = builds.Applier(), kept.Clone()
				if rapid.Bool().Draw(t, "namesake?") {
					ns := builds.Applier()
					sameAsApply(t, text, ns, namesake, namesakeWant, Apply(rs, []*Card{namesakeWant}, tag(t, text), opts))
				}
			}
			sameAsApply(t, text, message, kept, fresh, want)
		}
	})
}

// advanceTargets is what an advance on rs may change: the advancement block's number
// fields and, when it allows them, abilities (a pool's maximum often reads one).
func advanceTargets(rs *ruleset.Ruleset) []string {
	var advances []string
	if adv := rs.Sheet.Advancement; adv != nil {
		for _, id := range adv.Fields {
			if f := rs.Sheet.Field(id); f != nil && f.Type == "number" {
				advances = append(advances, fmt.Sprintf(`field=%q`, id))
			}
		}
		for _, a := range rs.Sheet.Abilities {
			if adv.Abilities {
				advances = append(advances, fmt.Sprintf(`ability=%q`, a.ID))
			}
		}
	}
	return advances
}

// sameAsApply applies text to card through ap and fails unless it did what Apply did to
// its twin (want, the card as Apply left it): the same result, card and live state.
func sameAsApply(t *rapid.T, text string, ap *Applier, card, twin *Card, want Result) Result {
	opts := Options{Default: "Mira", Catalogs: inline(ap.ix.rs)}
	got := ap.Apply([]*Card{card}, tag(t, text), opts)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", text, got, want)
	}
	if !card.Equal(twin) {
		t.Fatalf("%s: the cards differ", text)
	}
	live := LiveOf(ap.ix.rs, twin)
	if got := ap.LiveOf(card); !reflect.DeepEqual(got, live) {
		t.Fatalf("%s: live state\n got %+v\nwant %+v", text, got, live)
	}
	for _, p := range live.Pools {
		if got := ap.Pool(card, p.Key); got == nil || *got != p {
			t.Fatalf("%s: pool %s %+v, want %+v", text, p.Key, got, p)
		}
	}
	if got := ap.Pool(card, "nothing"); got != nil {
		t.Fatalf("%s: a pool the card does not have reads %+v", text, got)
	}
	return got
}

// randomUse draws a use or a cast of an entry on card (or of a name it does not have),
// upcast from one of rs's pools now and then.
func randomUse(t *rapid.T, rs *ruleset.Ruleset, card *Card) string {
	names := []string{"nothing"}
	for _, list := range slices.Sorted(maps.Keys(card.Build.Lists)) {
		for _, r := range card.Build.Lists[list] {
			if n, ok := r.Text("name"); ok && r.Marker() != "" {
				names = append(names, n)
			}
		}
	}
	op := rapid.SampledFrom([]string{"use", "cast"}).Draw(t, "use op")
	name := rapid.SampledFrom(names).Draw(t, "entry")
	if rapid.Bool().Draw(t, "upcast?") {
		p := rapid.SampledFrom(rs.Sheet.Live.Pools).Draw(t, "upcast pool")
		return fmt.Sprintf(`[sheet: op=%q name=%q pool=%q]`, op, name, p.ID)
	}
	return fmt.Sprintf(`[sheet: op=%q name=%q]`, op, name)
}

// TestPropertyValuesKinds: the Values an op runs on read as Evaluate's, on every ruleset
// and over random live states — the live state for every kind of op, and for one that
// reads the whole sheet (use, advance) every skill, save and derived value too, whether
// its skills are worked out at once (changesBuild) or when first asked for (readsSheet).
func TestPropertyValuesKinds(t *testing.T) {
	arcana := useRuleset(t, arcanaPath)
	sets := []*ruleset.Ruleset{fixture(t, "trials.json"), arcana}
	for _, f := range referenceFiles {
		sets = append(sets, reference(t, f))
	}
	spellCaster := caster(t, arcana)
	rapid.Check(t, func(t *rapid.T) {
		rs := rapid.SampledFrom(sets).Draw(t, "ruleset")
		c := newCard(rs, "Mira")
		c.Build.Fields = map[string]any{"toughness": float64(rapid.IntRange(-3, 3).Draw(t, "toughness"))}
		switch {
		case rs == arcana:
			c = spellCaster.Clone()
		case rs.Sheet.Live.Pools[0].ID == "hp":
			c.Build.Fields = casterFields()
		}
		for range rapid.IntRange(0, 10).Draw(t, "steps") {
			Apply(rs, []*Card{c}, tag(t, randomTag(t, rs)), Options{Default: "Mira"})
		}
		want := Evaluate(rs, c, nil)
		for _, kind := range []opKind{liveOnly, readsSheet, changesBuild} {
			ap := NewApplier(rs)
			got := ap.evalOf(c).values(ap.ix, c, kind, &opRun{})
			if !reflect.DeepEqual(got.Live, want.Live) {
				t.Fatalf("kind %d: live state\n got %+v\nwant %+v", kind, got.Live, want.Live)
			}
			if kind == liveOnly {
				continue
			}
			// ProficiencyBonus is read through proficiency(), which works it out when
			// first asked for.
			if p := got.proficiency(); p != want.ProficiencyBonus || !reflect.DeepEqual(got.Derived, want.Derived) {
				t.Fatalf("kind %d: proficiency %v derived %v, want %v %v", kind, p, got.Derived, want.ProficiencyBonus, want.Derived)
			}
			for _, k := range rs.Sheet.Skills {
				if g := got.Ref(&ruleset.ValueRef{SkillMod: k.ID}); g != want.SkillMods[k.ID] {
					t.Fatalf("kind %d: skill %s %v, want %v", kind, k.ID, g, want.SkillMods[k.ID])
				}
			}
			for _, k := range rs.Sheet.Saves {
				if g := got.Ref(&ruleset.ValueRef{SaveMod: k.ID}); g != want.SaveMods[k.ID] {
					t.Fatalf("kind %d: save %s %v, want %v", kind, k.ID, g, want.SaveMods[k.ID])
				}
			}
		}
	})
}
