package bolt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"sheetkeeper/storage"
	"sheetkeeper/storage/record"
)

// tx is storage.Tx over a kv: a bbolt read transaction for View, an Update's view of
// the pending writes over one for Update (see commit.go). Records are decoded from the
// bytes the kv returns while the function runs (those bytes are valid only that long),
// so every record handed out is a fresh copy; a Put encodes the record at once, but for
// a card record in an Update (see unencoded).
type tx struct {
	kv   kv
	done bool // fn has returned: the Tx must not be used any more

	cards   *record.CardMemo // nil: no memo
	camps   *campaignMemo    // nil: no memo
	written []writtenCard    // cards this function wrote, for the memo once it has returned

	// unencoded is the card records an Update's function put and the store has not yet
	// encoded, when lateCards is set: a card record put is the store's (storage.Tx), so
	// it is encoded once, when the function has returned (encodeCards) — or before a
	// read or delete of its bucket, so the function reads what it wrote — and the memo
	// keeps the record itself. Encoding it at the put, the memo could keep it only after
	// encoding it again to know the function had not changed it since (~7 µs a card).
	unencoded []unencodedCard
	lateCards bool
	// unencodable is the first card record that did not encode: it fails the function
	// however the function took the error of the read that found it.
	unencodable error

	// mark is where on a channel's reply chain the last Reply lookup stopped, so the
	// next lookup of an earlier seq walks on from there (see replyID).
	mark chainMark
}

type chainMark struct {
	channel string
	id, seq uint64
}

type writtenCard struct {
	key string
	raw []byte
	// rec is the caller's record, the store's once put (storage.Tx), for the memo once
	// the function has returned: it is what raw encodes — unless early, encoded before
	// the function returned (see unencoded), when the memo keeps it only if it still
	// encodes to raw (record.CardMemo.Remember). Copying it as it was put cost ~8 µs
	// under the run lock and a quarter of what a reply allocated.
	rec   *storage.CardRecord
	early bool
}

type unencodedCard struct {
	bucket, key []byte
	rec         *storage.CardRecord
}

// How full bbolt fills the pages it splits in the buckets written at their end (bbolt's
// default, 0.5, suits inserts anywhere; it is not stored, so every write transaction
// sets it: see fillPercent). A page split at 0.5 when every insert lands after it keeps
// its free half for ever, so these buckets fill their pages instead. The message index
// is keyed by Discord's ids, which grow with time, and the reply chain by log id; their
// records never grow, so a full split is right. The reply log's records are rewritten
// soon after they are written (RecordPost sets the posted id, a few dozen bytes more),
// so its leaves keep a tenth free for that rather than split a full one.
const (
	messagesFill = 1.0
	chainFill    = 1.0
	replyLogFill = 0.9
)

var _ storage.Tx = (*tx)(nil)

var errTxDone = storage.Errorf(storage.Closed, "storage: transaction used after its function returned")

// use returns the kv, unless the function has returned.
func (t *tx) use() (kv, error) {
	if t.done {
		return nil, errTxDone
	}
	return t.kv, nil
}

// getRaw returns the bytes at key (valid while the function runs); nil when none.
func (t *tx) getRaw(bucket, key []byte) ([]byte, error) {
	k, err := t.use()
	if err != nil {
		return nil, err
	}
	if err := t.encodeCards(bucket); err != nil {
		return nil, err
	}
	return k.get(bucket, key)
}

// get decodes the record at key into v; a NotFound error when there is none.
func (t *tx) get(bucket, key []byte, v any) error {
	data, err := t.getRaw(bucket, key)
	if err != nil {
		return err
	}
	if data == nil {
		return errNotFound
	}
	if err := json.Unmarshal(data, v); err != nil {
		return storage.Errorf(storage.Damaged, "storage: %s record %q: %w", bucket, key, err)
	}
	return nil
}

func (t *tx) putRaw(bucket, key, value []byte) error {
	k, err := t.use()
	if err != nil {
		return err
	}
	if err := k.put(bucket, key, value); err != nil {
		return fmt.Errorf("storage: %s: %w", bucket, err)
	}
	return nil
}

func (t *tx) put(bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return storage.Errorf(storage.Invalid, "storage: encode %s record: %w", bucket, err)
	}
	return t.putRaw(bucket, key, data)
}

// del deletes key; a NotFound error when there is none.
func (t *tx) del(bucket, key []byte) error {
	old, err := t.getRaw(bucket, key)
	if err != nil {
		return err
	}
	if old == nil {
		return errNotFound
	}
	if err := t.kv.del(bucket, key); err != nil { // getRaw encoded the bucket's cards first
		return fmt.Errorf("storage: %s: %w", bucket, err)
	}
	return nil
}

// scan calls fn for each key starting with pfx, in order.
func (t *tx) scan(bucket, pfx []byte, fn func(k, v []byte) error) error {
	k, err := t.use()
	if err != nil {
		return err
	}
	if err := t.encodeCards(bucket); err != nil {
		return err
	}
	return k.ascend(bucket, pfx, pfx, func(k, v []byte) (bool, error) { return true, fn(k, v) })
}

func decodeAll[T any](t *tx, bucket, pfx []byte) ([]*T, error) {
	var out []*T
	err := t.scan(bucket, pfx, func(k, v []byte) error {
		r := new(T)
		if err := json.Unmarshal(v, r); err != nil {
			return storage.Errorf(storage.Damaged, "storage: %s record %q: %w", bucket, k, err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// ---- card records, through the memo ----

func (t *tx) getCard(bucket, key []byte) (*storage.CardRecord, error) {
	data, err := t.getRaw(bucket, key)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, errNotFound
	}
	return t.decodeCard(bucket, key, data)
}

// cacheKey is a record's key in the card memo.
func cacheKey(bucket, key []byte) string { return string(bucket) + "\x00" + string(key) }

func (t *tx) decodeCard(bucket, key, data []byte) (*storage.CardRecord, error) {
	var ck string
	if t.cards != nil {
		ck = cacheKey(bucket, key)
		if rec := t.cards.Lookup(ck, data); rec != nil {
			return rec, nil
		}
	}
	rec := new(storage.CardRecord)
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, storage.Errorf(storage.Damaged, "storage: %s record %q: %w", bucket, key, err)
	}
	if t.cards != nil && rec.Card != nil {
		t.cards.Add(ck, bytes.Clone(data), record.CloneCard(rec))
	}
	return rec, nil
}

func (t *tx) putCard(bucket, key []byte, c *storage.CardRecord) error {
	if !t.lateCards {
		return t.encodeCard(bucket, key, c, false)
	}
	if _, err := t.use(); err != nil {
		return err
	}
	for i, u := range t.unencoded {
		if bytes.Equal(u.key, key) && bytes.Equal(u.bucket, bucket) {
			t.unencoded[i].rec = c
			return nil
		}
	}
	t.unencoded = append(t.unencoded, unencodedCard{bucket, key, c})
	return nil
}

// encodeCard encodes c and writes it at key; early says the function has not returned
// yet (see unencoded).
func (t *tx) encodeCard(bucket, key []byte, c *storage.CardRecord, early bool) error {
	data, err := record.Encode(c, record.AppendCard)
	if err != nil {
		return storage.Errorf(storage.Invalid, "storage: encode %s record: %w", bucket, err)
	}
	if err := t.putRaw(bucket, key, data); err != nil {
		return err
	}
	if t.cards != nil {
		t.written = append(t.written, writtenCard{cacheKey(bucket, key), data, c, early})
	}
	return nil
}

// encodeCards encodes and writes the card records put and not yet encoded (see
// unencoded): those of bucket before the function reads it (early), or all (bucket
// nil) once it has returned. A record that does not encode fails the function: this
// call and every later one return its error.
func (t *tx) encodeCards(bucket []byte) error {
	left := t.unencoded[:0]
	for _, u := range t.unencoded {
		switch {
		case bucket != nil && !bytes.Equal(u.bucket, bucket):
			left = append(left, u)
		case t.unencodable == nil:
			t.unencodable = t.encodeCard(u.bucket, u.key, u.rec, bucket != nil)
		}
	}
	clear(t.unencoded[len(left):])
	t.unencoded = left
	return t.unencodable
}

func (t *tx) cardsIn(bucket, pfx []byte) ([]*storage.CardRecord, error) {
	var out []*storage.CardRecord
	err := t.scan(bucket, pfx, func(k, v []byte) error {
		rec, err := t.decodeCard(bucket, k, v)
		out = append(out, rec)
		return err
	})
	return out, err
}

// ---- campaigns, schedules, shops and trades ----

// table is a bucket of JSON records keyed by one id each: campaigns, shops and trades
// by channel, schedules by their id. They are put, read and deleted alike; only the
// words differ.
type table struct {
	bucket []byte
	key    string                 // what the id is, for errors
	what   func(id string) string // the record, as an error names it
}

var (
	campaignTable = table{bucketCampaigns, "campaign channel id", func(id string) string { return "campaign in channel " + id }}
	scheduleTable = table{bucketSchedules, "schedule id", func(id string) string { return "schedule " + id }}
)

func putIn(t *tx, tb table, id string, v any) error {
	k, err := single(tb.key, id)
	if err != nil {
		return err
	}
	return t.put(tb.bucket, k, v)
}

func getFrom[T any](t *tx, tb table, id string) (*T, error) {
	k, err := single(tb.key, id)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := t.get(tb.bucket, k, v); err != nil {
		return nil, fmt.Errorf("%s: %w", tb.what(id), err)
	}
	return v, nil
}

func deleteIn(t *tx, tb table, id string) error {
	k, err := single(tb.key, id)
	if err != nil {
		return err
	}
	if err := t.del(tb.bucket, k); err != nil {
		return fmt.Errorf("%s: %w", tb.what(id), err)
	}
	return nil
}

// PutCampaign stores c and forgets its channel's hint mark (hints.go): a channel with a
// campaign needs no hint.
func (t *tx) PutCampaign(c *storage.Campaign) error {
	if err := putIn(t, campaignTable, c.ChannelID, c); err != nil {
		return err
	}
	return t.forgetHint(c.ChannelID)
}

// Campaign reads through the campaign memo when the tx has one (campmemo.go).
func (t *tx) Campaign(channelID string) (*storage.Campaign, error) {
	if t.camps == nil {
		return getFrom[storage.Campaign](t, campaignTable, channelID)
	}
	k, err := single(campaignTable.key, channelID)
	if err != nil {
		return nil, err
	}
	data, err := t.getRaw(campaignTable.bucket, k)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", campaignTable.what(channelID), err)
	}
	if data == nil {
		return nil, fmt.Errorf("%s: %w", campaignTable.what(channelID), errNotFound)
	}
	if c := t.camps.lookup(channelID, data); c != nil {
		return c, nil
	}
	c := new(storage.Campaign)
	if err := json.Unmarshal(data, c); err != nil {
		err = storage.Errorf(storage.Damaged, "storage: %s record %q: %w", campaignTable.bucket, k, err)
		return nil, fmt.Errorf("%s: %w", campaignTable.what(channelID), err)
	}
	t.camps.add(channelID, data, c)
	return c, nil
}
func (t *tx) DeleteCampaign(channelID string) error { return deleteIn(t, campaignTable, channelID) }

func (t *tx) Campaigns() ([]*storage.Campaign, error) {
	return decodeAll[storage.Campaign](t, bucketCampaigns, nil)
}

// ---- cards ----

func cardName(c *storage.CardRecord) (string, error) {
	if c == nil || c.Card == nil {
		return "", storage.Errorf(storage.Invalid, "storage: card record without a card")
	}
	return c.Card.Name, nil
}

// shelf is where one kind of card lives: library cards by owner, game cards by channel.
// Both kinds are keyed by their holder and the card's normalised name and read and
// written the same way; only the bucket and the words differ.
type shelf struct {
	bucket []byte
	holder string                           // what the key's first part is, for errors
	what   func(holder, name string) string // the card, as an error names it
}

var (
	libraryShelf = shelf{bucketLibrary, "card owner id", func(owner, name string) string {
		return fmt.Sprintf("library card %q of %s", name, owner)
	}}
	gameShelf = shelf{bucketGame, "channel id", func(channel, name string) string {
		return fmt.Sprintf("game card %q in channel %s", name, channel)
	}}
)

func (t *tx) putOn(s shelf, holder string, c *storage.CardRecord) error {
	name, err := cardName(c)
	if err != nil {
		return err
	}
	k, err := nameKey(s.holder, holder, name)
	if err != nil {
		return err
	}
	return t.putCard(s.bucket, k, c)
}

func (t *tx) getFrom(s shelf, holder, name string) (*storage.CardRecord, error) {
	k, err := nameKey(s.holder, holder, name)
	if err != nil {
		return nil, err
	}
	c, err := t.getCard(s.bucket, k)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.what(holder, name), err)
	}
	return c, nil
}

func (t *tx) allOn(s shelf, holder string) ([]*storage.CardRecord, error) {
	p, err := prefix(s.holder, holder)
	if err != nil {
		return nil, err
	}
	return t.cardsIn(s.bucket, p)
}

func (t *tx) deleteFrom(s shelf, holder, name string) error {
	k, err := nameKey(s.holder, holder, name)
	if err != nil {
		return err
	}
	if err := t.del(s.bucket, k); err != nil {
		return fmt.Errorf("%s: %w", s.what(holder, name), err)
	}
	return nil
}

func (t *tx) PutLibraryCard(c *storage.CardRecord) error { return t.putOn(libraryShelf, c.OwnerID, c) }
func (t *tx) LibraryCard(ownerID, name string) (*storage.CardRecord, error) {
	return t.getFrom(libraryShelf, ownerID, name)
}
func (t *tx) LibraryCards(ownerID string) ([]*storage.CardRecord, error) {
	return t.allOn(libraryShelf, ownerID)
}
func (t *tx) DeleteLibraryCard(ownerID, name string) error {
	return t.deleteFrom(libraryShelf, ownerID, name)
}
func (t *tx) PutGameCard(channelID string, c *storage.CardRecord) error {
	return t.putOn(gameShelf, channelID, c)
}
func (t *tx) GameCard(channelID, name string) (*storage.CardRecord, error) {
	return t.getFrom(gameShelf, channelID, name)
}
func (t *tx) GameCards(channelID string) ([]*storage.CardRecord, error) {
	return t.allOn(gameShelf, channelID)
}
func (t *tx) DeleteGameCard(channelID, name string) error {
	return t.deleteFrom(gameShelf, channelID, name)
}

// ---- replies ----
//
// A channel's replies form a chain through the reply log, newest first: the channel's
// seqs record names its newest reply's log id, and each reply's chain record its seq
// and the log id of the reply before it. Reading reply n walks back from the newest,
// which is where the bot reads (the latest replies, the ones after a deleted message).
// Schema 2 kept a per-channel index (channel, seq → log id) instead; its leaves are
// spread by channel, so every reply wrote one more page — a third of a commit's pages —
// while the chain, the log, the seqs and the message index are each written at one end
// or are small enough that a commit's replies share their pages.

// chainLink is a reply's chain record: its seq and the log id of the channel's reply
// before it (0: none).
type chainLink struct{ seq, prev uint64 }

func (t *tx) link(id uint64) (chainLink, error) {
	seq, prev, found, err := t.getPair(bucketReplyChain, be64(id))
	if err == nil && !found {
		err = storage.Errorf(storage.Damaged, "storage: database damaged: reply chain record %d missing", id)
	}
	return chainLink{seq, prev}, err
}

func (t *tx) putLink(id uint64, l chainLink) error {
	return t.putRaw(bucketReplyChain, be64(id), be128(l.seq, l.prev))
}

// channelHead is a channel's seqs record: the last reply seq handed out, and the log id
// of its newest stored reply (0: none).
type channelHead struct{ seq, newest uint64 }

func (t *tx) head(channelID string) (channelHead, error) {
	if _, err := prefix("channel id", channelID); err != nil {
		return channelHead{}, err
	}
	seq, newest, _, err := t.getPair(bucketSeqs, []byte(channelID))
	return channelHead{seq, newest}, err
}

func (t *tx) putHead(channelID string, h channelHead) error {
	return t.putRaw(bucketSeqs, []byte(channelID), be128(h.seq, h.newest))
}

// getPair reads a record of two numbers (be128); found is false when there is none.
func (t *tx) getPair(bucket, key []byte) (a, b uint64, found bool, err error) {
	v, err := t.getRaw(bucket, key)
	switch {
	case err != nil || v == nil:
		return 0, 0, false, err
	case len(v) != 16:
		return 0, 0, false, storage.Errorf(storage.Damaged, "storage: database damaged: %s record %q is %d bytes", bucket, key, len(v))
	}
	return binary.BigEndian.Uint64(v), binary.BigEndian.Uint64(v[8:]), true, nil
}

// walk goes back along the channel's chain from its newest reply and stops at the first
// reply whose seq is at most seq: it returns that reply's log id (0: none) and the log id
// of the reply after it (0: it is the newest). fn, when not nil, sees each reply passed
// on the way (seq above seq), newest first.
func (t *tx) walk(h channelHead, seq uint64, fn func(id uint64, l chainLink)) (at, after uint64, l chainLink, err error) {
	for id := h.newest; id != 0; id = l.prev {
		if l, err = t.link(id); err != nil {
			return 0, 0, l, err
		}
		if l.seq <= seq {
			return id, after, l, nil
		}
		if fn != nil {
			fn(id, l)
		}
		after = id
	}
	return 0, after, chainLink{}, nil
}

// replyID returns the log id of the channel's reply seq (0: none). A lookup of a seq at
// or before where the last one stopped walks on from there: the bot reads a channel's
// replies back from the newest one by one (undoing a delete), and each would otherwise
// walk again from the newest. A chain only gains replies, each in its place by seq, and
// links are read afresh on every step, so a mark is never left off its chain.
func (t *tx) replyID(channelID string, seq int64) (uint64, error) {
	if seq < 1 {
		return 0, nil
	}
	h := channelHead{newest: t.mark.id}
	if t.mark.channel != channelID || t.mark.id == 0 || t.mark.seq < uint64(seq) {
		var err error
		if h, err = t.head(channelID); err != nil {
			return 0, err
		}
	}
	id, _, l, err := t.walk(h, uint64(seq), nil)
	if err != nil || id == 0 {
		return 0, err
	}
	t.mark = chainMark{channelID, id, l.seq}
	if l.seq != uint64(seq) {
		return 0, nil
	}
	return id, nil
}

// messageKey puts the message id first: Discord's ids grow with time, so the index
// entries of one group commit, whatever their channels, land on the same page or two
// instead of one page per channel, and the commit writes fewer pages.
func messageKey(channelID, messageID string) ([]byte, error) {
	m, err := prefix("message id", messageID)
	if err != nil {
		return nil, err
	}
	if _, err := prefix("channel id", channelID); err != nil {
		return nil, err
	}
	return append(m, channelID...), nil
}

// PutReply stores r, keeps the message index pointing at it, and raises the channel's
// seq counter to at least r.Seq so NextReplySeq never hands out a stored number. A
// message id already recorded as another reply is refused: a message is applied once.
func (t *tx) PutReply(r *storage.Reply) error {
	if err := checkReply(r); err != nil {
		return err
	}
	// Every read and check first, so a refused reply changes nothing.
	p, err := t.planReply(r)
	if err != nil {
		return err
	}
	return t.writeReply(r, p)
}

// checkReply refuses a reply no channel could hold.
func checkReply(r *storage.Reply) error {
	if _, err := prefix("channel id", r.ChannelID); err != nil {
		return err
	}
	return r.Valid()
}

// replyPlan is what PutReply found before writing anything: where the reply sits in
// its channel's chain and which message index entries it takes and leaves.
type replyPlan struct {
	h         channelHead
	seq       uint64
	at, after uint64    // the chain neighbours walk found
	id        uint64    // the reply's log id; 0 for a new reply
	oldKey    []byte    // the message index entry the reply leaves
	key       []byte    // the message index entry the reply takes
	next      chainLink // the reply after a new one stored out of order
	data      []byte    // the encoded record
}

func (t *tx) planReply(r *storage.Reply) (replyPlan, error) {
	p := replyPlan{seq: uint64(r.Seq)}
	var err error
	if p.h, err = t.head(r.ChannelID); err != nil {
		return p, err
	}
	var l chainLink
	if p.at, p.after, l, err = t.walk(p.h, p.seq, nil); err != nil {
		return p, err
	}
	if p.at != 0 && l.seq == p.seq {
		p.id = p.at // the reply is stored already: it is replaced in place
	}
	if p.oldKey, p.key, err = t.replyMessageKeys(r, p.id); err != nil {
		return p, err
	}
	if p.id == 0 && p.after != 0 {
		if p.next, err = t.link(p.after); err != nil {
			return p, err
		}
	}
	if p.data, err = record.Encode(r, record.AppendReply); err != nil {
		return p, storage.Errorf(storage.Invalid, "storage: encode reply record: %w", err)
	}
	return p, nil
}

// replyMessageKeys are the message index entries a reply stored as log id (0 for a new
// one) leaves and takes; a message another reply holds is a Conflict.
func (t *tx) replyMessageKeys(r *storage.Reply, id uint64) (oldKey, key []byte, err error) {
	if id != 0 {
		old := new(storage.Reply)
		if err := t.get(bucketReplyLog, be64(id), old); err != nil {
			return nil, nil, fmt.Errorf("storage: reply %d in channel %s: %w", r.Seq, r.ChannelID, err)
		}
		if old.MessageID != "" && old.MessageID != r.MessageID {
			if oldKey, err = messageKey(r.ChannelID, old.MessageID); err != nil {
				return nil, nil, err
			}
		}
	}
	if r.MessageID == "" {
		return oldKey, nil, nil
	}
	if key, err = messageKey(r.ChannelID, r.MessageID); err != nil {
		return nil, nil, err
	}
	v, err := t.getRaw(bucketMessages, key)
	if err != nil {
		return nil, nil, err
	}
	if v != nil && (id == 0 || binary.BigEndian.Uint64(v) != id) {
		other, err := t.link(binary.BigEndian.Uint64(v))
		if err != nil {
			return nil, nil, err
		}
		return nil, nil, storage.Errorf(storage.Conflict, "storage: message %s in channel %s is already reply %d", r.MessageID, r.ChannelID, other.seq)
	}
	return oldKey, key, nil
}

// writeReply writes what planReply found, the message index first: its key is the one
// whose size the caller chose, so if any write is refused it is that one, before the
// others.
func (t *tx) writeReply(r *storage.Reply, p replyPlan) error {
	h, id := p.h, p.id
	moved := p.seq > h.seq // the head changes
	isNew := id == 0
	if isNew {
		kv, err := t.use()
		if err != nil {
			return err
		}
		if id, err = kv.nextSequence(bucketReplyLog); err != nil {
			return fmt.Errorf("storage: %s: %w", bucketReplyLog, err)
		}
	}
	if p.key != nil {
		if err := t.putRaw(bucketMessages, p.key, be64(id)); err != nil {
			return err
		}
	}
	if p.oldKey != nil {
		if err := t.del(bucketMessages, p.oldKey); err != nil && storage.KindOf(err) != storage.NotFound {
			return err
		}
	}
	if isNew { // into the chain; its record goes at the end of the log
		if err := t.putLink(id, chainLink{p.seq, p.at}); err != nil {
			return err
		}
		if p.after == 0 {
			h.newest, moved = id, true
		} else if err := t.putLink(p.after, chainLink{p.next.seq, id}); err != nil {
			return err
		}
	}
	if moved {
		h.seq = max(h.seq, p.seq)
		if err := t.putHead(r.ChannelID, h); err != nil {
			return err
		}
	}
	return t.putRaw(bucketReplyLog, be64(id), p.data)
}

// replyAt decodes the log record id.
func (t *tx) replyAt(id uint64) (*storage.Reply, error) {
	r := new(storage.Reply)
	if err := t.get(bucketReplyLog, be64(id), r); err != nil {
		if storage.KindOf(err) == storage.NotFound {
			return nil, storage.Errorf(storage.Damaged, "storage: database damaged: reply log record %d missing", id)
		}
		return nil, err
	}
	return r, nil
}

func (t *tx) Reply(channelID string, seq int64) (*storage.Reply, error) {
	id, err := t.replyID(channelID, seq)
	if err != nil {
		return nil, err
	}
	if id == 0 {
		return nil, notFound("reply " + strconv.FormatInt(seq, 10) + " in channel " + channelID)
	}
	return t.replyAt(id)
}

// notFound is storage.NotFoundf's error for a lookup's words put together by the
// caller, without fmt: the bot asks ReplyByMessage of every message it applies, under
// the run lock, and the answer is nearly always NotFound (Sprintf was a sixteenth of a
// reply's time there).
func notFound(what string) error { return &storage.Error{Op: what, Kind: storage.NotFound} }

func (t *tx) ReplyByMessage(channelID, messageID string) (*storage.Reply, error) {
	if messageID == "" {
		return nil, notFound("reply to no message in channel " + channelID)
	}
	mk, err := messageKey(channelID, messageID)
	if err != nil {
		return nil, err
	}
	v, err := t.getRaw(bucketMessages, mk)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, notFound("reply to message " + messageID + " in channel " + channelID)
	}
	return t.replyAt(binary.BigEndian.Uint64(v))
}

// Replies walks the chain from the newest reply down to after, then keeps the first
// limit: the bot asks for the replies after a recent one.
func (t *tx) Replies(channelID string, after int64, limit int) ([]*storage.Reply, error) {
	h, err := t.head(channelID)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	if _, _, _, err := t.walk(h, uint64(max(after, 0)), func(id uint64, _ chainLink) { ids = append(ids, id) }); err != nil {
		return nil, err
	}
	slices.Reverse(ids)
	if limit > 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	out := make([]*storage.Reply, 0, len(ids))
	for _, id := range ids {
		r, err := t.replyAt(id)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (t *tx) LastReply(channelID string) (*storage.Reply, error) {
	h, err := t.head(channelID)
	if err != nil {
		return nil, err
	}
	if h.newest == 0 {
		return nil, notFound("last reply in channel " + channelID)
	}
	return t.replyAt(h.newest)
}

func (t *tx) NextReplySeq(channelID string) (int64, error) {
	h, err := t.head(channelID)
	if err != nil {
		return 0, err
	}
	h.seq++
	if err := t.putHead(channelID, h); err != nil {
		return 0, err
	}
	return int64(h.seq), nil
}

// ---- schedules ----

func (t *tx) PutSchedule(s *storage.Schedule) error { return putIn(t, scheduleTable, s.ID, s) }
func (t *tx) Schedule(id string) (*storage.Schedule, error) {
	return getFrom[storage.Schedule](t, scheduleTable, id)
}

func (t *tx) Schedules() ([]*storage.Schedule, error) {
	return decodeAll[storage.Schedule](t, bucketSchedules, nil)
}

func (t *tx) DeleteSchedule(id string) error { return deleteIn(t, scheduleTable, id) }
