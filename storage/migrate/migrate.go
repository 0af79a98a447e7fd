// Package migrate copies a whole store from one backend to another (sheetkeeper
// migrate: a bbolt file into etcd and back) and proves the copy: the target's records,
// counted by kind and digested, must be the source's.
package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/storage"
)

// Summary is what a store holds: its records counted by kind, and a digest of them all.
type Summary struct {
	Counts map[storage.RecordKind]int
	// Digest is the hex sha256 over every record, sorted by kind and key, of its kind,
	// key and the sha256 of its value, each length-prefixed: two stores have one digest
	// exactly when they hold the same records, byte for byte.
	Digest string
}

// Records is the number of records of every kind.
func (s Summary) Records() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// String says the counts by kind, in storage.RecordKinds order, and the digest.
func (s Summary) String() string {
	var b strings.Builder
	for _, k := range storage.RecordKinds {
		fmt.Fprintf(&b, "%s %d, ", k, s.Counts[k])
	}
	fmt.Fprintf(&b, "sha256 %s", s.Digest)
	return b.String()
}

// Survey counts and digests every record of p.
func Survey(ctx context.Context, p storage.Porter) (Summary, error) {
	type entry struct {
		kind, key string
		sum       [sha256.Size]byte
	}
	var es []entry
	sum := Summary{Counts: map[storage.RecordKind]int{}}
	err := p.Export(ctx, func(r storage.Record) error {
		sum.Counts[r.Kind]++
		es = append(es, entry{string(r.Kind), r.Key, sha256.Sum256(r.Value)})
		return nil
	})
	if err != nil {
		return Summary{}, err
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := strings.Compare(a.kind, b.kind); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	h := sha256.New()
	for _, e := range es {
		for _, part := range []string{e.kind, e.key} {
			h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(part))))
			h.Write([]byte(part))
		}
		h.Write(e.sum[:])
	}
	sum.Digest = hex.EncodeToString(h.Sum(nil))
	return sum, nil
}

// Chunk bounds: an Import call, one transaction, carries at most chunkRecords records
// and (unless one record alone is larger) chunkBytes of keys and values. A record costs
// an etcd transaction at most two writes (itself and an index entry), so a chunk stays
// within etcd's default 128 operations and 1.5 MiB per transaction.
const (
	chunkRecords = 60
	chunkBytes   = 1 << 20
)

// errNotEmpty stops the emptiness check at the target's first record.
var errNotEmpty = errors.New("not empty")

// Copy copies every record of from into to, in transactions of a bounded size, then
// surveys both and returns the summary they share. A target that holds any record is
// refused (kind Conflict) before anything is written; a copy whose counts or digest
// differ from the source's fails with kind Damaged, saying both. The source must not
// change while it is copied (sheetkeeper migrate holds its file, or asks that nothing
// runs on the cluster).
func Copy(ctx context.Context, from, to storage.Porter) (Summary, error) {
	err := to.Export(ctx, func(storage.Record) error { return errNotEmpty })
	switch {
	case errors.Is(err, errNotEmpty):
		return Summary{}, &storage.Error{Op: "migrate", Kind: storage.Conflict,
			Err: errors.New("the target store is not empty: migrate copies into an empty store only")}
	case err != nil:
		return Summary{}, fmt.Errorf("migrate: read the target: %w", err)
	}
	var chunk []storage.Record
	size := 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		err := to.Import(ctx, chunk)
		chunk, size = chunk[:0], 0
		return err
	}
	err = from.Export(ctx, func(r storage.Record) error {
		n := len(r.Key) + len(r.Value)
		if len(chunk) == chunkRecords || (len(chunk) > 0 && size+n > chunkBytes) {
			if err := flush(); err != nil {
				return err
			}
		}
		chunk, size = append(chunk, r), size+n
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return Summary{}, fmt.Errorf("migrate: copy: %w", err)
	}
	return Verify(ctx, from, to)
}

// Verify surveys both stores and returns their summary when they hold the same
// records; otherwise an error of kind Damaged saying both summaries.
func Verify(ctx context.Context, from, to storage.Porter) (Summary, error) {
	src, err := Survey(ctx, from)
	if err != nil {
		return Summary{}, fmt.Errorf("migrate: survey the source: %w", err)
	}
	dst, err := Survey(ctx, to)
	if err != nil {
		return Summary{}, fmt.Errorf("migrate: survey the target: %w", err)
	}
	if src.String() != dst.String() {
		return Summary{}, &storage.Error{Op: "migrate: verify", Kind: storage.Damaged,
			Err: fmt.Errorf("the copy differs from the source:\n  source: %s\n  target: %s", src, dst)}
	}
	return src, nil
}
