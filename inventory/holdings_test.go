package inventory

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"sheetkeeper/check"
	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// outfitted is the reference Ember Roads ruleset given the items block of Marinara's
// guide (shortened: one coin family), its Guard adding the guard of worn armor as the
// guide's chapter "Items on the sheet" writes it, and an outfitter's catalog.
func outfitted(t *testing.T) *ruleset.Loaded {
	return referenceWith(t, "ember-roads.json", outfit)
}

// referenceWith loads a reference ruleset after edit has changed it.
func referenceWith(t *testing.T, name string, edit func(doc)) *ruleset.Loaded {
	t.Helper()
	data, err := os.ReadFile("../../shared/reference/marinara/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	out, _ := json.Marshal(d)
	l, err := ruleset.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// itemWords are item words whose labels are their ids capitalised.
func itemWords(ids ...string) []any {
	var ws []any
	for _, id := range ids {
		ws = append(ws, doc{"id": id, "label": strings.ToUpper(id[:1]) + id[1:]})
	}
	return ws
}

// mods is an item effect of flat on checks of one skill.
func mods(skill string, flat int) doc {
	return doc{"modifiers": []any{doc{"to": "checks", "skills": []any{skill}, "flat": flat}}}
}

func item(id, label string, it doc) doc { return doc{"id": id, "label": label, "item": it} }

func outfit(d doc) {
	d["items"] = doc{
		"categories": itemWords("weapon", "armor", "gear"),
		"rarities":   itemWords("common", "storied"),
		"tags":       itemWords("thrown", "arrow", "charm"),
		"stats": []any{
			doc{"id": "bulk", "label": "Bulk", "type": "number", "min": 0, "max": 10, "default": 0},
			doc{"id": "guard", "label": "Guard", "type": "number", "min": 0, "max": 4, "default": 0},
			doc{"id": "damage", "label": "Damage", "type": "dice", "example": "1d6"},
		},
		"slots":      []any{doc{"id": "body", "label": "Body", "count": 1}, doc{"id": "hands", "label": "Hands", "count": 2}},
		"binding":    doc{"label": "Bound", "max": doc{"abilityScore": "heart"}},
		"carry":      doc{"stat": "bulk", "encumberedAbove": doc{"const": 10}},
		"currencies": []any{doc{"id": "coin", "label": "Coin", "units": []any{doc{"id": "bit", "label": "bits", "value": 1}, doc{"id": "mark", "label": "marks", "value": 10}}}},
	}
	sheetDoc := d["sheet"].(doc)
	for _, x := range sheetDoc["derived"].([]any) {
		if dv := x.(doc); dv["id"] == "guard" {
			dv["of"] = append(dv["of"].([]any), doc{"itemStat": doc{"stat": "guard", "from": "worn", "pick": "sum"}})
		}
	}
	d["catalogs"] = append(d["catalogs"].([]any), doc{"id": "outfitter", "label": "Outfitter", "holds": "items", "entries": []any{
		item("leather-coat", "Leather coat", doc{"category": "armor", "rarity": "common", "stats": doc{"bulk": 2, "guard": 1},
			"slots": doc{"body": 1}, "worn": mods("sneak", -1)}),
		item("scale-coat", "Scale coat", doc{"category": "armor", "rarity": "storied", "stats": doc{"bulk": 4, "guard": 3}, "slots": doc{"body": 1}}),
		item("buckler", "Buckler", doc{"category": "armor", "stats": doc{"bulk": 1, "guard": 1}, "slots": doc{"hands": 1}}),
		item("hand-axe", "Hand axe", doc{"category": "weapon", "tags": []any{"thrown"}, "stats": doc{"bulk": 1, "damage": "1d6"}, "slots": doc{"hands": 1}}),
		item("arrow", "Arrow", doc{"category": "gear", "tags": []any{"arrow"}, "stack": 20}),
		item("waystone", "Waystone", doc{"category": "gear", "carried": mods("sway", 1)}),
		item("fox-charm", "Fox charm", doc{"category": "gear", "tags": []any{"charm"}, "binds": doc{}, "worn": mods("sneak", 1)}),
		item("ox-gauntlets", "Ox-hide gauntlets", doc{"category": "armor", "stats": doc{"bulk": 1}, "slots": doc{"hands": 2},
			"worn": doc{"abilities": doc{"brawn": doc{"set": 2}}}}),
		item("grave-spade", "Grave spade", doc{"category": "weapon", "stats": doc{"bulk": 3}, "slots": doc{"hands": 2},
			"requires": []any{doc{"value": doc{"abilityScore": "brawn"}, "atLeast": 2, "otherwise": mods("scrap", -1)}}}),
	}})
}

// kit is the outfitted ruleset's campaign and items, and a traveller with an empty bag.
type kit struct {
	t     *testing.T
	rs    *ruleset.Ruleset
	c     *Campaign
	items RulesetItems
	card  *sheet.Card
	inv   []*Entry
}

func newKit(t *testing.T) *kit { return kitOn(t, outfitted(t)) }

func kitOn(t *testing.T, l *ruleset.Loaded) *kit {
	sys, ps := FromRuleset(l.Ruleset, l.Entries)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, ps := sys.Campaign(nil)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	items, err := ItemsOf(l.Ruleset, l.Entries)
	if err != nil {
		t.Fatal(err)
	}
	card := sheet.NewCard("Mira", l.Ruleset.ID, l.Ruleset.Version, l.Ruleset.Sheet.Version)
	if l.Ruleset.ID == "ember-roads" {
		card.Build.Abilities = map[string]float64{"wits": 1, "heart": 2}
	}
	return &kit{t: t, rs: l.Ruleset, c: c, items: items, card: card}
}

// add puts qty of a catalog item into the bag and returns its entry.
func (k *kit) add(id string, qty int64) *Entry {
	k.t.Helper()
	it := k.c.System.CatalogItem("outfitter/" + id)
	if it == nil {
		k.t.Fatalf("no item %s", id)
	}
	var e *Entry
	k.inv, e = k.c.Add(k.inv, k.c.NewEntry(id, it, qty))
	return e
}

func (k *kit) equip(e *Entry) {
	k.t.Helper()
	if full, err := k.c.Equip(k.inv, e); err != nil || full != nil {
		k.t.Fatalf("equip %s: %v %+v", e.UID, err, full)
	}
}

func (k *kit) holdings() *Holdings { return k.c.Holdings(k.rs, k.items, k.inv) }

var _ interface {
	sheet.ItemStats
	sheet.ItemAbilities
} = (*Holdings)(nil)

func (k *kit) values() *sheet.Values { return sheet.Evaluate(k.rs, k.card, k.holdings()) }

// The acceptance of the bridge: Ember Roads' Guard is 6 plus Wits plus the guard of the
// armor worn, so equipping a coat raises it and taking it off gives it back.
func TestEmberGuardReadsWornArmor(t *testing.T) {
	k := newKit(t)
	guard := func() float64 { return k.values().Derived["guard"] }
	if g := guard(); g != 7 {
		t.Fatalf("Guard with an empty bag: %v, want 6 + Wits 1", g)
	}
	coat := k.add("leather-coat", 1)
	if g := guard(); g != 7 {
		t.Errorf("a coat only carried: Guard %v, want 7", g)
	}
	k.equip(coat)
	if g := guard(); g != 8 {
		t.Errorf("the coat worn: Guard %v, want 8", g)
	}
	scale := k.add("scale-coat", 1)
	if full, _ := k.c.Equip(k.inv, scale); full == nil {
		t.Fatal("the body slot holds one coat")
	}
	k.c.Unequip(coat)
	if g := guard(); g != 7 {
		t.Errorf("the coat taken off: Guard %v, want 7 again", g)
	}
	k.equip(scale)
	if g := guard(); g != 10 {
		t.Errorf("the scale coat worn: Guard %v, want 10", g)
	}
	if g := sheet.Evaluate(k.rs, k.card, nil).Derived["guard"]; g != 7 {
		t.Errorf("no holdings (outside a game): Guard %v, want its default 0 added", g)
	}
}

func TestHoldingsItemStat(t *testing.T) {
	k := newKit(t)
	coat, buckler, axe := k.add("leather-coat", 1), k.add("buckler", 1), k.add("hand-axe", 2)
	k.add("scale-coat", 1)
	k.add("arrow", 12)
	charm := k.add("fox-charm", 1)
	k.equip(coat)
	k.equip(buckler)
	k.equip(axe)
	if _, err := k.c.SetState(k.inv, charm, StateChange{Key: BoundState, On: true}, BindingMax(k.rs, k.values())); err != nil {
		t.Fatal(err)
	}
	five := 5.0
	h := k.holdings()
	for _, tc := range []struct {
		name string
		s    ruleset.ItemStat
		want float64
		ok   bool
	}{
		{"worn guard sum", ruleset.ItemStat{Stat: "guard", From: "worn", Pick: "sum"}, 2, true},
		{"carried guard sum", ruleset.ItemStat{Stat: "guard", From: "carried", Pick: "sum"}, 3, true},
		{"all guard max", ruleset.ItemStat{Stat: "guard", From: "all", Pick: "max"}, 3, true},
		{"all guard min", ruleset.ItemStat{Stat: "guard", From: "all", Pick: "min"}, 1, true},
		{"bulk is the weight, times how many", ruleset.ItemStat{Stat: "bulk", From: "all", Pick: "sum"}, 2 + 1 + 2 + 4, true},
		{"count every item by how many", ruleset.ItemStat{From: "all", Pick: "count"}, 1 + 1 + 2 + 1 + 12 + 1, true},
		{"count what gives guard", ruleset.ItemStat{Stat: "guard", From: "all", Pick: "count"}, 3, true},
		{"count what gives a word", ruleset.ItemStat{Stat: "damage", From: "worn", Pick: "count"}, 2, true},
		{"a bound charm is worn", ruleset.ItemStat{From: "worn", Pick: "count", Tag: "charm"}, 1, true},
		{"slot", ruleset.ItemStat{Stat: "guard", From: "worn", Pick: "sum", Slot: "hands"}, 1, true},
		{"category", ruleset.ItemStat{From: "worn", Pick: "count", Category: "weapon"}, 2, true},
		{"tag", ruleset.ItemStat{From: "carried", Pick: "count", Tag: "arrow"}, 12, true},
		{"nothing picked", ruleset.ItemStat{Stat: "guard", From: "worn", Pick: "max", Category: "weapon", Default: &five}, 0, false},
	} {
		if got, ok := h.ItemStat(&tc.s); got != tc.want || ok != tc.ok {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	v := sheet.Evaluate(k.rs, k.card, h)
	ref := ruleset.ValueRef{ItemStat: &ruleset.ItemStat{Stat: "guard", From: "worn", Pick: "max", Category: "weapon", Default: &five}}
	if got := v.Ref(&ref); got != 5 {
		t.Errorf("nothing picked reads the default: %v", got)
	}
}

// binding.max is read off the bearer's sheet (Ember's Heart here) as the bound state's
// limit.
func TestBindingMaxReadsTheSheet(t *testing.T) {
	k := newKit(t)
	var charms []*Entry
	for _, uid := range []string{"a", "b", "c"} { // three rows: identical charms would stack
		e := k.c.NewEntry(uid, k.c.System.CatalogItem("outfitter/fox-charm"), 1)
		k.inv, charms = append(k.inv, e), append(charms, e)
	}
	a, b, c := charms[0], charms[1], charms[2]
	local := BindingMax(k.rs, k.values())
	if n, _ := k.c.Limit(k.c.State(BoundState), local); n != 2 {
		t.Fatalf("limit %d, want Heart 2", n)
	}
	for _, e := range []*Entry{a, b} {
		if _, err := k.c.SetState(k.inv, e, StateChange{Key: BoundState, On: true}, local); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := k.c.SetState(k.inv, c, StateChange{Key: BoundState, On: true}, local); err == nil {
		t.Error("a third item bound past Heart 2")
	}
}

// checkOn rolls a check tag for the kit's traveller with what they hold, and returns its
// result and write-back.
func (k *kit) checkOn(text string) (check.Result, string) {
	k.t.Helper()
	h := k.holdings()
	v := sheet.Evaluate(k.rs, k.card, h)
	tag := parser.Read(text).Tags[0]
	req, err := check.RequestOf(tag)
	if err != nil {
		k.t.Fatal(err)
	}
	req.Items = h.CheckItems(v)
	res, err := check.Resolve(k.rs, v, req, check.Seeded(7))
	if err != nil {
		k.t.Fatal(err)
	}
	return res, tag.WriteRecord(res.Record())
}

// A worn item's +1 to a skill is in the check's total and in the record's effects and
// from; a carried item's counts only while it is not worn.
func TestHoldingsOnChecks(t *testing.T) {
	k := newKit(t)
	const sneak = `[skill_check: who="Mira" skill="Sneak" dc="8"]`
	bare, _ := k.checkOn(sneak)
	charm := k.add("fox-charm", 1)
	if res, _ := k.checkOn(sneak); res.Total != bare.Total || res.Effects != 0 {
		t.Errorf("an unbound charm is not worn: %+v", res)
	}
	if _, err := k.c.SetState(k.inv, charm, StateChange{Key: BoundState, On: true}, BindingMax(k.rs, k.values())); err != nil {
		t.Fatal(err)
	}
	res, rec := k.checkOn(sneak)
	if res.Total != bare.Total+1 || res.Effects != 1 || !strings.Contains(rec, `effects="+1" from="Fox charm"`) {
		t.Errorf("the bound charm: total %d (bare %d), record %s", res.Total, bare.Total, rec)
	}
	k.equip(k.add("leather-coat", 1))
	if res, rec := k.checkOn(sneak); res.Total != bare.Total || res.Effects != 0 || !strings.Contains(rec, `from="Fox charm, Leather coat"`) {
		t.Errorf("charm and coat: total %d, record %s", res.Total, rec)
	}
	k.inv = append(k.inv, k.c.NewEntry("coat2", k.c.System.CatalogItem("outfitter/leather-coat"), 1))
	if res, _ := k.checkOn(sneak); res.Total != bare.Total || res.Effects != 0 {
		t.Errorf("a second coat, packed, changes nothing: effects %d", res.Effects)
	}
	const sway = `[skill_check: who="Mira" skill="Sway"]`
	k.add("waystone", 2)
	k.add("waystone", 1)
	if res, rec := k.checkOn(sway); res.Effects != 1 || !strings.Contains(rec, `from="Waystone"`) {
		t.Errorf("a carried waystone, once however many: %d, %s", res.Effects, rec)
	}
}

// Worn abilities change the score everything reads, but not a pool's maximum; a
// requirement reads the ability as the items leave it.
func TestHoldingsAbilitiesAndRequirements(t *testing.T) {
	k := newKit(t)
	before := k.values()
	gritMax := before.Live.Pool("grit").Max
	spade := k.add("grave-spade", 1)
	k.equip(spade)
	const scrap = `[skill_check: who="Mira" skill="Scrap"]`
	if res, rec := k.checkOn(scrap); res.Effects != -1 || !strings.Contains(rec, `from="Grave spade"`) {
		t.Errorf("the spade in weak hands: %d, %s", res.Effects, rec)
	}
	k.c.Unequip(spade)
	bare, _ := k.checkOn(scrap)
	gloves := k.add("ox-gauntlets", 1)
	k.equip(gloves)
	if res, _ := k.checkOn(scrap); res.Score != 2 || res.Modifier != bare.Modifier+2 {
		t.Errorf("Scrap rolls with Brawn 2 in the gauntlets: score %d, modifier %d (bare %d)", res.Score, res.Modifier, bare.Modifier)
	}
	v := k.values()
	if v.AbilityScores["brawn"] != 2 || v.AbilityMods["brawn"] != 2 {
		t.Errorf("gauntlets set Brawn to 2: %v", v.AbilityScores["brawn"])
	}
	if v.Live.Pool("grit").Max != gritMax {
		t.Errorf("grit's maximum moved with an item: %d, was %d", v.Live.Pool("grit").Max, gritMax)
	}
	k.card.Build.Abilities["brawn"] = 3
	if v := k.values(); v.AbilityScores["brawn"] != 3 {
		t.Errorf("set is at least: a higher score stays, got %v", v.AbilityScores["brawn"])
	}
	k.card.Build.Abilities["brawn"] = 0
	k.c.Unequip(gloves)
	gloves.Equipped = true // the spade and the gauntlets both in hand, as a test of reading only
	spade.Equipped = true
	if res, _ := k.checkOn(scrap); res.Effects != 0 {
		t.Errorf("the gauntlets meet the spade's requirement: effects %d", res.Effects)
	}
}

// Gravewatch, a dice pool, given the guide's Dawn bell and grave spade: the bound bell
// adds a die to Ward and only to Ward; the spade in a weak warden's hands takes one off
// Dig.
func TestGravewatchItemsOnAPool(t *testing.T) {
	l := referenceWith(t, "gravewatch.json", func(d doc) {
		d["items"] = doc{
			"categories": itemWords("tool"),
			"stats":      []any{doc{"id": "heft", "label": "Heft", "type": "number", "min": 0, "max": 10}},
			"slots":      []any{doc{"id": "hands", "label": "Hands", "count": 2}},
			"binding":    doc{"label": "Bound", "max": doc{"const": 1}},
			"carry":      doc{"stat": "heft", "encumberedAbove": doc{"abilityScore": "sinew"}},
		}
		d["catalogs"] = append(d["catalogs"].([]any), doc{"id": "chapel", "label": "Chapel", "holds": "items", "entries": []any{
			item("dawn-bell", "Dawn bell", doc{"category": "tool", "stats": doc{"heft": 1}, "binds": doc{}, "worn": mods("ward", 1)}),
			item("grave-spade", "Grave spade", doc{"category": "tool", "stats": doc{"heft": 3}, "slots": doc{"hands": 2},
				"requires": []any{doc{"value": doc{"abilityScore": "sinew"}, "atLeast": 3, "otherwise": mods("dig", -1)}}}),
		}})
	})
	k := kitOn(t, l)
	bell := k.c.NewEntry("bell", k.c.System.CatalogItem("chapel/dawn-bell"), 1)
	spade := k.c.NewEntry("spade", k.c.System.CatalogItem("chapel/grave-spade"), 1)
	k.inv = []*Entry{bell, spade}
	const ward = `[skill_check: who="Mira" skill="Ward" dc="2"]`
	bare, _ := k.checkOn(ward)
	if _, err := k.c.SetState(k.inv, bell, StateChange{Key: BoundState, On: true}, BindingMax(k.rs, k.values())); err != nil {
		t.Fatal(err)
	}
	res, rec := k.checkOn(ward)
	if res.Number != bare.Number || res.Effects != 1 || !strings.Contains(rec, `effects="+1" from="Dawn bell"`) {
		t.Errorf("the bound bell: bare %s, now %s", bare.Dice, rec)
	}
	if res, _ := k.checkOn(`[skill_check: who="Mira" skill="Listen" dc="2"]`); res.Effects != 0 {
		t.Errorf("the bell changed Listen: %+v", res)
	}
	k.equip(spade)
	if res, rec := k.checkOn(`[skill_check: who="Mira" skill="Dig" dc="2"]`); res.Effects != -1 || !strings.Contains(rec, `from="Grave spade"`) {
		t.Errorf("the spade with Sinew 2: %s", rec)
	}
	if got, ok := k.holdings().ItemStat(&ruleset.ItemStat{Stat: "heft", From: "worn", Pick: "sum"}); !ok || got != 4 {
		t.Errorf("worn heft: %v %v", got, ok)
	}
}

// An items block of categories alone, with no item catalog, still bridges: no catalog
// and no common fields but the bridge's own (stack, worn, carried), and holdings that hold nothing read every default.
func TestBareItemsBlockBridges(t *testing.T) {
	l := referenceWith(t, "ember-roads.json", func(d doc) { d["items"] = doc{"categories": itemWords("gear")} })
	k := kitOn(t, l)
	if len(k.c.System.Catalog) != 0 {
		t.Errorf("catalog %v", k.c.System.Catalog)
	}
	for _, f := range k.c.System.CommonFields {
		if f.Key != "stack" && f.Key != "worn" && f.Key != "carried" {
			t.Errorf("common field %q from a block without stats", f.Key)
		}
	}
	if _, ok := k.holdings().ItemStat(&ruleset.ItemStat{From: "all", Pick: "count"}); ok {
		t.Error("an empty bag picked something")
	}
}

// Guard on a sheet with 200 items held: what every sheet view and check pays.
func BenchmarkGuardOf200Items(b *testing.B) {
	k := newKit(&testing.T{})
	ids := []string{"leather-coat", "buckler", "hand-axe", "arrow", "waystone", "fox-charm", "ox-gauntlets", "grave-spade", "scale-coat"}
	for i := range 200 {
		k.inv = append(k.inv, k.c.NewEntry(strconv.Itoa(i), k.c.System.CatalogItem("outfitter/"+ids[i%len(ids)]), 1))
	}
	k.inv[0].Equipped = true
	b.ReportAllocs()
	for b.Loop() {
		h := k.holdings()
		v := sheet.Evaluate(k.rs, k.card, h)
		if v.Derived["guard"] != 8 {
			b.Fatal(v.Derived["guard"])
		}
		_ = h.CheckItems(v)
	}
}

// The load is read against carry's encumberedAbove off the sheet (Ember: 10 bulk here).
func TestHoldingsEncumbrance(t *testing.T) {
	k := newKit(t)
	k.add("scale-coat", 1)
	k.add("leather-coat", 2)
	if e := k.holdings().Encumbrance(k.values(), nil); e.Carried != 8 || e.Above != 10 || e.Encumbered || e.Limit != nil {
		t.Errorf("8 bulk: %+v", e)
	}
	k.equip(k.add("grave-spade", 1))
	if e := k.holdings().Encumbrance(k.values(), nil); e.Carried != 11 || !e.Encumbered {
		t.Errorf("11 bulk: %+v", e)
	}
}
