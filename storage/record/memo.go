package record

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"

	"sheetkeeper/storage"
)

// CardMemo memoises decoding card records: raw JSON → decoded record, for a backend
// (its zero value is ready). sheet's tolerant card decoding is the costliest step of a
// command: in the bolt backend it runs under the run lock, where commands run one at a
// time (storage/bolt/commit.go), and in etcd's it is a fifth of a reply's CPU; with the
// memo, a card read back after a command wrote it
// costs a byte comparison and a deep copy. An entry is used only when the stored bytes
// are exactly the bytes it was decoded from, so it can never be stale: it is a pure
// function's memo, true whatever was committed or rolled back since. A command's freshly
// written cards go into it from their caller's goroutine after it has let go of the run
// lock (or, in etcd, after the commit), in parallel with the next commands (see
// Remember). Keys are the backend's own: one string per stored record.
type CardMemo struct{ memo Memo[storage.CardRecord] }

// Memo memoises decoding one kind of record: raw JSON → decoded record, used only when
// the stored bytes are exactly those it was decoded from (so never stale), handing out
// copies. Its zero value is ready; it holds at most maxMemo records.
type Memo[T any] struct {
	mu sync.Mutex
	m  map[string]memoEntry[T]
}

type memoEntry[T any] struct {
	raw []byte
	rec *T
}

// maxMemo bounds a memo (a 2 KB card takes about 8 KB with its decoded form).
const maxMemo = 4096

// Lookup returns clone of the record decoded from raw, if the memo has it.
func (c *Memo[T]) Lookup(k string, raw []byte, clone func(*T) *T) *T {
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if !ok || !bytes.Equal(e.raw, raw) {
		return nil
	}
	return clone(e.rec)
}

// Add keeps rec as the decoding of raw; both must be the memo's own.
func (c *Memo[T]) Add(k string, raw []byte, rec *T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]memoEntry[T]{}
	}
	if len(c.m) >= maxMemo {
		n := 0
		for k := range c.m { // drop a quarter, arbitrary ones
			delete(c.m, k)
			if n++; n >= maxMemo/4 {
				break
			}
		}
	}
	c.m[k] = memoEntry[T]{raw: raw, rec: rec}
}

// Lookup returns a copy of the card record decoded from raw, if the memo has it.
func (c *CardMemo) Lookup(k string, raw []byte) *storage.CardRecord {
	return c.memo.Lookup(k, raw, CloneCard)
}

// Add keeps rec as the decoding of raw; both must be the cache's own.
func (c *CardMemo) Add(k string, raw []byte, rec *storage.CardRecord) { c.memo.Add(k, raw, rec) }

// Remember keeps what a command wrote at key, raw (the bytes stored, the memo's own
// from now on) encoding rec (the caller's record, which may have changed since), once
// its function has returned: a copy of the record it wrote when that record still encodes to exactly the bytes written and reads
// back from them as itself (roundTrip), else the decoding of the bytes. Checking here,
// on the caller's goroutine once it has let go of the run lock, rather than copying the
// record in the Put, keeps the copy out of the run lock, where commands wait for each
// other.
func (c *CardMemo) Remember(key string, raw []byte, rec *storage.CardRecord) {
	if CardEncodesTo(rec, raw) {
		if d := RoundTrip(rec); d != nil {
			c.Add(key, raw, d)
			return
		}
	}
	c.decode(key, raw)
}

// RoundTrip returns a copy of r equal in every value, type and nil to what decoding
// r's JSON gives, or nil when that cannot be known without decoding. Decoding a ~1 KB
// card costs ~100 µs; this check and copy a few µs.
func RoundTrip(r *storage.CardRecord) *storage.CardRecord {
	if r.Card == nil || !r.Card.RoundTrips() || !utf8.ValidString(r.OwnerID) || !utf8.ValidString(r.From) {
		return nil
	}
	// A time is written in RFC 3339 and read back in UTC (as a zone-less time) only when
	// its offset is zero; the monotonic reading is not written.
	if _, offset := r.UpdatedAt.Zone(); offset != 0 || r.UpdatedAt.Year() < 0 || r.UpdatedAt.Year() > 9999 {
		return nil
	}
	d := CloneCard(r)
	d.UpdatedAt = r.UpdatedAt.UTC()
	return d
}

// decode decodes raw (the cache's own copy) and remembers it.
func (c *CardMemo) decode(k string, raw []byte) {
	rec := new(storage.CardRecord)
	if json.Unmarshal(raw, rec) == nil && rec.Card != nil {
		c.Add(k, raw, rec)
	}
}

// CloneCard is a copy of a card record as deep as a reader may change it: the card is
// copied, the holdings shared (inventory.Stored is never changed in place; copying 200
// entries was a sixth of what an inventory reply allocated).
func CloneCard(r *storage.CardRecord) *storage.CardRecord {
	d := *r
	if r.Card != nil {
		d.Card = r.Card.Clone()
	}
	return &d
}
