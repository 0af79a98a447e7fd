package bot

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"sheetkeeper/catalog"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// Browsing with buttons: /catalog search pages with Previous / Next and picks from a
// menu; /sheet shows its pages (Overview, Lists, Live) on one private message. Every
// button carries the whole search or page in its custom id, so a click after a restart
// finds everything it needs, and answers by updating the message it is on.
//
//	catalog:page:<page>:<catalog>:<card>:<filter>:<query>   Previous, Next
//	catalog:pick:<page>:<catalog>:<card>:<filter>:<query>   the menu of the page's entries
//	sheet:page:<page>:<card>                                Overview, Lists, Live, Whole sheet
//
// <page> is a catalog page's number from 1 or a sheet page's name; <card> the card's
// name ("" for none) or "#" and a hash of it when the id would pass 100 characters.
// The catalog ids escape '%' and ':' in every argument but the query, which runs to the
// end. When the query and filter leave no room even with the card hashed, the listing
// shows its first page without buttons or menu and says why: cutting the query would
// page through another search than the one shown.

// The kinds of the browsing ids.
var (
	catalogPageID = componentKind{name: "catalog:page", arity: 5} // page, catalog, card, filter, query
	catalogPickID = componentKind{name: "catalog:pick", arity: 5} // the same
	sheetPageID   = componentKind{name: "sheet:page", arity: 2}   // page, card
)

// catalogBrowse is one /catalog search: what the command was given, and the page shown.
type catalogBrowse struct {
	page    int
	catalog string
	card    string
	filter  string
	query   string
}

var idEscaper = strings.NewReplacer("%", "%25", ":", "%3A")

// args are st's id arguments for page, naming the card by ref.
func (st catalogBrowse) args(page int, ref string) []string {
	return []string{strconv.Itoa(page), idEscaper.Replace(st.catalog), idEscaper.Replace(ref), idEscaper.Replace(st.filter), st.query}
}

// idLen is the length of the id of kind with args.
func idLen(kind componentKind, args []string) int {
	n := len(kind.name)
	for _, a := range args {
		n += 1 + len(a)
	}
	return n
}

// readBrowse reads a catalog id's arguments back.
func readBrowse(args []string) (catalogBrowse, error) {
	page, err := strconv.Atoi(args[0])
	if err != nil || page < 1 {
		return catalogBrowse{}, fmt.Errorf("%w: page %q", errMalformedComponentID, args[0])
	}
	st := catalogBrowse{page: page, query: args[4]}
	for i, to := range []*string{&st.catalog, &st.card, &st.filter} {
		if *to, err = url.PathUnescape(args[i+1]); err != nil {
			return catalogBrowse{}, fmt.Errorf("%w: %v", errMalformedComponentID, err)
		}
	}
	return st, nil
}

// components are a listing's menu (a rows catalog's entries on the page, to pick onto the
// card) and its Previous / Next (when it has more than one page). fits is false when the
// search is too long for the ids: then there are none.
func (st catalogBrowse) components(cat *ruleset.Catalog, pages int, shown []*catalog.Entry, has func(*catalog.Entry) bool) (rows []Row, fits bool) {
	pickable := cat.Kind() == "rows" && len(shown) > 0
	if !pickable && pages < 2 {
		return nil, true
	}
	ref := st.card
	if ref != "" && (strings.HasPrefix(ref, "#") || idLen(catalogPageID, st.args(pages, ref)) > maxCustomID) {
		ref = "#" + nameHash(ref)
	}
	if idLen(catalogPageID, st.args(pages, ref)) > maxCustomID {
		return nil, false
	}
	if pickable {
		placeholder := "Pick onto your character"
		if st.card != "" {
			placeholder = clipText("Pick onto "+st.card, 150)
		}
		sel := &Select{CustomID: catalogPickID.encode(st.args(st.page, ref)...), Placeholder: placeholder, MinValues: 1, MaxValues: 1}
		for _, e := range shown[:min(len(shown), maxSelectOptions)] {
			o := SelectOption{Label: clipText(e.Label, 100), Value: e.ID}
			if has(e) {
				o.Label = clipText("✓ "+e.Label+" (on the sheet)", 100)
			}
			if e.Summary != nil {
				o.Description = clipText(*e.Summary, 100)
			}
			sel.Options = append(sel.Options, o)
		}
		rows = append(rows, Row{Select: sel})
	}
	if pages > 1 {
		// A disabled button names its own page: Discord wants the ids of a message apart.
		prev := Button{Label: "Previous", Style: "secondary", CustomID: catalogPageID.encode(st.args(max(st.page-1, 1), ref)...), Disabled: st.page == 1}
		next := Button{Label: "Next", Style: "primary", CustomID: catalogPageID.encode(st.args(min(st.page+1, pages), ref)...), Disabled: st.page == pages}
		rows = append(rows, Row{Buttons: []Button{prev, next}})
	}
	return rows, true
}

// catalogPageClick answers Previous and Next: the page, afresh from the catalog and the
// card as they are now.
func (c *Core) catalogPageClick(ctx context.Context, comp Component, args []string) (Response, error) {
	st, err := readBrowse(args)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	err = c.store.View(ctx, func(tx storage.Tx) error {
		resp, err = c.browseCatalog(tx, comp.ChannelID, comp.GuildID, comp.User, st)
		return err
	})
	resp.Update = true
	return resp, err
}

// catalogPickClick answers a choice in a listing's menu: the entry is picked as /pick
// would pick it (the same command, so the same permissions: a player picks onto their own
// card, a GM onto any) onto the card the search names, or without one onto the presser's
// own character; the listing shows the page again under what the pick did, or why it
// did not.
func (c *Core) catalogPickClick(ctx context.Context, comp Component, args []string) (Response, error) {
	st, err := readBrowse(args)
	if err != nil {
		return Response{}, err
	}
	if len(comp.Values) != 1 {
		return Response{}, fmt.Errorf("%w: %d choices", errMalformedComponentID, len(comp.Values))
	}
	var name string
	err = c.store.View(ctx, func(tx storage.Tx) error {
		var t *cardTarget
		var err error
		if st.card != "" {
			t, err = c.targetByRef(tx, comp.ChannelID, comp.GuildID, comp.User, st.card, false)
		} else {
			t, err = c.ownTarget(tx, comp.ChannelID, comp.GuildID, comp.User)
		}
		if err == nil {
			name = t.card().Name
		}
		return err
	})
	var note string
	if err == nil {
		var picked Response
		picked, err = c.cmdPick(ctx, Command{
			Name: "pick", User: comp.User, ChannelID: comp.ChannelID, GuildID: comp.GuildID,
			Options: []Option{{Name: "name", Value: name}, {Name: "catalog", Value: st.catalog}, {Name: "entry", Value: comp.Values[0]}, {Name: "filter", Value: st.filter}},
		})
		note = picked.Content
	}
	if err != nil {
		if refusal.Of(err) == "" {
			return Response{}, err
		}
		note = "Not picked: " + plain(err)
	}
	var resp Response
	err = c.store.View(ctx, func(tx storage.Tx) error {
		resp, err = c.browseCatalog(tx, comp.ChannelID, comp.GuildID, comp.User, st)
		return err
	})
	resp.Content, resp.Update = note, true
	return resp, err
}

// hashRef is a card named by "#" and its name's hash (cardRef).
var hashRef = regexp.MustCompile(`^#[0-9a-f]{8}$`)

// targetByRef finds the card an id names, as findTarget would find it by its name (a
// game card of the channel's campaign, else u's library card); a hashed ref is matched
// against both.
func (c *Core) targetByRef(tx storage.Tx, channelID, guildID string, u User, ref string, edit bool) (*cardTarget, error) {
	if hashRef.MatchString(ref) {
		name, err := nameOfHash(tx, channelID, u, ref[1:])
		if err != nil {
			return nil, err
		}
		if name != "" {
			ref = name
		}
	}
	return c.findTarget(tx, channelID, guildID, u, ref, true, edit)
}

// nameOfHash is the name of the game card here, or else of u's library card, whose name
// hashes to hash; "" when none does.
func nameOfHash(tx storage.Tx, channelID string, u User, hash string) (string, error) {
	records, err := tx.GameCards(channelID)
	if err != nil {
		return "", err
	}
	lib, err := tx.LibraryCards(u.ID)
	if err != nil {
		return "", err
	}
	for _, r := range append(records, lib...) {
		if r.Card != nil && nameHash(r.Card.Name) == hash {
			return r.Card.Name, nil
		}
	}
	return "", nil
}

// The pages of /sheet: the whole sheet (what /sheet shows first), and its parts.
const (
	sheetAll      = "all"
	sheetOverview = "overview"
	sheetLists    = "lists"
	sheetLive     = "live"
)

// sheetButtons are the page buttons under a text sheet: the page shown is disabled, and
// Whole sheet comes back from a part.
func sheetButtons(page, name string) []Row {
	ref := cardRef(name, sheetPageID.room(sheetOverview))
	var row []Button
	for _, p := range []struct{ page, label string }{
		{sheetOverview, "Overview"}, {sheetLists, "Lists"}, {sheetLive, "Live"}, {sheetAll, "Whole sheet"},
	} {
		if p.page == sheetAll && page == sheetAll {
			continue
		}
		b := Button{Label: p.label, Style: "secondary", CustomID: sheetPageID.encode(p.page, ref)}
		if p.page == page {
			b.Style, b.Disabled = "primary", true
		}
		row = append(row, b)
	}
	return []Row{{Buttons: row}}
}

// sheetResponse is page of t's text sheet with its buttons.
func sheetResponse(t *cardTarget, page string) Response {
	return Response{Content: sheetPage(t, page), Ephemeral: true, Components: sheetButtons(page, t.card().Name)}
}

// sheetPageClick answers a page button under /sheet: that page of the card as it is now.
func (c *Core) sheetPageClick(ctx context.Context, comp Component, args []string) (Response, error) {
	page, ref := args[0], args[1]
	switch page {
	case sheetAll, sheetOverview, sheetLists, sheetLive:
	default:
		return Response{}, fmt.Errorf("%w: sheet page %q", errMalformedComponentID, page)
	}
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		t, err := c.targetByRef(tx, comp.ChannelID, comp.GuildID, comp.User, ref, false)
		if err != nil {
			return err
		}
		resp = sheetResponse(t, page)
		return nil
	})
	resp.Update = true
	return resp, err
}
