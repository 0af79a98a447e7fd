package inventory

import (
	"strconv"
	"testing"
)

// BenchmarkTagKept200 is what a tag on a 200-entry inventory costs its holdings once
// the engine has changed them: kept back into the stored shape and compared with what
// it replaces (the reply's change), one entry's count changed a tag, and the entry
// found by name first. The CPU part of bot's BenchmarkInventoryReplyVsBare, measured
// without the disk.
func BenchmarkTagKept200(b *testing.B) {
	c := campaign(b)
	ids := []string{"lr-ring", "lr-sword", "lr-staff", "lr-mail", "lr-sack", "lr-skin"}
	st := &Stored{Next: 200}
	for i := range 200 {
		st.Items = append(st.Items, StoredEntry{UID: "i" + strconv.Itoa(i+1), ID: ids[i%len(ids)], Qty: 1})
	}
	st.Items[100].States = map[string]bool{"attuned": true}
	h, ps := c.Restore(st)
	if len(ps) > 0 {
		b.Fatal(ps)
	}
	name := c.System.CatalogItem("lr-skin").Name
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e, err := c.FindEntry(h.Inv, name)
		if err != nil {
			b.Fatal(err)
		}
		e.Qty = int64(2 + i%2)
		kept, err := c.Keep(h)
		if err != nil {
			b.Fatal(err)
		}
		if bf, _ := DiffStored(st, kept); bf == nil {
			b.Fatal("no change")
		}
		st = kept
	}
}

// BenchmarkMessageKept200 is the holdings' part of a five-tag message on a 200-entry
// inventory as bot applies it: restored once, each tag's change kept with
// KeepChange (over the message's own entries after the first), and the card's
// holdings encoded for the store at the end.
func BenchmarkMessageKept200(b *testing.B) {
	c := campaign(b)
	ids := []string{"lr-ring", "lr-sword", "lr-staff", "lr-mail", "lr-sack", "lr-skin"}
	st := &Stored{Next: 200, Purse: map[string]int64{}}
	for i := range 200 {
		st.Items = append(st.Items, StoredEntry{UID: "i" + strconv.Itoa(i+1), ID: ids[i%len(ids)], Qty: 1})
	}
	st.Items[100].States = map[string]bool{"attuned": true}
	b.ReportAllocs()
	var buf []byte
	for i := 0; b.Loop(); i++ {
		h, ps := c.Restore(st)
		if len(ps) > 0 {
			b.Fatal(ps)
		}
		prev := st
		for t := range 5 {
			h.Inv[(t*37+i)%200].Qty = int64(2 + i%2)
			kept, bf, _, err := c.KeepChange(prev, h, t > 0)
			if err != nil || bf == nil {
				b.Fatal("no change", err)
			}
			prev = kept
		}
		var err error
		if buf, err = prev.AppendJSON(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
