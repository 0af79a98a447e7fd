package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
)

// A campaign's inventory (SPEC 7) is played on a game system: the one /campaign create
// named (system:<id>, a built-in or one the guild imported), else the system derived
// from the ruleset's own items block, else none (inventory tags are then refused
// not-enabled). Building a system parses its whole file (milliseconds for the 5e SRD),
// so each is built once per process and kept by what identifies its bytes.

// playedKey identifies one campaign system built: a named system by its parsed file
// (lookupSystem keeps one per id and version), a ruleset's by the loaded ruleset itself.
type playedKey struct {
	sys   *inventory.System
	rules *ruleset.Loaded
}

// played is a system as a campaign plays it, and where it came from.
type played struct {
	camp *inventory.Campaign
	// named is the catalog by folded name (the first item of each name), so a tag's
	// item is found without folding the whole catalog again (item).
	named map[string]*inventory.Item
	// from says which system it is, for /campaign show: "Saltmarch (built-in system
	// saltmarch v1)", "the ruleset's own items (7 in its catalogs)".
	from string
	// ruleset: the system is the ruleset's own items block bridged (FromRuleset), not
	// a Pack Rat system of its own.
	ruleset bool
}

// playedSystem is the system camp plays its inventory on; nil (and no error) when it
// has none. A system the campaign names that cannot be found is refused not-enabled.
func (c *Core) playedSystem(tx storage.Tx, camp *storage.Campaign, l *ruleset.Loaded) (*played, error) {
	if camp.System == "" {
		if l.Ruleset.Items == nil {
			return nil, nil
		}
		return c.buildSystem(playedKey{rules: l}, "")
	}
	return c.namedSystem(tx, camp.GuildID, camp.System, camp.SystemVersion)
}

// namedSystem is system id at version (0: the newest) as a campaign of guild names it:
// a built-in, else one of the guild's imported systems (lookupSystem). One that is not
// there is refused not-enabled with what is; one that no longer reads says so.
func (c *Core) namedSystem(tx storage.Tx, guild, id string, version int) (*played, error) {
	sys, err := c.lookupSystem(tx, guild, id, version)
	if refusal.Of(err) == refusal.NotAllowed {
		return nil, c.noSystem(id)
	}
	if err != nil {
		return nil, err
	}
	kind := "imported"
	if content.IsSystem(id) {
		kind = "built-in"
	}
	return c.buildSystem(playedKey{sys: sys}, kind)
}

func (c *Core) noSystem(id string) error {
	var ids []string
	if bs, err := c.builtinSystems(); err == nil {
		for _, b := range bs {
			ids = append(ids, b.ID)
		}
	}
	return refusal.New(refusal.NotEnabled, "no game system %q is installed (built-in: %s; a GM adds one with /system import)", id, strings.Join(ids, ", "))
}

// buildSystem returns the campaign system cached under k, building it the first time:
// from k.rules' items block, or from the parsed k.sys (a kind of system: built-in or
// imported).
func (c *Core) buildSystem(k playedKey, kind string) (*played, error) {
	if p, ok := c.played.get(k); ok {
		return p, nil
	}
	sys, err := k.sys, error(nil)
	var from string
	if k.rules != nil {
		sys, err = problemsErr(inventory.FromRuleset(k.rules.Ruleset, k.rules.Entries))
		if err == nil {
			from = "the ruleset's own items (" + strconv.Itoa(len(sys.Catalog)) + " in its catalogs)"
		}
	} else {
		from = fmt.Sprintf("%s (%s system %s v%s)", sys.Name, kind, sys.ID, strconv.FormatFloat(sys.Version, 'f', -1, 64))
	}
	var camp *inventory.Campaign
	if err == nil {
		var ps strictjson.Problems
		if camp, ps = sys.Campaign(nil); len(ps) > 0 {
			err = ps
		}
	}
	if err != nil {
		// Refused, not failed: a campaign whose system cannot be read still plays its
		// sheets; only its inventory tags are refused, saying why.
		var ps strictjson.Problems
		if errors.As(err, &ps) && len(ps) > 1 {
			err = fmt.Errorf("%w (and %d more problems)", ps.Head(1), ps.Total()-1)
		}
		what := "game system " + sys.ID
		if k.rules != nil {
			what = "the items of ruleset " + k.rules.ID
		}
		return nil, refusal.New(refusal.NotEnabled, "%s cannot be read: %v", what, err)
	}
	p := &played{camp: camp, from: from, ruleset: k.rules != nil, named: make(map[string]*inventory.Item, len(sys.Catalog))}
	for _, it := range sys.Catalog {
		if n := ruleset.FoldName(it.Name); p.named[n] == nil {
			p.named[n] = it
		}
	}
	return c.played.keep(k, p), nil
}

// restoreHeld is rec's stored holdings in play on c, or refused malformed, saying whose
// and the first problem, when they no longer fit the campaign's system: the one answer
// every command and tag gives for holdings it cannot read.
func restoreHeld(c *inventory.Campaign, rec *storage.CardRecord) (*inventory.Held, error) {
	h, ps := c.Restore(rec.Inventory)
	if len(ps) > 0 {
		return nil, refusal.New(refusal.Malformed, "%s's stored inventory does not fit the campaign's system: %v", rec.Card.Name, ps.Head(1))
	}
	return h, nil
}

// item finds a catalog item by name as System.FindItem does (its id, else its exact
// name folded, else the one name starting with it), the exact cases by index.
func (p *played) item(name string) (*inventory.Item, error) {
	if it := p.camp.System.CatalogItem(name); it != nil {
		return it, nil
	}
	if it := p.named[ruleset.FoldName(name)]; it != nil {
		return it, nil
	}
	return p.camp.System.FindItem(name)
}

// problemsErr is a system read, or its problems as the error.
func problemsErr(s *inventory.System, ps strictjson.Problems) (*inventory.System, error) {
	if len(ps) > 0 {
		return nil, ps
	}
	return s, nil
}

// inventoryWords says which system camp's inventories are played on, for /campaign
// show.
func (c *Core) inventoryWords(tx storage.Tx, camp *storage.Campaign, l *ruleset.Loaded) string {
	p, err := c.playedSystem(tx, camp, l)
	switch {
	case err != nil:
		return "unavailable: " + plain(err)
	case p == nil:
		return "none (the ruleset has no items; /campaign create … system:<id> plays one)"
	}
	return p.from
}

// systemNote names the system a new campaign named, for a sentence: " with the game
// system Saltmarch (…)"; "" when it named none.
func (c *Core) systemNote(tx storage.Tx, camp *storage.Campaign, l *ruleset.Loaded) string {
	if camp.System == "" {
		return ""
	}
	return ", inventories on " + c.inventoryWords(tx, camp, l)
}
