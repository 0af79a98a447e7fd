package bolt

import (
	"bytes"
	"slices"
	"sync"

	"sheetkeeper/storage"
)

// campaignMemo memoises decoding campaign records, as record.CardMemo does cards: every
// message a GM posts reads its channel's campaign twice (the GM check, then again under
// the write), and encoding/json's reflective decoding of it was a tenth of a reply's CPU
// above the commit. An entry is used only when the stored bytes are exactly the bytes it
// was decoded from, so it is never stale; what it hands out is a copy. Its zero value is
// ready.
type campaignMemo struct {
	mu sync.Mutex
	m  map[string]cachedCampaign
}

type cachedCampaign struct {
	raw []byte
	c   *storage.Campaign
}

// maxCachedCampaigns bounds the memo (a campaign record is a few hundred bytes, more
// with its Told list).
const maxCachedCampaigns = 4096

// lookup returns a copy of the campaign decoded from raw, if the memo has it.
func (m *campaignMemo) lookup(k string, raw []byte) *storage.Campaign {
	m.mu.Lock()
	e, ok := m.m[k]
	m.mu.Unlock()
	if !ok || !bytes.Equal(e.raw, raw) {
		return nil
	}
	return cloneCampaign(e.c)
}

// add keeps a copy of c as the decoding of raw (copied too: a kv's bytes live only as
// long as its transaction).
func (m *campaignMemo) add(k string, raw []byte, c *storage.Campaign) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]cachedCampaign{}
	}
	if len(m.m) >= maxCachedCampaigns {
		n := 0
		for k := range m.m { // drop a quarter, arbitrary ones
			delete(m.m, k)
			if n++; n >= maxCachedCampaigns/4 {
				break
			}
		}
	}
	m.m[k] = cachedCampaign{raw: bytes.Clone(raw), c: cloneCampaign(c)}
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
