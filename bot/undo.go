package bot

import (
	"context"
	"strconv"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// Undo and Redo (SPEC 6). Every outcome post — a GM message's reply, a scheduled rest,
// a player's /use, a GM's /rest — carries an Undo button. Only a GM of the campaign may
// press it (anyone else is told so, privately, and nothing changes).
//
// Undo reverts the reply exactly as deleting the GM's message would: it goes through
// revertLatest, the one path a delete takes, so the reply's changes are put back only
// where the cards still hold what it left (a player's later edit survives), the deleted
// replies before it are undone with it, and its post is edited to say "Undone by <GM>"
// with a Redo button in place of Undo. Only the latest live reply can be undone: a later
// reply builds on it, and a delete would only mark it to wait; the button says so
// instead of changing nothing silently. Undo of a reply already undone says so too (two
// presses, or two GMs at once).
//
// Redo applies the reply's recorded text again through table.apply, the function that
// applies a message, to the card its tags without who= were for, so the reply becomes
// live again with the changes the text makes now; refused tags are shown on the post as
// a message's are. It is allowed only while no live reply came after the undone one:
// applied after a later reply, its tags would run out of order, and a later undo could
// not put things back as they were. A redo that is refused in part or whole shows the
// refusal on the post, which carries Undo again.
//
// Buttons name the reply by its number in the channel (reply:undo:<seq>), never by
// anything in memory, so they keep working after a restart. The post the button was on
// is updated in place when it is one message; a post of several messages, and the posts
// of the deleted replies undone with it, are edited through Options.Post.

// undoID and redoID are the custom ids of a reply's buttons: the reply's seq.
var (
	undoID = componentKind{name: "reply:undo", arity: 1}
	redoID = componentKind{name: "reply:redo", arity: 1}
)

// replyComponents adds the Undo and Redo buttons' handlers.
func replyComponents(r *router) {
	r.component(undoID, (*Core).undoClick)
	r.component(redoID, (*Core).redoClick)
}

// undoRow is the Undo button of reply seq's post.
func undoRow(seq int64) []Row {
	return []Row{{Buttons: []Button{{CustomID: undoID.encode(strconv.FormatInt(seq, 10)), Label: "Undo", Style: "secondary"}}}}
}

// redoRow is the Redo button of reply seq's post once it was undone.
func redoRow(seq int64) []Row {
	return []Row{{Buttons: []Button{{CustomID: redoID.encode(strconv.FormatInt(seq, 10)), Label: "Redo", Style: "secondary"}}}}
}

// undoClick answers Undo: the reply is reverted as a delete of its message would revert
// it (revertLatest).
func (c *Core) undoClick(ctx context.Context, comp Component, args []string) (Response, error) {
	return c.replyPress(ctx, comp, args, replyButton{
		verb: "undo", done: "↩ Undone.",
		refuse: map[string]string{
			storage.ReplyReverted: "This post is undone already: Redo applies it again.",
			storage.ReplyDeleted:  "This post's message was deleted: its changes are undone when the replies after it are undone or deleted.",
		},
		later: "A later reply builds on this one: undo the later ones first, newest first.",
		act: func(tx storage.Tx, camp *storage.Campaign, r *storage.Reply) ([]Action, error) {
			return c.revertLatest(tx, camp, r, c.Now(), whoPressed(comp.User))
		},
	})
}

// redoClick answers Redo: the undone reply's text is applied again as its message was.
func (c *Core) redoClick(ctx context.Context, comp Component, args []string) (Response, error) {
	return c.replyPress(ctx, comp, args, replyButton{
		verb: "redo", done: "↪ Redone.",
		refuse: map[string]string{
			storage.ReplyLive:    "This post is in effect already: there is nothing to redo.",
			storage.ReplyDeleted: "This post's message was deleted and is waiting to be undone: there is nothing to redo.",
		},
		later: "A later reply was applied since this one was undone: redone now, its tags would run out of order. Undo the later replies first, or write the tags again in a new message.",
		act: func(tx storage.Tx, camp *storage.Campaign, r *storage.Reply) ([]Action, error) {
			a, err := c.redo(tx, camp, r, whoPressed(comp.User))
			return []Action{a}, err
		},
	})
}

// replyButton is what one of a reply's buttons does: refused (not-allowed) while the
// reply's status is one of refuse's, or while a later live reply builds on it; else act,
// in the same transaction.
type replyButton struct {
	verb, done string
	refuse     map[string]string // status → why not
	later      string            // why not, while a later reply builds on this one
	act        func(tx storage.Tx, camp *storage.Campaign, r *storage.Reply) ([]Action, error)
}

// replyPress answers a press of b on the reply args names, all or nothing.
func (c *Core) replyPress(ctx context.Context, comp Component, args []string, b replyButton) (Response, error) {
	seq, err := replySeq(args[0])
	if err != nil {
		return Response{}, err
	}
	var acts []Action
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		acts = nil
		camp, r, err := c.pressedReply(tx, comp, seq, b.verb)
		if err != nil {
			return err
		}
		if why, ok := b.refuse[r.Status]; ok {
			return refusal.New(refusal.NotAllowed, "%s", why)
		}
		latest, err := latestLive(tx, r)
		if err != nil {
			return err
		}
		if !latest {
			return refusal.New(refusal.NotAllowed, "%s", b.later)
		}
		acts, err = b.act(tx, camp, r)
		return err
	})
	if err != nil {
		return Response{}, err
	}
	resp := c.clickAnswer(ctx, comp, seq, acts, b.done)
	resp.Posts = append(resp.Posts, c.rulesAfter(ctx, comp.ChannelID)...) // undone holdings: rules see it
	return resp, nil
}

// redo applies reply r's text again, making it live with the changes it makes now, and
// returns the edit of its post.
func (c *Core) redo(tx storage.Tx, camp *storage.Campaign, r *storage.Reply, by string) (Action, error) {
	if err := marketRedo(r); err != nil { // cmd_shop_buy.go
		return Action{}, err
	}
	t, err := c.openTable(tx, camp)
	if err != nil {
		return Action{}, err
	}
	def := r.Default
	if def == "" {
		if def, err = defaultWho(tx, Message{ChannelID: r.ChannelID}, t.records); err != nil {
			return Action{}, err
		}
	}
	// The same application a regenerate makes: every check throws the faces it threw
	// before, so a Redo rolls nothing anew (reapply sets r's changes and rolls), acting as
	// the reply's tags acted (a GM's /item overrides again, a player's does not).
	t.actor = sourceActor(r.Source)
	done := t.reapply(r, r.Text, def)
	now := c.Now()
	r.Status, r.Default, r.UpdatedAt = storage.ReplyLive, def, now
	if err := t.save(tx, now); err != nil {
		return Action{}, err
	}
	if err := tx.PutReply(r); err != nil {
		return Action{}, err
	}
	content, embeds, outs := renderReply(t.rules.Ruleset, nil, t.cards, done)
	a := postOrEdit(r, "↪ Redone by "+by+":\n"+content, embeds)
	a.Outcomes = outs
	return a, nil
}

// pressedReply is the campaign and reply seq of comp's channel when the one who pressed
// a reply's button is its GM (verb says what they pressed, for the refusal).
func (c *Core) pressedReply(tx storage.Tx, comp Component, seq int64, verb string) (*storage.Campaign, *storage.Reply, error) {
	camp, err := c.campaign(tx, comp.ChannelID)
	if err != nil {
		return nil, nil, err
	}
	if !isGM(camp, comp.User) {
		return nil, nil, refusal.New(refusal.NotGM, "Only the GM can %s.", verb)
	}
	r, err := tx.Reply(comp.ChannelID, seq)
	if storage.KindOf(err) == storage.NotFound {
		return nil, nil, refusal.New(refusal.UnknownValue, "This post's reply is no longer recorded: there is nothing to %s.", verb)
	}
	if err == nil && r.CreatedAt.Before(camp.CreatedAt) {
		// The channel's campaign ended after this post (/demo reset): its buttons must
		// never reach the cards of the campaign played here now.
		return nil, nil, refusal.New(refusal.NotAllowed, "This post belongs to a campaign that has ended here: there is nothing to %s.", verb)
	}
	return camp, r, err
}

// clickAnswer turns the edits an Undo or Redo made into the click's answer: the post of
// reply seq, when it is one message (the one clicked) or was never recorded (a command's
// answer), is updated in place; every other post is edited through Options.Post, and the
// one who pressed is then told done.
func (c *Core) clickAnswer(ctx context.Context, comp Component, seq int64, acts []Action, done string) Response {
	var resp *Response
	for _, a := range acts {
		here := len(a.Posted) == 0 || len(a.Posted) == 1 && a.Posted[0] == comp.MessageID
		if resp == nil && a.ReplySeq == seq && here {
			resp = &Response{Update: true, Content: a.Content, Embeds: a.Embeds, Components: a.Components}
			continue
		}
		if len(a.Posted) > 0 {
			c.deliver(ctx, a)
		}
	}
	if resp == nil {
		return Response{Ephemeral: true, Content: done}
	}
	return *resp
}

// replySeq reads a button's reply number.
func replySeq(arg string) (int64, error) {
	seq, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || seq < 1 {
		return 0, refusal.New(refusal.Malformed, "This button names no reply: run the command again.")
	}
	return seq, nil
}

// whoPressed names the one who pressed a button, as a post says it.
func whoPressed(u User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.ID
}
