package etcd

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"

	"sheetkeeper/storage"
)

// tx is one attempt of a View or Update: it reads at one revision (the first read's,
// so the function sees one consistent snapshot) and buffers its writes, which later
// reads in the same function see. For an Update it remembers what it read, so the
// commit can ask etcd to apply the writes only if none of it has changed since (see
// txn): the mod revision of every key read (0 for a key found missing) and, for every
// range read, that no key in the range was written after the snapshot (a delete in a
// range rewrites a key in it: see scanOpts).
type tx struct {
	s     *store
	ctx   context.Context
	write bool // an Update: writes allowed, reads remembered
	done  bool // fn has returned: the Tx must not be used any more

	rev        int64             // the snapshot's revision; 0 before the first read
	reads      map[string]int64  // key → its mod revision at rev (0: missing)
	cache      map[string][]byte // values read at rev (nil: missing), so a key is asked once
	ranges     []span            // ranges read, for the commit's compares
	writes     map[string]pending
	wroteCards map[string]writtenCard // the card records among writes

	// again is set when a read failed in a way a new attempt cures (the snapshot's
	// revision was compacted away): whatever fn returns, the attempt is run again.
	again bool
}

type pending struct {
	val []byte
	del bool
}

type span struct{ start, end string }

type kv struct {
	key string
	val []byte
}

var _ storage.Tx = (*tx)(nil)

var errTxDone = storage.Errorf(storage.Closed, "storage: transaction used after its function returned")

func (t *tx) use() error {
	if t.done {
		return errTxDone
	}
	return nil
}

func (t *tx) opts(o ...clientv3.OpOption) []clientv3.OpOption {
	if t.rev != 0 {
		o = append(o, clientv3.WithRev(t.rev), clientv3.WithSerializable())
	}
	return o
}

// get returns the value at key; found is false when there is none.
func (t *tx) get(key string) (val []byte, found bool, err error) {
	if err := t.use(); err != nil {
		return nil, false, err
	}
	if w, ok := t.writes[key]; ok {
		return w.val, !w.del, nil
	}
	if v, ok := t.cache[key]; ok {
		return v, v != nil, nil
	}
	resp, err := t.s.get(t.ctx, key, t.opts()...)
	if err != nil {
		t.again = t.again || retryable(err)
		return nil, false, err
	}
	t.pin(resp.Header.Revision)
	var mod int64
	if len(resp.Kvs) > 0 {
		val, found, mod = resp.Kvs[0].Value, true, resp.Kvs[0].ModRevision
	}
	if _, seen := t.reads[key]; t.write && !seen {
		t.reads[key] = mod
	}
	t.remember(key, val, found)
	return val, found, nil
}

// remember keeps a value read at the snapshot's revision (found false: none).
func (t *tx) remember(key string, val []byte, found bool) {
	if t.cache == nil {
		t.cache = map[string][]byte{}
	}
	if found && val == nil {
		val = []byte{} // an empty value is a value: nil stands for none
	}
	t.cache[key] = val
}

func (t *tx) pin(rev int64) {
	if t.rev == 0 {
		t.rev = rev
	}
}

// scanOpts say how scan reads a range.
type scanOpts struct {
	limit    int  // at most this many (0: all)
	desc     bool // newest (greatest key) first
	keysOnly bool // values are not wanted
	// deletable: a key of this range may be deleted by another command, which a range
	// compare cannot see (it sees only keys that exist). Such a range is a family's
	// (start is the family's prefix), and every delete in the family rewrites the
	// family's guard, the key that is the prefix itself (keys.guard): it is in the
	// range, first, so the range's compare sees a delete too, and the listing costs one
	// compare however many records it holds. scan leaves the guard out of what it
	// returns.
	deletable bool
}

// scan returns the keys in [start, end) in order, with this transaction's writes in
// place.
func (t *tx) scan(start, end string, o scanOpts) ([]kv, error) {
	if err := t.use(); err != nil {
		return nil, err
	}
	mine := t.writesIn(start, end)
	ops := []clientv3.OpOption{clientv3.WithRange(end)}
	if o.desc {
		ops = append(ops, clientv3.WithSort(clientv3.SortByKey, clientv3.SortDescend))
	}
	if o.keysOnly {
		ops = append(ops, clientv3.WithKeysOnly())
	}
	limited := o.limit > 0 && len(mine) == 0
	if limited && o.deletable {
		ops = append(ops, clientv3.WithLimit(int64(o.limit)+1)) // the guard comes first
	} else if limited {
		ops = append(ops, clientv3.WithLimit(int64(o.limit)))
	}
	resp, err := t.s.get(t.ctx, start, t.opts(ops...)...)
	if err != nil {
		t.again = t.again || retryable(err)
		return nil, err
	}
	t.pin(resp.Header.Revision)
	out := make([]kv, 0, len(resp.Kvs)+len(mine))
	for _, e := range resp.Kvs {
		k := string(e.Key)
		if o.deletable && k == start {
			continue // the family's guard
		}
		if !o.keysOnly { // a key listed is covered by the range's compare
			t.remember(k, e.Value, true)
		}
		if _, ok := t.writes[k]; !ok {
			out = append(out, kv{k, e.Value})
		}
	}
	if r := covered(start, end, o.desc, limited && resp.More, out); t.write && !slices.Contains(t.ranges, r) {
		t.ranges = append(t.ranges, r)
	}
	for _, k := range mine {
		if w := t.writes[k]; !w.del && !(o.deletable && k == start) {
			out = append(out, kv{k, w.val})
		}
	}
	if len(mine) > 0 {
		sort.Slice(out, func(i, j int) bool { return (out[i].key < out[j].key) != o.desc })
	}
	if o.limit > 0 && len(out) > o.limit {
		out = out[:o.limit]
	}
	return out, nil
}

// covered is the part of [start, end) a read saw: all of it, or when a limit cut it
// short, up to (or, descending, down to) the last key returned.
func covered(start, end string, desc, cut bool, got []kv) span {
	if !cut || len(got) == 0 {
		return span{start, end}
	}
	last := got[len(got)-1].key
	if desc {
		return span{last, end}
	}
	return span{start, last + sep}
}

// writesIn are the keys this transaction wrote in [start, end).
func (t *tx) writesIn(start, end string) []string {
	var ks []string
	for k := range t.writes {
		if k >= start && k < end {
			ks = append(ks, k)
		}
	}
	return ks
}

func (t *tx) putRaw(key string, val []byte) error {
	if err := t.use(); err != nil {
		return err
	}
	if !t.write {
		return errReadOnly
	}
	t.set(key, val)
	return nil
}

// set and unset write and delete key in a live Update (the caller has checked): unset
// without reading the key first (a key whose record was read already, or a sweep's).
func (t *tx) set(key string, val []byte) { t.writes[key] = pending{val: val} }
func (t *tx) unset(key string)           { t.writes[key] = pending{del: true} }

// bump writes the guard of family, a prefix whose keys may be deleted (scanOpts): a
// delete in it fails the commit of every transaction that listed it since.
func (t *tx) bump(family string) { t.set(t.s.keys.guard(family), []byte{}) }

// del deletes key of family; a NotFound error when there is none. Family "" is a key
// no range lists (a channel's shop or trade offer): its delete needs no guard, as the
// read of the key already fails the commit if another transaction wrote it meanwhile.
func (t *tx) del(key, family string) error {
	if !t.write {
		return errReadOnly
	}
	_, found, err := t.get(key)
	if err != nil {
		return err
	}
	if !found {
		return errNotFound
	}
	t.unset(key)
	if family != "" {
		t.bump(family)
	}
	return nil
}

// getJSON decodes the record at key into v; a NotFound error when there is none.
func (t *tx) getJSON(key string, v any) error {
	data, found, err := t.get(key)
	if err != nil {
		return err
	}
	if !found {
		return errNotFound
	}
	return t.decode(key, data, v)
}

func (t *tx) decode(key string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return storage.Errorf(storage.Damaged, "storage: record %q: %w", strings.TrimPrefix(key, t.s.keys.prefix), err)
	}
	return nil
}

func (t *tx) putJSON(key string, v any) error {
	if !t.write {
		return errReadOnly
	}
	data, err := json.Marshal(v)
	if err != nil {
		return storage.Errorf(storage.Invalid, "storage: encode record: %w", err)
	}
	return t.putRaw(key, data)
}

func decodeAll[T any](t *tx, start string, o scanOpts) ([]*T, error) {
	got, err := t.scan(start, rangeEnd(start), o)
	if err != nil {
		return nil, err
	}
	out := make([]*T, 0, len(got))
	for _, e := range got {
		v := new(T)
		if err := t.decode(e.key, e.val, v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// The request size etcd holds to --max-request-bytes is the whole transaction as
// protobuf, wrapped in its raft request: each compare and write a length-delimited field
// of a field of a field. Counted so (field), an Update the check passes is one etcd
// takes; counted by its keys and values alone, one a few bytes under the limit was sent
// and refused by etcd in its own words.
const (
	// raftOverhead bounds what the raft request adds around the transaction: its
	// header (an id, a user name) and the field holding the transaction.
	raftOverhead = 64
	// cmpFixed bounds a compare's fields beside its key and range end: its result and
	// target (a tag and a byte each) and the revision it names (a tag and a varint).
	cmpFixed = 2 + 2 + 1 + binary.MaxVarintLen64
)

// field is the size of a length-delimited protobuf field of n bytes: a tag (a byte for
// the field numbers a transaction uses), the length as a varint, the bytes.
func field(n int) int {
	var b [binary.MaxVarintLen64]byte
	return 1 + binary.PutUvarint(b[:], uint64(n)) + n
}

// txn is the commit of what the function wrote, if nothing it read has changed: the
// compares of every key and range read, then the writes, in key order. It is nil when
// nothing was written (a read-only Update has nothing to commit). It is refused as
// Invalid before it is sent when it is bigger than etcd takes (Options.MaxTxnOps,
// MaxRequestBytes).
func (t *tx) txn() ([]clientv3.Cmp, []clientv3.Op, error) {
	if len(t.writes) == 0 {
		return nil, nil, nil
	}
	size := raftOverhead
	cmps := make([]clientv3.Cmp, 0, len(t.reads)+len(t.ranges))
	for _, k := range slices.Sorted(maps.Keys(t.reads)) {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(k), "=", t.reads[k]))
		size += field(cmpFixed + field(len(k)))
	}
	for _, r := range t.ranges {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(r.start).WithRange(r.end), "<", t.rev+1))
		size += field(cmpFixed + field(len(r.start)) + field(len(r.end)))
	}
	ops := make([]clientv3.Op, 0, len(t.writes))
	for _, k := range slices.Sorted(maps.Keys(t.writes)) {
		w := t.writes[k]
		if w.del {
			ops = append(ops, clientv3.OpDelete(k))
			size += field(field(field(len(k))))
		} else {
			ops = append(ops, clientv3.OpPut(k, string(w.val)))
			size += field(field(field(len(k)) + field(len(w.val))))
		}
	}
	lim := t.s.limits
	if n := max(len(cmps), len(ops)); n > lim.ops {
		return nil, nil, storage.Errorf(storage.Invalid, "storage: the transaction checks %d reads and makes %d writes: more than the %d operations an etcd transaction takes (--max-txn-ops)", len(cmps), len(ops), lim.ops)
	}
	if size > lim.bytes {
		return nil, nil, storage.Errorf(storage.Invalid, "storage: the transaction is %s: more than the %s an etcd request takes (--max-request-bytes)", bytesText(size), bytesText(lim.bytes))
	}
	return cmps, ops, nil
}

func bytesText(n int) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
