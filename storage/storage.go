// Package storage keeps everything sheetkeeper must not lose: installed rulesets,
// imported inventory systems, campaigns, library and game cards, replies with the
// changes they made, the message ids already applied, tombstones of messages deleted
// before they arrived, hint marks, and schedules.
//
// Every command runs in ONE transaction (Store.Update): the engine's changes, the reply
// record and the applied message id commit together or not at all, so a crash loses no
// committed change and never leaves half a reply. Two commands on one card can never
// both spend the same point: bbolt runs writers one at a time, etcd refuses the commit of
// a transaction whose reads changed under it and runs it again.
//
// The Store interface has two backends, a bbolt file (storage/bolt) and an etcd cluster
// (storage/etcd); both pass the same suite (storage/storagetest), and storage/migrate
// copies one into the other.
package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/sheet"
)

// Store is a database. It is safe for concurrent use. Its errors are *Error values with
// a Kind (KindOf): a lookup of a record that does not exist fails with NotFound. An
// error fn returns comes back from Update as it is.
type Store interface {
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(Tx) error) error
	// Update runs fn in a read-write transaction and commits what it wrote, durably,
	// before returning; an error from fn rolls everything back. The bolt backend runs
	// each fn exactly once, alone under its run lock (storage/bolt/commit.go), and
	// commits the writes of several callers together; a failed commit is returned to
	// its callers, not retried. A backend may still run fn again (the etcd backend will,
	// when a transaction loses a compare-and-swap), so fn must be safe to run again: it
	// must do nothing outside tx and must decide only from what it reads in tx.
	Update(ctx context.Context, fn func(Tx) error) error
	// Backup writes a consistent copy of the whole database to w while it stays in use.
	Backup(w io.Writer) (int64, error)
	Close() error
}

// Tx is one transaction's view of the records. Writes are visible to later reads in
// the same transaction. Records returned are copies: changing one changes nothing
// until it is Put. A card record put is the store's (see Cards).
type Tx interface {
	// Rulesets installed, every version of each (SPEC 4.2), each in the namespace of
	// one guild (RulesetRecord.Guild; RulesetHome says which): local/x installed in one
	// Discord server and local/x installed in another are two rulesets. PutRuleset files
	// r under r.Guild; the lookups read one guild's namespace only, so a caller that
	// wants what a guild sees asks RulesetHome first.
	PutRuleset(r *RulesetRecord) error
	Ruleset(guild, id string, version int) (*RulesetRecord, error)
	RulesetVersions(guild, id string) ([]int, error)
	RulesetIDs(guild string) ([]string, error)

	// Imported inventory systems, versioned and per guild like rulesets (system.go).
	SystemTx

	// A channel's shop and pending trade offer (shop.go).
	ShopTx

	// Campaigns, one per channel (or thread). PutCampaign also forgets the channel's hint
	// mark (MarkHinted).
	PutCampaign(c *Campaign) error
	Campaign(channelID string) (*Campaign, error)
	DeleteCampaign(channelID string) error
	Campaigns() ([]*Campaign, error)

	// Cards. A library card belongs to a user and play never changes it; a game card
	// belongs to a campaign. Names are matched by sheet's normalised form. A record put
	// is the store's from then on: the caller may read it, never change it (the store
	// keeps it as the decoding of what it wrote, for the next reader: see
	// record.CardMemo). A record read is the reader's own.
	PutLibraryCard(c *CardRecord) error
	LibraryCard(ownerID, name string) (*CardRecord, error)
	LibraryCards(ownerID string) ([]*CardRecord, error)
	DeleteLibraryCard(ownerID, name string) error
	PutGameCard(channelID string, c *CardRecord) error
	GameCard(channelID, name string) (*CardRecord, error)
	GameCards(channelID string) ([]*CardRecord, error)
	DeleteGameCard(channelID, name string) error

	// Replies, numbered per channel from 1 in the order they were first applied.
	PutReply(r *Reply) error
	Reply(channelID string, seq int64) (*Reply, error)
	// ReplyByMessage finds the reply a message id was applied as.
	ReplyByMessage(channelID, messageID string) (*Reply, error)
	// Replies returns the channel's replies with seq > after, oldest first, at most limit
	// (0: all).
	Replies(channelID string, after int64, limit int) ([]*Reply, error)
	// LastReply is the newest reply of the channel, or a NotFound error.
	LastReply(channelID string) (*Reply, error)
	// NextReplySeq allocates the channel's next reply number.
	NextReplySeq(channelID string) (int64, error)

	// Tombstones of messages deleted before they were seen (see Tombstone).
	// PutTombstone records t, keeping the first when the message has one already; a
	// message applied as a reply is refused (Conflict): its delete undoes the reply
	// instead. Each call also forgets a few tombstones expired at t.At, more than it
	// adds, so expired ones never pile up.
	PutTombstone(t *Tombstone) error
	// Tombstone is the tombstone of messageID in channelID, expired or not (the store has
	// no clock: see Tombstone.Expired), or a NotFound error.
	Tombstone(channelID, messageID string) (*Tombstone, error)

	// MarkHinted records that channelID, a channel with no campaign, was told once how to
	// bind it (bot's hint to run /campaign create), and reports whether this was the first
	// time. The mark is one small record per channel and PutCampaign forgets it: only
	// channels without a campaign keep one, so the marks stay as few as such channels.
	MarkHinted(channelID string) (first bool, err error)

	// Schedules (SPEC 9).
	PutSchedule(s *Schedule) error
	Schedule(id string) (*Schedule, error)
	Schedules() ([]*Schedule, error)
	DeleteSchedule(id string) error
}

// RulesetRecord is one installed ruleset version, kept as the bytes it was imported
// from so it can be validated again, exported unchanged, and served to campaigns
// pinned to it.
type RulesetRecord struct {
	// Guild is the namespace the record lives in: RulesetHome(installing guild, ID).
	Guild   string `json:"guild,omitempty"`
	ID      string `json:"id"` // a built-in's bare id, or local/<id>
	Version int    `json:"version"`
	Name    string `json:"name"`
	Digest  string `json:"digest"`
	// File is a single-file ruleset; Files a package's files by path (manifest.json,
	// ruleset.json, catalogs/<id>.json). Exactly one is set.
	File        []byte            `json:"file,omitempty"`
	Files       map[string][]byte `json:"files,omitempty"`
	InstalledBy string            `json:"installedBy,omitempty"`
	InstalledAt time.Time         `json:"installedAt"`
}

// RulesetHome is the namespace in which the ruleset id means what it means to guild:
// an imported ruleset (local/<id>) is the guild's own, so two servers importing one id
// never see each other's; a built-in's kept versions are everyone's, in namespace "".
// The console has no guild: its imports live in "" too, beside the built-ins, which
// never share an id with them. A Discord direct message has no guild either, so the
// bot lets nobody install from one (see bot's mayInstall).
func RulesetHome(guild, id string) string {
	if Imported(id) {
		return guild
	}
	return ""
}

// Imported reports whether id names an imported ruleset (local/<id>) rather than a
// built-in (a bare id).
func Imported(id string) bool { return strings.HasPrefix(id, "local/") }

// Campaign binds one channel to a ruleset at an exact version (SPEC 2).
type Campaign struct {
	ChannelID string           `json:"channelId"`
	GuildID   string           `json:"guildId,omitempty"`
	Ruleset   sheet.RulesetRef `json:"ruleset"`
	System    string           `json:"system,omitempty"` // an inventory system id (SPEC 7)
	// SystemVersion is the version of System the campaign plays (0, from before
	// versions were kept: the newest).
	SystemVersion int      `json:"systemVersion,omitempty"`
	Layers        []string `json:"layers,omitempty"`
	// GMs are user ids, role ids or bot/webhook ids whose messages are applied.
	GMs       []GM      `json:"gms"`
	CreatedBy string    `json:"createdBy"`
	CreatedAt time.Time `json:"createdAt"`
	// TimeZone is an IANA zone for schedules shown in this campaign ("" is UTC).
	TimeZone string `json:"timeZone,omitempty"`
	// Told are the ids of players told once that only GMs' tags apply here (bot's note
	// on a player's tagged message), so each is told once per campaign; at most MaxTold
	// (a campaign written before it has none).
	Told []string `json:"told,omitempty"`
	// RulesMessages is where inventory rules' messages to a player go: "" (the channel)
	// or RulesMessagesDM (a direct message); /campaign set rules-messages sets it.
	RulesMessages string `json:"rulesMessages,omitempty"`
	// TradeOffers counts the trade offers made in the channel (bot's /trade offer): an
	// offer's id is its number, and its buttons name it, so the buttons of an offer
	// answered and deleted never answer a later one. A campaign written before it was
	// kept has 0, and counts on from its pending offer's id.
	TradeOffers int64 `json:"tradeOffers,omitempty"`
}

// RulesMessagesDM is Campaign.RulesMessages for messages sent to the player directly.
const RulesMessagesDM = "dm"

// MaxTold bounds Campaign.Told: a campaign with more players than this stops noting the
// newcomers (their tags are still marked), so a campaign record stays small.
const MaxTold = 500

// GM is one entry of a campaign's GM list.
type GM struct {
	Kind string `json:"kind"` // user, role, webhook (bot or webhook author id)
	ID   string `json:"id"`
}

// CardRecord is a card and who owns it.
type CardRecord struct {
	OwnerID string      `json:"ownerId"`
	Card    *sheet.Card `json:"card"`
	// Inventory is a game card's holdings in its campaign's system (SPEC 7): nil for a
	// card that holds nothing yet. On a library card it is its starting kit, which
	// /character join copies (bot/kit.go).
	Inventory *inventory.Stored `json:"inventory,omitempty"`
	// KitSystem is the game system a library card's kit is held to (/character kit,
	// bot/cmd_kit.go): a system's id, "" for the card's ruleset's own items.
	KitSystem string `json:"kitSystem,omitempty"`
	// From names the library card a game card was joined from ("" for others).
	From      string    `json:"from,omitempty"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Reply is one GM message in a game channel and what applying it did (SPEC 6),
// recorded in the same transaction as its changes — also when it changed nothing.
type Reply struct {
	ChannelID string `json:"channelId"`
	Seq       int64  `json:"seq"`
	MessageID string `json:"messageId"`
	AuthorID  string `json:"authorId"`
	// Text is the message text the reply's changes were applied from; a continuing edit
	// extends it.
	Text string `json:"text"`
	// Status is live, deleted or reverted (see the constants).
	Status  string         `json:"status"`
	Changes []sheet.Change `json:"changes,omitempty"`
	// Rolls are the faces of every check and free roll the reply threw, in the order of
	// its tags, so undo, redo and a regenerate show the roll the players saw (SPEC 3.6).
	// A reply written before checks were rolled has none.
	Rolls []Roll `json:"rolls,omitempty"`
	// Posted are the ids of the messages of the bot's post answering this reply (a post
	// too long for one message spans several), so an edit or delete reaches every one.
	Posted PostIDs `json:"posted,omitempty"`
	Source string  `json:"source,omitempty"` // "" for a GM message, "schedule:<id>" for a fired rest
	// Default is the card the reply's tags without who= were applied to ("" for none),
	// so Redo applies its text again to the same card. Replies recorded before it was
	// kept lack it: Redo then works it out as a message without a reply would.
	Default   string    `json:"default,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Roll is one thrown tag of a reply: the tag as a request (its canonical text, which
// identifies it in an edited message) and every face the engine threw for it.
type Roll struct {
	Tag   string `json:"tag"`
	Faces []int  `json:"faces"`
}

// PostIDs are the message ids of one post of the bot, in order. They are stored as a
// JSON array; a database written before a post could be a list holds one string there
// (one id, or the Discord adapter's ids joined by commas), which still decodes.
type PostIDs []string

// UnmarshalJSON reads an array of ids, or the one string earlier versions stored.
func (p *PostIDs) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*p = nil
		for _, id := range strings.Split(one, ",") {
			if id = strings.TrimSpace(id); id != "" {
				*p = append(*p, id)
			}
		}
		return nil
	}
	var ids []string
	if err := json.Unmarshal(data, &ids); err != nil {
		return err
	}
	*p = ids
	return nil
}

// Reply statuses.
const (
	ReplyLive     = "live"     // its changes are in effect
	ReplyDeleted  = "deleted"  // the message is gone; its changes wait for the later replies to go
	ReplyReverted = "reverted" // deleted and its changes undone
)

// Valid refuses, as Invalid, a reply no store keeps: a seq below 1 (seqs start at 1)
// or a status not one of the three. Each backend checks its own keys besides.
func (r *Reply) Valid() error {
	if r.Seq < 1 {
		return &Error{Kind: Invalid, Err: fmt.Errorf("storage: reply seq %d (seqs start at 1)", r.Seq)}
	}
	switch r.Status {
	case ReplyLive, ReplyDeleted, ReplyReverted:
		return nil
	}
	return &Error{Kind: Invalid, Err: fmt.Errorf("storage: reply %d in channel %s: status %q is not live, deleted or reverted", r.Seq, r.ChannelID, r.Status)}
}

// Schedule is a stored rest schedule (SPEC 9).
type Schedule struct {
	ID        string    `json:"id"`
	ChannelID string    `json:"channelId"`
	Rest      string    `json:"rest"`
	Cron      string    `json:"cron"`
	TimeZone  string    `json:"timeZone,omitempty"`
	Who       string    `json:"who,omitempty"` // a card name, "party", or "" for party
	CreatedBy string    `json:"createdBy"`
	CreatedAt time.Time `json:"createdAt"`
	LastRun   time.Time `json:"lastRun,omitempty"`
	// MissedReported is the last missed firing already reported, so it is said once.
	MissedReported time.Time `json:"missedReported,omitempty"`
}
