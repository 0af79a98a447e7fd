package inventory

import (
	"math"
	"slices"
)

// A message's tags change a card's holdings one after another, and each tag's change is
// recorded (DiffStored of the holdings before and after it). Keeping the holdings anew
// for every tag copied all their entries every time (a 200-row inventory is some 25 KB)
// only to find the one or two that differ. KeepChange finds them by comparing the
// holdings in play with the stored ones from both ends, records the change from them
// alone, and, where the caller says the stored entries are its own, writes the new
// holdings over them: a card's entries are copied once per message, not once per tag.

// KeepChange is KeepOver(prev, h) and DiffStored(prev, that) at once: the holdings
// kept and the change from prev, the very same as those two give. With reuse the
// caller owns prev's entries (KeepChange made them, and nothing but the caller has seen
// them since), so the new holdings may be written over them and prev must not be read
// again; without it prev is left as it was.
func (c *Campaign) KeepChange(prev *Stored, h *Held, reuse bool) (st *Stored, before, after map[string]any, err error) {
	if prev == nil || len(prev.Items) == 0 || len(h.Inv) == 0 {
		return c.keepThenDiff(prev, h)
	}
	if err := RowsFit(int64(len(h.Inv))); err != nil {
		return nil, nil, nil, err
	}
	have, inv := prev.Items, h.Inv
	same := 0
	for same < len(inv) && same < len(have) && c.keptAs(h, inv[same], &have[same]) {
		same++
	}
	tail := 0
	for tail < len(inv)-same && tail < len(have)-same && c.keptAs(h, inv[len(inv)-1-tail], &have[len(have)-1-tail]) {
		tail++
	}
	return c.keepSpan(prev, h, reuse, same, tail)
}

// keepSpan is KeepChange once it knows how many entries are kept alike from the start
// (same) and from the end (tail) of prev's and h's.
func (c *Campaign) keepSpan(prev *Stored, h *Held, reuse bool, same, tail int) (st *Stored, before, after map[string]any, err error) {
	have, inv := prev.Items, h.Inv
	mid := make([]StoredEntry, 0, len(inv)-same-tail)
	for _, e := range inv[same : len(inv)-tail] {
		se, err := c.storedEntry(h, e)
		if err != nil {
			return nil, nil, nil, err
		}
		mid = append(mid, se)
	}
	gone := have[same : len(have)-tail]
	if !diffStaysWithin(gone, mid, have[len(have)-tail:]) {
		return c.keepThenDiff(prev, h)
	}
	if st, err = c.keptBare(h); err != nil {
		return nil, nil, nil, err
	}
	// The change reads what was there before the new holdings are written over it.
	before, after = diffWithin(prev, st, gone, mid, same)
	st.Items = spliced(have, same, tail, mid, reuse)
	return st, before, after, nil
}

// keepThenDiff is KeepChange the long way.
func (c *Campaign) keepThenDiff(prev *Stored, h *Held) (*Stored, map[string]any, map[string]any, error) {
	st, err := c.KeepOver(prev, h)
	if err != nil {
		return nil, nil, nil, err
	}
	b, a := DiffStored(prev, st)
	return st, b, a, nil
}

// diffStaysWithin reports whether DiffStored of the whole holdings would find what
// differs within gone (before's) and mid (after's) alone, the entries after both being
// tail. It would look further only where, comparing from the start, one side runs out
// while the next entry on the other is alike the first of tail: two entries sharing a
// uid, which holdings never have, but then the long way answers as it always did.
func diffStaysWithin(gone, mid, tail []StoredEntry) bool {
	k := 0
	for k < len(gone) && k < len(mid) && sameStoredEntry(&gone[k], &mid[k]) {
		k++
	}
	switch {
	case len(tail) == 0 || (k == len(gone)) == (k == len(mid)):
		return true
	case k == len(gone):
		return !sameStoredEntry(&tail[0], &mid[k])
	}
	return !sameStoredEntry(&gone[k], &tail[0])
}

// spliced is have with its entries from same up to its last tail replaced by mid: over
// have itself when reuse allows and it has room, else in new entries.
func spliced(have []StoredEntry, same, tail int, mid []StoredEntry, reuse bool) []StoredEntry {
	n := same + len(mid) + tail
	if len(mid) == 0 && n == len(have) {
		return have // nothing changed: share them, as KeepOver does
	}
	if !reuse || cap(have) < n {
		// Room for a few more, so the next tag's add can be written in place too.
		out := make([]StoredEntry, n, n+4)
		copy(out, have[:same])
		copy(out[same:], mid)
		copy(out[same+len(mid):], have[len(have)-tail:])
		return out
	}
	m := len(have)
	out := have[:max(n, m)]
	copy(out[n-tail:n], out[m-tail:m])
	copy(out[same:], mid)
	clear(out[n:]) // what is left past the end holds nothing
	return out[:n]
}

// KeepEntry is KeepChange(prev, h, reuse) of holdings that are as prev holds them — h
// restored from prev or kept into it — but for entry e and the purse: a tag that
// switched one entry's state (e sharing no map with another entry, as Restore and every
// action make them), or with e nil one that only paid or received coins, the entries
// then prev's, shared. The other entries are not compared: KeepChange's scans from both
// ends would stop at e, or find all alike, and that is where these start (two of a
// market's five tags touch only coins, and comparing a 200-entry inventory to find
// nothing was a fifth of what keeping a tag cost). An entry JSON cannot hold (a NaN
// fill) is never alike even to itself, so holdings with one go the long way.
func (c *Campaign) KeepEntry(prev *Stored, h *Held, reuse bool, e *Entry) (st *Stored, before, after map[string]any, err error) {
	n := len(h.Inv)
	i := slices.Index(h.Inv, e)
	if prev == nil || n == 0 || len(prev.Items) != n || (e != nil && i < 0) || slices.ContainsFunc(h.Inv, nanFill) {
		return c.KeepChange(prev, h, reuse)
	}
	if err := RowsFit(int64(n)); err != nil {
		return nil, nil, nil, err
	}
	if e == nil || c.keptAs(h, e, &prev.Items[i]) {
		return c.keepSpan(prev, h, reuse, n, 0)
	}
	return c.keepSpan(prev, h, reuse, i, n-1-i)
}

func nanFill(e *Entry) bool { return math.IsNaN(e.Fill) }
