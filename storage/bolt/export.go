package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/storage"
)

// Export and Import (storage.Porter): the buckets whose keys are a storage.Record's
// already are copied as they are; the reply log is keyed by channel and seq (read
// from each record), the seqs by channel with the seq alone, the tombstones by channel
// first. The message index, the reply chain and the tombstones' ages are rebuilt by
// Import from the records.

// exported are the buckets a Record's key and value come from as they are stored.
var exported = []struct {
	bucket []byte
	kind   storage.RecordKind
}{
	{bucketRulesets, storage.RulesetRecords},
	{bucketCampaigns, storage.CampaignRecords},
	{bucketLibrary, storage.LibraryRecords},
	{bucketGame, storage.GameRecords},
	{bucketHints, storage.HintRecords},
	{bucketSchedules, storage.ScheduleRecords},
	{bucketSystems, storage.SystemRecords},
	{bucketShops, storage.ShopRecords},
	{bucketTrades, storage.TradeRecords},
}

func (s *store) Export(ctx context.Context, fn func(storage.Record) error) error {
	if s.closed.Load() {
		return errClosed
	}
	return s.viewBolt(func(btx *bolt.Tx) error {
		emit := func(kind storage.RecordKind, key string, v []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(storage.Record{Kind: kind, Key: key, Value: bytes.Clone(v)})
		}
		each := func(bucket []byte, f func(k, v []byte) error) error {
			bk, err := bucketIn(btx, bucket)
			if err != nil {
				return err
			}
			return bk.ForEach(f)
		}
		for _, e := range exported {
			if err := each(e.bucket, func(k, v []byte) error { return emit(e.kind, string(k), v) }); err != nil {
				return err
			}
		}
		err := each(bucketReplyLog, func(k, v []byte) error {
			var r struct {
				ChannelID string `json:"channelId"`
				Seq       int64  `json:"seq"`
			}
			if err := json.Unmarshal(v, &r); err != nil {
				return storage.Errorf(storage.Damaged, "storage: %s record %x: %w", bucketReplyLog, k, err)
			}
			return emit(storage.ReplyRecords, replyRecordKey(r.ChannelID, r.Seq), v)
		})
		if err != nil {
			return err
		}
		err = each(bucketSeqs, func(k, v []byte) error {
			if len(v) != 16 {
				return storage.Errorf(storage.Damaged, "storage: database damaged: %s record %q is %d bytes", bucketSeqs, k, len(v))
			}
			return emit(storage.SeqRecords, string(k), v[:8])
		})
		if err != nil {
			return err
		}
		return each(bucketTombstones, func(k, v []byte) error {
			msg, ch, ok := strings.Cut(string(k), string(rune(sep)))
			if !ok {
				return storage.Errorf(storage.Damaged, "storage: database damaged: %s key %q", bucketTombstones, k)
			}
			return emit(storage.TombstoneRecords, ch+string(rune(sep))+msg, v)
		})
	})
}

// replyRecordKey is a reply's Record key: channelID 0x00 BE(seq).
func replyRecordKey(channelID string, seq int64) string {
	return string(binary.BigEndian.AppendUint64(append([]byte(channelID), sep), uint64(seq)))
}

func (s *store) Import(ctx context.Context, recs []storage.Record) error {
	return s.Update(ctx, func(x storage.Tx) error {
		t := x.(*tx)
		for _, r := range recs {
			if err := t.importRecord(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// importRecord writes one record with the indexes it needs.
func (t *tx) importRecord(r storage.Record) error {
	bad := func(why string) error {
		return storage.Errorf(storage.Invalid, "storage: import %s record %q: %s", r.Kind, r.Key, why)
	}
	if r.Key == "" {
		return bad("empty key")
	}
	switch r.Kind {
	case storage.RulesetRecords, storage.CampaignRecords, storage.LibraryRecords,
		storage.GameRecords, storage.ScheduleRecords, storage.HintRecords, storage.SystemRecords,
		storage.ShopRecords, storage.TradeRecords:
		if r.Kind != storage.HintRecords && !json.Valid(r.Value) {
			return bad("value is not JSON")
		}
		for _, e := range exported {
			if e.kind == r.Kind {
				return t.putRaw(e.bucket, []byte(r.Key), r.Value)
			}
		}
	case storage.ReplyRecords:
		rep := new(storage.Reply)
		if err := json.Unmarshal(r.Value, rep); err != nil {
			return bad(err.Error())
		}
		if replyRecordKey(rep.ChannelID, rep.Seq) != r.Key {
			return bad("key is not the reply's channel and seq")
		}
		if err := checkReply(rep); err != nil {
			return err
		}
		p, err := t.planReply(rep)
		if err != nil {
			return err
		}
		p.data = r.Value
		return t.writeReply(rep, p)
	case storage.SeqRecords:
		if len(r.Value) != 8 {
			return bad("value is not 8 bytes")
		}
		h, err := t.head(r.Key)
		if err != nil {
			return err
		}
		h.seq = max(h.seq, binary.BigEndian.Uint64(r.Value))
		return t.putHead(r.Key, h)
	case storage.TombstoneRecords:
		ts := new(storage.Tombstone)
		if err := json.Unmarshal(r.Value, ts); err != nil {
			return bad(err.Error())
		}
		if ts.ChannelID+string(rune(sep))+ts.MessageID != r.Key {
			return bad("key is not the tombstone's channel and message")
		}
		key, err := messageKey(ts.ChannelID, ts.MessageID)
		if err != nil {
			return err
		}
		if err := t.putRaw(bucketTombstones, key, r.Value); err != nil {
			return err
		}
		return t.putRaw(bucketTombAge, ageKey(ts.At, key), key)
	}
	return bad("unknown kind")
}
