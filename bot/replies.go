package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"sheetkeeper/parser"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// Edits and deletes of replies (SPEC 6). Only the latest live reply can change what it
// did: an edit regenerates it (its changes reverted, the new text applied, so it can
// never spend twice) or continues it (the old text kept, its tags as they were, and only
// the added text applied, joining the same reply); either keeps the faces its checks
// threw. A delete reverts it and, newest first, the deleted replies before it back to
// the previous live one that changed anything. An earlier reply stands until the later
// ones are gone. A
// revert puts a value back only where it still holds what the reply left, so a player's
// later edit survives and an unrelated edit never blocks undoing an XP award.

// OnEdit handles an edit of a message. An edit of a reply applied regenerates or
// continues it, and of a reply undone is the text its Redo applies; an edit of a GM's
// message whose create has not arrived yet applies it as the message (see lateCreate).
// Anything else — an edit of a message never a reply, of one deleted before it arrived,
// or one whose text did not change (Discord sends edits when it unfurls a link) — does
// nothing.
func (c *Core) OnEdit(ctx context.Context, m Message) []Action {
	var acts []Action
	fresh := false // the edit came first and applied the message as new (lateCreate)
	rules := false // holdings changed: the inventory rules run once it is committed
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		acts, fresh, rules = nil, false, false
		camp, err := tx.Campaign(m.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			return skip("no campaign in this channel")
		}
		if err != nil {
			return err
		}
		r, err := tx.ReplyByMessage(m.ChannelID, m.ID)
		if storage.KindOf(err) == storage.NotFound {
			fresh = true
			acts, rules, err = c.lateCreate(tx, camp, m)
			return err
		}
		if err != nil {
			return err
		}
		if r.Text == m.Content {
			return skip("the text did not change")
		}
		if r.Status == storage.ReplyReverted {
			// Undone: the edit applies nothing, but Redo applies the text as it reads now
			// (undo a misclick, mend the tag, redo), its unchanged checks keeping their faces.
			r.Text, r.UpdatedAt = m.Content, c.Now()
			return tx.PutReply(r)
		}
		if r.Status != storage.ReplyLive {
			return skip("edit of a deleted reply")
		}
		latest, err := latestLive(tx, r)
		if err != nil {
			return err
		}
		if !latest {
			acts = []Action{{Kind: Post, ChannelID: m.ChannelID, MessageID: m.ID, Content: earlierEdit}}
			return nil
		}
		t, err := c.openTable(tx, camp)
		if err != nil {
			return err
		}
		def, err := defaultWho(tx, m, t.records)
		if err != nil {
			return err
		}
		var shown []applied
		changed := true
		held := holdingsChanged(r.Changes)
		if tags := parser.Read(m.Content).Tags; continues(r.Text, m.Content, tags) {
			shown, changed = continueReply(t, r, tags, def)
			rules = holdingsChanged(r.Changes) > held // the earlier changes stand
		} else {
			if !t.holdingsRevert(r.Changes) {
				acts = []Action{{Kind: Post, ChannelID: m.ChannelID, MessageID: m.ID, Content: heldEdit}}
				return nil
			}
			shown = regenerate(t, r, m.Content, def)
			rules = held > 0 || holdingsChanged(r.Changes) > 0 // reverted, or applied anew
		}
		now := c.Now()
		r.Text, r.Default, r.UpdatedAt = m.Content, def, now
		if err := t.save(tx, now); err != nil {
			return err
		}
		if err := tx.PutReply(r); err != nil {
			return err
		}
		if !changed {
			return nil
		}
		content, embeds, outs := renderReply(t.rules.Ruleset, nil, t.cards, shown)
		if len(shown) == 0 {
			content = noTagsLeft
		}
		a := postOrEdit(r, content, embeds)
		a.Outcomes = outs
		acts = []Action{a}
		return nil
	})
	if err != nil {
		return c.eventFailed("edit", m.ChannelID, m.ID, err)
	}
	if fresh {
		c.observeTags(acts)
	}
	if rules {
		acts = append(acts, c.rulesAfter(ctx, m.ChannelID)...)
	}
	return acts
}

// holdingsChanged counts those of a reply's changes that are to a character's holdings:
// an edit that reverts or applies one leaves the inventory rules something to see (an
// item equipped again, a while rule's item gone), even when the new text has no
// inventory tag left.
func holdingsChanged(changes []sheet.Change) int {
	n := 0
	for _, ch := range changes {
		if ch.Path == PathHoldings {
			n++
		}
	}
	return n
}

// lateCreate handles an edit of a message never applied. Discord may deliver a
// MESSAGE_UPDATE before the MESSAGE_CREATE it follows (SPEC 6): a GM's message is then
// applied as it reads now — the edit's text is the newest — and its create, when it
// comes, finds the message already applied. A message deleted before it arrived stays
// deleted. A message whose time is unknown, sent before the campaign, or sent longer ago
// than an event is ever late (storage.TombstoneLife) was never a reply — its create is
// not on the way — so its edit does nothing, as does a player's.
func (c *Core) lateCreate(tx storage.Tx, camp *storage.Campaign, m Message) (post []Action, rules bool, err error) {
	now := c.Now()
	if err := notDeleted(tx, m.ChannelID, m.ID, now); err != nil {
		return nil, false, err
	}
	if m.Sent.IsZero() || m.Sent.Before(camp.CreatedAt) || now.Sub(m.Sent) > storage.TombstoneLife {
		return nil, false, skip("edit of a message never applied")
	}
	if !isGM(camp, m.Author) {
		return nil, false, skip("edit of a message never applied: author %s is not a GM", m.Author.ID)
	}
	return c.applyNew(tx, camp, m, parser.Read(m.Content), now) // the edit's caller runs the rules
}

// regenerate reverts what reply r did and applies text's tags in its place. It returns
// every tag's outcome, for the post.
func regenerate(t *table, r *storage.Reply, text, def string) []applied {
	t.revert(r.Changes)
	return t.reapply(r, text, def) // an unchanged check keeps its roll (check.go)
}

// continues reports whether an edit from old to text (whose tags are tags) continues
// the reply: text starts with old, and every tag of old reads the same in text. Added text can change how the
// old reads — a closing backtick puts an old tag in a code span, where it is no tag — and
// the edit then regenerates, so the card is what the new text alone would make it.
func continues(old, text string, tags []parser.Tag) bool {
	if !strings.HasPrefix(text, old) {
		return false
	}
	was := parser.Read(old).Tags
	var kept []parser.Tag
	for _, tag := range tags {
		if tag.End <= len(old) {
			kept = append(kept, tag)
		}
	}
	return slices.EqualFunc(was, kept, func(a, b parser.Tag) bool {
		return a.Start == b.Start && a.End == b.End && a.Canonical() == b.Canonical()
	})
}

// continueReply applies only those of tags, the edited text's, that it adds after r's
// text (those ending past it), joining their changes to r's. The post shows every tag, so the earlier tags' outcomes
// are worked out again on a scratch copy of the cards as they were before r — the same
// outcomes r's post showed, as nothing but r has changed them since (it is the latest
// live reply) unless a player edited a value it touched. changed is false when the added
// text asks for nothing: the post stays as it is.
func continueReply(t *table, r *storage.Reply, tags []parser.Tag, def string) (shown []applied, changed bool) {
	var before, added []parser.Tag
	for _, tag := range tags {
		if tag.End > len(r.Text) {
			added = append(added, tag)
		} else {
			before = append(before, tag)
		}
	}
	if len(added) == 0 {
		return nil, false
	}
	s := t.scratch()
	s.revert(r.Changes)
	s.replay = r.Rolls // the earlier tags show the rolls they threw (check.go)
	shown = s.apply(before, def)
	// The added tags throw the faces an earlier text of the reply threw for the same tag
	// and the earlier tags left, as a regenerate's do (reapply): a check edited out and
	// written back at the end cannot fish for a better roll.
	t.replay = s.replay
	done := t.apply(added, def)
	rolls := slices.Concat(rollsOf(shown), rollsOf(done), t.replay)
	t.replay = nil
	r.Changes, r.Rolls = append(r.Changes, changesOf(done)...), rolls[:min(len(rolls), keptRolls)]
	return append(shown, done...), true
}

// latestLive reports whether r is the newest live reply of its channel that changed
// anything: a later reply that changed nothing (a quiet scheduled rest, narration
// without tags) builds on nothing, so it never holds an earlier one back.
func latestLive(tx storage.Tx, r *storage.Reply) (bool, error) {
	later, err := tx.Replies(r.ChannelID, r.Seq, 0)
	if err != nil {
		return false, err
	}
	for _, l := range later {
		if l.Status == storage.ReplyLive && len(l.Changes) > 0 {
			return false, nil
		}
	}
	return true, nil
}

// postOrEdit edits the bot's post answering r, or posts one when its id is not known
// (the front end has not reported it yet).
// Either carries the reply's Undo button.
func postOrEdit(r *storage.Reply, content string, embeds []Embed) Action {
	if len(r.Posted) == 0 {
		return Action{Kind: Post, ChannelID: r.ChannelID, MessageID: r.MessageID, Content: content, Embeds: embeds, Components: undoRow(r.Seq), ReplySeq: r.Seq}
	}
	return Action{Kind: Edit, ChannelID: r.ChannelID, Posted: r.Posted, Content: content, Embeds: embeds, Components: undoRow(r.Seq), ReplySeq: r.Seq}
}

// OnDelete handles a deleted message. Deleting the latest live reply reverts it, then
// the deleted replies before it back to the previous live one, newest first, and says
// so on their posts; deleting an earlier reply only marks it deleted: its changes wait
// until every later reply is gone. A delete delivered twice does nothing. A delete of a
// message never applied leaves a tombstone (SPEC 6: Discord delivers out of order), so
// the message's create or edit, should it come late, applies nothing; it changes
// nothing else. Tombstones expire (storage.TombstoneLife), so deletes of players'
// messages, which are never replies, cannot pile them up.
func (c *Core) OnDelete(ctx context.Context, d Deletion) []Action {
	var acts []Action
	tombstoned := false
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		acts, tombstoned = nil, false
		camp, err := tx.Campaign(d.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			return skip("no campaign in this channel")
		}
		if err != nil {
			return err
		}
		r, err := tx.ReplyByMessage(d.ChannelID, d.ID)
		if storage.KindOf(err) == storage.NotFound {
			tombstoned = true
			return tx.PutTombstone(&storage.Tombstone{ChannelID: d.ChannelID, MessageID: d.ID, At: c.Now()})
		}
		if err != nil {
			return err
		}
		if r.Status != storage.ReplyLive {
			return skip("delete of a reply already deleted")
		}
		now := c.Now()
		latest, err := latestLive(tx, r)
		if err != nil {
			return err
		}
		if !latest {
			r.Status, r.UpdatedAt = storage.ReplyDeleted, now
			return tx.PutReply(r)
		}
		acts, err = c.revertLatest(tx, camp, r, now, "")
		acts = slices.DeleteFunc(acts, func(a Action) bool { return len(a.Posted) == 0 })
		return err
	})
	if err != nil {
		var s *skipped
		if errors.As(err, &s) {
			c.log.Debug("delete ignored", "channel", d.ChannelID, "message", d.ID, "why", s.why)
		} else {
			c.log.Error("delete failed", "channel", d.ChannelID, "message", d.ID, "err", err)
		}
		return nil
	}
	if tombstoned {
		c.log.Debug("delete of a message never applied: tombstone left", "channel", d.ChannelID, "message", d.ID)
	}
	if len(acts) > 0 { // a reply reverted: rules see what its undoing changed
		acts = append(acts, c.rulesAfter(ctx, d.ChannelID)...)
	}
	return acts
}

// revertLatest reverts r, the latest live reply, then, newest first, the deleted replies
// before it back to the previous live one that changed anything (one that changed
// nothing holds none back, as latestLive says), and returns the edits that say so on
// their posts, each with a Redo button (an edit of a reply whose post is not known has no
// Posted: the caller drops it or shows it where it can). It is the one way a reply is
// undone: a delete of the GM's message (by "") and the post's Undo button (by the GM
// who pressed it) both come here, so the two can never differ.
func (c *Core) revertLatest(tx storage.Tx, camp *storage.Campaign, r *storage.Reply, now time.Time, by string) ([]Action, error) {
	t, err := c.openTable(tx, camp)
	if err != nil {
		return nil, err
	}
	undo := []*storage.Reply{r}
	for seq := r.Seq - 1; seq > 0; seq-- {
		prev, err := tx.Reply(r.ChannelID, seq)
		if storage.KindOf(err) == storage.NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if prev.Status == storage.ReplyLive && len(prev.Changes) > 0 {
			break // the previous live reply: it builds on those before it
		}
		if prev.Status == storage.ReplyDeleted {
			undo = append(undo, prev)
		}
	}
	type undone struct {
		r    *storage.Reply
		back []sheet.Change
	}
	var posts []undone
	for _, u := range undo {
		back := t.revert(u.Changes) // the shop's too (cmd_shop_buy.go)
		u.Status, u.UpdatedAt = storage.ReplyReverted, now
		if err := tx.PutReply(u); err != nil {
			return nil, err
		}
		posts = append(posts, undone{u, back})
	}
	if err := t.save(tx, now); err != nil {
		return nil, err
	}
	var acts []Action
	for _, p := range posts {
		head := undoneByDelete
		if p.r == r && by != "" {
			head = "↩ Undone by " + by + ": the changes of this post were reverted."
		}
		content, embeds := renderUndone(t.rules.Ruleset, t.cards, p.back, head)
		acts = append(acts, Action{Kind: Edit, ChannelID: r.ChannelID, Posted: p.r.Posted, Content: content, Embeds: embeds,
			Components: redoRow(p.r.Seq), ReplySeq: p.r.Seq})
	}
	return acts, nil
}

// undoneByDelete heads the post of a reply undone because its message was deleted.
const undoneByDelete = "↩ Undone: the GM's message was deleted, so its changes were reverted."
