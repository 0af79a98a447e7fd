package bolt

import (
	"encoding/binary"
	"strings"

	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// Key layout. Every record is JSON in one of the buckets below; a key made of several
// parts joins them with a 0x00 byte, so the keys of one owner, channel or ruleset id are
// one contiguous, ordered range. Numbers are 8-byte big-endian so byte order is numeric
// order.
//
//	meta       "schema"                        → schema version, 8-byte big-endian
//	           "journal"                       → BE(the last journal record bbolt holds)
//	                                             (schema 9; see journal.go)
//	rulesets   guild 0x00 id 0x00              → RulesetRecord (schema 4: one namespace
//	           BE(version ^ 1<<63)               per guild, "" the shared one, whose keys
//	                                             so start with 0x00; schema 3 had no
//	                                             guild part: see migrate_tenancy.go)
//	campaigns  channelID                       → Campaign
//	library    ownerID 0x00 normalised name    → CardRecord
//	game       channelID 0x00 normalised name  → CardRecord
//	replylog   BE(log id)                      → Reply (log ids from the bucket's sequence,
//	                                             so a commit's replies, whatever their
//	                                             channels, are neighbours)
//	replychain BE(log id)                      → BE(seq) BE(log id of the channel's reply
//	                                             before it, 0: none) (schema 3; see tx.go)
//	messages   messageID 0x00 channelID        → BE(log id) of the reply it was applied as
//	                                             (id first: see messageKey; schema 2 held
//	                                             the seq)
//	seqs       channelID                       → BE(last allocated reply seq) BE(log id of
//	                                             the channel's newest reply, 0: none)
//	                                             (schema 2: the seq alone)
//	schedules  id                              → Schedule
//	tombstones, tombage                        → see tombstone.go (schema 4)
//	hints                                      → see hints.go (schema 6)
//	systems                                    → see system.go (schema 7)
//	shops, trades                              → see shop.go (schema 8)
var (
	bucketMeta       = []byte("meta")
	bucketRulesets   = []byte("rulesets")
	bucketCampaigns  = []byte("campaigns")
	bucketLibrary    = []byte("library")
	bucketGame       = []byte("game")
	bucketReplyLog   = []byte("replylog")
	bucketReplyChain = []byte("replychain")
	bucketMessages   = []byte("messages")
	bucketSeqs       = []byte("seqs")
	bucketSchedules  = []byte("schedules")

	allBuckets = [][]byte{bucketMeta, bucketRulesets, bucketCampaigns, bucketLibrary, bucketGame,
		bucketReplyLog, bucketReplyChain, bucketMessages, bucketSeqs, bucketSchedules,
		bucketTombstones, bucketTombAge, bucketHints, bucketSystems, bucketShops, bucketTrades}

	// bucketRepliesV1 held schema 1's replies (channelID 0x00 BE(seq) → Reply);
	// migration 1 moves them to replylog and replyindex.
	bucketRepliesV1 = []byte("replies")
	schema1Buckets  = [][]byte{bucketMeta, bucketRulesets, bucketCampaigns, bucketLibrary, bucketGame,
		bucketRepliesV1, bucketMessages, bucketSeqs, bucketSchedules}

	// bucketReplyIdxV2 was schema 2's per-channel index (channelID 0x00 BE(seq) → BE(log
	// id)); migration 2 turns it into the reply chain.
	bucketReplyIdxV2 = []byte("replyindex")

	keySchema  = []byte("schema")
	keyJournal = []byte("journal") // see journal.go (schema 9)
)

const sep = 0x00

// prefix returns part followed by the separator: the start of every key whose first
// part is part. A part holding the separator could reach into another part's range, so
// it is refused; so is an empty one.
func prefix(what, part string) ([]byte, error) {
	if part == "" {
		return nil, storage.Errorf(storage.Invalid, "storage: empty %s", what)
	}
	if strings.IndexByte(part, sep) >= 0 {
		return nil, storage.Errorf(storage.Invalid, "storage: %s %q holds a NUL byte", what, part)
	}
	k := make([]byte, 0, len(part)+1+16)
	k = append(k, part...)
	return append(k, sep), nil
}

// guildPrefix is the start of every ruleset key in guild's namespace. The shared
// namespace is "", so unlike other key parts a guild may be empty: its prefix is the
// separator alone, which no other guild's keys start with.
func guildPrefix(guild string) ([]byte, error) {
	if strings.IndexByte(guild, sep) >= 0 {
		return nil, storage.Errorf(storage.Invalid, "storage: guild id %q holds a NUL byte", guild)
	}
	return append([]byte(guild), sep), nil
}

// single is a one-part key.
func single(what, part string) ([]byte, error) {
	if part == "" {
		return nil, storage.Errorf(storage.Invalid, "storage: empty %s", what)
	}
	return []byte(part), nil
}

// nameKey is ownerID (or channelID) 0x00 normalised card name.
func nameKey(what, part, name string) ([]byte, error) {
	p, err := prefix(what, part)
	if err != nil {
		return nil, err
	}
	n := ruleset.FoldName(name)
	if n == "" {
		return nil, storage.Errorf(storage.Invalid, "storage: empty card name %q", name)
	}
	return append(p, n...), nil
}

func be64(v uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, v)
}

// be128 is two numbers, 8-byte big-endian each: a reply chain or seqs record.
func be128(a, b uint64) []byte { return binary.BigEndian.AppendUint64(be64(a), b) }

// versionBits orders ints as unsigned big-endian bytes, negatives first.
func versionBits(v int) uint64 { return uint64(int64(v)) ^ 1<<63 }
