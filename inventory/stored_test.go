package inventory

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"sheetkeeper/refusal"
	"sheetkeeper/strictjson"
)

// heldOf is holdings of the lantern system with a sword, a sack holding a wand, a
// player's own amulet, an attuned cursed ring the GM switched on, and coins.
func heldOf(t *testing.T, c *Campaign) *Held {
	t.Helper()
	h := c.NewHeld()
	sword := c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-sword"), 1)
	sword.Equipped = true
	sack := c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-sack"), 1)
	wand := c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-wand"), 1)
	wand.Parent = sack.UID
	ring := c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-ring"), 1)
	ring.Own = map[string]bool{"attuned": true}
	ring.GM = map[string]bool{"cursed": true}
	raw := []byte(`{"id":"my-amulet","type":"lr-trinket","name":"Grandmother's amulet","category":"Charm","cost":5}`)
	it, ps := c.ParseItem(raw)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if err := h.Own(it, raw); err != nil {
		t.Fatal(err)
	}
	amulet := c.NewEntry(h.NewUID(), it, 2)
	h.Inv = []*Entry{sword, sack, wand, ring, amulet}
	h.Purse = purse(t, c.System.Money(), map[string]int64{"gp": 3, "cp": 7})
	return h
}

// TestStoredRoundTrip: holdings kept, written as JSON, read strictly and restored are
// the same holdings, and keep writes them back to the same bytes; the uid counter goes
// on where it was.
func TestStoredRoundTrip(t *testing.T) {
	c := campaign(t)
	h := heldOf(t, c)
	st, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"id":"lr-sword"`, `"equipped":true`, `"in":"i2"`, `"item":{`, `"gm":{"cursed":true}`, `"purse":{"cp":7,"gp":3}`, `"next":5`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("stored %s lacks %s", data, want)
		}
	}
	if cp, _ := json.Marshal(st.Clone()); string(cp) != string(data) {
		t.Errorf("a clone writes %s", cp)
	}
	if cp := st.Clone(); &cp.Items[4].Item == &st.Items[4].Item || reflect.ValueOf(cp.Items[4].Item).Pointer() == reflect.ValueOf(st.Items[4].Item).Pointer() {
		t.Error("a clone shares an embedded item")
	}
	back, ps := ParseStored(data)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	h2, ps := c.Restore(back)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if len(h2.Inv) != len(h.Inv) || !reflect.DeepEqual(h2.Purse, h.Purse) {
		t.Fatalf("restored %d entries, purse %v; want %d, %v", len(h2.Inv), h2.Purse, len(h.Inv), h.Purse)
	}
	for i, e := range h2.Inv {
		w := h.Inv[i]
		if e.UID != w.UID || e.Qty != w.Qty || e.Equipped != w.Equipped || e.Parent != w.Parent || e.Charges != w.Charges ||
			!reflect.DeepEqual(e.Own, w.Own) || !reflect.DeepEqual(e.GM, w.GM) || c.Now(e).Name != c.Now(w).Name {
			t.Errorf("entry %d: got %+v, want %+v", i, e, w)
		}
	}
	st2, err := c.Keep(h2)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(st2); string(again) != string(data) {
		t.Errorf("kept again:\n%s\nwant\n%s", again, data)
	}
	if uid := h2.NewUID(); uid != "i6" {
		t.Errorf("next uid %s, want i6", uid)
	}
}

// TestStoredRefused: stored holdings that do not fit the system or are malformed are
// refused with the path of what is wrong, and nothing is restored.
func TestStoredRefused(t *testing.T) {
	c := campaign(t)
	for _, tc := range []struct{ data, path, msg string }{
		{`{"items":[{"uid":"a","id":"nope","qty":1}]}`, "items[0].id", "no item"},
		{`{"items":[{"uid":"a","id":"lr-sword","qty":0}]}`, "items[0].qty", "at least 1"},
		{`{"items":[{"uid":"a","id":"lr-sword","qty":1},{"uid":"a","id":"lr-maul","qty":1}]}`, "items[1].uid", "twice"},
		{`{"items":[{"uid":"a","id":"lr-sword","qty":1,"in":"b"}]}`, "items[0].in", "not in the inventory"},
		{`{"items":[{"uid":"a","qty":1}]}`, "items[0]", "needs a catalog item"},
		{`{"items":[{"uid":"a","qty":1,"item":{"id":"x","type":"lr-trinket","name":"X","sharpness":2}}]}`, "items[0].item.sharpness", "unknown field"},
		{`{"purse":{"zz":1}}`, "purse", "not a coin"},
	} {
		st, ps := ParseStored([]byte(tc.data))
		if len(ps) > 0 {
			t.Errorf("%s: %v", tc.data, ps)
			continue
		}
		h, ps := c.Restore(st)
		if h != nil || !has(ps, tc.path, tc.msg) {
			t.Errorf("%s: got %v, want %s: %s", tc.data, ps, tc.path, tc.msg)
		}
	}
	for _, data := range []string{`{"items":[{"uid":"a","id":"lr-sword","qty":1,"sharp":true}]}`, `{"items":"x"}`, `[`} {
		if _, ps := ParseStored([]byte(data)); len(ps) == 0 {
			t.Errorf("%s read", data)
		}
	}
	big := `{"items":[` + strings.Repeat(`{"uid":"a","id":"lr-sword","qty":1},`, MaxHeld) + `{"uid":"b","id":"lr-sword","qty":1}]}`
	if _, ps := ParseStored([]byte(big)); len(ps) == 0 || ps[0].Kind != strictjson.Limit {
		t.Errorf("an inventory past MaxHeld: %v", ps)
	}
}

// TestStoredChange: a change keeps only what differs, reads back from JSON as it was,
// and undoing it on the holdings it left gives back exactly the holdings before but
// for the uid counter, which stays where it rose to (a uid is never given twice) —
// entries taken out return to their places; holdings changed since where the change
// touched them are left as they are.
func TestStoredChange(t *testing.T) {
	c := campaign(t)
	h := heldOf(t, c)
	before, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	h.Inv[0].Equipped = false
	h.Inv = append(h.Inv[:2:2], h.Inv[3:]...) // the wand out of the sack
	h.Inv = append(h.Inv, c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-maul"), 1))
	h.Purse[0]--
	after, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	b, a := DiffStored(before, after)
	var rb, ra any
	for _, x := range []struct {
		side map[string]any
		out  *any
	}{{b, &rb}, {a, &ra}} {
		data, err := json.Marshal(x.side)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, x.out); err != nil {
			t.Fatal(err)
		}
	}
	items := rb.(map[string]any)["items"].(map[string]any)
	if len(items) != 3 || items["i6"] != nil || items["i3"] == nil {
		t.Errorf("the change's items: %v", items)
	}
	back, ok := UndoStored(after, rb, ra)
	if !ok {
		t.Fatal("the undo was refused")
	}
	wantSt := before.Clone()
	wantSt.Next = after.Next
	want, _ := json.Marshal(wantSt)
	if got, _ := json.Marshal(back); string(got) != string(want) {
		t.Errorf("undone:\n%s\nwant\n%s", got, want)
	}
	if got, _ := json.Marshal(after); strings.Contains(string(got), `"lr-wand"`) {
		t.Error("the undo changed the holdings it was given")
	}
	changed := after.Clone()
	changed.Items[len(changed.Items)-1].Qty = 2 // the maul, since the change
	if _, ok := UndoStored(changed, rb, ra); ok {
		t.Error("undone over a later change")
	}
	if b, a := DiffStored(before, before.Clone()); b != nil || a != nil {
		t.Errorf("no change: %v %v", b, a)
	}
	if back, ok := UndoStored(before, map[string]any{"purse": nil, "items": map[string]any{}}, nil); ok || back != nil {
		t.Error("a side that is no change was undone")
	}
}

// TestDiffStoredEnds: whatever entries a change leaves alike at either end, its items
// are exactly the uids whose entry differs or is on one side only, and undoing it gives
// the holdings back. (DiffStored compares the entries alike at both ends without
// indexing them.)
func TestDiffStoredEnds(t *testing.T) {
	base := func() *Stored {
		st := &Stored{Next: 6}
		for _, u := range []string{"i1", "i2", "i3", "i4", "i5", "i6"} {
			st.Items = append(st.Items, StoredEntry{UID: u, ID: "lr-sword", Qty: 1})
		}
		return st
	}
	edits := map[string]func(st *Stored){
		"first changed":  func(st *Stored) { st.Items[0].Qty = 2 },
		"middle changed": func(st *Stored) { st.Items[3].Equipped = true },
		"last changed":   func(st *Stored) { st.Items[5].States = map[string]bool{"wet": true} },
		"middle taken":   func(st *Stored) { st.Items = append(st.Items[:2], st.Items[3:]...) },
		"middle put in": func(st *Stored) {
			st.Items = append(st.Items[:3], append([]StoredEntry{{UID: "i7", ID: "lr-maul", Qty: 1}}, st.Items[3:]...)...)
		},
		"two swapped":    func(st *Stored) { st.Items[1], st.Items[4] = st.Items[4], st.Items[1] },
		"first and last": func(st *Stored) { st.Items[0].Qty, st.Items[5].Qty = 3, 4 },
		"all taken":      func(st *Stored) { st.Items = nil },
		"one moved ahead": func(st *Stored) {
			st.Items = append([]StoredEntry{st.Items[4]}, append(st.Items[:4:4], st.Items[5])...)
		},
	}
	for name, edit := range edits {
		before, after := base(), base()
		edit(after)
		want := map[string]bool{}
		bu, au := map[string]StoredEntry{}, map[string]StoredEntry{}
		for _, e := range before.Items {
			bu[e.UID] = e
		}
		for _, e := range after.Items {
			au[e.UID] = e
		}
		for u, e := range bu {
			if x, ok := au[u]; !ok || !sameStoredEntry(&e, &x) {
				want[u] = true
			}
		}
		for u := range au {
			if _, ok := bu[u]; !ok {
				want[u] = true
			}
		}
		b, a := DiffStored(before, after)
		items, _ := b["items"].(map[string]any)
		got := map[string]bool{}
		for u := range items {
			got[u] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the change's items are %v, want %v", name, got, want)
		}
		if len(want) == 0 {
			continue
		}
		back, ok := UndoStored(after, b, a)
		if !ok {
			t.Errorf("%s: the undo was refused", name)
			continue
		}
		w, _ := json.Marshal(before)
		if g, _ := json.Marshal(back); string(g) != string(w) {
			t.Errorf("%s: undone:\n%s\nwant\n%s", name, g, w)
		}
	}
}

// TestGenericDirect: the change's entries and purse built directly are what encoding
// them to JSON and decoding it gives.
func TestGenericDirect(t *testing.T) {
	for _, e := range []StoredEntry{
		{UID: "i1", ID: "lr-sword", Qty: 1},
		{UID: "i2", Item: map[string]any{"id": "my-amulet", "cost": 5.0, "tags": []any{"a", 2.0}}, Qty: 1 << 60, Equipped: true,
			States: map[string]bool{"attuned": true, "wet": false}, GM: map[string]bool{"cursed": true}, In: "i1", Charges: -3, Fill: 0.1, Out: []int{0, 7}},
		{UID: "i3", ID: "lr-sack", Qty: 2, Item: map[string]any{}, States: map[string]bool{}, Out: []int{}},
	} {
		if got, want := e.generic(), genericJSON(e); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %#v, want %#v", e.UID, got, want)
		}
	}
	for _, p := range []map[string]int64{nil, {}, {"gp": 3, "cp": -7}} {
		if got, want := genericPurse(p), genericJSON(p); !reflect.DeepEqual(got, want) {
			t.Errorf("purse %v: %#v, want %#v", p, got, want)
		}
	}
}

// TestKeepOver: keeping holdings over what they were writes what Keep writes, shares
// the entries when none changed (coins only), and leaves the earlier holdings as they
// were when one did.
func TestKeepOver(t *testing.T) {
	c := campaign(t)
	h := heldOf(t, c)
	prev, err := c.Keep(h)
	if err != nil {
		t.Fatal(err)
	}
	was, _ := json.Marshal(prev)
	h.Purse[0]++
	coins, err := c.KeepOver(prev, h)
	if err != nil {
		t.Fatal(err)
	}
	if &coins.Items[0] != &prev.Items[0] {
		t.Error("coins only: the entries were written again")
	}
	h.Inv[3].Own = map[string]bool{}
	h.Inv[1].Qty = 4
	for _, over := range []*Stored{prev, coins, nil, {Items: prev.Items[:2]}} {
		got, err := c.KeepOver(over, h)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := c.Keep(h)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("kept over:\n%s\nwant\n%s", g, w)
		}
		if b, a := DiffStored(want, got); b != nil || a != nil {
			t.Errorf("kept over differs from kept: %v %v", b, a)
		}
	}
	if now, _ := json.Marshal(prev); string(now) != string(was) {
		t.Errorf("the earlier holdings changed:\n%s\nwas\n%s", now, was)
	}
}

// TestRestoreHintsFromOtherHoldings: Restore's hints from the holdings it read last
// (catalogHint) never give an entry another id's item, an id the catalog has not, or a
// hint past the holdings' end: restoring holdings after others, in turn, reads each
// entry's own catalog item.
func TestRestoreHintsFromOtherHoldings(t *testing.T) {
	c := campaign(t)
	of := func(ids ...string) *Stored {
		st := &Stored{Next: int64(len(ids))}
		for i, id := range ids {
			st.Items = append(st.Items, StoredEntry{UID: "i" + strconv.Itoa(i+1), ID: id, Qty: 1})
		}
		return st
	}
	a := of("lr-ring", "lr-sword", "lr-staff")
	b := of("lr-sword", "lr-sword", "lr-ring", "lr-mail")
	for _, st := range []*Stored{a, b, a, a, b, of("lr-sword"), b} {
		h, ps := c.Restore(st)
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		for i, e := range h.Inv {
			if want := c.System.CatalogItem(st.Items[i].ID); e.Item != want {
				t.Fatalf("entry %d of %v: item %v, want %v", i, st.Items, e.Item.ID, want.ID)
			}
		}
	}
	if _, ps := c.Restore(of("lr-ring", "lr-nothing")); len(ps) == 0 {
		t.Fatal("an id the catalog has not was restored")
	}
}

// TestKeepRefusesAPursePastWhatRestores: every keep holds a purse to what Restore reads
// back. At its bound a purse keeps and restores; one coin past it, however it got
// there (a sale paid in change, coins handed over), is refused bad-amount by Keep,
// KeepOver, KeepChange and KeepEntry alike, saying the purse's limit, and nothing is
// kept: the holdings stored before still restore.
func TestKeepRefusesAPursePastWhatRestores(t *testing.T) {
	c := campaign(t)
	m := c.System.Money()
	h := heldOf(t, c)
	sp := m.coinIndex("sp")
	limit := m.coinLimit(sp)
	h.Purse[sp] = limit
	full, err := c.Keep(h)
	if err != nil {
		t.Fatalf("a purse at its bound: %v", err)
	}
	if _, ps := c.Restore(full); len(ps) > 0 {
		t.Fatalf("a purse at its bound does not restore: %v", ps)
	}
	for _, over := range []struct {
		how   string
		purse Purse
	}{
		{"a sale's pay", m.Receive(h.Purse, m.Coins[sp].Value)},
		{"coins handed over", Purse{h.Purse[0], limit + 1, h.Purse[2]}},
		{"a corrupt count", Purse{h.Purse[0], -1, h.Purse[2]}},
	} {
		h.Purse = over.purse
		for _, keep := range []struct {
			name string
			run  func() error
		}{
			{"Keep", func() error { _, err := c.Keep(h); return err }},
			{"KeepOver", func() error { _, err := c.KeepOver(full, h); return err }},
			{"KeepChange", func() error { _, _, _, err := c.KeepChange(full, h, false); return err }},
			{"KeepEntry", func() error { _, _, _, err := c.KeepEntry(full, h, false, nil); return err }},
		} {
			err := keep.run()
			if refusal.Of(err) != refusal.BadAmount || !strings.Contains(err.Error(), group(limit)+" sp") {
				t.Errorf("%s, then %s: %v, want bad-amount naming the limit of %s sp", over.how, keep.name, err, group(limit))
			}
		}
	}
	if _, ps := c.Restore(full); len(ps) > 0 {
		t.Errorf("the holdings kept before no longer restore: %v", ps)
	}
}

// TestUndoKeepsTheUIDCounter: undoing changes never lowers the uid counter, so a uid
// is never given to two entries, and undoing them newest first still puts each back
// (the counter is no part of what a change must find as it left it).
func TestUndoKeepsTheUIDCounter(t *testing.T) {
	c := campaign(t)
	h := heldOf(t, c)
	s0, _ := c.Keep(h)
	h.Inv = append(h.Inv, c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-maul"), 1))
	s1, _ := c.Keep(h)
	h.Inv = append(h.Inv, c.NewEntry(h.NewUID(), c.System.CatalogItem("lr-maul"), 1))
	s2, _ := c.Keep(h)
	b1, a1 := DiffStored(s0, s1)
	b2, a2 := DiffStored(s1, s2)
	back, ok := UndoStored(s2, b2, a2)
	if !ok {
		t.Fatal("the newer change's undo was refused")
	}
	if back, ok = UndoStored(back, b1, a1); !ok {
		t.Fatal("the older change's undo was refused")
	}
	if len(back.Items) != len(s0.Items) || back.Next != s2.Next {
		t.Errorf("undone: %d entries (want %d), next %d (want %d, where it rose to)", len(back.Items), len(s0.Items), back.Next, s2.Next)
	}
	r, _ := c.Restore(back)
	uid := r.NewUID()
	for _, e := range s2.Items {
		if e.UID == uid {
			t.Errorf("the next entry is given %s, a uid the undone changes gave", uid)
		}
	}
}
