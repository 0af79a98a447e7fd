package inventory

import (
	"os"
	"strings"
	"testing"

	"sheetkeeper/refusal"
)

func TestAddStacks(t *testing.T) {
	c := campaign(t)
	var inv []*Entry
	var got *Entry
	inv, _ = c.Add(inv, c.NewEntry("1", c.System.CatalogItem("lr-skin"), 1))
	inv, got = c.Add(inv, c.NewEntry("2", c.System.CatalogItem("lr-skin"), 2))
	if len(inv) != 1 || got.Qty != 3 {
		t.Fatalf("waterskins stack: %d rows, %d", len(inv), got.Qty)
	}
	inv, _ = c.Add(inv, c.NewEntry("3", c.System.CatalogItem("lr-sword"), 1))
	inv, _ = c.Add(inv, c.NewEntry("4", c.System.CatalogItem("lr-sword"), 1))
	if len(inv) != 3 {
		t.Fatalf("weapons do not stack (stacks: false): %d rows", len(inv))
	}
	cursed := c.NewEntry("5", c.System.CatalogItem("lr-curio-1"), 1)
	cursed.GM = map[string]bool{"cursed": true}
	inv, _ = c.Add(inv, c.NewEntry("6", c.System.CatalogItem("lr-curio-1"), 1))
	inv, _ = c.Add(inv, cursed)
	if len(inv) != 5 {
		t.Fatalf("a cursed curio is not stacked on a plain one: %d rows", len(inv))
	}
	it, ps := c.System.ParseItem([]byte(`{"id":"lr-skin","type":"lr-gear","name":"Waterskin","noStack":true}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	inv, _ = c.Add(inv, c.NewEntry("7", it, 1))
	inv, _ = c.Add(inv, c.NewEntry("8", it, 1))
	if len(inv) != 7 {
		t.Fatalf("an item marked noStack never shares a row: %d rows", len(inv))
	}
}

func TestPutInContainers(t *testing.T) {
	c := campaign(t)
	sack, sack2, sword := c.NewEntry("sack", c.System.CatalogItem("lr-sack"), 1), c.NewEntry("sack2", c.System.CatalogItem("lr-sack"), 1), c.NewEntry("sword", c.System.CatalogItem("lr-sword"), 1)
	m1, m2, m3 := c.NewEntry("m1", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("m2", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("m3", c.System.CatalogItem("lr-mail"), 1)
	inv := []*Entry{sack, sack2, sword, m1, m2, m3}
	for _, m := range []*Entry{m1, m2} {
		if err := c.Put(inv, m, sack); err != nil {
			t.Fatalf("mail into a sack holding 4: %v", err)
		}
	}
	if err := c.Put(inv, m3, sack); refusal.Of(err) != refusal.TooHeavy || m3.Parent != "" {
		t.Errorf("a third mail shirt is too heavy: %v", err)
	}
	if err := c.Put(inv, sack, sack); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a sack into itself: %v", err)
	}
	if err := c.Put(inv, m3, sword); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a sword holds nothing: %v", err)
	}
	if err := c.Put(inv, sack2, m1); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("mail holds nothing: %v", err)
	}
	sack.Item = &Item{ID: "big", Type: "lr-bag", Name: "Big sack", Fields: map[string]any{"capacityLb": 100.0}}
	if err := c.Put(inv, sack2, sack); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(inv, sack, sack2); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a sack into the sack inside it: %v", err)
	}
	quiver := &Entry{UID: "q", Item: &Item{ID: "quiver", Type: "lr-bag", Name: "Quiver", Fields: map[string]any{"holdLimit": 20.0}}}
	arrows := &Entry{UID: "a", Qty: 30, Item: &Item{ID: "arrows", Type: "lr-gear", Name: "Arrows"}}
	if err := c.Put([]*Entry{quiver, arrows}, arrows, quiver); refusal.Of(err) != refusal.NoSlot {
		t.Errorf("30 arrows in a quiver of 20: %v", err)
	}
	if err := c.Put(inv, m1, nil); err != nil || m1.Parent != "" {
		t.Errorf("taking out: %v", err)
	}
}

func TestChargesAndLiquids(t *testing.T) {
	c := campaign(t)
	ring := c.NewEntry("r", c.System.CatalogItem("lr-ring"), 1)
	if ring.Charges != 0 || c.UseCharges(ring, 1) == nil {
		t.Fatal("a plain ring has no charges")
	}
	ring.GM = map[string]bool{"cursed": true}
	c.Recharge(ring, -1)
	if ring.Charges != 3 {
		t.Fatalf("cursed, it has 3: %d", ring.Charges)
	}
	if err := c.UseCharges(ring, 2); err != nil || ring.Charges != 1 {
		t.Fatalf("using 2: %v, %d left", err, ring.Charges)
	}
	if err := c.UseCharges(ring, 2); refusal.Of(err) != refusal.Insufficient || ring.Charges != 1 {
		t.Errorf("using 2 of 1: %v", err)
	}
	c.Recharge(ring, 5)
	if ring.Charges != 3 {
		t.Errorf("recharging stops at the most: %d", ring.Charges)
	}
	skin := c.NewEntry("s", c.System.CatalogItem("lr-skin"), 1)
	if err := c.Fill(skin, 3); err != nil || skin.Fill != 3 {
		t.Fatalf("filling 3 of 4 pints: %v", err)
	}
	if err := c.Fill(skin, 2); refusal.Of(err) != refusal.BadAmount || skin.Fill != 3 {
		t.Errorf("overfilling: %v", err)
	}
	if err := c.Fill(skin, -3); err != nil || skin.Fill != 0 {
		t.Errorf("pouring out: %v", err)
	}
	if err := c.Fill(ring, 1); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a ring holds no liquid: %v", err)
	}
}

// TestContainerAllows: a container that holds only some things (a scabbard holds
// blades) refuses the rest.
func TestContainerAllows(t *testing.T) {
	s, ps := Parse(mutate(t, func(m map[string]any) {
		cat := m["catalog"].([]any)
		m["catalog"] = append(cat, map[string]any{"id": "lr-scabbard", "type": "lr-bag", "name": "Scabbard",
			"allows": []any{map[string]any{"feature": "weapon", "category": "Blade"}}})
	}))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	box, sword, maul := c.NewEntry("b", s.CatalogItem("lr-scabbard"), 1), c.NewEntry("s", s.CatalogItem("lr-sword"), 1), c.NewEntry("m", s.CatalogItem("lr-maul"), 1)
	inv := []*Entry{box, sword, maul}
	if err := c.Put(inv, sword, box); err != nil {
		t.Errorf("a blade goes in: %v", err)
	}
	if err := c.Put(inv, maul, box); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a club does not: %v", err)
	}
	_, ps = Parse(mutate(t, func(m map[string]any) {
		obj(m, "catalog", 5)["allows"] = []any{map[string]any{"feature": "blade"}}
	}))
	if !has(ps, "catalog[5] (lr-sack).allows[0].feature", `unknown feature "blade"`) {
		t.Errorf("got %v", ps)
	}
}

// TestCompartments: a container's compartments as Pack Rat has them (store.js,
// compartmentsOf and spaceSpec): each holds to its own rules, count and capacity; a
// shared one counts in the container's capacity too, a separate one (the outside) does
// not; a weightless one's contents weigh nothing; a container with straps has an outside.
func TestCompartments(t *testing.T) {
	s, ps := Parse(mutate(t, func(m map[string]any) {
		cat := m["catalog"].([]any)
		m["catalog"] = append(cat, map[string]any{"id": "lr-belt", "type": "lr-bag", "name": "Belt", "capacityLb": 3, "straps": true,
			"compartments": []any{
				map[string]any{"id": "frog", "name": "Frog", "allows": []any{map[string]any{"feature": "weapon", "size": 2}}, "holdLimit": 2},
				map[string]any{"id": "purse", "name": "Purse", "capacityLb": 0.15, "weightless": true},
				map[string]any{"id": "loop", "name": "Loop", "capacity": "separate"},
			}})
	}))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	belt := c.NewEntry("b", s.CatalogItem("lr-belt"), 1)
	sword, staff := c.NewEntry("s", s.CatalogItem("lr-sword"), 1), c.NewEntry("st", s.CatalogItem("lr-staff"), 1)
	c1, c2 := c.NewEntry("c1", s.CatalogItem("lr-curio-1"), 1), c.NewEntry("c2", s.CatalogItem("lr-curio-2"), 1)
	mail, maul, sack := c.NewEntry("m", s.CatalogItem("lr-mail"), 1), c.NewEntry("ma", s.CatalogItem("lr-maul"), 1), c.NewEntry("sk", s.CatalogItem("lr-sack"), 1)
	inv := []*Entry{belt, sword, staff, c1, c2, mail, maul, sack}
	if err := c.PutIn(inv, sword, belt, "frog"); err != nil || sword.Compartment != "frog" || sword.Parent != "b" {
		t.Fatalf("a sword in the frog: %v", err)
	}
	if err := c.PutIn(inv, staff, belt, "frog"); refusal.Of(err) != refusal.NoSlot {
		t.Errorf("a weapon takes 2 of the frog's 2 places: %v", err)
	}
	if err := c.PutIn(inv, c1, belt, "frog"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("the frog holds weapons: %v", err)
	}
	if err := c.PutIn(inv, c1, belt, "purse"); err != nil {
		t.Errorf("a curio in the purse: %v", err)
	}
	if err := c.PutIn(inv, c2, belt, "purse"); refusal.Of(err) != refusal.TooHeavy || c2.Parent != "" {
		t.Errorf("the purse holds 0.15: %v", err)
	}
	if err := c.PutIn(inv, mail, belt, ""); refusal.Of(err) != refusal.TooHeavy {
		t.Errorf("the belt holds 3 with its shared compartments (a sword of 1 and a curio): %v", err)
	}
	if err := c.PutIn(inv, maul, belt, "loop"); err != nil {
		t.Errorf("a separate compartment is not in the belt's capacity: %v", err)
	}
	if err := c.PutIn(inv, mail, belt, outside); err != nil || mail.Compartment != outside {
		t.Errorf("a belt with straps has an outside: %v", err)
	}
	if err := c.PutIn(inv, c2, belt, "scabbard"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("no such compartment: %v", err)
	}
	if got := c.Carried(inv, nil).Items; got != 1+2+2+1+0.1 { // the belt's own 0, staff 1, sword 1, maul 2, mail 2, c2 0.1; c1 in the weightless purse
		t.Errorf("carried %g", got)
	}
	if err := c.Put(inv, sword, nil); err != nil || sword.Compartment != "" {
		t.Errorf("out again: %v %q", err, sword.Compartment)
	}
	if err := c.PutIn(inv, sack, belt, "frog"); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a container goes only where a rule asks for containers: %v", err)
	}
	_, ps = Parse(mutate(t, func(m map[string]any) {
		obj(m, "catalog", 5)["compartments"] = []any{map[string]any{"id": "a", "name": "A"}, map[string]any{"id": "a", "name": "B", "holdLimit": -1, "capacity": "half"}}
	}))
	for _, want := range [][2]string{{"compartments[1].id", `duplicate compartment "a"`}, {"compartments[1].holdLimit", "expected a number from 0 up to 1000000"}, {"compartments[1].capacity", `expected "shared" or "separate"`}} {
		if !has(ps, "catalog[5] (lr-sack)."+want[0], want[1]) {
			t.Errorf("no %s: %v", want, ps)
		}
	}
}

// TestAddStacksWhereItIs: copies stack inside a container's space as they do loose, and
// never across places (Pack Rat's addToInventory matches parent and compartment).
func TestAddStacksWhereItIs(t *testing.T) {
	c := campaign(t)
	skin := c.System.CatalogItem("lr-skin")
	in := func(uid, parent, comp string) *Entry {
		e := c.NewEntry(uid, skin, 1)
		e.Parent, e.Compartment = parent, comp
		return e
	}
	inv, _ := c.Add(nil, in("1", "sack", ""))
	inv, got := c.Add(inv, in("2", "sack", ""))
	if len(inv) != 1 || got.Qty != 2 {
		t.Fatalf("in the sack: %d rows", len(inv))
	}
	inv, _ = c.Add(inv, in("3", "", ""))
	inv, _ = c.Add(inv, in("4", "sack", "pocket"))
	if len(inv) != 3 {
		t.Errorf("loose, in the sack and in its pocket are three places: %d rows", len(inv))
	}
}

// TestLegacyHolds: a container's "Only holds" choice from before allows rules reads as
// Pack Rat's HOLDER_RULES: a scroll case holds ten sheets, parchment taking two places.
func TestLegacyHolds(t *testing.T) {
	c := campaign(t)
	cs := &Entry{UID: "cs", Qty: 1, Item: &Item{ID: "case", Type: "lr-bag", Name: "Scroll case", Fields: map[string]any{"holds": "scrolls"}}}
	paper := &Entry{UID: "p", Qty: 6, Item: &Item{ID: "paper", Type: "lr-gear", Name: "Paper (sheet)"}}
	parch := &Entry{UID: "pa", Qty: 3, Item: &Item{ID: "parch", Type: "lr-gear", Name: "Parchment"}}
	rope := &Entry{UID: "r", Qty: 1, Item: &Item{ID: "rope", Type: "lr-gear", Name: "Rope"}}
	inv := []*Entry{cs, paper, parch, rope}
	if err := c.Put(inv, paper, cs); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(inv, parch, cs); refusal.Of(err) != refusal.NoSlot {
		t.Errorf("6 sheets and 3 parchments (6 places) are more than 10: %v", err)
	}
	if err := c.Put(inv, rope, cs); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a scroll case holds no rope: %v", err)
	}
}

// TestQuiver5e: the built-in D&D 5e's quiver (holds: arrows) takes its arrows, twenty of
// them, though the system has no Ammunition feature of Pack Rat's own 5e.
func TestQuiver5e(t *testing.T) {
	data, err := os.ReadFile("../content/systems/dnd5e-srd.json")
	if err != nil {
		t.Fatal(err)
	}
	s, ps := Parse(data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	c, _ := s.Campaign(nil)
	quiver, arrows := c.NewEntry("q", s.CatalogItem("quiver"), 1), c.NewEntry("a", s.CatalogItem("arrow"), 20)
	more, bolt := c.NewEntry("m", s.CatalogItem("arrow"), 1), c.NewEntry("b", s.CatalogItem("crossbow-bolt"), 1)
	inv := []*Entry{quiver, arrows, more, bolt}
	if err := c.Put(inv, arrows, quiver); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(inv, more, quiver); refusal.Of(err) != refusal.NoSlot {
		t.Errorf("a twenty-first arrow: %v", err)
	}
	if err := c.Put(inv, bolt, quiver); refusal.Of(err) != refusal.NotAllowed {
		t.Errorf("a bolt in a quiver: %v", err)
	}
}

// TestPutWeighsEveryEnclosingContainer: a sack's capacityLb bounds the weight of
// everything inside it (Put), so what goes into a pouch inside the sack is weighed by the
// sack too, and the refusal names the sack.
func TestPutWeighsEveryEnclosingContainer(t *testing.T) {
	c := campaign(t)
	sack := c.NewEntry("sack", c.System.CatalogItem("lr-sack"), 1) // holds 4
	pouch := &Entry{UID: "pouch", Qty: 1, Item: &Item{ID: "pouch", Type: "lr-bag", Name: "Pouch"}}
	m1, m2, m3 := c.NewEntry("m1", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("m2", c.System.CatalogItem("lr-mail"), 1), c.NewEntry("m3", c.System.CatalogItem("lr-mail"), 1)
	inv := []*Entry{sack, pouch, m1, m2, m3}
	if err := c.Put(inv, m1, sack); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(inv, pouch, sack); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(inv, m2, pouch); err != nil {
		t.Fatal(err)
	}
	err := c.Put(inv, m3, pouch)
	if w := c.contentWeight(inv, sack, 0); w > 4 {
		t.Errorf("the sack (capacity 4) now holds %g: the third mail shirt went into the pouch inside it (err %v)", w, err)
	}
	if refusal.Of(err) != refusal.TooHeavy || m3.Parent != "" || !strings.Contains(err.Error(), "Sack") {
		t.Errorf("the third shirt is too heavy for the sack, and stays out: %v (in %q)", err, m3.Parent)
	}
	if err := c.Put(inv, m1, pouch); err != nil {
		t.Errorf("moving a shirt from the sack into the pouch inside it weighs the same: %v", err)
	}
}

// TestAddStacksOnlySameCharges: a spent wand does not join (and refill as) a row of a
// full one, nor a half-full waterskin a row of empty ones; the same charges stack.
func TestAddStacksOnlySameCharges(t *testing.T) {
	c := campaign(t)
	full := c.NewEntry("w1", c.System.CatalogItem("lr-wand"), 1)
	spent := c.NewEntry("w2", c.System.CatalogItem("lr-wand"), 1)
	spent.Charges = 0
	inv, _ := c.Add(nil, full)
	inv, _ = c.Add(inv, spent)
	var charges, qty int64
	for _, e := range inv {
		charges += e.Charges
		qty += e.Qty
	}
	if len(inv) == 1 {
		t.Errorf("a full wand (3 charges) and a spent one (0) merged into one row of %d with %d charges", qty, charges)
	}
	if inv, at := c.Add(inv, c.NewEntry("w3", c.System.CatalogItem("lr-wand"), 1)); len(inv) != 2 || at != full || full.Qty != 2 {
		t.Errorf("a full wand stacks on the full one: %d rows, onto %s", len(inv), at.UID)
	}
	skin := c.NewEntry("s1", c.System.CatalogItem("lr-skin"), 1)
	half := c.NewEntry("s2", c.System.CatalogItem("lr-skin"), 1)
	half.Fill = 2
	if inv, _ := c.Add([]*Entry{skin}, half); len(inv) != 2 {
		t.Errorf("a waterskin holding 2 pints stacks on an empty one: %d rows", len(inv))
	}
}
