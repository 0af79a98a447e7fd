package bolt

import (
	"bytes"
	"slices"

	"sheetkeeper/storage"
	"sheetkeeper/storage/record"
)

// campaignMemo memoises decoding campaign records (a record.Memo, as cards have): every
// message a GM posts reads its channel's campaign twice (the GM check, then again under
// the write), and encoding/json's reflective decoding of it was a tenth of a reply's CPU
// above the commit. An entry is used only when the stored bytes are exactly the bytes it
// was decoded from, so it is never stale; what it hands out is a copy. Its zero value is
// ready.
type campaignMemo struct{ memo record.Memo[storage.Campaign] }

// lookup returns a copy of the campaign decoded from raw, if the memo has it.
func (m *campaignMemo) lookup(k string, raw []byte) *storage.Campaign {
	return m.memo.Lookup(k, raw, cloneCampaign)
}

// add keeps a copy of c as the decoding of raw (copied too: a kv's bytes live only as
// long as its transaction).
func (m *campaignMemo) add(k string, raw []byte, c *storage.Campaign) {
	m.memo.Add(k, bytes.Clone(raw), cloneCampaign(c))
}

// cloneCampaign is a deep copy of c: its slices are its own. (A field of a reference type
// added to storage.Campaign must be copied here; TestCloneCampaignIsDeep says so.)
func cloneCampaign(c *storage.Campaign) *storage.Campaign {
	d := *c
	d.Layers = slices.Clone(c.Layers)
	d.GMs = slices.Clone(c.GMs)
	d.Told = slices.Clone(c.Told)
	return &d
}
