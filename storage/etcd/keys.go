package etcd

import (
	"encoding/binary"
	"strings"

	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// Key layout. Every key starts with the store's prefix (Options.Prefix); a key made of
// several parts joins them with a 0x00 byte, so the keys of one owner, channel or
// ruleset id are one contiguous, ordered range. Numbers are 8-byte big-endian so byte
// order is numeric order. Values are the bytes the bolt backend stores (storage/record
// for cards and replies, encoding/json for the rest).
//
//	meta/schema                          → schema version, 8-byte big-endian
//	r/ guild 0x00 id 0x00 BE(v ^ 1<<63)  → RulesetRecord (guild "" is the shared namespace)
//	c/ channelID                         → Campaign
//	l/ ownerID 0x00 normalised name      → CardRecord (library)
//	s/ scheduleID                        → Schedule
//	y/ guild 0x00 id 0x00 BE(v ^ 1<<63)  → SystemRecord (versioned.go, as rulesets)
//	ch/ channelID 0x00 'g' name          → CardRecord (game)
//	ch/ channelID 0x00 'h'               → BE(last reply seq handed out)
//	ch/ channelID 0x00 'm' messageID     → BE(seq) of the reply the message was applied as
//	ch/ channelID 0x00 'r' BE(seq)       → Reply
//	ch/ channelID 0x00 't' messageID     → Tombstone
//	ch/ channelID 0x00 's', 'x'          → ShopRecord, TradeRecord (shop.go)
//	ta/ BE(At ns ^ 1<<63) channelID 0x00 messageID → the tombstone's key: oldest first, swept
//	c/, s/, l/ ownerID 0x00, ch/ channelID 0x00 'g', ta/ → "": a family's guard, rewritten
//	                                       by every delete in the family (keys.guard)
//
// Everything of one channel (its cards, replies, message index, seq counter and
// tombstones) sits in one range, so one channel's command reads and writes neighbours.
// Bolt chains replies through a log to keep its pages few; etcd has no pages, so a
// channel's replies are keyed by seq directly and read by range.
const (
	sep = "\x00"

	kindGame  = 'g'
	kindHead  = 'h'
	kindMsg   = 'm'
	kindReply = 'r'
	kindTomb  = 't'
	kindHint  = 'i' // the channel's hint mark (Tx.MarkHinted), one key
	kindShop  = 's' // the channel's shop (shop.go), one key
	kindTrade = 'x' // the channel's pending trade offer, one key
)

// keys makes the keys of one store, all under its prefix.
type keys struct{ prefix string }

func (k keys) schema() string { return k.prefix + "meta/schema" }

// part is a key part followed by the separator. A part holding the separator could
// reach into another part's range, so it is refused; so is an empty one.
func part(what, p string) (string, error) {
	if p == "" {
		return "", storage.Errorf(storage.Invalid, "storage: empty %s", what)
	}
	if strings.Contains(p, sep) {
		return "", storage.Errorf(storage.Invalid, "storage: %s %q holds a NUL byte", what, p)
	}
	return p + sep, nil
}

// single is a one-part key's part: any id but the empty one.
func single(what, id string) (string, error) {
	if id == "" {
		return "", storage.Errorf(storage.Invalid, "storage: empty %s", what)
	}
	return id, nil
}

// guild is a ruleset namespace's part: unlike other parts it may be empty (the shared
// namespace), whose keys so start with the separator alone.
func guild(g string) (string, error) {
	if strings.Contains(g, sep) {
		return "", storage.Errorf(storage.Invalid, "storage: guild id %q holds a NUL byte", g)
	}
	return g + sep, nil
}

func (k keys) campaigns() string { return k.prefix + "c/" }
func (k keys) schedules() string { return k.prefix + "s/" }

func (k keys) library(owner string) (string, error) {
	p, err := part("card owner id", owner)
	return k.prefix + "l/" + p, err
}

// channel is the start of every key of one channel's records.
func (k keys) channel(ch string) (string, error) {
	p, err := part("channel id", ch)
	return k.prefix + "ch/" + p, err
}

// inChannel is the start of the keys of one kind of a channel's records.
func (k keys) inChannel(ch string, kind byte) (string, error) {
	p, err := k.channel(ch)
	return p + string(kind), err
}

// cardName is the key part of a card's name: sheet's normalised form.
func cardName(name string) (string, error) {
	n := ruleset.FoldName(name)
	if n == "" {
		return "", storage.Errorf(storage.Invalid, "storage: empty card name %q", name)
	}
	return n, nil
}

// message is the key of a message id under a channel's kind (index or tombstone).
func (k keys) message(ch string, kind byte, messageID string) (string, error) {
	p, err := k.inChannel(ch, kind)
	if err != nil {
		return "", err
	}
	if _, err := part("message id", messageID); err != nil {
		return "", err
	}
	return p + messageID, nil
}

func (k keys) reply(ch string, seq int64) (string, error) {
	p, err := k.inChannel(ch, kindReply)
	return p + be64(uint64(seq)), err
}

func (k keys) tombAges() string { return k.prefix + "ta/" }

// guard is the key every delete of a record in family (the prefix of records listed
// by range, which may be deleted: campaigns, schedules, a holder's cards, tombstone
// ages) rewrites: the prefix itself, the first key of the family's range, which no
// record has (every record's key is longer), so a transaction that listed the family
// sees the delete through its range compare (see scanOpts).
func (k keys) guard(family string) string { return family }

func be64(v uint64) string { return string(binary.BigEndian.AppendUint64(nil, v)) }

// rangeEnd is the end of the range of keys starting with p: p with its last byte raised
// (etcd's prefix range; p never ends in 0xff here, every prefix ends in a letter, a '/'
// or the separator).
func rangeEnd(p string) string {
	b := []byte(p)
	b[len(b)-1]++
	return string(b)
}
