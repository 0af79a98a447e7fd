package bot

import (
	"context"
	"slices"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// Holdings is what a database already holds, as data for a front end to greet its
// operator with (the console's banner): on a second run, the game goes on where it was
// left. It reads at most maxHeld campaigns' cards, so a big database costs no more than
// a small one to summarise.
type Holdings struct {
	// Campaigns counts every campaign; Shown are the first maxHeld of them, in the
	// store's order.
	Campaigns int
	Shown     []HeldCampaign
	// LibraryCards counts the library cards of the people in the shown campaigns (their
	// GMs and their characters' owners): the store lists library cards per owner only.
	LibraryCards int
	Owners       []string
	// Rulesets are the imported rulesets installed where guild's commands look
	// (storage.RulesetHome), by id.
	Rulesets []HeldRuleset
}

// HeldCampaign is one campaign of Holdings.
type HeldCampaign struct {
	ChannelID  string
	Ruleset    sheet.RulesetRef
	Name       string   // the ruleset's name at that version ("" when it cannot be read)
	Characters []string // its game cards' names, at most maxNamed
	Cards      int      // how many game cards it has
}

// HeldRuleset is one imported ruleset of Holdings, every version installed.
type HeldRuleset struct {
	ID       string
	Name     string // the newest version's
	Versions []int
}

// maxHeld is how many campaigns Holdings describes.
const maxHeld = 10

// Holdings summarises the database for a front end of guild ("" for the console).
func (c *Core) Holdings(ctx context.Context, guild string) (Holdings, error) {
	var h Holdings
	err := c.store.View(ctx, func(tx storage.Tx) error {
		h = Holdings{}
		camps, err := tx.Campaigns()
		if err != nil {
			return err
		}
		h.Campaigns = len(camps)
		var owners []string
		for _, camp := range camps[:min(len(camps), maxHeld)] {
			held, cardOwners, err := c.holding(tx, camp)
			if err != nil {
				return err
			}
			h.Shown = append(h.Shown, held)
			owners = append(owners, cardOwners...)
		}
		slices.Sort(owners)
		for _, o := range slices.Compact(owners) {
			cards, err := tx.LibraryCards(o)
			if err != nil {
				return err
			}
			if len(cards) > 0 {
				h.LibraryCards += len(cards)
				h.Owners = append(h.Owners, o)
			}
		}
		h.Rulesets, err = heldRulesets(tx, guild)
		return err
	})
	return h, err
}

// holding describes camp, and returns the people in it: its user GMs and its cards'
// owners.
func (c *Core) holding(tx storage.Tx, camp *storage.Campaign) (HeldCampaign, []string, error) {
	held := HeldCampaign{ChannelID: camp.ChannelID, Ruleset: camp.Ruleset}
	if l, err := c.rules(tx, camp.GuildID, camp.Ruleset); err == nil {
		held.Name = l.Name
	}
	var people []string
	for _, g := range camp.GMs {
		if g.Kind == "user" {
			people = append(people, g.ID)
		}
	}
	records, err := tx.GameCards(camp.ChannelID)
	if err != nil {
		return HeldCampaign{}, nil, err
	}
	records = cardRecords(records)
	held.Cards = len(records)
	for _, r := range records {
		people = append(people, r.OwnerID)
		if len(held.Characters) < maxNamed {
			held.Characters = append(held.Characters, r.Card.Name)
		}
	}
	return held, people, nil
}

// heldRulesets are the imported rulesets guild's commands see.
func heldRulesets(tx storage.Tx, guild string) ([]HeldRuleset, error) {
	ids, err := tx.RulesetIDs(guild)
	if err != nil {
		return nil, err
	}
	var out []HeldRuleset
	for _, id := range ids {
		if !storage.Imported(id) {
			continue
		}
		vs, err := tx.RulesetVersions(guild, id)
		if err != nil {
			return nil, err
		}
		if len(vs) == 0 {
			continue
		}
		slices.Sort(vs)
		rec, err := tx.Ruleset(guild, id, vs[len(vs)-1])
		if err != nil {
			return nil, err
		}
		out = append(out, HeldRuleset{ID: id, Name: rec.Name, Versions: vs})
	}
	return out, nil
}
