package bot

import (
	"context"
	"strconv"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// /use and /rest: play from a slash command instead of a GM's tag.
//
// Both go through exactly the path a GM's tag goes through — the request is the tag a GM
// would write ([sheet: who="Mira" op="use" name="Ember Dart"]), applied by the engine to
// the channel's game cards (table.apply) and answered with its canonical write-back and
// the per-character summary a reply's post carries, so an AI GM reading the channel sees
// the outcome in the form it knows.
//
// Each is one transaction, and it is recorded in the channel's reply log like a GM's
// reply (Source "command:use" or "command:rest", as a fired schedule is "schedule:<id>";
// an /item's says who it acted as, "command:give:player", so a Redo acts as it did),
// with the changes it made. That keeps SPEC 6 true around it: a GM's earlier reply is no
// longer the latest, so editing it regenerates nothing and deleting it waits, and a
// regenerated reply can never spend what a player's /use spent in between. A command
// has no message of its own to edit or delete; its answer carries the Undo button every
// outcome post has (undo.go), so a GM can take back a player's mistaken /use.

// playCommands adds /use and /rest.
func playCommands(r *router) {
	r.command(CommandSpec{
		Name:        "use",
		Description: "Use something on your character's sheet (a spell, a knack): pays what it costs",
		Options: []OptionSpec{
			{Name: "name", Description: "Your character", Type: "string", Required: true},
			{Name: "entry", Description: "What to use, as the sheet names it", Type: "string", Required: true},
			{Name: "pool", Description: "Pay from this pool instead (a higher slot, a pool that pays for it)", Type: "string"},
		},
	}, (*Core).cmdUse).
		complete("name", (*Core).gameCardChoices).
		complete("entry", (*Core).useEntryChoices).
		complete("pool", (*Core).poolChoices)
	r.command(CommandSpec{
		Name:        "rest",
		Description: "A rest of the ruleset for one character or the whole party",
		Options: []OptionSpec{
			{Name: "rest", Description: "The rest (id or label)", Type: "string", Required: true},
			{Name: "who", Description: "A character, or party (the default)", Type: "string"},
		},
		GMOnly: true,
	}, (*Core).cmdRest).
		complete("rest", (*Core).restChoices).
		complete("who", (*Core).whoChoices)
}

// cmdUse answers /use: the player's own use of an entry on their card, all or nothing
// (SPEC 5.5). A card that is not the invoker's is refused unless the invoker is a GM.
func (c *Core) cmdUse(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.channelTable(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		camp := t.camp
		rec, err := findCard(t.records, cmd.Get("name"))
		if err != nil {
			return err
		}
		if rec.OwnerID != cmd.User.ID && !isGM(camp, cmd.User) {
			return refusal.New(refusal.NotAllowed, "%s is not your character: only its player or a GM may use what is on its sheet", rec.Card.Name)
		}
		tag := parser.Tag{Kind: parser.Sheet, Op: "use", Who: rec.Card.Name, Attrs: []parser.Attr{{Key: "name", Value: strings.TrimSpace(cmd.Get("entry"))}}}
		if pool := strings.TrimSpace(cmd.Get("pool")); pool != "" {
			tag.Attrs = append(tag.Attrs, parser.Attr{Key: "pool", Value: pool})
		}
		resp, err = c.playTag(tx, t, cmd, tag, rec.Card.Name+" cannot use "+tag.Attrs[0].Value)
		return err
	})
	return resp, err
}

// cmdRest answers /rest: a declared rest for one card or, by default, the whole party,
// each card on its own (a card the rest cannot reach says why).
func (c *Core) cmdRest(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.gmTable(tx, cmd)
		if err != nil {
			return err
		}
		if len(t.cards) == 0 {
			return refusal.New(refusal.UnknownCharacter, "nobody has joined this campaign yet: there is no one to rest")
		}
		who := strings.TrimSpace(cmd.Get("who"))
		if who == "" {
			who = "party"
		}
		tag := parser.Tag{Kind: parser.Sheet, Op: "rest", Who: who, Attrs: []parser.Attr{{Key: "rest", Value: strings.TrimSpace(cmd.Get("rest"))}}}
		resp, err = c.playTag(tx, t, cmd, tag, "the rest was not taken")
		return err
	})
	return resp, err
}

// playTag applies a play command's tag to the table as a GM's tag would be, all or
// nothing: refused, the command is refused with why after the refused prefix. Applied,
// it saves the cards the tag changed and records the command as the channel's newest
// reply, with its changes, in the command's transaction. Its message id is
// "command:<seq>", which no Discord message can have. The answer is the tag's outcome.
func (c *Core) playTag(tx storage.Tx, t *table, cmd Command, tag parser.Tag, refused string) (Response, error) {
	done := t.apply([]parser.Tag{tag}, "")
	if out := done[0].res.Outcome; !out.OK() {
		return Response{}, refusal.New(out.Reason, "%s: %s", refused, plain(out.Err()))
	}
	now := c.Now()
	if err := t.save(tx, now); err != nil {
		return Response{}, err
	}
	seq, err := tx.NextReplySeq(cmd.ChannelID)
	if err != nil {
		return Response{}, err
	}
	err = tx.PutReply(&storage.Reply{
		ChannelID: cmd.ChannelID, Seq: seq, MessageID: "command:" + strconv.FormatInt(seq, 10), AuthorID: cmd.User.ID,
		Text: tag.Canonical(), Status: storage.ReplyLive, Changes: changesOf(done), Rolls: rollsOf(done),
		Source: commandSource(tag.Op, t.actor), CreatedAt: now, UpdatedAt: now,
	})
	if err != nil {
		return Response{}, err
	}
	content, embeds := render(t.rules.Ruleset, t.cards, done)
	return Response{Content: content, Embeds: embeds, Components: undoRow(seq)}, nil
}

// actorNames are the Source suffixes of the actors a command can act as; actorTag, a
// GM's message's own semantics, has none.
var actorNames = map[actor]string{actorPlayer: "player", actorGM: "gm"}

// commandSource is the Source of the reply a command's tag op makes acting as a.
func commandSource(op string, a actor) string {
	if name, ok := actorNames[a]; ok {
		return "command:" + op + ":" + name
	}
	return "command:" + op
}

// sourceActor is who the reply recorded with source acted as (commandSource): a Redo
// applies its text again as the same one.
func sourceActor(source string) actor {
	rest, ok := strings.CutPrefix(source, "command:")
	if !ok {
		return actorTag
	}
	_, name, _ := strings.Cut(rest, ":")
	for a, n := range actorNames {
		if n == name {
			return a
		}
	}
	return actorTag
}
