package storage

import "time"

// Tombstone records that a message was deleted before the store ever saw it: Discord
// may deliver a MESSAGE_DELETE ahead of its MESSAGE_CREATE (SPEC 6), and the late create
// (or an edit after it) must then apply nothing. It is written in the delete's own
// transaction, beside the applied message ids.
type Tombstone struct {
	ChannelID string `json:"channelId"`
	MessageID string `json:"messageId"`
	// At is when the delete arrived, by the bot's clock.
	At time.Time `json:"at"`
}

// TombstoneLife is how late an event of a message may still arrive, out of order, and
// so how long a tombstone is kept. Discord replays what a resumed session missed within
// minutes; a day leaves room to spare. It bounds the tombstones by time, not by count:
// the store forgets the expired ones as new ones come (Tx.PutTombstone), so it holds
// only those of the last TombstoneLife, whatever the history of the channel.
const TombstoneLife = 24 * time.Hour

// Expired reports whether the tombstone is past its life at now: an expired tombstone
// no longer stops anything, whether or not the store has forgotten it yet.
func (t *Tombstone) Expired(now time.Time) bool { return now.Sub(t.At) > TombstoneLife }
