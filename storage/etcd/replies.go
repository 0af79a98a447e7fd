package etcd

import (
	"encoding/binary"
	"time"

	"sheetkeeper/storage"
	"sheetkeeper/storage/record"
)

// Replies, keyed by channel and seq (keys.go): a reply is one Get, a channel's replies
// after a seq one range read, its newest one a descending read of one key. Replies are
// never deleted (a deleted message's reply changes status), so their range has no
// guard (see scanOpts).

// seqAt decodes a counter or message index value: a BE(seq).
func seqAt(key string, v []byte) (int64, error) {
	if len(v) != 8 {
		return 0, storage.Errorf(storage.Damaged, "storage: database damaged: record %q is %d bytes, not a seq", key, len(v))
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

// head is the channel's last reply seq handed out (0: none), and its key.
func (t *tx) head(channelID string) (int64, string, error) {
	k, err := t.s.keys.inChannel(channelID, kindHead)
	if err != nil {
		return 0, "", err
	}
	v, found, err := t.get(k)
	if err != nil || !found {
		return 0, k, err
	}
	seq, err := seqAt(k, v)
	return seq, k, err
}

func (t *tx) NextReplySeq(channelID string) (int64, error) {
	seq, k, err := t.head(channelID)
	if err != nil {
		return 0, err
	}
	seq++
	if err := t.putRaw(k, []byte(be64(uint64(seq)))); err != nil {
		return 0, err
	}
	return seq, nil
}

// checkReply refuses a reply no channel could hold.
func checkReply(r *storage.Reply) error {
	if _, err := part("channel id", r.ChannelID); err != nil {
		return err
	}
	return r.Valid()
}

// PutReply stores r, keeps the message index pointing at it, and raises the channel's
// seq counter to at least r.Seq so NextReplySeq never hands out a stored number. A
// message id already recorded as another reply is refused (Conflict). Every read and
// check comes first, so a refused reply changes nothing.
func (t *tx) PutReply(r *storage.Reply) error {
	if err := checkReply(r); err != nil {
		return err
	}
	if !t.write {
		return errReadOnly
	}
	rk, err := t.s.keys.reply(r.ChannelID, r.Seq)
	if err != nil {
		return err
	}
	h, hk, err := t.head(r.ChannelID)
	if err != nil {
		return err
	}
	old, err := t.stored(r, rk, hk)
	if err != nil {
		return err
	}
	var oldKey, mk string
	if old != nil && old.MessageID != "" && old.MessageID != r.MessageID {
		if oldKey, err = t.s.keys.message(r.ChannelID, kindMsg, old.MessageID); err != nil {
			return err
		}
	}
	if r.MessageID != "" {
		if mk, err = t.takeMessage(r); err != nil {
			return err
		}
	}
	data, err := record.Encode(r, record.AppendReply)
	if err != nil {
		return storage.Errorf(storage.Invalid, "storage: encode reply record: %w", err)
	}
	if mk != "" {
		t.set(mk, []byte(be64(uint64(r.Seq))))
	}
	if oldKey != "" {
		t.unset(oldKey)
	}
	if r.Seq > h {
		t.set(hk, []byte(be64(uint64(r.Seq))))
	}
	return t.putRaw(rk, data)
}

// stored is the reply stored at rk, or nil. A reply numbered past the channel's seq
// counter at the snapshot (the seq NextReplySeq just handed out) cannot be stored, as
// every stored reply raised the counter to its seq: it is not asked for, and the
// counter's compare stands for it (a reply stored there since moved the counter).
func (t *tx) stored(r *storage.Reply, rk, hk string) (*storage.Reply, error) {
	if v, ok := t.cache[hk]; ok {
		if _, mine := t.writes[rk]; !mine && (v == nil || r.Seq > int64(binary.BigEndian.Uint64(v))) {
			return nil, nil
		}
	}
	old := new(storage.Reply)
	if err := t.getJSON(rk, old); err != nil {
		if storage.KindOf(err) == storage.NotFound {
			return nil, nil
		}
		return nil, err
	}
	return old, nil
}

// takeMessage returns the message index key r takes, or a Conflict when another reply
// of the channel holds its message id.
func (t *tx) takeMessage(r *storage.Reply) (string, error) {
	mk, err := t.s.keys.message(r.ChannelID, kindMsg, r.MessageID)
	if err != nil {
		return "", err
	}
	v, found, err := t.get(mk)
	if err != nil || !found {
		return mk, err
	}
	seq, err := seqAt(mk, v)
	if err != nil {
		return "", err
	}
	if seq != r.Seq {
		return "", storage.Errorf(storage.Conflict, "storage: message %s in channel %s is already reply %d", r.MessageID, r.ChannelID, seq)
	}
	return mk, nil
}

func (t *tx) Reply(channelID string, seq int64) (*storage.Reply, error) {
	if seq < 1 {
		if _, err := part("channel id", channelID); err != nil {
			return nil, err
		}
		return nil, storage.NotFoundf("reply %d in channel %s", seq, channelID)
	}
	k, err := t.s.keys.reply(channelID, seq)
	if err != nil {
		return nil, err
	}
	r := new(storage.Reply)
	if err := t.getJSON(k, r); err != nil {
		if storage.KindOf(err) == storage.NotFound {
			return nil, storage.NotFoundf("reply %d in channel %s", seq, channelID)
		}
		return nil, err
	}
	return r, nil
}

func (t *tx) ReplyByMessage(channelID, messageID string) (*storage.Reply, error) {
	if messageID == "" {
		return nil, storage.NotFoundf("reply to no message in channel %s", channelID)
	}
	mk, err := t.s.keys.message(channelID, kindMsg, messageID)
	if err != nil {
		return nil, err
	}
	v, found, err := t.get(mk)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, storage.NotFoundf("reply to message %s in channel %s", messageID, channelID)
	}
	seq, err := seqAt(mk, v)
	if err != nil {
		return nil, err
	}
	r, err := t.Reply(channelID, seq)
	if storage.KindOf(err) == storage.NotFound {
		return nil, storage.Errorf(storage.Damaged, "storage: database damaged: message %s in channel %s names reply %d, which is missing", messageID, channelID, seq)
	}
	return r, err
}

func (t *tx) Replies(channelID string, after int64, limit int) ([]*storage.Reply, error) {
	start, err := t.s.keys.reply(channelID, max(after, 0)+1)
	if err != nil {
		return nil, err
	}
	p, _ := t.s.keys.inChannel(channelID, kindReply)
	got, err := t.scan(start, rangeEnd(p), scanOpts{limit: max(limit, 0)})
	if err != nil {
		return nil, err
	}
	return t.decodeReplies(got)
}

func (t *tx) decodeReplies(got []kv) ([]*storage.Reply, error) {
	out := make([]*storage.Reply, 0, len(got))
	for _, e := range got {
		r := new(storage.Reply)
		if err := t.decode(e.key, e.val, r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (t *tx) LastReply(channelID string) (*storage.Reply, error) {
	p, err := t.s.keys.inChannel(channelID, kindReply)
	if err != nil {
		return nil, err
	}
	got, err := t.scan(p, rangeEnd(p), scanOpts{limit: 1, desc: true})
	if err != nil {
		return nil, err
	}
	if len(got) == 0 {
		return nil, storage.NotFoundf("last reply in channel %s", channelID)
	}
	rs, err := t.decodeReplies(got)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// ---- tombstones ----
//
// A tombstone sits at its message's key under the channel; the age index (ta/) holds
// every tombstone by its time, oldest first, for forgetting the expired ones. Every
// PutTombstone forgets up to sweepTombstones expired ones, more than it adds, as the
// bolt backend does.

const sweepTombstones = 8

// ageKey orders tombstones by At, oldest first (times before 1970 too), then by channel
// and message.
func (k keys) ageKey(at time.Time, channelID, messageID string) string {
	return k.tombAges() + be64(uint64(at.UnixNano())^1<<63) + channelID + sep + messageID
}

func (t *tx) PutTombstone(ts *storage.Tombstone) error {
	key, err := t.s.keys.message(ts.ChannelID, kindTomb, ts.MessageID)
	if err != nil {
		return err
	}
	if ts.At.IsZero() {
		return storage.Errorf(storage.Invalid, "storage: tombstone of message %s in channel %s has no time", ts.MessageID, ts.ChannelID)
	}
	if !t.write {
		return errReadOnly
	}
	mk, _ := t.s.keys.message(ts.ChannelID, kindMsg, ts.MessageID)
	if _, applied, err := t.get(mk); err != nil {
		return err
	} else if applied {
		return storage.Errorf(storage.Conflict, "storage: message %s in channel %s is applied: it cannot have a tombstone", ts.MessageID, ts.ChannelID)
	}
	_, found, err := t.get(key)
	if err != nil {
		return err
	}
	if !found {
		if err := t.putJSON(key, ts); err != nil {
			return err
		}
		t.set(t.s.keys.ageKey(ts.At, ts.ChannelID, ts.MessageID), []byte(key))
	}
	return t.sweepTombstones(ts.At.Add(-storage.TombstoneLife))
}

// sweepTombstones forgets up to sweepTombstones tombstones older than before.
func (t *tx) sweepTombstones(before time.Time) error {
	start := t.s.keys.tombAges()
	limit := start + be64(uint64(before.UnixNano())^1<<63)
	got, err := t.scan(start, limit, scanOpts{limit: sweepTombstones, deletable: true})
	if err != nil {
		return err
	}
	for _, e := range got {
		t.unset(e.key)
		t.unset(string(e.val)) // the tombstone: its keys are never listed
	}
	if len(got) > 0 {
		t.bump(start)
	}
	return nil
}

func (t *tx) Tombstone(channelID, messageID string) (*storage.Tombstone, error) {
	key, err := t.s.keys.message(channelID, kindTomb, messageID)
	if err != nil {
		return nil, err
	}
	ts := new(storage.Tombstone)
	if err := t.getJSON(key, ts); err != nil {
		if storage.KindOf(err) == storage.NotFound {
			return nil, storage.NotFoundf("tombstone of message %s in channel %s", messageID, channelID)
		}
		return nil, err
	}
	return ts, nil
}
