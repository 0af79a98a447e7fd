package etcd

import (
	"fmt"

	"sheetkeeper/storage"
	"sheetkeeper/storage/record"
)

// The records other than replies, tombstones and the versioned ones (versioned.go):
// campaigns, cards and schedules, each a JSON value at one key.

// ---- campaigns and schedules ----

// table is a range of JSON records keyed by one id each: campaigns by channel,
// schedules by their id. They are put, read and deleted alike; only the words differ.
type table struct {
	prefix func(keys) string
	key    string                 // what the id is, for errors
	what   func(id string) string // the record, as an error names it
}

var (
	campaignTable = table{keys.campaigns, "campaign channel id", func(id string) string { return "campaign in channel " + id }}
	scheduleTable = table{keys.schedules, "schedule id", func(id string) string { return "schedule " + id }}
)

func (t *tx) tableKey(tb table, id string) (string, error) {
	p, err := single(tb.key, id)
	return tb.prefix(t.s.keys) + p, err
}

func putIn(t *tx, tb table, id string, v any) error {
	k, err := t.tableKey(tb, id)
	if err != nil {
		return err
	}
	return t.putJSON(k, v)
}

func getFrom[T any](t *tx, tb table, id string) (*T, error) {
	k, err := t.tableKey(tb, id)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := t.getJSON(k, v); err != nil {
		return nil, fmt.Errorf("%s: %w", tb.what(id), err)
	}
	return v, nil
}

func deleteIn(t *tx, tb table, id string) error {
	k, err := t.tableKey(tb, id)
	if err != nil {
		return err
	}
	if err := t.del(k, tb.prefix(t.s.keys)); err != nil {
		return fmt.Errorf("%s: %w", tb.what(id), err)
	}
	return nil
}

func allIn[T any](t *tx, tb table) ([]*T, error) {
	return decodeAll[T](t, tb.prefix(t.s.keys), scanOpts{deletable: true})
}

// PutCampaign stores c and forgets its channel's hint mark (a delete of a key that may
// not exist needs no read).
func (t *tx) PutCampaign(c *storage.Campaign) error {
	if err := putIn(t, campaignTable, c.ChannelID, c); err != nil {
		return err
	}
	key, err := t.s.keys.inChannel(c.ChannelID, kindHint)
	if err != nil {
		return err
	}
	t.unset(key)
	return nil
}

func (t *tx) MarkHinted(channelID string) (bool, error) {
	key, err := t.s.keys.inChannel(channelID, kindHint)
	if err != nil {
		return false, err
	}
	if !t.write {
		return false, errReadOnly
	}
	_, found, err := t.get(key)
	if err != nil || found {
		return false, err
	}
	t.set(key, []byte{})
	return true, nil
}
func (t *tx) Campaign(channelID string) (*storage.Campaign, error) {
	return getFrom[storage.Campaign](t, campaignTable, channelID)
}
func (t *tx) DeleteCampaign(channelID string) error { return deleteIn(t, campaignTable, channelID) }
func (t *tx) Campaigns() ([]*storage.Campaign, error) {
	return allIn[storage.Campaign](t, campaignTable)
}

func (t *tx) PutSchedule(s *storage.Schedule) error { return putIn(t, scheduleTable, s.ID, s) }
func (t *tx) Schedule(id string) (*storage.Schedule, error) {
	return getFrom[storage.Schedule](t, scheduleTable, id)
}
func (t *tx) Schedules() ([]*storage.Schedule, error) {
	return allIn[storage.Schedule](t, scheduleTable)
}
func (t *tx) DeleteSchedule(id string) error { return deleteIn(t, scheduleTable, id) }

// ---- cards ----

// shelf is where one kind of card lives: library cards by owner, game cards by channel.
type shelf struct {
	prefix func(k keys, holder string) (string, error)
	what   func(holder, name string) string // the card, as an error names it
}

var (
	libraryShelf = shelf{keys.library, func(owner, name string) string {
		return fmt.Sprintf("library card %q of %s", name, owner)
	}}
	gameShelf = shelf{func(k keys, ch string) (string, error) { return k.inChannel(ch, kindGame) },
		func(channel, name string) string { return fmt.Sprintf("game card %q in channel %s", name, channel) }}
)

func (t *tx) cardKey(s shelf, holder, name string) (string, error) {
	p, err := s.prefix(t.s.keys, holder)
	if err != nil {
		return "", err
	}
	n, err := cardName(name)
	return p + n, err
}

func (t *tx) putOn(s shelf, holder string, c *storage.CardRecord) error {
	if c == nil || c.Card == nil {
		return storage.Errorf(storage.Invalid, "storage: card record without a card")
	}
	k, err := t.cardKey(s, holder, c.Card.Name)
	if err != nil {
		return err
	}
	if !t.write {
		return errReadOnly
	}
	data, err := record.Encode(c, record.AppendCard)
	if err != nil {
		return storage.Errorf(storage.Invalid, "storage: encode card record: %w", err)
	}
	if err := t.putRaw(k, data); err != nil {
		return err
	}
	t.wroteCards[k] = writtenCard{data, c}
	return nil
}

// writtenCard is a card record an Update wrote, for the store's card memo once it has
// committed: the bytes, and the record, the store's once put (the function may have
// changed it after the put: see record.CardMemo.Remember).
type writtenCard struct {
	raw []byte
	rec *storage.CardRecord
}

// decodeCard decodes the card record raw at key through the store's memo.
func (t *tx) decodeCard(key string, raw []byte) (*storage.CardRecord, error) {
	if rec := t.s.cards.Lookup(key, raw); rec != nil {
		return rec, nil
	}
	rec := new(storage.CardRecord)
	if err := t.decode(key, raw, rec); err != nil {
		return nil, err
	}
	if rec.Card != nil { // raw is the response's own: nothing else keeps or changes it
		t.s.cards.Add(key, raw, record.CloneCard(rec))
	}
	return rec, nil
}

func (t *tx) getFrom(s shelf, holder, name string) (*storage.CardRecord, error) {
	k, err := t.cardKey(s, holder, name)
	if err != nil {
		return nil, err
	}
	raw, found, err := t.get(k)
	if err == nil && !found {
		err = errNotFound
	}
	var c *storage.CardRecord
	if err == nil {
		c, err = t.decodeCard(k, raw)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.what(holder, name), err)
	}
	return c, nil
}

func (t *tx) allOn(s shelf, holder string) ([]*storage.CardRecord, error) {
	p, err := s.prefix(t.s.keys, holder)
	if err != nil {
		return nil, err
	}
	got, err := t.scan(p, rangeEnd(p), scanOpts{deletable: true})
	if err != nil {
		return nil, err
	}
	out := make([]*storage.CardRecord, 0, len(got))
	for _, e := range got {
		c, err := t.decodeCard(e.key, e.val)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (t *tx) deleteFrom(s shelf, holder, name string) error {
	k, err := t.cardKey(s, holder, name)
	if err != nil {
		return err
	}
	family, _ := s.prefix(t.s.keys, holder) // cardKey checked holder
	if err := t.del(k, family); err != nil {
		return fmt.Errorf("%s: %w", s.what(holder, name), err)
	}
	return nil
}

func (t *tx) PutLibraryCard(c *storage.CardRecord) error {
	owner := ""
	if c != nil {
		owner = c.OwnerID
	}
	return t.putOn(libraryShelf, owner, c)
}
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
