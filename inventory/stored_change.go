package inventory

import (
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
)

// A reply records what each inventory tag changed so that undo can put it back. A whole
// copy of the holdings before and after would cost a 200-row inventory tens of
// kilobytes a tag, so a change keeps only what differs: the entries it touched (by uid,
// each with where it stood, so one taken out goes back to its place), the purse and the
// uid counter. Both sides are in JSON's generic shapes, so a change reads back from
// storage as it was written. An entry that only moved (others taken out before it) is
// no change.

// Change keys.
const (
	changeItems = "items"
	changePurse = "purse"
	changeNext  = "next"
)

// DiffStored is what changed from before to after (either nil for no holdings): the
// two sides of one change, each a map of the parts that differ — "items" (uid → {"at":
// its place, "entry": the stored entry}, or nil where it is absent), "purse" and "next".
// Nothing changed is two nil maps.
func DiffStored(before, after *Stored) (b, a map[string]any) {
	if before == nil {
		before = &Stored{}
	}
	if after == nil {
		after = &Stored{}
	}
	bs, as := before.Items, after.Items
	if len(bs) == len(as) && len(bs) > 0 && &bs[0] == &as[0] {
		bs, as = nil, nil // one shares the other's entries (KeepOver)
	}
	return diffWithin(before, after, bs, as, len(before.Items)-len(bs))
}

// diffWithin is DiffStored of before and after whose entries differ only within bs (of
// before's) and as (of after's), both standing at place from: the entries before them
// are alike in both, and so are those after them.
func diffWithin(before, after *Stored, bs, as []StoredEntry, from int) (b, a map[string]any) {
	b, a = map[string]any{}, map[string]any{}
	// The entries both hold alike, in the same places from the start or from the end,
	// are most of them (a tag changes one or two): only the rest between are indexed and
	// compared by uid. (A uid is once in a holdings, so one alike at both ends is nowhere
	// in the rest: leaving it out is what comparing it by uid would have found.)
	for len(bs) > 0 && len(as) > 0 && sameStoredEntry(&bs[0], &as[0]) {
		bs, as, from = bs[1:], as[1:], from+1
	}
	for len(bs) > 0 && len(as) > 0 && sameStoredEntry(&bs[len(bs)-1], &as[len(as)-1]) {
		bs, as = bs[:len(bs)-1], as[:len(as)-1]
	}
	bi, ai := uidIndexOf(bs, 0), uidIndexOf(as, 0)
	bItems, aItems := map[string]any{}, map[string]any{}
	for uid, i := range bi {
		j, ok := ai[uid]
		if ok && sameStoredEntry(&bs[i], &as[j]) {
			continue
		}
		bItems[uid] = placed(&bs[i], from+i)
		aItems[uid] = nil
		if ok {
			aItems[uid] = placed(&as[j], from+j)
		}
	}
	for uid, j := range ai {
		if _, ok := bi[uid]; !ok {
			bItems[uid], aItems[uid] = nil, placed(&as[j], from+j)
		}
	}
	if len(bItems) > 0 {
		b[changeItems], a[changeItems] = bItems, aItems
	}
	if !sameCoins(before.Purse, after.Purse) {
		b[changePurse], a[changePurse] = genericPurse(nonZero(before.Purse)), genericPurse(nonZero(after.Purse))
	}
	if before.Next != after.Next {
		b[changeNext], a[changeNext] = float64(before.Next), float64(after.Next)
	}
	if len(b) == 0 {
		return nil, nil
	}
	return b, a
}

// UndoStored puts back one change on holdings cur when cur still holds everything the
// change left (after); otherwise, or when either side is not a change DiffStored wrote,
// it reports false and cur stays as it is. The holdings it returns are new.
//
// The uid counter is the one part it never puts back: it stays at the highest it
// reached, so a uid is never given to two entries. An entry added by a reply that is
// undone, deleted or regenerated keeps its uid out of use — what the rules remember of
// uids (StoredRules.Had, which no revert touches: an entry put back is no new one) would
// otherwise take the next entry given it for one already acquired, and its acquired
// rule would never fire. So a change's counter is no part of what cur must still hold.
func UndoStored(cur *Stored, before, after any) (*Stored, bool) {
	b, okB := before.(map[string]any)
	a, okA := after.(map[string]any)
	if !okB || !okA {
		return nil, false
	}
	if cur == nil {
		cur = &Stored{}
	}
	if !holds(cur, a) {
		return nil, false
	}
	out := cur.Clone() // its counter stands: at least the change's, which only raised it
	if v, ok := b[changePurse]; ok {
		var p map[string]int64
		if fromGeneric(v, &p) != nil {
			return nil, false
		}
		out.Purse = nonZero(p)
	}
	items, _ := b[changeItems].(map[string]any)
	if !putBack(out, items) {
		return nil, false
	}
	if len(out.Items) == 0 && len(out.Purse) == 0 && out.Next == 0 && out.Rules == nil {
		return nil, true
	}
	return out, true
}

// holds reports whether cur holds what one side of a change says of its entries and
// purse (the uid counter only rises: UndoStored).
func holds(cur *Stored, side map[string]any) bool {
	if v, ok := side[changePurse]; ok && !sameGeneric(v, genericJSON(nonZero(cur.Purse))) {
		return false
	}
	items, _ := side[changeItems].(map[string]any)
	idx := uidIndex(cur)
	for uid, v := range items {
		i, ok := idx[uid]
		if v == nil {
			if ok {
				return false
			}
			continue
		}
		m, _ := v.(map[string]any)
		if !ok || !sameGeneric(m["entry"], genericJSON(cur.Items[i])) {
			return false
		}
	}
	return true
}

// putBack sets the entries a change's before side names: absent ones dropped, the rest
// replaced where they stand or put back at their place, in order of place.
func putBack(out *Stored, items map[string]any) bool {
	type back struct {
		at int
		e  StoredEntry
	}
	var re []back
	drop := map[string]bool{}
	for uid, v := range items {
		drop[uid] = true
		if v == nil {
			continue
		}
		m, _ := v.(map[string]any)
		at, _ := m["at"].(float64)
		var e StoredEntry
		if fromGeneric(m["entry"], &e) != nil || e.UID != uid {
			return false
		}
		re = append(re, back{int(at), e})
	}
	out.Items = slices.DeleteFunc(out.Items, func(e StoredEntry) bool { return drop[e.UID] })
	sort.Slice(re, func(i, j int) bool { return re[i].at < re[j].at })
	for _, r := range re {
		out.Items = slices.Insert(out.Items, min(max(r.at, 0), len(out.Items)), r.e)
	}
	return len(out.Items) <= MaxHeld
}

// placed is entry e standing at place at, as a change records it.
func placed(e *StoredEntry, at int) any {
	return map[string]any{"at": float64(at), "entry": e.generic()}
}

// generic is genericJSON(e) built directly (a tag's change holds an entry or two, and
// encoding and decoding each was most of what recording the change cost), the embedded
// item and a fill JSON cannot hold aside: those go the long way, as before.
func (e *StoredEntry) generic() any {
	if math.IsNaN(e.Fill) || math.IsInf(e.Fill, 0) {
		return genericJSON(*e)
	}
	m := map[string]any{"uid": e.UID, "qty": float64(e.Qty)}
	if e.ID != "" {
		m["id"] = e.ID
	}
	if len(e.Item) > 0 {
		m["item"] = genericJSON(e.Item)
	}
	if e.Equipped {
		m["equipped"] = true
	}
	if len(e.States) > 0 {
		m["states"] = genericSwitches(e.States)
	}
	if len(e.GM) > 0 {
		m["gm"] = genericSwitches(e.GM)
	}
	if e.In != "" {
		m["in"] = e.In
	}
	if e.Charges != 0 {
		m["charges"] = float64(e.Charges)
	}
	if e.Fill != 0 {
		m["fill"] = e.Fill
	}
	if len(e.Out) > 0 {
		out := make([]any, len(e.Out))
		for i, n := range e.Out {
			out[i] = float64(n)
		}
		m["out"] = out
	}
	return m
}

func genericSwitches(sw map[string]bool) map[string]any {
	g := make(map[string]any, len(sw))
	for k, on := range sw {
		g[k] = on
	}
	return g
}

// genericPurse is genericJSON(p) built directly.
func genericPurse(p map[string]int64) any {
	if p == nil {
		return nil
	}
	g := make(map[string]any, len(p))
	for k, n := range p {
		g[k] = float64(n)
	}
	return g
}

func uidIndex(st *Stored) map[string]int { return uidIndexOf(st.Items, 0) }

// uidIndexOf indexes entries by uid, at their places in holdings where they start at
// place from.
func uidIndexOf(items []StoredEntry, from int) map[string]int {
	m := make(map[string]int, len(items))
	for i := range items {
		m[items[i].UID] = from + i
	}
	return m
}

// sameStoredEntry compares two entries without encoding them (the common case: an
// entry a tag did not touch, its embedded item the very same map).
func sameStoredEntry(x, y *StoredEntry) bool {
	if x.UID != y.UID || x.ID != y.ID || x.Qty != y.Qty || x.Equipped != y.Equipped || x.In != y.In || x.Charges != y.Charges || x.Fill != y.Fill ||
		!sameSwitches(x.States, y.States) || !sameSwitches(x.GM, y.GM) || !slices.Equal(x.Out, y.Out) {
		return false
	}
	if (x.Item == nil) != (y.Item == nil) {
		return false
	}
	return x.Item == nil || reflect.ValueOf(x.Item).Pointer() == reflect.ValueOf(y.Item).Pointer() || reflect.DeepEqual(x.Item, y.Item)
}

// sameSwitches is maps.Equal without starting an iteration over two empty maps (most
// entries' states: DiffStored compares every entry of a holdings on every tag).
func sameSwitches(x, y map[string]bool) bool {
	if len(x) != len(y) {
		return false
	}
	return len(x) == 0 || maps.Equal(x, y)
}

// sameCoins is maps.Equal(nonZero(x), nonZero(y)) without making either: every tag
// compares the purse it leaves with the one it found.
func sameCoins(x, y map[string]int64) bool {
	for k, n := range x {
		if n != 0 && y[k] != n {
			return false
		}
	}
	for k, n := range y {
		if n != 0 && x[k] != n {
			return false
		}
	}
	return true
}

func nonZero(p map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, n := range p {
		if n != 0 {
			out[k] = n
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// genericJSON is v in JSON's generic shapes (v is always encodable: the stored shape's
// own types).
func genericJSON(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

func fromGeneric(v any, dst any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, dst)
}

func sameGeneric(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
