package bot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/content"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// The helpers every handler shares: the campaign a channel is bound to, the ruleset it
// is pinned to, who is a GM, finding a card by name, and turning an error into words.
// They only read inside the transaction they are given and keep nothing but the parsed
// ruleset cache, so functions passed to Store.Update may call them again on a retry.

// campaign loads the campaign bound to channelID, refusing no-campaign when there is
// none.
func (c *Core) campaign(tx storage.Tx, channelID string) (*storage.Campaign, error) {
	camp, err := tx.Campaign(channelID)
	if storage.KindOf(err) == storage.NotFound {
		return nil, refusal.New(refusal.NoCampaign, "this channel has no campaign: a GM starts one with /campaign create")
	}
	if err != nil {
		return nil, fmt.Errorf("loading the campaign of %s: %w", channelID, err)
	}
	return camp, nil
}

// rules returns the ruleset at exactly ref as guild sees it (the guild of the campaign,
// or of the command reading a library card): a built-in (package content) when its id
// and version are the built-in's, else the installed record in the namespace
// storage.RulesetHome gives — the guild's own for an imported local/<id>, the shared
// one for a built-in's older version kept in the store. A stored ruleset is parsed
// once per process: the same namespace, id and version never change content (SPEC
// 4.2), so the cache can never serve a stale one.
func (c *Core) rules(tx storage.Tx, guild string, ref sheet.RulesetRef) (*ruleset.Loaded, error) {
	key := rulesetKey{guild: storage.RulesetHome(guild, ref.ID), id: ref.ID, version: ref.Version}
	c.mu.Lock()
	l, ok := c.loaded[key]
	c.mu.Unlock()
	if ok {
		return l, nil
	}
	l, err := loadRules(tx, key.guild, ref)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.loaded[key]; ok {
		return old, nil
	}
	c.loaded[key] = l
	c.observe.RulesetsCached(len(c.loaded))
	return l, nil
}

// loadRules reads and validates the ruleset ref names in namespace home, built-in
// first.
func loadRules(tx storage.Tx, home string, ref sheet.RulesetRef) (*ruleset.Loaded, error) {
	if !storage.Imported(ref.ID) {
		b, ok, err := content.Lookup(ref.ID)
		if err != nil {
			return nil, err
		}
		if ok {
			l, err := loadBuiltin(b)
			if err != nil {
				return nil, fmt.Errorf("built-in ruleset %s: %w", ref.ID, err)
			}
			if l.Version == ref.Version {
				return l, nil
			}
		}
	}
	rec, err := tx.Ruleset(home, ref.ID, ref.Version)
	if storage.KindOf(err) == storage.NotFound {
		// Reached by a library card built in another server on that server's import.
		return nil, refusal.New(refusal.NotAllowed, "%s v%d is not installed here: a ruleset imported in a server is that server's (/ruleset list shows what this one has)", ref.ID, ref.Version)
	}
	if err != nil {
		return nil, fmt.Errorf("loading ruleset %s v%d: %w", ref.ID, ref.Version, err)
	}
	l, err := loadRecord(rec)
	if err != nil {
		return nil, fmt.Errorf("ruleset %s v%d: %w", ref.ID, ref.Version, err)
	}
	return l, nil
}

// loadBuiltin reads a built-in ruleset: a single file or a package folder.
func loadBuiltin(b content.Builtin) (*ruleset.Loaded, error) {
	if b.IsPackage() {
		return ruleset.LoadFS(b.Package)
	}
	return ruleset.LoadFile(b.File)
}

// loadRecord reads an installed ruleset from the bytes it was imported from: a single
// file, or a package's files served from memory.
func loadRecord(rec *storage.RulesetRecord) (*ruleset.Loaded, error) {
	if rec.Files == nil {
		return ruleset.LoadFile(rec.File)
	}
	files := make(map[string][]byte, len(rec.Files))
	for name, data := range rec.Files {
		files[strings.TrimPrefix(name, "/")] = data
	}
	return ruleset.LoadFiles(files)
}

// isGM reports whether u is on the campaign's GM list: a user by id, a role the user
// holds, or a bot or webhook by its id (a webhook's messages carry the webhook's id as
// author id too, so either matches).
func isGM(camp *storage.Campaign, u User) bool {
	for _, gm := range camp.GMs {
		if gm.ID == "" {
			continue
		}
		switch gm.Kind {
		case "role":
			if slices.Contains(u.Roles, gm.ID) {
				return true
			}
		default: // user, webhook
			if gm.ID == u.ID || gm.ID == u.WebhookID {
				return true
			}
		}
	}
	return false
}

// findCard finds the record whose card name is name, by sheet.FindNamed's rule (as
// who= compares). None is unknown-character, two are ambiguous-character.
func findCard(records []*storage.CardRecord, name string) (*storage.CardRecord, error) {
	return sheet.FindNamed(records, name, func(r *storage.CardRecord) string {
		if r.Card == nil {
			return ""
		}
		return r.Card.Name
	})
}

// gameCard finds a game card of the campaign in channelID by name (see findCard).
func gameCard(tx storage.Tx, channelID, name string) (*storage.CardRecord, error) {
	records, err := tx.GameCards(channelID)
	if err != nil {
		return nil, fmt.Errorf("loading the cards of %s: %w", channelID, err)
	}
	return findCard(records, name)
}

// cardsOf returns the cards of records, in order.
func cardsOf(records []*storage.CardRecord) []*sheet.Card {
	cards := make([]*sheet.Card, 0, len(records))
	for _, r := range records {
		if r.Card != nil {
			cards = append(cards, r.Card)
		}
	}
	return cards
}

// plain is an error in words a player understands: a refusal's detail (written for
// people) or, without one, its reason explained. Anything else is not the user's to
// read — it is logged by the caller (see Core.explain) and shown as "Internal error".
func plain(err error) string {
	var e *refusal.Error
	if !errors.As(err, &e) {
		return "Internal error"
	}
	if e.Detail != "" {
		return e.Detail
	}
	return e.Reason.Explain()
}

// explain is plain, logging what is not a refusal: the detail goes to the log, the user
// reads "Internal error".
func (c *Core) explain(op string, err error) string {
	if refusal.Of(err) == "" {
		c.log.Error("internal error", "op", op, "err", err)
	}
	return plain(err)
}

// failure is the response of a command that failed: the refusal in plain words, or
// "Internal error" (logged), seen only by the one who asked.
func (c *Core) failure(op string, err error) Response {
	return Response{Content: c.explain(op, err), Ephemeral: true}
}
