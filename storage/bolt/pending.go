package bolt

import (
	"bytes"
	"errors"
	"slices"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"sheetkeeper/storage"
)

// kv is what a tx reads and writes: a bbolt transaction (View, and tests that write one
// directly), or an Update's view (pendingKV): the writes of the batches not yet
// committed over a read transaction of what is.
//
// Values returned are valid until the function that got them returns; ascend's fn must
// not write.
type kv interface {
	get(bucket, key []byte) ([]byte, error)
	put(bucket, key, value []byte) error
	del(bucket, key []byte) error
	// ascend calls fn for each key from `from` on, in order, while the key starts with
	// pfx, until fn says no more.
	ascend(bucket, from, pfx []byte, fn func(k, v []byte) (more bool, err error)) error
	nextSequence(bucket []byte) (uint64, error)
}

// ---- a bbolt transaction ----

type boltKV struct{ btx *bolt.Tx }

func (b boltKV) bucket(name []byte) (*bolt.Bucket, error) { return bucketIn(b.btx, name) }

// bucketIn is the bucket name of btx, with its fill set when btx writes.
func bucketIn(btx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	bk := btx.Bucket(name)
	if bk == nil {
		return nil, storage.Errorf(storage.Damaged, "storage: database damaged: bucket %q missing", name)
	}
	if btx.Writable() {
		bk.FillPercent = fillPercent(name)
	}
	return bk, nil
}

func (b boltKV) get(bucket, key []byte) ([]byte, error) {
	bk, err := b.bucket(bucket)
	if err != nil {
		return nil, err
	}
	return bk.Get(key), nil
}

func (b boltKV) put(bucket, key, value []byte) error {
	bk, err := b.bucket(bucket)
	if err != nil {
		return err
	}
	return readOnly(bk.Put(key, value))
}

func (b boltKV) del(bucket, key []byte) error {
	bk, err := b.bucket(bucket)
	if err != nil {
		return err
	}
	return readOnly(bk.Delete(key))
}

// readOnly gives bbolt's refusal of a write in a read-only transaction its kind.
func readOnly(err error) error {
	if errors.Is(err, berrors.ErrTxNotWritable) {
		return &storage.Error{Kind: storage.ReadOnly, Err: err}
	}
	return err
}

func (b boltKV) ascend(bucket, from, pfx []byte, fn func(k, v []byte) (bool, error)) error {
	bk, err := b.bucket(bucket)
	if err != nil {
		return err
	}
	c := bk.Cursor()
	for k, v := seek(c, start(from, pfx)); k != nil && bytes.HasPrefix(k, pfx); k, v = c.Next() {
		if more, err := fn(k, v); err != nil || !more {
			return err
		}
	}
	return nil
}

func (b boltKV) nextSequence(bucket []byte) (uint64, error) {
	bk, err := b.bucket(bucket)
	if err != nil {
		return 0, err
	}
	n, err := bk.NextSequence()
	return n, readOnly(err)
}

// seek puts c on the first key at or after from.
func seek(c *bolt.Cursor, from []byte) ([]byte, []byte) {
	if len(from) == 0 {
		return c.First()
	}
	return c.Seek(from)
}

// start is where an ascent from `from` within pfx begins: the later of the two.
func start(from, pfx []byte) []byte {
	if bytes.Compare(from, pfx) < 0 {
		return pfx
	}
	return from
}

// ---- pending writes ----

// pending is the writes of the batches run but not yet committed, newest per key, kept
// under the run lock (see commit.go) and read by the functions run under it before
// what bbolt holds. Each entry carries the number of the function that wrote it; it
// stays until the function that runs after its batch committed settles it, and is read
// from bbolt from then on.
type pending struct {
	buckets map[string][]entry    // bucket name → entries sorted by key
	seqs    map[string]pendingSeq // bucket name → the sequence handed out last
}

type entry struct {
	key, value []byte
	deleted    bool
	run        uint64 // the function that wrote it last (see store.runs)
}

type pendingSeq struct{ seq, run uint64 }

func (p *pending) empty() bool { return len(p.buckets) == 0 && len(p.seqs) == 0 }

// find returns where key is, or would be, in es.
func find(es []entry, key []byte) (int, bool) {
	return slices.BinarySearchFunc(es, key, func(e entry, k []byte) int { return bytes.Compare(e.key, k) })
}

// lookup returns key's pending entry, if it has one.
func (p *pending) lookup(bucket, key []byte) (entry, bool) {
	es := p.buckets[string(bucket)]
	if i, ok := find(es, key); ok {
		return es[i], true
	}
	return entry{}, false
}

// set makes e key's entry.
func (p *pending) set(bucket []byte, e entry) {
	if p.buckets == nil {
		p.buckets = map[string][]entry{}
	}
	es := p.buckets[string(bucket)]
	if i, ok := find(es, e.key); ok {
		es[i] = e
	} else {
		p.buckets[string(bucket)] = slices.Insert(es, i, e)
	}
}

// unset drops key's entry.
func (p *pending) unset(bucket, key []byte) {
	es := p.buckets[string(bucket)]
	if i, ok := find(es, key); ok {
		if es = slices.Delete(es, i, i+1); len(es) == 0 {
			delete(p.buckets, string(bucket))
		} else {
			p.buckets[string(bucket)] = es
		}
	}
}

// settle drops the entries of the functions numbered up to and including committed:
// their batches are committed (batches take the functions in the order they ran), so
// bbolt holds them.
func (p *pending) settle(committed uint64) {
	for name, es := range p.buckets {
		es = slices.DeleteFunc(es, func(e entry) bool { return e.run <= committed })
		if len(es) == 0 {
			delete(p.buckets, name)
		} else {
			p.buckets[name] = es
		}
	}
	for name, s := range p.seqs {
		if s.run <= committed {
			delete(p.seqs, name)
		}
	}
}

// reset forgets every pending write: a commit failed, and what ran after it is failed too.
func (p *pending) reset() { p.buckets, p.seqs = nil, nil }

// write is one change a function made, as the commit applies it.
type write struct {
	bucket, key, value []byte
	deleted            bool
	seq                uint64 // when key is nil: raise the bucket's sequence to seq
}

// pendingKV is one function's view in an Update: the pending writes over a read
// transaction of what is committed. Its writes go into pending at once (so it and the
// functions after it read them) and into its own list for the commit; undo takes them
// back out of pending when the function fails.
type pendingKV struct {
	rtx    *bolt.Tx
	p      *pending
	run    uint64 // the function's number, its entries' tag
	writes []write
	undo   []undoEntry
	seqs   []seqUndo
	opened []openBucket // see bucket
}

// seqUndo is a bucket's pending sequence before the function took a number.
type seqUndo struct {
	bucket string
	was    pendingSeq
	had    bool
}

// undoEntry is a key's pending entry before the function wrote it.
type undoEntry struct {
	bucket []byte
	was    entry
	had    bool
}

// bucket is the read transaction's bucket name, opened once per function: a read-only
// bbolt transaction keeps no open buckets, so each lookup would search the root and
// build the bucket again (a reply reads its five buckets a dozen times, under the run
// lock).
func (k *pendingKV) bucket(name []byte) (*bolt.Bucket, error) {
	for _, o := range k.opened {
		if bytes.Equal(o.name, name) {
			return o.bk, nil
		}
	}
	bk, err := bucketIn(k.rtx, name)
	if err == nil {
		k.opened = append(k.opened, openBucket{name, bk})
	}
	return bk, err
}

type openBucket struct {
	name []byte
	bk   *bolt.Bucket
}

func (k *pendingKV) get(bucket, key []byte) ([]byte, error) {
	if e, ok := k.p.lookup(bucket, key); ok {
		if e.deleted {
			return nil, nil
		}
		return e.value, nil
	}
	bk, err := k.bucket(bucket)
	if err != nil {
		return nil, err
	}
	return bk.Get(key), nil
}

// put checks what bbolt's Put would refuse, so a function learns it from its own call
// and not from its batch's commit.
func (k *pendingKV) put(bucket, key, value []byte) error {
	switch {
	case len(key) == 0:
		return storage.Errorf(storage.Invalid, "storage: %s: empty key", bucket)
	case len(key) > bolt.MaxKeySize:
		return storage.Errorf(storage.Invalid, "storage: %s: key of %d bytes (at most %d)", bucket, len(key), bolt.MaxKeySize)
	case int64(len(value)) > bolt.MaxValueSize:
		return storage.Errorf(storage.Invalid, "storage: %s: value of %d bytes (at most %d)", bucket, len(value), bolt.MaxValueSize)
	}
	k.set(write{bucket: bucket, key: key, value: value})
	return nil
}

func (k *pendingKV) del(bucket, key []byte) error {
	k.set(write{bucket: bucket, key: key, deleted: true})
	return nil
}

func (k *pendingKV) set(w write) {
	was, had := k.p.lookup(w.bucket, w.key)
	k.undo = append(k.undo, undoEntry{w.bucket, was, had})
	if !had {
		k.undo[len(k.undo)-1].was.key = w.key
	}
	k.p.set(w.bucket, entry{key: w.key, value: w.value, deleted: w.deleted, run: k.run})
	k.writes = append(k.writes, w)
}

// takeBack puts back, newest first, every pending entry and sequence the function
// changed.
func (k *pendingKV) takeBack() {
	for _, u := range slices.Backward(k.undo) {
		if u.had {
			k.p.set(u.bucket, u.was)
		} else {
			k.p.unset(u.bucket, u.was.key)
		}
	}
	for _, u := range slices.Backward(k.seqs) {
		if u.had {
			k.p.seqs[u.bucket] = u.was
		} else {
			delete(k.p.seqs, u.bucket)
		}
	}
	k.undo, k.seqs, k.writes = nil, nil, nil
}

func (k *pendingKV) ascend(bucket, from, pfx []byte, fn func(k, v []byte) (bool, error)) error {
	bk, err := k.bucket(bucket)
	if err != nil {
		return err
	}
	return ascendOver(bk, k.p.buckets[string(bucket)], from, pfx, fn)
}

// ascendOver is an ascent (see kv) of bucket bk with es, entries sorted by key, laid
// over it: an entry hides bk's value of its key, and a deleted one the key.
func ascendOver(bk *bolt.Bucket, es []entry, from, pfx []byte, fn func(k, v []byte) (bool, error)) error {
	from = start(from, pfx)
	i, _ := find(es, from)
	c := bk.Cursor()
	ck, cv := seek(c, from)
	for {
		cOK := ck != nil && bytes.HasPrefix(ck, pfx)
		pOK := i < len(es) && bytes.HasPrefix(es[i].key, pfx)
		var key, value []byte
		switch {
		case !cOK && !pOK:
			return nil
		case pOK && (!cOK || bytes.Compare(es[i].key, ck) <= 0):
			e := es[i]
			i++
			if cOK && bytes.Equal(e.key, ck) { // the entry hides bbolt's value
				ck, cv = c.Next()
			}
			if e.deleted {
				continue
			}
			key, value = e.key, e.value
		default:
			key, value = ck, cv
			ck, cv = c.Next()
		}
		if more, err := fn(key, value); err != nil || !more {
			return err
		}
	}
}

// ---- a View's journalled batches ----

// journalView is a View's kv: a read transaction of bbolt with the batches journalled
// but not yet in bbolt laid over it (store.beginDurable). Their writes never change
// once journalled; each bucket's newest entry per key is gathered from them the first
// time the View reads that bucket.
type journalView struct {
	boltKV
	batches []*batch // oldest first
	merged  map[string][]entry
}

// entries is the newest journalled entry of each key of bucket, sorted by key.
func (v *journalView) entries(bucket []byte) []entry {
	if len(v.batches) == 0 {
		return nil
	}
	if es, ok := v.merged[string(bucket)]; ok {
		return es
	}
	var es []entry
	for _, b := range v.batches {
		for _, w := range b.writes {
			if w.key != nil && bytes.Equal(w.bucket, bucket) {
				es = append(es, entry{key: w.key, value: w.value, deleted: w.deleted})
			}
		}
	}
	slices.SortStableFunc(es, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	newest := es[:0]
	for i, e := range es {
		if i+1 == len(es) || !bytes.Equal(es[i+1].key, e.key) { // the last of its key is the newest
			newest = append(newest, e)
		}
	}
	if v.merged == nil {
		v.merged = map[string][]entry{}
	}
	v.merged[string(bucket)] = newest
	return newest
}

func (v *journalView) get(bucket, key []byte) ([]byte, error) {
	es := v.entries(bucket)
	if i, ok := find(es, key); ok {
		if es[i].deleted {
			return nil, nil
		}
		return es[i].value, nil
	}
	return v.boltKV.get(bucket, key)
}

func (v *journalView) ascend(bucket, from, pfx []byte, fn func(k, v []byte) (bool, error)) error {
	bk, err := v.bucket(bucket)
	if err != nil {
		return err
	}
	return ascendOver(bk, v.entries(bucket), from, pfx, fn)
}

// nextSequence hands out the bucket's next sequence number, counting the numbers pending
// batches took.
func (k *pendingKV) nextSequence(bucket []byte) (uint64, error) {
	bk, err := k.bucket(bucket)
	if err != nil {
		return 0, err
	}
	n := bk.Sequence()
	s, had := k.p.seqs[string(bucket)]
	k.seqs = append(k.seqs, seqUndo{string(bucket), s, had})
	if had {
		n = max(n, s.seq)
	}
	n++
	if k.p.seqs == nil {
		k.p.seqs = map[string]pendingSeq{}
	}
	k.p.seqs[string(bucket)] = pendingSeq{n, k.run}
	k.writes = append(k.writes, write{bucket: bucket, seq: n})
	return n, nil
}

// fillPercent is how full bbolt fills the pages it splits in a bucket (see tx.go).
func fillPercent(bucket []byte) float64 {
	switch {
	case bytes.Equal(bucket, bucketReplyChain):
		return chainFill
	case bytes.Equal(bucket, bucketReplyLog):
		return replyLogFill
	case bytes.Equal(bucket, bucketMessages):
		return messagesFill
	}
	return bolt.DefaultFillPercent
}
