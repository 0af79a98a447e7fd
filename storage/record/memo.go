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
// memo, a card read back costs a byte comparison and a deep copy — and none under the
// run lock when a command wrote it last: the copy the next reader gets (a spare) was
// made when the card was remembered, off the lock. An entry is used only when the
// stored bytes are exactly the bytes it was decoded from, so it can never be stale: it
// is a pure function's memo, true whatever was committed or rolled back since. A
// command's freshly written cards go into it from their caller's goroutine after it has
// let go of the run lock (or, in etcd, after the commit), in parallel with the next
// commands (see Keep and Remember). Keys are the backend's own: one string per stored
// record.
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
	// spare, when not nil, is a copy of rec made off the run lock, handed to the next
	// reader (once) instead of a copy made then.
	spare *T
}

// maxMemo bounds a memo (a 2 KB card takes about 8 KB with its decoded form, and its
// decoded form again while a spare waits for the next reader).
const maxMemo = 4096

// Lookup returns a copy of the record decoded from raw (the entry's spare, or clone of
// it), if the memo has it.
func (c *Memo[T]) Lookup(k string, raw []byte, clone func(*T) *T) *T {
	c.mu.Lock()
	e, ok := c.m[k]
	if !ok || !bytes.Equal(e.raw, raw) {
		c.mu.Unlock()
		return nil
	}
	if e.spare != nil {
		c.m[k] = memoEntry[T]{raw: e.raw, rec: e.rec}
		c.mu.Unlock()
		return e.spare
	}
	c.mu.Unlock()
	return clone(e.rec)
}

// Add keeps rec as the decoding of raw; both must be the memo's own.
func (c *Memo[T]) Add(k string, raw []byte, rec *T) { c.add(k, memoEntry[T]{raw: raw, rec: rec}) }

// add keeps e at k, making room first when the memo is full.
func (c *Memo[T]) add(k string, e memoEntry[T]) {
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
	c.m[k] = e
}

// Lookup returns a copy of the card record decoded from raw, if the memo has it.
func (c *CardMemo) Lookup(k string, raw []byte) *storage.CardRecord {
	return c.memo.Lookup(k, raw, CloneCard)
}

// Add keeps rec as the decoding of raw; both must be the cache's own.
func (c *CardMemo) Add(k string, raw []byte, rec *storage.CardRecord) { c.memo.Add(k, raw, rec) }

// Keep keeps rec as the decoding of raw, for a store that encoded raw from rec
// (AppendCard) once nothing could change rec any more (the memo's own from now on), so
// it need not be encoded again to know it is what was stored: when it reads back as
// itself (see roundTrips), with a spare copy for the next reader, else the decoding of
// raw. A store calls it once the command's function has returned, off its run lock.
func (c *CardMemo) Keep(key string, raw []byte, rec *storage.CardRecord) {
	if !roundTrips(rec) {
		c.decode(key, raw)
		return
	}
	rec.UpdatedAt = rec.UpdatedAt.UTC()
	c.memo.add(key, memoEntry[storage.CardRecord]{raw: raw, rec: rec, spare: CloneCard(rec)})
}

// Remember is Keep for a record a command put and the store encoded before the
// command's function returned (rec, encoded to raw, the bytes stored): a record put is
// the store's (storage.Tx), so the memo takes rec itself when it still encodes to
// exactly raw — the function may have changed it since — else the decoding of raw.
func (c *CardMemo) Remember(key string, raw []byte, rec *storage.CardRecord) {
	if !CardEncodesTo(rec, raw) {
		c.decode(key, raw)
		return
	}
	c.Keep(key, raw, rec)
}

// roundTrips reports whether decoding r's JSON gives back r, its time in UTC (a check
// of a few µs; decoding a ~1 KB card costs ~100).
func roundTrips(r *storage.CardRecord) bool {
	if r.Card == nil || !r.Card.RoundTrips() || !utf8.ValidString(r.OwnerID) || !utf8.ValidString(r.From) || !utf8.ValidString(r.KitSystem) {
		return false
	}
	// A time is written in RFC 3339 and read back in UTC (as a zone-less time) only when
	// its offset is zero; the monotonic reading is not written.
	_, offset := r.UpdatedAt.Zone()
	return offset == 0 && r.UpdatedAt.Year() >= 0 && r.UpdatedAt.Year() <= 9999
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
