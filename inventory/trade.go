package inventory

import (
	"sheetkeeper/refusal"
)

// Shop is a shop as a purchase or a sale reads it: open or not, what it sells (with
// stock), what it has to pay with, and its prices.
type Shop struct {
	Prices
	Open bool
	// Buys: the shop buys from players.
	Buys     bool
	Listings []Listing
	// Funds is the shop's money in the smallest coin; nil: unlimited.
	Funds *int64
}

// Listing is one thing a shop sells: an item, its own price per lot (nil: the item's
// cost with the shop's markup), and how many lots are left (nil: unlimited).
type Listing struct {
	Item  *Item
	Price *int64
	Stock *int64
}

// Purchase is what buying did: the buyer's purse after paying, what they paid, and the
// new entry (a bundle's lots times its size).
type Purchase struct {
	Purse Purse
	Paid  int64
	Entry *Entry
}

// LotPrice is what one lot of a listing costs: its own price, else the item's cost with
// the shop's markup.
func (st *Shop) LotPrice(l *Listing) int64 {
	if l.Price != nil {
		return *l.Price
	}
	return st.Price(l.Item.Cost)
}

// Buy sells lots of listing i to a buyer with purse p, as Pack Rat's party server does,
// all or nothing: the shop must be open, have the stock, and the buyer the money, paid
// with change (Money.Pay). On success the stock goes down and the shop's funds up; on a
// refusal nothing changes.
func (c *Campaign) Buy(st *Shop, i int, lots int64, p Purse, uid string) (Purchase, error) {
	if !st.Open {
		return Purchase{}, refusal.New(refusal.NotAllowed, "the shop is closed")
	}
	if i < 0 || i >= len(st.Listings) {
		return Purchase{}, refusal.New(refusal.UnknownEntry, "the shop sells no such thing")
	}
	l := &st.Listings[i]
	if lots < 1 || lots > maxLots {
		return Purchase{}, refusal.New(refusal.BadAmount, "buy 1 up to %d at a time", maxLots)
	}
	if l.Stock != nil && *l.Stock < lots {
		return Purchase{}, refusal.New(refusal.OutOfStock, "out of stock: %d left", *l.Stock)
	}
	price := st.LotPrice(l) * lots
	after, ok := c.System.Money().Pay(p, price)
	if !ok {
		return Purchase{}, refusal.New(refusal.CannotAfford, "cannot afford %s", c.System.Money().Format(price))
	}
	e := c.NewEntry(uid, l.Item, lots*bundleOf(c, l.Item))
	if l.Stock != nil {
		*l.Stock -= lots
	}
	if st.Funds != nil {
		*st.Funds += price
	}
	return Purchase{Purse: after, Paid: price, Entry: e}, nil
}

// maxLots bounds one purchase.
const maxLots = 10000

// bundleOf is how many of an item one lot is (its bundle size, else 1).
func bundleOf(c *Campaign, it *Item) int64 {
	cur := c.Now(&Entry{Item: it})
	if !cur.Has("bundle") {
		return 1
	}
	v, _ := cur.Field("bundle")
	n, _ := v.(float64)
	return max(int64(n), 1)
}

// Sell sells qty of entry e to the shop for its offer (the item as it is now, per
// bundle), paid into the seller's purse in the change coins. The shop must be open, buy
// from players and have the funds; the entry's count goes down. On a refusal nothing
// changes.
func (c *Campaign) Sell(st *Shop, e *Entry, qty int64, p Purse) (Purse, int64, error) {
	if !st.Open || !st.Buys {
		return nil, 0, refusal.New(refusal.NotAllowed, "the shop does not buy")
	}
	if qty < 1 || qty > e.Qty || qty > maxLots {
		return nil, 0, refusal.New(refusal.BadAmount, "sell 1 up to %d", min(e.Qty, maxLots))
	}
	offer := st.Offer(c.Now(e).Cost, qty, bundleOf(c, e.Item))
	if st.Funds != nil && *st.Funds < offer {
		return nil, 0, refusal.New(refusal.CannotAfford, "the shop has only %s", c.System.Money().Format(*st.Funds))
	}
	if st.Funds != nil {
		*st.Funds -= offer
	}
	e.Qty -= qty
	return c.System.Money().Receive(p, offer), offer, nil
}
