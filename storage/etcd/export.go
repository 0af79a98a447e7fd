package etcd

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"

	"sheetkeeper/storage"
)

// Export and Import (storage.Porter): a storage.Record's key is the etcd key without
// the prefix and the family's letters ("r/", "c/", "l/", "s/", "y/"; a channel's records are
// channelID 0x00 then their own part). The message index and the tombstones' ages
// ("ta/") are indexes: Export skips them, Import writes them; so it skips the guards.

func (s *store) Export(ctx context.Context, fn func(storage.Record) error) error {
	if s.closed.Load() {
		return errClosed
	}
	start, end, rev := s.keys.prefix, rangeEnd(s.keys.prefix), int64(0)
	for {
		opts := []clientv3.OpOption{clientv3.WithRange(end), clientv3.WithLimit(500)}
		if rev != 0 {
			opts = append(opts, clientv3.WithRev(rev))
		}
		resp, err := s.get(ctx, start, opts...)
		if err != nil {
			return err
		}
		if rev == 0 {
			rev = resp.Header.Revision
		}
		for _, e := range resp.Kvs {
			kind, key, err := recordOf(strings.TrimPrefix(string(e.Key), s.keys.prefix))
			if err != nil {
				return err
			}
			if kind == "" {
				continue
			}
			if err := fn(storage.Record{Kind: kind, Key: key, Value: e.Value}); err != nil {
				return err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return nil
		}
		start = string(resp.Kvs[len(resp.Kvs)-1].Key) + sep
	}
}

// recordOf is the Record kind and key of the etcd key k (without the prefix); kind ""
// for an index, a guard or the schema version.
func recordOf(k string) (storage.RecordKind, string, error) {
	family, rest, _ := strings.Cut(k, "/")
	var kind storage.RecordKind
	switch family {
	case "meta", "ta":
		return "", "", nil
	case "r":
		kind = storage.RulesetRecords
	case "y":
		kind = storage.SystemRecords
	case "c":
		kind = storage.CampaignRecords
	case "s":
		kind = storage.ScheduleRecords
	case "l":
		if _, name, _ := strings.Cut(rest, sep); name == "" {
			return "", "", nil // a holder's guard
		}
		kind = storage.LibraryRecords
	case "ch":
		return channelRecordOf(k, rest)
	default:
		return "", "", storage.Errorf(storage.Damaged, "storage: key %q is not one sheetkeeper writes", k)
	}
	if rest == "" {
		return "", "", nil // the family's guard
	}
	return kind, rest, nil
}

// channelRecordOf is recordOf for a channel's key: channelID 0x00 kind rest.
func channelRecordOf(k, rest string) (storage.RecordKind, string, error) {
	ch, tail, ok := strings.Cut(rest, sep)
	if !ok || ch == "" || tail == "" {
		return "", "", storage.Errorf(storage.Damaged, "storage: key %q is not one sheetkeeper writes", k)
	}
	part := tail[1:]
	switch tail[0] {
	case kindGame:
		if part == "" {
			return "", "", nil
		}
		return storage.GameRecords, ch + sep + part, nil
	case kindHead:
		return storage.SeqRecords, ch, nil
	case kindMsg:
		return "", "", nil
	case kindReply:
		return storage.ReplyRecords, ch + sep + part, nil
	case kindTomb:
		return storage.TombstoneRecords, ch + sep + part, nil
	case kindHint:
		return storage.HintRecords, ch, nil
	case kindShop:
		return storage.ShopRecords, ch, nil
	case kindTrade:
		return storage.TradeRecords, ch, nil
	}
	return "", "", storage.Errorf(storage.Damaged, "storage: key %q is not one sheetkeeper writes", k)
}

// Import writes recs with one Txn that commits only if none of the keys it writes
// exists. migrate checks a target empty once, before its first chunk, but other
// processes may share an etcd cluster: a key one of them wrote meanwhile is not
// overwritten but refused (kind Conflict), and nothing of the call is written.
func (s *store) Import(ctx context.Context, recs []storage.Record) error {
	if s.closed.Load() {
		return errClosed
	}
	t := &tx{s: s, ctx: ctx, write: true, reads: map[string]int64{}, writes: map[string]pending{}}
	for _, r := range recs {
		if err := t.importRecord(r); err != nil {
			return err
		}
	}
	t.done = true
	for k := range t.writes {
		if _, read := t.reads[k]; !read {
			t.reads[k] = 0 // a mod revision of 0: the key is absent
		}
	}
	cmps, ops, err := t.txn()
	if err != nil || ops == nil {
		return err
	}
	resp, err := s.call(ctx, func(ctx context.Context) (*clientv3.TxnResponse, error) {
		return s.cli.Txn(ctx).If(cmps...).Then(ops...).Commit()
	})
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return storage.Errorf(storage.Conflict, "storage: import of %d records: the target already holds one of their keys (another process wrote it): nothing of them was written", len(recs))
	}
	return nil
}

// raiseHead raises channel ch's seq counter to at least seq, for an imported counter
// or reply: every stored reply has raised it to its seq (PutReply does, and stored
// counts on it), so an import of replies without their counter, or with one behind
// them, never leaves the next command a seq already taken. The counter, whichever
// record of a copy comes first, is the highest either says; it is compared as read (in
// an earlier chunk, or absent), not as absent.
func (t *tx) raiseHead(ch string, seq uint64) error {
	h, hk, err := t.head(ch)
	if err == nil && int64(seq) > h {
		t.set(hk, []byte(be64(seq)))
	}
	return err
}

// families are the key families of the records keyed as they are.
var families = map[storage.RecordKind]string{storage.RulesetRecords: "r/", storage.CampaignRecords: "c/",
	storage.LibraryRecords: "l/", storage.ScheduleRecords: "s/", storage.SystemRecords: "y/"}

// importRecord writes one record with the index entry it needs.
func (t *tx) importRecord(r storage.Record) error {
	bad := func(why string) error {
		return storage.Errorf(storage.Invalid, "storage: import %s record %q: %s", r.Kind, r.Key, why)
	}
	if r.Key == "" {
		return bad("empty key")
	}
	k := t.s.keys
	head, rest, _ := strings.Cut(r.Key, sep)
	inChannel := func(kind byte, part string) error {
		p, err := k.inChannel(head, kind)
		if err == nil {
			t.set(p+part, r.Value)
		}
		return err
	}
	switch r.Kind {
	case storage.RulesetRecords, storage.CampaignRecords, storage.LibraryRecords, storage.ScheduleRecords, storage.SystemRecords:
		if !json.Valid(r.Value) {
			return bad("value is not JSON")
		}
		t.set(k.prefix+families[r.Kind]+r.Key, r.Value)
		return nil
	case storage.GameRecords:
		if rest == "" || !json.Valid(r.Value) {
			return bad("no card name, or a value that is not JSON")
		}
		return inChannel(kindGame, rest)
	case storage.SeqRecords:
		if len(r.Value) != 8 {
			return bad("value is not 8 bytes")
		}
		return t.raiseHead(head, binary.BigEndian.Uint64(r.Value))
	case storage.HintRecords:
		return inChannel(kindHint, "")
	case storage.ShopRecords, storage.TradeRecords:
		if rest != "" || !json.Valid(r.Value) {
			return bad("a key that is not a channel id, or a value that is not JSON")
		}
		if r.Kind == storage.ShopRecords {
			return inChannel(kindShop, "")
		}
		return inChannel(kindTrade, "")
	case storage.ReplyRecords:
		rep := new(storage.Reply)
		if err := json.Unmarshal(r.Value, rep); err != nil {
			return bad(err.Error())
		}
		if rep.ChannelID != head || rest != be64(uint64(rep.Seq)) {
			return bad("key is not the reply's channel and seq")
		}
		if err := checkReply(rep); err != nil {
			return err
		}
		if rep.MessageID != "" {
			mk, err := k.message(rep.ChannelID, kindMsg, rep.MessageID)
			if err != nil {
				return err
			}
			t.set(mk, []byte(be64(uint64(rep.Seq))))
		}
		if err := t.raiseHead(head, uint64(rep.Seq)); err != nil {
			return err
		}
		return inChannel(kindReply, rest)
	case storage.TombstoneRecords:
		ts := new(storage.Tombstone)
		if err := json.Unmarshal(r.Value, ts); err != nil {
			return bad(err.Error())
		}
		key, err := k.message(ts.ChannelID, kindTomb, ts.MessageID)
		if err != nil || ts.ChannelID != head || ts.MessageID != rest {
			return bad("key is not the tombstone's channel and message")
		}
		t.set(key, r.Value)
		t.set(k.ageKey(ts.At, ts.ChannelID, ts.MessageID), []byte(key))
		return nil
	}
	return bad("unknown kind")
}
