package bolt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"sheetkeeper/storage"
)

// tx is storage.Tx over a kv: a bbolt read transaction for View, an Update's view of
// the pending writes over one for Update (see commit.go). Records are decoded from the
// bytes the kv returns while the function runs (those bytes are valid only that long),
// so every record handed out is a fresh copy; a Put encodes the record at once, so
// changing it afterwards changes nothing.
type tx struct {
	kv   kv
	done bool // fn has returned: the Tx must not be used any more
	// failed, when set, is why the executor could not run the function at all.
	failed error

	cards   *cardCache    // nil: no memo
	written []writtenCard // cards this function wrote, for the memo once it has returned
}

type writtenCard struct {
	key string
	raw []byte
	// rec is the record written, the caller's: it may have changed since (see
	// cardCache.remember).
	rec *storage.CardRecord
}

// How full bbolt fills the pages it splits in the two buckets written at the end of a
// range (bbolt's default, 0.5, suits inserts anywhere; it is not stored, so every write
// transaction sets it: see fillPercent). A channel's replies are appended after its last
// one, so the left half of a split leaf is not written again (until an edit or delete)
// and its free half is wasted: at 0.5 a leaf kept 3 replies of ~0.5 KB, at 0.8 it keeps
// 5 (64% of the page instead of 39%), the tree has fewer pages above its leaves, and a
// commit writes 8% fewer pages per reply (TestPagesPerReply: 3.25 → 2.99). Not 1.0: the
// channels' tails are spread through the key range, so a branch page split full takes
// the next insert in its range and splits again (measured: more pages than 0.5), and a
// reply rewritten later (posted id set, status changed) needs the room. The message
// index is keyed by Discord's ids, which grow with time, so its inserts land at the end
// and a full split is right (its leaves go from 49% to 99% full).
//
// Schema 2 keeps the reply records themselves in one log in commit order (keys from the
// bucket's sequence), so a commit's replies share a leaf or two instead of one leaf per
// channel, and the 0.8 goes to the per-channel index (channel, seq → log id), whose
// tails are spread like schema 1's replies were but whose leaves hold ~90 entries
// instead of 5 (TestPagesPerReply: 2.99 → 2.6). The log's inserts land at its end, but
// a reply is rewritten soon after (RecordPost sets its posted id, a few dozen bytes
// more), so its leaves keep a tenth free for that rather than split a full one.
const (
	repliesFill  = 0.8
	messagesFill = 1.0
	replyLogFill = 0.9
)

var _ storage.Tx = (*tx)(nil)

var errTxDone = errors.New("storage: transaction used after its function returned")

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
	return k.get(bucket, key)
}

// get decodes the record at key into v; ErrNotFound when there is none.
func (t *tx) get(bucket, key []byte, v any) error {
	data, err := t.getRaw(bucket, key)
	if err != nil {
		return err
	}
	if data == nil {
		return storage.ErrNotFound
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("storage: %s record %q: %w", bucket, key, err)
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
		return fmt.Errorf("storage: encode %s record: %w", bucket, err)
	}
	return t.putRaw(bucket, key, data)
}

// del deletes key; ErrNotFound when there is none.
func (t *tx) del(bucket, key []byte) error {
	old, err := t.getRaw(bucket, key)
	if err != nil {
		return err
	}
	if old == nil {
		return storage.ErrNotFound
	}
	if err := t.kv.del(bucket, key); err != nil {
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
	return k.ascend(bucket, pfx, pfx, func(k, v []byte) (bool, error) { return true, fn(k, v) })
}

func decodeAll[T any](t *tx, bucket, pfx []byte) ([]*T, error) {
	var out []*T
	err := t.scan(bucket, pfx, func(k, v []byte) error {
		r := new(T)
		if err := json.Unmarshal(v, r); err != nil {
			return fmt.Errorf("storage: %s record %q: %w", bucket, k, err)
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
		return nil, storage.ErrNotFound
	}
	return t.decodeCard(bucket, key, data)
}

func (t *tx) decodeCard(bucket, key, data []byte) (*storage.CardRecord, error) {
	var ck string
	if t.cards != nil {
		ck = cacheKey(bucket, key)
		if rec := t.cards.lookup(ck, data); rec != nil {
			return rec, nil
		}
	}
	rec := new(storage.CardRecord)
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("storage: %s record %q: %w", bucket, key, err)
	}
	if t.cards != nil && rec.Card != nil {
		t.cards.add(ck, bytes.Clone(data), cloneCard(rec))
	}
	return rec, nil
}

func (t *tx) putCard(bucket, key []byte, c *storage.CardRecord) error {
	data, err := encode(c, appendCardRecord)
	if err != nil {
		return fmt.Errorf("storage: encode %s record: %w", bucket, err)
	}
	if err := t.putRaw(bucket, key, data); err != nil {
		return err
	}
	if t.cards != nil {
		t.written = append(t.written, writtenCard{cacheKey(bucket, key), data, c})
	}
	return nil
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

// ---- rulesets ----

func rulesetKey(id string, version int) ([]byte, error) {
	p, err := prefix("ruleset id", id)
	if err != nil {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(p, versionBits(version)), nil
}

func (t *tx) PutRuleset(r *storage.RulesetRecord) error {
	k, err := rulesetKey(r.ID, r.Version)
	if err != nil {
		return err
	}
	return t.put(bucketRulesets, k, r)
}

func (t *tx) Ruleset(id string, version int) (*storage.RulesetRecord, error) {
	k, err := rulesetKey(id, version)
	if err != nil {
		return nil, err
	}
	r := new(storage.RulesetRecord)
	if err := t.get(bucketRulesets, k, r); err != nil {
		return nil, fmt.Errorf("ruleset %s version %d: %w", id, version, err)
	}
	return r, nil
}

func (t *tx) RulesetVersions(id string) ([]int, error) {
	p, err := prefix("ruleset id", id)
	if err != nil {
		return nil, err
	}
	var out []int
	err = t.scan(bucketRulesets, p, func(k, _ []byte) error {
		out = append(out, int(int64(binary.BigEndian.Uint64(k[len(p):])^1<<63)))
		return nil
	})
	return out, err
}

func (t *tx) RulesetIDs() ([]string, error) {
	var out []string
	err := t.scan(bucketRulesets, nil, func(k, _ []byte) error {
		id := string(k[:bytes.IndexByte(k, sep)])
		if len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
		return nil
	})
	return out, err
}

// ---- campaigns ----

// table is a bucket of JSON records keyed by one id each: campaigns by channel,
// schedules by their id. They are put, read and deleted alike; only the words differ.
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

func (t *tx) PutCampaign(c *storage.Campaign) error { return putIn(t, campaignTable, c.ChannelID, c) }
func (t *tx) Campaign(channelID string) (*storage.Campaign, error) {
	return getFrom[storage.Campaign](t, campaignTable, channelID)
}
func (t *tx) DeleteCampaign(channelID string) error { return deleteIn(t, campaignTable, channelID) }

func (t *tx) Campaigns() ([]*storage.Campaign, error) {
	return decodeAll[storage.Campaign](t, bucketCampaigns, nil)
}

// ---- cards ----

func cardName(c *storage.CardRecord) (string, error) {
	if c == nil || c.Card == nil {
		return "", errors.New("storage: card record without a card")
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

func replyKey(channelID string, seq int64) ([]byte, error) {
	p, err := prefix("channel id", channelID)
	if err != nil {
		return nil, err
	}
	if seq < 1 {
		return nil, fmt.Errorf("storage: reply seq %d (seqs start at 1)", seq)
	}
	return binary.BigEndian.AppendUint64(p, uint64(seq)), nil
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
	k, err := replyKey(r.ChannelID, r.Seq)
	if err != nil {
		return err
	}
	switch r.Status {
	case storage.ReplyLive, storage.ReplyDeleted, storage.ReplyReverted:
	default:
		return fmt.Errorf("storage: reply %d in channel %s: status %q is not live, deleted or reverted", r.Seq, r.ChannelID, r.Status)
	}
	var old *storage.Reply
	logKey, err := t.getRaw(bucketReplyIdx, k)
	if err != nil {
		return err
	}
	if logKey != nil {
		logKey = bytes.Clone(logKey)
		old = new(storage.Reply)
		if err := t.get(bucketReplyLog, logKey, old); err != nil {
			return fmt.Errorf("storage: reply %d in channel %s: %w", r.Seq, r.ChannelID, err)
		}
	}
	if old != nil && old.MessageID != "" && old.MessageID != r.MessageID {
		mk, err := messageKey(r.ChannelID, old.MessageID)
		if err != nil {
			return err
		}
		if err := t.del(bucketMessages, mk); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
	}
	if r.MessageID != "" {
		mk, err := messageKey(r.ChannelID, r.MessageID)
		if err != nil {
			return err
		}
		v, err := t.getRaw(bucketMessages, mk)
		if err != nil {
			return err
		}
		if v != nil && int64(binary.BigEndian.Uint64(v)) != r.Seq {
			return fmt.Errorf("storage: message %s in channel %s is already reply %d", r.MessageID, r.ChannelID, binary.BigEndian.Uint64(v))
		}
		if err := t.putRaw(bucketMessages, mk, be64(uint64(r.Seq))); err != nil {
			return err
		}
	}
	last, err := t.lastSeq(r.ChannelID)
	if err != nil {
		return err
	}
	if r.Seq > last {
		if err := t.putRaw(bucketSeqs, []byte(r.ChannelID), be64(uint64(r.Seq))); err != nil {
			return err
		}
	}
	data, err := encode(r, appendReply)
	if err != nil {
		return fmt.Errorf("storage: encode reply record: %w", err)
	}
	if logKey == nil {
		// A new reply goes at the end of the log.
		kv, err := t.use()
		if err != nil {
			return err
		}
		id, err := kv.nextSequence(bucketReplyLog)
		if err != nil {
			return fmt.Errorf("storage: %s: %w", bucketReplyLog, err)
		}
		logKey = be64(id)
		if err := t.putRaw(bucketReplyIdx, k, logKey); err != nil {
			return err
		}
	}
	return t.putRaw(bucketReplyLog, logKey, data)
}

// replyAt decodes the log record an index entry points at.
func (t *tx) replyAt(logKey []byte) (*storage.Reply, error) {
	r := new(storage.Reply)
	if err := t.get(bucketReplyLog, logKey, r); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil, fmt.Errorf("storage: database damaged: reply log record %x missing", logKey)
		}
		return nil, err
	}
	return r, nil
}

func (t *tx) Reply(channelID string, seq int64) (*storage.Reply, error) {
	k, err := replyKey(channelID, seq)
	if err != nil {
		return nil, err
	}
	v, err := t.getRaw(bucketReplyIdx, k)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("reply %d in channel %s: %w", seq, channelID, storage.ErrNotFound)
	}
	return t.replyAt(v)
}

func (t *tx) ReplyByMessage(channelID, messageID string) (*storage.Reply, error) {
	if messageID == "" {
		return nil, fmt.Errorf("reply to no message in channel %s: %w", channelID, storage.ErrNotFound)
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
		return nil, fmt.Errorf("reply to message %s in channel %s: %w", messageID, channelID, storage.ErrNotFound)
	}
	return t.Reply(channelID, int64(binary.BigEndian.Uint64(v)))
}

func (t *tx) Replies(channelID string, after int64, limit int) ([]*storage.Reply, error) {
	p, err := prefix("channel id", channelID)
	if err != nil {
		return nil, err
	}
	kv, err := t.use()
	if err != nil {
		return nil, err
	}
	start := binary.BigEndian.AppendUint64(slices.Clone(p), uint64(max(after, 0)+1))
	var out []*storage.Reply
	err = kv.ascend(bucketReplyIdx, start, p, func(_, v []byte) (bool, error) {
		if limit > 0 && len(out) == limit {
			return false, nil
		}
		r, err := t.replyAt(v)
		if err != nil {
			return false, err
		}
		out = append(out, r)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (t *tx) LastReply(channelID string) (*storage.Reply, error) {
	p, err := prefix("channel id", channelID)
	if err != nil {
		return nil, err
	}
	kv, err := t.use()
	if err != nil {
		return nil, err
	}
	k, v, err := kv.last(bucketReplyIdx, p)
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, fmt.Errorf("last reply in channel %s: %w", channelID, storage.ErrNotFound)
	}
	return t.replyAt(v)
}

func (t *tx) lastSeq(channelID string) (int64, error) {
	if _, err := prefix("channel id", channelID); err != nil {
		return 0, err
	}
	v, err := t.getRaw(bucketSeqs, []byte(channelID))
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, nil
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}

func (t *tx) NextReplySeq(channelID string) (int64, error) {
	last, err := t.lastSeq(channelID)
	if err != nil {
		return 0, err
	}
	if err := t.putRaw(bucketSeqs, []byte(channelID), be64(uint64(last+1))); err != nil {
		return 0, err
	}
	return last + 1, nil
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
