package bot

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /check and /roll: a player's own roll (SPEC 3.6), in the channel for everyone to see.
//
// Each is the tag a GM would write — [skill_check: who="Mira" skill="Sneak" dc="9"],
// [dice: 2d6+1] — thrown by the engine exactly as in a reply (table.throw) and recorded
// in the channel's reply log like /use (playTag), faces included, so undo and redo show
// the same roll.

// The subjects /check takes, in the order one wins over another.
var checkOptions = []string{"skill", "ability", "save"}

// checkCommands adds /check and /roll.
func checkCommands(r *router) {
	r.command(CommandSpec{
		Name:        "check",
		Description: "Roll a check for your character: a skill, an ability or a save",
		Options: []OptionSpec{
			{Name: "skill", Description: "A skill on your sheet", Type: "string"},
			{Name: "ability", Description: "An ability on your sheet", Type: "string"},
			{Name: "save", Description: "A save on your sheet", Type: "string"},
			{Name: "dc", Description: "The difficulty to meet (the GM's number)", Type: "integer"},
			{Name: "mode", Description: "Roll twice and keep the better or the worse", Type: "string",
				Choices: []Choice{{Name: "advantage", Value: "advantage"}, {Name: "disadvantage", Value: "disadvantage"}}},
			{Name: "name", Description: "Which of your characters (when you have more than one here)", Type: "string"},
			{Name: "spend", Description: "Points to spend for successes, as pool:points (resolve:2), where the ruleset allows it", Type: "string"},
		},
	}, (*Core).cmdCheck).
		complete("skill", (*Core).checkSkillChoices).
		complete("ability", (*Core).checkAbilityChoices).
		complete("save", (*Core).checkSaveChoices).
		complete("name", (*Core).gameCardChoices)
	r.command(CommandSpec{
		Name:        "roll",
		Description: "Roll dice in the channel: 2d6+1, 4d6kh3, d20",
		Options: []OptionSpec{
			{Name: "dice", Description: "Dice notation: NdM, + or - a number, kh/kl to keep the highest or lowest", Type: "string"},
			tableOption, // roll_table.go
		},
	}, (*Core).cmdRoll).complete("table", (*Core).tableChoices)
}

// cmdCheck answers /check: one check on the invoker's own card.
func (c *Core) cmdCheck(ctx context.Context, cmd Command) (Response, error) {
	subject, name := "", ""
	for _, k := range checkOptions {
		if v := strings.TrimSpace(cmd.Get(k)); v != "" {
			if subject != "" {
				return Response{}, refusal.New(refusal.Malformed, "a check rolls one thing: give skill, ability or save, not both %s and %s", subject, k)
			}
			subject, name = k, v
		}
	}
	if subject == "" {
		return Response{}, refusal.New(refusal.Malformed, "say what to roll: skill, ability or save")
	}
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.channelTable(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		camp := t.camp
		rec, err := ownCard(t.records, camp, cmd)
		if err != nil {
			return err
		}
		tag := parser.Tag{Kind: parser.SkillCheck, Op: subject, Who: rec.Card.Name, Attrs: []parser.Attr{{Key: subject, Value: name}}}
		if dc := strings.TrimSpace(cmd.Get("dc")); dc != "" {
			// A tag's numbers are at most 9 digits (parser); a longer dc would be dropped
			// there and the check rolled unjudged, so it is refused here.
			n, err := strconv.Atoi(dc)
			if err != nil || n < -999_999_999 || n > 999_999_999 {
				return refusal.New(refusal.Malformed, "dc is a whole number of at most 9 digits, not %q", dc)
			}
			tag.Attrs = append(tag.Attrs, parser.Attr{Key: "dc", Value: strconv.Itoa(n)})
		}
		if mode := strings.ToLower(strings.TrimSpace(cmd.Get("mode"))); mode != "" {
			if mode != "advantage" && mode != "disadvantage" {
				return refusal.New(refusal.Malformed, "mode is advantage or disadvantage, not %q", mode)
			}
			tag.Attrs = append(tag.Attrs, parser.Attr{Key: "mode", Value: mode})
		}
		// A spend is paid with the check, in this transaction, and given back by Undo.
		if spend := strings.TrimSpace(cmd.Get("spend")); spend != "" {
			tag.Attrs = append(tag.Attrs, parser.Attr{Key: "spend", Value: spend})
		}
		resp, err = c.playTag(tx, t, cmd, tag, rec.Card.Name+" cannot roll "+name)
		return err
	})
	return resp, err
}

// ownCard is the card a player's /check rolls: name: when given (their own, or any for a
// GM), else their one card in the campaign.
func ownCard(records []*storage.CardRecord, camp *storage.Campaign, cmd Command) (*storage.CardRecord, error) {
	if name := strings.TrimSpace(cmd.Get("name")); name != "" {
		rec, err := findCard(records, name)
		if err != nil {
			return nil, err
		}
		if rec.OwnerID != cmd.User.ID && !isGM(camp, cmd.User) {
			return nil, refusal.New(refusal.NotAllowed, "%s is not your character: only its player or a GM rolls its checks", rec.Card.Name)
		}
		return rec, nil
	}
	var own []*storage.CardRecord
	for _, r := range records {
		if r.OwnerID == cmd.User.ID {
			own = append(own, r)
		}
	}
	switch len(own) {
	case 0:
		return nil, refusal.New(refusal.UnknownCharacter, "you have no character in this campaign: join one with /character join")
	case 1:
		return own[0], nil
	}
	return nil, refusal.New(refusal.WhoRequired, "you have %d characters here: say which with name:", len(own))
}

// cmdRoll answers /roll: a free roll of dice notation, for everyone to see.
func (c *Core) cmdRoll(ctx context.Context, cmd Command) (Response, error) {
	if strings.TrimSpace(cmd.Get("table")) != "" {
		return c.rollTable(ctx, cmd) // roll_table.go
	}
	d, err := parser.ParseDice(strings.TrimSpace(cmd.Get("dice")))
	if err != nil {
		return Response{}, err
	}
	tag := parser.Tag{Kind: parser.DiceRoll, Attrs: []parser.Attr{{Key: "dice", Value: d.String()}}}
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		t, err := c.channelTable(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		resp, err = c.playTag(tx, t, cmd, tag, "the dice were not rolled")
		return err
	})
	return resp, err
}

// checkSkillChoices, checkAbilityChoices and checkSaveChoices offer what /check can roll on the
// invoker's card, each with the card's number: "Sneak +3", "Ward 5 dice".
func (c *Core) checkSkillChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.checkChoices(tx, q, "skill")
}

func (c *Core) checkAbilityChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.checkChoices(tx, q, "ability")
}

func (c *Core) checkSaveChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	return c.checkChoices(tx, q, "save")
}

// checkChoices offers the ruleset's skills, abilities or saves; with the numbers of the
// card name: names, else the invoker's one card here, when there is one.
func (c *Core) checkChoices(tx storage.Tx, q *acQuery, kind string) ([]Choice, error) {
	camp, err := tx.Campaign(q.a.ChannelID)
	if err != nil {
		return nil, nil
	}
	l, err := c.rules(tx, camp.GuildID, camp.Ruleset)
	if err != nil {
		return nil, nil
	}
	rs := l.Ruleset
	var vals *sheet.Values
	if rec := c.checkCard(tx, q); rec != nil {
		vals = evaluate(rs, rec.Card, c.cardHoldings(tx, camp, l, rec))
	}
	// number is the card's number for one choice, "" without a card.
	number := func(n func(*sheet.Values) float64) string {
		if vals == nil {
			return ""
		}
		return " " + checkValue(rs, n(vals))
	}
	var out []Choice
	switch kind {
	case "ability":
		for _, a := range rs.Sheet.Abilities {
			out = append(out, choiceOf(a.Label+number(func(v *sheet.Values) float64 { return abilityNumber(rs, v, a.ID) }), a.Label))
		}
	case "skill":
		for _, s := range rs.Sheet.Skills {
			out = append(out, choiceOf(s.Label+number(func(v *sheet.Values) float64 { return v.SkillMods[s.ID] }), s.Label))
		}
	case "save":
		for _, s := range rs.Sheet.Saves {
			out = append(out, choiceOf(s.Label+number(func(v *sheet.Values) float64 { return v.SaveMods[s.ID] }), s.Label))
		}
	}
	return ranked(q.typed, out), nil
}

// abilityNumber is what an ability check adds (or, on a pool, the dice it throws): the
// modifier on a dice-sum ruleset, the score on a pool.
func abilityNumber(rs *ruleset.Ruleset, v *sheet.Values, id string) float64 {
	if rs.Resolution.Kind == "dice-pool" {
		return v.AbilityScores[id]
	}
	return v.AbilityMods[id]
}

// checkCard is the card /check's choices show numbers for: name: when typed (a game
// card here, else the invoker's library card, which holds nothing), else the invoker's
// one card in the channel; nil when neither says one.
func (c *Core) checkCard(tx storage.Tx, q *acQuery) *storage.CardRecord {
	if name := strings.TrimSpace(q.get("name")); name != "" {
		if rec, err := tx.GameCard(q.a.ChannelID, name); err == nil && rec.Card != nil {
			return rec
		}
		card, _, _, err := c.quickCard(tx, q, "name")
		if err != nil {
			return nil
		}
		return &storage.CardRecord{Card: card}
	}
	records, err := tx.GameCards(q.a.ChannelID)
	if err != nil {
		return nil
	}
	own := slices.DeleteFunc(slices.Clone(records), func(r *storage.CardRecord) bool { return r.Card == nil || r.OwnerID != q.a.User.ID })
	if len(own) != 1 {
		return nil
	}
	return own[0]
}
