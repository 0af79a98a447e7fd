package inventory

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"sheetkeeper/refusal"
)

// TestInCatalog: inCatalog says what CatalogItem(it.ID) == it says, for every catalog
// item of a system, a copy of one, another system's, a player's own and none.
func TestInCatalog(t *testing.T) {
	s, other := lantern(t), lantern(t)
	c := campaign(t)
	own, ps := c.ParseItem([]byte(`{"id":"my-amulet","type":"lr-trinket","name":"Amulet"}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	cp := *s.Catalog[0]
	items := append(slices.Clone(s.Catalog), &cp, other.Catalog[0], own, nil)
	for _, it := range items {
		want := it != nil && s.CatalogItem(it.ID) == it
		if got := s.inCatalog(it); got != want {
			t.Errorf("%v: inCatalog %v, CatalogItem says %v", it, got, want)
		}
	}
}

// TestPropertyKeepChange: keeping each change with KeepChange — or with KeepEntry where
// only one entry and the purse, or the purse alone, changed since the holdings in play
// were restored from or kept into prev (a tag switching a state, paying coins) — over
// the entries it kept before where it may (as a message's tags do), gives exactly what
// KeepOver and DiffStored give step by step: the same holdings, the same change, the
// same refusal. Over random sequences of every change changeHeld makes, also those
// holdings never have (two entries with one uid, a fill that is not a number) and those
// Keep refuses; holdings it may not write over stay as they were.
func TestPropertyKeepChange(t *testing.T) {
	c := campaign(t)
	first, err := c.Keep(heldOf(t, c))
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		h, ps := c.Restore(first)
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		prev, oldPrev, owned := first, first, false
		asKept := true // h is as prev holds it, but for its purse
		for step := range rapid.IntRange(1, 12).Draw(t, "steps") {
			kind := 0
			if asKept {
				kind = rapid.IntRange(0, 2).Draw(t, "kind")
			}
			coins := kind > 0
			keep := c.KeepChange
			switch kind {
			case 1:
				h.Purse[0] += rapid.Int64Range(-1, 3).Draw(t, "coins")
				keep = func(prev *Stored, h *Held, reuse bool) (*Stored, map[string]any, map[string]any, error) {
					return c.KeepEntry(prev, h, reuse, nil)
				}
			case 2:
				e := changeEntry(t, h)
				keep = func(prev *Stored, h *Held, reuse bool) (*Stored, map[string]any, map[string]any, error) {
					return c.KeepEntry(prev, h, reuse, e)
				}
			default:
				changeHeld(t, c, h)
			}
			reuse := owned && rapid.Bool().Draw(t, "reuse")
			was := storedText(prev)
			want, werr := c.KeepOver(oldPrev, h)
			got, b, a, gerr := keep(prev, h, reuse)
			if (werr != nil) != (gerr != nil) || refusal.Of(werr) != refusal.Of(gerr) {
				t.Fatalf("step %d (coins only %v): KeepOver %v, kept %v", step, coins, werr, gerr)
			}
			if !reuse || gerr != nil {
				if now := storedText(prev); now != was {
					t.Fatalf("step %d: the holdings kept before changed:\n%s\nwas\n%s", step, now, was)
				}
			}
			if werr != nil {
				if h, ps = c.Restore(oldPrev); len(ps) > 0 {
					return
				}
				asKept = prev == oldPrev
				continue
			}
			wb, wa := DiffStored(oldPrev, want)
			if g, w := storedText(got), storedText(want); g != w {
				t.Fatalf("step %d (coins only %v): kept\n%s\nwant\n%s", step, coins, g, w)
			}
			if g, w := fmt.Sprint(b, a), fmt.Sprint(wb, wa); g != w {
				t.Fatalf("step %d (coins only %v): change\n%s\nwant\n%s", step, coins, g, w)
			}
			owned = reuse || !(len(got.Items) > 0 && len(prev.Items) > 0 && &got.Items[0] == &prev.Items[0])
			prev, oldPrev, asKept = got, want, true
		}
	})
}

// changeEntry changes one entry of h (nil: none, or it is left alike) as a tag
// switching a state might, or gives it a fill that is not a number, and the purse.
func changeEntry(t *rapid.T, h *Held) *Entry {
	h.Purse[0] += rapid.Int64Range(0, 1).Draw(t, "coins too")
	if len(h.Inv) == 0 || rapid.IntRange(0, 5).Draw(t, "none") == 0 {
		return nil
	}
	e := h.Inv[rapid.IntRange(0, len(h.Inv)-1).Draw(t, "entry")]
	key := rapid.SampledFrom([]string{"attuned", "cursed", "wet"}).Draw(t, "key")
	// Entries share no map (Restore and every action copy them), but changeHeld's twin
	// rows do: the entry's own copies are changed, as SetState changes its maps.
	e.Own, e.GM = switchesCopy(e.Own), switchesCopy(e.GM)
	switch rapid.IntRange(0, 4).Draw(t, "how") {
	case 0:
		e.Own[key] = !e.Own[key]
	case 1:
		e.GM[key] = rapid.Bool().Draw(t, "on")
	case 2:
		delete(e.Own, key)
	case 3:
		e.Fill = math.NaN()
	}
	return e
}

// storedText is stored holdings in words that tell every difference apart (a NaN fill
// included, which JSON cannot hold).
func storedText(st *Stored) string {
	if st == nil {
		return "nil"
	}
	rules, _ := json.Marshal(st.Rules)
	return fmt.Sprintf("%+v purse=%v next=%d rules=%s", st.Items, st.Purse, st.Next, rules)
}

// changeHeld makes one random change to holdings in play, as a tag or a command might.
func changeHeld(t *rapid.T, c *Campaign, h *Held) {
	pick := func(label string) *Entry {
		if len(h.Inv) == 0 {
			return nil
		}
		return h.Inv[rapid.IntRange(0, len(h.Inv)-1).Draw(t, label)]
	}
	at := func(label string) int { return rapid.IntRange(0, len(h.Inv)).Draw(t, label) }
	switch rapid.IntRange(0, 15).Draw(t, "change") {
	case 0: // nothing
	case 1:
		if e := pick("qty"); e != nil {
			e.Qty = rapid.Int64Range(1, 9).Draw(t, "n")
		}
	case 2:
		if len(h.Inv) > 0 {
			i := at("remove") % len(h.Inv)
			h.Inv = slices.Delete(h.Inv, i, i+1)
		}
	case 3, 4:
		it := rapid.SampledFrom(c.System.Catalog).Draw(t, "item")
		h.Inv = slices.Insert(h.Inv, at("insert"), c.NewEntry(h.NewUID(), it, 1))
	case 5:
		if e := pick("state"); e != nil {
			key := rapid.SampledFrom([]string{"attuned", "cursed", "wet"}).Draw(t, "key")
			own := switchesCopy(e.Own)
			if own[key] {
				delete(own, key)
			} else {
				own[key] = true
			}
			e.Own = own
		}
	case 6:
		if e := pick("equip"); e != nil {
			e.Equipped = !e.Equipped
		}
	case 7:
		h.Purse[0] += rapid.Int64Range(-1, 3).Draw(t, "coins")
	case 8:
		if len(h.Inv) > 1 {
			i, j := at("from")%len(h.Inv), at("to")%len(h.Inv)
			h.Inv[i], h.Inv[j] = h.Inv[j], h.Inv[i]
		}
	case 9:
		if e, box := pick("put"), pick("in"); e != nil && e != box {
			e.Parent = box.UID
		}
	case 10:
		if e := pick("fill"); e != nil {
			e.Fill, e.Charges = rapid.SampledFrom([]float64{0, 0.5, math.NaN()}).Draw(t, "pints"), rapid.Int64Range(0, 3).Draw(t, "charges")
		}
	case 11: // an item neither the catalog's nor recorded: Keep refuses it
		if e := pick("stray"); e != nil {
			cp := *e.Item
			e.Item = &cp
		}
	case 12: // two entries with one uid
		if e, other := pick("twin"), pick("of"); e != nil {
			e.UID = other.UID
		}
	case 13:
		if e := pick("out"); e != nil {
			e.Out = append(slices.Clone(e.Out), rapid.IntRange(0, 3).Draw(t, "piece"))
		}
	case 14: // a row twice over, uid and all
		if e := pick("again"); e != nil {
			cp := *e
			h.Inv = slices.Insert(h.Inv, at("where"), &cp)
		}
	case 15: // an own item's JSON the same but not the same map (as Adopt copies it)
		for it, m := range h.own {
			h.own[it] = cloneJSON(m).(map[string]any)
		}
	}
}

// switchesCopy is a copy of m to change (the entry's own map may be the stored one's).
func switchesCopy(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestKeepChangeWritesOver: kept over entries it may reuse, a one-entry change writes
// over them rather than copying the holdings; kept over ones it may not, it copies.
func TestKeepChangeWritesOver(t *testing.T) {
	c := campaign(t)
	h := heldOf(t, c)
	prev, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	h.Inv[1].Qty = 3
	first, _, _, err := c.KeepChange(prev, h, false)
	if err != nil {
		t.Fatal(err)
	}
	if &first.Items[0] == &prev.Items[0] {
		t.Fatal("without reuse, the entries kept before were written over")
	}
	h.Inv[2].Qty = 2
	second, b, _, err := c.KeepChange(first, h, true)
	if err != nil {
		t.Fatal(err)
	}
	if &second.Items[0] != &first.Items[0] {
		t.Error("with reuse, the holdings were copied again")
	}
	if items, _ := b["items"].(map[string]any); len(items) != 1 || !reflect.DeepEqual(items[h.Inv[2].UID].(map[string]any)["at"], 2.0) {
		t.Errorf("the change: %v", b)
	}
}

// TestKeepChangeLooksFurther: where DiffStored of the whole holdings would compare past
// the entries KeepChange found changed (an entry alike one kept after them: two rows
// with one uid), KeepChange answers as KeepOver and DiffStored do.
func TestKeepChangeLooksFurther(t *testing.T) {
	x, y := StoredEntry{UID: "i1", ID: "lr-sword", Qty: 1}, StoredEntry{UID: "i2", ID: "lr-sword", Qty: 1}
	for _, tc := range []struct {
		gone, mid, tail []StoredEntry
		within          bool
	}{
		{nil, []StoredEntry{x}, []StoredEntry{x}, false},
		{[]StoredEntry{x}, nil, []StoredEntry{x}, false},
		{nil, []StoredEntry{y}, []StoredEntry{x}, true},
		{[]StoredEntry{y}, []StoredEntry{x}, []StoredEntry{x}, true},
		{nil, []StoredEntry{x}, nil, true},
	} {
		if got := diffStaysWithin(tc.gone, tc.mid, tc.tail); got != tc.within {
			t.Errorf("%v %v %v: within %v", tc.gone, tc.mid, tc.tail, got)
		}
	}
	c := campaign(t)
	h := heldOf(t, c)
	sword, amulet := h.Inv[0], h.Inv[4]
	h.Inv = []*Entry{amulet, sword}
	prev, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	h.own[amulet.Item] = cloneJSON(h.own[amulet.Item]).(map[string]any)
	twin := *sword
	h.Inv = []*Entry{amulet, &twin, sword}
	want, err := c.KeepOver(prev, h)
	if err != nil {
		t.Fatal(err)
	}
	wb, wa := DiffStored(prev, want)
	got, b, a, err := c.KeepChange(prev, h, false)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := storedText(got), storedText(want); g != w {
		t.Errorf("kept\n%s\nwant\n%s", g, w)
	}
	if g, w := fmt.Sprint(b, a), fmt.Sprint(wb, wa); g != w {
		t.Errorf("change\n%s\nwant\n%s", g, w)
	}
}

// TestSameCoins: sameCoins says what comparing the purses' nonzero coins says.
func TestSameCoins(t *testing.T) {
	purse := rapid.MapOf(rapid.SampledFrom([]string{"gp", "sp", "cp"}), rapid.Int64Range(-1, 2))
	rapid.Check(t, func(t *rapid.T) {
		x, y := purse.Draw(t, "x"), purse.Draw(t, "y")
		if rapid.Bool().Draw(t, "nil") {
			x = nil
		}
		if got, want := sameCoins(x, y), reflect.DeepEqual(nonZero(x), nonZero(y)); got != want {
			t.Fatalf("sameCoins(%v, %v) = %v", x, y, got)
		}
	})
}
