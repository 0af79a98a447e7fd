package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
)

// The channel's shop (SPEC 8.1): a GM opens it with prices (/shop open), stocks it
// (/shop stock) and closes it; anyone sees its listings with a Buy button each (/shop).
// The shop is a stored record of the channel (storage.ShopRecord) read into an
// inventory.Shop against the campaign's system each time it is used, so a purchase or
// a sale is checked and written in the one transaction that reads it: the last potion
// goes to one buyer only.

// shopBuyID is a listing's Buy button: the item as the listing names it.
var shopBuyID = componentKind{name: "shop:buy", arity: 1}

// Pack Rat's shop defaults: no markup, and a shop buys at half an item's cost.
const (
	defaultSellRate = 50
	maxMarkup       = 500
	minMarkup       = -90
	maxSellRate     = 1000
	maxShopName     = 80        // it titles the shop's embed
	maxStock        = 1_000_000 // lots of one listing
)

// shopCommands adds /shop, /shop open|close|stock, /buy and /sell, and the Buy button.
func shopCommands(r *router) {
	r.command(CommandSpec{Name: "shop", Description: "Show the channel's shop: what it sells, at what price, with Buy buttons"}, (*Core).cmdShop)
	r.command(CommandSpec{Name: "shop open", Description: "Open (or reopen) the channel's shop", GMOnly: true, Options: []OptionSpec{
		{Name: "name", Description: "The shop's name", Type: "string"},
		{Name: "markup", Description: "Percent on an item's cost it sells at (-90 to 500; default 0)", Type: "integer"},
		{Name: "rate", Description: "Percent of an item's cost it buys at (0 to 1000; default 50)", Type: "integer"},
	}}, (*Core).cmdShopOpen)
	r.command(CommandSpec{Name: "shop close", Description: "Close the channel's shop (it keeps its stock)", GMOnly: true}, (*Core).cmdShopClose)
	r.command(CommandSpec{Name: "shop stock", Description: "Put items on the shop's shelves", GMOnly: true, Options: []OptionSpec{
		{Name: "item", Description: "The item, by name", Type: "string", Required: true},
		{Name: "count", Description: "How many to add (default 1)", Type: "integer"},
		{Name: "price", Description: `Its own price per lot ("4 gp 2 sp"; default: its cost with the markup)`, Type: "string"},
	}}, (*Core).cmdShopStock).complete("item", (*Core).catalogItemChoices)
	count := OptionSpec{Name: "count", Description: "How many (default 1)", Type: "integer"}
	name := OptionSpec{Name: "name", Description: "The character (default: yours in this game)", Type: "string"}
	r.command(CommandSpec{Name: "buy", Description: "Buy from the channel's shop", Options: []OptionSpec{
		{Name: "item", Description: "What to buy", Type: "string", Required: true}, count, name,
	}}, (*Core).cmdBuy).complete("item", (*Core).shopItemChoices).complete("name", (*Core).gameCardChoices)
	r.command(CommandSpec{Name: "sell", Description: "Sell to the channel's shop at its rate", Options: []OptionSpec{
		{Name: "item", Description: "What to sell", Type: "string", Required: true}, count, name,
	}}, (*Core).cmdSell).complete("item", (*Core).heldItemChoices).complete("name", (*Core).gameCardChoices)
	r.component(shopBuyID, (*Core).buyClick)
}

// market is a channel's shop opened against its campaign's table.
type market struct {
	t    *table
	ic   *inventory.Campaign
	rec  *storage.ShopRecord
	shop *inventory.Shop
}

// openMarket opens the channel's table and shop; a channel with no shop, or a campaign
// with no inventory, is refused.
func (c *Core) openMarket(tx storage.Tx, camp *storage.Campaign) (*market, error) {
	t, err := c.openTable(tx, camp)
	if err != nil {
		return nil, err
	}
	if t.inv == nil {
		return nil, t.noInventory("no shop")
	}
	m, err := loadMarket(tx, camp.ChannelID, t.inv.camp)
	if err != nil {
		return nil, err
	}
	m.t = t
	return m, nil
}

// loadMarket reads the channel's shop against ic, without the table.
func loadMarket(tx storage.Tx, channelID string, ic *inventory.Campaign) (*market, error) {
	rec, err := tx.Shop(channelID)
	if storage.KindOf(err) == storage.NotFound {
		return nil, refusal.New(refusal.NotEnabled, "this channel has no shop: a GM opens one with /shop open")
	}
	if err != nil {
		return nil, err
	}
	shop, err := shopOf(ic, rec)
	if err != nil {
		return nil, err
	}
	return &market{ic: ic, rec: rec, shop: shop}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// shopOf reads a stored shop against the campaign's system. Its listings' stock and
// funds are the record's own pointers' copies: keep writes them back.
func shopOf(c *inventory.Campaign, rec *storage.ShopRecord) (*inventory.Shop, error) {
	st := &inventory.Shop{Prices: inventory.Prices{Markup: rec.Markup, SellRate: rec.SellRate}, Open: rec.Open, Buys: true, Funds: rec.Funds}
	for _, l := range rec.Listings {
		it, err := c.Resolve(l.Item, true)
		if err != nil {
			return nil, fmt.Errorf("the shop's listing %q: %w", l.Item, err)
		}
		st.Listings = append(st.Listings, inventory.Listing{Item: it, Price: l.Price, Stock: l.Stock})
	}
	return st, nil
}

// listing finds the listing of the shop whose item is named name (as now, in any case,
// else the one whose name starts with it).
func (m *market) listing(name string) (int, error) { return m.find(name, false) }

// find is listing; exact finds only the listing of that very item (stocking more of it).
func (m *market) find(name string, exact bool) (int, error) {
	name = strings.TrimSpace(name)
	prefix := -1
	for i, l := range m.shop.Listings {
		n := m.ic.Now(&inventory.Entry{Item: l.Item}).Name
		if ruleset.FoldName(n) == ruleset.FoldName(name) || strings.EqualFold(m.rec.Listings[i].Item, name) {
			return i, nil
		}
		if !exact && strings.HasPrefix(ruleset.FoldName(n), ruleset.FoldName(name)) && name != "" {
			if prefix >= 0 {
				return 0, refusal.New(refusal.AmbiguousEntry, "the shop sells more than one %q: say which", name)
			}
			prefix = i
		}
	}
	if prefix >= 0 {
		return prefix, nil
	}
	return 0, refusal.New(refusal.UnknownEntry, "the shop sells no %q: /shop lists what it has", name)
}

// itemName is listing i's item as it is named now.
func (m *market) itemName(i int) string {
	return m.ic.Now(&inventory.Entry{Item: m.shop.Listings[i].Item}).Name
}

// save writes the shop's stock and funds back into its record and stores it.
func (m *market) save(tx storage.Tx) error {
	m.rec.Funds = m.shop.Funds
	for i := range m.rec.Listings {
		m.rec.Listings[i].Stock = m.shop.Listings[i].Stock
	}
	return tx.PutShop(m.rec)
}

func (c *Core) cmdShop(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.View(ctx, func(tx storage.Tx) error {
		camp, err := c.campaign(tx, cmd.ChannelID)
		if err != nil {
			return err
		}
		m, err := c.openMarket(tx, camp)
		if err != nil {
			return err
		}
		resp = m.show()
		return nil
	})
	return resp, err
}

// show is the shop's message: a line per listing, a Buy button each while it is open
// and has stock.
func (m *market) show() Response {
	money := m.ic.System.Money()
	var lines []string
	var buttons []Button
	for i, l := range m.shop.Listings {
		left := "plenty"
		if l.Stock != nil {
			left = strconv.FormatInt(*l.Stock, 10) + " left"
		}
		name := m.itemName(i)
		lines = append(lines, fmt.Sprintf("• %s — %s (%s)", name, money.Format(m.shop.LotPrice(&l)), left))
		if !m.shop.Open || l.Stock != nil && *l.Stock < 1 {
			continue
		}
		id := m.rec.Listings[i].Item
		if len(id) > shopBuyID.room() {
			continue // a name too long for a button: /buy still buys it
		}
		buttons = append(buttons, Button{CustomID: shopBuyID.encode(id), Label: "Buy " + name, Style: "primary"})
	}
	if len(lines) == 0 {
		lines = append(lines, "Nothing on the shelves yet: a GM stocks it with /shop stock.")
	}
	state := "open"
	if !m.shop.Open {
		state = "closed"
	}
	desc := strings.Join(lines, "\n") + fmt.Sprintf("\nIt buys at %d%% of an item's cost (/sell).", m.rec.SellRate)
	var rows []Row
	for len(buttons) > 0 {
		n := min(len(buttons), 5)
		rows = append(rows, Row{Buttons: buttons[:n]})
		buttons = buttons[n:]
	}
	return Response{Embeds: []Embed{{Title: m.rec.Name + " (" + state + ")", Description: desc}}, Components: rows}
}

func (c *Core) cmdShopOpen(ctx context.Context, cmd Command) (Response, error) {
	markup, err := intOption(cmd, "markup", 0, minMarkup, maxMarkup)
	if err != nil {
		return Response{}, err
	}
	rate, err := intOption(cmd, "rate", defaultSellRate, 0, maxSellRate)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		rec, err := tx.Shop(camp.ChannelID)
		fresh := storage.KindOf(err) == storage.NotFound
		if fresh {
			rec, err = &storage.ShopRecord{ChannelID: camp.ChannelID, Name: "The shop"}, nil
		}
		if err != nil {
			return err
		}
		if n := strings.TrimSpace(cmd.Get("name")); n != "" {
			if utf8.RuneCountInString(n) > maxShopName {
				return refusal.New(refusal.TooMany, "name: a shop's name is at most %d characters", maxShopName)
			}
			rec.Name = n
		}
		rec.Open, rec.UpdatedAt = true, c.Now()
		// A reopened shop keeps the prices it had unless told others (a rate of 0, a shop
		// that buys nothing, is one the GM set, not one missing).
		if cmd.Get("markup") != "" || fresh {
			rec.Markup = markup
		}
		if cmd.Get("rate") != "" || fresh {
			rec.SellRate = rate
		}
		if err := tx.PutShop(rec); err != nil {
			return err
		}
		m, err := c.openMarket(tx, camp)
		if err != nil {
			return err
		}
		resp = m.show()
		resp.Content = fmt.Sprintf("%s is open: it sells at %+d%% on cost and buys at %d%%.", rec.Name, rec.Markup, rec.SellRate)
		return nil
	})
	return resp, err
}

func (c *Core) cmdShopClose(ctx context.Context, cmd Command) (Response, error) {
	var resp Response
	err := c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		rec, err := tx.Shop(camp.ChannelID)
		if storage.KindOf(err) == storage.NotFound {
			return refusal.New(refusal.NotEnabled, "this channel has no shop to close")
		}
		if err != nil {
			return err
		}
		rec.Open, rec.UpdatedAt = false, c.Now()
		resp = Response{Content: rec.Name + " is closed: nothing is bought or sold until a GM runs /shop open."}
		return tx.PutShop(rec)
	})
	return resp, err
}

func (c *Core) cmdShopStock(ctx context.Context, cmd Command) (Response, error) {
	n, err := intOption(cmd, "count", 1, 1, maxStock)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		camp, err := c.gmCampaign(tx, cmd)
		if err != nil {
			return err
		}
		m, err := c.openMarket(tx, camp)
		if err != nil {
			return err
		}
		ic := m.ic
		it, err := ic.Resolve(strings.TrimSpace(cmd.Get("item")), true)
		if err != nil {
			return err
		}
		key := it.ID
		if key == "" {
			key = ic.Now(&inventory.Entry{Item: it}).Name
		}
		var price *int64
		if p := strings.TrimSpace(cmd.Get("price")); p != "" {
			amount, err := ic.System.Money().ParseAmount(p)
			if err != nil {
				return err
			}
			price = &amount
		}
		i, err := m.find(key, true)
		if refusal.Of(err) == refusal.UnknownEntry {
			if len(m.rec.Listings) >= storage.MaxListings {
				return refusal.New(refusal.TooMany, "the shop has %d listings, the most it keeps", storage.MaxListings)
			}
			zero := int64(0)
			m.rec.Listings = append(m.rec.Listings, storage.ShopListing{Item: key, Stock: &zero})
			m.shop.Listings = append(m.shop.Listings, inventory.Listing{Item: it, Stock: &zero})
			i, err = len(m.rec.Listings)-1, nil
		}
		if err != nil {
			return err
		}
		stock := n
		if s := m.shop.Listings[i].Stock; s != nil {
			stock += *s
		}
		if stock > maxStock {
			return refusal.New(refusal.TooMany, "a listing holds at most %d", maxStock)
		}
		m.shop.Listings[i].Stock = &stock
		if price != nil {
			m.rec.Listings[i].Price, m.shop.Listings[i].Price = price, price
		}
		m.rec.UpdatedAt = c.Now()
		if err := m.save(tx); err != nil {
			return err
		}
		resp = Response{Content: fmt.Sprintf("%s stocks %d %s (%d on the shelf, %s each).", m.rec.Name, n, m.itemName(i), stock,
			ic.System.Money().Format(m.shop.LotPrice(&m.shop.Listings[i])))}
		return nil
	})
	return resp, err
}

// intOption reads an integer option within lo..hi (def when absent); anything else is
// refused bad-amount, naming the option.
func intOption(cmd Command, name string, def, lo, hi int64) (int64, error) {
	s := strings.TrimSpace(cmd.Get(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, refusal.New(refusal.BadAmount, "%s: must be a whole number from %d to %d, not %q", name, lo, hi, s)
	}
	return n, nil
}

// shopItemChoices offers what the channel's shop sells.
func (c *Core) shopItemChoices(tx storage.Tx, q *acQuery) ([]Choice, error) {
	p, err := c.quickSystem(tx, q)
	if err != nil || p == nil {
		return nil, nil
	}
	m, err := loadMarket(tx, q.a.ChannelID, p.camp)
	if err != nil {
		return nil, nil
	}
	var out []Choice
	for i := range m.shop.Listings {
		n := m.itemName(i)
		if strings.Contains(strings.ToLower(n), strings.ToLower(q.typed)) && len(out) < maxItemChoices {
			out = append(out, Choice{Name: n, Value: n})
		}
	}
	return out, nil
}
