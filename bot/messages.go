package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"sheetkeeper/catalog"
	"sheetkeeper/check"
	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// A GM's message becomes a reply (SPEC 3, 6): its tags are read, applied in order to the
// campaign's game cards, and — in the one transaction that writes the changed cards —
// recorded with every change it made and indexed by message id, so a message is applied
// once however often Discord delivers it, and an edit or a delete can undo exactly what
// it did. The outcome goes back as a post (summary.go).

// skipped is why an event changes nothing; Update rolls back and the reason is logged.
type skipped struct{ why string }

func (s *skipped) Error() string { return s.why }

func skip(format string, args ...any) error { return &skipped{why: fmt.Sprintf(format, args...)} }

// OnMessage handles a message created in a channel. Every GM message in a campaign's
// channel is a reply (SPEC 6), recorded even when it applies nothing — narration with no
// tag, or only quoted results (SPEC 3.4) — so "the latest reply" means what the GM sees,
// and a later edit that adds tags to it continues it. A message with tags to apply is
// answered with one post. Tags nobody applies are told, not ignored (tell.go): a
// player's get a reaction and, once, a note that only GMs' tags apply; those in a
// channel with no campaign, one hint per channel to make one. Anything else (a message
// already applied — also as an edit that came first — or deleted before it arrived)
// does nothing.
func (c *Core) OnMessage(ctx context.Context, m Message) []Action {
	return c.onMessage(ctx, m, true)
}

// onMessage is OnMessage. Most messages in a game channel are the players': a read
// turns them away without taking a turn at the write lock. An author last found a GM
// of the channel (gmSeen, when seen allows it) skips that read, which a GM's every
// reply paid before its write checked the same again: should the write find them no
// GM any more, they are forgotten and the message goes the usual way.
func (c *Core) onMessage(ctx context.Context, m Message, seen bool) []Action {
	key := gmKey{channelID: m.ChannelID, userID: m.Author.ID, webhookID: m.Author.WebhookID}
	if _, ok := c.gmSeen.Load(key); !ok || !seen {
		seen = false
		camp, gm, err := c.fromGM(ctx, m)
		if err != nil {
			return nil
		}
		if !gm {
			return c.tell(ctx, m, camp)
		}
		c.rememberGM(key)
	}
	msg := parser.Read(m.Content)
	var post []Action
	turnedAway, rules := false, false
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		post, rules, turnedAway = nil, false, false
		camp, err := gmCampaign(tx, m.ChannelID, m.Author)
		if err != nil {
			var s *skipped
			turnedAway = errors.As(err, &s)
			return err
		}
		if _, err := tx.ReplyByMessage(m.ChannelID, m.ID); err == nil {
			return skip("message already applied")
		} else if storage.KindOf(err) != storage.NotFound {
			return err
		}
		now := c.Now()
		if err := notDeleted(tx, m.ChannelID, m.ID, now); err != nil {
			return err
		}
		post, rules, err = c.applyNew(tx, camp, m, msg, now)
		return err
	})
	if seen && turnedAway {
		c.gmSeen.Delete(key)
		return c.onMessage(ctx, m, false)
	}
	if err != nil {
		return c.eventFailed("message", m.ChannelID, m.ID, err)
	}
	c.observeTags(post)
	if rules {
		post = append(post, c.rulesAfter(ctx, m.ChannelID)...)
	}
	return post
}

// gmKey is an author in a channel, as gmSeen remembers them: a user, or a webhook.
type gmKey struct{ channelID, userID, webhookID string }

// maxSeenGMs bounds gmSeen; past it, it starts afresh (each GM's next message reads
// once more).
const maxSeenGMs = 4096

// rememberGM notes that key's author was found a GM of its channel.
func (c *Core) rememberGM(key gmKey) {
	if _, had := c.gmSeen.LoadOrStore(key, struct{}{}); !had && c.gmSeenCount.Add(1) > maxSeenGMs {
		c.gmSeen.Clear()
		c.gmSeenCount.Store(0)
	}
}

// notDeleted skips a message whose delete came first and left a tombstone that has not
// expired (SPEC 6: Discord delivers out of order): the message applies nothing.
func notDeleted(tx storage.Tx, channelID, messageID string, now time.Time) error {
	ts, err := tx.Tombstone(channelID, messageID)
	switch {
	case storage.KindOf(err) == storage.NotFound:
		return nil
	case err != nil:
		return err
	case ts.Expired(now):
		return nil
	}
	return skip("message deleted before it arrived")
}

// applyNew applies message m, read as msg, as the channel's next reply: its tags to the
// game cards, and the reply recorded with what they changed — also when nothing. It
// returns the post answering it, when it has tags to apply, and whether the campaign's
// inventory rules must run once it is committed (table.needsRules).
func (c *Core) applyNew(tx storage.Tx, camp *storage.Campaign, m Message, msg parser.Message, now time.Time) (post []Action, rules bool, err error) {
	applies := appliesTags(msg)
	var done []applied
	var t *table
	def := ""
	if applies {
		if t, err = c.openTable(tx, camp); err != nil {
			return nil, false, err
		}
		if def, err = defaultWho(tx, m, t.records); err != nil {
			return nil, false, err
		}
		done = t.apply(msg.Tags, def)
		if err := t.save(tx, now); err != nil {
			return nil, false, err
		}
	}
	seq, err := tx.NextReplySeq(m.ChannelID)
	if err != nil {
		return nil, false, err
	}
	r := &storage.Reply{
		ChannelID: m.ChannelID, Seq: seq, MessageID: m.ID, AuthorID: m.Author.ID,
		Text: m.Content, Status: storage.ReplyLive, Changes: changesOf(done), Default: def,
		Rolls:     rollsOf(done),
		CreatedAt: now, UpdatedAt: now,
	}
	if err := tx.PutReply(r); err != nil {
		return nil, false, err
	}
	if !applies {
		return nil, false, nil
	}
	content, embeds, outs := renderReply(t.rules.Ruleset, t.sheets, t.cards, done)
	return []Action{{Kind: Post, ChannelID: m.ChannelID, MessageID: m.ID, Content: content, Embeds: embeds, Components: undoRow(seq), Outcomes: outs, ReplySeq: seq}}, t.needsRules(msg), nil
}

// needsRules reports whether the inventory rules must run after msg's tags were applied
// on t: msg had inventory tags and one of the channel's cards now holds what rules act
// on (inventory.Campaign.StoredNeedsRules). Worked out here, from the cards the message
// already read, it spares every other message the rules' own read of all of them. A
// campaign it leaves on the rules clock with nothing timed any more leaves the clock at
// its next tick.
func (t *table) needsRules(msg parser.Message) bool {
	if t.inv == nil || !slices.ContainsFunc(msg.Tags, func(tg parser.Tag) bool { return tg.Kind == parser.Inventory }) {
		return false
	}
	return slices.ContainsFunc(t.records, func(r *storage.CardRecord) bool { return t.inv.camp.StoredNeedsRules(r.Inventory) })
}

// appliesTags reports whether msg has tags a GM's message would apply (quoted ones are
// not read: parser). A player's message that has them is told (tell.go).
func appliesTags(msg parser.Message) bool { return len(msg.Tags) > 0 }

// fromGM reports whether m's author is a GM of the campaign of m's channel, and returns
// the campaign as read (nil when the channel has none); a failure to read is logged
// and returned. Update checks again inside its transaction: this read only spares
// non-GM messages a write.
func (c *Core) fromGM(ctx context.Context, m Message) (*storage.Campaign, bool, error) {
	var camp *storage.Campaign
	err := c.store.View(ctx, func(tx storage.Tx) error {
		var err error
		camp, err = tx.Campaign(m.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			camp, err = nil, nil
		}
		return err
	})
	switch {
	case err != nil:
		c.log.Error("message: reading the campaign", "channel", m.ChannelID, "message", m.ID, "err", err)
		return nil, false, err
	case camp == nil:
		c.log.Debug("message ignored", "channel", m.ChannelID, "message", m.ID, "why", "no campaign in this channel")
	case !isGM(camp, m.Author):
		c.log.Debug("message ignored", "channel", m.ChannelID, "message", m.ID, "why", "author "+m.Author.ID+" is not a GM of this campaign")
	default:
		return camp, true, nil
	}
	return camp, false, nil
}

// RecordPost remembers posted, the ids of every message of the bot's post answering
// reply seq of channelID, so an edit or delete of the GM's message can update or remove
// all of it.
func (c *Core) RecordPost(ctx context.Context, channelID string, seq int64, posted []string) error {
	return c.store.Update(ctx, func(tx storage.Tx) error {
		r, err := tx.Reply(channelID, seq)
		if err != nil {
			return fmt.Errorf("reply %d of %s: %w", seq, channelID, err)
		}
		r.Posted = posted
		return tx.PutReply(r)
	})
}

// eventFailed turns a message event's error into actions: a skipped event is logged at
// debug and does nothing; anything else is logged and the GM is told nothing was applied.
func (c *Core) eventFailed(kind, channelID, messageID string, err error) []Action {
	var s *skipped
	if errors.As(err, &s) {
		c.log.Debug(kind+" ignored", "channel", channelID, "message", messageID, "why", s.why)
		return nil
	}
	c.log.Error(kind+" failed", "channel", channelID, "message", messageID, "err", err)
	return []Action{{Kind: Post, ChannelID: channelID, MessageID: messageID,
		Content: "Internal error: nothing in this message was applied."}}
}

// table is one channel's game as a transaction sees it: the campaign, its ruleset and
// its game cards, changed in memory and written back by save.
type table struct {
	camp  *storage.Campaign
	rules *ruleset.Loaded
	// catalogs is rules' catalog index, which the engine reads entries through.
	catalogs *catalog.Index
	records  []*storage.CardRecord
	cards    []*sheet.Card
	dirty    map[*storage.CardRecord]bool
	// dice throws the checks and free rolls; replay are faces thrown before (a reply's
	// Rolls) that the same tags throw again, each used once (check.go).
	dice   check.Source
	replay []storage.Roll
	// inv is the system the campaign's inventories are played on (nil: none, and invWhy
	// says why when it is not the usual).
	inv    *played
	invWhy string
	held   map[*storage.CardRecord]heldAs // inventory_tags.go
	actor  actor                          // who inventory tags act as (cmd_inventory_item.go)
	// sheets is the Applier the last apply ran its sheet tags through; what it worked
	// out for the cards holds until they change by other means (sheet.Applier). builds
	// is where apply's Appliers keep what they work out for the next message (nil: they
	// keep nothing beyond one).
	sheets *sheet.Applier
	builds *sheet.Builds
	// tx is the transaction the table was opened in, for what tags reach beyond the
	// cards: the channel's shop a buy tag buys from (market, loaded once; nil until a
	// tag needs it or after a refused buy). A scratch table (dry) reads through it and
	// never writes.
	tx     storage.Tx
	market *market
	dry    bool
	// failed is a store error met where no error can be returned (revert): save
	// returns it, so the transaction fails whole.
	failed error
}

// gmCampaign is channelID's campaign when author is one of its GMs; otherwise it skips
// (not an error): no campaign, or a player's message.
func gmCampaign(tx storage.Tx, channelID string, author User) (*storage.Campaign, error) {
	camp, err := tx.Campaign(channelID)
	if storage.KindOf(err) == storage.NotFound {
		return nil, skip("no campaign in this channel")
	}
	if err != nil {
		return nil, err
	}
	if !isGM(camp, author) {
		return nil, skip("author %s is not a GM of this campaign", author.ID)
	}
	return camp, nil
}

// openTable loads the campaign's ruleset and game cards.
func (c *Core) openTable(tx storage.Tx, camp *storage.Campaign) (*table, error) {
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, err
	}
	records, err := tx.GameCards(camp.ChannelID)
	if err != nil {
		return nil, err
	}
	records = cardRecords(records)
	t := &table{camp: camp, rules: l, catalogs: c.catalogs(l), records: records, cards: cardsOf(records), dirty: map[*storage.CardRecord]bool{}, dice: c.dice, tx: tx,
		builds: c.sheetBuilds(l)}
	if t.inv, err = c.playedSystem(tx, camp, l); err != nil {
		if refusal.Of(err) == "" {
			return nil, err
		}
		t.invWhy = plain(err)
	}
	return t, nil
}

// sheetBuilds is where the cards on l keep what their builds yield between messages,
// made once per loaded ruleset.
func (c *Core) sheetBuilds(l *ruleset.Loaded) *sheet.Builds {
	if b, ok := c.builds.Load(l); ok {
		return b.(*sheet.Builds)
	}
	b, _ := c.builds.LoadOrStore(l, sheet.NewBuilds(l.Ruleset))
	return b.(*sheet.Builds)
}

// cardRecords drops records without a card, so records and cards stay index for index.
func cardRecords(records []*storage.CardRecord) []*storage.CardRecord {
	out := records[:0:0]
	for _, r := range records {
		if r.Card != nil {
			out = append(out, r)
		}
	}
	return out
}

// apply applies tags in order (sheet tags through the engine, checks and free rolls
// thrown by it (check.go), inventory tags on the campaign's system (inventory_tags.go)),
// def being the card a tag without who= is for.
func (t *table) apply(tags []parser.Tag, def string) []applied {
	opts := sheet.Options{Default: def, Party: t.cards, Catalogs: t.catalogs}
	// One Applier for the message's sheet tags, so what a card's build yields is worked
	// out once, not per tag (sheet.Applier) — nor, when the build is as it was, per
	// message (sheet.Builds).
	var ap *sheet.Applier
	if t.builds != nil {
		ap = t.builds.Applier()
	} else {
		ap = sheet.NewApplier(t.rules.Ruleset)
	}
	t.sheets = ap
	out := make([]applied, 0, len(tags))
	for _, tag := range tags {
		var a applied
		switch {
		case tag.Kind == parser.Inventory:
			a = t.inventoryTag(tag, def)
		case isRoll(tag):
			a = t.throw(tag, def)
		default:
			a = applied{tag: tag, res: ap.Apply(t.cards, tag, opts)}
		}
		if tag.Kind == parser.Inventory || isRoll(tag) {
			ap.Forget() // such a tag changes cards by other means than ap
		}
		for _, cr := range a.res.Cards {
			if len(cr.Changes) > 0 {
				t.touched(cr.Card)
			}
		}
		out = append(out, a)
	}
	return out
}

// revert undoes changes where the cards still hold what they left (sheet.Revert) and
// returns what it put back.
func (t *table) revert(changes []sheet.Change) []sheet.Change {
	if len(changes) == 0 {
		return nil
	}
	var done []sheet.Change
	for _, r := range t.records {
		back := sheet.Revert(r.Card, changes)
		if len(back) > 0 {
			t.dirty[r] = true
			done = append(done, back...)
		}
	}
	done = append(done, t.revertHoldings(changes)...)
	if t.dry || t.tx == nil {
		return done
	}
	// The shop a buy tag or a purchase bought from (cmd_shop_buy.go), read afresh next.
	shop, err := revertShop(t.tx, t.camp.ChannelID, changes)
	if err != nil {
		t.failed = err
	}
	t.market = nil
	return append(done, shop...)
}

func (t *table) touched(name string) {
	for _, r := range t.records {
		if ruleset.SameName(r.Card.Name, name) {
			t.dirty[r] = true
		}
	}
}

// save writes the cards that changed.
func (t *table) save(tx storage.Tx, now time.Time) error {
	if t.failed != nil {
		return t.failed
	}
	for _, r := range t.records {
		if !t.dirty[r] {
			continue
		}
		r.UpdatedAt = now
		if err := tx.PutGameCard(t.camp.ChannelID, r); err != nil {
			return err
		}
	}
	return nil
}

// scratch is a copy of the table whose cards can be changed without touching the real
// ones: to work out again what earlier tags said.
func (t *table) scratch() *table {
	s := &table{camp: t.camp, rules: t.rules, catalogs: t.catalogs, dirty: map[*storage.CardRecord]bool{},
		dice: t.dice, replay: t.replay, inv: t.inv, invWhy: t.invWhy, tx: t.tx, dry: true, builds: t.builds}
	for _, r := range t.records {
		cp := *r
		cp.Card = r.Card.Clone()
		s.records = append(s.records, &cp)
	}
	s.cards = cardsOf(s.records)
	return s
}

// changesOf is every change the applied tags made, in order, in one slice made to size.
func changesOf(done []applied) []sheet.Change {
	n := 0
	for _, a := range done {
		for _, cr := range a.res.Cards {
			n += len(cr.Changes)
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]sheet.Change, 0, n)
	for _, a := range done {
		for _, cr := range a.res.Cards {
			out = append(out, cr.Changes...)
		}
	}
	return out
}

// defaultWho names the card a tag without who= is for (SPEC 3.2): the card of the
// author of the message this one answers — known from the front end, or, when it answers
// a GM's earlier reply, that reply's author — if they have exactly one card here; else
// the campaign's only card; else "" (who-required).
func defaultWho(tx storage.Tx, m Message, records []*storage.CardRecord) (string, error) {
	author := m.ReplyToAuthor
	if author == "" && m.ReplyTo != "" {
		r, err := tx.ReplyByMessage(m.ChannelID, m.ReplyTo)
		switch {
		case err == nil:
			author = r.AuthorID
		case storage.KindOf(err) != storage.NotFound:
			return "", err
		}
	}
	if author != "" {
		var own []*storage.CardRecord
		for _, r := range records {
			if r.OwnerID == author {
				own = append(own, r)
			}
		}
		if len(own) == 1 {
			return own[0].Card.Name, nil
		}
	}
	if len(records) == 1 {
		return records[0].Card.Name, nil
	}
	return "", nil
}
