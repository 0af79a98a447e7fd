package storage

import "context"

// Record is one stored record in the form both backends share, for copying a whole
// store from one backend to another (sheetkeeper migrate): its kind, its key within the
// kind, and its value, the bytes the backend stores (storage/record encodes both
// backends' values alike, so a copy keeps them byte for byte).
//
// Keys join their parts with a 0x00 byte, numbers 8-byte big-endian:
//
//	RulesetRecords   guild 0x00 id 0x00 BE(version ^ 1<<63)
//	CampaignRecords  channelID
//	LibraryRecords   ownerID 0x00 normalised name
//	GameRecords      channelID 0x00 normalised name
//	ReplyRecords     channelID 0x00 BE(seq)
//	SeqRecords       channelID                   → BE(last reply seq handed out)
//	TombstoneRecords channelID 0x00 messageID
//	HintRecords      channelID                   → empty
//	ScheduleRecords  scheduleID
//	SystemRecords    guild 0x00 id 0x00 BE(version ^ 1<<63)
//	ShopRecords      channelID
//	TradeRecords     channelID
//
// Indexes a backend derives from these (the message index, the tombstones' ages, bolt's
// reply chain) are not records: Import rebuilds them.
type Record struct {
	Kind  RecordKind
	Key   string
	Value []byte
}

// RecordKind names one kind of Record.
type RecordKind string

// The kinds of Record, every one a Store keeps.
const (
	RulesetRecords   RecordKind = "ruleset"
	CampaignRecords  RecordKind = "campaign"
	LibraryRecords   RecordKind = "library"
	GameRecords      RecordKind = "game"
	ReplyRecords     RecordKind = "reply"
	SeqRecords       RecordKind = "seq"
	TombstoneRecords RecordKind = "tombstone"
	HintRecords      RecordKind = "hint"
	ScheduleRecords  RecordKind = "schedule"
	SystemRecords    RecordKind = "system"
	ShopRecords      RecordKind = "shop"
	TradeRecords     RecordKind = "trade"
)

// RecordKinds lists every RecordKind, in the order Export gives them.
var RecordKinds = []RecordKind{RulesetRecords, CampaignRecords, LibraryRecords, GameRecords,
	ReplyRecords, SeqRecords, TombstoneRecords, HintRecords, ScheduleRecords, SystemRecords,
	ShopRecords, TradeRecords}

// Porter is a Store whose every record can be copied out and in, whatever the backend:
// the Tx interface lists records per guild, owner or channel and has no way to list the
// owners, tombstones or hint marks, and it would encode the records again.
type Porter interface {
	Store
	// Export calls fn with every record of the store, read from one consistent
	// snapshot, kind by kind; an error from fn stops it and comes back as it is.
	Export(ctx context.Context, fn func(Record) error) error
	// Import writes recs in one transaction, with the indexes they need, exactly as they
	// are. It is for filling an empty store: it checks that each record's key and value
	// are well formed (Invalid otherwise, and nothing is written); a record already
	// stored under its key is replaced on bbolt, which one process holds, and refused
	// on etcd (Conflict, nothing written), where another process may have written it. Callers keep each call within the
	// backend's transaction limits (the etcd backend's are 128 writes, 1.5 MiB).
	Import(ctx context.Context, recs []Record) error
}
